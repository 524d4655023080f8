"""The calls a value may come down from a public call by: further up and wider than the
callers a page shows, for a raise whose check reads a parameter of a function no public
path reaches."""

from __future__ import annotations

import textwrap

from errdex.extract import extract_file
from errdex.link import link_version

FILES = {
    "deep/__init__.py": "from deep.api import run\n",
    "deep/_steps.py": """
        def check(value):
            if value < 0:
                raise ValueError("a negative value")


        def full():
            if len(CACHE) > 3:
                raise RuntimeError("the cache is full")


        def one(value):
            full()
            return check(value)


        def two(value):
            return one(value)


        def three(value):
            return two(value)


        def four(value):
            return three(value)
        """,
    "deep/api.py": """
        from deep._steps import four


        def run(value):
            return four(value)
        """,
}


def _sites() -> dict[str, object]:
    facts = [extract_file(p, textwrap.dedent(t).encode()) for p, t in FILES.items()]
    return {s.site.message.text: s for s in link_version("deep", facts) if s.site.message}


def test_the_calls_past_the_shown_callers_are_kept_up_to_the_public_call() -> None:
    site = _sites()["a negative value"]
    shown = {(c.function, c.depth) for c in site.caller_links}  # type: ignore[attr-defined]
    assert shown == {("one", 1), ("two", 2), ("three", 3)}
    further = [(c.function, c.depth, c.guard) for c in site.flow_links]  # type: ignore[attr-defined]
    assert further == [("four", 4, ()), ("run", 5, ())]


def test_a_check_reading_no_parameter_keeps_none() -> None:
    assert _sites()["the cache is full"].flow_links == ()  # type: ignore[attr-defined]
