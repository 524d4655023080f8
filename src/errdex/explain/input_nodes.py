"""The parts of a condition's expression that say what the input is: the names it reads,
a key tested for membership, a field read from a mapping, a builtin called, the members of a
literal collection, whether a name is computed with rather than tested for truth."""

from __future__ import annotations

import ast

import msgspec

from errdex.ast_walk import walk
from errdex.explain.page import ConditionView
from errdex.extract.conditions import dotted_name
from errdex.extract.shapes import and_parts
from errdex.link.expression_texts import parse_expression


class WrittenSet(frozenset[object]):
    """A set literal's members, printed in the order the code writes them: a set's own
    repr follows the strings' hashes, which differ from one process to the next, and a
    page must read the same in each."""

    order: tuple[object, ...]

    def __new__(cls, members: tuple[object, ...]) -> WrittenSet:
        made = super().__new__(cls, members)
        made.order = tuple(dict.fromkeys(members))
        return made

    def __repr__(self) -> str:
        return "{" + ", ".join(map(repr, self.order)) + "}" if self.order else "set()"


def literal_value(node: ast.expr) -> object:
    """`ast.literal_eval` of the node, a set literal as a `WrittenSet` (raises as it does)."""
    if isinstance(node, ast.Set):
        return WrittenSet(tuple(ast.literal_eval(member) for member in node.elts))
    return ast.literal_eval(node)


def free_names(node: ast.expr) -> list[str]:
    """The dotted names read (`self.x`, `url`, `MAX`), outermost chain only, and the
    bare names of calls' functions skipped when builtins (`len`, `isinstance`)."""
    out: list[str] = []

    def visit(n: ast.AST) -> None:
        if isinstance(n, ast.Attribute | ast.Name):
            dotted = dotted_name(n)
            if dotted is not None:
                out.append(dotted)
                return
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute):
            visit(n.func.value)  # `x.startswith(...)`: the receiver is what is read
            for arg in [*n.args, *(k.value for k in n.keywords)]:
                visit(arg)
            return
        if isinstance(n, ast.NamedExpr):
            visit(n.value)  # `(x := data.get("x")) is not None` reads the field
            return
        if isinstance(n, ast.comprehension | ast.Lambda | ast.GeneratorExp | ast.ListComp):
            out.append("<comprehension>")  # its own names: not worked out here
            return
        for child in ast.iter_child_nodes(n):
            visit(child)

    visit(node)
    return list(dict.fromkeys(out))


def key_test(node: ast.Compare) -> tuple[str, ast.expr] | None:
    """`"prompt" not in data` (or `in`): the key and the mapping the input holds."""
    left = node.left
    if (
        isinstance(node.ops[0], ast.In | ast.NotIn)
        and isinstance(left, ast.Constant)
        and isinstance(left.value, str)
    ):
        return left.value, node.comparators[0]
    return None


def field_key(node: ast.expr) -> tuple[ast.expr, str] | None:
    """`data.get("stream")` or `data["stream"]`: (`data`, `stream`), a field of a mapping
    the caller passed (a request body, a config dict)."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "get"
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    ):
        return node.func.value, node.args[0].value
    if (
        isinstance(node, ast.Subscript)
        and isinstance(node.slice, ast.Constant)
        and isinstance(node.slice.value, str)
    ):
        return node.value, node.slice.value
    return None


def kwargs_key(value: ast.expr, keywords: str | None) -> str | None:
    """`k` of `kwargs["k"]`, `kwargs.get("k", ...)`, `kwargs.pop("k", ...)`."""
    if keywords is None:
        return None
    if isinstance(value, ast.Subscript):
        owner, key = value.value, value.slice
    elif (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Attribute)
        and value.func.attr in ("get", "pop")
        and value.args
    ):
        owner, key = value.func.value, value.args[0]
    else:
        return None
    named = isinstance(owner, ast.Name) and owner.id == keywords
    if named and isinstance(key, ast.Constant) and isinstance(key.value, str):
        return key.value
    return None


def is_call(node: ast.Call, name: str) -> bool:
    return isinstance(node.func, ast.Name) and node.func.id == name


def collection_members(collection: ast.expr) -> list[ast.expr] | None:
    """The members of a literal collection (a dict's keys), None for anything else."""
    if isinstance(collection, ast.Dict):
        return [k for k in collection.keys if k is not None]
    if isinstance(collection, ast.Tuple | ast.List | ast.Set):
        return list(collection.elts)
    return None


def conjuncts(text: str) -> tuple[ast.expr, list[ast.expr]] | None:
    """A condition's expression and the parts of it that all hold (`a and b`: both; else
    the whole), or None when it does not parse."""
    node = parse_expression(text)
    if node is None:
        return None
    return node, and_parts(node)


def part_views(condition: ConditionView) -> list[ConditionView] | None:
    """Each part of an `and` as a condition of its own (`proxy and proxies`: two), the
    condition itself when it is no `and`; None when it does not parse."""
    found = conjuncts(condition.text)
    if found is None:
        return None
    node, parts = found
    if parts[0] is node:
        return [condition]
    texts = [ast.unparse(part) for part in parts]
    return [msgspec.structs.replace(condition, text=t, test=t, plain=None) for t in texts]


def computed_with(node: ast.expr, name: str) -> bool:
    """Whether the condition reads `name` only in a computation or comparison that one
    `and` holds: not as a truth value (whose type is not known here), not beside another
    way the condition holds (`a > 0 or b > 0`: changing `a` alone is not enough)."""
    parents = {id(c): n for n in walk(node) for c in ast.iter_child_nodes(n)}
    found = False
    for child in walk(node):
        if not same_expression(child, name):
            continue
        found = True
        parent = parents.get(id(child))
        if parent is None or isinstance(parent, ast.BoolOp | ast.UnaryOp):
            return False
        above: ast.AST | None = parent
        while above is not None:
            if isinstance(above, ast.BoolOp) and isinstance(above.op, ast.Or):
                return False
            above = parents.get(id(above))
    return found


def same_expression(node: ast.AST, name: str) -> bool:
    """Whether the node is `name` itself (a name, an attribute, a call or a subscript)."""
    if not isinstance(node, ast.Name | ast.Attribute | ast.Call | ast.Subscript):
        return False
    try:
        return ast.unparse(node) == name
    except (ValueError, RecursionError):
        return False


def none_compared(node: ast.expr) -> tuple[str, bool] | None:
    """(the name, True for `is`, False for `is not`) of `name is None` / `name is not
    None`; None for any other test."""
    if not (
        isinstance(node, ast.Compare)
        and isinstance(node.left, ast.Name)
        and len(node.ops) == 1
        and isinstance(node.ops[0], ast.Is | ast.IsNot)
        and isinstance(node.comparators[0], ast.Constant)
        and node.comparators[0].value is None
    ):
        return None
    return node.left.id, isinstance(node.ops[0], ast.Is)


def assignment_targets(node: ast.AST) -> list[ast.expr]:
    """What an assignment statement (or a walrus) binds: `a = b = 1` → `a`, `b`."""
    if isinstance(node, ast.Assign):
        return list(node.targets)
    if isinstance(node, ast.AugAssign | ast.AnnAssign | ast.NamedExpr):
        return [node.target]
    return []


def stored_roots(target: ast.expr) -> list[str]:
    """The names an assignment target binds or changes an item or attribute of: `x` of
    `x[i] = v`, not `i`."""
    out = []
    for node in walk(target):
        if not isinstance(getattr(node, "ctx", None), ast.Store):
            continue
        while isinstance(node, ast.Subscript | ast.Attribute):
            node = node.value
        if isinstance(node, ast.Name):
            out.append(node.id)
    return out
