"""A shared helper's variant a call never raises: its test, read at the call, is on a
builtin class and so known false there."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, offered, page_with_message

from errdex.explain.page import Page
from errdex.store import Store

FILES = {
    "never/__init__.py": "",
    "never/helpers.py": """
        class ArgumentError(Exception):
            pass


        def assert_arg_type(arg, argtype, name):
            if isinstance(arg, argtype):
                return arg
            else:
                if isinstance(argtype, tuple):
                    raise ArgumentError(
                        "Argument '%s' is expected to be one of type %s, got '%s'"
                        % (name, " or ".join("'%s'" % a for a in argtype), type(arg))
                    )
                else:
                    raise ArgumentError(
                        "Argument '%s' is expected to be of type '%s', got '%s'"
                        % (name, argtype, type(arg))
                    )
        """,
    "never/config.py": """
        from never.helpers import assert_arg_type


        class Mapping:
            def __init__(self, cls_, options):
                self.cls = assert_arg_type(cls_, type, "cls_")
                self.options = options
        """,
}


@pytest.fixture(scope="module")
def never(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("never"), "never", FILES)


def test_a_helpers_variant_for_a_tuple_is_never_raised_for_a_builtin_class(never: Store) -> None:
    # SQLAlchemy 2.0.30 orm/decl_base.py:335: `assert_arg_type(cls_, type, "cls_")` raises
    # the helper's "of type" message, never its "one of type" one: `type` is no tuple
    page: Page = page_with_message(never, "never", "Argument 'cls_' is expected to be one of")
    assert "`type` there is Python's built-in class `type`, which is never an instance of" in (
        page.what_it_means
    ), page.what_it_means
    assert "raises the helper's other message for the same input" in page.what_it_means
    # the test both messages share keeps its way out: a class for `cls_`
    ways = offered(page)
    assert ways and all("`cls_`" in t for t in ways), ways


def test_the_variant_the_call_raises_says_no_such_thing(never: Store) -> None:
    page: Page = page_with_message(never, "never", "Argument 'cls_' is expected to be of type")
    assert "built-in class" not in page.what_it_means, page.what_it_means
