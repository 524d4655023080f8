"""Read a paste's lines into errors: tracebacks (chained, grouped, notebook, rich), pytest
failures, printed warnings, error log lines, and bare exception lines or prose.
"""

from __future__ import annotations

import re

from errdex.match.evidence import ErrorEvidence, Frame
from errdex.match.paste_errors import Err, inner_errors
from errdex.match.paste_lines import Line
from errdex.match.paste_patterns import (
    ARROW,
    CARET,
    CHAIN,
    CLASS_LED,
    CODE_LIKE,
    CONTEXT,
    CUT_FRAME,
    EXC_LOOSE,
    EXC_STRONG,
    FAILED,
    FRAME,
    LINE_IN,
    NB_CELL,
    NB_FILE,
    NB_HEAD,
    NB_OLD,
    PATH_END,
    PYTEST_CODE,
    PYTEST_E,
    PYTEST_LOC,
    RICH_CODE,
    RICH_FRAME,
    SKIP,
    TB_HEAD,
    WARN,
)


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip())


def _frame(lines: list[Line], i: int, in_tb: bool) -> tuple[Frame, int, str] | None:
    """The frame header at line i, joining one a terminal split: frame, next index, style."""
    text = lines[i].text
    if len(text) > 2000:
        return None
    cands = [(text, i + 1)]
    nxt = lines[i + 1].text.strip() if i + 1 < len(lines) and not lines[i + 1].brk else ""
    if nxt and (text.lstrip().startswith('File "') or (in_tb and re.search(r"[/\\]", text))):
        cands += [(text.rstrip() + nxt, i + 2), (text.rstrip() + " " + nxt, i + 2)]
    for cand, j in cands:
        if m := FRAME.match(cand) or CUT_FRAME.match(cand):
            return Frame(m["path"], int(m["line"]), m["fn"] and m["fn"].strip(), None), j, "std"
        if m := NB_FILE.match(cand) or NB_CELL.match(cand):
            fn, line = m["fn"] or m.groupdict().get("fn2"), m["line"]
            return Frame(m["path"], int(line) if line else None, fn and fn.strip(), None), j, "nb"
        if (m := RICH_FRAME.match(cand)) and re.search(r"[/\\<]", m["path"]):
            return Frame(m["path"], int(m["line"]), m["fn"], None), j, "rich"
        if in_tb and (m := NB_OLD.match(cand)):
            return Frame(m["path"], None, m["fn"], None), j, "nb"
    if m := LINE_IN.match(text):
        # The frame's path ended a line of its own, a blank line or two above.
        for k in range(i - 1, max(-1, i - 4), -1):
            above = lines[k].text
            if above.strip():
                if (path := PATH_END.match(above)) is not None:
                    return Frame(path["path"], int(m["line"]), m["fn"], None), i + 1, "std"
                break
    return None


def _old_notebook_frame(lines: list[Line], i: int) -> bool:
    """An old IPython frame (`/path/mod.py in fn(args)` over numbered lines and `--> 187`)
    starting a traceback whose header was left out of the paste."""
    m = NB_OLD.match(lines[i].text) if " in " in lines[i].text else None
    if m is None or not re.search(r"[/\\]", m["path"]):
        return False
    return any(ARROW.match(ln.text) for ln in lines[i + 1 : i + 8] if not ln.brk)


def _is_head(text: str) -> bool:
    """A traceback header or chain marker (cheap tests first: this runs on every line)."""
    s = text.lstrip()
    if s.startswith(("Traceback", "+ Exception Group")):
        return TB_HEAD.match(text) is not None
    if s.startswith(("During handling", "The above exception")):
        return CHAIN.match(text) is not None
    return "Traceback (most recent" in text and NB_HEAD.match(text) is not None


def _maybe_frame(text: str, in_tb: bool = False) -> bool:
    s = text.lstrip()
    return s.startswith(("File ", "Cell In", "Input In")) or " in " in text or (in_tb and "/" in s)


def _starts(text: str) -> bool:
    """True when a line clearly starts something new (so a message cannot continue over it)."""
    s = text.lstrip()
    return bool(
        _is_head(text) or s.startswith('File "') or text.startswith(("___", "==="))
        or ("Warning: " in text and WARN.match(text))
        or (text.startswith("E") and PYTEST_E.match(text))
        or (".py:" in text and PYTEST_LOC.match(text))
        or (s is text and EXC_STRONG.match(text))
    )  # fmt: skip


def _bare(paragraphs: list[list[str]]) -> list[Err]:
    """Paragraphs of text nothing else reads: each a bare message; but when the first begins
    with a class name (`UnexpectedCharacters: ...`), the paste is that error's message, which
    may hold blank lines (lark's context, then `Expected one of:`), and goes on to the end."""
    kept = [p for p in paragraphs if p]
    if len(kept) > 1 and CLASS_LED.match(kept[0][0]):
        return [Err(None, "\n\n".join("\n".join(p) for p in kept))]
    return [Err(None, "\n".join(p)) for p in kept]


class Parser:
    """Reads a paste's lines into the errors they show, most relevant first."""

    def __init__(self, lines: list[Line]) -> None:
        self.lines = lines
        self.chains: list[list[Err]] = []  # tracebacks and exceptions, linked by chain markers
        self.others: list[Err] = []  # warnings, error log lines, pytest summaries
        self.quiet: list[Err] = []  # info/debug log lines: used only when nothing else shows
        self.loose: list[list[str]] = [[]]  # paragraphs of unrecognised text: a bare message
        # Frames of tracebacks cut before their exception line: no error of their own, still
        # evidence of which release the paste came from.
        self.stray: list[Frame] = []

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
            elif _is_head(text) and CHAIN.match(text):
                linked, i = True, i + 1
            elif (
                _is_head(text)
                or (_maybe_frame(text) and _frame(lines, i, False))
                or _old_notebook_frame(lines, i)
            ):
                i, err = self._traceback(i)
            elif text.startswith("E") and PYTEST_E.match(text):
                i, err = self._pytest(i, pyframes, pycode)
                pyframes, pycode = [], None
            elif ".py:" in text and (m := PYTEST_LOC.match(text)):
                pyframes.append(Frame(m["path"], int(m["line"]), m["fn"], None))
                i += 1
            elif text.startswith(("___", "===", "_ _")):
                if not text.startswith("_ _"):  # a new failure, not the next frame of this one
                    pyframes, pycode = [], None
                i += 1
            elif text.startswith(">") and (m := PYTEST_CODE.match(text)):
                pycode, i = m["code"], i + 1
            elif "Warning: " in text and (m := WARN.match(text)):
                i = self._warning(i, m)
            elif ln.level and not text[:1].isspace():  # (indented: a cut traceback's code line)
                i = self._log(i)
            elif text.startswith(("FAILED ", "ERROR ")) and (m := FAILED.match(text)):
                self.others.append(Err(None, m["msg"]))
                i += 1
            elif m := EXC_STRONG.match(text.strip()):
                i, cont = self._continue(i + 1, ln)
                err = Err(m["name"], "\n".join([m["msg"] or "", *cont]), boxed=ln.boxed)
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
            found = self.quiet[-20:] or _bare(self.loose)
        out: list[ErrorEvidence] = []
        raw: set[tuple[str | None, str]] = set()
        seen: set[tuple[str | None, str]] = set()
        for err in found:
            if (err.exception, err.message) in raw or len(out) >= 100:
                continue
            raw.add((err.exception, err.message))
            for ev in [err.evidence(), *(e.evidence() for e in inner_errors(err))]:
                key = (ev.exception, ev.message)
                cut = ev.truncated and any(e == key[0] and m.startswith(key[1]) for e, m in seen)
                if (ev.message or ev.exception) and key not in seen and not cut:
                    seen.add(key)
                    out.append(ev)
        return out[:100]

    def _continue(self, j: int, start: Line) -> tuple[int, list[str]]:
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

    def _traceback(self, i: int) -> tuple[int, Err | None]:
        lines, first = self.lines, i
        nb = NB_HEAD.match(lines[i].text) is not None
        i += 1 if nb or TB_HEAD.match(lines[i].text) else 0
        frames: list[Frame] = []
        rich, findent, strays = False, 0, 0  # findent: 0 in notebooks, or when indents were lost
        while i < len(lines):
            ln = lines[i]
            text, s = ln.text, ln.text.strip()
            if ln.brk or (_is_head(text) and not NB_HEAD.match(text)):
                break
            if not s or CARET.match(text) or SKIP.match(text):
                i += 1
                continue
            if _maybe_frame(text, True) and (fr := _frame(lines, i, True)):
                frames.append(fr[0])
                i, nb, rich, findent = fr[1], nb or fr[2] == "nb", fr[2] == "rich", _indent(text)
                continue
            last = frames[-1] if frames else None
            code, m = None, None
            if (rich and (m := RICH_CODE.match(text))) or (nb and (m := ARROW.match(text))):
                if "cur" in m.groupdict() and not m["cur"]:
                    i += 1  # rich shows context lines around the current one
                    continue
                code = (m["code"] or "").replace("│", " ").strip() or None
            elif nb and CONTEXT.match(text):
                i += 1
                continue
            elif (
                # The code line under a frame: indented deeper, or, when indentation was lost,
                # anything that does not read as the exception line.
                last is not None and last.code is None and not last.path.startswith("<")
                and (_indent(text) > findent if findent else not nb and not EXC_STRONG.match(s))
            ):  # fmt: skip
                code = s
            if code is not None or (findent and _indent(text) > findent):
                if last is not None and code is not None and last.code is None:
                    line = last.line if last.line is not None or m is None else int(m["line"])
                    frames[-1] = Frame(last.path, line, last.function, code)
                i += 1  # (deeper lines without a frame to fill: 3.13's multi-line statements)
                continue
            if em := EXC_STRONG.match(s) or EXC_LOOSE.match(s):
                j, cont = self._continue(i + 1, ln)
                return j, Err(em["name"], "\n".join([em["msg"] or "", *cont]), frames)
            strays += 1
            if findent or strays > 3:
                break
            i += 1
        self.stray.extend(frames[::-1])  # innermost first
        return max(i, first + 1), None

    def _pytest(self, i: int, frames: list[Frame], code: str | None) -> tuple[int, Err]:
        body: list[str] = []
        while i < len(self.lines) and (m := PYTEST_E.match(self.lines[i].text)):
            body.append(m["msg"] or "")
            i += 1
        pad = min((_indent(x) for x in body if x.strip()), default=0)
        body = [x[pad:] for x in body]
        exc = None
        if m := EXC_STRONG.match(body[0]):
            exc, body[0] = m["name"], m["msg"] or ""
        frames, j = list(frames), i
        while j < len(self.lines) and not self.lines[j].text.strip():
            j += 1
        if j < len(self.lines) and (m := PYTEST_LOC.match(self.lines[j].text)) and m["exc"]:
            frames.append(Frame(m["path"], int(m["line"]), None, code))  # `path:12: ValueError`
            exc, i = exc or m["exc"], j + 1
        elif frames and code:
            frames[-1] = Frame(frames[-1].path, frames[-1].line, frames[-1].function, code)
        return i, Err(exc, "\n".join(body), frames)

    def _warning(self, i: int, m: re.Match[str]) -> int:
        start, body = self.lines[i], [m["msg"]]
        indent = _indent(start.text)
        code = None
        i += 1
        while i < len(self.lines):
            ln = self.lines[i]
            if ln.brk or not ln.text.strip() or ln.key != start.key:
                break
            if _indent(ln.text) > indent or (indent == 0 and CODE_LIKE.match(ln.text)):
                code = ln.text.strip()  # the code line `warnings.warn(` printed under it
                i += 1
                break
            if _starts(ln.text):
                break
            body.append(ln.text)
            i += 1
        # The printed file:line is where the warning points (stacklevel), often the caller's code.
        hint = Line("", start.key, start.level, start.logger, m["path"], int(m["line"]))
        self.others.append(Err(m["cat"], "\n".join(body), start=hint, code=code))
        return i

    def _log(self, i: int) -> int:
        ln = self.lines[i]
        j, cont = self._continue(i + 1, ln)
        err = Err(None, "\n".join([ln.text, *cont]), start=ln)
        (self.others if ln.level in ("WARNING", "ERROR", "CRITICAL") else self.quiet).append(err)
        return max(j, i + 1)
