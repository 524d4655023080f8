"""A check of the exception a log record carries: the `exc_info=` of the user's logging call.

A logging handler's `emit(self, record: LogRecord)` is called by the standard library with
the record the user's `logger.error(..., exc_info=...)` made; `record.exc_info` is what that
keyword became (`True` inside an `except` block: `sys.exc_info()`; an exception: its type,
itself and its traceback; a tuple: as given). rich's handler unpacks it,
`exc_type, exc_value, exc_traceback = record.exc_info`, and asserts that the type and the
value are not None: only a tuple built by hand gets there. The handler's own switch
(`rich_tracebacks=`) also avoids the check, but gives up the tracebacks the user asked for;
the record's exception, as the log call gives it, is the way out, and it comes first.
"""

from __future__ import annotations

import ast

from errdex.explain.context import Facts
from errdex.explain.entry_input import names_read
from errdex.explain.page import ExampleFix, Solution
from errdex.explain.plain import code
from errdex.facts import BRANCH_KINDS, ConditionKind, SiteKind
from errdex.link.expression_texts import parse_expression

__all__ = ["log_record_solution"]

_RECORD = frozenset({"LogRecord", "logging.LogRecord"})
# the items of `sys.exc_info()`, in order
_ITEMS = ("the exception's class", "the exception", "its traceback")


def log_record_solution(facts: Facts) -> Solution | None:
    """ "Log the exception with `exc_info=True` inside its `except` block ...", or None."""
    if "exc_info" not in (facts.source_text or ""):
        return None  # cheap: no page of a file without it parses anything here
    site = facts.stored.site
    checks = [c for c in facts.held if c.kind in BRANCH_KINDS or c.kind == ConditionKind.ASSERT]
    caught = any(c.kind == ConditionKind.EXCEPT for c in facts.conditions)
    if not checks or caught or site.kind not in (SiteKind.RAISE, SiteKind.ASSERT):
        return None  # an `except` re-raises what the `try` met, not the record's exception
    function = facts.site_function()
    record = _record_parameter(function) if function is not None else None
    if function is None or record is None:
        return None
    test = parse_expression(checks[-1].text)
    if test is None:
        return None
    read = names_read(test)
    unpacked = _unpacked(function, record, site.line)
    if not read or not read <= unpacked.keys():
        return None  # the check reads something else too: that may be what fails
    name = min(read)
    what = _ITEMS[unpacked[name]]
    return Solution(
        text=(
            f"Log the exception from inside its `except` block with `exc_info=True` (or "
            f"`logger.exception(...)`), or pass the exception itself as `exc_info=`: the "
            f"check at line {checks[-1].line} tests {code(name)}, {what} in "
            f"{code(record + '.exc_info')}: {code(record)} is the record your logging call "
            "made, and its `exc_info` is what the call's `exc_info=` gave. A tuple given by "
            "hand must hold the exception's class, the exception and its traceback, as "
            "`sys.exc_info()` does, with no None among them."
        ),
        condition=checks[-1].text,
        kind="input",
        fix=ExampleFix(
            before='logger.error("MESSAGE", exc_info=EXC_INFO)',
            after='try:\n    ...\nexcept Exception:\n    logger.error("MESSAGE", exc_info=True)',
            note="`EXC_INFO` stands for the tuple your call gives; `...` for your own code.",
        ),
    )


def _record_parameter(function: ast.FunctionDef) -> str | None:
    """The name of the parameter annotated as a `logging.LogRecord`, or None."""
    for arg in (*function.args.posonlyargs, *function.args.args, *function.args.kwonlyargs):
        if arg.annotation is not None and ast.unparse(arg.annotation).strip("'\"") in _RECORD:
            return arg.arg
    return None


def _unpacked(function: ast.FunctionDef, record: str, line: int) -> dict[str, int]:
    """The names the function unpacks from the record's `exc_info` before `line`, with the
    item each one holds (`exc_type, exc_value, tb = record.exc_info`: 0, 1, 2)."""
    wanted = f"{record}.exc_info"
    found: dict[str, int] = {}
    for node in ast.walk(function):
        if not isinstance(node, ast.Assign) or node.lineno >= line:
            continue
        if ast.unparse(node.value) != wanted or len(node.targets) != 1:
            continue
        target = node.targets[0]
        if isinstance(target, ast.Tuple) and len(target.elts) == len(_ITEMS):
            for index, element in enumerate(target.elts):
                if isinstance(element, ast.Name):
                    found[element.id] = index
    return found
