"""The linker's facts as the page shows them: callers with their guards, knobs, bindings,
tests that expect the error.
"""

from __future__ import annotations

from errdex.explain.page import BindingView, Caller, Knob, TestView
from errdex.facts import ConditionKind
from errdex.linked_facts import KnobLink
from errdex.store.base import StoredSite


def caller_views(stored: StoredSite) -> list[Caller]:
    return [
        Caller(
            function=link.function,
            file=link.file,
            line=link.line,
            guard=[c.statement for c in link.guard if c.kind is not ConditionKind.EARLY_EXIT],
            passed=[c.statement for c in link.guard if c.kind is ConditionKind.EARLY_EXIT],
            calls=link.calls,
            depth=link.depth,
            guard_known=link.guard_known,
        )
        for link in stored.caller_links
    ]


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
