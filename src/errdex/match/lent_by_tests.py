"""Texts lent by test code: a helper's call in the package's own tests gives the helper's
raise a text no user of the package sees.

jsonschema ships its tests, and `test_types.py` calls a type checker with the text "foo",
so the checker's `raise UndefinedTypeCheck(type)` composes as `...: foo`; any other
package's raise of `ValidationError(message)` pasted as `ValidationError: foo` is what a
user hit, not the test's call. The call stays indexed (a developer running the package's
tests may paste it, and a frame of the test pins it): unpinned, it is listed after every
answer that is not lent by a test, and never claimed on its own.
"""

from __future__ import annotations

import msgspec

from errdex.linked_facts import ShownText
from errdex.match.results import Match
from errdex.store.base import StoredSite

__all__ = ["demote_lent_by_tests", "is_test_code", "lent_by_tests"]

_TEST_FOLDERS = frozenset({"tests", "test", "testing", "_testing"})
_TEST_MODULES = frozenset({"conftest.py", "testing.py", "_testing.py", "tests.py"})
# Listed just under the weakest other answer: still listed, never first.
_UNDER = 0.95


def is_test_code(path: str) -> bool:
    """Whether a file is test code of its package: in a `tests/` (`test/`, `testing/`)
    folder, a `test_*.py`, `*_test.py` or `conftest.py`, or a testing helpers module."""
    parts = path.replace("\\", "/").split("/")
    name = parts[-1]
    return (
        any(part in _TEST_FOLDERS for part in parts[:-1])
        or name in _TEST_MODULES
        or (name.startswith("test_") and name.endswith(".py"))
        or name.endswith("_test.py")
    )


def _test_function(qualname: str) -> bool:
    """A test by pytest's and unittest's naming (`test_*` functions, `Test*` classes): what
    tells a lending call of a release indexed before the call's file was kept."""
    parts = qualname.split(".")
    return parts[-1].startswith("test") or any(p.startswith("Test") for p in parts[:-1])


def lent_by_tests(stored: StoredSite, form: ShownText | None) -> bool:
    """Whether the text a site is matched by is lent by test code to a site outside it: a
    helper's call in the tests (the call's own site), or the text such a call gives the
    raise inside the helper (`form`, a text a caller gives)."""
    target = stored.helper_raise
    if target is not None:  # the site is the call
        return is_test_code(stored.file) and not is_test_code(target[0])
    if form is None or form.caller is None or is_test_code(stored.file):
        return False
    if form.caller_file is not None:
        return is_test_code(form.caller_file)
    return _test_function(form.caller)


def demote_lent_by_tests(best: dict[str, Match]) -> None:
    """Each answer lent by a test's call: not `confident`, and scored under every answer
    that is not lent by a test, so it ranks after them."""
    lent = {key for key, match in best.items() if match.lent and not match.pinned}
    if not lent:
        return
    others = [match.score for key, match in best.items() if key not in lent]
    ceiling = min(others) * _UNDER if others else None
    for key in lent:
        match = best[key]
        score = match.score if ceiling is None else min(match.score, round(ceiling, 4))
        best[key] = msgspec.structs.replace(match, score=score, confident=False)
