"""The functions a function hands a process or a thread to run (`ctx.Process(
target=_run_daemon, ...)`, `threading.Thread(target=work)`) without calling them itself:
the call it makes runs them, so its caller's command line reaches them as it reaches the
functions it calls."""

from __future__ import annotations

from collections.abc import Collection

from errdex.extract.commands import FunctionSpans
from errdex.extract.textscan import LineNumbers
from errdex.lazy_re import lazy_compile

# `target=` of a call (a literal prefix: the scan is cheap on every file)
_TARGET = lazy_compile(r"target\s*=\s*([A-Za-z_]\w*)\s*[,)]")


def handed_functions(
    text: str, defs: dict[int, tuple[str, str | None]], functions: Collection[str]
) -> dict[str, tuple[str, ...]]:
    """Each function's qualname → the names among `functions` (the module's own
    functions and the names it imports) it hands a call as `target=`, read from the text
    (in bodies the skeleton blanked too; `defs`: the function whose `def` is on each
    line); at the module's top level none."""
    out: dict[str, list[str]] = {}
    spans: FunctionSpans | None = None  # made at the first name handed
    line_of = LineNumbers(text)
    for found in _TARGET.finditer(text):
        name, at = found[1], found.start()
        before = at
        while before and text[before - 1].isspace():
            before -= 1
        if name not in functions or text[before - 1 : before] not in ("(", ","):
            continue  # not an argument (`self.target = f`), or no function of the module
        if spans is None:
            spans = FunctionSpans(text, defs)
        owner = spans.function_at(line_of(at))
        if owner is not None:
            names = out.setdefault(owner[0], [])
            if name not in names:
                names.append(name)
    return {k: tuple(v) for k, v in out.items()}
