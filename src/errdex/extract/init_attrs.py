"""Attributes a constructor keeps from its parameters (`ClassFact.attr_from`).

`LLMEngine.__init__(self, ..., log_stats)` runs `self.log_stats = log_stats`: a check of
`self.log_stats` in any method tests what the caller gave the constructor, so the linker
can follow it to the callers (`link.value_flow`). Read from the constructor's text, which
the skeleton may have blanked: a line at the body's own indentation (no `if`, loop, `try`
or `with` around it) that assigns `self.X` one parameter as it is (`x`, `(x)`, `bool(x)`) or
negated (`not x`), where the class's text assigns `self.X` nowhere else and the constructor
never rebinds the parameter. Anything else (a default, a conversion, arithmetic) keeps no
fact: what the attribute holds is then not the caller's value, or not its truth.
"""

from __future__ import annotations

import ast
import bisect
import functools
import itertools
import re
from collections.abc import Iterator, Sequence
from typing import NamedTuple

from errdex.extract.shapes import copied_chain
from errdex.extract.source_text import line_starts, source_lines
from errdex.lazy_re import lazy_compile

# `self.x = x`, `self.x: bool = not x`, `self.x = bool(x)`, `self.x = (not x)`, a comment
# allowed after it; nothing else on the line
_KEPT = lazy_compile(
    r"self\.(?P<attr>\w+)[ \t]*(?::[^=\n]*)?=[ \t]*"
    r"(?:\((?P<paren>[^()\n]*)\)|bool\((?P<truth>\w+)\)|(?P<plain>(?:not[ \t]+)?\w+))"
    r"[ \t]*(?:#[^\n]*)?\r?\n?$"
)
_NEGATED = lazy_compile(r"^[ \t]*not[ \t]+(\w+)[ \t]*$")
_NAME = lazy_compile(r"^[ \t]*(\w+)[ \t]*$")
# Each assignment of an attribute in a text: `self.x = ` and `self.x += ` (not `==`, not an
# f-string's `{self.x=}`) wherever they are, `self.x: T = ` and `self.x, ...` before an `=`
# on its line (a tuple target) only where they start a statement (`_starts_statement`: an
# argument `f(a=self.x, b=1)` and a slice `buf[self.i:] = b` hold them too), and
# `for self.x in` (`_LOOP_TARGET`). No `\b` before `self`: a literal start lets the engine
# jump from one to the next (one pattern for both, its alternatives starting `s` and `f`,
# would try every `s` and `f` of the text: three times the scan). The name is taken
# possessively: no shorter part of it is followed by an assignment, and trying each
# (`self.config(`, `self.a.b`: most of them) doubled the scan. The empty group marks what
# `_starts_statement` checks, the colon an annotation.
SELF_ASSIGNED = lazy_compile(
    r"self\.(\w++)(?=[ \t]*(?:[-+*/%|&^@]|//|\*\*|<<|>>)?=(?![=}])"
    r"|()[ \t]*(?:(:)[^=\n]*|,[^\n]*?(?<![=!<>]))=(?!=))"
)
_LOOP_TARGET = lazy_compile(r"for[ \t]+\(?self\.(\w+)")
# what may stand before a tuple target's `self.x` on its line: other targets and commas
# (`a, self.x, *rest = ...`, `(self.x, self.y) = ...`)
_TARGETS_BEFORE = lazy_compile(
    r"[ \t]*(?:[(\[][ \t]*)?(?:\*?[A-Za-z_][\w.]*(?:\[[^\[\]\n]*\])*[ \t]*,[ \t]*)*\*?"
)
_INDENT = lazy_compile(r"[ \t]*")
# the end of a line whose statement goes on: an open bracket, a comma, an operator, a
# backslash, a word that needs what follows (not a dot: `def f(): ...`, `x = 1.` end theirs)
_GOES_ON = lazy_compile(r"(?:[-([{,\\+*/%|&^@<>=~]|\b(?:and|or|not|in|is|if|else|lambda))[ \t\r]*$")
_MAX_LINES = 400  # lines of a constructor read; a longer one keeps no fact
_MAX_VALUE_LINES = 6  # lines one copied value may span
# `self.x = ` or `self.x: T = ` at a statement's start, what follows being the value
_COPY = lazy_compile(r"self\.(?P<attr>\w+)[ \t]*(?::[^=\n]*)?=(?!=)[ \t]*(?=[(\w])")
# what a copied value starts with: a name and a dot, maybe inside brackets
_CHAIN_START = lazy_compile(r"[\s(]*[A-Za-z_]\w*[ \t]*\.[ \t]*[A-Za-z_]")


class KeptAttributes(NamedTuple):
    """What the class's own `__init__` keeps on `self` (see the module)."""

    params: dict[str, str]  # `attr` → `param` or `not param`
    chains: dict[str, str]  # `attr` → the attribute chain it copies (`cache_config.cache_dtype`)


_NOTHING_KEPT = KeptAttributes({}, {})


class ClassText:
    """What the facts of one class read from its text as the file has it (the skeleton may
    have blanked its methods' bodies), each part read once however many of them ask: the
    class's body, how often it assigns each `self.X`, and its own `__init__`'s body."""

    def __init__(self, cls: ast.ClassDef, source: str) -> None:
        self.cls = cls
        self.source = source  # the file's text
        self.lines = source_lines(source)
        self.init = next(
            (s for s in cls.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"),
            None,
        )

    @functools.cached_property
    def text(self) -> str:
        """The text of the class's body: `block_of`'s lines after its `class` line, sliced
        from the file's text in one piece."""
        cls, lines, source = self.cls, self.lines, self.source
        begin = cls.lineno
        end = _block_end(source, lines, begin, len(indent_of(lines[cls.lineno - 1])))
        while begin < end and not lines[begin].strip():
            begin += 1
        starts = line_starts(source)
        return source[starts[begin] : starts[end]]

    @functools.cached_property
    def counts(self) -> dict[str, int]:
        """`X` → how many times the class's body assigns `self.X` (`assignment_counts`)."""
        return assignment_counts(self.text)

    @functools.cached_property
    def init_body(self) -> list[str] | None:
        """The lines of the own `__init__`'s body (None past `_MAX_LINES`, or with none)."""
        init = self.init
        if init is None or not init.body:
            return None
        return block_of(self.source, init.body[0].lineno, indent_of(self.lines[init.lineno - 1]))


def assignment_counts(text: str) -> dict[str, int]:
    """`X` → how many times `text` assigns `self.X` (`SELF_ASSIGNED`, `_LOOP_TARGET`)."""
    counts: dict[str, int] = {}
    for match in _assignments(text):
        # the empty group's target is checked (a loop's match has no group past the name)
        if match.lastindex != 1 and not _starts_statement(text, match.start(), match[3] is None):
            continue
        counts[match[1]] = counts.get(match[1], 0) + 1
    return counts


def _assignments(text: str) -> list[re.Match[str]]:
    """The matches of `SELF_ASSIGNED` and `_LOOP_TARGET` in order, as one pattern of both
    alternatives would find them, each scan with its literal start: an assignment's match
    inside a loop's (its `self.x`, or one after a name ending `self`) is none of its own.
    No assignment's match holds a loop's start (a `for` ending its name would be followed
    by a blank and `self.`, an assignment's by an operator, `:` or `,`), and a loop's match
    inside another's is passed over by their own scan as by one pattern."""
    loops = list(_LOOP_TARGET.finditer(text))
    found = list(SELF_ASSIGNED.finditer(text))
    if not loops:
        return found
    starts = [loop.start() for loop in loops]
    for at in range(len(found) - 1, -1, -1):
        before = bisect.bisect_right(starts, found[at].start()) - 1
        if before >= 0 and found[at].start() < loops[before].end():
            del found[at]  # inside a loop's match
    return sorted([*found, *loops], key=re.Match.start)


def _starts_statement(text: str, at: int, in_tuple: bool) -> bool:
    """Whether the target at `at` starts a statement: nothing but other targets and commas
    before it on its line (`in_tuple`; an annotated one only indentation), and the last
    line of code above it (blank lines and comments aside) ends its own statement, no
    bracket or operator left open. `text` is the file's as written, the bodies the
    skeleton blanked in the parsed tree among it."""
    line = text.rfind("\n", 0, at) + 1
    if (_TARGETS_BEFORE if in_tuple else _INDENT).fullmatch(text, line, at) is None:
        return False
    end = line - 1
    while end > 0:
        start = text.rfind("\n", 0, end) + 1
        code = text[start:end]
        if "#" in code or '"' in code or "'" in code:
            # a string's text is none of the code's (an empty one is left for the `=` before it)
            code = _STRINGS.sub("''", code).partition("#")[0]
        if code.strip():
            return _GOES_ON.search(code) is None
        end = start - 1
    return True


def kept_attributes(whole: ClassText) -> KeptAttributes:
    """The attributes the class's own `__init__` keeps from its parameters, and those it
    copies from an attribute chain (see the module)."""
    init = whole.init
    if init is None or not init.body:
        return _NOTHING_KEPT
    args = init.args
    params = {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)} - {"self"}
    body = whole.init_body
    if body is None or "setattr(" in "".join(body):  # no line's end holds part of it
        return _NOTHING_KEPT
    indent = indent_of(body[0]) if body else ""
    found: dict[str, str] = {}
    chains: dict[str, str] = {}
    depths: list[int] | None = None
    for index, line in enumerate(body):
        if not line.startswith(indent) or line[len(indent) : len(indent) + 5] != "self.":
            continue
        match = _KEPT.match(line, len(indent))
        if match is None:
            if depths is None:
                depths = _depths(body)
            copied = _copied(body, depths, index, len(indent))
            if copied is not None:
                chains.setdefault(*copied)
            continue
        value = match["paren"] if match["paren"] is not None else match["truth"] or match["plain"]
        negated = _NEGATED.match(value)
        given = negated or _NAME.match(value)
        if given is None or given[1] not in params:
            continue
        found.setdefault(match["attr"], f"not {given[1]}" if negated else given[1])
    if not found and not chains:
        return _NOTHING_KEPT
    counts = whole.counts
    if depths is None:
        depths = _depths(body)
    kept = {
        attr: value
        for attr, value in found.items()
        if counts.get(attr) == 1 and not _rebound(body, depths, value.rpartition(" ")[2])
    }
    # whether each root holds one object: asked once per root, not per chain (a
    # constructor copies many fields of one config: `self.a = cfg.a`, `self.b = cfg.b`)
    held: dict[str, bool] = {}
    copies: dict[str, str] = {}
    for attr, chain in chains.items():
        if attr in found or counts.get(attr) != 1:
            continue
        root = chain.partition(".")[0]
        if root not in held:
            held[root] = _held_root(body, depths, root, params, indent)
        if held[root]:
            copies[attr] = chain
    return KeptAttributes(kept, copies)


def _copied(body: list[str], depths: list[int], index: int, start: int) -> tuple[str, str] | None:
    """(`attr`, chain) for a statement `self.attr = <chain>` starting at `body[index]` (at
    the body's own indentation, `start`), its value read whole across the lines its
    brackets span (at most a few); None for any other value."""
    if depths[index]:
        return None  # inside another statement's brackets
    line = body[index]
    match = _COPY.match(line, start)
    if match is None:
        return None
    text = line[match.end() :]
    for follow in range(index + 1, min(index + _MAX_VALUE_LINES, len(body))):
        if depths[follow] == 0:
            break
        text += body[follow]
    if _CHAIN_START.match(text) is None:
        return None  # a call, a literal, arithmetic on a name: parsed for nothing
    try:
        value = ast.parse(text.strip(), mode="eval").body
    except SyntaxError:
        return None
    chain = copied_chain(value)
    return (match["attr"], chain) if chain is not None else None


def _held_root(
    body: list[str], depths: list[int], root: str, params: set[str], indent: str
) -> bool:
    """Whether the chain's root holds one object through the whole constructor: `self`, a
    parameter never rebound, or a local assigned once, at the body's own indentation."""
    if root == "self":
        return True
    if root in params:
        return not _rebound(body, depths, root)
    assigning = _assigned(root)
    lines = [
        n
        for n, (line, depth) in enumerate(zip(body, depths, strict=True))
        if root in line and depth == 0 and _MAY_ASSIGN.match(line) and assigning.match(line)
    ]
    if len(lines) != 1 or not body[lines[0]].startswith(indent + root):
        return False
    if indent_of(body[lines[0]]) != indent:
        return False
    return not any(
        root in line and _MAY_BIND.search(line) and _elsewhere(root).search(line) for line in body
    )


def indent_of(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t"))]


def block_of(source: str, first: int, outer: str, most: int = _MAX_LINES) -> list[str] | None:
    """The lines of `source` from `first` (counted from 1) while they are blank, comments, or
    indented deeper than `outer`, the blank ones it starts with left out: a body as its
    text has it. None past `most` lines."""
    lines = source_lines(source)
    begin = first - 1
    end = _block_end(source, lines, begin, len(outer))
    if end - begin > most:
        return None
    while begin < end and not lines[begin].strip():
        begin += 1
    return list(lines[begin:end])


def _block_end(source: str, lines: Sequence[str], begin: int, outer: int) -> int:
    """The index of the line that ends the block whose lines start at `lines[begin]` (see
    `block_of`), or `len(lines)`: found by one search of the text from the `\\n` before
    that line (`_body_end`), where a reading line by line strips every line of the block."""
    if begin >= len(lines):
        return begin
    if begin == 0 or "\r" in source:  # no `\\n` before it, or a line may end at `\\r`
        for index in range(begin, len(lines)):
            line = lines[index]
            if len(line) - len(line.lstrip(" \t")) <= outer:
                stripped = line.strip()
                if stripped and stripped[0] != "#":
                    return index
        return len(lines)
    starts = line_starts(source)
    found = _body_end(outer).search(source, starts[begin] - 1)
    return len(lines) if found is None else bisect.bisect_left(starts, found.start() + 1)


@functools.lru_cache(maxsize=64)
def _body_end(outer: int) -> re.Pattern[str]:
    """The line that ends a block whose owner is indented by `outer` characters, with the
    `\\n` before it: one indented by no more (spaces and tabs, as `block_of` counts them)
    that is neither blank nor a comment (`\\s` is the whitespace `str.strip` takes)."""
    return re.compile(rf"\n[ \t]{{0,{outer}}}+(?![ \t])[^\S\n]*[^\s#]")


def _rebound(body: list[str], depths: list[int], name: str) -> bool:
    """Whether the body may bind `name` anywhere: an assignment on a line that starts a
    statement (one inside brackets, `f(\n    name=x,`, is a keyword given), a loop, `as`,
    `:=`, `del`. `depths`: `_depths(body)`. The patterns made for `name` are tried only on
    a line that `_MAY_ASSIGN` or `_MAY_BIND` lets through (the kept `self.x = x` itself is
    neither), so most names never have theirs compiled."""
    for index in _lines_holding(body, name):
        line = body[index]
        if depths[index] == 0 and _MAY_ASSIGN.match(line) and _assigned(name).match(line):
            return True
        if _MAY_BIND.search(line) and _elsewhere(name).search(line):
            return True
    return False


# The body last read by `_lines_holding`, its text in one piece and where each line ends
# in it: a constructor's body is asked for each of the names it keeps.
_JOINED: tuple[list[str], str, list[int]] = ([], "", [])


def _lines_holding(body: list[str], name: str) -> Iterator[int]:
    """The index of each line of `body` that holds `name`, in order: found with `str.find`
    in the body's text rather than by a test of each line (a long constructor keeps many
    names, and few lines hold each). The body is known by identity, kept alongside."""
    global _JOINED
    if _JOINED[0] is not body:
        _JOINED = (body, "".join(body), list(itertools.accumulate(map(len, body))))
    _, text, ends = _JOINED
    at = text.find(name)
    while at != -1:
        index = bisect.bisect_right(ends, at)  # the line the occurrence starts on
        yield index
        at = text.find(name, ends[index])  # the next line holding it (no name spans a line end)


def _depths(body: list[str]) -> list[int]:
    """How many brackets are open at the start of each line of `body` (those of a string
    on one line and of a comment not counted), worked out once for every name asked."""
    out: list[int] = []
    depth = 0
    for line in body:
        out.append(depth)
        if _BRACKETS.search(line) is None:
            continue  # no bracket: the depth stays
        code = line.partition("#")[0] if "#" in line else line
        if "'" in code or '"' in code:  # (most lines hold no string to take out)
            code = _STRINGS.sub("", code)
        opened = code.count("(") + code.count("[") + code.count("{")
        depth = max(depth + opened - code.count(")") - code.count("]") - code.count("}"), 0)
    return out


@functools.lru_cache(maxsize=4096)
def _assigned(name: str) -> re.Pattern[str]:
    """A line that starts a statement assigning `name` (alone, in a tuple, augmented,
    annotated), compiled once a process."""
    return re.compile(
        rf"[ \t]*(?:\*?\w+[ \t]*,[ \t]*)*\*?{name}[ \t]*(?:,[^=\n]*)?"
        rf"(?::[^=\n]*)?(?:[-+*/%|&^@]|//|\*\*|<<|>>)?=(?!=)"
    )


@functools.lru_cache(maxsize=4096)
def _elsewhere(name: str) -> re.Pattern[str]:
    """`name` bound by a loop, `as`, `:=` or `del`, compiled once a process."""
    return re.compile(
        rf"\b(?:for|as)[ \t]+(?:\w+[ \t]*,[ \t]*)*{name}\b|\b{name}[ \t]*:=|\bdel[ \t]+{name}\b"
    )


# what every line `_assigned` matches starts with: a first target, then a comma, an
# annotation's colon, an operator or `=` (`self.x = x` has a dot there)
_MAY_ASSIGN = lazy_compile(r"[ \t]*\*?\w+[ \t]*[,:=<>\-+*/%|&^@]")
# what every line `_elsewhere` finds holds
_MAY_BIND = lazy_compile(r"\b(?:for|as|del)[ \t]|:=")
# a string literal on one line: its brackets are none of the code's
_STRINGS = lazy_compile(r"'[^'\n]*'|\"[^\"\n]*\"")
_BRACKETS = lazy_compile(r"[][(){}]")
