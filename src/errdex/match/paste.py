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


# Every pattern is anchored or bounded and has no nested unbounded repeats: a paste is
# untrusted text, and one catastrophic backtrack would hang the lookup.
_BRK = "\x00BRK"  # marks a block boundary (fence, HTML tag line); NUL never survives the guard
_ERROR_LEVELS = frozenset({"WARNING", "ERROR", "CRITICAL"})
_BINARY = re.compile(r"[\x01-\x08\x0e-\x1a\x1c-\x1f\x7f-\x9f\ufffd]")
_ANSI = re.compile(
    r"\x1b(?:\[[0-?]{0,40}[ -/]{0,10}[@-~]|\][^\x07\x1b]{0,1000}(?:\x07|\x1b\\)?|[@-Z\\-_])"
)
_ANSI_LOST = re.compile(r"\[\d{1,3}(?:;\d{1,3}){0,6}m")  # colour codes whose ESC a copy dropped
_ENTITY = re.compile(r"&(?:lt|gt|amp|quot|apos|nbsp|#\d{1,7}|#x[0-9a-fA-F]{1,6});")
_FENCE = re.compile(r"\s{0,3}(?:`{3,}|~{3,})[\w+.-]{0,30}\s*$")
_TAGLINE = re.compile(
    r"\s*(?:</?(?:details|summary|pre|code|br|p|div|b|strong|em)\b[^<>\n]{0,200}>[^<>\n]{0,200}){1,6}$",
    re.I,
)
_MDLINK = re.compile(r"\[([^\[\]\n]{1,1000})\]\((?:https?://|/|#)[^()\s]{0,1000}\)")
_BACKTICKED = re.compile(r"\s*`([^`\n]{1,100000})`\s*$")
_QUOTED = re.compile(r"\s{0,3}>(?: |$)")
_COMPOSE = re.compile(r"([A-Za-z0-9][\w.-]{0,62}?)\s{0,40}\| ")
_NOWRAP = re.compile(
    r"[\s=_\-*#~+.]*$|[=_]{3,}.{0,300}[=_]{3,}\s*$|.{0,3000}\[\s{0,3}\d{1,3}%\]\s*$"
)
_RAWSTART = re.compile(
    r"\s*(?:Traceback \(|File \"|During handling|The above exception|\[rank|\(\w{0,40} ?pid="
    r"|\d{4}-\d\d-\d\d|\d\d-\d\d \d\d:|(?:ERROR|WARNING|INFO|DEBUG|CRITICAL)\b)"
)

_LEVELS = "CRITICAL|FATAL|ERROR|WARNING|WARN|INFO|DEBUG|TRACE|NOTICE|SUCCESS|EXCEPTION"
_MON = "Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec"
_TOKEN_LIST = (
    ("tag", r"\[(?:[Rr]ank|default|local_rank) ?\d{1,6}\]:?"),  # torchrun `[rank0]:`
    ("tag", r"\[\d{1,6},\d{1,6}\]<std(?:out|err)>:"),  # mpirun
    ("tag", r"\([^()\n]{0,80}?\bpid=\d{1,10}[^()\n]{0,80}\)"),  # (VllmWorker rank=0 pid=1)
    ("tag", r"\[(?:Bug|BUG|Usage|Feature|Question|Installation|Performance|Doc|Misc|RFC)\]:?"),
    (
        "time",
        r"\[?\d{4}-\d\d-\d\d[T ]\d\d?:\d\d:\d\d(?:[.,]\d{1,9})?(?: ?(?:Z|UTC|[+-]\d\d:?\d\d))?\]?",
    ),
    ("time", r"\[?\d{4}/\d\d/\d\d[ T]\d\d?:\d\d:\d\d(?:[.,]\d{1,9})?\]?"),
    ("time", r"\[?\d\d-\d\d \d\d:\d\d:\d\d(?:[.,]\d{1,9})?\]?"),  # vllm: MM-DD HH:MM:SS
    (
        "time",
        rf"(?:{_MON}) [ \d]\d \d\d:\d\d:\d\d(?:\.\d{{1,9}})?"
        rf"(?: [\w.-]{{1,64}} [\w./-]{{1,64}}(?:\[\d{{1,10}}\])?:)?",
    ),  # syslog host prog[pid]:
    ("time", r"\[?\d\d?:\d\d:\d\d(?:[.,]\d{1,9})?\]?"),
    (
        "glog",
        r"\[?(?P<g>[IWEF])(?:\d{4} \d\d:\d\d:\d\d(?:\.\d{1,9})?(?: {1,3}\d{1,10})? | )"
        r"(?P<file>[\w./-]{1,300}):(?P<line>\d{1,7})\]",
    ),  # absl, torch C++: [W socket.cpp:1]
    ("level", rf"\[?(?P<level>{_LEVELS})\]?(?!\w)"),
    (
        "level",
        r"(?:##)?\[(?P<level>(?i:critical|fatal|error|warning|warn|info|debug|trace"
        r"|notice|exception)) {0,10}\]",
    ),
    (
        "hint",
        r"[\[{](?P<file>[^\[\]{}\s:]{1,300}\.pyx?):(?P<line>\d{1,7})(?::[\w<>.]{1,200})?[\]}]",
    ),
    ("hint", r"(?P<file>[\w.-]{1,300}\.py):(?P<line>\d{1,7})\]"),  # old vllm `logger.py:37]`
)
# One alternation tried once per position (this runs on every line): alternative k is group
# `t{k}`, its own groups get a `_{k}` suffix.
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
_HEAD_START = re.compile(  # what a line must start with to have a prefix: skips most lines fast
    rf"[\[(#\d]|(?:{_LEVELS}|{_MON})|[IWEF]\d{{4}} |[\w.-]{{1,300}}\.py:\d"
)
_LOGGER_COLON = re.compile(r":(?P<logger>[\w.<>-]{1,200}):")  # WARNING:root:msg
_LOGGER_BEFORE = re.compile(rf"(?P<logger>[\w.-]{{1,200}}) - (?=(?:{_LEVELS})\b)")
_LOGGER_AFTER = re.compile(r"(?P<logger>[\w.-]{1,200})(?::[\w<>.-]{1,200}:\d{1,7})? [|-] ")
_SEP = re.compile(r"[ \t]{0,40}(?:[-|:»][ \t]{0,40})?")
_FINAL_SEP = re.compile(r" ?(?:[-|:»] ?)?")
_GLOG_LEVEL = {"I": "INFO", "W": "WARNING", "E": "ERROR", "F": "CRITICAL"}
_LEVEL_NAME = {"WARN": "WARNING", "FATAL": "CRITICAL", "EXCEPTION": "ERROR"}

_TB_HEAD = re.compile(r"\s*(?:\+ Exception Group )?Traceback \(most recent call last\):\s*$")
_NB_HEAD = re.compile(
    r"(?P<exc>[A-Za-z_][\w.]{0,200})\s{2,}Traceback \(most recent call last\)\s*$"
)
_CHAIN = re.compile(
    r"\s*(?:During handling of the above exception, another exception occurred"
    r"|The above exception was the direct cause of the following exception):\s*$"
)
_GROUP_HEAD = re.compile(r"\s*\+ Exception Group Traceback")
_GROUP_BAR = re.compile(r"\s*\| ?")
_GROUP_SEP = re.compile(r"\s*\+[-+]{0,3}-{3,}(?: (?:\d{1,6}|\.\.\.) -{3,})?\s*$")
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
    lines = _lines(_prepare(_guard(text, max_bytes)))
    errors = _Parser(lines).run()
    if not errors:
        raise InputError("nothing to look up: no text is left once markup is removed")
    return Evidence(tuple(errors))


def _guard(text: str, max_bytes: int) -> str:
    if len(text) * 4 > max_bytes:  # cheap test first: a char is at most 4 bytes
        data = text.encode("utf-8", "replace")
        if len(data) > max_bytes:
            # The error is at the end of a log: keep the tail, from its first whole line.
            text = data[-max_bytes:].decode("utf-8", "ignore")
            cut = text.find("\n")
            if 0 <= cut < len(text) - 1:
                text = text[cut + 1 :]
    if not text.strip():
        raise InputError("nothing to look up: the input is empty")
    if "\x00" in text:
        raise InputError("the input looks binary (it contains NUL bytes): paste the error text")
    sample = text[-65536:]
    if len(_BINARY.findall(sample)) > 0.1 * len(sample):
        raise InputError("the input looks binary (mostly control characters): paste the error text")
    return text


def _prepare(text: str) -> list[str]:
    """Undo what copying did to the text, and split it into lines without their prefixes."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").expandtabs(4)
    if "\x1b" in text:
        text = _ANSI.sub("", text)
    if "[0m" in text or "[0;" in text:
        text = _ANSI_LOST.sub("", text)
    if "&" in text and _ENTITY.search(text):
        text = html.unescape(text)
    text = text.replace("\u00a0", " ").replace("\u200b", "").replace("\ufeff", "")
    lines = text.split("\n")
    for _ in range(3):  # markdown quoting, possibly nested
        body = [x for x in lines if x.strip()]
        if not body or sum(1 for x in body if _QUOTED.match(x)) < 0.6 * len(body):
            break
        lines = [x[m.end() :] if (m := _QUOTED.match(x)) else x for x in lines]
    for k, line in enumerate(lines):
        if _FENCE.match(line) or (line.lstrip().startswith("<") and _TAGLINE.match(line)):
            lines[k] = _BRK
            continue
        if "](" in line:
            line = _MDLINK.sub(r"\1", line)
        m = _BACKTICKED.match(line) if "`" in line else None
        lines[k] = m[1] if m else line.rstrip()
    return _strip_compose(_unwrap(lines))


def _unwrap(lines: list[str]) -> list[str]:
    """Join lines a terminal hard-wrapped: several lines exactly as long as the longest one."""
    width = max(map(len, lines), default=0)
    if width < 60:
        return lines
    full = [
        len(x) == width and not _NOWRAP.match(x) and not re.search("[│╭╮╰╯─]", x) for x in lines
    ]
    if sum(full) < 2:
        return lines
    out: list[str] = []
    i = 0
    while i < len(lines):
        parts = [lines[i]]
        while full[i] and i + 1 < len(lines) and lines[i + 1].strip() and lines[i + 1] != _BRK:
            if _RAWSTART.match(lines[i + 1]) or len(parts) > 100:
                break
            i += 1
            parts.append(lines[i])
        out.append("".join(parts))
        i += 1
    return out


def _strip_compose(lines: list[str]) -> list[str]:
    """Remove a `docker compose` container prefix (`app-1  | `) that most lines carry."""
    counts = Counter(m[1] for x in lines if (m := _COMPOSE.match(x)))
    if not counts:
        return lines
    name, count = counts.most_common(1)[0]
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
    """Strip a line's log prefix (timestamps, level, logger, pid, `[file.py:12]`), keeping its facts."""
    if not _HEAD_START.match(text):
        return _Line(text)
    got: dict[str, str] = {}
    tags: list[str] = []
    end = 0
    for _ in range(10):
        pos = _SEP.match(text, end).end() if end else 0
        kind, groups = "", {}
        if m := _TOKEN.match(text, pos):
            k = int((m.lastgroup or "t0")[1:])
            kind = _TOKEN_LIST[k][0]
            groups = {name: m[full] for name, full in _TOKEN_GROUPS[k]}
            if kind in ("level", "glog") and "level" in got:
                break
        elif "time" in got and "logger" not in got:
            kind, m = (
                "logger",
                (_LOGGER_AFTER if "level" in got else _LOGGER_BEFORE).match(text, pos),
            )
            groups = m.groupdict() if m else {}
        if m is None:
            break
        end = m.end()
        if kind == "tag":
            tags.append(m[0])
        elif kind == "time":
            got["time"] = m[0]
        elif groups.get("g"):
            got["level"] = _GLOG_LEVEL[groups["g"]]
        elif groups.get("level"):
            got["level"] = _LEVEL_NAME.get(groups["level"].upper(), groups["level"].upper())
            if lm := _LOGGER_COLON.match(text, end):
                got["logger"], end = lm["logger"], lm.end()
        if groups.get("logger"):
            got["logger"] = groups["logger"]
        if groups.get("file"):
            got["file"], got["line"] = groups["file"], groups["line"]
    if not end:
        return _Line(text)
    rest = text[_FINAL_SEP.match(text, end).end() :]
    ident = (got.get("level"), got.get("logger"), got.get("file"), got.get("line"), tuple(tags))
    line = got.get("line")
    return _Line(
        rest,
        ident if any(ident[:4]) or tags else None,
        got.get("level"),
        got.get("logger"),
        got.get("file"),
        int(line) if line else None,
    )


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
            lines.append(
                _Line(ln.text[:k].rstrip(), ln.key, ln.level, ln.logger, ln.hint_file, ln.hint_line)
            )
            ln.text = ln.text[k:]
        lines.append(ln)
    if any(_GROUP_HEAD.match(x.text) for x in lines):
        lines = _ungroup(lines)
    if any("╭" in x.text or "│" in x.text for x in lines):
        lines = _unbox(lines)
    return lines


def _ungroup(lines: list[_Line]) -> list[_Line]:
    """Exception groups: drop the `|` margins; each `+--- N ---` separator ends a block."""
    for ln in lines:
        if _GROUP_SEP.match(ln.text):
            ln.text, ln.brk = "", True
        elif m := _GROUP_BAR.match(ln.text):
            ln.text = ln.text[m.end() :]
    return lines


def _unbox(lines: list[_Line]) -> list[_Line]:
    """rich's boxed tracebacks: strip the `│` margins, drop locals panels and borders."""
    out: list[_Line] = []
    skip: int | None = None  # depth of a locals panel being skipped
    for ln in lines:
        s, depth = ln.text.lstrip(), 0
        if not s or s[0] not in "│╭╰":
            skip = None
            out.append(ln)
            continue
        body = s.lstrip(" │")
        depth = s[: len(s) - len(body)].count("│")
        s = body.rstrip(" │")
        head = s.lstrip()[:1]
        if head in ("╭", "╰"):
            if head == "╭" and "locals" in s:
                skip = depth + 1
            elif head == "╰" and skip is not None and depth < skip:
                skip = None
            elif "Traceback" in s:
                out.append(_Line("Traceback (most recent call last):", ln.key))
            elif "Sub-exception" in s:
                out.append(_Line("", brk=True))
            continue
        if skip is None or depth < skip:
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
    """The frame header at line i (joining a header a terminal split): frame, next index, notebook?"""
    text = lines[i].text
    if len(text) > 2000:
        return None
    candidates = [(text, i + 1)]
    nxt = lines[i + 1].text.strip() if i + 1 < len(lines) and not lines[i + 1].brk else ""
    if nxt and (text.lstrip().startswith('File "') or (in_tb and re.search(r"[/\\]", text))):
        candidates += [(text.rstrip() + nxt, i + 2), (text.rstrip() + " " + nxt, i + 2)]
    for cand, nxt_i in candidates:
        if m := _FRAME.match(cand):
            fn = m["fn"] and m["fn"].strip()
            return Frame(m["path"], int(m["line"]), fn, None), nxt_i, "std"
        if m := _NB_FILE.match(cand) or _NB_CELL.match(cand):
            fn = m["fn"] or m.groupdict().get("fn2")
            line = m["line"]
            return (
                Frame(m["path"], int(line) if line else None, fn and fn.strip(), None),
                nxt_i,
                "nb",
            )
        if (m := _RICH_FRAME.match(cand)) and re.search(r"[/\\<]", m["path"]):
            return Frame(m["path"], int(m["line"]), m["fn"], None), nxt_i, "rich"
        if in_tb and (m := _NB_OLD.match(cand)):
            return Frame(m["path"], None, m["fn"], None), nxt_i, "nb"
    return None


def _is_head(text: str) -> bool:
    """A traceback header or chain marker (cheap string tests first: this runs on every line)."""
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
        _is_head(text) or s.startswith('File "')
        or ("Warning: " in text and _WARN.match(text))
        or (text.startswith("E") and _PYTEST_E.match(text))
        or (".py:" in text and _PYTEST_LOC.match(text))
        or text.startswith(("___", "==="))
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
        lines, n, i = self.lines, len(self.lines), 0
        linked = False  # a chain marker was seen: the next traceback continues the chain
        pyframes: list[Frame] = []
        pycode: str | None = None
        while i < n:
            ln = lines[i]
            text = ln.text
            err: _Err | None = None
            if ln.brk or not text.strip():
                linked = linked and not ln.brk
                self.loose.append([])
                i += 1
                continue
            if _is_head(text) and _CHAIN.match(text):
                linked, i = True, i + 1
                continue
            if _is_head(text) or (_maybe_frame(text) and _frame(lines, i, False)):
                i, err = self._traceback(i)
            elif text.startswith("E") and _PYTEST_E.match(text):
                i, err = self._pytest(i, pyframes, pycode)
                pyframes, pycode = [], None
            elif ".py:" in text and (m := _PYTEST_LOC.match(text)):
                pyframes.append(Frame(m["path"], int(m["line"]), m["fn"], None))
                i += 1
            elif text.startswith(("___", "===", "_ _")):
                if not text.startswith("_ _"):
                    pyframes, pycode = [], None
                i += 1
            elif text.startswith(">") and (m := _PYTEST_CODE.match(text)):
                pycode, i = m["code"], i + 1
            elif "Warning: " in text and (m := _WARN.match(text)):
                i = self._warning(i, m)
            elif ln.level:
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
                if linked and self.chains:
                    self.chains[-1].append(err)
                else:
                    self.chains.append([err])
                linked = False
        return self._assemble()

    def _assemble(self) -> list[ErrorEvidence]:
        found = [e for chain in self.chains for e in reversed(chain)] + self.others
        if not found:
            found = self.quiet[-20:] or [_Err(None, "\n".join(p)) for p in self.loose if p]
        out: list[ErrorEvidence] = []
        seen: set[tuple[str | None, str]] = set()
        raw: set[tuple[str | None, str]] = set()
        for err in found:
            if (err.exception, err.message) in raw or len(out) >= 100:
                continue
            raw.add((err.exception, err.message))
            for ev in [err.evidence(), *(e.evidence() for e in _inner(err))]:
                key = (ev.exception, ev.message[:5000])
                if key in seen or (not ev.message and ev.exception is None):
                    continue
                if ev.truncated and any(
                    k[0] == ev.exception and k[1].startswith(ev.message) for k in seen
                ):
                    continue
                seen.add(key)
                out.append(ev)
        return out[:100]

    def _continue(self, j: int, start: _Line) -> tuple[int, list[str]]:
        """Lines that continue a message begun on `start`: same prefix, up to a blank or a new thing."""
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
        lines, n, first = self.lines, len(self.lines), i
        nb = _NB_HEAD.match(lines[i].text) is not None
        if nb or _TB_HEAD.match(lines[i].text):
            i += 1
        frames: list[Frame] = []
        rich = False
        findent = 0  # the last frame line's indentation: 0 in notebooks, or when it was lost
        strays = 0
        while i < n:
            ln = lines[i]
            text, s = ln.text, ln.text.strip()
            if ln.brk or (_is_head(text) and not _NB_HEAD.match(text)):
                break
            if not s or _CARET.match(text) or _SKIP.match(text):
                i += 1
                continue
            if _maybe_frame(text, True) and (fr := _frame(lines, i, True)):
                frame, i, style = fr
                frames.append(frame)
                nb, rich, findent = nb or style == "nb", style == "rich", _indent(text)
                continue
            last = frames[-1] if frames else None
            code: str | None = None
            m = None
            if (rich and (m := _RICH_CODE.match(text))) or (nb and (m := _ARROW.match(text))):
                if "cur" in m.groupdict() and not m["cur"]:
                    i += 1  # rich context line
                    continue
                code = (m["code"] or "").replace("│", " ").strip() or None
            elif nb and _CONTEXT.match(text):
                i += 1
                continue
            elif last is not None and last.code is None and not last.path.startswith("<"):
                # The code line under a frame: indented deeper, or, when indentation was lost,
                # anything that does not read as the exception line.
                if _indent(text) > findent if findent else not nb and not _EXC_STRONG.match(s):
                    code = s
            elif findent and _indent(text) > findent:
                i += 1  # more lines of a multi-line statement (3.13), or pytest-style context
                continue
            if code is not None or (findent and _indent(text) > findent):
                if last is not None and code is not None and last.code is None:
                    line = last.line
                    if line is None and m is not None and "line" in m.groupdict():
                        line = int(m["line"])
                    frames[-1] = Frame(last.path, line, last.function, code)
                i += 1
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
        exc, first = None, body[0] if body else ""
        if m := _EXC_STRONG.match(first):
            exc, body[0] = m["name"], m["msg"] or ""
        frames = list(frames)
        j = i
        while j < len(self.lines) and not self.lines[j].text.strip():
            j += 1
        if j < len(self.lines) and (m := _PYTEST_LOC.match(self.lines[j].text)) and m["exc"]:
            frames.append(Frame(m["path"], int(m["line"]), None, code))
            exc, i = exc or m["exc"], j + 1
        elif frames and code:
            frames[-1] = Frame(frames[-1].path, frames[-1].line, frames[-1].function, code)
        return i, _Err(exc, "\n".join(body), frames)

    def _warning(self, i: int, m: re.Match[str]) -> int:
        start = self.lines[i]
        indent = _indent(start.text)
        body = [m["msg"]]
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
        (self.others if ln.level in _ERROR_LEVELS else self.quiet).append(err)
        return max(j, i + 1)


def _inner(err: _Err) -> list[_Err]:
    """Errors an application wrapped into a message: `Failed: ValueError: msg`, `ValueError('msg')`."""
    out: list[_Err] = []
    msg = err.message
    for m in _INNER.finditer(msg):
        start = m.start()
        while start > 0 and (msg[start - 1].isalnum() or msg[start - 1] in "_."):
            start -= 1
        name = msg[start : m.end()].lstrip(".")
        if not (name[:1].isalpha() or name[:1] == "_") or not name.rsplit(".", 1)[-1][:1].isupper():
            continue
        rest = msg[m.end() :]
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
            continue
        if text[j] == quote:
            try:
                value = ast.literal_eval(text[: j + 1])
            except (ValueError, SyntaxError):
                return None
            return value if isinstance(value, str) else None
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
        len(message) >= 2 and message[0] in pairs and message[-1] == pairs[message[0]]
        and message[0] not in message[1:-1] and not (exception or "").endswith("KeyError")
    ):  # fmt: skip
        message = message[1:-1].strip()
    for opening, closing in ("()", "[]", "{}"):
        # A message cut short mid-value leaves a bracket open.
        truncated = truncated or message.count(opening) > message.count(closing)
    return message, truncated
