"""The way out of a check on the value a user passes, said with what the code accepts: a
multiple, a range, every requirement of an `or`, the pattern a value must match."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from explain_samples import indexed_package, page_in_function

from errdex.store import Store

FILES = {
    "blocks/__init__.py": """
        from blocks.sizes import chunk, pad, set_port, set_level, score, parse_tag, parse_id
        """,
    "blocks/sizes.py": """
        import re

        BLOCK = 16
        _TAG = re.compile(r"^[a-z]+-\\d+$")


        def chunk(size):
            if size % 8 != 0:
                raise ValueError("size must be a multiple of 8")
            return size


        def pad(n):
            if n % BLOCK:
                raise ValueError(f"{n} is not a whole number of blocks")
            return n


        def set_port(port):
            if port < 1 or port > 65535:
                raise ValueError(f"port out of range: {port}")
            return port


        def set_level(level):
            if not 0 <= level <= 9:
                raise ValueError("level must be from 0 to 9")
            return level


        def score(criteria):
            if not isinstance(criteria, list) or len(criteria) < 2:
                raise ValueError("criteria must be an ordered list of levels")
            return criteria


        def parse_tag(tag):
            if not _TAG.fullmatch(tag):
                raise ValueError(f"bad tag {tag!r}")
            return tag


        def parse_id(text):
            if re.match(r"\\d+", text) is None:
                raise ValueError(f"bad id {text!r}")
            return int(text)
        """,
}


@pytest.fixture(scope="module")
def blocks(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("blocks"), "blocks", FILES)


def first(store: Store, function: str) -> str:
    return page_in_function(store, "blocks", function).solutions[0].text


def test_a_remainder_asks_for_a_multiple(blocks: Store) -> None:
    assert first(blocks, "chunk") == "Pass the argument `size` of `chunk` as a multiple of `8`."
    assert first(blocks, "pad") == (
        "Pass the argument `n` of `pad` as a multiple of `BLOCK` (`16`)."
    )


def test_two_bounds_joined_by_or_are_a_range(blocks: Store) -> None:
    assert first(blocks, "set_port") == (
        "Pass the argument `port` of `set_port` within [`1`, `65535`] (both included)."
    )


def test_a_negated_chain_is_a_range(blocks: Store) -> None:
    assert first(blocks, "set_level") == (
        "Pass the argument `level` of `set_level` within [`0`, `9`]."
    )


def test_every_requirement_of_an_or_is_said(blocks: Store) -> None:
    assert first(blocks, "score") == (
        "Pass the argument `criteria` of `score` as an instance of `list`, and with a length "
        "at least `2`."
    )


def test_a_pattern_the_module_compiles_is_named_with_its_text(blocks: Store) -> None:
    assert first(blocks, "parse_tag") == (
        "Pass the argument `tag` of `parse_tag` in a form the pattern `_TAG` "
        "(`r'^[a-z]+-\\d+$'`) matches as a whole."
    )
    assert first(blocks, "parse_id") == (
        "Pass the argument `text` of `parse_id` in a form the pattern `r'\\d+'` matches from "
        "its start."
    )


HIDING = {
    "quiet/__init__.py": """
        from quiet.lookup import current, find_all, pick, load, size_of
        """,
    "quiet/lookup.py": """
        _stack = []


        def current(silent=False):
            try:
                return _stack[-1]
            except IndexError:
                if not silent:
                    raise RuntimeError("There is no active context.")
            return None


        def find_all(names, strict=True):
            found = []
            for name in names:
                if name not in _stack:
                    if strict:
                        raise KeyError(f"no such name: {name}")
                    continue
                found.append(name)
            return found


        def pick(mode, quiet=False):
            if mode not in ("fast", "slow"):
                if not quiet:
                    raise ValueError(f"unknown mode: {mode}")
                return None
            return mode


        def load(only=None):
            if only is None:
                names = list(_stack)
            elif callable(only):
                names = [n for n in _stack if only(n)]
            else:
                missing = [n for n in only if n not in _stack]
                if missing:
                    raise KeyError(f"not available: {missing}")
                names = list(only)
            return names


        def size_of(value):
            if not isinstance(value, str):
                raise TypeError(f"a name is expected, got {value!r}")
            return len(value)
        """,
}


@pytest.fixture(scope="module")
def quiet(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("quiet"), "quiet", HIDING)


def test_a_flag_that_turns_the_error_into_none_is_never_the_first_solution(
    quiet: Store,
) -> None:
    # the only way past the check is `silent=True`: it hides the error, so it is said in
    # "what it means" and offered as no way out at all
    page = page_in_function(quiet, "quiet", "current")
    assert not any("silent" in s.text for s in page.solutions)
    assert (
        "A switch would only hide the error, so it is not offered as a way out: pass a "
        "non-empty (true) value for the argument `silent` of `current`. `current` then "
        "returns None instead of raising, and what made it fail stays."
    ) in page.what_it_means
    assert page.example_fix is None or "silent=True" not in page.example_fix.after


def test_a_flag_that_skips_the_item_is_no_way_out_either(quiet: Store) -> None:
    page = page_in_function(quiet, "quiet", "find_all")
    assert not any(
        s.text.startswith("Pass `False` for the argument `strict`") for s in page.solutions
    )
    assert not any("strict" in s.text for s in page.solutions)
    assert "skips the item instead of raising" in page.what_it_means


def test_another_form_of_the_argument_that_skips_what_is_checked_is_no_way_out(
    quiet: Store,
) -> None:
    # a callable `only` filters what exists and never looks for the names asked for: they
    # stay missing; leaving `only` out asks for none of them
    page = page_in_function(quiet, "quiet", "load")
    assert not any("callable" in s.text or "`only`" in s.text for s in page.solutions)
    assert "A switch would only hide the error" in page.what_it_means
    assert "never looks at what this check found wrong" in page.what_it_means


def test_a_form_the_check_itself_asks_for_is_still_the_way_out(quiet: Store) -> None:
    # nothing else on the path reads what `value` holds: its form is what is checked
    page = page_in_function(quiet, "quiet", "size_of")
    assert page.solutions and "`value`" in page.solutions[0].text
    assert "hide" not in page.what_it_means


def test_a_hiding_flag_is_said_beside_the_way_out_never_offered(quiet: Store) -> None:
    # a switch that turns the raise into a None hides the error even behind a real way
    # out: "What it means" says it, the solutions do not offer it
    page = page_in_function(quiet, "quiet", "pick")
    assert page.solutions[0].text.startswith(
        "Pass the argument `mode` of `pick` as one of `'fast'`, `'slow'`"
    )
    assert not any(s.hides for s in page.solutions)
    assert "A switch would only hide" in page.what_it_means


BRANCHES = {
    "route/__init__.py": """
        from route.ops import normalize, check_bounds
        """,
    "route/ops.py": """
        def normalize(scores, mode="sigmoid", out=None):
            if mode == "sigmoid":
                pass
            elif mode == "softmax":
                pass
            else:
                raise ValueError(f"Invalid mode: {mode}")
            width = _width(scores)
            assert width >= 0, "negative width"
            return scores


        def _width(scores):
            return len(scores)


        def check_bounds(delay, limit):
            if limit is not None and limit < 0:
                raise ValueError("limit must be at least 0")
        """,
}


@pytest.fixture(scope="module")
def route(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("route"), "route", BRANCHES)


def test_leaving_every_branch_of_a_dispatch_is_no_way_out(route: Store) -> None:
    # the assert sits after `if mode == ... elif mode == ...`: "a mode other than both"
    # takes the `else: raise`
    sites = [s for s in route.list_sites("route") if s.site.function == "normalize"]
    from errdex.explain.build import build_page

    for site in sites:
        page = build_page(route, site.id)
        assert not any("other than `'sigmoid'`" in s.text for s in page.solutions)


def test_none_from_a_function_that_returns_nothing_anyway_hides_nothing(route: Store) -> None:
    page = page_in_function(route, "route", "check_bounds")
    assert not any(s.text.startswith("Last resort") for s in page.solutions)


def test_a_multiple_of_another_argument_of_the_same_call(tmp_path: Path) -> None:
    files = {
        "pools/__init__.py": "from pools.ops import expand",
        "pools/ops.py": """
            def expand(topk, pool_size):
                if topk % pool_size != 0:
                    raise ValueError("topk must be a multiple of pool_size")
                return topk // pool_size
            """,
    }
    for store in indexed_package(tmp_path, "pools", files):
        assert page_in_function(store, "pools", "expand").solutions[0].text == (
            "Pass the argument `topk` of `expand` as a multiple of the argument `pool_size`."
        )


MISSING = {
    "store/__init__.py": "from store.dialect import Dialect, get_view_sql, load_vocab, reflect",
    "store/dialect.py": """
        import os


        class NoSuchTableError(Exception):
            pass


        class Dialect:
            def get_view_definition(self, connection, view_name, schema=None):
                found = connection.execute("select ...", view_name, schema).scalar()
                if not found:
                    raise NoSuchTableError(f"{schema}.{view_name}")
                return found


        def get_view_sql(connection, view_name):
            sql = connection.execute("show create table ...", view_name).scalar()
            if sql.upper().startswith("CREATE TABLE"):
                # a table, not a view
                raise NoSuchTableError(view_name)
            return sql


        def reflect(connection, table):
            table_name = table.name
            if not connection.has_table(table_name):
                raise NoSuchTableError(table_name)
            return table


        def load_vocab(vocab_file):
            found = _search(os.getcwd(), vocab_file)
            if found is None:
                raise FileNotFoundError(f"vocabulary not found at {vocab_file}")
            return found


        def _search(root, name):
            return None


        class Tree:
            def get(self, name):
                return None

            def __getitem__(self, name):
                node = self.get(name)
                if node is None:
                    raise KeyError(f"No node with name {name!r}")
                return node


        _PARSERS = {}


        def get_parser(name):
            if name not in _PARSERS:
                raise KeyError(f"Tool parser '{name}' not found.")
            return _PARSERS[name]


        def get_entry(index):
            if index > 3:
                raise KeyError(f"Number of patches {index} not found in the table")
            return index


        class Items(dict):
            def get_items(self, modality):
                if modality not in self:
                    raise KeyError(f"Modality {modality!r} not found.")
                return self[modality]


        def _images(items: Items):
            return items.get_items("image")


        def _audios(items: Items):
            return items.get_items("audio")
        """,
}


@pytest.fixture(scope="module")
def missing(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("missing"), "store", MISSING)


def test_a_name_not_found_in_the_data_is_a_name_that_exists(missing: Store) -> None:
    page = page_in_function(missing, "store", "Dialect.get_view_definition")
    assert page.solutions[0].text == (
        "Name a table that exists where the program looks for it: the message prints the one "
        "it was given (“SCHEMA.VIEW_NAME”, from `schema`, `view_name` of "
        "`Dialect.get_view_definition`); check its spelling, each part of it, and that the "
        "table is there for the program to reach."
    )
    assert "worth reporting" not in page.what_it_means


def test_a_name_found_of_another_kind_is_no_name_that_exists(missing: Store) -> None:
    # the name is a table's: it exists, and is not the view asked for
    page = page_in_function(missing, "store", "get_view_sql")
    assert not any("that exists" in s.text for s in page.solutions), page.solutions


def test_a_name_computed_from_an_argument_is_followed_to_it(missing: Store) -> None:
    page = page_in_function(missing, "store", "reflect")
    assert page.solutions[0].text.startswith(
        "Name a table that exists where the program looks for it: the message prints the one "
        "it was given (“TABLE_NAME”, from `table` of `reflect`)"
    )


def test_a_builtin_lookup_miss_names_the_thing_its_message_names(missing: Store) -> None:
    # `KeyError` names no thing: the message does ("No node with name ...")
    page = page_in_function(missing, "store", "Tree.__getitem__")
    assert page.solutions[0].text.startswith(
        "Name a node that exists where the program looks for it: the message prints the one "
        "it was given (“No node with name NAME”, from `name` of `Tree.__getitem__`)"
    ), page.solutions
    page = page_in_function(missing, "store", "get_parser")
    assert page.solutions[0].text.startswith("Name a tool parser that exists where"), page
    # a longer phrase describes a value, it names no thing
    page = page_in_function(missing, "store", "get_entry")
    assert not any("that exists" in s.text for s in page.solutions), page.solutions
    # every call names the modality itself ("image", "audio"): the package's, not the user's
    page = page_in_function(missing, "store", "Items.get_items")
    assert not any("that exists" in s.text for s in page.solutions), page.solutions


def test_a_file_not_found_is_a_path_where_it_exists(missing: Store) -> None:
    page = page_in_function(missing, "store", "load_vocab")
    assert any(s.text.startswith("Give a path at which the file exists") for s in page.solutions)


def test_a_predicate_of_the_value_says_what_passes_it(tmp_path: Path) -> None:
    files = {
        "paths/__init__.py": "from paths.check import in_dir, vocab",
        "paths/check.py": """
            import os


            def in_dir(path):
                if not path.is_dir():
                    raise ValueError(f"{path} is not a directory")
                return path


            def vocab(name):
                if not os.path.isfile(name):
                    raise ValueError(f"no vocabulary at {name}")
                return name
            """,
    }
    for store in indexed_package(tmp_path, "paths", files):
        assert page_in_function(store, "paths", "in_dir").solutions[0].text == (
            "Pass the argument `path` of `in_dir` as the path of a directory that exists."
        )
        assert page_in_function(store, "paths", "vocab").solutions[0].text == (
            "Pass the argument `name` of `vocab` as the path of a file that exists."
        )


def test_no_empty_value_for_an_argument_declared_as_an_object(tmp_path: Path) -> None:
    files = {
        "cfg/__init__.py": "from cfg.run import Config, start, start_maybe",
        "cfg/run.py": """
            class Config:
                pass


            def start(config: Config, retries: int):
                if config and retries:
                    raise ValueError("cannot retry a configured start")
                return config


            def start_maybe(config: Config | None, retries: int):
                if config and retries:
                    raise ValueError("cannot retry a configured start")
                return config
            """,
    }
    for store in indexed_package(tmp_path, "cfg", files):
        texts = [s.text for s in page_in_function(store, "cfg", "start").solutions]
        assert not any("value for the argument `config`" in t for t in texts)
        assert texts[0].startswith("Pass an empty (false) value for the argument `retries`")
        texts = [s.text for s in page_in_function(store, "cfg", "start_maybe").solutions]
        assert texts[0].startswith("Pass an empty (false) value for the argument `config`")


FLAGS = {
    "serve/__init__.py": "",
    "serve/cli.py": """
        import argparse
        import re

        _CPUS = re.compile(r"^\\d+(?:-\\d+)?$")


        def parser():
            p = argparse.ArgumentParser()
            p.add_argument("--bind-cpus", nargs="+", default=None)
            p.add_argument("--block-size", type=int, default=16)
            return p


        def bind(args):
            for cpus in args.bind_cpus:
                if not _CPUS.fullmatch(cpus):
                    raise ValueError("bind cpus must be written like 0-3")


        def blocks(args):
            if args.block_size % 16 != 0:
                raise ValueError("block size must be a multiple of 16")
        """,
}


def test_a_flags_value_is_given_in_the_form_the_check_takes(tmp_path: Path) -> None:
    from explain_samples import page_with_message

    for store in indexed_package(tmp_path, "serve", FLAGS):
        page = page_with_message(store, "serve", "bind cpus must be")
        assert page.solutions[0].text == (
            "Pass each value you give `--bind-cpus` in a form the pattern `_CPUS` "
            "(`r'^\\d+(?:-\\d+)?$'`) matches as a whole."
        )
        page = page_with_message(store, "serve", "block size must be")
        assert page.solutions[0].text == "Pass `--block-size` as a multiple of `16`."


def test_a_callable_the_value_must_be(tmp_path: Path) -> None:
    files = {
        "hooks/__init__.py": "from hooks.run import on_event, mapping_items",
        "hooks/run.py": """
            def on_event(handler):
                if not callable(handler):
                    raise TypeError(f"{handler!r} is not callable")
                return handler


            def mapping_items(mapping):
                if not hasattr(mapping, "keys"):
                    raise TypeError("not a mapping")
                return [(k, mapping[k]) for k in mapping.keys()]
            """,
    }
    for store in indexed_package(tmp_path, "hooks", files):
        assert page_in_function(store, "hooks", "on_event").solutions[0].text == (
            "Pass the argument `handler` of `on_event` as a callable (a function, a class, "
            "or an object with a `__call__` method)."
        )
        # an attribute the object must have is as often one of an object the package
        # builds: not said
        assert not page_in_function(store, "hooks", "mapping_items").solutions


def test_the_patterns_a_check_calls_are_read_without_parsing_the_whole_file(
    blocks: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The module's compiled patterns are top-level assignments: the statements that may
    # compile one are parsed alone (a large file's 4,000 lines are not), with the same page.
    import errdex.explain.context as context
    from errdex.explain.parse_cache import clear

    parsed: list[int] = []
    whole = context.parse_module

    def counted(text: str | None) -> object:
        parsed.append(len(text or ""))
        return whole(text)

    clear()
    monkeypatch.setattr(context, "parse_module", counted)
    assert first(blocks, "parse_tag") == (
        "Pass the argument `tag` of `parse_tag` in a form the pattern `_TAG` "
        "(`r'^[a-z]+-\\d+$'`) matches as a whole."
    )
    assert parsed == []
