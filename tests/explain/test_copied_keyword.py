"""A deprecated keyword the function copies unchanged into its replacement, which the message
names: the way out passes the value there (with the call as the fix), not "leave it out",
which drops what the keyword did. A body that turns the value (`y = not x`), a copy into a
name the message does not give, or a keyword rebound first get no such solution."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

COPY = {
    "keep/__init__.py": """
        from keep.model import Model, field
        """,
    "keep/model.py": """
        import warnings


        class Model:
            def dump(self, skip=None, unset=False, other=False):
                if skip is not None:
                    warnings.warn(
                        '"skip" is deprecated and replaced by "unset"', DeprecationWarning
                    )
                    unset = skip
                return unset, other

            def show(self, whole=None, each=False):
                if whole is not None:
                    warnings.warn(
                        '"whole" is deprecated, use "each" (inverse meaning) instead',
                        DeprecationWarning,
                    )
                    each = not whole
                return each

            def emit(self, old=None, new=False, other=False):
                if old is not None:
                    warnings.warn('"old" is deprecated and will be removed', DeprecationWarning)
                    other = old
                return new, other

            def redo(self, ancient=None, modern=False):
                ancient = ancient or None
                if ancient is not None:
                    warnings.warn(
                        '"ancient" is deprecated and replaced by "modern"', DeprecationWarning
                    )
                    modern = ancient
                return modern


        def field(default=None, min_length=None, **extra):
            min_items = extra.pop("min_items", None)
            if min_items is not None:
                warnings.warn(
                    "`min_items` is deprecated and will be removed, use `min_length` instead",
                    DeprecationWarning,
                )
                if min_length is None:
                    min_length = min_items
            return default, min_length


        def column(name=None, info=None, **extra):
            if extra:
                warnings.warn(
                    "extra keyword arguments are deprecated, use `info` instead",
                    DeprecationWarning,
                )
                info = extra
            return name, info
        """,
}


@pytest.fixture(scope="module")
def copied(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("keep"), "keep", COPY)


def test_the_value_moves_to_the_keyword_the_function_copies_it_into(copied: Store) -> None:
    page = page_with_message(copied, "keep", '"skip" is deprecated and replaced by')
    first = page.solutions[0].text
    assert first.startswith("Pass your value as `unset` in place of `skip`"), first
    assert not any(s.text.startswith("Leave the argument") for s in page.solutions)
    fix = page.example_fix
    assert fix is not None
    assert fix.before.endswith(".dump(skip=SKIP)"), fix.before
    assert fix.after.endswith(".dump(unset=SKIP)"), fix.after


def test_a_key_popped_from_kwargs_and_copied_under_a_test_moves_too(copied: Store) -> None:
    page = page_with_message(copied, "keep", "`min_items` is deprecated")
    assert page.solutions[0].text.startswith("Pass your value as `min_length` in place of")
    assert len(page.solutions) == 1  # the message's own words on `min_length`, said once
    fix = page.example_fix
    assert fix is not None
    assert fix.before.endswith("field(min_items=MIN_ITEMS)"), fix.before
    assert fix.after.endswith("field(min_length=MIN_ITEMS)"), fix.after


@pytest.mark.parametrize(
    "message",
    [
        '"whole" is deprecated',  # `each = not whole`: the same value would mean the opposite
        '"old" is deprecated and will be removed',  # copied into a name the message lacks
        '"ancient" is deprecated',  # rebound before the test: no longer the user's value
        "extra keyword arguments are deprecated",  # `**extra` itself: each key is a keyword
    ],
)
def test_no_copy_to_follow(copied: Store, message: str) -> None:
    page = page_with_message(copied, "keep", message)
    assert not any("Pass your value as" in s.text for s in page.solutions)
