"""A cleaned paste's lines, each with its log prefix (time, level, logger, pid, `[file.py:12]`)
read off into facts; exception-group margins and rich's boxes are removed.
"""

from __future__ import annotations

import re

import msgspec

from errdex.lazy_re import lazy_compile
from errdex.match.paste_cleanup import BRK
from errdex.match.paste_patterns import GROUP_HEAD, GROUP_SEP, TB_HEAD

# A paste is untrusted: every pattern is anchored (`match`, once per line) or bounded, with no
# nested repeats that can backtrack over each other, so no line can make a pattern explode.

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
    # Container runtimes' logs (`kubectl logs`, CRI): `<time> stderr F <line>`
    ("tag", r"std(?:out|err) [FP](?= |$)"),
    # A source and its process after the time: Heroku's `app[web.1]:`, syslog's `python3[12]:`
    ("tag", r"[a-z][\w.-]{0,40}\[[\w.-]{1,40}\]:(?= |$)"),
    ("tag", r"\[(?:Bug|BUG|Usage|Feature|Question|Installation|Performance|Doc|Misc|RFC)\]:?"),
    # `[%(asctime)s %(name)s] %(levelname)s: ...` (nonebot): the logger inside the brackets
    ("time", rf"\[\d{{4}}-\d\d-\d\d[T ]{_TIME} (?P<logger>[A-Za-z_][\w.-]{{0,60}})\]"),
    ("time", rf"\[?\d{{4}}-\d\d-\d\d[T ]{_TIME}(?: ?(?:Z|UTC|[+-]\d\d:?\d\d))?\]?"),
    ("time", rf"\[?\d{{4}}/\d\d/\d\d[ T]{_TIME}\]?"),
    ("time", rf"\[?\d\d-\d\d-\d\d[T ]{_TIME}\]?"),  # Home Assistant: YY-MM-DD HH:MM:SS
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
    # `(MainThread) [urllib3.connectionpool]`: a thread's name, then a dotted logger name
    ("tag", r"\([\w.-]{1,60}(?: [\w.-]{1,60})?\)(?= \[[A-Za-z_])"),
    ("logger", r"\[(?P<logger>[A-Za-z_]\w{0,60}(?:\.\w{1,60}){1,8})\]"),
    ("hint", r"(?P<file>[\w.-]+\.py):(?P<line>\d+)\]"),  # old vllm `logger.py:37]`
)
_TOKEN = lazy_compile(
    "|".join(
        f"(?P<t{k}>" + re.sub(r"\(\?P<(\w+)>", rf"(?P<\1_{k}>", pattern) + ")"
        for k, (_, pattern) in enumerate(_TOKEN_LIST)
    )
)
# Each alternative's groups (name, name in `_TOKEN`), read off its text: `_TOKEN.groupindex`
# would compile `_TOKEN` at import (5 ms), where a paste with no log prefix never uses it.
_TOKEN_GROUPS = [
    [(name, f"{name}_{k}") for name in re.findall(r"\(\?P<(\w+)>", pattern)]
    for k, (_, pattern) in enumerate(_TOKEN_LIST)
]
_HEAD_START = lazy_compile(  # a fast no
    rf"[\[(#\d]|{_LEVELS}|{_MON}|[IWEF]\d{{4}} |[\w.-]+\.py:\d|[\w.-]{{1,80}} - \d{{4}}-"
)
_LOGGER_COLON = lazy_compile(r":(?P<logger>[\w.<>-]+):")  # WARNING:root:msg
_LOGGER_BEFORE = lazy_compile(rf"(?P<logger>[\w.-]+) - (?=(?:{_LEVELS})\b)")  # name - LEVEL - msg
_LOGGER_AFTER = lazy_compile(r"(?P<logger>[\w.-]+)(?::[\w<>.-]+:\d+)? [|-] ")  # loguru, nonebot
_SEP = lazy_compile(r"[ \t]*(?:[-|:»][ \t]*)?")
_FINAL_SEP = lazy_compile(r" {0,20}(?:[-|:»] {0,20})?")  # uvicorn pads: `WARNING:  msg`
_GLOG = {"I": "INFO", "W": "WARNING", "E": "ERROR", "F": "CRITICAL"}
_ALIAS = {"WARN": "WARNING", "FATAL": "CRITICAL", "EXCEPTION": "ERROR"}


class Line(msgspec.Struct):
    """One line of a paste, its log prefix read off into facts."""

    text: str
    key: tuple[object, ...] | None = None  # the prefix's identity: what continuation lines share
    level: str | None = None
    logger: str | None = None
    hint_file: str | None = None
    hint_line: int | None = None
    brk: bool = False
    boxed: bool = False  # the text of a titled rich panel (typer's `╭─ Error ─╮`)


def _head(text: str) -> Line:
    """Strip a line's log prefix (time, level, logger, pid, `[file.py:12]`), keeping its facts."""
    if not _HEAD_START.match(text):
        return Line(text)
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
        return Line(text)
    final = _FINAL_SEP.match(text, end)
    # A record's time is part of what its lines share: two records of one logger at other
    # times are two messages. (A time alone, as CI logs put on every line, is not.)
    when = got.get("time") if "level" in got else None
    ident = (
        got.get("level"),
        got.get("logger"),
        got.get("file"),
        got.get("line"),
        tuple(tags),
        when,
    )
    return Line(
        text[final.end() if final else end :], ident if any(ident) else None,
        got.get("level"), got.get("logger"), got.get("file"), int(got.get("line") or 0) or None,
    )  # fmt: skip


def read_lines(raw: list[str]) -> list[Line]:
    lines: list[Line] = []
    for text in raw:
        if text == BRK:
            lines.append(Line("", brk=True))
            continue
        ln = _head(text)
        # `EngineCore hit an exception: Traceback (most recent call last):` holds two lines.
        k = ln.text.find("Traceback (most recent call last):")
        if k > 0 and ln.text[:k].strip() and not TB_HEAD.match(ln.text):
            head = ln.text[:k].rstrip()
            lines.append(Line(head, ln.key, ln.level, ln.logger, ln.hint_file, ln.hint_line))
            ln.text = ln.text[k:]
        lines.append(ln)
    lines = _by_process(lines)
    if any(GROUP_HEAD.match(x.text) for x in lines):
        for ln in lines:  # exception groups: drop the `|` margin; `+--- 2 ---` ends a block
            if GROUP_SEP.match(ln.text):
                ln.text, ln.brk = "", True
            elif ln.text.lstrip().startswith("|"):
                ln.text = (
                    ln.text.lstrip()[2:] if ln.text.lstrip()[1:2] == " " else ln.text.lstrip()[1:]
                )
    return _unbox(lines) if any("╭" in x.text or "│" in x.text for x in lines) else lines


def _by_process(lines: list[Line]) -> list[Line]:
    """Lines of several processes printed at once (`(EngineCore_DP0 pid=975) ...` between
    `(APIServer pid=1) ...`, `[rank0]:` between `[rank1]:`), each process's lines together
    in the order they came, so that no traceback runs through another's. Untagged lines go
    with the line before them."""
    groups: dict[tuple[str, ...], list[Line]] = {}
    order: list[tuple[str, ...]] = []  # the group of each line
    current: tuple[str, ...] = ()
    for ln in lines:
        tags = ln.key[4] if ln.key is not None else None
        if isinstance(tags, tuple) and tags:
            current = tuple(map(str, tags))
        order.append(current)
        groups.setdefault(current, []).append(ln)
    runs = sum(1 for k in range(1, len(order)) if order[k] != order[k - 1])
    if len(groups) < 2 or runs < len(groups):  # one process, or each one's lines together
        return lines
    out: list[Line] = []
    for group in groups.values():
        out.extend(group)
        out.append(Line("", brk=True))
    return out


def _unbox(lines: list[Line]) -> list[Line]:
    """rich's boxes: tracebacks lose their `│` margins, locals panels and borders; any other
    panel (typer's and rich-click's `╭─ Error ─╮`) is read as the text it holds."""
    out: list[Line] = []
    skip: int | None = None  # depth of a locals panel being skipped
    panel: tuple[str, list[str], Line] | None = None  # a titled panel's title and lines so far
    for ln in lines:
        s = ln.text.lstrip()
        if panel is not None and (not s or s[0] not in "│╰"):
            out.extend(_panel_lines(*panel))  # a panel the paste cut before its bottom
            panel = None
        if not s or s[0] not in "│╭╰":
            skip = None
            out.append(ln)
            continue
        body = s.lstrip(" │")
        depth, s = s[: len(s) - len(body)].count("│"), body.rstrip(" │")
        if panel is not None:
            if s[:1] == "╰" and depth == 0:
                out.extend(_panel_lines(*panel))
                panel = None
            else:
                panel[1].append(s)
            continue
        if s[:1] in ("╭", "╰"):
            if s[0] == "╭" and "locals" in s:
                skip = depth + 1
            elif s[0] == "╰" and skip is not None and depth < skip:
                skip = None
            elif "Traceback" in s:
                out.append(Line("Traceback (most recent call last):", ln.key))
            elif "Sub-exception" in s:
                out.append(Line("", brk=True))
            elif s[0] == "╭" and depth == 0:
                panel = (s.strip("╭╮─━ ").strip(), [], ln)
        elif skip is None or depth < skip:
            ln.text = s
            out.append(ln)
    if panel is not None:
        out.extend(_panel_lines(*panel))
    return out


def _panel_lines(title: str, body: list[str], start: Line) -> list[Line]:
    """A panel's paragraphs, each one line again (rich wraps them to the box's width, at
    spaces), the first after the panel's title as a printed error puts it (`Error: ...`)."""
    paragraphs: list[str] = []
    joined: list[str] = []
    for text in [*body, ""]:
        if text.strip():
            joined.append(text.strip())
        elif joined:
            paragraphs.append(" ".join(joined))
            joined = []
    if title and paragraphs and " " not in title and len(title) <= 40:
        paragraphs[0] = f"{title}: {paragraphs[0]}"
    out = [Line(text, start.key, start.level, start.logger, boxed=True) for text in paragraphs]
    return [*out, Line("", brk=True)]
