"""Environment variables read in the condition itself, in the forms the knob rules missed.

- a walrus binds the read (`(n := os.environ.get("OMP_NUM_THREADS")) is not None`): the
  test is on the read's value, and the local it binds holds that value in the conditions
  after it (`int(n) > 1`), as a local assigned the read does;
- the value is converted to a number before an order compares it with a literal
  (`int(n) > 1`): the way out is a value on the other side of the bound, and the bound
  itself (or the next whole number) is one to write in the example fix;
- only whether it is set is tested (`"X" in os.environ`, `"X" not in os.environ`): the way
  out is to unset it, or to set it (to any value, for this check).
"""

from __future__ import annotations

import ast

import msgspec

from errdex.ast_walk import walk
from errdex.explain.input_nodes import same_expression
from errdex.explain.page import ConditionView, Knob
from errdex.facts import KnobKind

_NUMBER = {"int": int, "float": float}
_ORDER = {ast.Gt: ">", ast.GtE: ">=", ast.Lt: "<", ast.LtE: "<="}


class _Unbound(ast.NodeTransformer):
    def visit_NamedExpr(self, node: ast.NamedExpr) -> ast.expr:
        value: ast.expr = self.visit(node.value)
        return value


def without_walrus(node: ast.expr) -> ast.expr:
    """The expression with each `(name := value)` replaced by its value, which is what
    the test reads; the node itself when it holds none (the common case: no copy). Only
    for environment knobs: a flag's JSON field reached so would be given `false` for a
    truthy test whatever its declared type (`reasoning_parser: str`)."""
    if not any(isinstance(n, ast.NamedExpr) for n in walk(node)):
        return node
    result: ast.expr = _Unbound().visit(_copy(node))
    return result


def _copy(node: ast.expr) -> ast.expr:
    # the parsed tree may be shared (a cached parse): the transformer works on a copy
    return ast.parse(ast.unparse(node), mode="eval").body


def with_walrus_locals(knobs: list[Knob], conditions: list[ConditionView]) -> list[Knob]:
    """The environment knobs again behind the locals a walrus binds them to: in
    `(n := os.environ.get("X")) is not None` then `int(n) > 1`, `n` is `X`'s value."""
    reads = {k.behind: k for k in knobs if k.kind == KnobKind.ENV and k.behind and k.same_value}
    if not reads:
        return knobs
    added: list[Knob] = []
    taken = {k.behind for k in knobs}
    for condition in conditions:
        if ":=" not in condition.text:
            continue
        try:
            tree = ast.parse(condition.text, mode="eval")
        except (SyntaxError, ValueError, RecursionError):
            continue
        for node in walk(tree):
            if not isinstance(node, ast.NamedExpr) or node.target.id in taken:
                continue
            knob = reads.get(ast.unparse(node.value))
            if knob is None:
                continue
            taken.add(node.target.id)
            via = f"the local `{node.target.id}` := `{knob.behind}` (line {condition.line})"
            added.append(msgspec.structs.replace(knob, behind=node.target.id, via=via))
    return knobs + added


def env_read_action(node: ast.expr, knob: Knob) -> tuple[str, str, str | None, str | None] | None:
    """(text, variable, before, after) of the forms above, for a `KnobAction`."""
    return _numeric_action(node, knob) or _membership_action(node, knob)


def _membership_action(
    node: ast.expr, knob: Knob
) -> tuple[str, str, str | None, str | None] | None:
    """`"X" in os.environ` holds on the way to the site: unset it; `not in`: set it. The
    variable is the knob's whatever name the code reads it through elsewhere."""
    if knob.kind != KnobKind.ENV or not isinstance(node, ast.Compare) or len(node.ops) != 1:
        return None
    left, right = node.left, node.comparators[0]
    if not (isinstance(left, ast.Constant) and left.value == knob.name):
        return None
    if ast.unparse(right) not in ("os.environ", "environ"):
        return None
    name = knob.name
    if isinstance(node.ops[0], ast.In):
        return f"Unset `{name}`", name, f"export {name}=VALUE", f"unset {name}"
    if isinstance(node.ops[0], ast.NotIn):
        return f"Set `{name}` (this check only tests that it is set)", name, None, None
    return None


def _numeric_action(node: ast.expr, knob: Knob) -> tuple[str, str, str, str] | None:
    """(text, variable, before, after) for `int(X) > 1` where `X` is the variable's value
    as it is: set it to a value on the other side of the bound (`X=1`). Not for a bound
    that only none of a thing passes (`int(X) > 0`: zero of what it counts)."""
    if knob.kind != KnobKind.ENV or not knob.same_value or knob.behind is None:
        return None
    if not (isinstance(node, ast.Compare) and len(node.ops) == 1):
        return None
    op = _ORDER.get(type(node.ops[0]))
    left, right = node.left, node.comparators[0]
    if op is None or not _converted(left, knob.behind):
        return None
    bound = right.value if isinstance(right, ast.Constant) else None
    if not isinstance(bound, int | float) or isinstance(bound, bool):
        return None
    if (op, bound) in ((">", 0), (">=", 1)):
        return None
    failing, passing = _values(op, bound)
    words = {">": "at most", ">=": "below", "<": "at least", "<=": "above"}[op]
    name = knob.name
    text = f"Set `{name}` to a value {words} {bound!r} (`{name}={passing}`)"
    return text, name, f"export {name}={failing}", f"export {name}={passing}"


def _converted(node: ast.expr, name: str) -> bool:
    """`int(name)` or `float(name)`: the variable's text read as a number."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in _NUMBER
        and len(node.args) == 1
        and not node.keywords
        and same_expression(node.args[0], name)
    )


def _values(op: str, bound: int | float) -> tuple[str, str]:
    """A value that meets `value <op> bound` and one that does not, as written in a shell."""
    step = 1 if isinstance(bound, int) else 0.5
    meets = {">": bound + step, ">=": bound, "<": bound - step, "<=": bound}[op]
    avoids = {">": bound, ">=": bound - step, "<": bound, "<=": bound + step}[op]
    return str(meets), str(avoids)
