"""A parameter bound again to a part of what a call returned, before the check: the check
reads that part, not the value the caller handed in, and no way out is said of it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import checks, indexed_package, offered, page_with_message

from errdex.explain.page import Page
from errdex.store import Store

FILES = {
    "unpack/__init__.py": "",
    "unpack/commands.py": """
        class UsageError(Exception):
            pass


        def coordinate(size):
            return None, [0] * size, None


        class Parser:
            def parse(self, args):
                return {}, list(args), []


        class Command:
            def __init__(self, name):
                self.name = name

            def parse_args(self, ctx, args):
                parser = Parser()
                opts, args, order = parser.parse(args)
                if args and not ctx.allow_extra_args:
                    raise UsageError(f"Got unexpected extra arguments ({args})")
                return args

            def spread(self, tokens=None, size=1):
                if tokens is None and size > 1:
                    _, tokens, _ = coordinate(size)
                    if tokens is None:
                        raise UsageError("The spread gave no tokens across the ranks")
                return tokens

            def check_args(self, ctx, args):
                args = [a for a in args if a]
                if args and not ctx.allow_extra_args:
                    raise UsageError(f"Got unexpected leftover arguments ({args})")
                return args

            def check_pairs(self, ctx, args):
                def shown(pairs):
                    for args, value in pairs:
                        print(args, value)

                if args and not ctx.allow_extra_args:
                    raise UsageError(f"Got unexpected stray arguments ({args})")
                return shown
        """,
}


@pytest.fixture(scope="module")
def unpack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("unpack"), "unpack", FILES)


def test_a_parameter_unpacked_again_from_a_call_is_no_input_at_the_check(unpack: Store) -> None:
    # click 8.1.7 core.py:1405-1411: `opts, args, order = parser.parse_args(args=args)`
    # before `if args and not ctx.allow_extra_args`: None for `args` fails in the parser,
    # and the check reads what the parser left over
    page: Page = page_with_message(unpack, "unpack", "Got unexpected extra arguments")
    found = [s.text for s in page.solutions]
    assert not any("argument `args`" in t for t in found), found
    assert "If you wrote the command" not in offered(page) or any(
        "`allow_extra_args`" in t for t in found
    ), found
    assert checks(page), page.what_it_means
    fix = page.example_fix
    assert fix is None or "args=None" not in fix.after, fix


def test_a_parameter_bound_again_whole_stays_the_input(unpack: Store) -> None:
    # `args = [a for a in args if a]`: a plain rebinding keeps the caller's value's meaning
    page: Page = page_with_message(unpack, "unpack", "Got unexpected leftover arguments")
    found = [s.text for s in page.solutions]
    assert any("argument `args`" in t for t in found), found


def test_a_test_before_the_parameter_is_unpacked_again_reads_the_callers_value(
    unpack: Store,
) -> None:
    # vllm 0.33.0 forward_context.py:312-322: `if tokens is None and dp > 1:` reads the
    # argument; only the test after `_, tokens, _ = coordinate(...)` reads the call's part
    page: Page = page_with_message(unpack, "unpack", "The spread gave no tokens")
    found = [s.text for s in page.solutions]
    assert any("argument `tokens`" in t for t in found), found


def test_a_name_a_nested_function_unpacks_is_not_the_parameter(unpack: Store) -> None:
    # `for args, value in pairs:` in a nested function binds that function's own `args`:
    # the check still reads the caller's
    page: Page = page_with_message(unpack, "unpack", "Got unexpected stray arguments")
    found = [s.text for s in page.solutions]
    assert any("argument `args`" in t for t in found), found
