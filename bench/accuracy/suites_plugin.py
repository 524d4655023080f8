"""A pytest plugin that records the errors a package's own code raises, warns and logs while
its test suite runs; `suites_harvest.py` loads it with `-p suites_plugin`.

    SUITES_ROOTS=DIR[:DIR...] SUITES_RECORDS=FILE pytest -p suites_plugin ...

`SUITES_ROOTS` are the folders of the installed package (in site-packages), `SUITES_RECORDS`
a JSON-lines file the records are appended to. The truth of each record is where the
package's code raised it, read from the exception itself, never chosen by anyone:

- an exception, wherever it reaches the test (`pytest.raises`, `assertRaises`, a failing
  test, a CLI runner that caught it): the innermost frame of its traceback, kept when it is
  in the package's files and its line lies inside a `raise` or `assert` statement (an error
  of the interpreter's, a `KeyError` of `d[k]`, has no statement a user could be sent to);
- a warning: the frame that called `warnings.warn`;
- a log record at WARNING or above: the line of the logging call;
- an argparse/optparse `parser.error(...)`: the frame that called it.

Each record keeps the forms a user pastes: the message line (`Class: str(exc)`), the whole
traceback as Python prints it, and what the program printed, where it prints something of
its own (click's and typer's error output, the parser's usage and `prog: error:` line, the
formatted log line, the `file:line: Category: message` of a warning).
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import io
import json
import logging
import optparse
import os
import sys
import threading
import traceback
import unittest.case
import warnings
from pathlib import Path
from types import FrameType, TracebackType
from typing import Any

import pytest

_ROOTS = tuple(
    str(Path(p).resolve()) + os.sep
    for p in os.environ.get("SUITES_ROOTS", "").split(os.pathsep)
    if p
)
_OUT = os.environ.get("SUITES_RECORDS", "")
_SEEN: set[tuple[str, int, str, bool]] = set()
_STATEMENTS: dict[str, list[tuple[int, int, str]]] = {}
_PER_SITE: dict[tuple[str, int], int] = {}
_MAX_PER_SITE = 25  # a loop raising at one site does not fill the file


def _in_package(filename: str) -> bool:
    if not filename.startswith(_ROOTS):
        return False
    # A package's own tests and test helpers shipped inside it (h11/tests, mako/testing) are
    # not its code.
    inside = filename[len(_root_of(filename)) - 1 :]
    return not any(f"{os.sep}{name}{os.sep}" in inside for name in ("tests", "testing"))


def _root_of(filename: str) -> str:
    return next(root for root in _ROOTS if filename.startswith(root))


def _relative(filename: str) -> str:
    """The path inside the wheel: relative to the folder that holds the package."""
    return Path(filename).relative_to(Path(_root_of(filename)).parent).as_posix()


def _statements(filename: str) -> list[tuple[int, int, str]]:
    """(first line, last line, kind) of the raise, assert and call statements of a file."""
    found = _STATEMENTS.get(filename)
    if found is None:
        found = []
        try:
            tree = ast.parse(Path(filename).read_bytes())
        except (OSError, SyntaxError, ValueError):
            tree = ast.Module(body=[], type_ignores=[])
        for node in ast.walk(tree):
            kind = {ast.Raise: "raise", ast.Assert: "assert", ast.Expr: "call"}.get(type(node))
            if kind == "raise" and node.exc is None:  # type: ignore[attr-defined]
                kind = None  # a bare re-raise keeps the original traceback
            if kind == "call" and not isinstance(node.value, ast.Call):  # type: ignore[attr-defined]
                kind = None
            if kind is not None:
                found.append((node.lineno, node.end_lineno or node.lineno, kind))
        _STATEMENTS[filename] = found
    return found


def _statement_at(filename: str, line: int, kinds: tuple[str, ...]) -> tuple[int, int] | None:
    """The innermost statement of one of `kinds` spanning `line`."""
    best: tuple[int, int] | None = None
    for first, last, kind in _statements(filename):
        inner = best is None or last - first < best[1] - best[0]
        if kind in kinds and first <= line <= last and inner:
            best = (first, last)
    return best


def _qualname(frame: FrameType) -> str:
    name = frame.f_code.co_qualname
    return "<module>" if name == "<module>" else name


def _test_id() -> str:
    return os.environ.get("PYTEST_CURRENT_TEST", "").rsplit(" ", 1)[0]


def _write(record: dict[str, Any]) -> None:
    # One record per message and kind of surface: printed by the program, caught by the
    # test, or only raised (the code or a helper of the test caught it).
    surface = "printed" if record["printed"] is not None else record["surface"] == "raised"
    key = (record["file"], record["line"], record["message"], surface)
    site = (record["file"], record["line"])
    if key in _SEEN or _PER_SITE.get(site, 0) >= _MAX_PER_SITE:
        return
    _SEEN.add(key)
    _PER_SITE[site] = _PER_SITE.get(site, 0) + 1
    record["test"] = _test_id()
    with open(_OUT, "a", encoding="utf-8") as out:
        out.write(json.dumps(record) + "\n")


def _innermost(tb: TracebackType | None) -> TracebackType | None:
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return tb


def _exception_record(
    error: BaseException, frame: FrameType, line: int, text: str, surface: str, printed: str | None
) -> None:
    """Write the record of `error`, raised in `frame` at `line`, when that is a statement."""
    filename = frame.f_code.co_filename
    span = _statement_at(filename, line, ("raise", "assert"))
    if span is None:
        return
    message = str(error)
    name = type(error).__name__
    _write(
        {
            "kind": "assert" if isinstance(error, AssertionError) else "raise",
            "file": _relative(filename),
            "line": span[0],
            "end_line": span[1],
            "raised_line": line,
            "function": _qualname(frame),
            "exception": name,
            "exception_module": type(error).__module__,
            "message": f"{name}: {message}" if message else name,
            "traceback": text,
            "printed": printed,
            "surface": surface,
        }
    )


def _skipped(error: BaseException) -> bool:
    return isinstance(
        error, (pytest.skip.Exception, pytest.fail.Exception, KeyboardInterrupt, SystemExit)
    )


def record_exception(error: BaseException, surface: str, printed: str | None = None) -> None:
    """Record `error` if the package's code raised it; `printed` is what the program showed."""
    tb = _innermost(error.__traceback__)
    if tb is None or _skipped(error) or not _in_package(tb.tb_frame.f_code.co_filename):
        return
    text = "".join(traceback.format_exception(error))
    _exception_record(error, tb.tb_frame, tb.tb_lineno, text, surface, printed)


# --- every raise, caught or not -----------------------------------------------------------
# An exception the package's code raised and the code (or a helper of the test) caught is
# still a real error with a real message: it is recorded where it is raised, with the
# traceback it would print from the test down, had nothing caught it.

_PACKAGE_FILE: dict[str, bool] = {}
_HARNESS = (f"{os.sep}_pytest{os.sep}", f"{os.sep}pluggy{os.sep}", f"{os.sep}unittest{os.sep}")


def _on_call(frame: FrameType, event: str, arg: Any) -> Any:
    filename = frame.f_code.co_filename
    known = _PACKAGE_FILE.get(filename)
    if known is None:
        known = _PACKAGE_FILE[filename] = _in_package(filename)
    if not known:
        return None
    frame.f_trace_lines = False
    return _on_exception


def _on_exception(frame: FrameType, event: str, arg: Any) -> Any:
    if event == "exception":
        error, tb = arg[1], arg[2]
        # The frame that raised it: the traceback holds nothing deeper yet.
        if tb is not None and tb.tb_next is None and tb.tb_frame is frame:
            with contextlib.suppress(Exception):
                _record_raised(error, frame, tb.tb_lineno)
    return _on_exception


def _record_raised(error: BaseException, frame: FrameType, line: int) -> None:
    if (
        _skipped(error)
        or _statement_at(frame.f_code.co_filename, line, ("raise", "assert")) is None
    ):
        return
    frames: list[FrameType] = []
    outer: FrameType | None = frame
    while outer is not None:
        frames.append(outer)
        outer = outer.f_back
    frames.reverse()
    # From the test down: what calls the test is the harness's.
    harness = [i for i, f in enumerate(frames) if any(h in f.f_code.co_filename for h in _HARNESS)]
    if harness:
        frames = frames[harness[-1] + 1 :]
    shown = traceback.TracebackException(type(error), error, None)
    shown.stack = traceback.StackSummary.extract(
        (f, line if f is frame else f.f_lineno) for f in frames
    )
    _exception_record(error, frame, line, "".join(shown.format()), "raised", None)


def _record_call(
    frame: FrameType, kind: str, exception: str | None, message: str, printed: str
) -> None:
    filename = frame.f_code.co_filename
    if not _in_package(filename):
        return
    span = _statement_at(filename, frame.f_lineno, ("call", "raise"))
    first, last = span if span is not None else (frame.f_lineno, frame.f_lineno)
    _write(
        {
            "kind": kind,
            "file": _relative(filename),
            "line": first,
            "end_line": last,
            "raised_line": frame.f_lineno,
            "function": _qualname(frame),
            "exception": exception,
            "exception_module": None,
            "message": message,
            "traceback": None,
            "printed": printed,
            "surface": kind,
        }
    )


# --- warnings -----------------------------------------------------------------------------

_original_warn = warnings.warn


def _warn(
    message: Any, category: Any = None, stacklevel: int = 1, source: Any = None, **kwargs: Any
) -> None:
    with contextlib.suppress(Exception):
        caller = sys._getframe(1)
        if _in_package(caller.f_code.co_filename):
            if isinstance(message, Warning):
                category = type(message)
            category = category or UserWarning
            # Where Python reports it: `stacklevel` frames up from the call.
            shown = caller
            for _ in range(max(stacklevel, 1) - 1):
                shown = shown.f_back or shown
            printed = warnings.formatwarning(
                str(message), category, shown.f_code.co_filename, shown.f_lineno
            )
            _record_call(
                caller, "warn", category.__name__, f"{category.__name__}: {message}", printed
            )
    _original_warn(message, category, stacklevel + 1, source, **kwargs)


warnings.warn = _warn  # type: ignore[assignment]


# --- logging ------------------------------------------------------------------------------


class _Recorder(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.setFormatter(logging.Formatter(logging.BASIC_FORMAT))

    def emit(self, record: logging.LogRecord) -> None:
        with contextlib.suppress(Exception):
            if not _in_package(record.pathname):
                return
            frame = sys._getframe(1)
            while frame is not None and frame.f_code.co_filename != record.pathname:
                frame = frame.f_back  # type: ignore[assignment]
            if frame is None:
                return
            _record_call(frame, "log", None, record.getMessage(), self.format(record))


# --- argparse and optparse ----------------------------------------------------------------


def _wrap_parser_error(cls: Any) -> None:
    original = cls.error

    def error(self: Any, message: str) -> Any:
        caller = sys._getframe(1)
        buffer = io.StringIO()
        try:
            with contextlib.redirect_stderr(buffer):
                original(self, message)
        finally:
            printed = buffer.getvalue()
            sys.stderr.write(printed)
            with contextlib.suppress(Exception):
                _record_call(caller, "exit", None, message, printed)

    cls.error = error


# --- surfaces of exceptions ---------------------------------------------------------------


def _wrap_exit(cls: type, surface: str) -> None:
    original = cls.__exit__  # type: ignore[attr-defined]

    def __exit__(self: Any, exc_type: Any, exc_value: Any, tb: Any) -> Any:
        if exc_value is not None:
            with contextlib.suppress(Exception):
                record_exception(exc_value, surface)
        return original(self, exc_type, exc_value, tb)

    cls.__exit__ = __exit__  # type: ignore[attr-defined]


def _wrap_printer(owner: Any, name: str, surface: str) -> None:
    """Record the exception a printer is given, with the text it prints."""
    original = getattr(owner, name)
    method = isinstance(owner, type)

    def printer(*args: Any, **kwargs: Any) -> Any:
        error = args[0]
        buffer = io.StringIO()
        with contextlib.redirect_stderr(buffer), contextlib.redirect_stdout(buffer):
            if method and "file" not in kwargs and len(args) == 1:
                result = original(*args, file=buffer, **kwargs)
            else:
                result = original(*args, **kwargs)
        printed = buffer.getvalue()
        sys.stderr.write(printed)
        with contextlib.suppress(Exception):
            record_exception(error, surface, printed)
        return result

    setattr(owner, name, printer)


def pytest_configure(config: pytest.Config) -> None:
    if not _OUT or not _ROOTS:
        raise pytest.UsageError("suites_plugin needs SUITES_ROOTS and SUITES_RECORDS")
    sys.settrace(_on_call)
    threading.settrace(_on_call)
    _wrap_exit(type(pytest.raises(Exception)), "pytest.raises")
    _wrap_exit(unittest.case._AssertRaisesContext, "assertRaises")
    # Test helpers of their own (`with expect_raises(...)`) are often generator-based.
    _wrap_exit(contextlib._GeneratorContextManager, "context manager")
    logging.getLogger().addHandler(_Recorder())
    _wrap_parser_error(argparse.ArgumentParser)
    _wrap_parser_error(optparse.OptionParser)
    with contextlib.suppress(ImportError):
        import click

        for cls in (click.ClickException, click.UsageError):
            _wrap_printer(cls, "show", "click")
    with contextlib.suppress(ImportError, AttributeError):
        import typer.rich_utils

        _wrap_printer(typer.rich_utils, "rich_format_error", "typer")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    if call.excinfo is not None:
        with contextlib.suppress(Exception):
            record_exception(call.excinfo.value, "test failure")
    return report
