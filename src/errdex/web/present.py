"""What only the HTML needs on top of the data: highlighted code, templates with values.

The code is escaped where its HTML is written (`code_html`); everything else reaches the
page through Jinja's autoescape. Nothing here marks text safe that did not go through one
of the two.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from typing import NamedTuple

from markupsafe import Markup, escape
from pygments.formatters import HtmlFormatter

from errdex.web.code_html import code_html
from errdex.web.python_tokens import TokenizeLexer

_LEXER = TokenizeLexer(stripnl=False, ensurenl=True)  # as code_html reads the text
_TICKS = re.compile(r"`([^`\n]+)`")
_SUFFIX = re.compile(r"(?:![rsa])?(?::[^{}]*)?$")

KIND_WORDS = {
    "raise": "error",
    "reraise": "re-raise",
    "assert": "assertion",
    "warn": "warning",
    "log": "log",
    "exit": "exit",
    "helper": "error",
}


def highlight_python(code: str, first_line: int, marked: Iterable[int]) -> Markup:
    """`code` (whose first line is `first_line`) as HTML, the `marked` lines highlighted;
    each line has the anchor `L-<number>`."""
    return _highlight(code, first_line, tuple(sorted(set(marked))))


@functools.lru_cache(maxsize=512)
def _highlight(code: str, first_line: int, marked: tuple[int, ...]) -> Markup:
    last = first_line + code.count("\n")
    rows = {n - first_line + 1 for n in marked if first_line <= n <= last}
    return Markup(code_html(_LEXER, code, first_line, rows))  # the code escaped there


def style_css() -> str:
    """Pygments' colours: light by default, dark when the reader's system is."""
    light = HtmlFormatter(style="default").get_style_defs(".highlight")  # type: ignore[no-untyped-call]
    dark = HtmlFormatter(style="monokai").get_style_defs(".highlight")  # type: ignore[no-untyped-call]
    return f"{light}\n@media (prefers-color-scheme: dark) {{\n{dark}\n}}\n"


def prose(text: str | None) -> Markup:
    """Explanation text as HTML: escaped, then `backticked` names set as code."""
    return Markup(_TICKS.sub(r"<code>\1</code>", str(escape(text or ""))))  # escaped first


class Segment(NamedTuple):
    """A run of a message template: literal text, or a placeholder and what it held."""

    text: str
    placeholder: bool = False
    value: str | None = None


def template_segments(template: str, values: Mapping[str, str] | None = None) -> list[Segment]:
    """Split a template's text (`{expr}` placeholders, literal braces doubled) into runs,
    each placeholder with the value the pasted message held for it."""
    values = values or {}
    segments: list[Segment] = []
    literal: list[str] = []
    i = 0
    while i < len(template):
        char = template[i]
        if char in "{}" and template[i : i + 2] in ("{{", "}}"):
            literal.append(char)
            i += 2
            continue
        if char != "{":
            literal.append(char)
            i += 1
            continue
        depth, j = 0, i
        while j < len(template):
            depth += {"{": 1, "}": -1}.get(template[j], 0)
            if depth == 0:
                break
            j += 1
        if depth:  # unbalanced: the rest is text
            literal.append(template[i:])
            break
        if literal:
            segments.append(Segment("".join(literal)))
            literal = []
        inner = template[i + 1 : j]
        value = values.get(inner)
        if value is None:
            value = values.get(_SUFFIX.sub("", inner))
        segments.append(Segment("{" + inner + "}", placeholder=True, value=value))
        i = j + 1
    if literal:
        segments.append(Segment("".join(literal)))
    return segments
