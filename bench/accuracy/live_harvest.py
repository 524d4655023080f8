"""Raise real exceptions from an installed package, for `live.py`; runs in its own process.

    python -I live_harvest.py TARGET PACKAGE

`TARGET` is a folder the package (and its dependencies) were installed into with
`pip install --target`; `PACKAGE` its import name. Every public function and class of every
module of the package is called with a few kinds of wrong arguments (nothing, None, empty
and odd strings, negative numbers, empty containers). Each exception whose innermost frame
is a `raise` statement of the package's own code is printed as one JSON line: the full
traceback as Python prints it, its last line, and where it was raised.

This file runs the package's code, which errdex itself never does: it is how the benchmark
gets real exceptions whose origin is known for certain. It is meant for a scratch folder
(`live.py` gives it one as its working directory, with HOME pointing there too).
"""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import pkgutil
import signal
import sys
import traceback
import warnings
from pathlib import Path
from types import FrameType, ModuleType, TracebackType
from typing import Any

# Arguments that a careful library rejects with a message of its own.
_ARGUMENTS: tuple[tuple[Any, ...], ...] = (
    (),
    (None,),
    ("",),
    ("x",),
    ("not a valid value!",),
    ("1.2.3.4.5",),
    ("{{ x",),
    (-1,),
    (0,),
    (1.5,),
    ([],),
    ({},),
    ("x", "x"),
    (None, None),
    (-1, -1),
)
_SECONDS_PER_CALL = 2
_MAX_PER_SITE = 1  # one exception per raising statement is enough
MARK = "errdex-live-record "  # what the package itself prints cannot pass for a record


class _Timeout(BaseException):
    """Raised by the alarm: a call that runs too long (a loop, a network wait)."""


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise _Timeout


def _raise_statements(path: Path, cache: dict[Path, set[int]]) -> set[int]:
    """The lines of `path` that lie within a `raise` statement."""
    lines = cache.get(path)
    if lines is None:
        lines = set()
        try:
            tree = ast.parse(path.read_bytes())
        except (OSError, SyntaxError, ValueError):
            tree = ast.Module(body=[], type_ignores=[])
        for node in ast.walk(tree):
            if isinstance(node, ast.Raise) and node.exc is not None:
                lines.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
        cache[path] = lines
    return lines


def _innermost(tb: TracebackType | None) -> TracebackType | None:
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return tb


def _modules(package: str) -> list[ModuleType]:
    root = importlib.import_module(package)
    found = [root]
    for info in pkgutil.walk_packages(getattr(root, "__path__", []), package + "."):
        if any(part.startswith("_") and part != "__init__" for part in info.name.split(".")[1:]):
            continue  # private modules: users do not call them
        if ".tests" in info.name or ".testing" in info.name:
            continue
        try:
            found.append(importlib.import_module(info.name))
        except BaseException:
            continue
    return found


def _callables(module: ModuleType, package: str) -> list[Any]:
    out = []
    for name, value in sorted(vars(module).items()):
        if name.startswith("_") or not callable(value):
            continue
        owner = getattr(value, "__module__", "") or ""
        if owner != module.__name__ or not owner.startswith(package):
            continue  # defined elsewhere: it is harvested where it is defined
        if inspect.isclass(value) and issubclass(value, BaseException):
            continue
        out.append(value)
    return out


def main() -> None:
    target, package = Path(sys.argv[1]).resolve(), sys.argv[2]
    sys.path.insert(0, str(target))
    root = target / package
    warnings.simplefilter("ignore")
    signal.signal(signal.SIGALRM, _alarm)
    statements: dict[Path, set[int]] = {}
    seen: dict[tuple[str, int], int] = {}

    def call_all(function: Any) -> list[Any]:
        """Call `function` with each kind of wrong argument; what it returned."""
        results = []
        for arguments in _ARGUMENTS:
            signal.alarm(_SECONDS_PER_CALL)
            try:
                results.append(function(*arguments))
            except _Timeout:
                break
            except (KeyboardInterrupt, SystemExit):
                continue
            except BaseException as error:
                signal.alarm(0)
                _report(error, root, target, statements, seen)
            finally:
                signal.alarm(0)
        return results

    for module in _modules(package):
        for function in _callables(module, package):
            made = call_all(function)
            if not inspect.isclass(function):
                continue
            # Methods, on the class (static and class methods) and on the first instance
            # that the wrong arguments happened to make.
            instance = next((m for m in made if isinstance(m, function)), None)
            for name in sorted(dir(function)):
                if name.startswith("_"):
                    continue
                try:
                    member = getattr(instance if instance is not None else function, name)
                except BaseException:
                    continue
                owner = getattr(member, "__module__", "") or ""
                if callable(member) and owner.startswith(package):
                    call_all(member)


def _report(
    error: BaseException,
    root: Path,
    target: Path,
    statements: dict[Path, set[int]],
    seen: dict[tuple[str, int], int],
) -> None:
    tb = _innermost(error.__traceback__)
    if tb is None:
        return
    path = Path(tb.tb_frame.f_code.co_filename)
    if not path.is_relative_to(root):
        return  # raised by Python itself or another library
    line = tb.tb_lineno
    if line not in _raise_statements(path, statements):
        return  # an error of the interpreter's (a wrong type met), not a statement's
    where = (path.relative_to(target).as_posix(), line)
    if seen.get(where, 0) >= _MAX_PER_SITE:
        return
    seen[where] = seen.get(where, 0) + 1
    text = "".join(traceback.format_exception(error))
    last = "".join(traceback.format_exception_only(error)).strip()
    record = {
        "file": where[0],
        "line": line,
        "exception": type(error).__name__,
        "traceback": text,
        "last_line": last,
    }
    print(MARK + json.dumps(record), flush=True)


if __name__ == "__main__":
    main()
