"""What `handed_callback` finds of a check on what the user's callable did, kept in the
page's facts (a module of its own: the facts name it, and the rule reads the facts)."""

from __future__ import annotations

from dataclasses import dataclass

from errdex.explain.page import ConditionView


@dataclass(frozen=True)
class HandedCallback:
    """A check on what the user's callable did with a function a method hands it."""

    owner: str  # the public path of the class the user gives the callable: `pkg.Transport`
    argument: str  # the constructor's argument that is the callable: `app`
    handed: str  # the function handed to it: `send`
    call_line: int  # the line of the call that hands it
    inside: bool  # the site is in the handed function (else after the call)
    sets: tuple[tuple[str, int, tuple[str, ...]], ...]  # (local, line setting it, its tests)
    condition: ConditionView  # the check
    # after the call, the line setting the local surely ran (an earlier check fails when it
    # did not): the check fails on what the callable passed, which that line keeps
    passed: bool = False
    # the site raises what the callable passed (`raise seen_exc_info[1]`, an exception it
    # handed back to report its own failure): the way out is in what failed there
    raised: bool = False
