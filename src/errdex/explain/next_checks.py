"""A way out that changes one argument must meet every other check of it on the way.

An input way out changes one value of the raising function's own arguments: leaves it
out (None), gives it a value, passes it empty, drops a member (`'x'` out of `mode`). The
same function may check that value again: a guard on the path that ties it to another
argument (`if (a is None) != (b is None): raise`, both given or neither: leaving out `a`
alone, with `b` given, trips it), or a check after the site (click's `open_stream` refuses
`'x'` in an atomic `mode`, then asks for `'w'`: leaving `'x'` out meets "only with
`w`-mode"). Such a way out is phrased to meet the next check (`'w'` in place of `'x'`) or
dropped ("What it means" says which test it would trip). A check whose outcome the path
does not decide is no evidence, and leaves the way out as it is.

What a way out changes is read from the data the input rules leave on it
(`Solution.argument`: the parameter, the function it is of, the value, the public call that
hands it on), never from its sentence, which later rules may word otherwise.
"""

from __future__ import annotations

import ast
import itertools
import re
from collections.abc import Iterator

import msgspec

from errdex.explain.context import Facts, holding_path, lines_of
from errdex.explain.page import ChangedArgument, Solution
from errdex.explain.plain import code
from errdex.explain.refused_ways import (
    FALSY,
    TRUTHY,
    KnownValues,
    may_leave,
    reassigned,
    stored,
)
from errdex.extract.conditions import dotted_name, dotted_names
from errdex.extract.shapes import is_none
from errdex.link.expression_texts import parse_expression

__all__ = ["next_checked"]

_UNKNOWN = object()
_MAX_FREE = 3  # other arguments a tied check reads, each tried given and left out
_LOOKAHEAD = 40  # lines below the site where a next check on the value is looked for
_MAX_NEXT = 12  # statements after the site's, in each block, read for a check


def next_checked(solution: Solution, facts: Facts) -> Solution | None:
    """`solution` as it stands, phrased to meet the next check on its value, or None when
    its value trips another check of the function (recorded in `facts.tripped`)."""
    if solution.kind != "input":
        return solution
    change = _changed(solution, facts)
    if change is None:
        return solution
    param, value = change
    if isinstance(value, _Member):
        return _member_phrased(solution, param, value, facts)
    line = _tripped_line(solution, param, value, facts)
    if line is None:
        return solution
    facts.tripped.append((msgspec.structs.replace(solution, knob=param), line))
    return None


class _Member:
    """A member left out of the argument (`'x'` out of `mode`)."""

    def __init__(self, member: str) -> None:
        self.member = member


_VALUES: dict[str, object] = {"None": None, "true": TRUTHY, "false": FALSY}


def _changed(solution: Solution, facts: Facts) -> tuple[str, object] | None:
    """(the argument of the raising function the way out changes, its new value)."""
    function = facts.stored.site.function
    own = (function, function.removesuffix(".__init__"))
    changed = solution.argument
    if changed is not None and changed.value in _VALUES:
        param = _own_argument(changed, facts, own)
        return (param, _VALUES[changed.value]) if param is not None else None
    called = _called_value(solution, own)
    if called is not None:
        return called
    param = _own_argument(changed, facts, own) if changed is not None else None
    if changed is not None and param is not None:
        return param, _Member(ast.literal_eval(changed.value))
    return None


def _own_argument(changed: ChangedArgument, facts: Facts, own: tuple[str, ...]) -> str | None:
    """The raising function's argument the way out changes: its own, or one a public call
    hands on to it as it is (`facts.entry_args`); None for another function's."""
    if changed.function not in own:
        return None
    if changed.through is None:
        return changed.param
    entry = facts.entry_args.get(changed.param)
    return changed.param if entry is not None and not entry.also else None


def _called_value(solution: Solution, own: tuple[str, ...]) -> tuple[str, object] | None:
    """(argument, literal) of a way out that passes the raising function's own argument
    an exact value (`Pass the argument `mode` of `f` equal to `'w'``)."""
    change = solution.change
    if change is None or change.form != "call" or change.argument is None:
        return None
    # a public call that hands the argument on: the call a user writes is not this one
    handed = solution.argument is not None and solution.argument.through is not None
    if change.keyword is not None or handed:
        return None
    target = change.target if change.method is None else f"{change.target}.{change.method}"
    if not any(target == f or target.endswith("." + f) for f in own):
        return None
    if change.after is None:
        return change.argument, None
    try:
        return change.argument, ast.literal_eval(change.after)
    except (SyntaxError, ValueError, RecursionError, MemoryError, TypeError):
        return None


def _roots(node: ast.AST) -> set[str]:
    return {n.split(".", 1)[0] for n in dotted_names(node)}


def _tripped_line(solution: Solution, param: str, value: object, facts: Facts) -> int | None:
    """The line of a check the changed value surely fails: a guard on the path whose other
    branch fails (before any test the value turns to a branch that goes on), or a check
    after the site."""
    old = _old_value(param, facts)
    site = facts.conditions[-1] if facts.conditions else None
    for condition in facts.conditions:
        if condition is site:
            break
        node = parse_expression(condition.test)
        if node is None or param not in _roots(node):
            continue
        if condition.text == solution.condition:
            return None  # the way out leaves the path here
        if not _surely_fails(node, not condition.holds, param, value, old, facts):
            continue
        if facts.read.other_branch_fails(condition.line, condition.holds):
            return condition.line
        return None  # an earlier exit or another branch takes the changed run
    if not _tested_below(param, facts):
        return None  # no test of it in the lines below the site: the function is not parsed
    function = facts.site_function()
    if function is None:
        return None
    for test, fails_when, line in _after_site(function, facts.stored.site.line, param):
        if _surely_fails(test, fails_when, param, value, old, facts):
            return line
    return None


def _tested_below(param: str, facts: Facts) -> bool:
    """Whether a line soon after the site tests `param` (`if`, `elif`, `assert`)."""
    if facts.source_text is None:
        return False
    line = facts.stored.site.line
    below = lines_of(facts.source_text)[line : line + _LOOKAHEAD]
    test = re.compile(rf"^\s*(?:if|elif|assert)\b.*\b{re.escape(param)}\b")
    return any(test.match(text) for text in below)


def _after_site(
    function: ast.FunctionDef, line: int, param: str
) -> Iterator[tuple[ast.expr, bool, int]]:
    """The checks sure to run after the statement holding the site, in its block and the
    blocks around it (up to a loop), while `param` keeps its value."""
    path = holding_path(function.body, line)
    # each level's block, the index of the statement holding the line, and the statement
    # whose block it is (None for the function's own)
    chain = [
        (block, index, path[depth - 1][0] if depth else None)
        for depth, (_, block, index) in enumerate(path)
    ]
    assigned: set[str] = set()
    for block, index, owner in reversed(chain):
        for statement in block[index + 1 : index + 1 + _MAX_NEXT]:
            if isinstance(statement, ast.Assert):
                test, fails_when = statement.test, False
            elif isinstance(statement, ast.If) and isinstance(statement.body[0], ast.Raise):
                test, fails_when = statement.test, True
            else:
                test = None
            if test is not None and param in _roots(test):
                if reassigned({param}, assigned):
                    return
                yield test, fails_when, statement.lineno
            if isinstance(statement, ast.Return | ast.Raise) or may_leave(statement):
                return
            assigned |= stored(statement)
        if len(block) > index + 1 + _MAX_NEXT:
            return  # read no further than the next few statements
        if owner is not None and not isinstance(owner, ast.If | ast.With | ast.Try):
            return  # a loop goes round again: what follows is not sure to run next


def _path(facts: Facts, skip: set[str]) -> list[tuple[ast.expr, bool]]:
    """The path's tests (and their truth) that read none of the names of `skip`."""
    out = []
    for condition in facts.conditions:
        node = parse_expression(condition.test)
        if node is not None and not _roots(node) & skip:
            out.append((node, condition.holds))
    return out


def _old_value(param: str, facts: Facts) -> object:
    """What the path says of the argument: given (not None), None, or unknown."""
    known = KnownValues({})
    for condition in facts.conditions:
        node = parse_expression(condition.test)
        if node is not None:
            known.learn(node, condition.holds)
    none_test = ast.Compare(
        left=ast.Name(id=param, ctx=ast.Load()), ops=[ast.Is()], comparators=[ast.Constant(None)]
    )
    truth = known.truth_of(none_test)
    if truth is None:
        return TRUTHY if param in known.not_none else _UNKNOWN
    return None if truth else TRUTHY


def _surely_fails(
    test: ast.expr, fails_when: bool, param: str, value: object, old: object, facts: Facts
) -> bool:
    """Whether `test` comes out `fails_when` with `param` given `value`, for every value
    of the other arguments it tests for None (given or not) that the path, with the old
    value, allows."""
    free = sorted({n for n in _none_tested(test) if n != param and n in facts.read.params})
    if len(free) > _MAX_FREE or (free and old is _UNKNOWN):
        return False
    tied = []
    for condition in facts.conditions:
        node = parse_expression(condition.test)
        if node is not None and _roots(node) & set(free):
            tied.append((node, condition.holds))
    outcomes = []
    for values in itertools.product((None, TRUTHY), repeat=len(free)):
        given: dict[str, object] = dict(zip(free, values, strict=True))
        if any(_truth({**given, param: old}, node, facts) is (not holds) for node, holds in tied):
            continue  # the path rules these values out
        outcomes.append(_truth({**given, param: value}, test, facts))
    return bool(outcomes) and all(o is fails_when for o in outcomes)


def _truth(values: dict[str, object], node: ast.expr, facts: Facts) -> bool | None:
    known = KnownValues(values)
    for path_node, holds in _path(facts, set(values)):
        known.learn(path_node, holds)
    return known.truth_of(node)


def _none_tested(node: ast.AST) -> list[str]:
    """The names an expression compares with None (`x is None`, `x is not None`)."""
    out = []
    for sub in ast.walk(node):
        if isinstance(sub, ast.Compare) and isinstance(sub.ops[0], ast.Is | ast.IsNot):
            name = dotted_name(sub.left) if is_none(sub.comparators[-1]) else None
            if name is not None and len(sub.ops) == 1:
                out.append(name)
    return out


def _member_phrased(solution: Solution, param: str, value: _Member, facts: Facts) -> Solution:
    """ "Leave `'x'` out of `mode`" with what the checks after the site ask `mode` to hold
    (`if "w" not in mode: raise`): "Use `'w'` in place of `'x'` in `mode`"."""
    function = facts.site_function() if _tested_below(param, facts) else None
    if function is None:
        return solution
    held = _members_held(param, facts)
    wanted = []
    for test, fails_when, line in _after_site(function, facts.stored.site.line, param):
        member = _membership(test, param)
        if member is None:
            continue
        key, inside = member
        needs = inside != fails_when  # `if k not in p: raise` asks for `k`
        if needs and key != value.member and held.get(key) is not True:
            wanted.append((key, line))
        if not needs and key == value.member:
            return solution  # said already
    if len(wanted) != 1:
        return solution
    key, line = wanted[0]
    dropped, put = code(repr(value.member)), code(repr(key))
    holder = solution.argument.words if solution.argument is not None else ""
    text = (
        f"Use {put} in place of {dropped} in {holder}: the check at line {line} asks "
        f"that {put} occurs in {code(param)}."
    )
    return msgspec.structs.replace(solution, text=text)


def _members_held(param: str, facts: Facts) -> dict[str, bool]:
    """The members the path says `param` holds (True) or lacks (False)."""
    out: dict[str, bool] = {}
    for condition in facts.conditions:
        node = parse_expression(condition.test)
        member = _membership(node, param) if node is not None else None
        if member is not None:
            key, inside = member
            out[key] = inside == condition.holds
    return out


def _membership(node: ast.AST, param: str) -> tuple[str, bool] | None:
    """(`k`, True) for `'k' in param`, (`k`, False) for `'k' not in param`."""
    if not (isinstance(node, ast.Compare) and len(node.ops) == 1):
        return None
    if not isinstance(node.ops[0], ast.In | ast.NotIn):
        return None
    left, right = node.left, node.comparators[0]
    if not (isinstance(left, ast.Constant) and isinstance(left.value, str)):
        return None
    if dotted_name(right) != param:
        return None
    return left.value, isinstance(node.ops[0], ast.In)
