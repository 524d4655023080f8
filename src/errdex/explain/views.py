"""From stored facts to the page's views: source snippet, conditions, variants, versions."""

from __future__ import annotations

import ast

from errdex.explain.context import lines_of
from errdex.explain.page import (
    ConditionView,
    ExceptionView,
    ShownView,
    SourceView,
    VariantView,
)
from errdex.explain.plain import plain_condition
from errdex.facts import Condition
from errdex.link.expression_texts import parse_expression
from errdex.linked_facts import TRANSLATED
from errdex.store.base import StoredSite

SNIPPET_LINES = 40


def snippet_around(text: str | None, line: int, end_line: int) -> tuple[str, int]:
    """About 40 lines of `text` around lines `line`..`end_line`, and the first line's number."""
    if not text:
        return "", line
    lines = lines_of(text)
    span = end_line - line + 1
    before = max(8, (SNIPPET_LINES - span) // 2)
    first = max(1, line - before)
    last = min(len(lines), max(end_line, first + SNIPPET_LINES - 1))
    return "\n".join(lines[first - 1 : last]), first


def source_view(stored: StoredSite, text: str | None) -> SourceView:
    site = stored.site
    snippet, start = snippet_around(text, site.line, site.end_line)
    return SourceView(
        file=stored.file,
        line=site.line,
        end_line=site.end_line,
        function=site.function,
        snippet=snippet,
        snippet_start=start,
        url=stored.url,
    )


def condition_view(condition: Condition) -> ConditionView:
    return ConditionView.of(condition, plain=plain_condition(condition))


def vacuous(condition: Condition) -> bool:
    """Whether the condition, as it holds on the path (`text`), is a constant that is true
    on every path: the `not False` of `assert False, "unreachable"`, the `True` of
    `while True:`. It says nothing of when the error happens, and no way out changes it."""
    node = parse_expression(condition.text)
    negated = isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)
    if isinstance(node, ast.UnaryOp) and negated:
        node = node.operand
    if not isinstance(node, ast.Constant) or not isinstance(node.value, bool | int | None):
        return False
    return bool(node.value) != negated


def exception_view(stored: StoredSite) -> ExceptionView | None:
    info = stored.exception
    if info is None:
        return None
    defined = f"{info.defined_in}:{info.line}" if info.defined_in and info.line else info.defined_in
    return ExceptionView(
        name=info.name,
        qualname=info.qualname,
        bases=list(info.bases),
        docstring=info.docstring,
        defined_in=defined,
    )


def shown_views(stored: StoredSite) -> list[ShownView]:
    """The texts the user sees, each with the traceback line it makes when it is
    `str(exc)` (a table's entry is the message of the exception raised)."""
    name = stored.exception.name if stored.exception else stored.site.exception
    views = []
    for form in stored.shown:
        if form.how.startswith(TRANSLATED):
            continue  # every language shipped: the lookup answer shows the one pasted
        is_str = form.how == "str(exc)" or form.cls is not None
        views.append(
            ShownView(
                text=form.text.text,
                how=form.how,
                line=f"{name}: {form.text.text}" if is_str and name else None,
                cls=form.cls,
            )
        )
    return views


def variant_views(stored: StoredSite) -> list[VariantView]:
    return [
        VariantView(
            reason=variant.reason.text,
            file=variant.file or stored.file,
            line=variant.line,
            function=variant.function,
            conditions=[condition_view(c) for c in variant.conditions],
        )
        for variant in stored.site.variants
    ]
