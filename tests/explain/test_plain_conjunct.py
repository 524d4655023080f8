"""Among the parts of a test on the user's arguments, the way out is one whose change
leaves the function's other guards as they were: click's `Option` refuses `prompt` with
`hide_input` on a boolean flag, and a false `is_flag` may then fail the guard before it
(`not self.is_bool_flag and self.secondary_opts`, a `--x/--no-x` declaration), while
`hide_input` is read by no other guard."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

FLAGS = {
    "flags/__init__.py": "from flags.core import Option, Tiler, Window, pick, sample\n",
    "flags/core.py": """
        import warnings


        class Bool:
            pass


        class Option:
            def __init__(self, decls=(), prompt=None, hide_input=False, is_flag=False, type=None):
                self.secondary_opts = [d for d in decls if "/" in d]
                self.type = type
                self.prompt = prompt
                self.hide_input = hide_input
                self.is_flag = is_flag
                self.is_bool_flag = is_flag and isinstance(self.type, Bool)
                if not self.is_bool_flag and self.secondary_opts:
                    raise TypeError("Secondary flag is not valid for non-boolean flag.")
                if self.is_bool_flag and self.hide_input and self.prompt is not None:
                    raise TypeError("'prompt' with 'hide_input' is not valid for boolean flag.")


        class Window:
            def __init__(self, width=None, height=None):
                self.width = width
                self.height = height
                if self.width is not None and self.height is None:
                    raise ValueError("a width without a height")
                if self.width is not None and self.height is not None and self.width > 10:
                    raise ValueError("too wide for its height")


        class Tiler:
            def __init__(self, skinny=1, limit=8, width=64):
                if not 0 <= skinny <= min(8, limit):
                    raise ValueError("skinny out of range")
                self.width = width
                if skinny and self.width % 7:
                    raise ValueError("skinny needs a width divisible by 7")


        def _loaded():
            return False


        def sample(mask=None, first=None, second=None):
            if mask is None and (first is not None or second is not None):
                raise ValueError("state requires a mask")
            if mask is not None and not _loaded():
                raise ValueError("a mask needs the table loaded")
            return mask


        KNOWN = ("en", "fr")


        OTHER = ("de", "it")


        def pick(language=None):
            if language is None or language in KNOWN:
                return language
            elif language in OTHER:
                warnings.warn("a language the model was not trained on")
                return language
            else:
                raise ValueError("an unknown language")
        """,
}


@pytest.fixture(scope="module")
def flags(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("flags"), "flags", FLAGS)


def test_the_argument_no_other_guard_reads(flags: Store) -> None:
    page = page_with_message(flags, "flags", "'prompt' with 'hide_input'")
    assert page.solutions, page.what_it_means
    first = page.solutions[0].text
    assert "`hide_input`" in first, first
    assert not any("`is_flag`" in s.text for s in page.solutions)
    fix = page.example_fix
    assert fix is None or "is_flag" not in fix.after
    assert "Passing an empty (false) value for `is_flag` is no way out: the guard at line 17" in (
        page.what_it_means
    )


def test_no_way_out_that_may_trip_an_earlier_guard(flags: Store) -> None:
    # `mask` None fails the first check unless neither state was passed: not offered
    page = page_with_message(flags, "flags", "a mask needs the table loaded")
    assert not any("`mask`" in s.text for s in page.solutions), page.solutions
    assert "Passing None for `mask` is no way out" in page.what_it_means


def test_a_bound_on_a_number_is_no_guard_to_trip(flags: Store) -> None:
    # `0` passes `0 <= skinny <= min(8, limit)`, which the value to pass was chosen against
    page = page_with_message(flags, "flags", "skinny needs a width divisible by 7")
    assert page.solutions, page.what_it_means
    assert "`0` for the argument `skinny`" in page.solutions[0].text


def test_a_later_check_is_not_reached(flags: Store) -> None:
    # `language` None returns at the first `if`: the `else` after it is never met
    page = page_with_message(flags, "flags", "a language the model was not trained on")
    assert page.solutions, page.what_it_means
    first = page.solutions[0].text
    assert "`language`" in first and "leave it out" in first, first


def test_the_first_part_kept_when_it_trips_nothing(flags: Store) -> None:
    # `width` None leaves the guard before as it held (`width is not None and height is
    # None` is then false): the first part stays the way out
    page = page_with_message(flags, "flags", "too wide for its height")
    assert page.solutions, page.what_it_means
    assert "`width`" in page.solutions[0].text
