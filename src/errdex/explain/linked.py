"""The linker's facts as the page shows them: callers with their guards, knobs, bindings,
tests that expect the error.
"""

from __future__ import annotations

from errdex.explain.page import BindingView, Caller, ConditionView, Knob, TestView
from errdex.explain.views import condition_view
from errdex.facts import Condition, ConditionKind
from errdex.link.held_true import positive_parts
from errdex.linked_facts import CallerLink, KnobLink
from errdex.store.base import StoredSite

_BRANCHES = frozenset(
    {ConditionKind.IF, ConditionKind.ELIF, ConditionKind.ELSE, ConditionKind.EARLY_EXIT}
)


def caller_views(stored: StoredSite) -> list[Caller]:
    return [gate_view(link) for link in stored.caller_links]


def gate_view(link: CallerLink) -> Caller:
    """A caller (or a call further up) as the page shows it."""
    return Caller(
        function=link.function,
        file=link.file,
        line=link.line,
        guard=[c.statement for c in link.guard if c.kind is not ConditionKind.EARLY_EXIT],
        passed=[c.statement for c in link.guard if c.kind is ConditionKind.EARLY_EXIT],
        calls=link.calls,
        depth=link.depth,
        guard_known=link.guard_known,
    )


def truth_views(link: CallerLink) -> list[ConditionView]:
    """The names and attributes the call's guard holds true (its `if`s and the early exits
    before it), each as a condition of its own: `if not a or not b.c: return` → `a`, `b.c`."""
    out: list[ConditionView] = []
    for condition in link.guard:
        if condition.kind not in _BRANCHES:
            continue
        for part in positive_parts(condition.statement):
            held = Condition(
                test=part, kind=ConditionKind.IF, holds=True, line=condition.line, text=part
            )
            out.append(condition_view(held))
    return out


def knob_views(stored: StoredSite) -> list[Knob]:
    return [knob_view(link) for link in stored.knobs]


def knob_view(link: KnobLink) -> Knob:
    """The page's record of a knob: every field of the page's is the link's, by name."""
    return Knob(**{name: getattr(link, name) for name in Knob.__struct_fields__})


def binding_views(stored: StoredSite) -> list[BindingView]:
    return [
        BindingView(
            name=b.name,
            value=b.value,
            origin=b.origin,
            file=b.file or stored.file,
            line=b.line or None,
            doc=b.doc,
        )
        for b in stored.site.bindings
    ]


def test_views(stored: StoredSite) -> list[TestView]:
    return [
        TestView(file=t.file, line=t.line, function=t.function, match=t.match) for t in stored.tests
    ]
