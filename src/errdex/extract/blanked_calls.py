"""Calls in the function bodies the skeleton blanked, read from their text.

A blanked body is never parsed, yet its calls are how the callers of a site's function are
found ("`LLM.__init__` calls `_validate`"). They are read here with one regular expression
over each blanked body, in the shapes `calls.call_target` records (`f(...)`, `self.f(...)`,
`mod.f(...)`, `super().f(...)`), skipping strings, comments and `def`/`class` lines. A call
inside a `def` or `class` nested in the body belongs to it (`outer.<locals>.inner`), as the
walker has it.

The guard of a call is what text alone cannot give cheaply: the walker's path holds the
branches around the call and the earlier `if ...: return` of its block. A call that comes
before the body's first compound statement (`if`, loop, `with`, `try`, nested `def`...)
runs whenever the function does, so its guard is known to be empty; every other call's
guard is marked unknown (`CallSite.guard_known`), never shown as "no condition".

A kept body's blanked tail is the statements that end it, after every statement that was
parsed: a call at the tail's own level has the guard that holds after them (the early exits
the walker found), until a compound statement of the tail that may return; a call inside
one of its compound statements has an unknown guard. What a call gives by keyword is read
from its argument list where that is a chain of attributes (`blanked_passes`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import NamedTuple

from errdex.extract.blanked_passes import BodyNames, blanked_passes
from errdex.extract.calls import NOT_RECEIVERS, CallFilter
from errdex.extract.shapes import OWN_OBJECT, SUPER
from errdex.extract.skeleton import compound_line
from errdex.extract.textscan import inside_bounds, reversed_text, shallow_line
from errdex.facts import CallSite, Condition
from errdex.lazy_re import lazy_compile

# A name or dotted name called, starting where no word character or `.` comes before it
# (the tail of `a.b.c(`, `x().y(`, `1.5e3(` is no call of its own); which of these are the
# shapes recorded is checked after. Run on the reversed text, so the pattern starts with a
# literal and the engine jumps from one `(` to the next: each match is the name before a
# `(`, reversed (forward, `[A-Za-z_][\w.]*\(` tries every letter of every name).
_CALLED_REVERSED = lazy_compile(r"\(([\w.]*[A-Za-z_])(?![\w.])")
# `super().name(` with something passed (`super().__init__(auth=auth)`): the name before
# its `(` follows a `)`, which `_CALLED_REVERSED` reads as no call of its own.
_SUPER_CALL = lazy_compile(r"super\(\)\.(\w+)\((?!\s*\))")
_DEFINES = ("def ", "async def ", "class ")
# `def`/`class` names, each pattern starting with its literal so the scan skips ahead.
_DEF_NAME = lazy_compile(r"def[ \t]+(\w+)")
_CLASS_NAME = lazy_compile(r"class[ \t]+(\w+)")
_FIRST_CODE = lazy_compile(r"^([ \t]*+)\S", re.MULTILINE)


class _Scope(NamedTuple):
    """A function or class: the calls between `start` and `end` are credited to it."""

    start: int  # the start of its `def`/`class` line
    end: int  # the end of its block
    qualname: str
    class_name: str | None  # the class whose `self` its calls see
    is_function: bool


def blanked_calls(
    text: str,
    spans: list[tuple[int, int, int]],
    tails: list[tuple[int, int, int]],
    functions_at: dict[int, tuple[str, str | None]],
    guard_after: Callable[[int], tuple[Condition, ...] | None],
    strings: list[int],
    keep: CallFilter,
    param_types: dict[str, dict[str, str]] | None = None,
) -> list[CallSite]:
    """The calls in each blanked body `(def offset, body start, body end)` of `text`, and in
    each blanked tail `(def offset, tail start, body end)`, that `keep` accepts.

    `functions_at` gives the (qualname, class) of the function whose `def` is on a line, and
    `guard_after` what holds after its parsed statements (the start of its tail);
    `strings` are the triple-quoted strings' bounds (`textscan.triple_quoted_bounds`);
    `param_types` each function's annotated parameters (qualname → name → class as
    written): a method called on one, or on an attribute of the object's own
    (`self.runner.prepare(batch)`), is kept when it gives a name, for the linker to read
    the class of (`CallSite.receiver_type`).
    """
    out: list[CallSite] = []
    lines = _Lines(text)
    # each name called → ((receiver, callee) when `keep` accepts it or it is a method of an
    # object's (`_object_target`), else None; whether it is the latter): judged once per
    # file, as the same names are called again and again
    judged: dict[str, tuple[tuple[str, str] | None, bool]] = {}
    bodies: dict[int, BodyNames] = {}  # each body's names, read at its first keyword given one
    # In text order of what is read: a tail's `def` may come before a blanked body's.
    regions = sorted(
        [(*span, False) for span in spans] + [(*tail, True) for tail in tails],
        key=lambda region: region[1],
    )
    for head, body, end, is_tail in regions:
        def_line = lines.at(head)
        owner = functions_at.get(def_line)
        if owner is None:
            continue  # the skeleton and the tree disagree on this function: claim nothing
        guard = guard_after(def_line) if is_tail else ()
        outer = _Scope(head, end, owner[0], owner[1], is_function=True)
        nested: list[_Scope] | None = None  # worked out at the first call kept
        straight = end
        blocks: list[int] = []  # the bounds of a tail's compound statements
        for start, called in _calls_in(text, body, end):
            found = judged.get(called)
            if found is None:
                target, on_object = _kept_target(called, keep), False
                if target is None:
                    target = _object_target(called)
                    on_object = target is not None
                found = judged[called] = (target, on_object)
            target, on_object = found
            if target is None or inside_bounds(strings, start):
                continue
            receiver, callee = target
            line_start = text.rfind("\n", 0, start) + 1
            before = text[line_start:start]
            if "#" in before or before.lstrip().startswith(_DEFINES):
                continue
            if before.count('"') % 2 or before.count("'") % 2:
                continue  # inside a one-line string: `f"Config({name=})"` calls nothing
            if nested is None:
                nested = _nested_scopes(text, body, end, strings, outer)
                if is_tail:  # straight code after the parsed statements, when they were
                    straight, blocks = (
                        (body, []) if guard is None else _tail_flow(text, body, end, strings)
                    )
                else:
                    straight, blocks = _first_compound(text, body, end), []
            scope = outer
            if nested:  # the innermost scope that holds the call: the last one opened before it
                scope = next((s for s in reversed(nested) if s.start <= start < s.end), outer)
            written = None
            if on_object and "." not in receiver:
                written = (param_types or {}).get(scope.qualname, {}).get(receiver)
                if written is None:
                    continue  # a local's object: its class is not read from text
            known = start < straight and not inside_bounds(blocks, start)
            paren = start + len(called)
            passes = (
                blanked_passes(text, paren, body, end, bodies)
                if text[paren : paren + 1] == "("
                else ()
            )
            if on_object and not passes:
                continue  # giving no name: no value of the caller's to follow
            out.append(
                CallSite(
                    callee,
                    receiver or None,
                    lines.at(start),
                    scope.qualname,
                    scope.class_name,
                    conditions=guard if guard and known and scope is outer else (),
                    guard_known=known,
                    passes=passes,
                    receiver_type=written,
                )
            )
    return out


def _kept_target(called: str, keep: CallFilter) -> tuple[str, str] | None:
    """(receiver, callee) of a name called (`mod.f`, `f`: no receiver, ""), None for a
    shape not recorded (`a.b.f`) or a call `keep` does not accept."""
    receiver, _, callee = called.rpartition(".")
    if "." in receiver or receiver in NOT_RECEIVERS:
        return None
    return (receiver, callee) if keep.accepts(callee, receiver or None) else None


def _object_target(called: str) -> tuple[str, str] | None:
    """(receiver, callee) of a method called on a name or on an attribute of the object's
    own (`engine.add_request`, `self.runner.prepare`), not a dunder; None for another shape."""
    receiver, _, callee = called.rpartition(".")
    if not receiver or callee.startswith("__") or receiver in NOT_RECEIVERS:
        return None
    head, dot, attr = receiver.partition(".")
    if dot and (head not in OWN_OBJECT or "." in attr):
        return None
    return (receiver, callee) if head not in OWN_OBJECT or dot else None


def _calls_in(text: str, start: int, end: int) -> list[tuple[int, str]]:
    """Where each name or dotted name called between `start` and `end` starts, and the name,
    in text order (`_CALLED_REVERSED`). The character before `start` is read too: a name
    running on from before `start` is no call of its own."""
    before = start - 1 if start > 0 else 0
    found: list[tuple[int, str]] = []
    # `text[before:end]` reversed is this part of the file's reversed text (read up to its
    # end as if the text ended there), shared with the other backward scans
    size = len(text)
    for match in _CALLED_REVERSED.finditer(reversed_text(text), size - end, size - before):
        first, last = size - match.end(1), size - match.start(1)
        if first >= start:
            found.append((first, text[first:last]))
    found.reverse()
    if text.find("super().", start, end) < 0:
        return found
    supers = [(m.start(), f"{SUPER}.{m.group(1)}") for m in _SUPER_CALL.finditer(text, start, end)]
    return sorted([*found, *supers])


class _Lines:
    """Line numbers of offsets asked for mostly in increasing order: each is counted from
    the last one asked, forward or back."""

    def __init__(self, text: str) -> None:
        self._text = text
        self._offset = 0
        self._line = 1

    def at(self, offset: int) -> int:
        if offset >= self._offset:
            self._line += self._text.count("\n", self._offset, offset)
        else:
            self._line -= self._text.count("\n", offset, self._offset)
        self._offset = offset
        return self._line


def _nested_scopes(
    text: str, body: int, end: int, strings: list[int], outer: _Scope
) -> list[_Scope]:
    """The functions and classes defined in a blanked body, in text order, named as the
    walker names them: `outer.<locals>.inner`, `outer.<locals>.Class.method`."""
    found = sorted(
        (m for pattern in (_DEF_NAME, _CLASS_NAME) for m in pattern.finditer(text, body, end)),
        key=re.Match.start,
    )
    if not found:
        return []
    out: list[_Scope] = []
    enclosing: list[_Scope] = []  # the scopes around the current definition, innermost last
    for match in found:
        line_start = text.rfind("\n", 0, match.start()) + 1
        lead = text[line_start : match.start()]
        if lead.strip() not in ("", "async") or inside_bounds(strings, match.start()):
            continue  # not a definition: `x = "def f"`, a docstring's example...
        indent = len(lead) - len(lead.lstrip())
        ender = shallow_line(indent).search(text, match.end(), end)
        while enclosing and enclosing[-1].end <= line_start:
            enclosing.pop()
        parent = enclosing[-1] if enclosing else outer
        separator = ".<locals>." if parent.is_function else "."
        qualname = f"{parent.qualname}{separator}{match.group(1)}"
        is_function = match[0].startswith("def")  # of `_DEF_NAME`, not `_CLASS_NAME`
        scope = _Scope(
            line_start,
            ender.start() if ender else end,
            qualname,
            parent.class_name if is_function else qualname,
            is_function,
        )
        out.append(scope)
        enclosing.append(scope)
    return out


# `return` as a statement's word: a compound statement that holds one may end the function.
_RETURN = lazy_compile(r"(?<![\w.])return\b")
_CLAUSE = lazy_compile(r"[ \t]*(?:else|elif|except|finally)\b")


def _tail_flow(text: str, body: int, end: int, strings: list[int]) -> tuple[int, list[int]]:
    """Of a blanked tail: where its straight code ends (its first compound statement that
    may return: the calls after it may not be reached as the guard says), and the bounds of
    its compound statements (the branches around a call inside one are not read), flat as
    `inside_bounds` reads them. A call of the tail's own level before that point has the
    guard that holds after the parsed statements."""
    first = _FIRST_CODE.search(text, body, end)
    if first is None:
        return end, []
    indent = len(first.group(1))
    ender = shallow_line(indent)
    stop = end
    bounds: list[int] = []
    for compound in compound_line(indent).finditer(text, body - 1, end):
        start = compound.start() + 1
        if inside_bounds(strings, start) or (bounds and start < bounds[-1]):
            continue
        at, block_end = start, end
        while (found := ender.search(text, at, end)) is not None:
            line = found.start() + 1
            if not inside_bounds(strings, line) and not _CLAUSE.match(text, line):
                block_end = line
                break
            at = line  # a string's line, or a clause that goes on the statement
        bounds += [start, block_end]
        if stop == end and _RETURN.search(text, start, block_end):
            stop = start
    return stop, bounds


def _first_compound(text: str, body: int, end: int) -> int:
    """The offset of the body's first compound statement at its own level (`end` when it
    has none): what comes before it is straight-line code, with no condition on its path."""
    first = _FIRST_CODE.search(text, body, end)
    if first is None:
        return end
    # A docstring line that starts with such a word only makes the guards after it unknown.
    found = compound_line(len(first.group(1))).search(text, body - 1, end)
    return found.start() if found else end
