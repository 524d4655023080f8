"""Ways out of a check on what the user's callable did with a function handed to it.

A class keeps a callable the user gives its constructor (`self.app = app`) and one of its
methods calls it with a function of its own (`self.app(environ, start_response)`, where
`start_response` is a `def` inside the method). The user's callable calls that function
back, and what it passes sets the method's locals (`nonlocal seen_status`). Two checks read
what the callable did:

- after the call, a test of a local only that function sets (`assert seen_status is not
  None`): the callable returned without the call that sets it. The way out is in the
  user's callable: make the call, so that the line that sets it runs (said with the tests
  that line sits under in the handed function);
- inside the handed function, a test of its own arguments or of what an earlier call of it
  set (`assert not response_started` under `message["type"] == "http.response.start"`): the
  callable passed what the check refuses. The way out is what it passes; where the site
  raises what the callable passed (`raise seen_exc_info[1]`: a WSGI app reports its own
  failure as `exc_info`), the way out is that failure, in the user's callable.

The object's own attributes in the test (`self.raise_app_exceptions`) are its settings: said
with the test, never asked of the callable.

Either way the check is of the user's code, not of the program's own state. Offered for a
class the package hands to users (its public path read from the index), whose constructor
keeps the argument as it is given.
"""

from __future__ import annotations

import ast
import re

from errdex.ast_walk import walk
from errdex.explain.context import Facts, async_function_at, function_at, function_span, lines_of
from errdex.explain.entry_input import names_read
from errdex.explain.handed_facts import HandedCallback
from errdex.explain.input_nodes import none_compared
from errdex.explain.item_fields import own_init
from errdex.explain.page import ConditionView, Solution
from errdex.explain.plain import code
from errdex.extract.conditions import negate
from errdex.extract.setters import param_names
from errdex.facts import ConditionKind, SiteKind
from errdex.link.expression_texts import parse_expression
from errdex.store.base import Store, StoredSite

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_Def = ast.FunctionDef | ast.AsyncFunctionDef
_NESTED_DEF = re.compile(r"\s+(?:async\s+)?def\s")
_MAX_TESTS = 4  # tests said of the line that sets a local, past which none are


def handed_callback(store: Store, chosen: StoredSite, facts: Facts) -> HandedCallback | None:
    """The callback shape of the site (see the module), or None."""
    site = chosen.site
    if site.kind not in (SiteKind.RAISE, SiteKind.ASSERT) or not facts.held:
        return None
    if any(c.kind is ConditionKind.EXCEPT for c in facts.conditions):
        return None
    method_name, _, nested = site.function.partition(".<locals>.")
    owner, _, method = method_name.partition(".")
    if not owner or not method or "." in method or "." in nested:
        return None
    name, line = site.function.rpartition(".")[2], site.line
    if not nested and not _defines_functions(facts, name, line):
        return None  # most methods: nothing to hand out, told from their lines alone
    function: _Def | None = facts.site_function() or async_function_at(
        facts.source_text, name, line
    )
    if function is None:
        return None
    outer = function if not nested else _method(facts, method, function)
    if outer is None:
        return None
    calls = _handing_calls(outer)
    if not calls:
        return None  # most methods: no call hands a function of their own to an attribute
    kept = _kept_arguments(facts, owner)
    condition = facts.held[-1]
    for attribute, handed, line in calls:
        argument = kept.get(attribute)
        if argument is None:
            continue
        if nested and handed.name != nested:
            continue
        if not nested and not line < site.line:
            continue
        after = None if nested else _after(outer, handed, facts.held[-1], line, site.line)
        found = _inside(handed, facts) if nested else after[0] if after else None
        if found is None:
            continue
        path = store.public_path_of(chosen.version_id, owner)
        if path is None:
            return None
        raised = parse_expression(site.exception or "")
        return HandedCallback(
            owner=path,
            argument=argument,
            handed=handed.name,
            call_line=line,
            inside=bool(nested),
            sets=found,
            condition=condition,
            passed=bool(after and after[1]),
            raised=bool(
                after
                and after[1]
                and raised is not None
                and names_read(raised) & {local for local, _, _ in found}
            ),
        )
    return None


def handed_solution(facts: Facts) -> Solution | None:
    """ "Make your `app` (the `app` you give `pkg.Transport`) call `start_response` ..."."""
    found = facts.handed
    if found is None:
        return None
    yours = _yours(found)
    when = "; ".join(c.plain or code(c.text) for c in facts.held)
    if found.inside:
        text = (
            f"Change what {yours} passes to {code(found.handed)}, the function this method "
            f"hands it at line {found.call_line}: the check at line {found.condition.line} "
            f"fails when {when}"
            + "".join(
                f"; {code(found.handed)} itself sets {code(local)} at line {line}, on an "
                "earlier call"
                for local, line, _ in found.sets
            )
            + "."
        )
    elif found.passed:
        local, line, _ = found.sets[0]
        handed = (
            f"{code(found.handed)}, the function this method hands it at line {found.call_line}"
        )
        text = (
            f"Fix the failure {yours} reports to {handed}: {code(found.handed)} keeps what it "
            f"is passed as {code(local)} at line {line}, and the method raises the exception "
            f"in it when {when}."
            if found.raised
            else f"Change what {yours} passes to {handed}: {code(found.handed)} sets "
            f"{code(local)} from its arguments at line {line}, and the check at line "
            f"{found.condition.line} fails when {when}."
        )
    else:
        local, line, tests = found.sets[0]
        under = f", when {' and '.join(code(t) for t in tests)}" if tests else ""
        text = (
            f"Make {yours} call {code(found.handed)}, the function this method hands it at "
            f"line {found.call_line}, so that line {line} runs before it returns: "
            f"{code(found.handed)} sets {code(local)} there{under}. The check at line "
            f"{found.condition.line} fails when {when}."
        )
    return Solution(text=text, condition=found.condition.text, kind="input")


def handed_sentence(facts: Facts) -> str | None:
    """What "What it means" says: the check is of what the user's callable did."""
    found = facts.handed
    if found is None:
        return None
    return (
        f"The check reads what {_yours(found)} did with {code(found.handed)}, the function "
        f"this method hands it at line {found.call_line}: your code decides it, not the "
        "program's own state."
    )


def _defines_functions(facts: Facts, name: str, line: int) -> bool:
    """Whether the lines of the `def name` holding `line` define a function inside it."""
    text = facts.source_text
    span = function_span(text, name, line) if text is not None else None
    if text is None or span is None:
        return True  # not told from the text: read the function
    start, end = span
    return any(_NESTED_DEF.match(row) for row in lines_of(text)[start + 1 : end])


def _yours(found: HandedCallback) -> str:
    return f"your {code(found.argument)} (the {code(found.argument)} you give {code(found.owner)})"


def _method(facts: Facts, name: str, nested: _Def) -> _Def | None:
    """The method `name` holding the nested function `nested`, read from the site's file."""
    text, line = facts.source_text, nested.lineno
    found: _Def | None = function_at(text, name, line) or async_function_at(text, name, line)
    if found is None or not found.lineno < nested.lineno <= (found.end_lineno or 0):
        return None
    return found


def _handing_calls(method: _Def) -> list[tuple[str, _Def, int]]:
    """(the attribute `A`, the function, the line) of each `self.A(..., f, ...)` in the
    method that hands it `f`, a function the method defines in its own body."""
    own = {s.name: s for s in method.body if isinstance(s, _FUNCTIONS)}
    if not own:
        return []
    found = []
    for node in walk(method):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "self"
        ):
            continue
        for value in [*node.args, *(k.value for k in node.keywords)]:
            if isinstance(value, ast.Name) and value.id in own:
                found.append((node.func.attr, own[value.id], node.lineno))
    return found


def _kept_arguments(facts: Facts, owner: str) -> dict[str, str]:
    """`self.A = a` of the class's constructor, `a` one of its parameters: A → a."""
    found = facts.top_class(owner)
    init = own_init(found) if found is not None else None
    if init is None:
        return {}
    params = param_names(init)
    kept: dict[str, str] = {}
    for statement in init.body:
        if not (isinstance(statement, ast.Assign | ast.AnnAssign) and statement.value):
            continue
        targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
        value = statement.value
        for target in targets:
            if (
                isinstance(target, ast.Attribute)
                and isinstance(target.value, ast.Name)
                and target.value.id == "self"
                and isinstance(value, ast.Name)
                and value.id in params
            ):
                kept[target.attr] = value.id
    return kept


def _nonlocals(function: _Def) -> set[str]:
    return {n for s in walk(function) if isinstance(s, ast.Nonlocal) for n in s.names}


def _changes(function: _Def, name: str) -> list[ast.stmt]:
    """The statements of `function` (its own, not nested ones') that store `name`, or call
    a method of it as a statement of its own (`event.set()`, `parts.append(x)`)."""
    found: list[ast.stmt] = []
    for node in walk(function):
        if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                found.append(node)
        elif (
            isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Attribute)
            and isinstance(node.value.func.value, ast.Name)
            and node.value.func.value.id == name
        ):
            found.append(node)
    return found


def _inside(handed: _Def, facts: Facts) -> tuple[tuple[str, int, tuple[str, ...]], ...] | None:
    """For a site in the handed function: () when every name its tests read is an argument
    of it, or a local of the method it changes (what an earlier call of it set)."""
    params = param_names(handed)
    changed = _nonlocals(handed)
    read: set[str] = set()
    for condition in facts.held:
        node = parse_expression(condition.text)
        if node is None:
            return None
        read |= names_read(node)
    local = {n for n in read if _changes(handed, n) and n not in changed and n not in params}
    if not read & params:
        return None  # the check is of what it passed: one of its arguments must be read
    if read - params - changed - local - _assigned_from_params(handed, params):
        return None
    # what an earlier call set: said with the line that sets it
    return tuple(
        (name, _changes(handed, name)[0].lineno, ())
        for name in sorted(read & (changed | local))
        if _changes(handed, name)
    )


def _assigned_from_params(function: _Def, params: set[str]) -> set[str]:
    """Locals of `function` assigned once from an expression of its arguments alone."""
    found = set()
    for node in walk(function):
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and names_read(node.value) <= params
            and names_read(node.value)
        ):
            found.add(node.targets[0].id)
    return found


def _after(
    method: _Def,
    handed: _Def,
    condition: ConditionView,
    call_line: int,
    line: int,
) -> tuple[tuple[tuple[str, int, tuple[str, ...]], ...], bool] | None:
    """For a site after the call: each local the raise's own test reads with the line of
    the handed function that sets it and the tests that line sits under, and whether that
    line surely ran (see `HandedCallback.passed`); None unless the handed function sets
    every one of them and the method changes none after its first binding, but in an
    `except` clause around the call (the callable raised)."""
    node = parse_expression(condition.text)
    if node is None:
        return None
    # the object's own attributes (`self.raise_app_exceptions`) are its settings, not what
    # the callable did: the test is said whole, and needs a local the callable set besides
    read = names_read(node) - {"self"}
    if not read:
        return None
    nonlocal_names = _nonlocals(handed)
    earlier = _checked_earlier(method, call_line, line)
    params = param_names(handed)
    passed = False
    found = []
    for name in sorted(read):
        setting = _changes(handed, name)
        if not setting or (name not in nonlocal_names and not _called_only(setting)):
            return None
        if not _unchanged_but_handled(method, handed, name, call_line, line):
            return None
        first = setting[0]
        if _set_beside(handed, first, earlier - {name}):
            # an earlier check fails when that line never ran: this one fails only when it
            # ran and kept a failing value the callable passed (`headers =
            # message.get("headers", [])` given None), or never (a value of its own)
            value = getattr(first, "value", None)
            if value is None or not names_read(value) & params:
                return None
            passed = True
        tests = _tests_over(handed, first)
        if tests is None:
            return None
        found.append((name, first.lineno, tests))
    return tuple(found), passed


def _checked_earlier(method: _Def, call_line: int, line: int) -> set[str]:
    """The locals the method's own checks between the call at `call_line` and the site at
    `line` require to be set: `assert x is not None` / `assert x`, or `if x is None:` /
    `if not x:` over a `raise` (each fails while `x` keeps its unset `None`)."""
    nested = {id(n) for s in method.body if isinstance(s, _FUNCTIONS) for n in walk(s)}
    found: set[str] = set()
    for node in walk(method):
        if id(node) in nested or not call_line < getattr(node, "lineno", 0) < line:
            continue
        if isinstance(node, ast.Assert):
            name = _required(node.test, negated=False)
        elif isinstance(node, ast.If) and any(isinstance(n, ast.Raise) for n in node.body):
            name = _required(node.test, negated=True)
        else:
            continue
        if name is not None and _unset_before(method, name, call_line):
            found.add(name)
    return found


def _unset_before(method: _Def, name: str, call_line: int) -> bool:
    """Whether the method binds `name = None` in its own body before the call."""
    return any(
        isinstance(s, ast.Assign)
        and s.lineno < call_line
        and any(isinstance(t, ast.Name) and t.id == name for t in s.targets)
        and isinstance(s.value, ast.Constant)
        and s.value.value is None
        for s in method.body
    )


def _required(test: ast.expr, negated: bool) -> str | None:
    """`x` of `x is not None` or `x` (of `x is None` or `not x` when `negated`), else None."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        test, negated = test.operand, not negated
    if isinstance(test, ast.Name):
        return None if negated else test.id
    compared = none_compared(test)
    if compared is None:
        return None
    name, is_none = compared
    return name if is_none == negated else None


def _set_beside(handed: _Def, statement: ast.stmt, names: set[str]) -> bool:
    """Whether `handed` sets one of `names` in the same block as `statement` (so the two
    are set together or not at all)."""
    for node in walk(handed):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if isinstance(block, list) and any(s is statement for s in block):
                setting = {id(s) for n in names for s in _changes(handed, n)}
                return any(s is not statement and id(s) in setting for s in block)
    return False


def _called_only(statements: list[ast.stmt]) -> bool:
    """Whether each statement calls a method of the name (a closure reading a local of the
    method may change it that way without `nonlocal`)."""
    return all(isinstance(s, ast.Expr) for s in statements)


def _unchanged_but_handled(
    method: _Def, handed: _Def, name: str, call_line: int, line: int
) -> bool:
    """Whether the method, outside the handed function, changes `name` only before the call
    (its first binding) or in an `except` clause of a `try` around the call."""
    nested = {id(n) for s in method.body if isinstance(s, _FUNCTIONS) for n in walk(s)}
    handled = {
        id(n)
        for t in walk(method)
        if isinstance(t, ast.Try) and t.lineno <= call_line <= (t.end_lineno or 0)
        for h in t.handlers
        for n in walk(h)
    }
    del handed
    for statement in _changes(method, name):
        if id(statement) in nested or id(statement) in handled:
            continue
        if statement.lineno < call_line or statement.lineno > line:
            continue
        return False
    return True


def _tests_over(function: _Def, statement: ast.stmt) -> tuple[str, ...] | None:
    """The tests of the `if`s around `statement` in `function`, outermost first, each as
    it holds there (an `else` branch's negated); None past `_MAX_TESTS` or under a loop."""
    path: list[str] = []

    def visit(body: list[ast.stmt]) -> bool:
        for node in body:
            if node is statement:
                return True
            if isinstance(node, ast.If):
                if visit(node.body):
                    path.insert(0, ast.unparse(node.test))
                    return True
                if visit(node.orelse):
                    path.insert(0, ast.unparse(negate(node.test)))
                    return True
            elif isinstance(node, ast.With | ast.AsyncWith | ast.Try) and visit(node.body):
                return True
        return False

    if not visit(function.body) or len(path) > _MAX_TESTS:
        return None
    return tuple(path)
