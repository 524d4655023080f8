"""A value every call passes: the site's condition on an argument cannot hold when reached.

When each call of an internal function in the package gives a parameter a value that makes
one of the site's conditions false (a literal, a default left as it is, an expression that
is never None: `image_max_pixels or (4096 * unit * unit)`), the check is never reached
failing, and "pass the argument `image_max_pixels`" names a call no user makes: no way out
is offered, and "What it means" lists the calls. Only with every call read: the linker
counts the calls of the function it resolved (`IndexedSite.calls`), and each one must be
found and read in the callers the page holds; a function or a constructor only (a method
may be called on an object no import resolves), private or vendored: a public name of a
public module may be the user's to call with any value.
"""

from __future__ import annotations

import ast
import builtins

from errdex.ast_walk import walk
from errdex.explain.call_binding import bound_arguments
from errdex.explain.context import Facts, function_at
from errdex.explain.entry_input import names_read
from errdex.explain.never_none import never_none
from errdex.explain.plain import code
from errdex.explain.private_names import private_name
from errdex.explain.refused_ways import KnownValues
from errdex.explain.state_gated import users_call, vendored
from errdex.explain.unreached import PassedCall
from errdex.facts import ConditionKind, SiteKind
from errdex.link.expression_texts import parse_expression
from errdex.store import Store
from errdex.store.base import StoredSite

__all__ = ["passed_by_callers"]

_TESTED = (ConditionKind.ASSERT, ConditionKind.IF, ConditionKind.ELIF)
_UNSET = object()  # a parameter the call leaves out with no literal default
_BUILTINS = frozenset(dir(builtins))


def passed_by_callers(store: Store, stored: StoredSite, facts: Facts) -> list[PassedCall]:
    """Each call of the site's function, when every one the linker resolved passes a value
    that makes a condition of the site false; else empty."""
    site = stored.site
    if site.kind not in (SiteKind.ASSERT, SiteKind.RAISE) or not stored.calls:
        return []
    parts = site.function.split(".")
    constructor = len(parts) == 2 and parts[1] == "__init__"
    if len(parts) != 1 and not constructor:
        return []
    if users_call(facts) or not _internal(stored):
        return []  # the user may call it with any value
    if not any(c.kind in _TESTED for c in facts.held):
        return []  # nothing tested: no need to read the function
    function = facts.site_function()
    if function is None:
        return []
    params = _parameters(function, constructor)
    tests = _argument_tests(facts, function, {p for p, _ in params})
    if not tests:
        return []
    dotted = f"{stored.module}.{site.function}"
    callee = parts[0]
    found: list[PassedCall] = []
    for caller in facts.callers:
        if caller.depth != 1 or caller.calls != dotted:
            continue
        text = facts.source_text if caller.file == stored.file else None
        text = text if text is not None else store.file_text(stored.version_id, caller.file)
        calling = function_at(text, caller.function.rpartition(".")[2], caller.line)
        if calling is None:
            return []  # a caller not read: not every call is known
        calls = [n for n in walk(calling) if isinstance(n, ast.Call) and _named(n, callee)]
        for call in calls:
            ruled = _ruled_out(call, params, tests)
            if ruled is None:
                return []
            found.append(PassedCall(caller.function, caller.file, call.lineno, *ruled))
    # the calls found are all the linker resolved (a name matched twice counts twice: then
    # the counts differ, and nothing is said)
    return found if len(found) == stored.calls else []


def _internal(stored: StoredSite) -> bool:
    """Whether no user is meant to call the function: a `_name` in its module or name, or
    code vendored into the package. A public name of a public module may be the user's
    to call (`TIMESTAMP(timezone=True, local_timezone=True)` in a table's columns)."""
    parts = [*stored.module.split("."), *stored.site.function.split(".")]
    return any(private_name(p) for p in parts) or vendored(stored)


def _parameters(function: ast.FunctionDef, constructor: bool) -> list[tuple[str, object]]:
    """(name, default) of the parameters a call binds by position or keyword, in order;
    the default is the literal's value, or `_UNSET` (none, or not a literal)."""
    args = function.args
    positional = [*args.posonlyargs, *args.args][1 if constructor else 0 :]
    defaults: list[ast.expr | None] = [None] * (
        len([*args.posonlyargs, *args.args]) - len(args.defaults)
    ) + list(args.defaults)
    defaults = defaults[1 if constructor else 0 :]
    named = [
        *zip(positional, defaults, strict=True),
        *zip(args.kwonlyargs, args.kw_defaults, strict=True),
    ]
    return [
        (a.arg, d.value if isinstance(d, ast.Constant) else _UNSET)
        if d is not None
        else (a.arg, _UNSET)
        for a, d in named
    ]


def _argument_tests(
    facts: Facts, function: ast.FunctionDef, params: set[str]
) -> list[tuple[str, ast.expr]]:
    """The site's held tests that read only parameters the function never assigns."""
    assigned = {
        n.id for n in walk(function) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)
    }
    tests = []
    for condition in facts.held:
        if condition.kind not in _TESTED:
            continue
        node = parse_expression(condition.text)
        if node is None:
            continue
        read = names_read(node) - _BUILTINS
        if read and read <= params and not read & assigned:
            tests.append((condition.text, node))
    return tests


def _named(call: ast.Call, name: str) -> bool:
    func = call.func
    return (isinstance(func, ast.Name) and func.id == name) or (
        isinstance(func, ast.Attribute) and func.attr == name
    )


def _ruled_out(
    call: ast.Call, params: list[tuple[str, object]], tests: list[tuple[str, ast.expr]]
) -> tuple[str, str] | None:
    """(what the call gives, the condition it makes false) or None when none is."""
    given = bound_arguments(call, [name for name, _ in params])
    if given is None:
        return None  # `*args`, `**kwargs`: what they hold is not read
    for text, test in tests:
        known = KnownValues({})
        said = []
        for name in sorted(names_read(test) - _BUILTINS):
            value = given.get(name)
            default = dict(params).get(name, _UNSET)
            if value is None and default is not _UNSET:
                known.changed[name] = default
                said.append(f"no {code(name)} (its default is {code(repr(default))})")
            elif isinstance(value, ast.Constant):
                known.changed[name] = value.value
                said.append(code(f"{name}={ast.unparse(value)}"))
            elif value is not None and never_none(value) is not None:
                known.not_none.add(name)
                said.append(code(f"{name}={ast.unparse(value)}"))
        if said and known.truth_of(test) is False:
            return " and ".join(said), text
    return None
