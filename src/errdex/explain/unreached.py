"""What rules a check out before it is reached, as a page keeps it: every call passing a
value that makes a condition false (`passed_before`), or a default filled in before the
check (`never_none`); and the sentences "What it means" says of them."""

from __future__ import annotations

from dataclasses import dataclass

from errdex.explain.plain import code

__all__ = ["FilledDefault", "PassedCall", "never_failing", "passed_sentence"]

_SHOWN = 3  # calls named in the sentence


@dataclass(frozen=True)
class PassedCall:
    """A call of the site's function and what it passes that rules a condition out."""

    caller: str  # the calling function's qualname
    file: str
    line: int
    given: str  # `name=value` as the call writes it, or `name` left at its default
    condition: str  # the site's condition it makes false


def passed_sentence(calls: list[PassedCall], project: str, function: str) -> str:
    places = "; ".join(
        f"{code(c.caller)} passes {c.given} ({c.file}:{c.line}), so {code(c.condition)} is false"
        for c in calls[:_SHOWN]
    )
    more = f"; and {len(calls) - _SHOWN} more calls" if len(calls) > _SHOWN else ""
    name = code(function.removesuffix(".__init__"))
    each = "Every call" if len(calls) > 1 else "The one call"
    return f"{each} of {name} in {project} rules this out: {places}{more}. {never_failing(name)}"


def never_failing(function: str, unless: str = "") -> str:
    """Why no way out is offered for a check the package's own calls never fail: they are
    not the calls a user's error comes from (`unless`: another way it still fails)."""
    return (
        "So the program never reaches this check failing, and no way out is offered: it "
        f"fails only when {function} is called from elsewhere (your own code calling it "
        f"directly, or a plugin){unless}."
    )


@dataclass(frozen=True)
class FilledDefault:
    """A held `x is None` whose local was filled in before it: the check cannot fail."""

    name: str
    value: str  # what the assignment writes: `console or get_console()`
    line: int
    why: str  # why that is never None: "`get_console` is declared to return `Console`"

    def sentence(self) -> str:
        return (
            f"But {code(self.name)} is never None here: line {self.line} sets it to "
            f"{code(self.value)}, and {self.why}. So this check cannot fail when the program "
            "runs, and there is nothing to fix."
        )
