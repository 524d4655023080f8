"""The page's facts of one file's text alone, with its top-level outline: for tests of rules
that read the source around a site and count what they parse."""

from __future__ import annotations

import ast
from types import SimpleNamespace

import pytest

from errdex.explain import context, parse_cache
from errdex.explain.context import Facts
from errdex.extract.module import top_starts
from errdex.reading_facts import SourceRead


def text_facts(text: str, outline: bool = True) -> Facts:
    facts = Facts(stored=None, conditions=[], variants=[], callers=[], caller_guards=[],
                  knobs=[], bindings=[], tests=[], read=SourceRead())  # fmt: skip
    facts.source_text = text
    starts = top_starts(ast.parse(text))
    facts.outline_of = (lambda: starts) if outline else None
    return facts


def site_facts(
    text: str, function: str, module: str = "pkg.mod", file: str = "pkg/mod.py"
) -> Facts:
    """`text_facts` of a site in `function` (`Class.method`) of the module `module` at `file`."""
    facts = text_facts(text)
    facts.stored = SimpleNamespace(  # type: ignore[assignment]
        site=SimpleNamespace(function=function), module=module, file=file
    )
    return facts


def class_parses(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The offsets of the classes parsed alone from now on (`context.class_at`), none kept."""
    parse_cache.clear()
    parsed: list[int] = []
    real = context.class_at
    monkeypatch.setattr(context, "class_at", lambda t, s: parsed.append(s) or real(t, s))
    return parsed
