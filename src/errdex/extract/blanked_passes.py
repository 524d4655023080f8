"""What a call in a blanked body gives by keyword, read from its text (`CallSite.passes`).

A body the skeleton blanked is never parsed, so its calls record no arguments, and a
parameter given by such a call is followed to no setting: vllm's model classes build
their parts in a constructor that raises nothing (`MimoAudioEncoder(audio_config,
model_path=model_path)` after `model_path = vllm_config.model_config.model`). Here only the
keyword arguments at the top level of a call's argument list are read: a keyword given an
attribute chain (`quant_config=vllm_config.quant_config`) gives that chain, and one given a
local gives the chain the local is assigned, where the body binds it once in all (a
nested `def`'s or a `lambda`'s parameter, a comprehension's or a loop's target, an import
counted as bindings too), on a line of its own at the body's own indentation, before the
call (a surely made assignment, as the walker's `last_assignment` has it for a parsed
body; bound again anywhere, even after the call, a loop around the call or a closure may
see the other value). Any other keyword (one in a comment, one given twice), and every
argument by position, is left out: such a call says nothing of those parameters, as
before. A body is read once for each name given (its occurrences found by `str.find`, kept
for every later call), and past a few names all its names are indexed in one pass, so a long
body with many calls is not read once per call, nor every name of it for a few.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right

from errdex.extract.calls_made import MAX_PASSED

_MAX_SPAN = 2_000  # characters an argument list may take: a longer one is not read
_MAX_LINE = 1_000  # characters of a line read for a binding: a longer line is taken as one
# names of one body looked for alone (`BodyNames.occurrences`); past them, all are indexed
_ASKED_ALONE = 8
_BRACKETS = re.compile(r"[()\[\]{}]")
# `keyword=name` or `keyword=a.b.c` ending at a `,` or the closing `)`
# (or `not` of one, maybe in brackets: `log_stats=(not args.disable_log_stats)`)
_KEYWORD = re.compile(
    r"[(,]\s*(\w+)[ \t]*=[ \t]*(?:\([ \t]*(not[ \t]+)?([A-Za-z_][\w.]*)[ \t]*\)"
    r"|(not[ \t]+)?([A-Za-z_][\w.]*))\s*(?=[,)])"
)
_OPENING = frozenset("([{")
# an argument list with no bracket and no `=` inside: no keyword given (most calls)
_PLAIN_ARGUMENTS = re.compile(r"\([^()\[\]{}=]*+\)")
_FIRST_CODE = re.compile(r"^([ \t]*)\S", re.MULTILINE)
# after a name, what makes its line bind it: `=`, `+=`, `: int =`, `:=`, `, other =`
_ASSIGNED_AFTER = re.compile(r"[ \t]*(?::[^=\n]*=(?!=)|:=|[-+*/%|&^@<>]{0,2}=(?!=)|,[^\n]*=(?!=))")
# before a name, a statement that binds it: `for`, `as`, `global`, `nonlocal`, `del`, a
# nested function's parameters (`def`, `lambda`), `import`
_BINDING_BEFORE = re.compile(r"\b(?:for|as|global|nonlocal|del|def|lambda|import)\b")
# a name as a whole word (not an attribute, not followed by one)
_NAME = re.compile(r"(?<![\w.])[A-Za-z_]\w*(?![\w.])")
# a name read from an assignment's line: `name = a.b.c` (an annotation allowed)
_DOTTED = re.compile(r"[ \t]*(?::[^=\n]*)?=[ \t]*([A-Za-z_][\w.]*)[ \t]*(?:#[^\n]*)?$")


class BodyNames:
    """Where the names asked for occur in one blanked body, the names its `def` line and what
    comes before the body in the function give (its parameters), and the lines that may bind
    a name: made once per body, at its first keyword given a local. A name asked for is
    looked for where its text occurs (`str.find`), not by reading every name of the body: a
    kernel's body of thousands of lines is asked for a few; past `_ASKED_ALONE` names, every
    name of the body is indexed in one pass, so many names cost that pass, not one each."""

    __slots__ = ("_asked", "_bound", "_end", "_head", "_index", "_text", "body")

    def __init__(self, text: str, body: int, end: int) -> None:
        self._text = text
        self.body = body
        self._end = end
        self._asked = 0
        self._index: dict[str, list[int]] | None = None
        self._head = max(text.rfind("def ", 0, body), 0)
        self._bound: dict[str, list[tuple[int, int]]] = {}

    def occurrences(self, name: str) -> list[int] | tuple[()]:
        """Where `name` occurs in the body as a whole word (as `_NAME` finds names), in
        order; each name is asked for once (`bindings` keeps its answer)."""
        if self._index is not None:
            return self._index.get(name, ())
        text, end = self._text, self._end
        self._asked += 1
        if self._asked > _ASKED_ALONE:
            index: dict[str, list[int]] = {}
            for match in _NAME.finditer(text, self.body, end):
                index.setdefault(match.group(), []).append(match.start())
            self._index = index
            return index.get(name, ())
        return _whole_names(text, name, self.body, end)

    def outer(self, name: str) -> bool:
        """Whether `name` is one of the names from the `def` line to the body (a parameter,
        or a name the function's parsed statements before a blanked tail read)."""
        return bool(_whole_names(self._text, name, self._head, self.body, first=True))

    def bindings(self, name: str) -> list[tuple[int, int]]:
        """(line start, offset) of each occurrence of `name` that may bind it, in order; a
        line longer than `_MAX_LINE` is taken as binding it (start -1)."""
        found = self._bound.get(name)
        if found is None:
            found = self._bound[name] = []
            for at in self.occurrences(name):
                start = _line_start(self._text, at)
                if start < 0 or _binds(self._text, name, start, at):
                    found.append((start, at))
        return found


def _whole_names(text: str, name: str, start: int, end: int, first: bool = False) -> list[int]:
    """Where `name` occurs as a whole name between `start` and `end` (the offsets
    `_NAME.finditer(text, start, end)` gives it at), in order; only the first if `first`."""
    found: list[int] = []
    at = text.find(name, start, end)
    while at >= 0:
        # `_NAME` matches from `at` (nothing of a name or a dot before it) and takes no more
        # than `name`; a later start inside this one has a word character before it
        match = _NAME.match(text, at, end)
        if match is not None and match.end() == at + len(name):
            found.append(at)
            if first:
                break
        at = text.find(name, at + len(name), end)
    return found


def _offset(binding: tuple[int, int]) -> int:
    return binding[1]


def _line_start(text: str, at: int) -> int:
    """Where the line holding `at` starts; -1 when that is more than `_MAX_LINE` back."""
    least = max(at - _MAX_LINE, 0)
    newline = text.rfind("\n", least, at)
    return newline + 1 if newline >= 0 or least == 0 else -1


def blanked_passes(
    text: str, paren: int, body: int, end: int, bodies: dict[int, BodyNames]
) -> tuple[tuple[str, str, int], ...]:
    """The keywords the call whose `(` is at `paren` gives as attribute chains, directly or
    through a local of the blanked body from `body` to `end`, as (keyword, chain, -1).
    `bodies` keeps each body's names read (`BodyNames`) for the next call of it."""
    if _PLAIN_ARGUMENTS.match(text, paren):
        return ()  # nothing given by keyword, and no bracket to read for it
    nested = _nested(text, paren)
    if nested is None:
        return ()
    close = nested[-1][1] if nested else paren
    if text.find("=", paren, close) < 0:
        return ()  # most calls: nothing given by keyword
    out: list[tuple[str, str, int]] = []
    given: list[str] = []
    for match in _KEYWORD.finditer(text, paren, close + 1):
        at = match.start(1)
        if any(start < at < end for start, end in nested[:-1]):
            continue  # a keyword of a call nested in the arguments
        if text.count('"', paren, at) % 2 or text.count("'", paren, at) % 2:
            continue  # inside a string
        if "#" in text[max(text.rfind("\n", paren, at) + 1, paren) : at]:
            continue  # in a comment (or after a `#` in a string: left out too)
        keyword = match.group(1)
        negated = bool(match.group(2) or match.group(4))
        chain = match.group(3) or match.group(5)
        given.append(keyword)
        if "." not in chain:
            names = bodies.get(body)
            if names is None:
                names = bodies[body] = BodyNames(text, body, end)
            found = _assigned(text, chain, names, paren, close)
            if found is None:
                continue
            chain = found
        out.append((keyword, f"not {chain}" if negated else chain, -1))
        if len(out) == MAX_PASSED:
            break
    # a keyword given twice is no call Python makes: nothing of it is said
    return tuple(p for p in out if given.count(p[0]) == 1)


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


def _assigned(text: str, name: str, names: BodyNames, call: int, close: int) -> str | None:
    """The attribute chain the local `name` holds at the call (its argument list from
    `call` to `close`): its one binding in the body, `name = a.b.c` at the body's own
    indentation and before the call; None otherwise, and for a parameter of the function
    (`prefix=prefix`, most keywords given a name)."""
    body = names.body
    if names.outer(name):
        return None
    # bound anywhere in the body but in the call's own arguments (its keyword `name=`)
    bound = names.bindings(name)
    first = bisect_left(bound, call, key=_offset)
    after = bisect_right(bound, close, key=_offset)
    if len(bound) - (after - first) != 1:
        return None
    start, at = bound[0] if first else bound[after]
    if at > call:
        return None
    # at the body's own indentation: a line deeper, under a branch or a loop, may not run
    if start < 0 or text[start:at] != _indent(text, body):
        return None
    end = text.find("\n", at)
    match = _DOTTED.match(text, at + len(name), end if end >= 0 else len(text))
    if match is None or "." not in match.group(1):
        return None
    return match.group(1)


def _binds(text: str, name: str, start: int, at: int) -> bool:
    """Whether the line starting at `start` may bind `name` (at `at`): an assignment to it,
    augmented or annotated, a target list holding it, `for`, `as`, `:=`, `global`, `del`, a
    parameter of a `def` or `lambda`, an import. Read loosely, erring on a binding (a line
    too long to read is one), but for a name inside a bracket the line opened before it: a
    keyword argument (`f(name=x)`) or a value given (`f(k=name, j=y)`), no target."""
    end = text.find("\n", at, at + _MAX_LINE)
    if end < 0:
        if at + _MAX_LINE < len(text):
            return True
        end = len(text)
    if _BINDING_BEFORE.search(text, start, at):
        return True
    after = _ASSIGNED_AFTER.match(text, at + len(name), end)
    if after is None:
        return False
    return ":=" in after.group() or not _inside_bracket(text, start, at)


def _inside_bracket(text: str, start: int, at: int) -> bool:
    """Whether a bracket opened between `start` and `at` is still open at `at`."""
    depth = 0
    for match in _BRACKETS.finditer(text, start, at):
        depth += 1 if match.group() in _OPENING else -1
    return depth > 0


def _indent(text: str, body: int) -> str:
    """The indentation of the body's first line of code."""
    match = _FIRST_CODE.search(text, body)
    return match.group(1) if match else ""
