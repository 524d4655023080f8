"""A flag argument that only chooses between raising and giving nothing back.

`if not silent: raise RuntimeError(...)` followed by `return None` (click's
`get_current_context(silent=True)`), `if strict: raise` before a bare `continue`, `if
validate_data:` over nothing but asserts: the argument does not avoid what went wrong, it
turns the error into a None (a skipped item, an unchecked value) that the caller meets
later. Such a value is no way out: the page says it in "What it means", not as a solution.

The other form of a polymorphic argument is the same kind of switch when the check is on
what the argument holds: `elif callable(only): ... else: missing = [n for n in only if n
not in available]; if missing: raise` looks for the names asked for only when `only` is a
list of names; a callable takes the branch that filters what exists, and the names asked
for stay missing, silently (`hidden_by_form`).
"""

from __future__ import annotations

import ast

from errdex.ast_walk import walk, walk_scope
from errdex.explain.context import Facts, async_function_at
from errdex.explain.input_nodes import free_names
from errdex.explain.inputs import Given
from errdex.explain.page import ConditionView, Solution
from errdex.facts import ConditionKind
from errdex.link.expression_texts import parse_expression

# What the function does where the flag lets the failure through without raising.
_NOTHING = "returns None instead of raising"
_SKIPPED = "skips the item instead of raising"
_UNCHECKED = "skips the checks under the switch and goes on with what they would refuse"
_OTHER_FORM = "takes the branch for that form, which never looks at what this check found wrong"
_GOES_ON = "goes on without raising the exception it was handed"
# builtin tests of an argument's form: `callable(x)`, `isinstance(x, T)`
_FORM_TESTS = frozenset({"callable", "isinstance"})
_MAX_HOPS = 4  # locals followed back to the argument they are computed from
_LAST_RESORT = "Last resort, which hides the error rather than avoiding it: "


def hidden_by_flag(condition: ConditionView, facts: Facts) -> str | None:
    """What the function does instead of raising, when `condition` tests only flag
    arguments of the site's own function and its other side leads straight to a bare
    return (or the function's end, or a `continue`); None otherwise."""
    try:
        test = ast.parse(condition.text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return None
    names = free_names(test)
    bound = {b.name for b in facts.bindings}  # locals and constants: no argument
    if not names or "self" in names or bound.intersection(names):
        return None  # the function is not parsed for a test of anything but arguments
    function = facts.site_function()
    if function is None:
        return None
    params = {a.arg for a in [*function.args.args, *function.args.kwonlyargs]}
    if not all(n in params for n in names):
        return None
    if condition.holds and _checks_only(function, condition.line, facts.stored.site.line):
        return _UNCHECKED
    found = _guard_of(function, facts.stored.site.line, condition.line)
    if found is None:
        return None
    guard, chain = found
    if guard.orelse and not all(isinstance(s, ast.Pass) for s in guard.orelse):
        return None
    instead = _what_follows(chain)
    # a function that gives nothing back in any case (a validator) loses nothing to None
    return instead if instead == _SKIPPED or _returns_something(function) else None


def skips_work(condition: ConditionView, facts: Facts) -> bool:
    """Whether the input that takes the early exit `condition` only skips what the
    function is for, and so is no way out (nor a switch: nothing is said of it):

    - an empty value of an argument the exit returns on (`if not kv_caches:
      logger.warning(...); return`) which the function then works on (its items read,
      iterated or looked up): it does nothing at all, and the work asked of it is undone;
    - where the site passes on what a `try` of the function raised, another input for an
      exit before that `try` that returns (`if isinstance(prompt, AsyncGenerator): return
      await self._add_streaming_input_request(...)`): another path, and the call that
      failed is left as it was."""
    return _empties_work(condition, facts) or _avoids_try(condition, facts)


def _empties_work(condition: ConditionView, facts: Facts) -> bool:
    if condition.kind is not ConditionKind.EARLY_EXIT or condition.holds:
        return False  # the exit's own test, which does not hold on the way to the raise
    test = parse_expression(condition.test)
    if not (isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)):
        return False
    name = test.operand.id if isinstance(test.operand, ast.Name) else None
    function = _site_def(facts)
    if name is None or function is None:
        return False
    params = {a.arg for a in [*function.args.posonlyargs, *function.args.args]}
    params.update(a.arg for a in function.args.kwonlyargs)
    if name not in params or _returns_something(function):
        return False
    exit_ = next(
        (n for n in walk(function) if isinstance(n, ast.If) and n.lineno == condition.line), None
    )
    if exit_ is None or exit_.orelse or not _bare_exit(exit_.body):
        return False
    after = [n for n in walk(function) if getattr(n, "lineno", 0) > (exit_.end_lineno or 0)]
    return any(_works_on(n, name) for n in after)


def _avoids_try(condition: ConditionView, facts: Facts) -> bool:
    if condition.kind is not ConditionKind.EARLY_EXIT or condition.holds:
        return False
    function = _site_def(facts)
    if function is None:
        return False
    line = facts.stored.site.line
    handled = next(
        (
            node
            for node in walk(function)
            if isinstance(node, ast.Try | ast.TryStar)
            and any(_passes_on(h, line) for h in node.handlers)
        ),
        None,
    )
    exit_ = next(
        (n for n in walk(function) if isinstance(n, ast.If) and n.lineno == condition.line), None
    )
    if handled is None or exit_ is None or exit_.orelse or condition.line >= handled.lineno:
        return False
    return isinstance(exit_.body[-1], ast.Return)


def _site_def(facts: Facts) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """The site's own function, an `async def` too."""
    site = facts.stored.site
    name = site.function.rpartition(".")[2]
    return facts.site_function() or async_function_at(facts.source_text, name, site.line)


def _passes_on(handler: ast.ExceptHandler, line: int) -> bool:
    """Whether the `raise` at `line` is in `handler` and passes on what it caught."""
    for node in walk_scope(handler.body):
        if isinstance(node, ast.Raise) and node.lineno == line:
            bound = handler.name
            caught = isinstance(node.exc, ast.Name) and node.exc.id == bound
            return node.exc is None or (bound is not None and caught)
    return False


def _bare_exit(body: list[ast.stmt]) -> bool:
    """A block that only logs (expression statements) and returns nothing."""
    last = body[-1]
    if not isinstance(last, ast.Return) or not (
        last.value is None or (isinstance(last.value, ast.Constant) and last.value.value is None)
    ):
        return False
    return all(isinstance(s, ast.Expr) for s in body[:-1])


def _works_on(node: ast.AST, name: str) -> bool:
    """`name[...]`, `for _ in name`, `name.items()`, `x in name`: its contents are read."""

    def named(value: ast.AST) -> bool:
        return isinstance(value, ast.Name) and value.id == name

    if isinstance(node, ast.Subscript):
        return named(node.value)
    if isinstance(node, ast.For | ast.AsyncFor | ast.comprehension):
        return named(node.iter)
    if isinstance(node, ast.Attribute):
        return named(node.value) and node.attr in ("items", "keys", "values")
    if isinstance(node, ast.Compare):
        return any(
            isinstance(op, ast.In | ast.NotIn) and named(right)
            for op, right in zip(node.ops, node.comparators, strict=False)
        )
    return False


def hand_on_switches(condition: ConditionView, facts: Facts) -> set[str]:
    """The switches (their names) `condition` tests beside the raise of an exception the
    site was handed (`raise seen_exc_info[1]`: what the app it runs reported, not one it
    makes), in the raise's own `if` (`... and self.raise_app_exceptions`), with no `else`:
    turning one off lets the function go on past an error that has already happened. The
    way out is in what raised it. Empty otherwise."""
    test = parse_expression(condition.text)
    function = _site_def(facts)
    if test is None or function is None:
        return set()
    found = _guard_of(function, facts.stored.site.line, condition.line)
    if found is None or found[0].orelse:
        return set()
    line = facts.stored.site.line
    handed = next(
        (s.exc for s in found[0].body if isinstance(s, ast.Raise) and s.lineno == line), None
    )
    if handed is None or not _handed_exception(handed):
        return set()
    held = {ast.unparse(n) for n in walk(handed) if isinstance(n, ast.expr)}
    parts = test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) else [test]
    switches = set()
    for part in parts:
        if isinstance(part, ast.UnaryOp) and isinstance(part.op, ast.Not):
            part = part.operand
        if isinstance(part, ast.Name | ast.Attribute) and ast.unparse(part) not in held:
            switches.add(part.attr if isinstance(part, ast.Attribute) else part.id)
    return switches


def _handed_exception(node: ast.expr) -> bool:
    """`seen_exc_info[1]`, `self._error`, `error`: an exception object the code holds, not
    one it makes (`Error(...)`) nor a class (`StopIteration`)."""
    if isinstance(node, ast.Call):
        return False
    last = node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", None)
    if isinstance(node, ast.Subscript):
        return True
    return isinstance(last, str) and not last.lstrip("_")[:1].isupper()


def hidden_by_form(condition: ConditionView, facts: Facts) -> str | None:
    """What the function does instead of raising, when `condition` tests the form of an
    argument of the site's own function (`callable(x)`, `isinstance(x, T)`, `x is None`,
    either way) and another condition on the path tests what that argument holds: a local
    computed by going over its items (the names it asks for).
    The other form takes a branch that does not look at the values the check refuses, so
    they stay as wrong; leaving the argument out asks for nothing. None otherwise."""
    test = parse_expression(condition.text)
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        test = test.operand
    name = _form_tested(test) if test is not None else None
    if name is None:
        return None
    function = facts.site_function()
    if function is None:
        return None
    params = {a.arg for a in [*function.args.posonlyargs, *function.args.args]}
    params.update(a.arg for a in function.args.kwonlyargs)
    local = {b.name: b.value for b in facts.bindings if b.origin == "local"}
    if name not in params or name in local:
        return None  # a local, or an argument given a new value: not what the caller passed
    for other in facts.held:
        if other.line == condition.line:
            continue
        node = parse_expression(other.text)
        if node is not None and _computed_from(node, name, local):
            return _OTHER_FORM
    return None


def _form_tested(test: ast.expr) -> str | None:
    """The argument whose form `test` tests: `callable(x)`, `isinstance(x, T)`,
    `x is None`."""
    if isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and test.args:
        first = test.args[0]
        if test.func.id in _FORM_TESTS and isinstance(first, ast.Name):
            return first.id
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.left, ast.Name):
        right = test.comparators[0]
        none = isinstance(right, ast.Constant) and right.value is None
        if none and isinstance(test.ops[0], ast.Is | ast.IsNot):
            return test.left.id
    return None


def _computed_from(node: ast.expr, argument: str, local: dict[str, str]) -> bool:
    """Whether `node` reads a local computed (a few assignments back) by going over the
    items of `argument` (`[n for n in only if n not in available]`): the check is on the
    names it asks for, not on its form. What reads it otherwise (`getattr(obj, ...)`, a
    lookup by it) may be what its form decides."""
    names = {n.id for n in walk(node) if isinstance(n, ast.Name)} - {argument}
    for _ in range(_MAX_HOPS):
        values = [v for n in names if n in local and (v := parse_expression(local[n]))]
        if any(_goes_over(v, argument) for v in values):
            return True
        names = {n.id for v in values for n in walk(v) if isinstance(n, ast.Name)} - {argument}
    return False


def _goes_over(value: ast.expr, argument: str) -> bool:
    return any(
        isinstance(n, ast.comprehension) and isinstance(n.iter, ast.Name) and n.iter.id == argument
        for n in walk(value)
    )


def _checks_only(function: ast.FunctionDef, test_line: int, line: int) -> bool:
    """Whether the `if` at `test_line` holds the site and nothing but checks (`assert`,
    `raise`, an `if` of checks), with no `else`: its test only switches validation on."""
    guard = next(
        (n for n in walk(function) if isinstance(n, ast.If) and n.lineno == test_line), None
    )
    if guard is None or guard.orelse or not guard.lineno < line <= (guard.end_lineno or 0):
        return False
    # a bare `raise` of its own: the switch is what raises (`if not silent: raise`)
    if any(isinstance(s, ast.Raise) for s in guard.body) or not all(
        _is_check(s) for s in guard.body
    ):
        return False
    # a switch read nowhere else (an argument the work uses, `if kv_cache is not None:`,
    # gives up that work when left out: no hiding)
    tested = {n.id for n in walk(guard.test) if isinstance(n, ast.Name)}
    switches = [  # each `if` reading the switch: all of them gate only checks
        n for n in walk(function) if isinstance(n, ast.If) and _reads(n.test, tested)
    ]
    if not all(not n.orelse and all(_is_check(s) for s in n.body) for n in switches):
        return False
    reads = sum(_reads(n, tested) for n in walk(function) if isinstance(n, ast.Name))
    return reads == sum(_reads(n.test, tested) for n in switches)


def _reads(node: ast.AST, names: set[str]) -> int:
    return sum(1 for n in walk(node) if isinstance(n, ast.Name) and n.id in names)


def _is_check(statement: ast.stmt) -> bool:
    if isinstance(statement, ast.Assert | ast.Raise | ast.Pass):
        return True
    if isinstance(statement, ast.Expr):
        return isinstance(statement.value, ast.Constant)
    if isinstance(statement, ast.If):
        return all(_is_check(s) for s in [*statement.body, *statement.orelse])
    return False


def _returns_something(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether the function returns a value somewhere (its own `return`s, not those of
    functions defined inside it)."""
    stack: list[ast.AST] = list(function.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
            continue
        value = node.value if isinstance(node, ast.Return) else None
        if value is not None and not (isinstance(value, ast.Constant) and value.value is None):
            return True
        stack.extend(ast.iter_child_nodes(node))
    return False


def _guard_of(
    function: ast.FunctionDef | ast.AsyncFunctionDef, line: int, test_line: int
) -> tuple[ast.If, list[tuple[list[ast.stmt], int]]] | None:
    """The `if` at `test_line` whose body holds the site directly, with the blocks that
    hold it, innermost first (each block and the index of the statement in it)."""

    def search(
        block: list[ast.stmt], outer: list[tuple[list[ast.stmt], int]]
    ) -> tuple[ast.If, list[tuple[list[ast.stmt], int]]] | None:
        for index, statement in enumerate(block):
            end = statement.end_lineno or statement.lineno
            if not statement.lineno <= line <= end:
                continue
            chain = [(block, index), *outer]
            if isinstance(statement, ast.If) and statement.lineno == test_line:
                direct = any(s.lineno <= line <= (s.end_lineno or s.lineno) for s in statement.body)
                raises = any(isinstance(s, ast.Raise) and s.lineno == line for s in statement.body)
                return (statement, chain) if direct and raises else None
            for inner in _blocks(statement):
                found = search(inner, chain)
                if found is not None:
                    return found
            return None
        return None

    return search(function.body, [])


def _blocks(statement: ast.stmt) -> list[list[ast.stmt]]:
    out: list[list[ast.stmt]] = []
    for name in ("body", "orelse", "finalbody"):
        block = getattr(statement, name, None)
        if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
            out.append(block)
    for handler in getattr(statement, "handlers", []):
        out.append(handler.body)
    return out


def _what_follows(chain: list[tuple[list[ast.stmt], int]]) -> str | None:
    """The first statement run after the guard, block by block outwards: a bare return,
    a `return None`, a `continue`, or nothing at all before the function ends."""
    for position, (block, index) in enumerate(chain):
        rest = block[index + 1 :]
        if position > 0 and _is_loop(chain, position):
            # the body of a `for` ends: the loop goes on to its next item
            return _SKIPPED if isinstance(block[index], ast.For | ast.AsyncFor) else None
        if not rest:
            continue
        first = rest[0]
        if isinstance(first, ast.Return) and (
            first.value is None
            or (isinstance(first.value, ast.Constant) and first.value.value is None)
        ):
            return _NOTHING
        if isinstance(first, ast.Continue):
            return _SKIPPED
        return None
    return _NOTHING


def _is_loop(chain: list[tuple[list[ast.stmt], int]], position: int) -> bool:
    block, index = chain[position]
    return isinstance(block[index], ast.For | ast.While | ast.AsyncFor)


def last_resort(text: str, condition: ConditionView, instead: str, facts: Facts) -> Solution:
    """The input solution, labelled as hiding the error, with no change to draw a fix from."""
    function = facts.stored.site.function.removesuffix(".__init__")
    lowered = text[:1].lower() + text[1:]
    return Solution(
        text=(f"{_LAST_RESORT}{lowered} `{function}` then {instead}, and what made it fail stays."),
        condition=condition.text,
        kind="input",
        hides=True,
    )


def hides_only(solution: Solution) -> bool:
    """Whether a solution is a switch that hides the error (`last_resort`)."""
    return solution.hides


def hidden_sentence(solution: Solution) -> str:
    """A hiding switch said in "What it means" when it is all there is: no way out, so
    not offered as one."""
    said = solution.text.removeprefix(_LAST_RESORT)
    return f"A switch would only hide the error, so it is not offered as a way out: {said}"


def input_solution(given: Given, condition: ConditionView, facts: Facts) -> tuple[Solution, bool]:
    """The input way out as a solution, and whether it is one: False for a flag that only
    hides the error (then labelled so, with no change to draw a fix from)."""
    hidden = hidden_by_flag(condition, facts) or hidden_by_form(condition, facts)
    if hidden is None and any(f"`{n}`" in given.text for n in hand_on_switches(condition, facts)):
        hidden = _GOES_ON
    if hidden is not None:
        return last_resort(given.text, condition, hidden, facts), False
    solution = Solution(
        text=given.text,
        condition=condition.text,
        kind="input",
        change=given.change,
        argument=given.changed,
    )
    return solution, True
