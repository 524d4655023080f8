"""What the explainer reads (the site and the linker's facts around it) and what it makes."""

from __future__ import annotations

from dataclasses import dataclass, field

from errdex.explain.page import (
    BindingView,
    Caller,
    ConditionView,
    ExampleFix,
    Knob,
    Solution,
    TestView,
    VariantView,
    WhenItHappens,
)
from errdex.facts import ConditionKind, SourceRead
from errdex.store.base import StoredSite

# Conditions that say where the code is rather than what went wrong.
CONTEXT_KINDS = frozenset({ConditionKind.LOOP, ConditionKind.EXCEPT, ConditionKind.WITH})


@dataclass
class Explanation:
    what_it_means: str
    when_it_happens: WhenItHappens
    solutions: list[Solution] = field(default_factory=list)
    example_fix: ExampleFix | None = None


@dataclass
class Facts:
    """The site and what the linker found around it, as the page shows them."""

    stored: StoredSite
    conditions: list[ConditionView]
    variants: list[VariantView] = field(default_factory=list)
    callers: list[Caller] = field(default_factory=list)
    # The branch conditions of each direct caller's call, as condition views.
    caller_guards: list[tuple[Caller, list[ConditionView]]] = field(default_factory=list)
    knobs: list[Knob] = field(default_factory=list)
    bindings: list[BindingView] = field(default_factory=list)
    tests: list[TestView] = field(default_factory=list)
    # What the source says around the site, read at extraction (empty when an older errdex
    # indexed the version).
    read: SourceRead = field(default_factory=SourceRead)
    solved: list[Solution] | None = None  # `solutions(facts)`, once worked out
    # ways out a comment beside the check warns against (set with `solved`), each with it
    refused: list[tuple[Solution, str]] = field(default_factory=list)
    # a variable's name → when setting it is the way out, for a variable the code falls
    # back from on its own when unset (`explain/fallbacks.py`; needs the store)
    fallbacks: dict[str, str] = field(default_factory=dict)
    source_text: str | None = None  # the site's file, for rules that read its function

    @property
    def held(self) -> list[ConditionView]:
        """The site's own conditions that a user may change."""
        return [c for c in self.conditions if c.kind not in CONTEXT_KINDS]
