"""Every call of a site's function is counted, beyond the few callers a level kept."""

from __future__ import annotations

import textwrap

from errdex.extract import extract_file
from errdex.link import link_version
from errdex.linked_facts import IndexedSite

HELPER = """
    def _check(x, flag=None):
        if flag is None:
            raise ValueError("flag is required")
        return x


    def unused(y):
        assert y, "y is empty"
    """

CALLS = """
    from pkg.helper import _check


    def one(x):
        return _check(x, flag=True)


    def two(x):
        _check(x, flag=1)
        return _check(x, flag=2)


    def three(x):
        return _check(x, True)


    def four(x):
        return _check(x, flag="a")


    def five(x):
        return _check(x, flag="b")
    """


def sites() -> dict[str, IndexedSite]:
    files = {"pkg/__init__.py": "", "pkg/helper.py": HELPER, "pkg/calls.py": CALLS}
    facts = [extract_file(path, textwrap.dedent(text).encode()) for path, text in files.items()]
    return {s.site.function: s for s in link_version("pkg", facts)}


def test_each_call_is_counted_beyond_the_callers_kept() -> None:
    found = sites()
    # six calls in five functions; the caller links keep the first four calls' callers
    # (`two` calls twice), so the count alone says whether they hold every call
    assert found["_check"].calls == 6
    kept = [c.function for c in found["_check"].caller_links if c.depth == 1]
    assert kept == ["one", "two", "three"]
    assert found["unused"].calls == 0
