"""Validators a module hands on by name: a table's items, a generator's `yield`.

A framework that picks a function for a field's type from a table (`(date, [parse_date])`,
`{bool: bool_validator}`) or yields it from its lookup (`yield none_validator`) runs it on
the user's data: no user calls it. Which type the table pairs it with says which fields
reach it ("a field declared as `date`").
"""

from __future__ import annotations

import ast
import re

from errdex.explain.context import Facts
from errdex.explain.plain import code
from errdex.extract.conditions import dotted_name

# Words of a table's or a lookup's name (or the function's own) that say it validates data.
_VALIDATING = re.compile(r"valid|pars|conver|coerc", re.IGNORECASE)
_MAX_TYPES = 3


def handed_on(facts: Facts, name: str) -> str | None:
    """The words for the fields a module-level function validates ("a field declared as
    `date`", "the field") when its module hands it on by name from a validating table or
    lookup, or None."""
    text = facts.source_text or ""
    # read in the text first: most functions are never named outside a call or their `def`
    shape = rf"(?:[\[(,{{:]|\byield)\s*{re.escape(name)}\s*[\]),}}\n]"
    if re.search(shape, text) is None:
        return None
    tree = facts.source_tree()
    if tree is None:
        return None
    types: list[str] = []
    found = False
    own = _VALIDATING.search(name) is not None
    for statement in tree.body:
        holder = _holder(statement)
        if holder is None or not (own or _VALIDATING.search(holder)):
            continue
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
            found = found or any(
                isinstance(n, ast.Yield | ast.YieldFrom) and _names(n.value, name)
                for n in ast.walk(statement)
            )
            continue
        value = statement.value if isinstance(statement, ast.Assign | ast.AnnAssign) else None
        if value is None or not isinstance(value, ast.List | ast.Tuple | ast.Set | ast.Dict):
            continue
        for key, item in _pairs(value):
            if _names(item, name):
                found = True
                kind = dotted_name(key) if isinstance(key, ast.Name | ast.Attribute) else None
                if kind is not None and kind not in types:
                    types.append(kind)
    if not found:
        return None
    if not types or len(types) > _MAX_TYPES:
        return "the field"
    return "a field declared as " + " or ".join(code(t) for t in types)


def _holder(statement: ast.stmt) -> str | None:
    """The name of a module-level table or function."""
    if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
        return statement.name
    if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
        return statement.target.id
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
        target = statement.targets[0]
        return target.id if isinstance(target, ast.Name) else None
    return None


def _pairs(table: ast.expr) -> list[tuple[ast.expr | None, ast.expr]]:
    """A table's (key, item) pairs: a dict's entries, a list's `(key, item)` tuples, or its
    plain items (no key)."""
    if isinstance(table, ast.Dict):
        return [(k, v) for k, v in zip(table.keys, table.values, strict=True)]
    pairs: list[tuple[ast.expr | None, ast.expr]] = []
    for element in table.elts if isinstance(table, ast.List | ast.Tuple | ast.Set) else []:
        if isinstance(element, ast.Tuple) and len(element.elts) == 2:
            pairs.append((element.elts[0], element.elts[1]))
        else:
            pairs.append((None, element))
    return pairs


def _names(node: ast.expr | None, name: str) -> bool:
    """Whether `node` is the function's name, or a list of items one of which is (or an
    item wrapping it: `IfConfig(f, ...)`), never a call of it."""
    if node is None:
        return False
    if isinstance(node, ast.Name):
        return node.id == name
    if isinstance(node, ast.List | ast.Tuple | ast.Set):
        return any(_names(e, name) for e in node.elts)
    if isinstance(node, ast.Call):
        return any(isinstance(a, ast.Name) and a.id == name for a in node.args)
    return False
