"""Ways out of a check on a state a public method of the user's object put it in.

httpx's `Client.send` raises when `self._state == ClientState.CLOSED`; `close()` and
`__exit__` (the end of a `with` block) are what assign `self._state = ClientState.CLOSED`.
No argument of `send` decides that: the order of the user's own calls does. When the
condition compares an attribute of `self` with a value (`==`, `is`) that public methods of
the site's class assign it, read from the class in the site's file, the way out is to make
the call that raised before those, or on a new object of the class.
"""

from __future__ import annotations

import ast
import re
import textwrap
from collections.abc import Callable, Iterator
from typing import TypeGuard, TypeVar

from errdex.ast_walk import is_generator, walk
from errdex.explain.context import Facts, class_in_file, kept_module, may_name
from errdex.explain.declared_fields import base_name
from errdex.explain.fix_forms import instance_name
from errdex.explain.imported_class import module_kept_text
from errdex.explain.input_nodes import conjuncts
from errdex.explain.inputs import public_name
from errdex.explain.name_forms import normal_form
from errdex.explain.page import ConditionView, ExampleFix, Solution
from errdex.explain.plain import code, listed, your_values
from errdex.explain.user_call import method_arguments, required_arguments, user_call
from errdex.extract.module import is_type_checking, module_name, resolve_relative
from errdex.extract.shapes import is_name, is_not_none, own_attributes_set
from errdex.facts import ConditionKind, SiteKind
from errdex.link.expression_texts import parse_expression

# the methods that open and close a `with` block, and the statement each is called by
BLOCK_STARTS = {"__enter__": "with", "__aenter__": "async with"}
BLOCK_ENDS = {"__exit__": "with", "__aexit__": "async with"}
T = TypeVar("T")
Methods = dict[str, ast.FunctionDef | ast.AsyncFunctionDef]


def state_order_solution(conditions: list[ConditionView], facts: Facts) -> Solution | None:
    """ "Call `send` before `close()`": the public methods that assign the attribute the
    compared value, for a public method of a public class; else None."""
    checks = state_checks(conditions, facts, state_test, may_assign)
    for target, member, condition, state, methods in checks:
        earlier = refused_earlier(facts.held, condition)
        setting = setting_methods(methods, *state, member, earlier, facts.lines_may_name)
        setters = same_kind(methods, member, setting)
        if setters:
            return _solution(target, member, setters, state, condition, facts)
    return None


def state_checks(
    conditions: list[ConditionView],
    facts: Facts,
    test: Callable[[str], T | None],
    needs: Callable[[str, T], bool] | None = None,
    operators: frozenset[str] = frozenset(),
) -> Iterator[tuple[str, str, ConditionView, T, Methods]]:
    """(the class's public path, the method, the condition, what `test` reads of it, the
    class's methods) of each condition (no early exit) `test` reads a state of, for a site
    in a public method of the user's object (`user_method`, with the `operators` it
    allows). With `needs` (whether the class's text may hold what the caller looks for in
    its methods), a state the text cannot hold is passed over, the class not parsed for
    it."""
    found = user_method(facts, operators)
    if found is None:
        return
    target, owner, member = found
    for condition in conditions:
        if condition.kind is ConditionKind.EARLY_EXIT:
            continue
        state = test(condition.text)
        if state is None:
            continue
        if needs is not None:
            text = facts.class_text(owner)
            if text is None or not needs(text, state):
                continue  # (no class: no method sets it either)
        yield target, member, condition, state, class_methods(facts, owner)


def user_method(
    facts: Facts, operators: frozenset[str] = frozenset()
) -> tuple[str, str, str] | None:
    """(the class's public path, the class, the method) of a site in a public method (no
    operator but the `operators` asked for, no constructor) of a public class the user
    reaches; else None."""
    site = facts.stored.site
    owner, _, member = site.function.rpartition(".")
    if not owner or "." in owner or owner != site.class_name or not public_name(site.function):
        return None
    if member.startswith("__") and member not in operators:
        return None  # an operator or the constructor: no call made after another
    call = user_call(facts)
    if call is None or call[1] is None:
        return None
    return call[0], owner, member


def _solution(
    target: str,
    member: str,
    setters: list[str],
    state: tuple[str, str],
    condition: ConditionView,
    facts: Facts,
) -> Solution:
    owner = target.rpartition(".")[2]
    named = [code(f"{m}()") for m in setters if m not in BLOCK_ENDS]
    ends = [f"the end of its {code(BLOCK_ENDS[m])} block" for m in setters if m in BLOCK_ENDS]
    by = " or ".join([*named, *ends])
    attr, value = state
    each = "each" if len(setters) > 1 else "it"
    text = (
        f"Call {code(member)} on your {code(owner)} object before {by}: {each} sets "
        f"{code('self.' + attr)} to {code(value)}, and {code(member)} refuses an object in "
        f"that state. For a call after it, make a new {code(target)}."
    )
    return Solution(
        text=text,
        condition=condition.text,
        kind="input",
        fix=order_fix(target, member, setters, facts),
    )


def order_fix(target: str, member: str, setters: list[str], facts: Facts) -> ExampleFix | None:
    """`client.close()` then `client.send(REQUEST)` → the other way round; after a `with`
    block, the call moved into it. A coroutine's call is awaited."""

    methods = class_methods(facts, target.rpartition(".")[2])
    required = required_arguments(facts, "")
    if required is None:
        return None
    owner = target.rpartition(".")[2]
    instance = instance_name(owner)
    made = f"{instance}.{member}({', '.join(required)})"
    method = methods.get(member)
    if method is not None and is_generator(method):
        # a generator's checks run when it is iterated, not when it is called
        loop = "async for" if isinstance(methods.get(member), ast.AsyncFunctionDef) else "for"
        made = f"{loop} item in {made}:\n    ..."
    else:
        made = f"{awaited(methods, member)}{made}"
    named = [m for m in setters if m not in BLOCK_ENDS]
    note = f"`{instance}` is your {code(owner)} object ({code(target)})."
    # the setter is called with its own required arguments, named as the user's values
    wanted = method_arguments(methods[named[0]]) if named and named[0] in methods else []
    values = [r.rpartition("=")[2] for r in [*required, *wanted]]
    if values:
        note += f" {your_values(values)}"
    if named:
        closed = f"{awaited(methods, named[0])}{instance}.{named[0]}({', '.join(wanted)})"
        return ExampleFix(before=f"{closed}\n{made}", after=f"{made}\n{closed}", note=note)
    block = BLOCK_ENDS[setters[0]]
    module = target.rpartition(".")[0]
    head = f"from {module} import {owner}\n\n" if module else ""
    opened = f"{block} {owner}() as {instance}:\n    ...\n"
    return ExampleFix(
        before=f"{head}{opened}{made}",
        after=f"{head}{opened}" + textwrap.indent(made, "    "),
        note=note + f" Keep {code(owner + '(...)')}'s own arguments as they are.",
    )


def awaited(methods: Methods, name: str) -> str:
    """`await ` before a call of the class's coroutine method `name`."""
    return "await " if isinstance(methods.get(name), ast.AsyncFunctionDef) else ""


def same_kind(methods: Methods, own: str, setters: list[str]) -> list[str]:
    """Of a class with both a sync and an async way to close (`close()`, `aclose()`), the
    one of the same kind as the method that raises."""
    is_async = isinstance(methods.get(own), ast.AsyncFunctionDef)
    kept = [
        m
        for m in setters
        if m in BLOCK_ENDS
        or m not in methods
        or isinstance(methods[m], ast.AsyncFunctionDef) == is_async
    ]
    return kept or setters


def state_test(text: str) -> tuple[str, str] | None:
    """(`_state`, `ClientState.CLOSED`) of `self._state == ClientState.CLOSED` or `is`: an
    attribute compared with a named value (an enum member, a module constant); (`_closed`,
    `True`) of a bare `self._closed`."""
    found = compared_state(text)
    return found[:2] if found is not None and not found[2] else None


def compared_state(text: str) -> tuple[str, str, bool] | None:
    """`state_test`'s state and whether the value is the only one let through: (`_state`,
    `ClientState.UNOPENED`, True) of `self._state != ClientState.UNOPENED` (or `is not`),
    False of `==`, `is` and a bare `self._closed` (`True`)."""
    try:
        node = ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return None
    if is_own(node):  # `if self._closed:`, which `close()` sets True
        return node.attr, "True", False
    if not (isinstance(node, ast.Compare) and len(node.ops) == 1 and is_own(node.left)):
        return None
    right = node.comparators[0]
    if not (isinstance(right, ast.Attribute) and isinstance(right.value, ast.Name)):
        return None  # a member of a named class or module: a state, not data
    if isinstance(node.ops[0], ast.NotEq | ast.IsNot):
        return node.left.attr, ast.unparse(right), True
    if isinstance(node.ops[0], ast.Eq | ast.Is):
        return node.left.attr, ast.unparse(right), False
    return None


def may_assign(text: str, state: tuple[str, str]) -> bool:
    """Whether source `text` may hold `self.attr = value` of a `state_test` state
    (`kept_assignment`): `self.attr` assigned on a line that goes on with the value's last name, or
    that the statement goes on past (an open bracket, a `\\`). A class of 6,000 lines that
    tests `self.x` but only ever sets it from a call is not parsed for it."""
    attr, value = state
    text = normal_form(text)  # (the parser reads `ｓelf` as `self`)
    last = re.compile(rf"(?<!\w){re.escape(value.rpartition('.')[2])}(?!\w)")
    at = text.find(attr)
    while at != -1:
        end = at + len(attr)
        assigned = _ASSIGNED.match(text, end)
        if assigned is not None and _after_self(text, at):
            line_end = text.find("\n", assigned.end())
            rest = text[assigned.end() : line_end if line_end != -1 else len(text)]
            if last.search(rest) or _goes_on(rest):
                return True
        at = text.find(attr, at + 1)
    return False


# what comes after `self.attr` assigned (not compared: `==`), its target maybe in brackets
_ASSIGNED = re.compile(r"(?!\w)[\s\\)]*=(?!=)")
_WORD = re.compile(r"\w")


def _after_self(text: str, at: int) -> bool:
    """Whether `self.` (with blanks, line breaks or brackets about the dot) comes right
    before `at`."""
    at = _back_over(text, at, " \t\f\n\r\\")
    if at < 1 or text[at - 1] != ".":
        return False
    at = _back_over(text, at - 1, " \t\f\n\r\\)")
    return (
        at >= 4
        and text.startswith("self", at - 4)
        and (at == 4 or _WORD.match(text, at - 5) is None)
    )


def _back_over(text: str, at: int, characters: str) -> int:
    while at >= 1 and text[at - 1] in characters:
        at -= 1
    return at


def _goes_on(rest: str) -> bool:
    """Whether a statement goes on past the end of the line `rest` ends."""
    opened = sum(rest.count(c) for c in "([{") > sum(rest.count(c) for c in ")]}")
    return opened or rest.rstrip().endswith("\\") or '"""' in rest or "'''" in rest


def is_own(node: ast.AST) -> TypeGuard[ast.Attribute]:
    """`self.X`."""
    return (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
    )


def class_methods(facts: Facts, owner: str) -> Methods:
    found = class_in_file(facts, owner)
    body = found.body if found is not None else []
    return {m.name: m for m in body if isinstance(m, ast.FunctionDef | ast.AsyncFunctionDef)}


def refused_earlier(conditions: list[ConditionView], state: ConditionView) -> set[str]:
    """The attributes an earlier test on the path finds false (`if self.is_stream_consumed:
    raise StreamConsumed()` before `if self.is_closed:`): a method that sets one of them true
    leads to that earlier error, never to this one."""
    return {node.attr for node in earlier_refusals(conditions, state)}


def earlier_refusals(
    conditions: list[ConditionView], state: ConditionView
) -> Iterator[ast.Attribute]:
    """The `self.X` of each test on the path before `state` that finds it false (`not
    self.X`)."""
    for condition in conditions:
        if condition.line >= state.line:
            continue
        node = parse_expression(condition.text)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not) and is_own(node.operand):
            yield node.operand


def setting_methods(
    methods: Methods,
    attr: str,
    value: str,
    own: str,
    earlier: set[str] = frozenset(),  # type: ignore[assignment]
    may_name: Callable[[ast.AST, str], bool] = lambda node, word: True,
) -> list[str]:
    """The public methods (and the `with` block's end) that assign `self.attr = value`,
    directly or through a public method of the class they call; none when the method that
    raises sets it too (a single-use object: no order of calls avoids it). A method that
    sets true an attribute an earlier test refuses (`earlier`) leads to that test's error:
    it counts for neither. (`may_name`: whether a method's text may name a word; one that
    cannot is not walked for it.)"""
    # a decorated method (SQLAlchemy's `@_generative`) may set it on a copy it returns
    assigning = {
        name
        for name, m in methods.items()
        if may_name(m, attr)
        and kept_assignment(m, attr, value)
        and not (m.decorator_list and name != own)
    }
    if not assigning:
        return []  # no method sets it: none of the walks below can find one
    methods = {
        name: m
        for name, m in methods.items()
        if not any(may_name(m, e) and kept_assignment(m, e, "True") for e in earlier)
    }
    direct = {name for name in methods if name in assigning}
    through = {
        name
        for name, m in methods.items()
        if name not in direct and any(may_name(m, d) for d in direct) and own_calls(m) & direct
    }
    found = [
        name for name in methods if name in direct | through and name != own and user_called(name)
    ]
    if own in direct | through or (own in methods and own_calls(methods[own]) & direct):
        return []  # a use that sets it itself: once used, any later use refuses it
    return found


def kept_assignment(method: ast.AST, attr: str, value: str) -> bool:
    """Whether the method leaves `self.attr` at `value` when it returns: assigns it so,
    and sets it back neither in a `finally` around nor in a statement after (`compile`
    sets `self._warming = True` only around its own call of the kernel: no order of the
    user's calls leaves it set)."""
    body = getattr(method, "body", None)
    return isinstance(body, list) and _kept(body, attr, value, restored=False)


def _kept(block: list[ast.stmt], attr: str, value: str, restored: bool) -> bool:
    """Whether a statement of `block` (or of the blocks in it) assigns `self.attr = value`
    that nothing after it sets back (`restored`: something after the block does)."""
    for index, statement in enumerate(block):
        later = restored or any(_sets_back(s, attr, value) for s in block[index + 1 :])
        if isinstance(statement, ast.Assign) and _assigned(statement, attr, value):
            if not later:
                return True
            continue
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue  # runs when called, not as the method runs
        finally_resets = isinstance(statement, ast.Try | ast.TryStar) and any(
            _sets_back(s, attr, value) for s in statement.finalbody
        )
        for name in ("body", "orelse", "handlers", "finalbody", "cases"):
            for inner in getattr(statement, name, None) or []:
                guarded = later or (finally_resets and name != "finalbody")
                nested = (
                    inner.body if isinstance(inner, ast.ExceptHandler | ast.match_case) else [inner]
                )
                if _kept(nested, attr, value, guarded):
                    return True
    return False


def _assigned(node: ast.Assign, attr: str, value: str) -> bool:
    # the targets first: unparsing every assigned value cost more than the rest
    return any(is_own(t) and t.attr == attr for t in node.targets) and (
        ast.unparse(node.value) == value
    )


def _sets_back(statement: ast.stmt, attr: str, value: str) -> bool:
    """Whether a statement assigns `self.attr` another value than `value`, as a statement
    of its own or in the `finally` of a `try`: it runs whatever the path."""
    if isinstance(statement, ast.Assign):
        return any(is_own(t) and t.attr == attr for t in statement.targets) and (
            ast.unparse(statement.value) != value
        )
    if isinstance(statement, ast.Try | ast.TryStar):
        return any(_sets_back(s, attr, value) for s in statement.finalbody)
    return False


def user_called(name: str) -> bool:
    """Whether the user calls the method: a public one, or a `with` block's end (the end
    of the block calls it)."""
    return not name.startswith("_") or name in BLOCK_ENDS


def reached_calls(methods: Methods) -> dict[str, set[str]]:
    """Each method → the methods of the class it calls on `self`, at any depth."""
    direct = {n: own_calls(m) & set(methods) for n, m in methods.items()}
    reach: dict[str, set[str]] = {}
    for name in methods:
        seen: set[str] = set()
        stack = list(direct[name])
        while stack:
            called = stack.pop()
            if called not in seen:
                seen.add(called)
                stack.extend(direct.get(called, ()))
        reach[name] = seen
    return reach


def own_assignments(method: ast.AST, attr: str) -> Iterator[tuple[ast.stmt, ast.expr]]:
    """(statement, value) of each `self.attr = value` (or annotated) in a method."""
    for node in walk(method):
        if isinstance(node, ast.Assign | ast.AnnAssign):
            for name, value in own_attributes_set(node):
                if name == attr:
                    yield node, value


def own_calls(method: ast.AST) -> set[str]:
    """The names of the `self.X(...)` calls a method makes."""
    return {
        node.func.attr for node in walk(method) if isinstance(node, ast.Call) and is_own(node.func)
    }


def made_with_solution(conditions: list[ConditionView], facts: Facts) -> Solution | None:
    """ "Don't call `subquery()` or `cte()` on a `Query` made with `from_statement()`": a
    method of a public class refusing an object whose `self._x` is set (`is not None`, or
    not empty: `if self._return_defaults:`, one side of an `or`), when public methods of
    the class set it and the user's call reaches the check: the method itself when it is
    public, else the public methods that call it (or name it in their decorators); else
    None. A setter hands on its own argument (`self._statement = statement`, for a private
    check's `is not None`), or, for a `raise`, is a step of a chain (it returns `self`) that
    assigns it a value or adds to it, where the class or its base in the file starts it
    unset (`_limit_clause = None`, `_where_criteria = ()`). Methods of the bases the file
    defines count as the class's (`Insert.from_select` refuses what `ValuesBase.values()`
    set)."""
    site = facts.stored.site
    owner, _, member = site.function.rpartition(".")
    public = facts.stored.public_path()
    if public is None or not owner or "." in owner or owner != site.class_name:
        return None
    if member.startswith("__"):
        return None  # an operator or the constructor: no call to leave out
    raised = site.kind in (SiteKind.RAISE, SiteKind.HELPER)  # (an `assert`: its own order)
    for condition in conditions:
        if condition.kind is ConditionKind.EARLY_EXIT:
            continue
        tests = _set_tests(condition.text)
        if not tests:
            continue
        text = facts.class_text(owner)
        tests = [t for t in tests if text is not None and may_name(text, t[0])]
        if not tests:
            continue  # no method of it sets the attribute: the class is not parsed
        family = _family(facts, owner)
        methods: Methods = {}
        for cls in reversed(family):  # a subclass's method in place of its base's
            methods.update(_methods_of(cls))
        # plain public methods: a constructor or an operator is no call to leave out
        plain = {n: m for n, m in methods.items() if not n.startswith("_")}
        mentions = facts.lines_may_name  # a method whose text lacks the word is not walked
        attrs: list[str] = []
        setters: list[str] = []
        for attr, not_none in tests:
            # a private check's `is not None` (the rule's first form): an argument handed on
            handed = not_none and member.startswith("_")
            found = [
                name
                for name, method in plain.items()
                if mentions(method, attr)
                and (
                    (handed and _sets(method, attr))
                    or (
                        (handed or raised)
                        and _builds(method, attr)
                        and _starts_unset(family, methods, attr)
                    )
                )
            ]
            if found:
                attrs.append(attr)
                setters.extend(s for s in found if s not in setters)
        if not member.startswith("_"):
            callers = [member]  # the user's own call refuses it
        else:
            callers = [
                name
                for name, method in plain.items()
                if name not in setters and mentions(method, member) and _calls(method, member)
            ]
        if not setters or not callers or member in setters:
            continue
        return Solution(
            text=_made_with_text(site.function, owner, member, attrs, setters, callers),
            condition=condition.text,
            kind="input",
        )
    return None


_SHOWN = 4


def _made_with_text(
    function: str, owner: str, member: str, attrs: list[str], setters: list[str], callers: list[str]
) -> str:
    made = _some([code(f"{s}()") for s in setters])
    if member in callers:
        used = by = code(f"{member}()")
        them = "it"
    else:
        used = _some([code(f"{c}()") for c in callers])
        them = "them" if len(callers) > 1 else "it"
        by = f"{code(function)}, which {'those call' if len(callers) > 1 else 'it calls'},"
    if len(attrs) == 1:
        sets = f"{made} sets {code('self.' + attrs[0])}"
    else:
        sets = f"each of those sets one of {_some([code('self.' + a) for a in attrs])}"
    without = made if len(setters) == 1 else "any of those"
    a = "an" if owner[:1] in "AEIOU" else "a"
    return (
        f"Don't call {used} on {a} {code(owner)} made with {made}: {sets}, and {by} refuses an "
        f"object that has one. Make it without {without} to call {them}."
    )


def _some(shown: list[str]) -> str:
    """ "`a()` or `b()`", four at most ("`a()`, `b()`, `c()`, `d()` or the like")."""
    if len(shown) > _SHOWN:
        return ", ".join(shown[:_SHOWN]) + " or the like"
    return listed(shown, "or")


def _set_tests(text: str) -> list[tuple[str, bool]]:
    """(`_statement`, True) of `self._statement is not None`, (`_return_defaults`, False)
    of a bare `self._return_defaults`; each side of an `or` that is one of them (the
    others, `order_by and self._order_by_clauses`, are not read)."""
    if "self." not in text:
        return []  # most are not: no parse of them
    node = parse_expression(text)
    if node is None:
        return []
    sides = node.values if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or) else [node]
    found = []
    for side in sides:
        tested = is_not_none(side)
        if is_own(side):
            found.append((side.attr, False))
        elif tested is not None and is_own(tested):
            found.append((tested.attr, True))
    return found


def _params(method: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """A method's named parameters but `self` and `cls`."""
    args = method.args
    return {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]} - {"self", "cls"}


def _sets(method: ast.FunctionDef | ast.AsyncFunctionDef, attr: str) -> bool:
    """Whether a method assigns `self.attr` one of its own arguments (`self._statement =
    statement`): what the user handed it, not a failure it recorded (`self._error = exc`)."""
    params = _params(method)
    return any(
        isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Name)
        and node.value.id in params
        and any(is_own(target) and target.attr == attr for target in node.targets)
        for node in walk(method)
    )


def _builds(method: ast.FunctionDef | ast.AsyncFunctionDef, attr: str) -> bool:
    """Whether a step of a chain (a method that returns `self`, as `limit()` does) sets
    `self.attr`: assigns it `True` or a value it makes (`_offset_or_limit_clause(limit)`,
    not a constant, an empty literal or a choice that may be one), or adds to it (`+=
    (criterion,)`). The object the user goes on with then carries it."""
    args = method.args.posonlyargs + method.args.args
    if (
        not args
        or args[0].arg != "self"
        or any(
            isinstance(d, ast.Name) and d.id in ("staticmethod", "classmethod")
            for d in method.decorator_list
        )
    ):
        return False  # a factory's local named `self` is another object
    nodes = list(walk(method))
    if not any(
        isinstance(n, ast.Return) and n.value is not None and is_name(n.value, "self")
        for n in nodes
    ):
        return False
    for _node, value in own_assignments(method, attr):
        if isinstance(value, ast.Constant) and value.value is True:
            return True
        if not isinstance(value, ast.Constant | ast.IfExp | ast.BoolOp) and not _unset(value):
            return True  # what it was given, or made of it (`immutabledict(values)`)
    return any(
        isinstance(n, ast.AugAssign) and is_own(n.target) and n.target.attr == attr for n in nodes
    )


# the values an attribute starts with that a set test finds unset
_UNSET = (None, False, (), "", 0)


def _family(facts: Facts, owner: str) -> list[ast.ClassDef]:
    """The class and the bases of it the site's file defines, the class first (a few
    classes up)."""
    found = class_in_file(facts, owner)
    family = [found] if found is not None else []
    for cls in family:
        if len(family) >= _MAX_FAMILY:
            break
        for base in cls.bases:
            name = base_name(base)
            up = class_in_file(facts, name) if name is not None and name != cls.name else None
            if up is not None and all(up is not c for c in family):
                family.append(up)
    return family[:_MAX_FAMILY]


_MAX_FAMILY = 6


def _methods_of(cls: ast.ClassDef) -> Methods:
    return {m.name: m for m in cls.body if isinstance(m, ast.FunctionDef | ast.AsyncFunctionDef)}


def _starts_unset(family: list[ast.ClassDef], methods: Methods, attr: str) -> bool:
    """Whether the class (or the first of its bases to give it one) starts `attr` unset
    (None, False, empty) in its body or its constructor, and the constructor gives it
    nothing else."""
    starts = None
    for cls in family:
        for statement in cls.body:
            if isinstance(statement, ast.Assign | ast.AnnAssign):
                targets = (
                    statement.targets if isinstance(statement, ast.Assign) else [statement.target]
                )
                if any(isinstance(t, ast.Name) and t.id == attr for t in targets):
                    starts = _unset(statement.value)
        if starts is not None:
            break
    starts = bool(starts)
    init = methods.get("__init__")
    if init is not None:
        for _node, value in own_assignments(init, attr):
            if not _unset(value):
                return False
            starts = True
    return starts


def _unset(value: ast.expr | None) -> bool:
    if isinstance(value, ast.Constant):
        return value.value in _UNSET and not isinstance(value.value, float)
    if isinstance(value, ast.Tuple | ast.List | ast.Dict):
        return not getattr(value, "elts", None) and not getattr(value, "keys", None)
    return False


def _calls(method: ast.AST, name: str) -> bool:
    """Whether a method calls `X.name(...)` (on itself or on a copy it made), or names
    `name` in its decorators (`@_assertions(_no_statement_condition)`)."""
    decorators = getattr(method, "decorator_list", [])
    if any(isinstance(n, ast.Name) and n.id == name for d in decorators for n in walk(d)):
        return True
    return any(
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == name
        for node in walk(method)
    )


def handed_made_with_solution(conditions: list[ConditionView], facts: Facts) -> Solution | None:
    """ "Don't call both `UpdateBase.returning()` and `UpdateBase.return_defaults()` on one
    object": a raise whose test reads a private attribute of an object its function is
    handed or made (`stmt._returning and stmt._return_defaults`, `insert_stmt.
    _sort_by_parameter_order`, `x._y is not None`), where public steps of a chain (methods
    returning `self`) of a class the site's file defines or imports from its package
    (`from . import dml`, `from .dml import Insert` under `if TYPE_CHECKING:`) set it, and
    that class or its kin in its file start it unset: the object is what the user built
    with those calls, handed on to the compiler or executor that checks it. With two or
    more such tests joined by `and`, leaving out any one call is the way out; with one,
    leaving out its setters (a setter that sets it only under a switch of its own,
    `if sort_by_parameter_order:`, is named with that switch). An object annotated with
    a class that is none of the setter's class, its bases or its subclasses in its file
    (`compile_state: DMLState`) is another object: nothing."""
    site = facts.stored.site
    if site.kind is not SiteKind.RAISE:
        return None  # an `assert` holds the package's own order
    function = None
    for condition in conditions:
        if condition.kind in (ConditionKind.EARLY_EXIT, ConditionKind.EXCEPT):
            continue
        tests = _handed_tests(condition.text)
        if not tests:
            continue
        function = function or facts.site_function()
        if function is None:
            return None
        found: list[tuple[str, str, _Setters]] = []
        for name, attr, keys in tests:
            setters = _chain_setters(facts, attr, _annotation_of(function, name), keys)
            if setters:
                found.append((name, attr, setters))
        if not found:
            continue
        return Solution(
            text=_handed_text(site.function, found), condition=condition.text, kind="input"
        )
    return None


def _handed_tests(text: str) -> list[tuple[str, str, tuple[str, ...]]]:
    """(`stmt`, `_returning`, keys) of each part of an `and` (or the whole test) that finds
    a private attribute of a name other than `self` set: `stmt._returning`, `stmt._x is not
    None`; the keys are the strings the test looks up in that attribute (`percent` and
    `with_ties` of `select._fetch_clause_options["percent"] or ...`). Another part
    (`self.implicit_returning or ...`) is left unread."""
    if "._" not in text:
        return []  # most are not: no parse of them
    parsed = conjuncts(text)
    if parsed is None:
        return []
    node, sides = parsed
    found: list[tuple[str, str]] = []
    for side in sides:
        tested = is_not_none(side) or side
        if (
            isinstance(tested, ast.Attribute)
            and isinstance(tested.value, ast.Name)
            and tested.value.id not in ("self", "cls")
            and tested.attr.startswith("_")
            and not tested.attr.startswith("__")
            and (tested.value.id, tested.attr) not in found
        ):
            found.append((tested.value.id, tested.attr))
    looked_up = [
        (ast.unparse(n.value), n.slice.value)
        for n in walk(node)
        if isinstance(n, ast.Subscript)
        and isinstance(n.slice, ast.Constant)
        and isinstance(n.slice.value, str)
    ]
    return [
        (name, attr, tuple(dict.fromkeys(k for v, k in looked_up if v == f"{name}.{attr}")))
        for name, attr in found
    ]


def _annotation_of(function: ast.FunctionDef, name: str) -> str | None:
    """The class name a parameter `name` of the function is annotated with (`ValuesBase`,
    `dml.Insert`, `"Insert"`, `Optional[...]` unread); None when it has none."""
    args = function.args
    for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs]:
        if arg.arg != name or arg.annotation is None:
            continue
        note = arg.annotation
        if isinstance(note, ast.Constant) and isinstance(note.value, str):
            return note.value.rpartition(".")[2]
        if isinstance(note, ast.Attribute):
            return note.attr
        return base_name(note) or "?"  # a written type the rule does not read: another
    return None


def _chain_setters(
    facts: Facts, attr: str, annotated: str | None, keys: tuple[str, ...] = ()
) -> _Setters:
    """(class, method, the keyword it sets it under or None) of each public chain step of
    a class in the site's file or a module it imports from its package that sets
    `self.attr`, from a start unset; none when the object is `annotated` with a class that
    is not of that class's kin. A step that sets it to a dict of its own arguments, of
    which the test reads `keys`, is named with each of those arguments (`fetch(percent=
    True)` or `fetch(with_ties=True)`)."""
    found: _Setters = []
    for tree in _imported_trees(facts, attr):
        classes = {c.name: c for c in tree.body if isinstance(c, ast.ClassDef)}
        for cls in classes.values():
            family = _kin(classes, cls.name)
            own = _methods_of(cls)
            setting = [
                (name, method)
                for name, method in own.items()
                if not name.startswith("_") and _builds(method, attr)
            ]
            if not setting:
                continue
            subclasses = [c for c in classes.values() if cls in _kin(classes, c.name)[1:]]
            if annotated is not None and annotated not in {c.name for c in family + subclasses}:
                continue  # annotated as another class: not the object these build
            methods: Methods = {}
            for kin in reversed(family):
                methods.update(_methods_of(kin))
            if not _starts_unset(family + subclasses, methods, attr):
                continue
            for name, method in setting:
                switches = _keyed(method, attr, keys) or [_switch_of(method, attr)]
                for switch in switches:
                    if all((m, k) != (name, switch) for _, m, k in found):
                        found.append((cls.name, name, switch))
    return found


def _kin(classes: dict[str, ast.ClassDef], name: str) -> list[ast.ClassDef]:
    """The class `name` and its bases among `classes` (one file's), the class first."""
    family = [classes[name]]
    for cls in family:
        if len(family) >= _MAX_FAMILY:
            break
        for base in cls.bases:
            up = classes.get(base_name(base) or "")
            if up is not None and all(up is not c for c in family):
                family.append(up)
    return family[:_MAX_FAMILY]


def _switch_of(method: ast.FunctionDef | ast.AsyncFunctionDef, attr: str) -> str | None:
    """`sort_by_parameter_order` of a method that sets `self.attr` only inside `if
    sort_by_parameter_order:`, a parameter of its own."""
    params = _params(method)
    for node in walk(method):
        if (
            isinstance(node, ast.If)
            and isinstance(node.test, ast.Name)
            and node.test.id in params
            and next(own_assignments(ast.Module(body=node.body, type_ignores=[]), attr), None)
            is not None
        ):
            return node.test.id
    return None


def _keyed(
    method: ast.FunctionDef | ast.AsyncFunctionDef, attr: str, keys: tuple[str, ...]
) -> list[str | None]:
    """The arguments of the method that `self.attr = {"percent": percent, ...}` holds under
    the `keys` a test reads, in the order of `keys`; none when it assigns no such dict."""
    if not keys:
        return []
    params = _params(method)
    for _node, value in own_assignments(method, attr):
        if not isinstance(value, ast.Dict):
            continue
        held = {
            k.value: v.id
            for k, v in zip(value.keys, value.values, strict=True)
            if isinstance(k, ast.Constant) and isinstance(v, ast.Name) and v.id in params
        }
        if all(key in held for key in keys):
            return [held[key] for key in keys]
    return []


def _imported_trees(facts: Facts, attr: str) -> list[ast.Module]:
    """The site's file and the modules of its package it imports (at its top, or under
    `if TYPE_CHECKING:`), parsed, of those whose text may assign `self.attr`. Once a
    page for each attribute."""
    return facts.once(f"handed_trees:{attr}", lambda: _read_trees(facts, attr))


def _read_trees(facts: Facts, attr: str) -> list[ast.Module]:
    assigned = re.compile(rf"self\.{re.escape(attr)}\s*(?:\+|\|)?=(?!=)")
    trees = []
    for text in facts.once("handed_texts", lambda: _imported_texts(facts)):
        if assigned.search(text):
            tree = kept_module(text)
            if tree is not None:
                trees.append(tree)
    return trees


def _imported_texts(facts: Facts) -> list[str]:
    """The site's file's text and the kept texts of the modules `_imported_modules` names."""
    texts = [facts.source_text] if facts.source_text is not None else []
    for module in _imported_modules(facts):
        kept = module_kept_text(facts, module)
        if kept is not None:
            texts.append(kept[1])
    return texts


def _imported_modules(facts: Facts) -> list[str]:
    """The modules of the site's own top package its file imports, or whose names it
    imports, at its top or under `if TYPE_CHECKING:` (`from . import dml` and `from .dml
    import Insert` both give `a.sql.dml`)."""
    tree = facts.top_module(_importing)
    if tree is None:
        return []
    module, is_package = module_name(facts.stored.file)
    package = module if is_package else module.rpartition(".")[0]
    top = module.partition(".")[0]
    found: list[str] = []
    statements = list(tree.body)
    for statement in tree.body:
        if isinstance(statement, ast.If) and is_type_checking(statement.test):
            statements.extend(statement.body)
    for statement in statements:
        named: list[str] = []
        if isinstance(statement, ast.ImportFrom):
            base = resolve_relative(package, statement.module, statement.level)
            named = [base, *(f"{base}.{a.name}" for a in statement.names if a.name != "*")]
        elif isinstance(statement, ast.Import):
            named = [a.name for a in statement.names]
        for name in named:
            if name.partition(".")[0] == top and name != module and name not in found:
                found.append(name)
    return found


def _importing(chunk: str, start: int, end: int) -> bool:
    return _IMPORTS.match(chunk) is not None


# a top-level import, or an `if TYPE_CHECKING:` block of them
_IMPORTS = re.compile(r"[ \t\f]*(?:from\b|import\b|if\s+(?:\w+\.)?TYPE_CHECKING\s*:)")


_Setters = list[tuple[str, str, str | None]]


def _handed_text(function: str, found: list[tuple[str, str, _Setters]]) -> str:
    def called(setters: _Setters) -> str:
        return _some([code(f"{c}.{m}({k + '=True' if k else ''})") for c, m, k in setters])

    name = found[0][0]
    if len(found) > 1:
        calls = [called(s) for _, _, s in found]
        sets = listed([f"{called(s)} sets {code(a)}" for _, a, s in found], "and")
        both = "both" if len(found) == 2 else "all of"
        return (
            f"Don't call {both} {listed(calls, 'and')} on one object: {sets} on the object "
            f"it is called on, and {code(function)} raises when its {code(name)} has "
            f"{'both' if len(found) == 2 else 'all of them'} set. Keep only one of those calls."
        )
    _, attr, setters = found[0]
    each = "each" if len(setters) > 1 else "it"
    return (
        f"Build the object without {called(setters)}: {each} sets {code(attr)} on the "
        f"object it is called on, and {code(function)} raises when its {code(name)} has "
        f"it set."
    )
