"""The linker's facts as the page shows them: callers with their guards, knobs."""

from __future__ import annotations

from errdex.explain.page import Caller, Knob
from errdex.store.base import StoredSite


def caller_views(stored: StoredSite) -> list[Caller]:
    return [
        Caller(
            function=f"{link.module}.{link.function}",
            file=link.file,
            line=link.line,
            guard=[c.statement for c in link.guard],
            calls=link.calls,
            depth=link.depth,
        )
        for link in stored.caller_links
    ]


def knob_views(stored: StoredSite) -> list[Knob]:
    return [
        Knob(
            name=link.name,
            kind=link.kind,
            reads=link.reads,
            file=link.file,
            line=link.line,
            behind=link.behind,
            via=link.via,
            same_value=link.same_value,
            value_type=link.value_type,
        )
        for link in stored.knobs
    ]
