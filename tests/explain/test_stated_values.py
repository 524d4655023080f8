"""The rule a message states of the value the user gives (its type, its range, what a
function the user hands over produces, how often a thing may match, a value another one
needs beside it), offered where it speaks to a user: a function a user calls, one a public
call hands the user's value to, or a setting the message names."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import SERVE_CLI, checks, indexed_package, offered, page_with_message

from errdex.explain.advice import message_advice
from errdex.store import Store


def _solutions(message: str) -> list[str]:
    return [a.solution for a in message_advice(message)]


def _first(message: str) -> str:
    (said,) = _solutions(message)
    return said.partition(", as the message says")[0]


def test_the_type_a_value_must_have() -> None:
    assert _first("drivername must be a string") == "Make drivername a string"
    assert _first("{paramname} must be a string") == "Make {paramname} a string"
    assert _first("'prompt' must be a string.") == "Make `prompt` a string"
    assert _first("enable_2x_fp8 must be bool or None") == "Make `enable_2x_fp8` bool or None"
    assert _first("batch_size must be an int, got {type(x).__name__}") == (
        "Make `batch_size` an int"
    )
    # a qualified requirement ("when ...", "for ...") is not the type alone
    assert _solutions("'default' must be a list when 'multiple' is true.") == []
    assert _solutions("Prompt must be a string for HF backend") == []


def test_the_range_a_value_must_be_in() -> None:
    assert _first("color values must be in the range 0 to {max_val}") == (
        "Keep color values in the range 0 to {max_val}"
    )
    assert _first("p_value_threshold must be between 0 and 1") == (
        "Keep `p_value_threshold` between 0 and 1"
    )


def test_what_a_function_the_user_hands_over_must_produce() -> None:
    assert _first(
        "Invalid `validation_alias` type. `validation_alias` generator must produce one of "
        "`{(str, AliasChoices, AliasPath)}`"
    ) == (
        "Make the `validation_alias` generator produce one of `str`, `AliasChoices` or `AliasPath`"
    )
    assert _first("Invalid `alias` type. `alias` generator must produce one of `{(str,)}`") == (
        "Make the `alias` generator produce a `str`"
    )
    assert _first("Config.alias_generator must return str, not {alias.__class__}") == (
        "Make `Config.alias_generator` return str"
    )


def test_how_often_a_thing_may_match() -> None:
    said = _first(
        "Found multiple quantization_config.targets matches for the shards of {prefix}: "
        "{m}. Each shard may match at most one target."
    )
    assert said == "Make each shard match at most one target"
    assert _solutions("objects and arrays may nest at most 64 levels") == []


def test_a_value_another_needs_beside_it() -> None:
    assert _first("'name' is required with 'prompt=True'.") == (
        "Give `name` too when you give `prompt=True`, or leave `prompt=True` out"
    )
    # a state of the code, not a value the user gave
    assert _solutions("q_proj is required when q_lora_rank is None") == []
    assert _solutions("score_mod_bwd is required when score_mod is provided") == []


PKG = {
    "pkg/__init__.py": "from pkg.api import connect, execute, Option\n",
    "pkg/api.py": """
        from pkg._checks import _check_port, _distill, _check_blocks


        def connect(host, port):
            _check_port(port)
            return _check_blocks(len(host) * 2)


        def _parse_decls(decls):
            for decl in decls or ():
                if decl.isidentifier():
                    return decl
            return None


        def execute(statement, params):
            distilled = _distill(params)
            return statement, distilled


        class Option:
            def __init__(self, param_decls=None, prompt=False):
                self.name = _parse_decls(param_decls)
                if prompt is True and self.name is None:
                    raise TypeError("'name' is required with 'prompt=True'.")
        """,
    "pkg/_checks.py": """
        def _check_port(port):
            if not 0 <= port <= 65535:
                raise ValueError("port must be between 0 and 65535")
            return port


        def _distill(params):
            if not isinstance(params, list):
                raise TypeError("List argument must consist only of tuples or dictionaries")
            return params


        def _check_blocks(blocks):
            if not isinstance(blocks, list):
                raise TypeError("blocks must be a list")
            return blocks
        """,
}


@pytest.fixture(scope="module")
def pkg(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("pkg"), "pkg", PKG)


def test_a_rule_of_a_call_the_user_makes(pkg: Store) -> None:
    page = page_with_message(pkg, "pkg", "'name' is required")
    assert any(
        s.text.startswith("Give `name` too when you give `prompt=True`, or leave `prompt=True`")
        for s in page.solutions
    )


def test_a_private_function_handed_the_users_value(pkg: Store) -> None:
    # `execute(statement, params)` hands `params` on as it is: the rule is of the user's
    # argument, however private `_distill`, and named so (the message's "List argument"
    # restated gives way to it, as a range does)
    page = page_with_message(pkg, "pkg", "List argument must")
    assert page.solutions[0].text.startswith(
        "Make the argument `params` of `pkg.execute` (it reaches `_distill`) consist only of "
        "tuples or dictionaries, as the message says"
    )
    assert not any(s.text.startswith("Make the list argument") for s in page.solutions)
    # `blocks` is what `connect` computed: the package's own invariant, no way out
    page = page_with_message(pkg, "pkg", "blocks must be a list")
    assert not any("Make blocks" in s.text for s in page.solutions)
    assert offered(page) == [] and checks(page)


def test_a_restated_range_gives_way_to_the_exact_argument(pkg: Store) -> None:
    # the page names `port` of `connect` with its bounds: the message's range is not said again
    page = page_with_message(pkg, "pkg", "port must be between")
    assert page.solutions
    assert not any(s.text.startswith("Keep port between") for s in page.solutions)


ENG = {
    **SERVE_CLI,
    "eng/args.py": """
        from dataclasses import dataclass


        @dataclass
        class EngineArgs:
            target_patterns: str = ""

            @staticmethod
            def add_cli_args(parser):
                parser.add_argument("--target-patterns", type=str)
                return parser
        """,
    "eng/_layers.py": """
        def _match_shards(prefix, patterns, shards):
            found = [[p for p in patterns if p in s] for s in shards]
            if any(len(f) > 1 for f in found):
                raise ValueError(
                    f"Found several --target-patterns matches for the shards of {prefix}: "
                    f"{found}. Each shard may match at most one target."
                )
            return found
        """,
}


@pytest.fixture(scope="module")
def eng(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("eng"), "eng", ENG)


def test_a_rule_of_the_setting_the_message_names(eng: Store) -> None:
    # a private function no user calls, checking what the flag the message names holds
    page = page_with_message(eng, "eng", "Found several --target-patterns")
    assert page.solutions[0].text.startswith(
        "Make each shard match at most one target (in what you pass to `--target-patterns`)"
    )
