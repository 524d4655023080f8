"""`ast.walk`, the same nodes in the same order, about three times faster.

`ast.walk` finds each node's children through two generators (`iter_child_nodes`,
`iter_fields`) that read every field, names and strings too: a page's rules walk the site's
function and file dozens of times, and those walks were a fifth of a cold page's model.
This walk reads only the fields whose grammar type can hold a node (`identifier`,
`string`, `constant` and `int` fields never do), worked out once per node type from the
class's signature, and keeps its queue in one list. Unlike `extract.conditions.walk`, it
drops nothing: context and operator leaves (`Load()`, `Add()`) come as `ast.walk` gives them.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

__all__ = ["node_fields", "walk"]

# Grammar types of values that are never a node (`Name(identifier id, expr_context ctx)`).
_LEAF_TYPES = frozenset({"identifier", "string", "constant", "int"})
_SIGNATURE = re.compile(r"\w+\((.*)\)", re.S)
_FIELDS: dict[type[ast.AST], tuple[str, ...]] = {}


def node_fields(cls: type[ast.AST]) -> tuple[str, ...]:
    """The fields of a node type that may hold a node or a list of nodes, in `_fields`
    order: from the grammar signature of the class's docstring, or every field when it has
    none to read (a type this reading does not know is walked as `ast.walk` walks it)."""
    found = _FIELDS.get(cls)
    if found is None:
        found = _FIELDS[cls] = _read_fields(cls)
    return found


def _read_fields(cls: type[ast.AST]) -> tuple[str, ...]:
    fields = tuple(getattr(cls, "_fields", ()))
    signature = _SIGNATURE.fullmatch((cls.__doc__ or "").strip())
    if signature is None:
        return fields
    declared: dict[str, str] = {}
    for part in signature.group(1).split(","):
        kind, _, name = part.strip().rpartition(" ")
        declared[name] = kind.rstrip("*?")
    if set(declared) != set(fields):
        return fields  # not the signature of these fields: read every one
    return tuple(f for f in fields if declared[f] not in _LEAF_TYPES)


def walk(node: ast.AST) -> Iterator[ast.AST]:
    """Every node under `node` (itself first), breadth first, in `ast.walk`'s order."""
    queue = [node]
    for current in queue:  # the queue grows as it is read
        cls = type(current)
        fields = _FIELDS.get(cls)
        if fields is None:
            fields = node_fields(cls)
        for name in fields:
            value = getattr(current, name, None)
            if isinstance(value, list):
                for item in value:
                    if isinstance(item, ast.AST):
                        queue.append(item)
            elif isinstance(value, ast.AST):
                queue.append(value)
        yield current
