"""What a handler adds to the error it re-raises: text the user reads with it.

`except UnicodeEncodeError as error: error.reason = f"{error.reason}\\n*** You may need to
add PYTHONIOENCODING=utf-8 to your environment ***"; raise` (rich's `Console._check_buffer`)
passes the error on with advice of its own, as does `error.add_note("...")`. That text is
part of what the user sees, and its advice is a way out as a message's is.
"""

from __future__ import annotations

import ast

from errdex.ast_walk import walk
from errdex.explain.context import Facts
from errdex.facts import SiteKind

# Variables the Python interpreter itself reads, whatever the package: a message that says
# to set one names a setting that exists.
INTERPRETER_VARIABLES = frozenset(
    {"PYTHONIOENCODING", "PYTHONUTF8", "PYTHONWARNINGS", "PYTHONDONTWRITEBYTECODE"}
)


def handler_notes(facts: Facts) -> list[str]:
    """The text the `except` clause around a bare `raise` adds to the error it caught:
    strings it assigns to the error's attributes or passes to `add_note`, with the
    placeholders of an f-string left as `{...}`."""
    site = facts.stored.site
    if site.kind != SiteKind.RERAISE:
        return []
    found = facts.site_function()
    if found is None:
        return []
    for handler in walk(found):
        if not isinstance(handler, ast.ExceptHandler) or handler.name is None:
            continue
        if not any(
            isinstance(n, ast.Raise) and n.exc is None and n.lineno == site.line
            for n in handler.body
        ):
            continue
        return [text for n in handler.body if (text := _added(n, handler.name))]
    return []


def _added(statement: ast.stmt, name: str) -> str | None:
    """The text `error.attr = "..."` or `error.add_note("...")` gives the error `name`."""
    value: ast.expr | None = None
    if isinstance(statement, ast.Assign) and any(
        isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == name
        for t in statement.targets
    ):
        value = statement.value
    elif isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
        func = statement.value.func
        if (
            isinstance(func, ast.Attribute)
            and func.attr == "add_note"
            and isinstance(func.value, ast.Name)
            and func.value.id == name
            and statement.value.args
        ):
            value = statement.value.args[0]
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        return value.value
    if isinstance(value, ast.JoinedStr):
        parts = [
            p.value if isinstance(p, ast.Constant) else "{...}"
            for p in value.values
            if isinstance(p, ast.Constant | ast.FormattedValue)
        ]
        text = "".join(str(p) for p in parts)
        # the error's own text it builds on (`{error.reason}`) is no advice: left out
        return text.replace("{...}", "").strip(" \n*") or None
    return None
