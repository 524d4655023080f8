"""The one value the package itself passes an internal function's parameter, put in for its
placeholder in the page's solutions.

`check_nixl_version(min_version)` raises "NIXL >= {min_version} is required", and the package
calls it only as `check_nixl_version("1.5.0")`: the way out reads "Upgrade NIXL to 1.5.0 or
newer", not "to {min_version}". Only when every call the index holds of the function gives
that parameter the same literal, and the function is no entry point of the package (one
exported by a shorter path, or defined in its top module: a user may call it with any value,
so its placeholders wait for the value in the user's paste).
"""

from __future__ import annotations

import ast
import re

from errdex.explain.context import Facts
from errdex.explain.entry_args import short_export
from errdex.explain.entry_input import call_values
from errdex.explain.page import Caller, Solution
from errdex.store.base import Store, StoredSite

_PLACEHOLDER = re.compile(r"\{([A-Za-z_]\w*)(![rsa])?\}")


def caller_literals(
    store: Store, chosen: StoredSite, facts: Facts, solutions: list[Solution]
) -> dict[str, str]:
    """{placeholder as written: the value shown} for the solutions' placeholders that name
    a parameter every caller gives one literal."""
    said = {m for s in solutions for m in _PLACEHOLDER.findall(s.text)}
    if not said or _entry_point(chosen):
        return {}
    function = facts.site_function()
    if function is None:
        return {}
    params = [a.arg for a in [*function.args.posonlyargs, *function.args.args]]
    params = [p for p in params if p not in ("self", "cls")]
    defaulted = _defaulted(function)
    dotted = f"{chosen.module}.{chosen.site.function}"
    callers = [c for c in facts.callers if c.depth == 1 and c.calls == dotted]
    if not callers:
        return {}
    parsed: dict[tuple[str, str, int], ast.FunctionDef | None] = {}
    found: dict[str, str] = {}
    for name, conversion in said:
        # a parameter a call may leave out takes its default there: not one value
        if name not in params or name in defaulted:
            continue
        values = _literals(store, chosen, callers, dotted, (name, params.index(name)), parsed)
        if values is None or len(values) != 1:
            continue  # one gives another value, something computed, or cannot be read
        value = values.pop()
        shown = repr(value) if conversion == "!r" else str(value)
        found[f"{name}{conversion}"] = shown
    return found


def literal_calls(store: Store, chosen: StoredSite, facts: Facts, name: str) -> bool:
    """Whether every call the index holds of the site's function gives its parameter `name`
    a literal (`get_items("image", ...)`, `get_items("audio", ...)`): the package names that
    value itself, no user does. False with no call found or one not read."""
    function = facts.site_function()
    if function is None or _entry_point(chosen):
        return False
    params = [a.arg for a in [*function.args.posonlyargs, *function.args.args]]
    params = [p for p in params if p not in ("self", "cls")]
    if name not in params:
        return False
    dotted = f"{chosen.module}.{chosen.site.function}"
    callers = [c for c in facts.callers if c.depth == 1 and c.calls == dotted]
    found = _literals(store, chosen, callers, dotted, (name, params.index(name)), {})
    return bool(callers) and found is not None


def _entry_point(chosen: StoredSite) -> bool:
    """Whether a user calls the function: exported by a shorter path than its module's
    (`click.echo`), or defined in the package's top module."""
    if "." not in chosen.module:
        return chosen.public_path() is not None
    return short_export(chosen, chosen.site.function) is not None


def _defaulted(function: ast.FunctionDef) -> set[str]:
    positional = [*function.args.posonlyargs, *function.args.args]
    with_default = positional[len(positional) - len(function.args.defaults) :]
    return {a.arg for a in with_default} | {
        a.arg
        for a, d in zip(function.args.kwonlyargs, function.args.kw_defaults, strict=True)
        if d is not None
    }


def _literals(
    store: Store,
    chosen: StoredSite,
    callers: list[Caller],
    dotted: str,
    parameter: tuple[str, int],
    parsed: dict[tuple[str, str, int], ast.FunctionDef | None],
) -> set[str | int | float] | None:
    """The literals the callers' calls give the parameter, or None when one gives
    something computed or cannot be read."""
    values: set[str | int | float] = set()
    for caller in callers:
        read = call_values(store, chosen, caller, dotted, parameter, frozenset(), parsed)
        if read is None or not read[2]:
            return None  # a call not read, or one whose value is not found: unsure
        for value in read[2]:
            if not isinstance(value, ast.Constant) or isinstance(value.value, bool):
                return None
            if not isinstance(value.value, str | int | float):
                return None
            values.add(value.value)
    return values
