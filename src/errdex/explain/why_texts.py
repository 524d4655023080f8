"""The texts a function's source holds about its checks, each with its line: the units of
its docstring (a paragraph, or one entry of a `Raises:`/`Args:`/`Note:` section, of a numpy
section or a `:raises X:` field) and the messages it logs or warns beside a statement.

Read from the function parsed alone (`Facts.site_function`); `explain/why.py` picks which
of them speak of the check.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from errdex.explain.context import Facts

# Google-style (`Raises:`) and numpy-style (`Raises` over a line of dashes) section heads
_HEAD = re.compile(r"^([A-Z][A-Za-z]*(?: [A-Za-z]+)?)::?\s*$")
_MAX_DOC_LINES = 3000
_MAX_SIGNATURE_LINES = 60
_OPENING = re.compile(r"""[rRuU]?(\"\"\"|\'\'\')""")
_LOG_START = re.compile(r"(?:self\.)?_?(?:logger|logging|log|warnings|LOGGER)\.\w+\(")
_PLACEHOLDER = re.compile(r"\{[^{}]*\}|%[-#0 +]*\d*(?:\.\d+)?[a-z]|\w+=")
_WORDS = re.compile(r"[A-Za-z]{2,}")
_MIN_LOGGED_WORDS = 4
_MAX_SKIPPED = 3  # statements a comment may sit above the line it speaks of
_MAX_STATEMENT_LINES = 15  # the lines of one statement read for its trailing comments
_DASHES = re.compile(r"^-{3,}\s*$")
_BULLET = re.compile(r"[-*\u2022]\s")  # a list's item: `- x`, `* x`
_ENDED = re.compile(r"[.!?:;]\W*$")  # a line that ends a sentence (or an entry's list)
_FIELD = re.compile(r"^:(\w+)(?:\s+([^:`]+))?:(?=\s|$)")  # `:raises ValueError:`, `:param silent:`
# sections whose entries are no words on a check: what comes back, examples of use
_SKIPPED = {"returns", "return", "yields", "yield", "example", "examples", "usage", "todo"}
# sections of named entries (`x: ...`, `ValueError: ...`); any other is free text, read
# by paragraphs ("Dp-Rank Routing Contract" over a line of dashes: cut at each of its lines,
# as if each were an entry, its sentences were quoted in pieces)
_ENTRY_SECTIONS = {
    "args",
    "arguments",
    "parameters",
    "params",
    "param",
    "keyword arguments",
    "keyword args",
    "kwargs",
    "other parameters",
    "argument",
    "parameter",
    "raises",
    "exceptions",
    "exception",
    "attributes",
    "warns",
}
_LOG_METHODS = frozenset(
    {"info", "warning", "warn", "error", "exception", "critical", "info_once", "warning_once"}
)
# and those a default logger does not show
ALL_LOG_METHODS = _LOG_METHODS | {"debug", "debug_once", "log"}


@dataclass(frozen=True)
class DocUnit:
    """A paragraph of a docstring, or an entry of one of its sections."""

    text: str  # on one line
    line: int  # in the file
    section: str | None = None  # "raises", "args", "note", "see also"; None: plain paragraph
    name: str | None = None  # the entry's name: the exception of a Raises entry, a parameter


def docstring_units(lines: Sequence[str], start: int, returns: bool = False) -> list[DocUnit]:
    """The units of the docstring of the `def` on line `start` (0-based) of a file's
    `lines`, in order, with the file line of each; found in the text, nothing parsed. The
    `Returns` section's entries too when `returns`."""
    body = _body_start(lines, start)
    if body is None:
        return []
    first = lines[body].lstrip()
    opened = _OPENING.match(first)
    if opened is None:
        return []
    quote = opened.group(1)
    rest = first[opened.end() :]
    raw: list[str] = []
    at = body
    while quote not in rest:
        raw.append(rest)
        at += 1
        if at >= len(lines) or at - body > _MAX_DOC_LINES:
            return []
        rest = lines[at]
    raw.append(rest[: rest.index(quote)])
    if not first.startswith(("r", "R")):
        raw = [x.replace("\\\\", "\\") for x in raw]  # `\\` in a plain string is one
    # the indentation every line after the first shares, as `inspect.cleandoc` strips it
    raw = [x.expandtabs() for x in raw]
    margins = [len(x) - len(x.lstrip()) for x in raw[1:] if x.strip()]
    margin = min(margins) if margins else 0
    cleaned = [raw[0].strip(), *(x[margin:].rstrip() for x in raw[1:])]
    return _units(cleaned, body + 1, _SKIPPED - {"returns", "return"} if returns else _SKIPPED)


def _body_start(lines: Sequence[str], start: int) -> int | None:
    """The index of the first line after a `def`'s signature that holds anything."""
    depth = 0
    at = start
    while at < len(lines) and at - start <= _MAX_SIGNATURE_LINES:
        code = lines[at].split("#", 1)[0]
        depth += code.count("(") + code.count("[") - code.count(")") - code.count("]")
        at += 1
        if depth <= 0 and code.rstrip().endswith(":"):
            while at < len(lines) and not lines[at].strip():
                at += 1
            return at if at < len(lines) else None
    return None


def _units(lines: list[str], start: int, skipped: set[str]) -> list[DocUnit]:
    """Paragraphs and section entries: an entry starts at its section's indentation, its
    further lines are deeper; a line shallower than the entries ends the section."""
    out: list[DocUnit] = []
    section: str | None = None
    indent_of = -1  # the indentation of the current section's entries (-1: not yet seen)
    entry: list[str] = []
    entry_at = 0
    name: str | None = None

    def close() -> None:
        nonlocal entry, name
        text = " ".join(" ".join(entry).split())
        if text and section not in skipped and ">>>" not in text:
            out.append(DocUnit(text, start + entry_at, section, name))
        entry, name = [], None

    def begin(at: int, text: str, named: str | None) -> None:
        nonlocal entry, entry_at, name
        close()
        entry, entry_at, name = ([text] if text else []), at, named

    for index, line in enumerate(lines):
        stripped = line.strip()
        indent = len(line) - len(line.lstrip())
        after = lines[index + 1].strip() if index + 1 < len(lines) else ""
        if not stripped:
            close()
            continue
        if _DASHES.match(stripped):
            continue
        head = _HEAD.match(stripped)
        if indent == 0 and (head or _DASHES.match(after)):
            close()
            section, indent_of = (head.group(1) if head else stripped).lower(), -1
            continue
        field = _FIELD.match(stripped)
        if field is not None:
            close()
            section, indent_of = field.group(1).lower(), indent
            named = field.group(2).split()[-1] if field.group(2) else None
            begin(index, stripped[field.end() :].strip(), named)
            continue
        if section is not None and indent_of >= 0 and indent < indent_of:
            close()  # back at a shallower margin: the section is over, a paragraph begins
            section, indent_of = None, -1
        entries = section in _ENTRY_SECTIONS
        if section is not None and entries and (indent_of < 0 or indent == indent_of):
            indent_of = indent
            key, sep, rest = stripped.partition(":")
            words = key.split("(")[0].split()
            deeper = len(after) > 0 and _indent(lines[index + 1]) > indent
            if sep and len(words) == 1:  # `ValueError: if ...`, `silent (bool): ...`
                # numpy's `x : int` over its text: the type is no words on it
                begin(index, "" if deeper and key.endswith(" ") else rest.strip(), words[0])
            elif len(words) == 1 and not sep:  # numpy: the name alone, its text below
                begin(index, "", words[0])
            elif entry and not _ENDED.search(entry[-1]):
                entry.append(stripped)  # the entry's sentence goes on at its margin
            else:
                begin(index, stripped, None)
            continue
        if section is not None and not entries and indent_of < 0:
            indent_of = indent
        if section is not None and not entries and entry and _BULLET.match(stripped):
            close()  # an item of a named section's list ("Expectations:") is a unit of its own
        if not entry:
            entry_at = index
        entry.append(stripped)
    close()
    return out


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def logged_beside(lines: Sequence[str], site_line: int, low: int) -> list[tuple[str, int]]:
    """The messages logged or warned by the statements before the site (1-based
    `site_line`) in its own block, down to line `low`, with their lines: the literal text of
    the call's first argument, each placeholder kept as `{expr}`. Read from the text; only
    a log call's own lines are parsed."""
    if not 1 <= site_line <= len(lines):
        return []
    indent = _indent(lines[site_line - 1])
    out: list[tuple[str, int]] = []
    at = site_line - 1  # 1-based line above the site
    while at > low:
        line = lines[at - 1]
        stripped = line.strip()
        at -= 1
        if not stripped or stripped.startswith("#") or _indent(line) > indent:
            continue
        if _indent(line) < indent:
            break  # the block's header: the block starts below it
        if _LOG_START.match(stripped) is None:
            continue
        text = _call_text(lines, at + 1)
        # a trace of values (`"req_id=%s, status=%s"`) says nothing of why, and a format
        # with a placeholder left unfilled ("constant in arguments: %s") is no sentence
        words = _WORDS.findall(_PLACEHOLDER.sub(" ", text or ""))
        if text and not has_placeholder(text) and len(words) >= _MIN_LOGGED_WORDS:
            out.append((text, at + 1))
    return out[::-1]


def _call_text(lines: Sequence[str], line: int) -> str | None:
    """The text a log call starting on `line` (1-based) logs, parsed from its own lines."""
    source = lines[line - 1].strip()
    at = line
    while source.count("(") > source.count(")") and at < len(lines) and at - line < 12:
        source += "\n" + lines[at].strip()
        at += 1
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError):
        return None
    first = tree.body[0] if tree.body else None
    return logged_text(first.value) if isinstance(first, ast.Expr) else None


def logged_text(call: ast.expr) -> str | None:
    """The text a `logger.warning(...)`, `warnings.warn(...)`, `logging.info(...)` call
    logs; None for any other call."""
    if not isinstance(call, ast.Call) or not is_log_call(call):
        return None
    return _literal(call.args[0])


def is_log_call(call: ast.expr, methods: frozenset[str] = _LOG_METHODS) -> bool:
    """Whether `call` is a `logger.warning(...)`, `warnings.warn(...)`, `logging.info(...)`
    (one of `methods`) with something to log."""
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.args):
        return False
    receiver = call.func.value
    owner = receiver.attr if isinstance(receiver, ast.Attribute) else getattr(receiver, "id", "")
    return call.func.attr in methods and re.search(r"log|warn", owner, re.I) is not None


def text_literal(node: ast.expr) -> str | None:
    """The text a logged or raised expression writes, on one line (an f-string's fields
    as `{name}`); None when it is not written out."""
    return _literal(node)


def _literal(node: ast.expr) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return " ".join(node.value.split()) or None
    if isinstance(node, ast.JoinedStr):
        parts = [
            str(v.value)
            if isinstance(v, ast.Constant)
            else "{" + ast.unparse(v.value) + "}"
            if isinstance(v, ast.FormattedValue)
            else ""
            for v in node.values
        ]
        return " ".join("".join(parts).split()) or None
    if isinstance(node, ast.BinOp):  # `"... %s" % x`, `"a" + "b"`
        left = _literal(node.left)
        right = _literal(node.right) if isinstance(node.op, ast.Add) else ""
        return (left or "") + (right or "") or None
    return None


def comment_before(
    lines: Sequence[str], line: int, stops: set[int], low: int
) -> tuple[str, int] | None:
    """The comment block over the few statements just above `line` (1-based), as `(text,
    its first line)`: "Reuse the items; validate 1:1" two assignments above the `if` that
    checks it. Not across a blank line, a line of `stops` (another guard's), a line less
    indented than `line`, or above `low` (the function's first line); the block right
    above `line` itself is not this one's (the index reads it)."""
    if not 1 <= line <= len(lines):
        return None
    indent = _indent(lines[line - 1])
    at, code_lines = line - 1, 0
    while at > low and code_lines <= _MAX_SKIPPED:
        text = lines[at - 1]
        stripped = text.strip()
        if not stripped or at in stops or _indent(text) < indent:
            return None
        if stripped.startswith("#"):
            if code_lines == 0:
                return None  # right above the line: the index's comment of it
            top = _block_top(lines, at, low)
            words = " ".join(x.strip().lstrip("#").strip() for x in lines[top - 1 : at])
            return (" ".join(words.split()), top) if words.strip() else None
        code_lines += 1
        at -= 1
    return None


# a statement's header that opens a bracket its test starts under (`if (`, `elif not (`,
# `while (`): the condition's line is the test's, one below the header
_OPEN_HEADER = re.compile(r"^\s*(?:if|elif|while)\b[^#]*[(\[]\s*(?:#.*)?$")


def header_comments(lines: Sequence[str], line: int, low: int) -> tuple[list[str], int] | None:
    """The comment block right above the header of the statement whose test starts on
    `line` (1-based) under an opening bracket (`if (` on the line above), and the header's
    own trailing comment, as `(comments, the block's first line)`: the comments the index
    reads above a condition's line sit above its header instead ("# Reject empty string
    grammar early to avoid engine-side crashes" over `if (`). Not above `low` (the
    function's first line); None when the line above is no such header or no comment is
    there."""
    header = line - 1
    if not low < header <= len(lines) or _OPEN_HEADER.match(lines[header - 1]) is None:
        return None
    top = _block_top(lines, header, low)
    block = [x.strip().lstrip("#").strip() for x in lines[top - 1 : header - 1]]
    own = lines[header - 1]
    if "#" in own:
        block += [t for t, _ in trailing_comments([own], 1, first=True)]
    block = [x for x in block if x]
    return (block, top) if block else None


def _block_top(lines: Sequence[str], at: int, low: int) -> int:
    """The highest line of the unbroken run of `#` lines just above `at` (1-based), not
    above `low`; `at` itself when the line above it is no comment."""
    top = at
    while top - 1 > low and lines[top - 2].strip().startswith("#"):
        top -= 1
    return top


def has_placeholder(text: str) -> bool:
    """Whether a logged text keeps a placeholder the program fills (`%s`, `{expr}`)."""
    return re.search(r"\{[^{}]*\}|%[-#0 +]*\d*(?:\.\d+)?[a-z]", text) is not None


def trailing_comments(
    lines: Sequence[str], line: int, first: bool = False
) -> list[tuple[str, int]]:
    """The comments at the end of the further lines of the statement that starts on `line`
    (1-based), with their lines: `raise ValueError(  # ...` and the `# ...` after each of
    its arguments. The statement's first line is read only when `first` (the index holds
    the comment on a check's line)."""
    below = line - 1 if first else line
    if not 1 <= line <= len(lines) or "#" not in "".join(
        lines[below : line + _MAX_STATEMENT_LINES]
    ):
        return []
    text = "".join(x + "\n" for x in lines[line - 1 : line - 1 + _MAX_STATEMENT_LINES])
    out: list[tuple[str, int]] = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(text.lstrip()).readline):
            if token.type == tokenize.NEWLINE:
                break
            if token.type == tokenize.COMMENT and (first or token.start[0] > 1):
                words = token.string.lstrip("#").strip()
                if words:
                    out.append((words, line + token.start[0] - 1))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return out
    return out


_MAX_RUN = 6  # the statements read after a check for the run a comment above it heads


def run_spans(lines: Sequence[str], line: int) -> list[tuple[int, int, str]]:
    """The statement that starts on `line` (1-based) and those after it at its margin, each
    on one line with its first and last line, up to a blank line, a comment line, a
    shallower line or `_MAX_RUN` of them: the run of code a comment block right above `line`
    heads. Read from the text: a statement goes on while its brackets are open or its lines
    are deeper."""
    if not 1 <= line <= len(lines):
        return []
    margin = _indent(lines[line - 1])
    out: list[tuple[int, int, str]] = []
    depth = 0
    at = line - 1
    while at < len(lines) and len(out) <= _MAX_RUN:
        text = lines[at]
        stripped = text.strip()
        code = stripped.split("#", 1)[0] if "#" in stripped else stripped
        if depth > 0 or (stripped and _indent(text) > margin and out):
            first, _, before = out[-1]
            out[-1] = (first, at + 1, f"{before} {code}")  # the statement goes on
        elif not stripped or stripped.startswith("#") or _indent(text) < margin:
            break
        else:
            out.append((at + 1, at + 1, code))
        depth = max(
            0, depth + sum(code.count(c) for c in "([{") - sum(code.count(c) for c in ")]}")
        )
        at += 1
    return [(first, last, " ".join(text.split())) for first, last, text in out[:_MAX_RUN]]


def statements_between(
    lines: Sequence[str], header: int, line: int, most: int = _MAX_SKIPPED
) -> bool:
    """Whether more than `most` lines of code of the block the compound statement
    on `header` (1-based) opens come before `line`: the statement on `line` sits further
    down the block than a comment over the header speaks of. Read from the text."""
    depth, at = 0, header - 1
    while at < min(line - 1, len(lines)):  # the header, over as many lines as it takes
        code = lines[at].split("#", 1)[0]
        depth = max(0, depth + sum(map(code.count, "([{")) - sum(map(code.count, ")]}")))
        at += 1
        if depth == 0 and code.rstrip().endswith(":"):
            break
    count, margin = 0, _indent(lines[header - 1]) if header <= len(lines) else 0
    while at < min(line - 1, len(lines)):
        code = lines[at].split("#", 1)[0]
        if depth == 0 and code.strip():
            # at the header's margin (`else:`, `elif ...:`) another branch starts: the
            # lines of the one before it are not on the way to `line`
            count = 0 if _indent(lines[at]) <= margin else count + 1
        depth = max(0, depth + sum(map(code.count, "([{")) - sum(map(code.count, ")]}")))
        at += 1
    return count > most


# the sections whose entries name an exception and when it is raised
RAISES_SECTIONS = frozenset({"raises", "raise", "exception", "exceptions"})


def raised_names(facts: Facts, exception: str | None) -> set[str]:
    """The last names a docstring may give the exception raised: its own and its bases'
    (not the common roots, which every exception has)."""
    info = facts.stored.exception
    bases = [b.rpartition(".")[2] for b in info.bases] if info is not None else []
    common = {"Exception", "BaseException", "object", "Warning"}
    return {n for n in [exception, *bases] if n and n not in common}
