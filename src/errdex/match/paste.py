"""Pasted text (a message, traceback, log, notebook or pytest output) → structured evidence."""

from __future__ import annotations

import ast
import html
import re
from collections import Counter
from dataclasses import dataclass, field

import msgspec

from errdex.errors import InputError

__all__ = ["ErrorEvidence", "Evidence", "Frame", "parse_paste"]


class Frame(msgspec.Struct, frozen=True):
    """One traceback frame as printed."""

    path: str
    line: int | None
    function: str | None
    code: str | None


class ErrorEvidence(msgspec.Struct, frozen=True):
    """One error a paste shows: the exception as printed, its message, and where it came from."""

    exception: str | None  # as printed: "ValueError", "pkg.errors.ConfigError"
    message: str
    frames: tuple[Frame, ...] = ()  # innermost last
    truncated: bool = False
    level: str | None = None  # log lines only
    logger: str | None = None
    hint_file: str | None = None  # `[file.py:123]` log prefixes, `file.py:12: UserWarning: ...`
    hint_line: int | None = None


class Evidence(msgspec.Struct, frozen=True):
    """Every error found in a paste, most relevant first."""

    errors: tuple[ErrorEvidence, ...]


# A paste is untrusted: every pattern is anchored (`match`, once per line) or bounded, with no
# nested repeats that can backtrack over each other, so no line can make a pattern explode.
_BRK = "\x00BRK"  # a block boundary (fence, HTML tag line); the guard refuses real NULs
_BINARY = re.compile(r"[\x01-\x08\x0e-\x1a\x1c-\x1f\x7f-\x9f\ufffd]")
_ANSI = re.compile(r"\x1b(?:\[[0-?]{0,40}[ -/]{0,10}[@-~]|\][^\x07\x1b]{0,999}\x07?|[@-Z\\-_])")
_ANSI_LOST = re.compile(r"\[\d{1,3}(?:;\d{1,3}){0,6}m")  # colour codes whose ESC a copy dropped
_ENTITY = re.compile(r"&(?:lt|gt|amp|quot|apos|nbsp|#\d{1,7}|#x[0-9a-fA-F]{1,6});")
_FENCE = re.compile(r"\s{0,3}(?:`{3,}|~{3,})[\w+.-]{0,30}\s*$")
_TAGLINE = re.compile(r"\s*(?:</?(?:details|summary|pre|code|br|p|div)\b[^<>]*>[^<>]*){1,6}$", re.I)
_MDLINK = re.compile(r"\[([^\[\]\n]{1,999})\]\((?:https?://|/|#)[^()\s]{0,999}\)")  # Colab frames
_BACKTICKED = re.compile(r"\s*`([^`]+)`\s*$")
_QUOTED = re.compile(r"\s{0,3}>(?: |$)")
_COMPOSE = re.compile(r"([A-Za-z0-9][\w.-]{0,62}?)\s{0,40}\| ")
_NOWRAP = re.compile(r"[\s=_\-*#~+.]*$|[=_]{3}.*[=_]{3}\s*$|.*\[\s*\d+%\]\s*$|.*[│╭╮╰╯─]")
_RAWSTART = re.compile(
    r"\s*(?:Traceback \(|File \"|During handling|The above exception|\[rank|\(\w{0,40} ?pid="
    r"|\d{4}-\d\d-\d\d|\d\d-\d\d \d\d:|(?:ERROR|WARNING|INFO|DEBUG|CRITICAL)\b)"
)

# Log prefixes are read token by token; alternative k of `_TOKEN` is group `t{k}` and its own
# groups get a `_{k}` suffix, so one `match` per position tries them all in order.
_LEVELS = "CRITICAL|FATAL|ERROR|WARNING|WARN|INFO|DEBUG|TRACE|NOTICE|SUCCESS|EXCEPTION"
_MON = "Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec"
_TIME = r"\d\d?:\d\d:\d\d(?:[.,]\d{1,9})?"
_TOKEN_LIST = (
    ("tag", r"\[(?:[Rr]ank|default|local_rank) ?\d+\]:?"),  # torchrun `[rank0]:`
    # `%(name)s - %(asctime)s - %(levelname)s - ...`: the logger's name before the time
    ("logger", r"(?P<logger>[A-Za-z_][\w.-]{0,80}) - (?=\[?\d{4}-\d\d-\d\d)"),
    ("tag", r"\[\d+,\d+\]<std(?:out|err)>:"),  # mpirun
    ("tag", r"\([^()\n]{0,80}?\bpid=\d+[^()\n]{0,80}\)"),  # (VllmWorker rank=0 pid=1)
    ("tag", r"\[(?:Bug|BUG|Usage|Feature|Question|Installation|Performance|Doc|Misc|RFC)\]:?"),
    ("time", rf"\[?\d{{4}}-\d\d-\d\d[T ]{_TIME}(?: ?(?:Z|UTC|[+-]\d\d:?\d\d))?\]?"),
    ("time", rf"\[?\d{{4}}/\d\d/\d\d[ T]{_TIME}\]?"),
    ("time", rf"\[?\d\d-\d\d {_TIME}\]?"),  # vllm: MM-DD HH:MM:SS
    ("time", rf"(?:{_MON}) [ \d]\d {_TIME}(?: [\w.-]{{1,64}} [\w./-]{{1,64}}(?:\[\d+\])?:)?"),
    ("time", rf"\[?{_TIME}\]?"),
    (
        "glog",
        rf"\[?(?P<g>[IWEF])(?:\d{{4}} {_TIME}(?: +\d+)? | )(?P<file>[\w./-]+):(?P<line>\d+)\]",
    ),
    ("level", rf"\[?(?P<level>{_LEVELS})\]?(?!\w)"),
    ("level", rf"(?:##)?\[(?P<level>(?i:{_LEVELS})) *\]"),  # structlog `[error    ]`, CI
    ("hint", r"[\[{](?P<file>[^\[\]{}\s:]+\.pyx?):(?P<line>\d+)(?::[\w<>.]+)?[\]}]"),
    ("hint", r"(?P<file>[\w.-]+\.py):(?P<line>\d+)\]"),  # old vllm `logger.py:37]`
)
_TOKEN = re.compile(
    "|".join(
        f"(?P<t{k}>" + re.sub(r"\(\?P<(\w+)>", rf"(?P<\1_{k}>", pattern) + ")"
        for k, (_, pattern) in enumerate(_TOKEN_LIST)
    )
)
_TOKEN_GROUPS = [
    [(n.rsplit("_", 1)[0], n) for n in _TOKEN.groupindex if n.endswith(f"_{k}")]
    for k in range(len(_TOKEN_LIST))
]
_HEAD_START = re.compile(  # a fast no
    rf"[\[(#\d]|{_LEVELS}|{_MON}|[IWEF]\d{{4}} |[\w.-]+\.py:\d|[\w.-]{{1,80}} - \d{{4}}-"
)
_LOGGER_COLON = re.compile(r":(?P<logger>[\w.<>-]+):")  # WARNING:root:msg
_LOGGER_BEFORE = re.compile(rf"(?P<logger>[\w.-]+) - (?=(?:{_LEVELS})\b)")  # name - LEVEL - msg
_LOGGER_AFTER = re.compile(r"(?P<logger>[\w.-]+)(?::[\w<>.-]+:\d+)? [|-] ")  # loguru, nonebot
_SEP = re.compile(r"[ \t]*(?:[-|:»][ \t]*)?")
_FINAL_SEP = re.compile(r" ?(?:[-|:»] ?)?")
_GLOG = {"I": "INFO", "W": "WARNING", "E": "ERROR", "F": "CRITICAL"}
_ALIAS = {"WARN": "WARNING", "FATAL": "CRITICAL", "EXCEPTION": "ERROR"}

_TB_HEAD = re.compile(r"\s*(?:\+ Exception Group )?Traceback \(most recent call last\):\s*$")
_NB_HEAD = re.compile(r"(?P<exc>[A-Za-z_][\w.]*)\s{2,}Traceback \(most recent call last\)\s*$")
_CHAIN = re.compile(
    r"\s*(?:During handling of the above exception, another exception occurred"
    r"|The above exception was the direct cause of the following exception):\s*$"
)
_GROUP_HEAD = re.compile(r"\s*\+ Exception Group Traceback")
_GROUP_SEP = re.compile(r"\s*\+[-+]{0,3}-{3,}(?: (?:\d+|\.\.\.) -{3,})?\s*$")
_FRAME = re.compile(r'\s*File "(?P<path>[^"]+)", line (?P<line>\d+)(?:, in (?P<fn>.+))?$')
_NB_FILE = re.compile(r'\s*File (?P<path>[^\s"].*?):(?P<line>\d+), in (?P<fn>[^\s(]+)')
_NB_CELL = re.compile(  # Cell In[3], line 2 / Input In [1], in <cell line: 1>()
    r"\s*(?P<path>(?:Cell|Input) In ?\[\d+\]), (?:line (?P<line>\d+)(?:, in (?P<fn>[^\s(]+))?"
    r"|in (?P<fn2>[^(]+)\()"
)
_NB_OLD = re.compile(r"\s*(?P<path>\S+\.py[xw]?|<ipython-input-[\w-]+>) in (?P<fn>[^\s(]+)")
_RICH_FRAME = re.compile(r"\s*(?P<path>(?:\w:)?[^\s:]+|<[^>]+>):(?P<line>\d+) in (?P<fn>\S+)\s*$")
_ARROW = re.compile(r"\s*-*> ?(?P<line>\d+)(?: (?P<code>.*))?$")  # ----> 2 foo()
_CONTEXT = re.compile(r"\s+\d+(?:\s.*)?$")  # '      1 import foo'
_RICH_CODE = re.compile(r"\s*(?P<cur>❱)?\s*(?P<line>\d+)(?: ?│| |$)(?P<code>.*)$")
_CARET = re.compile(r"\s*[~^]+\s*$")
_SKIP = re.compile(  # elisions: by Python, notebooks, rich, or the user
    r"\s*(?:\[Previous line repeated \d+ more times?\]|\.\.\.<\d+ lines>\.\.\.|\d+ frames?"
    r"|\[\.\.\. .{0,80}\]|\.{3,}|…|<snip>|\(\.\.\.\))\s*$"
)
_SUFFIX = "(?:Error|Exception|Warning|Exit|Interrupt|Iteration|Group|Failure|Fault|Timeout|Abort)"
# Bounded repeats: `(?:\w+\.)*` then `\w*?` would backtrack quadratically on `a.a.a.a...`.
_EXC_STRONG = re.compile(
    rf"(?P<name>(?:[A-Za-z_]\w{{0,80}}\.){{0,12}}(?:[A-Z]\w{{0,80}}?)?{_SUFFIX}(?:\([\w.]+\))?)"
    r"(?:: (?P<msg>.*)|:?\s*$)"
)
_EXC_LOOSE = re.compile(r"(?P<name>[A-Za-z_][\w.<>]*(?:\([\w.]+\))?)(?:: ?(?P<msg>.*)|:?\s*$)")
_INNER = re.compile(rf"{_SUFFIX}(?=: |\(['\"])")  # `...: ValueError: msg`, `RuntimeError('msg')`
_PYTEST_E = re.compile(r"E(?: {2,}(?P<msg>.*))?\s*$")
_PYTEST_LOC = re.compile(
    r"(?P<path>(?:\w:)?[^\s:]+\.py):(?P<line>\d+):(?: in (?P<fn>\S+)| (?P<exc>[\w.]+))?\s*$"
)
_PYTEST_CODE = re.compile(r">\s{2,}(?P<code>\S.*)$")
_FAILED = re.compile(r"(?:FAILED|ERROR) \S+ - (?P<msg>.+)$")
_WARN = re.compile(
    r"\s*(?P<path>(?:\w:)?[^\s:][^:]*?|<[^>]+>):(?P<line>\d+): "
    r"(?P<cat>(?:[A-Za-z_]\w{0,80}\.){0,10}[A-Z]\w{0,80}?Warning): (?P<msg>.*)$"
)
_CODE_LIKE = re.compile(r"\s*(?:warn|logger\.|logging\.|raise |return |@|[\w.]+ ?= ?[\w.]+\()")
_DID_YOU_MEAN = re.compile(r"\.? ?Did you (?:mean|forget to import)\b[^\n]{0,300}\?\s*$")
_TRUNC = ("...", "…", "[...]", "(truncated)", "[truncated]", "<truncated>")


def parse_paste(text: str, *, max_bytes: int = 1_000_000) -> Evidence:
    """Find every error in pasted text; raise `InputError` for empty or binary input."""
    lines = _prepare(_guard(text, max_bytes))
    errors = _Parser(_lines(lines)).run()
    if not errors:
        raise InputError("nothing to look up: no text is left once markup is removed")
    return Evidence(tuple(_refine(errors, lines)))


# `MissingSchema: ...`, `pkg.mod.InvalidRequirement: ...`: a class name without a telling
# suffix, trusted when dotted or CamelCase (two capitals), so `Note: ...` stays prose.
_CLASS_HEAD = re.compile(
    r"(?P<name>(?:[A-Za-z_]\w{0,80}\.){0,12}[A-Z]\w{1,80}?)(?::|: (?P<msg>\S.*))$",
    re.DOTALL,
)
# `pkg.module.ClassName: ` anywhere in a line: module parts in lower case, then a class.
_QUALIFIED_HEAD = re.compile(
    r"(?<![\w.])(?P<name>(?:[a-z_][a-z0-9_]{0,40}\.){1,8}[A-Z][A-Za-z0-9_]{1,80}): (?=\S)"
)
# A frame line anywhere, in any quotes (word processors turn `"` into `“”`).
_ANY_FRAME = re.compile(
    r'\s*File ["\'](?P<path>[^"\'\n]{1,500})["\'], line (?P<line>\d{1,7})'
    r"(?:, in (?P<fn>\S{1,200}))?"
)


def _refine(errors: list[ErrorEvidence], lines: list[str]) -> list[ErrorEvidence]:
    """Second looks: a class name the parser did not trust, frames it did not attach."""
    out: list[ErrorEvidence] = []
    for error in errors:
        if error.exception is None and (inner := _QUALIFIED_HEAD.search(error.message)):
            # `raise X(e) from e pkg.mod.X: msg`: a code line glued to the error line
            error = msgspec.structs.replace(
                error, exception=inner["name"], message=error.message[inner.end() :]
            )
        if error.exception is None and (m := _CLASS_HEAD.match(error.message.strip())):
            name = m["name"]
            if "." in name or sum(c.isupper() for c in name) >= 2:
                error = msgspec.structs.replace(error, exception=name, message=m["msg"] or "")
                stem = error.message.rstrip(".…")
                if any(e.exception == name and e.message.startswith(stem) for e in out):
                    continue  # a summary line repeating an error already read in full
        if any((e.exception, e.message) == (error.exception, error.message) for e in out):
            continue  # the same error read twice (a log line and the exception it holds)
        out.append(error)
    if out and not any(e.frames for e in out):
        # Frames printed after the message (Sentry, some loggers), or without a header.
        frames = tuple(
            Frame(m["path"], int(m["line"]), m["fn"], None)
            for line in lines
            if "File " in line and (m := _ANY_FRAME.match(line))
        )
        if frames:
            first = next((i for i, e in enumerate(out) if e.exception), 0)
            out[first] = msgspec.structs.replace(out[first], frames=frames)
    return out


def _guard(text: str, max_bytes: int) -> str:
    if len(text) * 4 > max_bytes and len(data := text.encode("utf-8", "replace")) > max_bytes:
        # The error is at the end of a log: keep the tail, from its first whole line.
        text = data[-max_bytes:].decode("utf-8", "ignore")
        if 0 <= (cut := text.find("\n")) < len(text) - 1:
            text = text[cut + 1 :]
    if not text.strip():
        raise InputError("nothing to look up: the input is empty")
    if "\x00" in text:
        raise InputError("the input looks binary (it contains NUL bytes): paste the error text")
    if len(_BINARY.findall(sample := text[-65536:])) > 0.1 * len(sample):
        raise InputError("the input looks binary (mostly control characters): paste the error text")
    return text


_CURLY = str.maketrans({"“": '"', "”": '"', "‘": "'", "’": "'"})


def _prepare(text: str) -> list[str]:
    """Undo what copying did: line ends, colours, HTML escapes, markdown, quoting, wrapping."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").expandtabs(4).translate(_CURLY)
    text = _ANSI.sub("", text) if "\x1b" in text else text
    text = _ANSI_LOST.sub("", text) if "[0m" in text or "[0;" in text else text
    text = html.unescape(text) if "&" in text and _ENTITY.search(text) else text
    lines = text.replace("\u00a0", " ").replace("\u200b", "").replace("\ufeff", "").split("\n")
    for _ in range(3):  # markdown quoting, possibly nested
        body = [x for x in lines if x.strip()]
        if not body or sum(1 for x in body if _QUOTED.match(x)) < 0.6 * len(body):
            break
        lines = [x[m.end() :] if (m := _QUOTED.match(x)) else x for x in lines]
    for k, line in enumerate(lines):
        if _FENCE.match(line) or (line.lstrip().startswith("<") and _TAGLINE.match(line)):
            lines[k] = _BRK
            continue
        line = _MDLINK.sub(r"\1", line) if "](" in line else line
        m = _BACKTICKED.match(line) if "`" in line else None
        lines[k] = m[1] if m else line.rstrip()
    return _strip_compose(_unwrap(lines))


def _unwrap(lines: list[str]) -> list[str]:
    """Join lines a terminal hard-wrapped: lines exactly as long as the longest one, followed
    by a line that does not start like a line of its own."""
    width = max(map(len, lines), default=0)
    join = [
        len(x) == width >= 60
        and not _NOWRAP.match(x)
        and i + 1 < len(lines)
        and _cont(x, lines[i + 1])
        for i, x in enumerate(lines)
    ]
    full = sum(len(x) == width for x in lines)
    # Fixed-width logs have many longest lines and almost none continues: nothing was wrapped.
    if sum(join) < max(2, full // 2):
        return lines
    out: list[str] = []
    i = 0
    while i < len(lines):
        parts = [lines[i]]
        while join[i] and len(parts) < 100:
            i += 1
            parts.append(lines[i])
        out.append("".join(parts))
        i += 1
    return out


def _cont(line: str, nxt: str) -> bool:
    """Could `nxt` be the rest of `line`? Not when it has the prefix or indentation real lines
    have, or starts a line of its own."""
    return (
        bool(nxt.strip())
        and nxt != _BRK
        and not (
            nxt.startswith("  ")
            or nxt[:6] == line[:6]
            or _RAWSTART.match(nxt)
            or _EXC_STRONG.match(nxt)
        )
    )


def _strip_compose(lines: list[str]) -> list[str]:
    """Remove a `docker compose` container prefix (`app-1  | `) from the lines that carry it."""
    counts = Counter(m[1] for x in lines if (m := _COMPOSE.match(x)))
    name, count = counts.most_common(1)[0] if counts else ("", 0)
    if count < 3 and not re.search(r"[-_]\d+$", name):
        return lines
    return [x[m.end() :] if (m := _COMPOSE.match(x)) and m[1] == name else x for x in lines]


@dataclass(slots=True)
class _Line:
    text: str
    key: tuple[object, ...] | None = None  # the prefix's identity: what continuation lines share
    level: str | None = None
    logger: str | None = None
    hint_file: str | None = None
    hint_line: int | None = None
    brk: bool = False


def _head(text: str) -> _Line:
    """Strip a line's log prefix (time, level, logger, pid, `[file.py:12]`), keeping its facts."""
    if not _HEAD_START.match(text):
        return _Line(text)
    got: dict[str, str] = {}
    tags: list[str] = []
    end = 0
    for _ in range(10):
        pos = m.end() if end and (m := _SEP.match(text, end)) else end
        kind, groups = "logger", {}
        if tm := _TOKEN.match(text, pos):
            k = int((tm.lastgroup or "t0")[1:])
            kind, groups = _TOKEN_LIST[k][0], {name: tm[full] for name, full in _TOKEN_GROUPS[k]}
            if kind in ("level", "glog") and "level" in got:
                break
        elif "time" in got and "logger" not in got:
            tm = (_LOGGER_AFTER if "level" in got else _LOGGER_BEFORE).match(text, pos)
            groups = tm.groupdict() if tm else {}
        if tm is None:
            break
        end = tm.end()
        if kind == "tag":
            tags.append(tm[0])
        elif kind == "time":
            got["time"] = tm[0]
        elif level := groups.get("level") or _GLOG.get(groups.get("g") or ""):
            got["level"] = _ALIAS.get(level.upper(), level.upper())
            if lm := _LOGGER_COLON.match(text, end):
                got["logger"], end = lm["logger"], lm.end()
        for name in ("logger", "file", "line"):
            if groups.get(name):
                got[name] = groups[name]
    if not end:
        return _Line(text)
    final = _FINAL_SEP.match(text, end)
    ident = (got.get("level"), got.get("logger"), got.get("file"), got.get("line"), tuple(tags))
    return _Line(
        text[final.end() if final else end :], ident if any(ident) else None,
        got.get("level"), got.get("logger"), got.get("file"), int(got.get("line") or 0) or None,
    )  # fmt: skip


def _lines(raw: list[str]) -> list[_Line]:
    lines: list[_Line] = []
    for text in raw:
        if text == _BRK:
            lines.append(_Line("", brk=True))
            continue
        ln = _head(text)
        # `EngineCore hit an exception: Traceback (most recent call last):` holds two lines.
        k = ln.text.find("Traceback (most recent call last):")
        if k > 0 and ln.text[:k].strip() and not _TB_HEAD.match(ln.text):
            head = ln.text[:k].rstrip()
            lines.append(_Line(head, ln.key, ln.level, ln.logger, ln.hint_file, ln.hint_line))
            ln.text = ln.text[k:]
        lines.append(ln)
    if any(_GROUP_HEAD.match(x.text) for x in lines):
        for ln in lines:  # exception groups: drop the `|` margin; `+--- 2 ---` ends a block
            if _GROUP_SEP.match(ln.text):
                ln.text, ln.brk = "", True
            elif ln.text.lstrip().startswith("|"):
                ln.text = (
                    ln.text.lstrip()[2:] if ln.text.lstrip()[1:2] == " " else ln.text.lstrip()[1:]
                )
    return _unbox(lines) if any("╭" in x.text or "│" in x.text for x in lines) else lines


def _unbox(lines: list[_Line]) -> list[_Line]:
    """rich's boxed tracebacks: strip the `│` margins, drop locals panels and borders."""
    out: list[_Line] = []
    skip: int | None = None  # depth of a locals panel being skipped
    for ln in lines:
        s = ln.text.lstrip()
        if not s or s[0] not in "│╭╰":
            skip = None
            out.append(ln)
            continue
        body = s.lstrip(" │")
        depth, s = s[: len(s) - len(body)].count("│"), body.rstrip(" │")
        if s[:1] in ("╭", "╰"):
            if s[0] == "╭" and "locals" in s:
                skip = depth + 1
            elif s[0] == "╰" and skip is not None and depth < skip:
                skip = None
            elif "Traceback" in s:
                out.append(_Line("Traceback (most recent call last):", ln.key))
            elif "Sub-exception" in s:
                out.append(_Line("", brk=True))
        elif skip is None or depth < skip:
            ln.text = s
            out.append(ln)
    return out


@dataclass(slots=True)
class _Err:
    exception: str | None
    message: str
    frames: list[Frame] = field(default_factory=list)
    start: _Line | None = None  # a log line's prefix facts
    truncated: bool = False

    def evidence(self) -> ErrorEvidence:
        message, truncated = _clean(self.exception, self.message)
        ln = self.start or _Line("")
        return ErrorEvidence(
            self.exception, message, tuple(self.frames), truncated or self.truncated,
            ln.level, ln.logger, ln.hint_file, ln.hint_line,
        )  # fmt: skip


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip())


def _frame(lines: list[_Line], i: int, in_tb: bool) -> tuple[Frame, int, str] | None:
    """The frame header at line i, joining one a terminal split: frame, next index, style."""
    text = lines[i].text
    if len(text) > 2000:
        return None
    cands = [(text, i + 1)]
    nxt = lines[i + 1].text.strip() if i + 1 < len(lines) and not lines[i + 1].brk else ""
    if nxt and (text.lstrip().startswith('File "') or (in_tb and re.search(r"[/\\]", text))):
        cands += [(text.rstrip() + nxt, i + 2), (text.rstrip() + " " + nxt, i + 2)]
    for cand, j in cands:
        if m := _FRAME.match(cand):
            return Frame(m["path"], int(m["line"]), m["fn"] and m["fn"].strip(), None), j, "std"
        if m := _NB_FILE.match(cand) or _NB_CELL.match(cand):
            fn, line = m["fn"] or m.groupdict().get("fn2"), m["line"]
            return Frame(m["path"], int(line) if line else None, fn and fn.strip(), None), j, "nb"
        if (m := _RICH_FRAME.match(cand)) and re.search(r"[/\\<]", m["path"]):
            return Frame(m["path"], int(m["line"]), m["fn"], None), j, "rich"
        if in_tb and (m := _NB_OLD.match(cand)):
            return Frame(m["path"], None, m["fn"], None), j, "nb"
    return None


def _is_head(text: str) -> bool:
    """A traceback header or chain marker (cheap tests first: this runs on every line)."""
    s = text.lstrip()
    if s.startswith(("Traceback", "+ Exception Group")):
        return _TB_HEAD.match(text) is not None
    if s.startswith(("During handling", "The above exception")):
        return _CHAIN.match(text) is not None
    return "Traceback (most recent" in text and _NB_HEAD.match(text) is not None


def _maybe_frame(text: str, in_tb: bool = False) -> bool:
    s = text.lstrip()
    return s.startswith(("File ", "Cell In", "Input In")) or " in " in text or (in_tb and "/" in s)


def _starts(text: str) -> bool:
    """True when a line clearly starts something new (so a message cannot continue over it)."""
    s = text.lstrip()
    return bool(
        _is_head(text) or s.startswith('File "') or text.startswith(("___", "==="))
        or ("Warning: " in text and _WARN.match(text))
        or (text.startswith("E") and _PYTEST_E.match(text))
        or (".py:" in text and _PYTEST_LOC.match(text))
        or (s is text and _EXC_STRONG.match(text))
    )  # fmt: skip


class _Parser:
    def __init__(self, lines: list[_Line]) -> None:
        self.lines = lines
        self.chains: list[list[_Err]] = []  # tracebacks and exceptions, linked by chain markers
        self.others: list[_Err] = []  # warnings, error log lines, pytest summaries
        self.quiet: list[_Err] = []  # info/debug log lines: used only when nothing else shows
        self.loose: list[list[str]] = [[]]  # paragraphs of unrecognised text: a bare message

    def run(self) -> list[ErrorEvidence]:
        lines, i = self.lines, 0
        linked = False  # a chain marker was seen: the next traceback continues the chain
        pyframes: list[Frame] = []  # pytest's `path:line: in fn` lines of the current failure
        pycode: str | None = None  # pytest's `>   failing line`
        while i < len(lines):
            ln, err = lines[i], None
            text = ln.text
            if ln.brk or not text.strip():
                linked = linked and not ln.brk
                self.loose.append([])
                i += 1
            elif _is_head(text) and _CHAIN.match(text):
                linked, i = True, i + 1
            elif _is_head(text) or (_maybe_frame(text) and _frame(lines, i, False)):
                i, err = self._traceback(i)
            elif text.startswith("E") and _PYTEST_E.match(text):
                i, err = self._pytest(i, pyframes, pycode)
                pyframes, pycode = [], None
            elif ".py:" in text and (m := _PYTEST_LOC.match(text)):
                pyframes.append(Frame(m["path"], int(m["line"]), m["fn"], None))
                i += 1
            elif text.startswith(("___", "===", "_ _")):
                if not text.startswith("_ _"):  # a new failure, not the next frame of this one
                    pyframes, pycode = [], None
                i += 1
            elif text.startswith(">") and (m := _PYTEST_CODE.match(text)):
                pycode, i = m["code"], i + 1
            elif "Warning: " in text and (m := _WARN.match(text)):
                i = self._warning(i, m)
            elif ln.level and not text[:1].isspace():  # (indented: a cut traceback's code line)
                i = self._log(i)
            elif text.startswith(("FAILED ", "ERROR ")) and (m := _FAILED.match(text)):
                self.others.append(_Err(None, m["msg"]))
                i += 1
            elif m := _EXC_STRONG.match(text.strip()):
                i, cont = self._continue(i + 1, ln)
                err = _Err(m["name"], "\n".join([m["msg"] or "", *cont]))
            else:
                self.loose[-1].append(text)
                i += 1
            if err is not None:
                self.chains[-1].append(err) if linked and self.chains else self.chains.append([err])
                linked = False
        return self._assemble()

    def _assemble(self) -> list[ErrorEvidence]:
        """Final exceptions before their causes, then the rest; each followed by the errors
        its message wraps; duplicates (the same traceback from every worker) once."""
        found = [e for chain in self.chains for e in reversed(chain)] + self.others
        if not found:
            found = self.quiet[-20:] or [_Err(None, "\n".join(p)) for p in self.loose if p]
        out: list[ErrorEvidence] = []
        raw: set[tuple[str | None, str]] = set()
        seen: set[tuple[str | None, str]] = set()
        for err in found:
            if (err.exception, err.message) in raw or len(out) >= 100:
                continue
            raw.add((err.exception, err.message))
            for ev in [err.evidence(), *(e.evidence() for e in _inner(err))]:
                key = (ev.exception, ev.message)
                cut = ev.truncated and any(e == key[0] and m.startswith(key[1]) for e, m in seen)
                if (ev.message or ev.exception) and key not in seen and not cut:
                    seen.add(key)
                    out.append(ev)
        return out[:100]

    def _continue(self, j: int, start: _Line) -> tuple[int, list[str]]:
        """Lines continuing a message begun on `start`: same prefix, up to a blank or new thing."""
        out: list[str] = []
        while j < len(self.lines) and len(out) < 400:
            ln = self.lines[j]
            if ln.brk or not ln.text.strip() or _starts(ln.text):
                break
            if ln.key != start.key and not (start.level and ln.key is None):
                break
            if ln.key is not None and start.level and not start.hint_file and not ln.key[4]:
                break  # `WARNING:root:` again: a new record (only vllm-style heads repeat per line)
            out.append(ln.text)
            j += 1
        return j, out

    def _traceback(self, i: int) -> tuple[int, _Err | None]:
        lines, first = self.lines, i
        nb = _NB_HEAD.match(lines[i].text) is not None
        i += 1 if nb or _TB_HEAD.match(lines[i].text) else 0
        frames: list[Frame] = []
        rich, findent, strays = False, 0, 0  # findent: 0 in notebooks, or when indents were lost
        while i < len(lines):
            ln = lines[i]
            text, s = ln.text, ln.text.strip()
            if ln.brk or (_is_head(text) and not _NB_HEAD.match(text)):
                break
            if not s or _CARET.match(text) or _SKIP.match(text):
                i += 1
                continue
            if _maybe_frame(text, True) and (fr := _frame(lines, i, True)):
                frames.append(fr[0])
                i, nb, rich, findent = fr[1], nb or fr[2] == "nb", fr[2] == "rich", _indent(text)
                continue
            last = frames[-1] if frames else None
            code, m = None, None
            if (rich and (m := _RICH_CODE.match(text))) or (nb and (m := _ARROW.match(text))):
                if "cur" in m.groupdict() and not m["cur"]:
                    i += 1  # rich shows context lines around the current one
                    continue
                code = (m["code"] or "").replace("│", " ").strip() or None
            elif nb and _CONTEXT.match(text):
                i += 1
                continue
            elif (
                # The code line under a frame: indented deeper, or, when indentation was lost,
                # anything that does not read as the exception line.
                last is not None and last.code is None and not last.path.startswith("<")
                and (_indent(text) > findent if findent else not nb and not _EXC_STRONG.match(s))
            ):  # fmt: skip
                code = s
            if code is not None or (findent and _indent(text) > findent):
                if last is not None and code is not None and last.code is None:
                    line = last.line if last.line is not None or m is None else int(m["line"])
                    frames[-1] = Frame(last.path, line, last.function, code)
                i += 1  # (deeper lines without a frame to fill: 3.13's multi-line statements)
                continue
            if em := _EXC_STRONG.match(s) or _EXC_LOOSE.match(s):
                j, cont = self._continue(i + 1, ln)
                return j, _Err(em["name"], "\n".join([em["msg"] or "", *cont]), frames)
            strays += 1
            if findent or strays > 3:
                break
            i += 1
        return max(i, first + 1), None

    def _pytest(self, i: int, frames: list[Frame], code: str | None) -> tuple[int, _Err]:
        body: list[str] = []
        while i < len(self.lines) and (m := _PYTEST_E.match(self.lines[i].text)):
            body.append(m["msg"] or "")
            i += 1
        pad = min((_indent(x) for x in body if x.strip()), default=0)
        body = [x[pad:] for x in body]
        exc = None
        if m := _EXC_STRONG.match(body[0]):
            exc, body[0] = m["name"], m["msg"] or ""
        frames, j = list(frames), i
        while j < len(self.lines) and not self.lines[j].text.strip():
            j += 1
        if j < len(self.lines) and (m := _PYTEST_LOC.match(self.lines[j].text)) and m["exc"]:
            frames.append(Frame(m["path"], int(m["line"]), None, code))  # `path:12: ValueError`
            exc, i = exc or m["exc"], j + 1
        elif frames and code:
            frames[-1] = Frame(frames[-1].path, frames[-1].line, frames[-1].function, code)
        return i, _Err(exc, "\n".join(body), frames)

    def _warning(self, i: int, m: re.Match[str]) -> int:
        start, body = self.lines[i], [m["msg"]]
        indent = _indent(start.text)
        i += 1
        while i < len(self.lines):
            ln = self.lines[i]
            if ln.brk or not ln.text.strip() or ln.key != start.key:
                break
            if _indent(ln.text) > indent or (indent == 0 and _CODE_LIKE.match(ln.text)):
                i += 1  # the code line `warnings.warn(` printed under the warning
                break
            if _starts(ln.text):
                break
            body.append(ln.text)
            i += 1
        # The printed file:line is where the warning points (stacklevel), often the caller's code.
        hint = _Line("", start.key, start.level, start.logger, m["path"], int(m["line"]))
        self.others.append(_Err(m["cat"], "\n".join(body), start=hint))
        return i

    def _log(self, i: int) -> int:
        ln = self.lines[i]
        j, cont = self._continue(i + 1, ln)
        err = _Err(None, "\n".join([ln.text, *cont]), start=ln)
        (self.others if ln.level in ("WARNING", "ERROR", "CRITICAL") else self.quiet).append(err)
        return max(j, i + 1)


def _inner(err: _Err) -> list[_Err]:
    """Errors an application wrapped into its message: `Failed: ValueError: x`, `KeyError('k')`."""
    out: list[_Err] = []
    msg = err.message
    for m in _INNER.finditer(msg):
        start = m.start()
        while start > 0 and (msg[start - 1].isalnum() or msg[start - 1] in "_."):
            start -= 1
        name = msg[start : m.end()].lstrip(".")
        last = name.rsplit(".", 1)[-1]
        # A bare `Error: ` inside prose ("404 Client Error: Not Found") is no class name.
        if not (name[:1].isalpha() or name[:1] == "_") or not last[:1].isupper() or last == "Error":
            continue
        rest = msg[m.end() :]
        if start and msg[start - 1] in "`'\"" and (close := rest.find(msg[start - 1])) > 0:
            rest = rest[:close]  # quoted inside prose: I get `ValueError: x` when ...
        if rest.startswith(": "):
            out.append(_Err(name, rest[2:], truncated=err.truncated))
        elif (inner := _repr_string(rest[1:])) is not None:
            out.append(_Err(name, inner))
        if len(out) >= 4:
            break
    return out


def _repr_string(text: str) -> str | None:
    """The value of the Python string literal `text` starts with (as in `ValueError('...')`)."""
    quote, j = text[:1], 1
    while j < min(len(text), 100_000):
        if text[j] == "\\":
            j += 2
        elif text[j] == quote:
            try:
                value = ast.literal_eval(text[: j + 1])
            except (ValueError, SyntaxError):
                return None
            return value if isinstance(value, str) else None
        else:
            j += 1
    return None


def _clean(exception: str | None, message: str) -> tuple[str, bool]:
    """Tidy a message: trailing blanks, `Did you mean` suffixes, ellipses, quotes around it all."""
    message = "\n".join(x.rstrip() for x in message.strip().split("\n"))
    message = _DID_YOU_MEAN.sub("", message) if "Did you" in message else message
    truncated = False
    for mark in _TRUNC:
        if message.endswith(mark):
            message, truncated = message[: -len(mark)].rstrip(" .…"), True
            break
    pairs = {"'": "'", '"': '"', "`": "`", "“": "”", "‘": "’"}
    if (
        len(message) >= 2 and pairs.get(message[0]) == message[-1]
        and message[0] not in message[1:-1] and not (exception or "").endswith("KeyError")
    ):  # fmt: skip
        message = message[1:-1].strip()
    # A message cut short mid-value leaves a bracket open.
    truncated = truncated or any(message.count(a) > message.count(b) for a, b in ("()", "[]", "{}"))
    return message, truncated
