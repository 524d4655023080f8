"""Texts lent by test code: a helper's call in the package's own tests gives the helper's
raise a text no user sees; listed after the other answers, never claimed on its own, and
still found when a frame of the test pins it. Indexed into a real SQLite file."""

from __future__ import annotations

import msgspec
import pytest

from errdex.match import lookup_text
from errdex.match.lent_by_tests import is_test_code, lent_by_tests
from errdex.store.base import Store
from samples import indexed_fixture

PACKAGE = {
    "forms/__init__.py": "",
    "forms/checks.py": """
        class Invalid(Exception):
            pass

        def require(value, message):
            if not value:
                raise Invalid(message)
            return value

        def parse(text):
            message = text.partition(":")[2]
            if message:
                raise Invalid(message)
            return text
    """,
    "forms/tests/__init__.py": "",
    "forms/tests/test_checks.py": """
        from forms.checks import require

        def test_require_says_why():
            require("", "the field is empty")
    """,
}

store = indexed_fixture("lent", "forms", {"1.0": PACKAGE})


@pytest.mark.parametrize(
    "path",
    [
        "pkg/tests/test_types.py",
        "pkg/test/helpers.py",
        "tests/unit/util.py",
        "pkg/test_api.py",
        "pkg/api_test.py",
        "conftest.py",
        "pkg/testing.py",
        "pkg/_testing/asserts.py",
    ],
)
def test_test_code(path: str) -> None:
    assert is_test_code(path)


@pytest.mark.parametrize(
    "path", ["pkg/types.py", "pkg/testimony.py", "pkg/contest.py", "pkg/attest/api.py"]
)
def test_not_test_code(path: str) -> None:
    assert not is_test_code(path)


def test_a_text_lent_by_a_test_is_never_claimed_and_comes_last(store: Store) -> None:
    matches = lookup_text(store, "forms.checks.Invalid: the field is empty").matches
    assert matches
    assert not any(m.confident for m in matches)
    lent = [i for i, m in enumerate(matches) if m.called_at is not None]
    assert lent and lent == [i for i in range(len(matches)) if i >= lent[0]]
    assert matches[0].called_at is None
    assert (matches[0].file, matches[0].function) == ("forms/checks.py", "parse")


def test_a_frame_of_the_test_pins_the_lent_text(store: Store) -> None:
    paste = (
        "Traceback (most recent call last):\n"
        '  File "/src/forms/tests/test_checks.py", line 5, in test_require_says_why\n'
        '    require("", "the field is empty")\n'
        '  File "/src/forms/checks.py", line 7, in require\n'
        "    raise Invalid(message)\n"
        "forms.checks.Invalid: the field is empty\n"
    )
    first = lookup_text(store, paste).matches[0]
    assert (first.file, first.function) == ("forms/checks.py", "require")
    assert first.confident


def test_a_release_indexed_before_the_call_file_was_kept_is_read_by_test_names(
    store: Store,
) -> None:
    # Without the call's file, pytest's naming of tests tells a test's call from a user's.
    [raised] = store.sites_in_files(["forms/checks.py"], 7, "forms", "1.0")
    [form] = [f for f in raised.shown if f.caller is not None]
    older = msgspec.structs.replace(form, caller_file=None)
    assert lent_by_tests(raised, form)
    assert lent_by_tests(raised, older)
    assert not lent_by_tests(raised, msgspec.structs.replace(older, caller="Form.validate"))
    assert not lent_by_tests(raised, None)
