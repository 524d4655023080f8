"""Following a value a user passed to a public call down to the check that reads it.

A check in an internal function (httpx's `urlparse(url)` in the private `_urlparse` module)
often tests a value the user gave a public call (`httpx.URL(url)`, which passes its `url`
on). The callers the linker found say who calls the function; their source, read from the
index, says which of their own arguments they pass, as it is, as the one the check reads
(`call_values`, `passed_on`); `public_caller` follows the first such chain to a public
function (the way out itself is `entry_solution.py`'s).
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Callable

from errdex.ast_walk import walk
from errdex.explain.call_binding import given_argument, positional_index
from errdex.explain.context import function_at
from errdex.explain.inputs import public_name
from errdex.explain.page import Caller
from errdex.extract.module import module_name
from errdex.extract.shapes import SUPER, receiver
from errdex.facts import ConditionKind
from errdex.store.base import Store, StoredSite

MAX_DEPTH = 3
# Conditions on the path that are the check itself (not a context the path runs in).
CHECKS = frozenset({ConditionKind.IF, ConditionKind.ELSE, ConditionKind.EARLY_EXIT})


def public_caller(
    store: Store,
    chosen: StoredSite,
    callers: list[Caller],
    function: str,
    param: str,
    caught: frozenset[str],
    site_function: ast.FunctionDef | None,
) -> tuple[str, str] | None:
    """(the public call, its argument) whose argument reaches `param` of `function` (the
    site's, `site_function` when read) as it is through the chain of callers, at most
    `MAX_DEPTH` calls up."""
    target, name = function, param
    # by keyword only where the function is not read (its parameters' order is not known)
    position = positional_index(site_function, param) if site_function else -1
    for depth in range(1, MAX_DEPTH + 1):
        dotted = f"{chosen.module}.{target}" if depth == 1 else target
        level = [c for c in callers if c.depth == depth and c.calls == dotted]
        passing = None
        for caller in level:
            read = call_values(store, chosen, caller, dotted, (name, position), caught)
            passed = passed_on(*read) if read is not None else None
            if read is not None and passed is not None:
                passing = (caller, passed, read[0])
                break
        if passing is None:
            return None
        caller, argument, caller_function = passing
        if other_values(
            caller_function,
            dotted,
            (name, position),
            functools.partial(named, argument),
        ):
            return None  # it calls the function again with another value: which?
        public = caller_public_path(store, chosen, caller)
        if public is not None:
            return public, argument
        module = module_name(caller.file)[0]
        target, name = f"{module}.{caller.function}", argument
        position = positional_index(caller_function, argument)
    return None


def other_values(
    function: ast.FunctionDef,
    callee: str,
    parameter: tuple[str, int],
    same: Callable[[ast.expr, int], bool],
) -> bool:
    """Whether the caller's `function` calls `callee` anywhere giving the parameter (its
    name and position) a value that is not the one followed (`same` of the value and its
    call's line): `_check(q, "q")` then `_check(seq_lens, "seq_lens")`, and a message
    naming either. A literal is the package's own, not a user's value."""
    for call in calls_at(function, None, callee):
        value = given_argument(call, *parameter)
        if value is None or isinstance(value, ast.Constant):
            continue
        if not same(value, call.lineno):
            return True
    return False


def named(name: str, value: ast.expr, _: int) -> bool:
    """Whether a call's value is the name `name` (`other_values`'s test)."""
    return isinstance(value, ast.Name) and value.id == name


def passed_on(function: ast.FunctionDef, own: list[str], values: list[ast.expr]) -> str | None:
    """The function's own argument among the values a call gives, as it is (never rebound)."""
    for value in values:
        # A value computed from an argument is not followed: what a call made of it
        # (`err = cudaMalloc(size)`, a limit read from the environment) is as often the
        # machine's answer as the argument's shape, and the page would blame the argument.
        if isinstance(value, ast.Name) and value.id in own and not reassigned(function, value.id):
            return value.id
    return None


def call_values(
    store: Store,
    chosen: StoredSite,
    caller: Caller,
    callee: str,
    parameter: tuple[str, int],
    caught: frozenset[str],
    parsed: dict[tuple[str, str, int], ast.FunctionDef | None] | None = None,
) -> tuple[ast.FunctionDef, list[str], list[ast.expr]] | None:
    """(the caller's function, its parameters, the values its calls at the caller's line
    give the parameter (its name and position), not counting those in a `try` that catches
    the error); None when the function is not found. `parsed` keeps the functions read
    (by file, name and line) for the next asks of one page."""
    param, position = parameter
    key = (caller.file, caller.function, caller.line)
    if parsed is not None and key in parsed:
        found = parsed[key]
    else:
        text = store.file_text(chosen.version_id, caller.file)
        found = function_at(text, caller.function.rpartition(".")[2], caller.line)
        if parsed is not None:
            parsed[key] = found
    if found is None:
        return None
    own = [a.arg for a in [*found.args.posonlyargs, *found.args.args, *found.args.kwonlyargs]]
    own = [p for p in own if p not in ("self", "cls")]
    values = []
    for node in calls_at(found, caller.line, callee):
        value = given_argument(node, param, position)
        # no `try` to look for when nothing catches the error (`caught` empty)
        if value is not None and not (caught and _caught_around(found, node, caught)):
            values.append(value)
    return found, own, values


def calls_at(found: ast.FunctionDef, line: int | None, callee: str) -> list[ast.Call]:
    """The calls of `callee` (its dotted path) in the caller's function `found` whose lines
    hold the caller's `line` (None: at any line): by the function's name, a constructor by
    its class's, or a subclass's `super().__init__(...)` by the method's."""
    method = callee.rpartition(".")[2]
    short = callee.rpartition(".")[0].rpartition(".")[2] if method == "__init__" else method
    found_calls = []
    for node in walk(found):
        if not isinstance(node, ast.Call) or (
            line is not None and not node.lineno <= line <= (node.end_lineno or node.lineno)
        ):
            continue
        name = (
            node.func.attr
            if isinstance(node.func, ast.Attribute)
            else getattr(node.func, "id", None)
        )
        # a subclass's `super().__init__(...)` calls the base's constructor by its method
        if name == short or (
            name == method and isinstance(node.func, ast.Attribute) and receiver(node.func) == SUPER
        ):
            found_calls.append(node)
    return found_calls


def passes_keywords(function: ast.FunctionDef, line: int | None, callee: str) -> bool:
    """Whether the function's calls of `callee` at `line` hand on its own `**kwargs`."""
    kwarg = function.args.kwarg
    return kwarg is not None and any(
        k.arg is None and isinstance(k.value, ast.Name) and k.value.id == kwarg.arg
        for call in calls_at(function, line, callee)
        for k in call.keywords
    )


def reassigned(function: ast.FunctionDef, name: str) -> bool:
    return any(
        isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store)
        for n in walk(function)
    )


def caller_public_path(store: Store, chosen: StoredSite, caller: Caller) -> str | None:
    """The public path of a caller: that of a site of its own, or its qualname in a module
    no part of which is private."""
    if not public_name(caller.function):
        return None
    for other in store.list_sites(chosen.project, chosen.version, file=caller.file):
        if other.site.function == caller.function and other.public_path() is not None:
            path = other.public_path()
            return path.removesuffix(".__init__") if path else None
    module = module_name(caller.file)[0]
    if any(p.startswith("_") for p in module.split(".")):
        return None
    return f"{module}.{caller.function}".removesuffix(".__init__")


def roots(text: str) -> set[str]:
    """The names a condition reads, inside comprehensions too (`any(... for c in url)`
    reads `url`), without those it binds."""
    try:
        node = ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return set()
    return names_read(node)


def names_read(node: ast.AST) -> set[str]:
    """The bare names an expression reads (an attribute's root), inside comprehensions
    too, without those they bind."""
    bound = {
        n.id
        for g in walk(node)
        if isinstance(g, ast.comprehension)
        for n in walk(g.target)
        if isinstance(n, ast.Name)
    }
    read = {n.id for n in walk(node) if isinstance(n, ast.Name)}
    return read - bound


def catching(chosen: StoredSite) -> frozenset[str]:
    """The names of the `except` clauses that catch the site's error: its class, its
    bases, and the catch-alls."""
    info = chosen.exception
    names = {"Exception", "BaseException", ""}
    if chosen.site.exception:
        names.add(chosen.site.exception.rpartition(".")[2])
    if info is not None:
        names |= {b.rpartition(".")[2] for b in (info.qualname, *info.bases)}
    return frozenset(names)


def _caught_around(function: ast.FunctionDef, call: ast.Call, caught: frozenset[str]) -> bool:
    """Whether the call sits in the body of a `try` with a clause that catches the error."""
    for node in walk(function):
        if not isinstance(node, ast.Try):
            continue
        if not any(call in walk(statement) for statement in node.body):
            continue
        for handler in node.handlers:
            types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
            names = {"" if t is None else ast.unparse(t).rpartition(".")[2] for t in types}
            if names & caught:
                return True
    return False


def state_of(text: str, param: str) -> bool:
    """Whether a condition reads an attribute of the parameter other than to call a method
    of it (`session.connection_callable`, not `path.startswith(":")`)."""
    try:
        node = ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return False
    called = {id(n.func) for n in walk(node) if isinstance(n, ast.Call)}
    return any(
        isinstance(n, ast.Attribute)
        and isinstance(n.value, ast.Name)
        and n.value.id == param
        and id(n) not in called
        for n in walk(node)
    )
