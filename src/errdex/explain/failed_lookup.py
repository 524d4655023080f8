"""A `try` whose `except KeyError` catches a lookup's miss, not a call's failure.

`obj = config_defaults[item]` then `warnings.warn(...)` under `except KeyError`: naming
the only call of the `try` ("It runs when `warnings.warn(...)` raised `KeyError`") would
blame what raises no such error; the key the lookup missed (`item`) is what to check.
When the `try` holds one lookup (`table[key]`) and its calls are ones that raise no
`KeyError` (a test such as `isinstance`, a text method cutting the key, a builtin making
the table from what it holds, `warnings.warn`), the lookup is named instead.
"""

from __future__ import annotations

import ast

from errdex.ast_walk import walk_scope
from errdex.explain.context import Facts
from errdex.explain.parsed_value import try_of
from errdex.explain.plain import caught_names

__all__ = ["failed_lookup"]

# What a lookup raises when it misses.
_MISSES = frozenset({"KeyError", "LookupError", "IndexError"})
# Builtins that test or copy a value, raising no `KeyError` of their own.
_BUILTINS = frozenset(
    {"isinstance", "issubclass", "hasattr", "callable", "len", "type", "str", "repr"}
    | {"dict", "list", "tuple", "set", "frozenset"}
)
# Text methods, which cut or fold a key and raise no `KeyError`.
_TEXT_METHODS = frozenset(
    {"split", "rsplit", "strip", "lstrip", "rstrip", "lower", "upper", "casefold"}
    | {"removeprefix", "removesuffix", "replace"}
)
# Calls that report and go on.
_REPORTS = frozenset({"warnings.warn"})


def failed_lookup(facts: Facts, line: int, clause: str) -> str | None:
    """The one lookup (`table[key]`, as written) of the `try` whose `except` clause at
    `line` catches only a lookup's miss, when no call of that `try` can raise it; else None."""
    caught = caught_names(clause)
    if not caught or not caught <= _MISSES:
        return None
    function = facts.site_function()
    found = try_of(function, line) if function is not None else None
    if found is None:
        return None
    nodes = walk_scope(found[0].body)  # a nested function's body is not the `try`'s
    lookups = [n for n in nodes if isinstance(n, ast.Subscript)]
    if len(lookups) != 1 or not isinstance(lookups[0].ctx, ast.Load):
        return None
    if not all(_quiet(n) for n in nodes if isinstance(n, ast.Call)):
        return None
    return ast.unparse(lookups[0])


def _quiet(call: ast.Call) -> bool:
    """A call that raises no `KeyError` of its own: a builtin test or copy, a text
    method, a warning."""
    func = call.func
    if isinstance(func, ast.Name):
        return func.id in _BUILTINS
    if isinstance(func, ast.Attribute) and func.attr in _TEXT_METHODS:
        return True
    return ast.unparse(func) in _REPORTS
