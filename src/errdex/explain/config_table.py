"""A value a program reads from a table of the user's TOML config file: the way out is that
key of that table, with a value of the type the check asks for.

A tool reads its settings from a table of a TOML file (`[tool.pydantic-mypy]` of the
`pyproject.toml` mypy reads) and type-checks each value:

    toml_config = parse_toml(options.config_file)
    config = toml_config.get('tool', {}).get('pydantic-mypy', {})
    for key in self.__slots__:
        setting = config.get(key, False)
        if not isinstance(setting, bool):
            raise ValueError(f'Configuration value must be a boolean for key: {key}')

No argument or flag of the user's decides `setting`: the line of their config file does.
The page says which table and what type: "In the `[tool.pydantic-mypy]` table of the TOML
file `options.config_file` names, set the key the message names to a boolean (`true` or
`false`)". Only where the whole route is in the site's function: the test is an `isinstance`
of a local read by one key (`.get(key, ...)` or `[key]`) from a local that is a chain of
literal keys (`.get('tool', {})`, `['tool']`) of what a TOML parse returned (a call whose
name says `toml`: `tomllib.load`, `toml.loads`, `parse_toml`); a key that is a variable is
named only where the message shows its value.
"""

from __future__ import annotations

import ast
import re

from errdex.ast_walk import walk_scope
from errdex.explain.context import Facts
from errdex.explain.page import Solution
from errdex.explain.plain import code, listed
from errdex.extract.shapes import isinstance_test
from errdex.facts import ErrorSite, Placeholder, SiteKind
from errdex.link.expression_texts import parse_expression

__all__ = ["config_table_solution"]

# A Python type as the TOML value that has it.
_TOML_VALUES = {
    "bool": "a boolean (`true` or `false`)",
    "int": "an integer",
    "float": "a float",
    "str": "a string",
    "list": "an array",
    "dict": "a table",
}
_TOML_CALL = re.compile(r"toml", re.I)
_MAX_HOPS = 12  # keys and locals followed from the key read back to the parse


def config_table_solution(facts: Facts) -> Solution | None:
    """The key of the TOML table whose value the site's `isinstance` test refuses, or None."""
    site = facts.stored.site
    if site.kind != SiteKind.RAISE or "toml" not in (facts.source_text or "").lower():
        return None
    function = facts.site_function()
    if function is None:
        return None
    assigned = _assignments(function)
    for condition in site.conditions:
        tested = _refused_type(condition.test, condition.holds)
        if tested is None:
            continue
        name, types = tested
        read = _before(assigned, name, condition.line)
        found = _table_key(assigned, read) if read is not None else None
        if read is None or found is None:
            continue
        table, key, parsed = found
        wanted = [_TOML_VALUES.get(t) for t in types]
        if not wanted or None in wanted:
            continue
        named = _key_named(site, key)
        if named is None:
            continue
        value = listed([w for w in wanted if w is not None], "or")
        return Solution(
            text=(
                f"In the `[{table}]` table of {parsed}, set {named} to {value}"
                f"{_default_passes(read.value, types)}: the check at line {condition.line} "
                f"tests {code(name)}, the value the program reads of that key (line "
                f"{read.lineno})."
            ),
            kind="input",
            condition=condition.statement,
        )
    return None


def _assignments(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.Assign]:
    """The function's assignments to one local name, in line order."""
    return sorted(
        (
            node
            for node in walk_scope(function.body)
            if isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
        ),
        key=lambda node: node.lineno,
    )


def _before(assigned: list[ast.Assign], name: str, line: int) -> ast.Assign | None:
    """The last assignment to `name` above `line` (a branch's own, not the other's below)."""
    found = None
    for node in assigned:
        target = node.targets[0]
        if node.lineno < line and isinstance(target, ast.Name) and target.id == name:
            found = node
    return found


def _refused_type(test: str, holds: bool) -> tuple[str, list[str]] | None:
    """(`setting`, [`bool`]) for a test `isinstance(setting, bool)` false on the raise's
    path (`not isinstance(...)` true)."""
    node = parse_expression(test.strip())
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        node, holds = node.operand, not holds
    tested = isinstance_test(node) if node is not None and not holds else None
    if tested is None:
        return None
    value, kind = tested
    if not isinstance(value, ast.Name):
        return None
    kinds = kind.elts if isinstance(kind, ast.Tuple) else [kind]
    if not all(isinstance(k, ast.Name) for k in kinds):
        return None
    return value.id, [k.id for k in kinds if isinstance(k, ast.Name)]


def _table_key(assigned: list[ast.Assign], read: ast.Assign) -> tuple[str, ast.expr, str] | None:
    """("tool.pydantic-mypy", the key, what names the file) when `read` takes one key of a
    chain of literal keys, through locals, of what a TOML parse returned."""
    step = _one_key(read.value)
    if step is None:
        return None
    node, key = step
    keys: list[str] = []
    line = read.lineno
    for _ in range(_MAX_HOPS):
        inner = _one_key(node)
        if inner is not None:
            node, literal = inner
            if not isinstance(literal, ast.Constant) or not isinstance(literal.value, str):
                return None
            keys.append(literal.value)
            continue
        if not isinstance(node, ast.Name):
            return None
        local = _before(assigned, node.id, line)
        if local is None:
            return None
        named = _parsed_file(local.value)
        if named is not None:
            return (".".join(reversed(keys)), key, named) if keys else None
        node, line = local.value, local.lineno
    return None


def _one_key(node: ast.expr) -> tuple[ast.expr, ast.expr] | None:
    """(the mapping, the key) of `mapping.get(key, ...)` or `mapping[key]`."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "get"
        and 1 <= len(node.args) <= 2
        and not node.keywords
    ):
        return node.func.value, node.args[0]
    if isinstance(node, ast.Subscript) and not isinstance(node.slice, ast.Slice):
        return node.value, node.slice
    return None


def _default_passes(read: ast.expr, types: list[str]) -> str:
    """ ", or leave it out (its default, `False`, is one)" when `.get(key, default)`'s
    default has a type the check takes; "" otherwise."""
    if not isinstance(read, ast.Call) or len(read.args) != 2:
        return ""
    default = read.args[1]
    if not isinstance(default, ast.Constant) or type(default.value).__name__ not in types:
        return ""
    return f", or leave it out (its default, {code(repr(default.value))}, is one)"


def _key_named(site: ErrorSite, key: ast.expr) -> str | None:
    """`the key `init_typed`` for a literal, "the key the message names" for a variable the
    message shows; None for a key the user cannot see."""
    if isinstance(key, ast.Constant) and isinstance(key.value, str):
        return f"the key {code(key.value)}"
    if isinstance(key, ast.Name) and site.message is not None:
        shown = {p.expr for p in site.message.parts if isinstance(p, Placeholder)}
        if key.id in shown:
            return "the key the message names"
    return None


def _parsed_file(call: ast.expr) -> str | None:
    """ "`options.config_file` names" for a TOML parse of that; None for any other value."""
    if not isinstance(call, ast.Call):
        return None
    func = call.func
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        called = f"{func.value.id}.{func.attr}"  # `tomllib.load`, not `config.get` of a read
    elif isinstance(func, ast.Name):
        called = func.id  # `parse_toml`
    else:
        return None
    if not _TOML_CALL.search(called) or called.rpartition(".")[2] == "get":
        return None
    if len(call.args) != 1:
        return "the TOML config file the program reads"
    given = call.args[0]
    if isinstance(given, ast.Constant) and isinstance(given.value, str):
        return f"the TOML file {code(given.value)}"
    return f"the TOML config file ({code(ast.unparse(given))})"
