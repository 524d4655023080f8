"""Errors inside structured text, turned back into the lines Python would have printed:
JSON documents (serverless platforms' `{"errorMessage", "errorType", "stackTrace"}`, JSON
log records, Sentry-like events), tracebacks JSON-escaped inside a log line, and logfmt
records (`level=ERROR error="..."`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

from errdex.lazy_re import lazy_compile

# A paste is untrusted: the patterns are bounded and decoding is linear (json is), with a
# cap on how many documents are tried, so no paste can make this slow.
_MAX_DOCUMENTS = 50
_MAX_DEPTH = 6
_OPEN = lazy_compile(r"(?m)^[^\n{]{0,200}?(\{\s*\")")  # a JSON object starting a line's body
_ESCAPED_TB = lazy_compile(r"Traceback \(most recent call last\):(?:\\r)?\\n|\\n\s{0,8}File \\?\"")
_LOGFMT_PAIR = lazy_compile(
    r'(?:^|(?<=\s))(?P<key>[A-Za-z_@][\w.@-]{0,40})=(?P<value>"(?:[^"\\\n]|\\.){0,20000}"|[^\s"]{0,2000})'
)
_UNESCAPE = lazy_compile(r"\\(u[0-9a-fA-F]{4}|.)")
_ESCAPES = {"n": "\n", "t": "    ", "r": "", "b": "", "f": ""}

# Field names, lower-cased, as loggers, platforms and error trackers spell them.
_TYPE_KEYS = ("errortype", "error_type", "exc_type", "exception_type", "type", "exctype")
_VALUE_KEYS = ("errormessage", "error_message", "exc_value", "value", "exception_message")
_TRACE_KEYS = (
    "stacktrace", "stack_trace", "traceback", "exc_info", "exc_text", "exception", "stack",
    "error", "err", "frames", "trace",
)  # fmt: skip
_MESSAGE_KEYS = ("message", "msg", "event", "error", "err", "detail", "description")
_LEVEL_KEYS = ("level", "levelname", "severity", "lvl", "log.level", "loglevel")
_FRAME_KEYS = {
    "path": ("filename", "abs_path", "file", "path", "module"),
    "line": ("lineno", "line", "line_number"),
    "function": ("function", "name", "func", "funcname"),
    "code": ("context_line", "code", "line_text", "source"),
}


def expand_structured(text: str) -> str:
    """`text` with every error-bearing JSON document, escaped traceback and logfmt record
    replaced by the lines Python prints for it; anything else is left as it was."""
    if "{" in text:
        text = _expand_json(text)
    if "\\n" in text and _ESCAPED_TB.search(text):
        text = "\n".join(_unescape_tracebacks(line) for line in text.split("\n"))
    if "=" in text:
        text = "\n".join(_expand_logfmt(line) for line in text.split("\n"))
    return text


def _expand_json(text: str) -> str:
    decoder = json.JSONDecoder()
    out: list[str] = []
    pos = 0
    for _ in range(_MAX_DOCUMENTS):
        found = _OPEN.search(text, pos)
        if found is None:
            break
        start = found.start(1)
        try:
            document, end = decoder.raw_decode(text, start)
        except (ValueError, RecursionError):
            pos = start + 1
            continue
        lines = list(_document_lines(document, 0))
        if lines:
            # What stood before the document on its line (a time, a level) heads its first line.
            out.append(text[pos:start] + "\n".join(lines))
            pos = end
        else:
            out.append(text[pos:end])
            pos = end
    out.append(text[pos:])
    return "".join(out)


def _document_lines(node: object, depth: int) -> Iterator[str]:
    """The printed lines of the errors a decoded JSON value holds."""
    if depth > _MAX_DEPTH:
        return
    if isinstance(node, list):
        for item in node[:20]:
            yield from _document_lines(item, depth + 1)
        return
    if not isinstance(node, dict):
        return
    fields = {str(k).lower(): v for k, v in node.items()}
    level = _first_text(fields, _LEVEL_KEYS)
    kind = _first_text(fields, _TYPE_KEYS)
    value = _first_text(fields, _VALUE_KEYS)
    trace = next((fields[k] for k in _TRACE_KEYS if k in fields and _is_trace(fields[k])), None)
    message = _first_text(fields, _MESSAGE_KEYS)
    nested = [v for k, v in fields.items() if isinstance(v, dict | list) and v is not trace]
    if trace is not None:
        yield from _trace_lines(trace)
    if kind is not None and (value is not None or trace is not None):
        yield f"{kind}: {value or ''}".rstrip()
    elif value is not None:
        yield _logged(level, value)
    if message is not None and message not in (value, trace):
        yield _logged(level, message)
    for child in nested:
        yield from _document_lines(child, depth + 1)


def _logged(level: str | None, text: str) -> str:
    """A record's message, as a log line at its level (an error, when it names none)."""
    head = (level or "ERROR").upper()
    lines = text.split("\n")
    return "\n".join([f"{head} {lines[0]}", *lines[1:]])


def _first_text(fields: dict[str, object], keys: tuple[str, ...]) -> str | None:
    for key in keys:
        value = fields.get(key)
        if isinstance(value, str) and value.strip() and not _is_trace(value):
            return value.strip()
    return None


def _is_trace(value: object) -> bool:
    if isinstance(value, str):
        return "Traceback (most recent call last)" in value or '\n  File "' in value
    if isinstance(value, list) and value:
        head = value[0]
        return (isinstance(head, str) and 'File "' in head) or (
            isinstance(head, list | dict) and _frame_line(head) is not None
        )
    return isinstance(value, dict) and isinstance(value.get("frames"), list)


def _trace_lines(trace: object) -> Iterator[str]:
    """A traceback as printed, from its text or its list of frames."""
    if isinstance(trace, str):
        yield from trace.rstrip("\n").split("\n")
        return
    frames = trace.get("frames") if isinstance(trace, dict) else trace
    if not isinstance(frames, list):
        return
    yield "Traceback (most recent call last):"
    for frame in frames[:200]:
        if isinstance(frame, str):  # `traceback.format_tb`'s strings: frame and code lines
            yield from frame.rstrip("\n").split("\n")
        elif (line := _frame_line(frame)) is not None:
            yield line


def _frame_line(frame: object) -> str | None:
    """`  File "path", line N, in fn` (and its code line) from a frame as a list or a dict."""
    parts: dict[str, object] = {}
    if isinstance(frame, list) and len(frame) >= 2:  # [path, line, function, code]
        parts = dict(zip(("path", "line", "function", "code"), frame, strict=False))
    elif isinstance(frame, dict):
        lowered = {str(k).lower(): v for k, v in frame.items()}
        for name, keys in _FRAME_KEYS.items():
            parts[name] = next((lowered[k] for k in keys if lowered.get(k) is not None), None)
    path, line = parts.get("path"), parts.get("line")
    if not isinstance(path, str) or not isinstance(line, int | str) or not str(line).isdigit():
        return None
    text = f'  File "{path}", line {line}, in {parts.get("function") or "<module>"}'
    code = parts.get("code")
    return f"{text}\n    {code.strip()}" if isinstance(code, str) and code.strip() else text


def _unescape_tracebacks(line: str) -> str:
    """A line holding a traceback written as one escaped string (`"Traceback ...:\\n  File
    \\"/x.py\\", ..."`): the text before the string, then the traceback's own lines."""
    found = _ESCAPED_TB.search(line)
    if found is None:
        return line
    opening = _opening(line, found.start())
    head, body = ("", line) if opening is None else (line[:opening], line[opening + 1 :])
    if opening is not None and (close := _closing(body, line[opening])) is not None:
        body = body[:close]
    unescaped = _UNESCAPE.sub(_unescape_one, body)
    return f"{head.rstrip()}\n{unescaped}" if head.strip() else unescaped


def _opening(line: str, before: int) -> int | None:
    """The last unescaped quote before `before`: where the escaped string starts."""
    for k in range(before - 1, max(-1, before - 20_000), -1):
        if line[k] in "\"'":
            j = k
            while j > 0 and line[j - 1] == "\\":
                j -= 1
            if (k - j) % 2 == 0:
                return k
    return None


def _closing(body: str, quote: str) -> int | None:
    """Where the string literal `body` continues ends: its first unescaped `quote`."""
    k = 0
    while k < len(body):
        if body[k] == "\\":
            k += 2
        elif body[k] == quote:
            return k
        else:
            k += 1
    return None


def _unescape_one(m: re.Match[str]) -> str:
    code = m[1]
    if len(code) == 5:
        return chr(int(code[1:], 16))
    return _ESCAPES.get(code, code)


def _expand_logfmt(line: str) -> str:
    """A logfmt record (`time=... level=ERROR msg="..." error="..."`) as log lines: the error
    first (it is the exception's text), then the message."""
    if line.count("=") < 2 or line[:1].isspace():
        return line
    found = list(_LOGFMT_PAIR.finditer(line))
    # Pairs make up a record's line; code (`f(level=1, msg=x)`) has other text around them.
    if len(found) < 2 or sum(len(m[0]) for m in found) < 0.7 * len(line.strip()):
        return line
    values = {m["key"].lower(): _pair_value(m["value"]) for m in found}
    if not set(values) & {*_LEVEL_KEYS, *_MESSAGE_KEYS, *_TRACE_KEYS}:
        return line
    level = next((values[k] for k in _LEVEL_KEYS if values.get(k)), None)
    out: list[str] = []
    for key in ("error", "err", "exception", "exc_info", "exc", "stack", "traceback"):
        value = values.get(key)
        if value and value not in out:
            out.append(value if _is_trace(value) else _logged(level or "ERROR", value))
    for key in ("msg", "message", "event"):
        value = values.get(key)
        if value and level is not None:
            out.append(_logged(level, value))
            break
    return "\n".join(out) if out else line


def _pair_value(raw: str) -> str:
    return _UNESCAPE.sub(_unescape_one, raw[1:-1]) if raw[:1] == '"' else raw
