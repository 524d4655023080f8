"""Ways out that end in the same failure by another road: an item skipped in a loop that
still runs out, a block skipped whose attribute the class raises without, a warning's exit
returning what the warned path returns, a result the callers refuse, a branch that raises
for the other arguments' defaults. None is offered."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import checks, indexed_package, offered, page_with_message

from errdex.explain.page import Page
from errdex.store import Store

DEAD = {
    "dead/__init__.py": "",
    "dead/envs.py": """
        import os

        DEAD_DISABLED_KERNELS = os.getenv("DEAD_DISABLED_KERNELS", "").split(",")
        """,
    "dead/kernels.py": """
        from dead import envs


        def pick_kernel(possible, config):
            reasons = []
            for kernel in possible:
                if kernel.__name__ in envs.DEAD_DISABLED_KERNELS:
                    reasons.append(f"{kernel.__name__} disabled by environment variable")
                    continue
                supported, reason = kernel.is_supported()
                if not supported:
                    reasons.append(f"{kernel.__name__}: {reason}")
                    continue
                return kernel(config)
            raise ValueError("No kernel can implement the layer. Reasons: " + "\\n".join(reasons))
        """,
    "dead/audio.py": """
        import logging
        import os

        logger = logging.getLogger(__name__)


        class AudioEncoder:
            def __init__(self, size, model_path=""):
                self.size = size
                self.tokenizer = None
                if model_path:
                    path = os.path.join(model_path, "tokenizer")
                    if os.path.exists(path):
                        self.tokenizer = path
                    else:
                        logger.warning("Audio tokenizer not found at %s, audio disabled", path)

            def encode(self, audio):
                if self.tokenizer is None:
                    raise RuntimeError("the audio tokenizer is not loaded")
                return audio
        """,
    "dead/workspace.py": """
        import logging

        logger = logging.getLogger(__name__)


        class Attention:
            @staticmethod
            def workspace_fits(prefill):
                workspace = prefill.workspace
                if workspace is None or prefill.lens is None:
                    return False
                fits = workspace.numel() >= len(prefill.lens)
                if not fits:
                    logger.warning("The workspace is too small; those batches take the slow path.")
                return fits
        """,
    "dead/runner.py": """
        import logging
        import os

        logger = logging.getLogger(__name__)

        try:
            import fastlib  # noqa: F401

            HAS_FASTLIB = True
        except ImportError:
            HAS_FASTLIB = False


        class RunnerConfig:
            def __init__(self, sparse=None):
                self.sparse = sparse

            @property
            def use_fast_runner(self):
                if self.sparse is not None:
                    if os.getenv("DEAD_FAST_RUNNER") == "0":
                        raise ValueError("Sparse needs the fast runner; remove DEAD_FAST_RUNNER=0.")
                    return True
                chosen = os.getenv("DEAD_FAST_RUNNER")
                if chosen is not None:
                    return chosen == "1"
                if not HAS_FASTLIB:
                    logger.warning("The fast runner requires fastlib; using the slow runner.")
                    return False
                return True


        def cache_if_fits(cache, key, item, checked=True):
            if not checked:
                return True
            if not cache.fits(item):
                logger.warning("The item does not fit the cache; it is not cached.")
                return False
            cache.put(key, item)
            return True
        """,
    "dead/commands.py": """
        class UsageError(Exception):
            pass


        class Group:
            def __init__(self, commands):
                self.commands = commands

            def invoke(self, ctx, args):
                name, cmd, rest = self.resolve_command(ctx, args)
                assert cmd is not None
                return cmd(rest)

            def resolve_command(self, ctx, args):
                name = args[0]
                cmd = self.commands.get(name)
                if cmd is None and not ctx.resilient_parsing:
                    raise UsageError(f"No such command {name!r}.")
                return name if cmd else None, cmd, args[1:]
        """,
    "dead/menus.py": """
        class UsageError(Exception):
            pass


        class Menu:
            def __init__(self, items):
                self.items = items

            def invoke(self, ctx, args):
                name, item, rest = self.resolve_item(ctx, args)
                assert item is not None
                return item(rest)

            def complete(self, ctx, args):
                return self.resolve_item(ctx, args)

            def resolve_item(self, ctx, args):
                name = args[0]
                item = self.items.get(name)
                if item is None and not ctx.resilient_parsing:
                    raise UsageError(f"No such item {name!r}.")
                return name if item else None, item, args[1:]
        """,
    "dead/ld.py": """
        import json
        import pickle
        from enum import Enum


        class Format(str, Enum):
            json = "json"
            pickle = "pickle"


        def load_text(b, fmt=None, allow_pickle=False):
            fmt = fmt or Format.json
            if fmt == Format.json:
                return json.loads(b)
            elif fmt == Format.pickle:
                if not allow_pickle:
                    raise RuntimeError("Trying to unpickle with allow_pickle=False")
                return pickle.loads(b)
            else:
                raise TypeError(f"Unknown format: {fmt}")


        def load(b, fmt=None, allow_pickle=True):
            return load_text(b, fmt=fmt, allow_pickle=allow_pickle)
        """,
    "dead/parse.py": """
        import json
        import pickle
        from enum import Enum


        class Protocol(str, Enum):
            json = "json"
            pickle = "pickle"


        def load_str_bytes(b, proto=None, allow_pickle=False):
            proto = proto or Protocol.json
            if proto == Protocol.json:
                return json.loads(b)
            elif proto == Protocol.pickle:
                if not allow_pickle:
                    raise RuntimeError("Trying to decode with pickle with allow_pickle=False")
                return pickle.loads(b)
            else:
                raise TypeError(f"Unknown protocol: {proto}")


        def load_file(path, *, proto=None, allow_pickle=False):
            with open(path, "rb") as f:
                return load_str_bytes(f.read(), proto=proto, allow_pickle=allow_pickle)
        """,
    "dead/plugin.py": """
        def read_table(path):
            return {}


        class PluginSettings:
            __slots__ = ("strict", "typed")
            strict: bool
            typed: bool

            def __init__(self, options):
                if options.config_file is None:
                    return
                table = read_table(options.config_file)
                for key in self.__slots__:
                    setting = table.get(key, False)
                    if not isinstance(setting, bool):
                        raise ValueError(f"Setting must be a boolean for key: {key}")
                    setattr(self, key, setting)

            def to_data(self):
                return {key: getattr(self, key) for key in self.__slots__}


        class Defaults:
            strict = False

            def __init__(self, options):
                if options.config_file is None:
                    return
                table = read_table(options.config_file)
                if not isinstance(table.get("strict"), bool):
                    raise ValueError("The strict default must be a boolean")
                self.strict = table["strict"]

            def to_data(self):
                return {"strict": self.strict}
        """,
    "dead/groups.py": """
        class Group:
            def __init__(self, commands, chain=False):
                self.commands = commands
                self.chain = chain

            def resolve(self, args):
                return args[0], self.commands.get(args[0]), args[1:]

            def invoke(self, args):
                if not self.chain:
                    name, command, args = self.resolve(args)
                    assert command is not None, "no command in single mode"
                    return command(args)
                results = []
                while args:
                    name, command, args = self.resolve(args)
                    assert command is not None, "no command in chain mode"
                    results.append(command(args))
                return results

            def call(self, args):
                if not self.chain:
                    name, command, args = self.resolve(args)
                    assert command is not None, "no command to call"
                    return command(args)
                results = []
                while args:
                    name, command, args = self.resolve(args[1:])
                    assert command is not None, "no chained command to call"
                    results.append(command(args))
                return results

            def run(self, args):
                if not self.chain:
                    found = self.commands.get("single")
                    command = found.command
                    assert command is not None, "no single command to run"
                    return command(args)
                found = self.commands.get("chained")
                command = found.command
                assert command is not None, "no chained command to run"
                return command(args)
        """,
    "dead/flush.py": """
        import warnings


        class Flush:
            def __init__(self, session):
                self.session = session
                self.states = {}

            def register(self, state, operation=None):
                if not self.session.contains(state):
                    if not state.deleted and operation is not None:
                        warnings.warn(f"Object not in session, {operation} will not proceed")
                    return False
                self.states[state] = operation
                return True

            def register_sized(self, state, limit=10):
                if state.size is not None:
                    if state.size > limit:
                        warnings.warn("The state is larger than the limit")
                    self.states[state] = limit
                return True
        """,
}


@pytest.fixture(scope="module")
def dead(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("dead"), "dead", DEAD)


def texts(store: Store, message: str) -> list[str]:
    page: Page = page_with_message(store, "dead", message)
    return [s.text for s in page.solutions]


def test_skipping_an_item_of_a_loop_that_runs_out_is_no_way_out(dead: Store) -> None:
    found = texts(dead, "No kernel can implement the layer")
    # the kernel that failed `is_supported()` listed as disabled only skips it another way
    assert not any("“KERNEL: REASON”" in t and "DEAD_DISABLED_KERNELS" in t for t in found), found
    # the disabled reason's own way out stays
    assert any(
        "“KERNEL disabled by environment variable”" in t and "`DEAD_DISABLED_KERNELS`" in t
        for t in found
    ), found


def test_skipping_a_block_whose_attribute_the_class_requires_is_no_way_out(dead: Store) -> None:
    found = texts(dead, "Audio tokenizer not found")
    assert not any("`model_path`" in t for t in found), found


def test_a_warnings_exit_returning_what_the_warned_path_returns_is_no_way_out(
    dead: Store,
) -> None:
    found = texts(dead, "The workspace is too small")
    assert not any("`lens` is None" in t for t in found), found


def test_a_result_the_callers_refuse_is_no_way_out(dead: Store) -> None:
    found = texts(dead, "No such command")
    assert not any("resilient_parsing" in t for t in found), found


def test_a_branch_raising_for_the_other_arguments_defaults_is_no_way_out(dead: Store) -> None:
    # (`load_file` hands on its own `allow_pickle`, false by default as well)
    found = texts(dead, "Unknown protocol")
    assert not any("Protocol.pickle" in t for t in found), found
    assert any("Protocol.json" in t for t in found), found


def test_a_result_a_caller_hands_on_keeps_the_way_out(dead: Store) -> None:
    # `complete` returns the result as it is: not every caller refuses it
    found = texts(dead, "No such item")
    assert any("`resilient_parsing` is true" in t for t in found), found


def test_the_defaults_of_arguments_a_caller_passes_are_not_assumed(dead: Store) -> None:
    # `load(b, fmt=fmt, allow_pickle=allow_pickle)` passes `allow_pickle` (true by its own
    # default): the pickle branch is not sure to fail for its users
    page: Page = page_with_message(dead, "dead", "Unknown format")
    assert "no way out" not in page.what_it_means, page.what_it_means


def test_an_init_left_before_it_sets_what_its_methods_read_is_no_way_out(dead: Store) -> None:
    # `config_file` None returns before the slots are set: `to_data()` then fails on them
    page: Page = page_with_message(dead, "dead", "Setting must be a boolean")
    assert offered(page) == [], offered(page)
    assert checks(page), page.what_it_means


def test_an_init_left_early_keeps_the_way_out_where_the_class_gives_a_value(dead: Store) -> None:
    # `strict = False` at the class: an object left early still reads it
    found = texts(dead, "The strict default must be a boolean")
    assert any("`config_file` is None" in t for t in found), found


def test_turning_the_test_of_a_warning_alone_in_an_exiting_branch_is_no_way_out(
    dead: Store,
) -> None:
    # `deleted` true (or `operation` left out) skips the warning; the branch returns False
    # all the same
    page: Page = page_with_message(dead, "dead", "Object not in session")
    assert offered(page) == [], offered(page)
    assert checks(page), page.what_it_means


def test_a_warnings_own_test_in_a_branch_that_goes_on_stays_a_way_out(dead: Store) -> None:
    # the branch goes on (no exit after the warning): the bound is the way out
    found = texts(dead, "The state is larger than the limit")
    assert any("`limit`" in t or "`size`" in t for t in found), found


def test_an_init_left_half_built_is_said_rather_than_no_setting_behind_it(dead: Store) -> None:
    # the page offers nothing, but a user's value is behind the check: the page cannot say
    # that nothing a user passes is behind it
    page: Page = page_with_message(dead, "dead", "Setting must be a boolean")
    assert "no setting" not in page.what_it_means, page.what_it_means
    assert "The check applies only when" in page.what_it_means, page.what_it_means


def test_a_warning_alone_is_said_to_be_only_hidden_rather_than_no_setting_behind_it(
    dead: Store,
) -> None:
    page: Page = page_with_message(dead, "dead", "Object not in session")
    assert "no setting" not in page.what_it_means, page.what_it_means
    assert "it only hides this warning, and the branch ends at line" in page.what_it_means, (
        page.what_it_means
    )


def test_a_way_out_forcing_what_a_warning_gives_up_is_no_way_out(dead: Store) -> None:
    # `sparse` given returns True past the test of fastlib: the fast runner without it
    found = texts(dead, "The fast runner requires fastlib")
    assert not any("`sparse`" in t or "self.sparse" in t for t in found), found
    assert any("fastlib" in t for t in found), found


def test_a_way_out_forcing_what_a_warning_gives_up_is_said_with_its_lines(dead: Store) -> None:
    page: Page = page_with_message(dead, "dead", "The fast runner requires fastlib")
    assert "no setting" not in page.what_it_means, page.what_it_means
    assert "the function then returns `True` at line 24, what this warning gives up by " in (
        page.what_it_means
    ), page.what_it_means


def test_a_bare_early_answer_before_a_warnings_test_is_not_said_to_force_it(dead: Store) -> None:
    # `checked` false returns True with no refusal before it: nothing forced is told
    page: Page = page_with_message(dead, "dead", "The item does not fit the cache")
    assert "the function then returns" not in page.what_it_means, page.what_it_means


def test_a_branch_that_makes_the_same_call_and_check_is_no_way_out(dead: Store) -> None:
    # chain mode resolves each command with the same call and asserts the same: `chain`
    # turned on meets the same check
    page: Page = page_with_message(dead, "dead", "no command in single mode")
    assert not any("chain" in t for t in offered(page)), offered(page)
    assert "The guard at line 11 is no way out: its other branch fails as well" in (
        page.what_it_means
    )


def test_a_branch_that_checks_another_value_keeps_the_way_out(dead: Store) -> None:
    # chain mode resolves what follows the first word: another value, not the same check
    found = texts(dead, "no command to call")
    assert any("chain" in t for t in found), found


def test_a_branch_whose_value_comes_from_another_lookup_keeps_the_way_out(dead: Store) -> None:
    # `command = found.command` in both branches, but `found` looks up another key
    found = texts(dead, "no single command to run")
    assert any("chain" in t for t in found), found
