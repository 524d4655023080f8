"""Conditions on the path to a site: tests with polarity, negated in readable Python."""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator

from errdex.ast_walk import node_fields
from errdex.extract.quick_unparse import quick_unparse
from errdex.facts import Condition, ConditionKind

# Comparison operators and their negations, so `x is None` negates to `x is not None`.
_NEGATED_OPS: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Lt: ast.GtE,
    ast.GtE: ast.Lt,
    ast.Gt: ast.LtE,
    ast.LtE: ast.Gt,
}


def negate(test: ast.expr) -> ast.expr:
    """The logical negation of `test`, simplified where it stays exact (De Morgan, `not not`)."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return test.operand
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        op = _NEGATED_OPS.get(type(test.ops[0]))
        if op is not None:
            return ast.Compare(left=test.left, ops=[op()], comparators=test.comparators)
    if isinstance(test, ast.BoolOp):
        flipped: ast.boolop = ast.Or() if isinstance(test.op, ast.And) else ast.And()
        return ast.BoolOp(op=flipped, values=[negate(v) for v in test.values])
    return ast.UnaryOp(op=ast.Not(), operand=test)


def dotted_names(node: ast.AST) -> list[str]:
    """Names and attribute chains rooted at a name (`envs.VLLM_X`, `self.a.b`), in order."""
    found: list[str] = []
    _collect_dotted(node, found)
    return list(dict.fromkeys(found))


def _collect_dotted(node: ast.AST, found: list[str]) -> None:
    # A module-level function, not a closure: a recursive closure is a reference cycle.
    if isinstance(node, NAME_OR_ATTRIBUTE):
        dotted = dotted_name(node)
        if dotted is not None:
            found.append(dotted)
            return
    for child in child_nodes(node):
        _collect_dotted(child, found)


# A tuple made once: `isinstance(x, A | B)` builds the union at each test, and this one is
# made on every node of every condition (and of the templates and shapes that import it).
NAME_OR_ATTRIBUTE = (ast.Name, ast.Attribute)

# Fields that hold only operator and context leaves (`Add()`, `Load()`): nodes without
# children, and never one that is looked for.
_LEAF_FIELDS = frozenset({"ctx", "op", "ops"})
_NODE_FIELDS: dict[type[ast.AST], tuple[str, ...]] = {}


def child_nodes(node: ast.AST) -> list[ast.AST]:
    """`ast.iter_child_nodes(node)` in its order, without operator and context leaves.

    A list rather than a generator, and the fields that may hold a node (`node_fields`)
    worked out once per node type: the walks over whole method bodies are much of the
    extraction's time.
    """
    cls = type(node)
    fields = _NODE_FIELDS.get(cls)
    if fields is None:
        fields = tuple(f for f in node_fields(cls) if f not in _LEAF_FIELDS)
        _NODE_FIELDS[cls] = fields
    out: list[ast.AST] = []
    for name in fields:
        value = getattr(node, name, None)
        if isinstance(value, ast.AST):
            out.append(value)
        elif isinstance(value, list):
            # (a list, not a generator: no frame resumed per item)
            out += [item for item in value if isinstance(item, ast.AST)]
    return out


def walk(node: ast.AST, keep: Callable[[ast.AST], bool] | None = None) -> Iterator[ast.AST]:
    """`ast.walk(node)`'s nodes in its order (breadth first), without the leaves above.

    With `keep`, children it rejects are left out with all they hold; the others come in
    the same order all the same.
    """
    queue = [node]
    for current in queue:  # the queue grows as it is read
        yield current
        children = child_nodes(current)
        queue.extend(children if keep is None else filter(keep, children))


def dotted_name(node: ast.expr) -> str | None:
    """`a.b.c` for a chain of attributes on a name, else None."""
    if node.__class__ is ast.Name:
        return node.id  # the most common case, made cheap
    if not isinstance(node, ast.Attribute):
        return node.id if isinstance(node, ast.Name) else None  # a call, a subscript...
    value = node.value
    if value.__class__ is ast.Name:
        return f"{value.id}.{node.attr}"  # `a.b`, the most common chain
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


class ConditionMaker:
    """Builds `Condition` records for one parsed text, keeping each test's source."""

    def __init__(self, source_of: Callable[[ast.AST], str]) -> None:
        self._source_of = source_of

    def make(self, test: ast.expr, kind: ConditionKind, *, holds: bool = True) -> Condition:
        source = self._source_of(test)
        if holds:
            text = source
        else:
            text = _unparse_normalized(negate(test))
        return Condition(test=source, kind=kind, holds=holds, line=test.lineno, text=text)

    def make_text(self, text: str, kind: ConditionKind, line: int) -> Condition:
        """A condition that is not a single expression (a loop header, an except clause)."""
        return Condition(test=text, kind=kind, holds=True, line=line, text=text)


def _unparse_normalized(node: ast.expr) -> str:
    try:
        # most tests: the same text without `ast.unparse`'s visitor (as deep a test
        # overflows either)
        quick = quick_unparse(node)
        return quick if quick is not None else ast.unparse(node)
    except (ValueError, AttributeError, RecursionError):  # malformed synthetic nodes
        return "not (...)"
