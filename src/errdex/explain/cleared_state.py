"""Ways out of a check on a state a public method of the user's object cleared: make the
call before that one, or on a new object.

SQLAlchemy's `Connection.detach` copies `pool_proxied_connection = self._dbapi_connection`
and raises "Can't detach an invalidated Connection" when it is None. The constructor always
gives it a connection; `invalidate()` is what sets `self._dbapi_connection = None` (and
the class calls `invalidate()` itself when a statement meets a lost connection). No
argument of `detach` decides that: the order of the user's calls does. `call_order` reads
a state compared with a named value (`ClientState.CLOSED`) or a flag set true; this reads
the other half, `self.X is None` or `not self.X` (or a local the function copied `self.X`
into), where a public method sets it None (or False) and leaves it so.

Offered only where the object starts in the state that passes (the constructor assigns
the attribute, never None or False, nor an argument that may be None unless it tested it
first): else a call made before any other meets the check too, and no order of calls is
the whole answer. Only for a class the package hands its users (`users_class`, the top
package's `__all__`, a library's export): on an object only the package holds, the
clearing call is its own bookkeeping, and a page that names an order of calls there names
one no user makes. A method that clears the attribute on its way to a state an earlier
check of the raising method refuses (`close()` leaves the property `closed` true, and
`detach` raises "This Connection is closed" first) is not named: that earlier error is
the one a call after it meets. The class's own private methods that call the clearing
one are named too: the package clears the state itself there, on something the user's
call met.

A check that refuses a property of the object true (`if self.closed: raise` in `detach`,
`closed` returning `self._dbapi_connection is None and not self.__can_reconnect`) is the same
miss one step removed: the property is read with the literals a public method leaves
(`close()` assigns both, so it leaves `closed` true) and with what the constructor leaves
(false; else no order of calls is the whole answer). A method that leaves it unknown
(`invalidate()` clears the connection alone) is not named.
"""

from __future__ import annotations

import ast
from typing import Any

from errdex.ast_walk import walk
from errdex.explain.call_order import (
    BLOCK_ENDS,
    Methods,
    class_methods,
    earlier_refusals,
    is_own,
    kept_assignment,
    may_assign,
    order_fix,
    own_assignments,
    own_calls,
    reached_calls,
    refused_earlier,
    same_kind,
    setting_methods,
    user_method,
)
from errdex.explain.context import Facts
from errdex.explain.library_export import library_export
from errdex.explain.page import ConditionView, Solution
from errdex.explain.plain import code, listed
from errdex.explain.state_gated import top_exported, users_class
from errdex.extract.shapes import is_name, is_not_none, tested_absent
from errdex.facts import ConditionKind, SiteKind
from errdex.link.expression_texts import parse_expression

__all__ = ["cleared_state_solution"]

# the literals a clearing method assigns, by the test that refuses them
_CLEARED = {"none": ("None",), "false": ("None", "False")}
_Def = ast.FunctionDef | ast.AsyncFunctionDef


def cleared_state_solution(conditions: list[ConditionView], facts: Facts) -> Solution | None:
    """ "Call `detach` on your `Connection` object before `invalidate()`: ..."; else None."""
    if facts.stored.site.kind is not SiteKind.RAISE:
        return None  # an `assert` holds the package's own order
    found = user_method(facts)
    if found is None:
        return None
    target, owner, member = found
    copies = _own_copies(facts)
    for condition in conditions:
        if condition.kind is ConditionKind.EARLY_EXIT:
            continue
        tested = _cleared_test(condition.text, copies)
        if tested is None:
            ordered = _property_left(condition, facts, target, owner, member)
            if ordered is not None:
                return ordered
            continue
        attr, values = tested
        text = facts.class_text(owner)
        if text is None or not any(may_assign(text, (attr, v)) for v in values):
            continue  # no method of the class clears it: not parsed
        if not _handed_to_users(facts):
            return None
        methods = class_methods(facts, owner)
        if not _starts_set(methods.get("__init__"), attr, values):
            continue
        earlier = refused_earlier(facts.held, condition)
        cleared: dict[str, str] = {}  # each setter → the value it leaves
        for value in values:
            for name in setting_methods(
                methods, attr, value, member, earlier, facts.lines_may_name
            ):
                if name not in cleared and not _leads_earlier(
                    name, attr, value, methods, facts.held, condition
                ):
                    cleared[name] = value
        setters = same_kind(methods, member, list(cleared))
        if not setters:
            continue
        left = listed(sorted({code(cleared[s]) for s in setters}), "or")
        return Solution(
            text=_text(target, member, attr, setters, methods, left),
            condition=condition.text,
            kind="input",
            fix=order_fix(target, member, setters, facts),
        )
    return None


def _property_left(
    condition: ConditionView, facts: Facts, target: str, owner: str, member: str
) -> Solution | None:
    """ "Call `invalidate` on your `Connection` object before `close()`: it leaves
    `self.closed` true, ...": a check refusing `self.P` true, P a property of the class
    that returns a test of its own attributes (`self._dbapi_connection is None and not
    self.__can_reconnect`), false as the constructor leaves them and true as a public
    method leaves them (`close()` assigns both)."""
    node = parse_expression(condition.text)
    if not (condition.holds and node is not None and is_own(node)):
        return None
    text = facts.class_text(owner)
    if text is None or f"def {node.attr}(" not in text:
        return None  # no method of that name: no property to read
    if not _handed_to_users(facts):
        return None
    methods = class_methods(facts, owner)
    returned = _property_return(methods.get(node.attr))
    if returned is None:
        return None
    expression, copies = returned
    reads = _reads(expression, copies)
    if (
        not reads
        or _truth(expression, _started(methods.get("__init__"), reads), copies) is not False
    ):
        return None  # the object may start in the refused state, or it cannot be told
    earlier = refused_earlier(facts.held, condition)
    reach = reached_calls(methods)
    candidates: list[str] = []
    for attr in sorted(reads):
        for value in ("None", "False", "True"):
            for name in setting_methods(
                methods, attr, value, member, earlier, facts.lines_may_name
            ):
                if name not in candidates:
                    candidates.append(name)
    setters = []
    for name in candidates:
        ran = [m for m in (name, *sorted(reach.get(name, ()))) if m in methods]
        known: dict[str, Any] = {}
        for attr in reads:
            left = _left_literal([methods[m] for m in ran], attr)
            if left is not None:
                known[attr] = left[0]
        if _truth(expression, known, copies) is True and not _leads_earlier_to(
            ran, methods, facts.held, condition, {}
        ):
            setters.append(name)
    setters = same_kind(methods, member, setters)
    if not setters:
        return None
    return Solution(
        text=_text(target, member, f"{node.attr}", setters, methods, "true", kind="leaves"),
        condition=condition.text,
        kind="input",
        fix=order_fix(target, member, setters, facts),
    )


class _Given:
    """A value the constructor gives that is none of the literals (not None, not False)."""


def _started(init: _Def | None, reads: set[str]) -> dict[str, Any]:
    """What the constructor leaves each attribute at: its literal, or a value that is none
    (`_Given`) where it assigns one that is never None or False (`_starts_set`)."""
    known: dict[str, Any] = {}
    if init is None:
        return known
    for attr in reads:
        left = _left_literal([init], attr)
        if left is not None:
            known[attr] = left[0]
        elif _starts_set(init, attr, _CLEARED["false"]):
            known[attr] = _Given()
    return known


def _leads_earlier_to(
    ran: list[str],
    methods: Methods,
    held: list[ConditionView],
    state: ConditionView,
    given: dict[str, Any],
) -> bool:
    """Whether the methods run leave true a property an earlier test of the path refuses
    (with the attributes of `given` at those values): a call after them meets that earlier
    error, not this one."""
    for refused in earlier_refusals(held, state):
        returned = _property_return(methods.get(refused.attr))
        if returned is None:
            continue
        expression, copies = returned
        known = dict(given)
        for read in _reads(expression, copies):
            left = _left_literal([methods[m] for m in ran], read) if read not in given else None
            if left is not None:
                known[read] = left[0]
        if _truth(expression, known, copies) is True:
            return True
    return False


def _handed_to_users(facts: Facts) -> bool:
    """Whether the package hands the site's class to its users (see the module's words)."""
    return users_class(facts) or top_exported(facts) or library_export(facts)


def _own_copies(facts: Facts) -> dict[str, str]:
    """Each local of the site's function bound to `self.X` as it is (`pool_proxied_connection
    = self._dbapi_connection`) → `X`."""
    found = {}
    for binding in facts.bindings:
        if binding.origin != "local" or not binding.value.startswith("self."):
            continue
        attr = binding.value[len("self.") :]
        if attr.isidentifier():
            found[binding.name] = attr
    return found


def _cleared_test(text: str, copies: dict[str, str]) -> tuple[str, tuple[str, ...]] | None:
    """(`X`, the values that fail it) of `self.X is None` (None) or `not self.X` (None,
    False), `self.X` written as such or as a local copied from it."""
    node = parse_expression(text)
    absent = tested_absent(node) if node is not None else None
    attr = _own_name(absent, copies) if absent is not None else None
    if attr is None:
        return None
    return attr, _CLEARED["false" if isinstance(node, ast.UnaryOp) else "none"]


def _own_name(node: ast.expr, copies: dict[str, str]) -> str | None:
    if is_own(node):
        return node.attr
    if isinstance(node, ast.Name):
        return copies.get(node.id)
    return None


def _starts_set(init: _Def | None, attr: str, values: tuple[str, ...]) -> bool:
    """Whether the constructor gives `self.attr` a value that passes: it assigns it, never
    one of the failing literals, and a parameter that may be None only where it tested it
    first (`if connection is None: ... else: self._dbapi_connection = connection`)."""
    if init is None:
        return False
    parents = {child: parent for parent in walk(init) for child in ast.iter_child_nodes(parent)}
    nullable = _none_defaults(init)
    assigned = False
    for statement, value in own_assignments(init, attr):
        assigned = True
        if isinstance(value, ast.Constant) and ast.unparse(value) in values:
            return False
        if (
            isinstance(value, ast.Name)
            and value.id in nullable
            and not _tested_first(statement, value.id, parents)
        ):
            return False
    return assigned


def _none_defaults(function: _Def) -> set[str]:
    """The parameters of `function` whose default is None."""
    args = function.args
    positional = [*args.posonlyargs, *args.args]
    defaulted = positional[len(positional) - len(args.defaults) :]
    found = {
        a.arg
        for a, d in zip(defaulted, args.defaults, strict=True)
        if isinstance(d, ast.Constant) and d.value is None
    }
    found |= {
        a.arg
        for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True)
        if isinstance(d, ast.Constant) and d.value is None
    }
    return found


def _tested_first(statement: ast.AST, name: str, parents: dict[ast.AST, ast.AST]) -> bool:
    """Whether `statement` sits where `name` is known not to be None: the `else` of `if name
    is None:` (or `if not name:`), or the body of `if name is not None:` or `if name:`."""
    child, parent = statement, parents.get(statement)
    while parent is not None:
        if isinstance(parent, ast.If):
            test = parent.test
            absent, present = tested_absent(test), is_not_none(test)
            if child in parent.orelse and absent is not None and is_name(absent, name):
                return True
            if child in parent.body and (
                is_name(test, name) or (present is not None and is_name(present, name))
            ):
                return True
        child, parent = parent, parents.get(parent)
    return False


def _leads_earlier(
    name: str,
    attr: str,
    value: str,
    methods: Methods,
    held: list[ConditionView],
    state: ConditionView,
) -> bool:
    """Whether the setter leaves true a property an earlier test of the path refuses (`not
    self.closed` before the check, `closed` returning `self._dbapi_connection is None and
    not self.__can_reconnect`, and `close()` assigning both): a call after it meets that
    earlier check's error, not this one."""
    reach = reached_calls(methods)
    ran = [name, *(m for m in reach.get(name, ()) if m in methods)]
    return _leads_earlier_to(ran, methods, held, state, {attr: ast.literal_eval(value)})


def _property_return(method: _Def | None) -> tuple[ast.expr, dict[str, str]] | None:
    """(the expression returned, its locals copied from `self.X`) of a property whose body
    is a docstring, such copies and one `return`; None otherwise."""
    if method is None or not any(
        isinstance(d, ast.Name) and d.id == "property" for d in method.decorator_list
    ):
        return None
    copies: dict[str, str] = {}
    for statement in method.body:
        if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):
            continue  # the docstring
        if (
            isinstance(statement, ast.Assign)
            and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Name)
            and is_own(statement.value)
        ):
            copies[statement.targets[0].id] = statement.value.attr
            continue
        if isinstance(statement, ast.Return) and statement.value is not None:
            return statement.value, copies
        return None
    return None


def _reads(expression: ast.expr, copies: dict[str, str]) -> set[str]:
    found = {n.attr for n in walk(expression) if is_own(n)}
    return found | {
        copies[n.id] for n in walk(expression) if isinstance(n, ast.Name) and n.id in copies
    }


def _left_literal(methods: list[_Def], attr: str) -> tuple[Any] | None:
    """(the literal) that the methods leave `self.attr` at, when one of them assigns it one
    and keeps it (`self.__can_reconnect = False`); None when none does."""
    for method in methods:
        for _statement, value in own_assignments(method, attr):
            if isinstance(value, ast.Constant) and kept_assignment(
                method, attr, ast.unparse(value)
            ):
                return (value.value,)
    return None


_UNKNOWN = object()


def _truth(node: ast.expr, known: dict[str, Any], copies: dict[str, str]) -> bool | None:
    """The truth of `node` with `self.X` read from `known`; None when it cannot be told."""
    value = _value(node, known, copies)
    return None if value is _UNKNOWN else bool(value)


def _value(node: ast.expr, known: dict[str, Any], copies: dict[str, str]) -> Any:
    if isinstance(node, ast.Constant):
        return node.value
    if is_own(node) or isinstance(node, ast.Name):
        name = node.attr if isinstance(node, ast.Attribute) else copies.get(node.id, "")
        return known.get(name, _UNKNOWN)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        inner = _truth(node.operand, known, copies)
        return _UNKNOWN if inner is None else not inner
    if isinstance(node, ast.BoolOp):
        truths = [_truth(v, known, copies) for v in node.values]
        decisive = isinstance(node.op, ast.Or)  # one true decides an `or`, one false an `and`
        if decisive in truths:
            return decisive
        return _UNKNOWN if None in truths else not decisive
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        left = _value(node.left, known, copies)
        right = _value(node.comparators[0], known, copies)
        if left is _UNKNOWN or right is _UNKNOWN:
            return _UNKNOWN
        op = node.ops[0]
        if isinstance(op, ast.Is | ast.IsNot):
            return (left is right) == isinstance(op, ast.Is)
        if isinstance(op, ast.Eq | ast.NotEq):
            return (left == right) == isinstance(op, ast.Eq)
    return _UNKNOWN


def _text(
    target: str,
    member: str,
    attr: str,
    setters: list[str],
    methods: Methods,
    left: str,
    kind: str = "sets",
) -> str:
    owner = target.rpartition(".")[2]
    named = [code(f"{m}()") for m in setters if m not in BLOCK_ENDS]
    ends = [f"the end of its {code(BLOCK_ENDS[m])} block" for m in setters if m in BLOCK_ENDS]
    by = " or ".join([*named, *ends])
    each = "each" if len(setters) > 1 else "it"
    # "sets `self.X` to None"; a property: "leaves `self.closed` true"
    done = f"sets {code('self.' + attr)} to {left}"
    if kind == "leaves":
        done = f"leaves {code('self.' + attr)} {left}"
    text = (
        f"Call {code(member)} on your {code(owner)} object before {by}: {each} {done}, and "
        f"{code(member)} refuses an object in that state."
    )
    called = [s for s in setters if s not in BLOCK_ENDS]
    inner = _own_callers(methods, called)
    if inner:
        calls = listed([code(f"{s}()") for s in called], "or")
        text += f" {code(owner)} calls {calls} itself too, in {inner}."
    return text + f" For a call after it, use a new {code(owner)} object ({code(target)})."


def _own_callers(methods: Methods, setters: list[str]) -> str:
    """ "`_handle_dbapi_exception` (line 2366)": the class's private methods that call one
    of the setters on `self`."""
    found = []
    for name, method in methods.items():
        if not name.startswith("_") or name.startswith("__"):
            continue
        if not own_calls(method) & set(setters):
            continue
        line = next(
            n.lineno
            for n in walk(method)
            if isinstance(n, ast.Call) and is_own(n.func) and n.func.attr in setters
        )
        found.append(f"{code(name)} (line {line})")
    return listed(found[:3], "and")
