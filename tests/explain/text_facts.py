"""The page's facts of one file's text alone, with its top-level outline: for tests of rules
that read the source around a site and count what they parse."""

from __future__ import annotations

import ast

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
