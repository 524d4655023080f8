"""A guard whose other branch hands the input to a call that fails the same way: no way out.

SQLAlchemy's `eval_name_only` raises `NameError` ("Could not locate name ...") for a name
without a dot that its module does not define; `if "." in name: return
eval_expression(name, ...)` sends a dotted name to `eval_expression`, whose `try` evaluates
the same name and raises `NameError` when that fails. "Make `name` contain '.'" moves the
error, it does not avoid it. The guard only picks which of two lookups runs; both fail on
the same name.

Read statically, one call down: the branch a way out takes starts with a call of the
version's own code (a function of the file or imported by name, a method of the site's
class on `self`); the callee raises the same class with nothing before it that may return
early, either at the top of its body (it always fails: any site) or at the top of the
handler of a `try` (a site under `except` only: its own `try` failed), when that `try`
reads the value the site's `try` read: a parameter handed on to it, or the same attribute
of `self` (`self._queue`: a non-blocking `put` on a full queue raises `Full` as the blocking
one does). One indexed read of the callee's file's sites, one function parsed alone.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from errdex.ast_walk import walk
from errdex.explain.context import Facts, FailingCall, function_at
from errdex.explain.inner_raises import call_target
from errdex.explain.page import ConditionView
from errdex.explain.plain import code
from errdex.explain.refused_ways import if_at, may_leave, stored
from errdex.extract.conditions import dotted_name
from errdex.facts import ConditionKind, SiteKind
from errdex.link.expression_texts import parse_expression
from errdex.store import Store
from errdex.store.base import StoredSite

__all__ = ["FailingCall", "failing_calls", "failing_sentence"]

# The statements whose value a branch may start with a call in.
_CALLING = (ast.Return, ast.Expr, ast.Assign, ast.AnnAssign)
_BRANCHES = frozenset(
    {ConditionKind.IF, ConditionKind.ELIF, ConditionKind.ELSE, ConditionKind.EARLY_EXIT}
)


@dataclass(frozen=True)
class _Site:
    """What the site's own failure reads."""

    exception: str
    params: set[str]  # the parameters its check (or its `try`) reads
    attrs: set[str]  # the attributes of `self` its `try` reads
    under_except: bool  # it fails when its `try` failed


def failing_calls(store: Store, stored: StoredSite, facts: Facts) -> list[FailingCall]:
    """The held guards of the site's function whose other branch calls a function that
    raises the site's exception the same way."""
    site = stored.site
    exception = (site.exception or "").rpartition(".")[2]
    if site.kind is not SiteKind.RAISE or not exception:
        return []
    candidates = [c for c in facts.conditions[:-1] if c.kind in _BRANCHES]
    if not candidates or facts.source_text is None:
        return []  # the last condition is the site's own check: what it reads is the input
    function = facts.site_function()
    if function is None:
        return []
    end = function.end_lineno or function.lineno
    calls = [
        (condition, call)
        for condition in candidates
        if function.lineno <= condition.line <= end
        and (call := _branch_call(condition, facts)) is not None
    ]
    if not calls:
        return []
    own = _site_reads(facts, function, exception)
    found = (_fails_same_way(store, stored, facts, c, call, own) for c, call in calls)
    return [f for f in found if f is not None]


def _site_reads(facts: Facts, function: ast.FunctionDef, exception: str) -> _Site:
    """The parameters the site's own check reads: the `try` it is the handler of (and the
    attributes of `self` that `try` reads), or the test of its last condition."""
    params = set(facts.read.params)
    last = facts.conditions[-1]
    if last.kind == ConditionKind.EXCEPT:
        node = _try_of(function, last.line)
        body: list[ast.stmt] = node.body if node is not None else []
        return _Site(exception, _names(body) & params, _self_attrs(body), True)
    test = parse_expression(last.test)
    read = _names([test]) if test is not None else set()
    return _Site(exception, read & params, set(), False)


def _try_of(function: ast.FunctionDef, line: int) -> ast.Try | None:
    """The `try` whose handler is on `line`."""
    return next(
        (
            n
            for n in walk(function)
            if isinstance(n, ast.Try) and any(h.lineno == line for h in n.handlers)
        ),
        None,
    )


def _names(nodes: list[ast.stmt] | list[ast.expr]) -> set[str]:
    return {
        n.id
        for node in nodes
        for n in walk(node)
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
    }


def _self_attrs(nodes: list[ast.stmt]) -> set[str]:
    """The attributes of `self` the statements read as values (`_queue` of
    `self._queue.get()`), not the methods they call on it (`self.await_(...)`)."""
    called = {id(n.func) for node in nodes for n in walk(node) if isinstance(n, ast.Call)}
    return {
        n.attr
        for node in nodes
        for n in walk(node)
        if isinstance(n, ast.Attribute)
        and isinstance(n.value, ast.Name)
        and n.value.id == "self"
        and id(n) not in called
    }


def _branch_call(condition: ConditionView, facts: Facts) -> ast.Call | None:
    """The call the branch a way out takes starts with (`return f(x)`, `y = f(x)`, `f(x)`)."""
    guard = if_at(facts, condition.line)
    block = (guard.orelse if condition.holds else guard.body) if guard is not None else []
    value = block[0].value if block and isinstance(block[0], _CALLING) else None
    if isinstance(value, ast.Await):
        value = value.value
    if guard is None or not isinstance(value, ast.Call):
        return None
    # the `if` on the line tests what the condition says (compared only for a branch that
    # calls: a long test costs its dump)
    test = parse_expression(condition.test)
    return value if test is not None and ast.dump(guard.test) == ast.dump(test) else None


def _fails_same_way(
    store: Store,
    stored: StoredSite,
    facts: Facts,
    condition: ConditionView,
    call: ast.Call,
    site: _Site,
) -> FailingCall | None:
    called = _called_name(call.func)
    if called is None:
        return None
    target = call_target(called, facts)
    if target is None:
        return None
    path, functions = target
    if path == stored.file and stored.site.function in functions:
        return None  # itself again: a recursion, no other way
    raises = [
        n
        for n in store.neighbours(stored.version_id, path)
        if n.function in functions
        and n.kind is SiteKind.RAISE
        and (n.exception or "").rpartition(".")[2] == site.exception
    ]
    if not raises:
        return None
    text = facts.source_text if path == stored.file else store.file_text(stored.version_id, path)
    passed = _passed(call, site.params)
    for raised in raises:
        callee = function_at(text, raised.function.rpartition(".")[2], raised.line)
        if callee is None:
            continue
        received = _received(call, callee, passed)
        where = _raise_place(callee, raised.line, received)
        if where is None:
            continue
        if isinstance(where, str):  # "always"
            same = site.exception != "NotImplementedError"  # a subclass implements it
        else:
            read_there = _names(where.body) & received
            attrs = site.attrs & _self_attrs(where.body) if called.startswith("self.") else set()
            same = site.under_except and bool(read_there or attrs)
        if same:
            return FailingCall(
                condition.line,
                condition.holds,
                called,
                min(passed) if passed else None,
                path,
                raised.line,
                site.exception,
                where == "always",
            )
    return None


def _called_name(func: ast.expr) -> str | None:
    """`f` of `f(...)`, `self.m` of `self.m(...)`: the calls `call_target` resolves."""
    name = dotted_name(func)
    if name is None or name.count(".") > 1 or ("." in name and not name.startswith("self.")):
        return None
    return name


def _passed(call: ast.Call, inputs: set[str]) -> set[str]:
    """The site's inputs the call passes as they are."""
    values = [*call.args, *(k.value for k in call.keywords if k.arg is not None)]
    return {v.id for v in values if isinstance(v, ast.Name) and v.id in inputs}


def _received(call: ast.Call, callee: ast.FunctionDef, passed: set[str]) -> set[str]:
    """The callee's parameters that receive the passed inputs."""
    positional = [a.arg for a in (*callee.args.posonlyargs, *callee.args.args)]
    if positional and positional[0] in ("self", "cls"):
        positional = positional[1:]
    named = {a.arg for a in (*callee.args.posonlyargs, *callee.args.args, *callee.args.kwonlyargs)}
    out: set[str] = set()
    for index, arg in enumerate(call.args):
        if isinstance(arg, ast.Starred):
            break
        if isinstance(arg, ast.Name) and arg.id in passed and index < len(positional):
            out.add(positional[index])
    for keyword in call.keywords:
        value = keyword.value
        if isinstance(value, ast.Name) and value.id in passed and keyword.arg in named:
            out.add(keyword.arg)
    return out


def _raise_place(callee: ast.FunctionDef, line: int, received: set[str]) -> str | ast.Try | None:
    """ "always" when the raise on `line` is a statement of the callee's body, the `try`
    when it opens a handler of a `try` of the body; None when an early exit, or a statement
    making a received value anew, comes before it, or a test or a loop holds it."""
    for statement in callee.body:
        if statement.lineno <= line <= (statement.end_lineno or statement.lineno):
            if isinstance(statement, ast.Raise):
                return "always"
            if isinstance(statement, ast.Try) and _opens_handler(statement, line):
                return statement
            return None
        if may_leave(statement) or stored(statement) & received:
            return None
    return None


def _opens_handler(statement: ast.Try, line: int) -> bool:
    """Whether `line` is a raise a handler of the `try` reaches before any early exit."""
    for handler in statement.handlers:
        for inner in handler.body:
            if inner.lineno == line and isinstance(inner, ast.Raise):
                return True
            if may_leave(inner):
                break
    return False


def failing_sentence(found: list[FailingCall]) -> str | None:
    """What "What it means" says of the guards whose other branch fails the same way."""
    said = []
    for failing in found[:2]:
        passes = (
            f"passes {code(failing.passed)} to {code(failing.called)}"
            if failing.passed
            else f"calls {code(failing.called)}"
        )
        how = (
            f"which always raises {code(failing.exception)}"
            if failing.always
            else f"which raises {code(failing.exception)} as well when its `try` fails"
        )
        said.append(
            f"The guard at line {failing.line} is no way out: its other branch {passes}, "
            f"{how} ({failing.file}:{failing.raise_line}), so taking that branch moves the "
            "error rather than avoiding it."
        )
    return " ".join(said) or None
