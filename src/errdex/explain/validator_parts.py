"""The parts of a validator's check that the user's data decides.

A validator's test often joins a test of the value with a test of the bound the field or
the model's config declares: `max_length is not None and len(v) > max_length` fails only
when a limit is set, and the data's way out is the value's part alone (a value within the
limit); the bound is the user's declaration, a way out of its own (`config_limit`), and
a bound the field declares else the config (`A if A is not None else B`) is one bound
(`fallback_bounds`). Tests of identity against constants (`v is True or v is False`) are
one membership test, which the input rules put in words (`v in (True, False)`).
"""

from __future__ import annotations

import ast
import copy
import re
from collections.abc import Callable

from errdex.ast_walk import walk
from errdex.explain.input_nodes import free_names
from errdex.extract.conditions import dotted_name
from errdex.extract.shapes import is_none, is_not_none, isinstance_of

# "at most the config's `max_anystr_length`": a bound the model's config sets alone
_CONFIG_BOUND = re.compile(r"\b(at most|at least|above|below) the config's `(\w+)`(?! \(else)")


def attributes_read(node: ast.expr) -> ast.expr:
    """`getattr(field.type_, "_required_version", None)` as `field.type_._required_version`,
    so the field's declared bound is put in words as a read of it is: a `getattr` of a
    literal name with no default (a missing attribute raises another error), or one whose
    default the same test rules out (`wanted and v.version != wanted`, `wanted is not None
    and ...`, `wanted` being that `getattr`): where the attribute is missing, the default
    stands and the check does not apply, so the value the page names is the field's own. A
    default the test may compare with (`len(v) > getattr(field.type_, "max_length", 10)`,
    or None with no such guard) stands where the type sets none: read as the attribute
    alone, the page would say the field's own value where there is none. Other nodes
    unchanged; the node given is not changed."""
    guarded = _guarded_reads(node)
    if not any(_literal_getattr(n, guarded) is not None for n in walk(node)):
        return node
    read: ast.expr = _AttributeReads(guarded).visit(copy.deepcopy(node))
    return read


def _guarded_reads(node: ast.expr) -> frozenset[str]:
    """The `ast.dump` of each `getattr` with a default that a part of the `and` `node` tests
    for being set where that default is not: `getattr(...)` itself with a false default
    (None, 0, an empty string), `getattr(...) is not None` with None."""
    if not (isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And)):
        return frozenset()
    found: set[str] = set()
    for part in node.values:
        tested = is_not_none(part)
        call = part if tested is None else tested
        unset: Callable[[ast.expr], bool] = _false_constant if tested is None else is_none
        if (
            isinstance(call, ast.Call)
            and isinstance(call.func, ast.Name)
            and call.func.id == "getattr"
            and len(call.args) == 3
            and unset(call.args[2])
        ):
            found.add(ast.dump(call))
    return frozenset(found)


def _false_constant(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and not node.value


def _literal_getattr(node: ast.AST, guarded: frozenset[str]) -> ast.Attribute | None:
    """`getattr(obj, "name")` of a dotted `obj` as `obj.name`, or with a default when the
    test rules that default out (`guarded`); else None."""
    if not (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "getattr"
        and len(node.args) in (2, 3)
        and not node.keywords
    ):
        return None
    obj, name = node.args[0], node.args[1]
    if len(node.args) == 3 and ast.dump(node) not in guarded:
        return None
    if dotted_name(obj) is None:
        return None
    if not (isinstance(name, ast.Constant) and isinstance(name.value, str)):
        return None
    if not name.value.isidentifier():
        return None
    return ast.copy_location(ast.Attribute(value=obj, attr=name.value, ctx=ast.Load()), node)


class _AttributeReads(ast.NodeTransformer):
    def __init__(self, guarded: frozenset[str]) -> None:
        self.guarded = guarded

    def visit_Call(self, node: ast.Call) -> ast.AST:
        read = _literal_getattr(node, self.guarded)
        return read if read is not None else self.generic_visit(node)


def grouped(node: ast.expr, value: str) -> ast.expr:
    """`v is True or v is False` as `v in (True, False)`; `v is not True and v is not
    False` as `v not in (True, False)`; inside an `or` as well. Other nodes unchanged."""
    if not isinstance(node, ast.BoolOp):
        return node
    same = ast.Is if isinstance(node.op, ast.Or) else ast.IsNot
    constants = [_identity(part, value, same) for part in node.values]
    if all(c is not None for c in constants):
        member = ast.In() if same is ast.Is else ast.NotIn()
        values: list[ast.expr] = [c for c in constants if c is not None]
        return ast.Compare(
            left=ast.Name(id=value, ctx=ast.Load()),
            ops=[member],
            comparators=[ast.Tuple(elts=values, ctx=ast.Load())],
        )
    if isinstance(node.op, ast.Or):
        return ast.BoolOp(op=ast.Or(), values=[grouped(p, value) for p in node.values])
    return node


def value_part(node: ast.expr, value: str) -> ast.expr | None:
    """Of an `and` that joins a test of the value with tests that do not read it (the
    bound the field or config declares is set) or that only say which kind of value the
    check is for (a positive `isinstance` of the value), that one test: the part the data
    can fail. None when the `and` is not of that shape."""
    if not isinstance(node, ast.BoolOp) or not isinstance(node.op, ast.And):
        return None
    reading = [p for p in node.values if _reads(p, value)]
    kept = [p for p in reading if isinstance_of(p, value) is None]
    if len(kept) != 1 or len(kept) == len(node.values):
        return None  # every part a test of the value: the input rules say them together
    if _normalized_match(kept[0], value):
        return None  # `v.upper() == "X"`: "other than `'X'`" would let `'x'` through
    return kept[0]


def _normalized_match(node: ast.expr, value: str) -> bool:
    """`v.upper() == "X"`, `v.lower() in (...)`: a test of the value's method's result
    that holds for a match, whose way out is no one value."""
    if not (isinstance(node, ast.Compare) and len(node.ops) == 1):
        return False
    if not isinstance(node.ops[0], ast.Eq | ast.In):
        return False
    left = node.left
    return (
        isinstance(left, ast.Call)
        and isinstance(left.func, ast.Attribute)
        and dotted_name(left.func.value) == value
    )


def _reads(node: ast.expr, value: str) -> bool:
    return value in {n.split(".")[0] for n in free_names(node)}


def _identity(node: ast.expr, value: str, op: type[ast.cmpop]) -> ast.expr | None:
    """The constant of `v is C` (`v is not C` for `IsNot`), else None."""
    if not (isinstance(node, ast.Compare) and len(node.ops) == 1):
        return None
    if not isinstance(node.ops[0], op):
        return None
    if not (isinstance(node.left, ast.Name) and node.left.id == value):
        return None
    right = node.comparators[0]
    return right if isinstance(right, ast.Constant) else None


def config_limit(said: str) -> str:
    """After the value within a bound the model's config sets (pydantic's `config` handed
    to a validator is the model's `Config`), the limit itself: a way out that changes what
    the user declared, so said second ("raise `max_anystr_length` in ... `Config`")."""
    found = _CONFIG_BOUND.search(said)
    if found is None:
        return ""
    verb = "raise" if found.group(1) in ("at most", "above") else "lower"
    key = found.group(2)
    return (
        f" If the limit is yours to change, {verb} `{key}` in your model's config "
        f"(`{key} = ...` in the `class Config:` of its body)."
    )


def fallback_bounds(node: ast.expr) -> tuple[ast.expr, dict[str, tuple[str, str]]]:
    """The test with each `A if A is not None else B` of dotted names put as one name,
    and what each name stands for."""
    found: dict[str, tuple[str, str]] = {}

    class _Bounds(ast.NodeTransformer):
        def visit_IfExp(self, exp: ast.IfExp) -> ast.AST:
            test = exp.test
            first, fallback = dotted_name(exp.body), dotted_name(exp.orelse)
            if (
                isinstance(test, ast.Compare)
                and len(test.ops) == 1
                and isinstance(test.ops[0], ast.IsNot)
                and is_none(test.comparators[0])
                and first is not None
                and fallback is not None
                and dotted_name(test.left) == first
            ):
                name = f"bound_{len(found)}"
                found[name] = (first, fallback)
                return ast.Name(id=name, ctx=ast.Load())
            return exp

    if not any(isinstance(n, ast.IfExp) for n in walk(node)):
        return node, found
    return _Bounds().visit(copy.deepcopy(node)), found
