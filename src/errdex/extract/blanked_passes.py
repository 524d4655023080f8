"""What a call in a blanked body gives by keyword, read from its text (`CallSite.passes`).

A body the skeleton blanked is never parsed, so its calls record no arguments, and a
parameter given by such a call is followed to no setting: vllm's model classes build
their parts in a constructor that raises nothing (`MimoAudioEncoder(audio_config,
model_path=model_path)` after `model_path = vllm_config.model_config.model`). Here only the
keyword arguments at the top level of a call's argument list are read: a keyword given an
attribute chain (`quant_config=vllm_config.quant_config`) gives that chain, and one given a
local gives the chain the local is assigned, where the body binds it once, on a line of
its own at the body's own indentation, before the call (a surely made assignment, as the
walker's `last_assignment` has it for a parsed body). Any other keyword, and every argument
by position, is left out: such a call says nothing of those parameters, as before.
"""

from __future__ import annotations

import re

_MAX_PASSED = 8  # keywords of one call read, as `calls_made` reads
_MAX_SPAN = 2_000  # characters an argument list may take: a longer one is not read
_BRACKETS = re.compile(r"[()\[\]{}]")
# `keyword=name` or `keyword=a.b.c` ending at a `,` or the closing `)`
_KEYWORD = re.compile(r"[(,]\s*(\w+)[ \t]*=[ \t]*([A-Za-z_][\w.]*)\s*(?=[,)])")
_OPENING = frozenset("([{")
_FIRST_CODE = re.compile(r"^([ \t]*)\S", re.MULTILINE)
# after a name, what makes its line bind it: `=`, `+=`, `: int =`, `:=`, `, other =`
_ASSIGNED_AFTER = re.compile(r"[ \t]*(?::[^=\n]*=(?!=)|:=|[-+*/%|&^@<>]{0,2}=(?!=)|,[^\n]*=(?!=))")
# before a name, a statement that binds it: `for`, `as`, `global`, `nonlocal`, `del`
_BINDING_BEFORE = re.compile(r"\b(?:for|as|global|nonlocal|del)\b")
# a name read from an assignment's line: `name = a.b.c` (an annotation allowed)
_DOTTED = re.compile(r"[ \t]*(?::[^=\n]*)?=[ \t]*([A-Za-z_][\w.]*)[ \t]*(?:#[^\n]*)?$")


def blanked_passes(text: str, paren: int, body: int) -> tuple[tuple[str, str, int], ...]:
    """The keywords the call whose `(` is at `paren` gives as attribute chains, directly or
    through a local of the blanked body starting at `body`, as (keyword, chain, -1)."""
    nested = _nested(text, paren)
    if nested is None:
        return ()
    close = nested[-1][1] if nested else paren
    if text.find("=", paren, close) < 0:
        return ()  # most calls: nothing given by keyword
    out: list[tuple[str, str, int]] = []
    for match in _KEYWORD.finditer(text, paren, close + 1):
        at = match.start(1)
        if any(start < at < end for start, end in nested[:-1]):
            continue  # a keyword of a call nested in the arguments
        if text.count('"', paren, at) % 2 or text.count("'", paren, at) % 2:
            continue  # inside a string
        keyword, chain = match.group(1), match.group(2)
        if "." not in chain:
            found = _assigned(text, chain, body, paren)
            if found is None:
                continue
            chain = found
        out.append((keyword, chain, -1))
        if len(out) == _MAX_PASSED:
            break
    return tuple(out)


def _nested(text: str, paren: int) -> list[tuple[int, int]] | None:
    """The brackets opened inside the one at `paren` (start, end), and last that one
    itself; None when it does not close within `_MAX_SPAN` characters."""
    opened: list[int] = []
    spans: list[tuple[int, int]] = []
    for match in _BRACKETS.finditer(text, paren, paren + _MAX_SPAN):
        if match.group() in _OPENING:
            opened.append(match.start())
            continue
        if not opened:
            return None
        start = opened.pop()
        spans.append((start, match.start()))
        if not opened:
            return spans
    return None


def _assigned(text: str, name: str, body: int, call: int) -> str | None:
    """The attribute chain the local `name` holds at `call`: its one binding in the body,
    `name = a.b.c` at the body's own indentation and before the call; None otherwise, and
    for a parameter of the function (`prefix=prefix`, most keywords given a name)."""
    if _words(text, name, max(text.rfind("def ", 0, body), 0), body):
        return None
    lines = {text.rfind("\n", 0, at) + 1: at for at in _words(text, name, body, call)}
    binding = [(start, at) for start, at in lines.items() if _binds(text, name, start, at)]
    if len(binding) != 1:
        return None
    ((start, at),) = binding
    # at the body's own indentation: a line deeper, under a branch or a loop, may not run
    # (a binding after the call is one the call does not see)
    if text[start:at] != _indent(text, body):
        return None
    end = text.find("\n", at)
    match = _DOTTED.match(text, at + len(name), end if end >= 0 else len(text))
    if match is None or "." not in match.group(1):
        return None
    return match.group(1)


def _words(text: str, name: str, start: int, end: int) -> list[int]:
    """Where `name` occurs as a whole word (not an attribute) between `start` and `end`."""
    found: list[int] = []
    at = text.find(name, start, end)
    while at >= 0:
        after = at + len(name)
        if not _part_of_name(text, at - 1) and not _part_of_name(text, after):
            found.append(at)
        at = text.find(name, after, end)
    return found


def _part_of_name(text: str, at: int) -> bool:
    return 0 <= at < len(text) and (text[at].isalnum() or text[at] in "_.")


def _binds(text: str, name: str, start: int, at: int) -> bool:
    """Whether the line starting at `start` may bind `name` (at `at`): an assignment to it,
    augmented or annotated, a target list holding it, `for`, `as`, `:=`, `global`, `del`
    (read loosely: a keyword argument `name=x` counts, which only refuses a chain)."""
    end = text.find("\n", at)
    end = end if end >= 0 else len(text)
    return bool(
        _ASSIGNED_AFTER.match(text, at + len(name), end) or _BINDING_BEFORE.search(text, start, at)
    )


def _indent(text: str, body: int) -> str:
    """The indentation of the body's first line of code."""
    match = _FIRST_CODE.search(text, body)
    return match.group(1) if match else ""
