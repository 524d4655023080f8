"""Calls in blanked bodies, read from their text: the callers the skeleton would lose."""

from __future__ import annotations

import textwrap

from errdex.extract import extract_file
from errdex.extract.skeleton import MIN_SKELETON_BYTES, build_skeleton
from errdex.facts import CallSite
from samples import QUIET_FUNCTIONS

# Enough site-free functions that the file gets a skeleton.
_FILLER = QUIET_FUNCTIONS
SOURCE = _FILLER + textwrap.dedent(
    '''
    import os
    from pkg import checks
    from pkg.rules import validate


    class Engine:
        def _check(self):
            return self.ready

        def start(self, config):
            """Call validate(config) first; Engine() does it."""
            # validate(config) is done below
            name = "validate(config)"
            validate(config)
            os.getcwd()
            self._check(); checks.require(config, "x")

            def inner():
                return validate(None)

            return name
    '''
)


def _calls_of(function: str) -> list[tuple[str, str | None, int]]:
    facts = extract_file("pkg/engine.py", SOURCE.encode())
    return [(c.callee, c.receiver, c.line) for c in facts.call_sites if c.function == function]


def test_the_calls_of_a_blanked_body_are_read_from_its_text() -> None:
    assert len(SOURCE) > MIN_SKELETON_BYTES
    reduced = build_skeleton(SOURCE)
    assert reduced is not None and "validate(config)\n" not in reduced.text.split("def start")[1]
    line = SOURCE[: SOURCE.index("    validate(config)\n")].count("\n") + 1
    # Not the docstring, the comment, the string, `os.getcwd()` (another library) nor the
    # nested `def`; the call inside the nested function counts for the blanked one.
    assert _calls_of("Engine.start") == [
        ("validate", None, line),
        ("_check", "self", line + 2),
        ("require", "checks", line + 2),
        ("validate", None, line + 5),
    ]


def test_a_blanked_call_carries_the_callers_class_and_no_guard() -> None:
    facts = extract_file("pkg/engine.py", SOURCE.encode())
    call = next(c for c in facts.call_sites if c.callee == "_check")
    assert call == CallSite("_check", "self", call.line, "Engine.start", "Engine")
