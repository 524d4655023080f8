"""A way out that a neighbouring check refuses on the same input: no way out.

Three shapes, each leading the user into another error:
- the branch a way out takes checks the input again and fails: vllm's
  `flashinfer_cutedsl_moe_masked` checks `input_global_scale.shape` for a tensor
  `hidden_states`, and its branch for a tuple asserts `input_global_scale is None`; or,
  for "any value but `'auto'`", that branch accepts only a few values and raises on the
  rest (`elif cache_dtype in TABLE: ... else: raise`);
- the value a way out passes is refused by the function that takes it: a constructor's
  `if not use_fused_vision_backbone: raise ValueError(...)` refuses the false value that
  would turn the checked mode off;
- a setting makes true the rest of a guard whose other part the path already holds:
  `if self.hybrid_lb and self.external_lb: raise` with `--hybrid-lb` given, for the way out
  "turn `--external-lb` on".

Only a check whose outcome the path's own tests decide (or, for a branch, a check of no
other names than the failing check reads) counts: one of unknown outcome is no evidence.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Callable, Iterator

from errdex.ast_walk import walk
from errdex.explain.call_binding import given_argument
from errdex.explain.context import Facts, class_in_file, function_at, top_block_at
from errdex.explain.expanded import deep_expanded, expanded
from errdex.explain.input_nodes import field_key
from errdex.explain.input_words import Instead
from errdex.explain.outline import holding
from errdex.explain.page import ConditionView, Solution
from errdex.extract.conditions import dotted_name, dotted_names, negate
from errdex.extract.shapes import is_none
from errdex.facts import KnobKind
from errdex.link.expression_texts import parse_expression

__all__ = [
    "FALSY",
    "branch_refuses",
    "flipped_value",
    "if_at",
    "part_may_trip",
    "passed_refused",
    "setting_trips_guard",
    "value_refused",
]


class _Truth:
    """A value known only by its truth (`non-empty`, `empty`)."""

    def __init__(self, truth: bool) -> None:
        self.truth = truth


TRUTHY = _Truth(True)
FALSY = _Truth(False)
_UNKNOWN = object()


def _key(node: ast.AST) -> str:
    return ast.unparse(node)


class KnownValues:
    """What the path's tests say: each test's (or part's) truth, the names read through an
    attribute (so not None), and the values a way out gives."""

    def __init__(self, changed: dict[str, object]) -> None:
        self.truth: dict[str, bool] = {}
        self.not_none: set[str] = set()
        self.changed = changed

    def learn(self, node: ast.expr, holds: bool) -> None:
        if set(dotted_names(node)) & set(self.changed):
            return  # what the way out changes no longer holds as it did
        self.truth[_key(node)] = holds
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            self.learn(node.operand, not holds)
            return
        if isinstance(node, ast.BoolOp):
            # every part of an `and` that holds (of an `or` that does not) was evaluated
            if isinstance(node.op, ast.And) == holds:
                for part in node.values:
                    self.learn(part, holds)
            return
        self.not_none.update(_read_through(node))

    def truth_of(self, node: ast.expr) -> bool | None:
        known = self.truth.get(_key(node))
        if known is not None:
            return known
        if isinstance(node, ast.Compare) and len(node.ops) == 1:
            opposite = self.truth.get(_key(negate(node)))  # `x is None` of `x is not None`
            if opposite is not None:
                return not opposite
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            inner = self.truth_of(node.operand)
            return None if inner is None else not inner
        if isinstance(node, ast.BoolOp):
            parts = [self.truth_of(v) for v in node.values]
            decisive = isinstance(node.op, ast.Or)  # the value that decides alone
            if decisive in parts:
                return decisive
            return None if None in parts else not decisive
        value = self._value(node)
        if value is _UNKNOWN:
            return None
        return value.truth if isinstance(value, _Truth) else bool(value)

    def _value(self, node: ast.expr) -> object:
        name = dotted_name(node)
        if name is not None:
            return self.changed.get(name, _UNKNOWN)
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Compare) and len(node.ops) == 1:
            if not set(dotted_names(node)) & set(self.changed):
                # a comparison the path's tests decided (`x is not None` of an `and`)
                known = self.truth.get(_key(node))
                opposite = self.truth.get(_key(negate(node)))
                if known is not None or opposite is not None:
                    return known if known is not None else not opposite
            return self._compare(node.left, node.ops[0], node.comparators[0])
        return _UNKNOWN

    def _compare(self, left: ast.expr, op: ast.cmpop, right: ast.expr) -> object:
        if (
            isinstance(op, ast.Is | ast.IsNot)
            and isinstance(right, ast.Constant)
            and isinstance(right.value, bool)
        ):
            value = self._value(left)  # `x is True`: only a known value decides it
            if value is _UNKNOWN or isinstance(value, _Truth):
                return _UNKNOWN
            return (value is right.value) == isinstance(op, ast.Is)
        if isinstance(op, ast.Is | ast.IsNot) and is_none(right):
            name = dotted_name(left)
            value = self._value(left)
            if value is TRUTHY or (value is _UNKNOWN and name in self.not_none):
                none: object = False
            elif value is _UNKNOWN or isinstance(value, _Truth):
                return _UNKNOWN
            else:
                none = value is None
            return none if isinstance(op, ast.Is) else not none
        if isinstance(op, ast.Eq | ast.NotEq):
            a, b = self._value(left), self._value(right)
            if _UNKNOWN in (a, b) or isinstance(a, _Truth) or isinstance(b, _Truth):
                return _UNKNOWN
            return (a == b) == isinstance(op, ast.Eq)
        return _UNKNOWN


def _read_through(node: ast.AST) -> set[str]:
    """The names an expression reads an attribute or an item of: not None where it ran
    (not under a short-circuit or a conditional expression)."""
    out: set[str] = set()
    stack: list[ast.AST] = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, ast.BoolOp | ast.IfExp | ast.Lambda | ast.comprehension):
            continue
        if isinstance(current, ast.Attribute | ast.Subscript):
            name = dotted_name(current.value)
            if name is not None:
                out.add(name)
        stack.extend(ast.iter_child_nodes(current))
    return out


def _checks(
    block: list[ast.stmt], assigned: set[str] | None = None
) -> Iterator[tuple[ast.expr, bool, int, set[str]]]:
    """The checks every run of the block meets in order: (test, whether a true test fails,
    line, the names assigned before it in the block), for `assert test` and `if test:
    raise ...`."""
    assigned = set() if assigned is None else assigned
    for statement in block:
        if isinstance(statement, ast.With | ast.AsyncWith | ast.Try):
            yield from _checks(statement.body, assigned)
        elif isinstance(statement, ast.Assert):
            yield statement.test, False, statement.lineno, set(assigned)
        elif isinstance(statement, ast.If) and isinstance(statement.body[0], ast.Raise):
            yield statement.test, True, statement.lineno, set(assigned)
        if isinstance(statement, ast.Return | ast.Raise) or may_leave(statement):
            return  # the checks after it are not sure to run
        assigned.update(stored(statement))


def may_leave(statement: ast.stmt) -> bool:
    """Whether a statement that is no check may leave the block early (`if x: return`)."""
    if isinstance(statement, ast.Assert) or (
        isinstance(statement, ast.If) and isinstance(statement.body[0], ast.Raise)
    ):
        return False
    stack: list[ast.AST] = [statement]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Return | ast.Continue | ast.Break):
            return True
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            stack.extend(ast.iter_child_nodes(node))
    return False


def stored(statement: ast.stmt) -> set[str]:
    """The names and attribute chains a statement assigns (`x`, `self.scale`)."""
    out: set[str] = set()
    for node in walk(statement):
        if isinstance(node, ast.Name | ast.Attribute) and isinstance(node.ctx, ast.Store):
            name = dotted_name(node)
            if name is not None:
                out.add(name)
    return out


def reassigned(names: set[str], assigned: set[str]) -> bool:
    return any(n == a or n.startswith(a + ".") for n in names for a in assigned)


def _fails(
    known: KnownValues, block: list[ast.stmt], skip: set[int], within: set[str], values: set[str]
) -> str | None:
    """ "fails" when a check of the block fails for what is known; "checks" when one of
    unknown outcome reads only names of `within` (values that failed the site's check,
    left as they were), or is an `assert` reading one of `values` (an argument or local the
    site's check reads, left as it was: the other branch holds the same value to an
    invariant of its own, so taking it is no sure way out); else None. A check of a name
    the block assigns first is not known."""
    found = None
    for test, fails_when, line, assigned in _checks(block):
        names = set(dotted_names(test))
        if line in skip or reassigned(names, assigned):
            continue
        truth = known.truth_of(test)
        if truth is fails_when:
            return "fails"
        if truth is None and names and names <= within:
            found = "checks"
        elif truth is None and not fails_when and _values_read(test) & values:
            found = "checks"  # an `assert` of its own on the same value
    return found


def _values_read(node: ast.AST) -> set[str]:
    """The names and attribute chains an expression reads as values: not the functions it
    calls (`len`, `isinstance`), whose names two checks of unrelated values share."""
    called = {id(n.func) for n in walk(node) if isinstance(n, ast.Call)}
    out: set[str] = set()
    stack: list[ast.AST] = [node]
    while stack:
        current = stack.pop()
        if id(current) in called:
            if isinstance(current, ast.Attribute):
                stack.append(current.value)  # `x.view(...)` reads `x`
            continue
        name = dotted_name(current) if isinstance(current, ast.Attribute | ast.Name) else None
        if name is not None:
            out.add(name)
            continue
        stack.extend(ast.iter_child_nodes(current))
    return out


def _set_by_setting(test: ast.expr, facts: Facts) -> bool:
    """Whether a flag or environment variable decides the branch's test: a setting picks the
    mode for the whole program, and the values the site's function is handed are made for
    the mode it picks upstream too (an argument is handed in beside the value it checks,
    and flipping it alone leaves that value as it was made)."""
    names = set(dotted_names(test))
    settings = (KnobKind.ENV, KnobKind.FLAG)
    return any(k.kind in settings and k.behind in names for k in facts.knobs)


def _own_values(names: set[str], facts: Facts) -> set[str]:
    """Of `names`, those rooted at what the site's function holds: its parameters, `self`,
    its locals (not a module, a constant or a builtin two checks read alike)."""
    own = {*facts.read.params, "self", "cls"}
    own |= {b.name for b in facts.bindings if b.origin == "local"}
    # the object itself (`isinstance(self, ...)`) is no value of the check's
    return {n for n in names if n.split(".", 1)[0] in own and n not in ("self", "cls")}


def if_at(facts: Facts, line: int, whole_file: bool = False) -> ast.If | None:
    """The `if` on `line` of the site's function (or, for a helper's test, of its file: of
    the top-level block holding the line parsed alone, else of the whole file)."""
    if not whole_file:
        return if_in(facts.site_function(), line)
    found = if_in(top_block_at(facts.source_text, line), line)
    return found if found is not None else if_in(facts.top_module(holding(line)), line)


def if_in(tree: ast.AST | None, line: int, test_line: bool = False) -> ast.If | None:
    """The `if` on `line` of `tree`: found down the statements whose lines hold it, not in
    a walk of every node; with `test_line`, also one whose test starts on `line` (a
    condition's line: `if (` may open it on the line above)."""
    todo: list[ast.AST] = [tree] if tree is not None else []
    for node in todo:  # the list grows as it is read
        if isinstance(node, ast.If) and (
            node.lineno == line or (test_line and node.test.lineno == line)
        ):
            return node
        for name in _BLOCKS:
            block = getattr(node, name, None)
            if not isinstance(block, list):
                continue
            for child in block:
                start = getattr(child, "lineno", None)  # a `case` has none: looked into
                if start is None or start <= line <= (child.end_lineno or start):
                    todo.append(child)
    return None


# The fields that hold statements (or the clauses that hold them): where an `if` can be.
_BLOCKS = ("body", "orelse", "finalbody", "handlers", "cases")


def _outside(function: ast.FunctionDef | None, line: int) -> bool:
    """Whether `line` lies outside the site's function (a helper's test on the path)."""
    return function is not None and not function.lineno <= line <= (function.end_lineno or 0)


def _path_known(
    facts: Facts, changed: dict[str, object], skip: ConditionView | None
) -> KnownValues:
    known = KnownValues(changed)
    for condition in facts.conditions:
        node = parse_expression(condition.test)
        if node is not None and condition is not skip:
            known.learn(node, condition.holds)
    return known


def branch_refuses(condition: ConditionView, facts: Facts, *, surely: bool = True) -> bool:
    """Whether the branch that making `condition`'s test come out the other way takes
    checks the same input and fails: a check the path's tests decide (or, when not
    `surely`, also one of no other names than the site's own check reads, the values that
    failed it, which the way out leaves as they were: no sure way out)."""
    key = f"branch_refuses:{condition.line}:{condition.holds}"
    found = facts.once(key, lambda: _branch_refuses(condition, facts))
    return found == "fails" or (not surely and found == "checks")


def _branch_refuses(condition: ConditionView, facts: Facts) -> str | None:
    function = facts.site_function()
    outside = _outside(function, condition.line)
    # a test of a helper the site's function calls (`_check_cuda(tensor)`) is in its file;
    # the `if` on the line must test the same (a helper of another file has its own lines)
    guard = if_at(facts, condition.line, whole_file=outside)
    test = parse_expression(condition.test)
    if guard is None or test is None or ast.dump(guard.test) != ast.dump(test):
        return None
    block = guard.orelse if condition.holds else guard.body  # the branch the way out takes
    if outside:
        return "fails" if block and isinstance(block[0], ast.Raise) else None
    if not facts.conditions or not block:
        return None
    if _closed_after(test, block, condition.holds):
        return "checks"  # "other than 'auto'": the branch it takes refuses most values
    # what the way out changes: the names its test reads, no longer as the path held them
    moved = set(dotted_names(test))
    changed: dict[str, object] = dict.fromkeys(moved, _UNKNOWN)
    # the other arguments as a call leaving them out holds them: `allow_pickle=False` fails
    # `if not allow_pickle: raise` in the branch `proto=Protocol.pickle` takes
    changed |= _left_out(function, facts, moved) if function is not None else {}
    known = _path_known(facts, changed, condition)
    known.truth[_key(test)] = not condition.holds
    check = parse_expression(facts.conditions[-1].test)
    within = set(dotted_names(check)) - moved if check is not None else set()
    values = set()
    if check is not None and not _set_by_setting(test, facts):
        values = _own_values(_values_read(check) - moved, facts)
    skip = {c.line for c in facts.conditions}
    found = _fails(known, block, skip, within, values)
    if found is None and not _set_by_setting(test, facts):
        found = _others_refused(guard, block, moved, facts, function)
    return found


def _closed_after(test: ast.expr, block: list[ast.stmt], holds: bool) -> bool:
    """Whether the guard tests a value against one value and the way out ("other than V")
    takes the branch a value other than that takes (`block`: the else of a held `x == V`,
    the body of a failed `x != V`), which opens a chain of tests on the same value that
    each take a closed set of values (`x == C`, `x in TABLE`, `x in ("a", "b")`) and ends
    in a raise (`elif cache_dtype in TABLE: ... else: raise`, an else that logs first): "any
    value but that one" leads most values into that raise. A link taking an open set
    (`isinstance(x, str)`) or testing something else (`elif fallback:`) leaves the way out
    standing."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return False
    name = dotted_name(test.left)
    mirror = isinstance(test.ops[0], ast.Eq) if holds else isinstance(test.ops[0], ast.NotEq)
    if name is None or not mirror or not isinstance(block[0], ast.If):
        return False
    for link, taken in _chain(block[0]):
        if link is None:  # the chain's else: every value no link took
            return isinstance(taken[-1], ast.Raise)
        if not _closed_set(link, name):
            # an open set of values (`isinstance(x, str)`), or a test of something else
            # (`elif fallback:`), under which any value goes on
            return False
    return False  # no else: a value no link takes goes on past the chain


def _closed_set(test: ast.expr, name: str) -> bool:
    """Whether the test holds for a closed set of values of `name` only: `name == C`,
    `name in` a literal collection or a table (a name), an `or` of those, or an `and` with
    one of those among its parts."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or):
        return all(_closed_set(part, name) for part in test.values)
    if isinstance(test, ast.BoolOp):
        return any(_closed_set(part, name) for part in test.values)
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return False
    if dotted_name(test.left) != name:
        return False
    op, right = test.ops[0], test.comparators[0]
    if isinstance(op, ast.Eq):
        return isinstance(right, ast.Constant) or dotted_name(right) is not None
    closed = ast.List | ast.Tuple | ast.Set | ast.Dict
    return isinstance(op, ast.In) and (isinstance(right, closed) or dotted_name(right) is not None)


def _left_out(function: ast.FunctionDef, facts: Facts, moved: set[str]) -> dict[str, object]:
    """The function's parameters whose default is a literal, as a call that leaves them out
    holds them: those no test of the path reads (the path says what it holds of those), no
    local the way out turns is made of, and the function never assigns; and no direct
    caller gives another value (its users hold it otherwise)."""
    defaults = facts.once("left_out:defaults", lambda: _literal_defaults(function))
    if not defaults:
        return {}
    tested: set[str] = set()
    for condition in facts.conditions:
        node = parse_expression(condition.test)
        if node is not None:
            tested |= _roots(node)
    # what a local the way out turns is made of moves with it (`fused = cu_seqlens is not
    # None and ...`: a true `fused` means `cu_seqlens` was passed)
    roots = {n.split(".", 1)[0] for n in moved}
    for binding in facts.bindings:
        value = parse_expression(binding.value) if binding.name in roots else None
        if value is not None:
            tested |= _roots(value)
    left = {n: value for n, value in defaults.items() if n not in tested | moved}
    if not left:
        return {}
    passed = facts.once("left_out:passed", lambda: _passed_by_callers(function, facts))
    # every call giving another value (or one not known): no user holds the default
    return {
        n: value
        for n, value in left.items()
        if not passed.get(n) or any(v is not _UNKNOWN and v == value for v in passed[n])
    }


def _passed_by_callers(function: ast.FunctionDef, facts: Facts) -> dict[str, list[object]]:
    """Each parameter every direct call gives (by keyword or position) → the literal values
    the calls give it: a constant, or the caller's own parameter handed on as it is with its
    literal default (`load_file(..., allow_pickle=False)` passing `allow_pickle`), else
    `_UNKNOWN`. A parameter one call leaves out holds its default for that call's users;
    so does every parameter when a caller's body is not kept (a skeleton's blanked body) or
    a call hands on `*args` / `**kwargs` (not known which)."""
    args = function.args
    positional = [a.arg for a in (*args.posonlyargs, *args.args) if a.arg not in ("self", "cls")]
    names = [*positional, *(a.arg for a in args.kwonlyargs)]
    given: dict[str, list[object]] = {n: [] for n in names}
    for caller in (c for c in facts.callers if c.depth == 1):
        text = facts.source_text
        if caller.file != facts.stored.file:
            text = facts.file_text(caller.file) if facts.file_text is not None else None
        outer = function_at(text, caller.function.rpartition(".")[2], caller.line)
        if outer is None:
            return {}
        defaults = _literal_defaults(outer)
        for node in walk(outer):
            if not (isinstance(node, ast.Call) and _named(node.func) == function.name):
                continue
            if any(k.arg is None for k in node.keywords) or any(
                isinstance(a, ast.Starred) for a in node.args
            ):
                return {}
            for param, values in list(given.items()):
                position = positional.index(param) if param in positional else -1
                value = given_argument(node, param, position)
                if value is None:
                    del given[param]  # left out by this call: its default holds
                elif isinstance(value, ast.Constant):
                    values.append(value.value)
                elif isinstance(value, ast.Name) and value.id in defaults:
                    values.append(defaults[value.id])
                else:
                    values.append(_UNKNOWN)
    return {n: values for n, values in given.items() if values}


def _literal_defaults(function: ast.FunctionDef) -> dict[str, object]:
    """The function's parameters whose default is a literal, never assigned in its body
    (what its users get when they leave them out), each with that default."""
    args = function.args
    positional = [*args.posonlyargs, *args.args]
    pairs = list(
        zip(positional[len(positional) - len(args.defaults) :], args.defaults, strict=True)
    )
    pairs += [(a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d]
    literal = [(a.arg, d.value) for a, d in pairs if isinstance(d, ast.Constant)]
    if not literal:
        return {}  # (the body is not walked for what it assigns)
    assigned = {n.split(".", 1)[0] for s in function.body for n in stored(s)}
    return {name: value for name, value in literal if name not in assigned}


def _named(func: ast.expr) -> str | None:
    return func.attr if isinstance(func, ast.Attribute) else dotted_name(func)


def _others_refused(
    guard: ast.If,
    block: list[ast.stmt],
    moved: set[str],
    facts: Facts,
    function: ast.FunctionDef | None,
) -> str | None:
    """ "checks" when the branch a way out takes asserts on, or drops, an argument of the
    user's other than the one the way out changes and those the site's check reads (the
    same value is `_fails`'s): one the path's tests read, so the user's value of it shapes
    this failure. Passing `timeout` as a `Timeout` where that branch asserts `connect`
    unset, or as a tuple where that branch sets `self.connect` from the tuple while the
    others set it to `connect` (and nothing after the chain reads `connect`): no sure way
    out (the user's `connect` fails an assert, or is dropped without a word)."""
    check = parse_expression(facts.conditions[-1].test)
    if function is None or check is None:
        return None
    # what the way out changes: the names its test reads, and what a local of it is made of
    # (`trtllm = isinstance(meta.prefill, Kind)`: the way out changes `meta`)
    changed = {n.split(".", 1)[0] for n in moved}
    for binding in facts.bindings:
        value = parse_expression(binding.value) if binding.name in changed else None
        if value is not None:
            changed |= _roots(value)
    params = set(facts.read.params) - {"self", "cls"} - changed - _roots(check)
    tested: set[str] = set()
    for condition in facts.conditions[:-1]:
        node = parse_expression(condition.test)
        if node is not None:
            tested |= _roots(node)
    others = params & tested
    if not others:
        return None
    for test, fails_when, _, assigned in _checks(block):
        read = _roots(test) & others
        if not fails_when and read and not reassigned(read, assigned):
            return "checks"  # an `assert` of its own on the user's other argument
    if _in_loop(function, guard) or any(may_leave(s) for s in block):
        return None  # a branch that leaves early skips the work: nothing is dropped
    end = guard.end_lineno or guard.lineno
    after = {
        n.id
        for n in walk(function)
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.lineno > end
    }
    made = {n for statement in block for n in stored(statement)}
    kept = others - _names_read(block) - after
    for _, other in _chain(guard):
        if other is block:
            continue
        for target, param in _passed_through(other):
            if param in kept and target in made:
                return "checks"  # the branch sets `target` without the user's `param`
    return None


def _roots(node: ast.AST) -> set[str]:
    """The plain names an expression reads values of (`x` of `x.shape`)."""
    return {n.split(".", 1)[0] for n in _values_read(node)}


def _passed_through(block: list[ast.stmt]) -> Iterator[tuple[str, str]]:
    """(target, name) of the block's assignments that store a plain name as it is
    (`self.connect = connect`, `self.read = timeout if unset else read`)."""
    for statement in block:
        for node in walk(statement):
            if not isinstance(node, ast.Assign) or len(node.targets) != 1:
                continue
            target = dotted_name(node.targets[0])
            values = [node.value]
            if isinstance(node.value, ast.IfExp):
                values = [node.value.body, node.value.orelse]
            for value in values:
                if target is not None and isinstance(value, ast.Name):
                    yield target, value.id


def _names_read(block: list[ast.stmt]) -> set[str]:
    """The plain names a block loads (`connect`, the `x` of `x.shape`)."""
    return {
        node.id
        for statement in block
        for node in walk(statement)
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)
    }


def _chain(guard: ast.If) -> Iterator[tuple[ast.expr | None, list[ast.stmt]]]:
    """(the test, the block it takes) of each link of an `if`/`elif`/`else` chain, from
    `guard` on; the `else` comes with no test."""
    current: ast.If | None = guard
    while current is not None:
        yield current.test, current.body
        orelse = current.orelse
        if len(orelse) == 1 and isinstance(orelse[0], ast.If):
            current = orelse[0]
        else:
            if orelse:
                yield None, orelse
            current = None


def _in_loop(function: ast.FunctionDef, guard: ast.If) -> bool:
    return any(
        isinstance(n, ast.For | ast.AsyncFor | ast.While)
        and n.lineno < guard.lineno <= (n.end_lineno or n.lineno)
        for n in walk(function)
    )


def value_refused(function: ast.FunctionDef | None, param: str, value: object) -> bool:
    """Whether `function`, called with `param` given `value` (a constant, `TRUTHY` or
    `FALSY`), refuses it in a check every call meets that tests nothing else."""
    if function is None:
        return False
    known = KnownValues({param: value})
    return any(
        set(dotted_names(test)) == {param}
        and not reassigned({param}, assigned)
        and known.truth_of(test) is fails
        for test, fails, _, assigned in _checks(function.body)
    )


def passed_refused(
    instead: Instead, through: dict[str, str], owner: str | None, facts: Facts
) -> bool:
    """Whether the function an input way out passes its value to (the constructor, for an
    attribute it set from its keyword) refuses that value in a check of it alone."""
    name = instead.name
    value = _passed_value(instead)
    if name is None or value is _UNKNOWN:
        return False
    if name.startswith("self.") and name[5:] in through and owner:
        cls = class_in_file(facts, owner.rpartition(".")[2])
        body = cls.body if cls is not None else []
        init = next(
            (n for n in body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None
        )
        return value_refused(init, through[name[5:]], value)
    if name in facts.read.params:
        return value_refused(facts.site_function(), name, value)
    return False


def _passed_value(instead: Instead) -> object:
    """The value the way out passes: its literal, or only its truth."""
    if instead.after is not None:
        try:
            return ast.literal_eval(instead.after)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            pass
    if "non-empty (true)" in instead.text:
        return TRUTHY
    if "empty (false)" in instead.text:
        return FALSY
    return _UNKNOWN


def part_may_trip(part: ast.expr, condition: ConditionView, facts: Facts) -> list[int]:
    """The lines of the checks that making one part of `condition`'s `and` false (the part
    as the path holds it: `x is not None`, `x`, `not x`) fails, or may fail, the other parts
    and the path's other tests held as they are: a check before `condition` that the change
    leaves undecided counts too (a flag made false may meet a guard that reads it with other
    arguments of the same call). A check after `condition` is not reached when the change
    takes its other branch (`if x is None or x in K: return`); a bound on a number is
    checked where the value is chosen (`0` for an empty count, `_empty_number`). Lines
    compare only within the site's function: a helper's test on the path is told in the
    caller's words, its line in the helper's place."""
    function = facts.site_function()
    if function is None or _outside(function, condition.line):
        return [line for line, surely in _tripped_guards(part, condition, facts) if surely]
    first = function.lineno
    return [
        line
        for line, surely in _tripped_guards(part, condition, facts)
        if surely or first <= line < condition.line
    ]


def _tripped_guards(
    part: ast.expr, condition: ConditionView, facts: Facts
) -> Iterator[tuple[int, bool]]:
    """Each check of the path (a guard whose other branch raises) that reads the name the
    part reads, with whether making the part false surely fails it (else the change leaves
    it undecided; bounds that only order the name are left out of those). A key of a
    mapping (`data.get("tools") is not None`) is such a name too, and so is a local made
    from the name (`has_tools = tools is not None and ...`), read as what it was assigned."""
    keyed = _keyed_names(part)
    changed = flipped_value(keyed)
    if changed is None:
        return
    name, value = changed
    read = _reader(keyed is not part)
    known = KnownValues({name: value})
    for other in facts.conditions:
        node = read(other.text) if other is not condition else None
        if node is not None:
            known.learn(node, True)
    held = read(condition.text)
    if isinstance(held, ast.BoolOp) and isinstance(held.op, ast.And):
        for other_part in held.values:
            known.learn(other_part, True)  # those the way out leaves as the path holds them
    for guard in facts.conditions:
        node = read(guard.text) if guard is not condition else None
        if node is None:
            continue
        if name not in dotted_names(node):
            wide = (
                expanded(guard, facts).text if keyed is part else deep_expanded(guard.text, facts)
            )
            node = read(wide)
            if node is None or name not in dotted_names(node):
                continue
        raises = _raises_other_way(guard, facts)
        if not raises and not _same_error_beyond(guard, known, read, facts):
            continue
        known.truth.pop(_key(node), None)
        truth = known.truth_of(node)
        if truth is False:
            yield guard.line, True
        elif truth is None and raises and not _only_ordered(node, name):
            # (a branch that meets the same error only under the path's other tests
            # counts where the change surely takes it)
            yield guard.line, False


def _reader(keyed: bool) -> Callable[[str], ast.expr | None]:
    """How a test's text is read: with each key of a mapping as one name, where the part
    changed is such a key."""
    if not keyed:
        return parse_expression

    def read(text: str) -> ast.expr | None:
        node = parse_expression(text)
        return None if node is None else _keyed_names(node)

    return read


class _KeyedAsName(ast.NodeTransformer):
    """`data.get("tools")`, `data["tools"]` → one name, `data["tools"]`, that the path's
    values are known by."""

    def visit_Call(self, node: ast.Call) -> ast.expr:
        return self._key(node)

    def visit_Subscript(self, node: ast.Subscript) -> ast.expr:
        return self._key(node)

    def _key(self, node: ast.Call | ast.Subscript) -> ast.expr:
        found = field_key(node)
        holder = dotted_name(found[0]) if found is not None else None
        if found is None or holder is None or (isinstance(node, ast.Call) and len(node.args) > 1):
            return self.generic_visit(node)  # type: ignore[return-value]
        return ast.Name(id=f"{holder}[{found[1]!r}]", ctx=ast.Load())


def _keyed_names(node: ast.expr) -> ast.expr:
    """`node` with each key of a mapping it reads as one name (a copy), or `node` itself
    when it reads none."""
    if not any(
        field_key(n) is not None for n in walk(node) if isinstance(n, ast.Call | ast.Subscript)
    ):
        return node
    replaced: ast.expr = _KeyedAsName().visit(copy.deepcopy(node))
    return replaced


def _same_error_beyond(
    guard: ConditionView,
    known: KnownValues,
    read: Callable[[str], ast.expr | None],
    facts: Facts,
) -> bool:
    """Whether the branch of `guard` the path does not take raises the site's own error
    elsewhere in the function under what the path holds already: another raise of the same
    message whose path holds the opposite of `guard`, and no test of it that the path's own
    tests (and the way out) make false (`if not has_tools: ... elif named: raise E`, with
    `named` held on the way to this raise of E)."""
    opposite = (guard.line, guard.test, not guard.holds)
    for path in facts.same_error_paths:
        if opposite not in path:
            continue
        tests = [(read(t), holds) for line, t, holds in path if (line, t) != opposite[:2]]
        if all(node is None or known.truth_of(node) in (None, holds) for node, holds in tests):
            return True
    return False


def _only_ordered(node: ast.expr, name: str) -> bool:
    """Whether every reading of `name` in `node` is a side of `<`, `<=`, `>` or `>=`."""
    sides = {
        id(side)
        for compare in walk(node)
        if isinstance(compare, ast.Compare)
        and all(isinstance(op, ast.Lt | ast.LtE | ast.Gt | ast.GtE) for op in compare.ops)
        for side in (compare.left, *compare.comparators)
    }
    readings = [n for n in walk(node) if isinstance(n, ast.Name | ast.Attribute)]
    return all(id(n) in sides for n in readings if dotted_name(n) == name)


def flipped_value(part: ast.expr) -> tuple[str, object] | None:
    """The name a part of a test reads and the value making it false: `x is not None` →
    None, `x` → falsy, `not x` → truthy."""
    if isinstance(part, ast.UnaryOp) and isinstance(part.op, ast.Not):
        name = dotted_name(part.operand)
        return (name, TRUTHY) if name is not None else None
    if isinstance(part, ast.Compare) and len(part.ops) == 1 and is_none(part.comparators[0]):
        name = dotted_name(part.left)
        if name is not None and isinstance(part.ops[0], ast.IsNot):
            return name, None
        return None
    name = dotted_name(part)
    return (name, FALSY) if name is not None else None


def _raises_other_way(guard: ConditionView, facts: Facts) -> bool:
    """Whether the branch of `guard`'s `if` the path does not take starts with a `raise`
    (in the site's function as read at extraction, or in a helper's `if` of its file)."""
    if facts.read.other_branch_fails(guard.line, guard.holds):
        return True
    if not _outside(facts.site_function(), guard.line):
        return False
    found = if_at(facts, guard.line, whole_file=True)
    test = parse_expression(guard.test)
    if found is None or test is None or ast.dump(found.test) != ast.dump(test):
        return False
    block = found.orelse if guard.holds else found.body
    return bool(block) and isinstance(block[0], ast.Raise)


def setting_trips_guard(solution: Solution, facts: Facts) -> int | None:
    """Whether a setting's way out makes true the failing side of a guard on the path
    that the page calls no way out (its other branch fails): the rest of that guard's
    test holds already (`if hybrid and external: raise`, `--hybrid` given, for "turn
    `--external` on"). The guard's line, or None."""
    if solution.kind != "setting" or solution.knob is None or solution.condition is None:
        return None
    knob = next((k for k in facts.knobs if k.name == solution.knob), None)
    condition = next((c for c in facts.conditions if c.text == solution.condition), None)
    if knob is None or knob.behind is None or condition is None:
        return None
    truth = _new_truth(condition, knob.behind, facts)
    if truth is None:
        return None
    known = _path_known(facts, {knob.behind: TRUTHY if truth else FALSY}, condition)
    for guard in facts.conditions:
        if guard is condition or not facts.read.other_branch_fails(guard.line, guard.holds):
            continue
        node = parse_expression(guard.test)
        if node is None or knob.behind not in dotted_names(node):
            continue
        known.truth.pop(_key(node), None)
        if known.truth_of(node) is (not guard.holds):
            return guard.line
    return None


def _new_truth(condition: ConditionView, behind: str, facts: Facts) -> bool | None:
    """The truth a way out making `condition` false gives the knob's name: the test is
    the name (or its negation), or a local bound to an `and`/`or` of it."""
    node = parse_expression(condition.test)
    want = not condition.holds
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        node, want = node.operand, not want
    name = dotted_name(node) if node is not None else None
    if name is None:
        return None
    if name == behind:
        return want
    bound = next((b.value for b in facts.bindings if b.name == name), None)
    value = parse_expression(bound) if bound is not None else None
    if isinstance(value, ast.BoolOp) and any(dotted_name(v) == behind for v in value.values):
        return want
    return None
