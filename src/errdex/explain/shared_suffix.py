"""A list of what is valid that a factory adds to every reason: no way out of one reason.

`raise _dispatch_expr_error(node, f"Unknown dispatch name '{node.id}'")`, where the function
returns `ValueError(f"{reason}: ... Supported dispatch expressions are names, constants, ...")`
for each of the raises that call it: the list is the grammar of them all, written once, not
what this raise refused (here a name, the first form the list allows, that nothing defines).
"Use one of those it lists" is then no way out of this reason. Read from the site's file
alone: the raise statement, which calls a function of the file by a lower-case name with a
text of its own and does not hold the sentence, and that function's `def`, which does and
which more than one raise of the file calls.
"""

from __future__ import annotations

import re

from errdex.explain.context import Facts, lines_of

__all__ = ["factory_list"]

# `raise make_error(` at the start of the raise statement: a function, not a class.
_FACTORY_CALL = re.compile(r"^\s*raise\s+(?P<name>_*[a-z]\w*)\(")
_WORDS = 4  # the sentence's first words looked for in the source (a literal may wrap after)


def factory_list(sentence: str, facts: Facts) -> bool:
    """Whether `sentence` of the message is written in a factory the raise calls with a
    reason of its own, which other raises of the file call too (see the module's doc)."""
    text = facts.source_text
    site = facts.stored.site
    if text is None:
        return False
    lines = lines_of(text)
    if not 0 < site.line <= len(lines):
        return False
    called = _FACTORY_CALL.match(lines[site.line - 1])
    if called is None:
        return False
    start = " ".join(sentence.split()[:_WORDS])
    if len(start.split()) < _WORDS:
        return False
    raised = "\n".join(lines[site.line - 1 : site.end_line])
    if start in raised or not any(c in raised for c in ("'", '"')):
        return False  # the raise writes it itself, or gives no reason of its own
    name = called["name"]
    body = _def_text(lines, name)
    if body is None or start not in body:
        return False
    return sum(1 for line in lines if re.match(rf"\s*raise\s+{re.escape(name)}\(", line)) > 1


def _def_text(lines: tuple[str, ...], name: str) -> str | None:
    """The text of the file's one `def name(` (its lines up to the next line at its margin
    or less), or None when the file has none or several."""
    header = re.compile(rf"^(?P<margin>\s*)def\s+{re.escape(name)}\(")
    found = [(n, m) for n, line in enumerate(lines) if (m := header.match(line))]
    if len(found) != 1:
        return None
    start, match = found[0]
    margin = len(match["margin"])
    end = start + 1
    while end < len(lines):
        line = lines[end]
        outdented = line.strip() and len(line) - len(line.lstrip()) <= margin
        if outdented and not line.lstrip().startswith(")"):  # not a header's closing `)`
            break
        end += 1
    return "\n".join(lines[start:end])
