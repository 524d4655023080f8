"""Calls in blanked bodies, read from their text: the callers the skeleton would lose."""

from __future__ import annotations

import textwrap

import pytest

from errdex import extract
from errdex.extract import extract_file
from errdex.extract.skeleton import MIN_SKELETON_BYTES, build_skeleton
from errdex.facts import CallSite
from samples import QUIET_FUNCTIONS

SOURCE = QUIET_FUNCTIONS + textwrap.dedent(
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

# A blanked body with functions and classes nested in it, and calls before and after its
# first branch.
NESTED = QUIET_FUNCTIONS + textwrap.dedent(
    """
    from pkg.rules import validate


    class Engine:
        def run(self, config):
            validate(config)
            self.prepare(
                validate(config),
            )
            if config.fast:
                return self.fast(config)
            validate(None)

            def step(item):
                validate(item)

                def deeper():
                    return validate(item)

                return deeper

            async def later():
                await self.fast(config)

            class Helper:
                size = validate(config)

                def check(self):
                    return self.prepare(config)

            for item in config.items:
                step(item)
            return Helper
    """
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
    # nested `def`, whose call is its own.
    assert _calls_of("Engine.start") == [
        ("validate", None, line),
        ("_check", "self", line + 2),
        ("require", "checks", line + 2),
    ]
    assert _calls_of("Engine.start.<locals>.inner") == [("validate", None, line + 5)]


def test_a_blanked_call_carries_the_callers_class() -> None:
    facts = extract_file("pkg/engine.py", SOURCE.encode())
    call = next(c for c in facts.call_sites if c.callee == "_check")
    assert call == CallSite("_check", "self", call.line, "Engine.start", "Engine")


def _whole_and_blanked(
    source: str, monkeypatch: pytest.MonkeyPatch
) -> tuple[list[CallSite], list[CallSite]]:
    """The call sites of `source` with its skeleton, and from a whole-file parse."""
    assert build_skeleton(source) is not None
    blanked = extract_file("pkg/engine.py", source.encode()).call_sites
    monkeypatch.setattr(extract, "build_skeleton", lambda *_, **__: None)
    whole = extract_file("pkg/engine.py", source.encode()).call_sites
    return list(blanked), list(whole)


def test_a_call_in_a_def_or_class_nested_in_a_blanked_body_is_theirs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    blanked, whole = _whole_and_blanked(NESTED, monkeypatch)

    def owners(calls: list[CallSite]) -> set[tuple[str, int, str, str | None]]:
        return {(c.callee, c.line, c.function, c.class_name) for c in calls}

    # The walker notes calls that are whole statements; the text also finds those nested
    # in an expression (`validate(config)` in the arguments of `self.prepare`).
    assert owners(whole) <= owners(blanked)
    functions = {c.function for c in blanked}
    assert functions == {
        "Engine.run",
        "Engine.run.<locals>.step",
        "Engine.run.<locals>.step.<locals>.deeper",
        "Engine.run.<locals>.later",
        "Engine.run.<locals>.Helper",
        "Engine.run.<locals>.Helper.check",
    }
    check = next(c for c in blanked if c.function.endswith("Helper.check"))
    assert check.class_name == "Engine.run.<locals>.Helper"


def test_only_a_call_before_the_first_branch_has_a_known_guard(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    blanked, whole = _whole_and_blanked(NESTED, monkeypatch)
    run = [c for c in blanked if c.function == "Engine.run"]
    # Straight-line code at the top of the body: no condition, as the whole-file parse says.
    known = [c for c in run if c.guard_known]
    assert [(c.callee, c.conditions) for c in known] == [
        ("validate", ()),
        ("prepare", ()),
        ("validate", ()),
    ]
    assert all(
        c.conditions == ()
        for c in whole
        if (c.callee, c.line) in {(k.callee, k.line) for k in known}
    )
    # After `if config.fast: return ...` (an early exit) the text does not tell: unknown,
    # although the whole-file parse has a condition there.
    after = next(c for c in run if c.callee == "validate" and not c.guard_known)
    (reference,) = [c for c in whole if (c.callee, c.line) == (after.callee, after.line)]
    assert [g.statement for g in reference.conditions] == ["not config.fast"]
    assert after.conditions == ()
    assert all(not c.guard_known for c in blanked if c.function != "Engine.run")


def test_only_a_name_or_one_receiver_called_is_read_not_a_chains_tail() -> None:
    source = QUIET_FUNCTIONS + textwrap.dedent(
        """
        from pkg import checks
        from pkg.rules import validate


        class Engine:
            def start(self, config):
                self.rules.validate(config)
                make().validate(config)
                config[0].validate(config)
                x = 1.5e3; very_long_name_of_a_local_validate(config)
                checks.validate(config)
                validate(config)
        """
    )
    reduced = build_skeleton(source)
    assert reduced is not None and "make()" not in reduced.text
    facts = extract_file("pkg/engine.py", source.encode())
    calls = [(c.callee, c.receiver) for c in facts.call_sites if c.function == "Engine.start"]
    # `self.rules.validate`, `make().validate` and `config[0].validate` are attributes of
    # something else than a name: what they call is unknown, and no part of them is a call.
    assert calls == [("validate", "checks"), ("validate", None)]


SUPER_CALLS = QUIET_FUNCTIONS + textwrap.dedent(
    """
    from pkg.base import BaseClient


    class Client(BaseClient):
        def __init__(self, auth=None, timeout=5):
            super().__init__(
                auth=auth,
                timeout=timeout,
            )
            super().setup()
            super(Client, self).reset(auth)

        def close(self):
            if self.closed:
                raise RuntimeError("closed")
            super().close(True)
    """
)


def test_a_call_of_a_bases_method_through_super_is_read_when_it_passes_something(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # `super().__init__(auth=auth)` is how the public `Client(auth=...)` hands its argument
    # to the base's constructor; `super().setup()` passes nothing a check could read
    line = SUPER_CALLS[: SUPER_CALLS.index("        super().__init__(")].count("\n") + 1
    close = SUPER_CALLS[: SUPER_CALLS.index("        super().close(")].count("\n") + 1
    blanked, whole = _whole_and_blanked(SUPER_CALLS, monkeypatch)
    for calls in (blanked, whole):
        found = [(c.callee, c.receiver, c.line, c.function) for c in calls]
        assert ("__init__", "super()", line, "Client.__init__") in found
        assert ("close", "super()", close, "Client.close") in found
        assert not any(c.callee in ("setup", "reset") for c in calls)
