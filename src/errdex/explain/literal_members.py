"""The values a check's `Literal` type or enum names: `mode not in get_args(PauseMode)`.

A validator often tests an argument against the members of a type it declares once at the
top of a module (SQLAlchemy's `join_transaction_mode not in JoinTransactionMode.__args__`,
with `JoinTransactionMode = Literal["conditional_savepoint", ...]`; vllm's
`mode not in get_args(PauseMode)`; `regime not in QuickReduceRegime.__members__`). The
condition names the type, not its values, so no rule on the input can say what to pass.
Here the type is found (in the site's file, or the module it imports it from, as the index
holds them) and the condition is rewritten with the values in its place, for the input
rules to read as any literal collection: "pass it as one of 'conditional_savepoint', ...".
"""

from __future__ import annotations

import ast
import re
import textwrap
from collections.abc import Callable, Sequence

import msgspec

from errdex.explain.context import Facts, parse_module
from errdex.explain.page import ConditionView
from errdex.explain.table_lookup import imported_from
from errdex.store.base import Store, StoredSite

# `get_args(X)`, `typing.get_args(X)`, `X.__args__`: a Literal's values; `X.__members__`:
# an enum's member names.
_NAMED = re.compile(
    r"\b(?:typing\.)?get_args\(\s*([A-Za-z_]\w*)\s*\)|\b([A-Za-z_]\w*)\.(__args__|__members__)\b"
)
_MAX_LINES = 80  # a declaration longer than this is not read
_ENUM_BASES = frozenset({"Enum", "IntEnum", "StrEnum", "Flag", "IntFlag"})


def member_values(store: Store, chosen: StoredSite, facts: Facts) -> dict[str, list[str]]:
    """What each `get_args(X)` / `X.__args__` / `X.__members__` of the site's conditions
    holds, by the expression's text as `ast.unparse` prints it: each value as Python source
    (an enum's member names as strings). Only types declared with literal values."""
    wanted: dict[str, tuple[str, str]] = {}
    for condition in facts.conditions:
        for match in _NAMED.finditer(condition.text):
            if match.group(1):
                name, kind = match.group(1), "__args__"
                text = match.group(0).replace(" ", "")
            else:
                name, kind = match.group(2), match.group(3)
                text = f"{name}.{kind}"
            wanted[text] = (name, kind)
    if not wanted or facts.source_text is None:
        return {}  # most sites: nothing is read
    out: dict[str, list[str]] = {}
    for text, (name, kind) in wanted.items():
        values = _declared(facts.source_text, name, kind)
        if values is None:
            other = imported_text(
                facts.source_text,
                name,
                chosen.file,
                lambda p: store.file_text(chosen.version_id, p),
            )
            values = _declared(other, name, kind) if other is not None else None
        if values:
            out[text] = values
    return out


def with_members(condition: ConditionView, facts: Facts) -> ConditionView:
    """The condition with each type it tests membership of replaced by its values, as a
    tuple (unchanged when it names none the index could read)."""
    if not facts.members:
        return condition
    try:
        tree = ast.parse(condition.text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return condition
    text = ast.unparse(_Members(facts.members).visit(tree))
    if text == condition.text:
        return condition
    return msgspec.structs.replace(condition, text=text, plain=None)


class _Members(ast.NodeTransformer):
    def __init__(self, members: dict[str, list[str]]) -> None:
        self.members = members

    def _values(self, node: ast.expr) -> ast.expr | None:
        values = self.members.get(ast.unparse(node))
        if values is None:
            return None
        return ast.Tuple(elts=[ast.parse(v, mode="eval").body for v in values], ctx=ast.Load())

    def visit_Call(self, node: ast.Call) -> ast.expr:
        return self._values(node) or self.generic_visit(node)  # type: ignore[return-value]

    def visit_Attribute(self, node: ast.Attribute) -> ast.expr:
        return self._values(node) or self.generic_visit(node)  # type: ignore[return-value]


def _declared(text: str, name: str, kind: str) -> list[str] | None:
    """The values of the `Literal` alias (`__args__`) or the member names of the enum class
    (`__members__`) that the module `text` declares at its top level as `name`."""
    lines = text.splitlines()
    if kind == "__members__":
        header = re.compile(rf"class\s+{re.escape(name)}\s*\(")
        index = next((i for i, line in enumerate(lines) if header.match(line)), None)
    else:
        index = next(iter(assigned_at(lines, name)), None)
    statement = statement_at(lines, index) if index is not None else None
    if statement is None:
        return None
    if kind == "__members__":
        return _enum_names(statement)
    value = getattr(statement, "value", None)
    return _literal_values(value) if isinstance(value, ast.expr) else None


def assigned_at(lines: Sequence[str], name: str) -> list[int]:
    """The lines (0-based) that start a top-level assignment of `name` in a module: `name =
    ...`, `name: T = ...`, a `type name = ...` alias (not a comparison `name == ...`)."""
    header = re.compile(rf"(?:type\s+)?{re.escape(name)}\s*(?::[^=]*)?=(?!=)")
    heads = (name, "type")
    return [i for i, line in enumerate(lines) if line.startswith(heads) and header.match(line)]


def statement_at(lines: Sequence[str], start: int) -> ast.stmt | None:
    """The top-level statement that starts at line `start` (0-based), parsed alone: its
    lines up to the next one at the left margin (a closing bracket aside)."""
    end = start + 1
    while end < len(lines) and end - start < _MAX_LINES:
        current = lines[end]
        if current.strip() and not current[0].isspace() and current.strip()[0] not in ")]}":
            break
        end += 1
    tree = parse_module(textwrap.dedent("\n".join(lines[start:end])))
    return tree.body[0] if tree is not None and tree.body else None


def _literal_values(node: ast.expr | None) -> list[str] | None:
    """`Literal["a", "b"]` (or `typing.Literal[...]`): its values as Python source."""
    if not isinstance(node, ast.Subscript):
        return None
    head = node.value
    named = head.id if isinstance(head, ast.Name) else getattr(head, "attr", None)
    if named != "Literal":
        return None
    items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    if not all(isinstance(i, ast.Constant) for i in items):
        return None
    return [ast.unparse(i) for i in items]


def _enum_names(statement: ast.stmt) -> list[str] | None:
    """The member names of an enum class (`__members__`'s keys) as string literals."""
    if not isinstance(statement, ast.ClassDef):
        return None
    bases = {b.id if isinstance(b, ast.Name) else getattr(b, "attr", "") for b in statement.bases}
    if not bases & _ENUM_BASES:
        return None
    names = [
        target.id
        for item in statement.body
        if isinstance(item, ast.Assign)
        for target in item.targets
        if isinstance(target, ast.Name) and not target.id.startswith("_")
    ]
    return [repr(n) for n in names] or None


def imported_text(
    text: str, name: str, file: str, text_of: Callable[[str], str | None]
) -> str | None:
    """The text of the module a `from ... import name` at the top of `text` (the file
    `file`) reads the name from, a package's `__init__.py` for a package; `text_of(path)`
    reads a file of the version."""
    path = import_path(text, name, file)
    if path is None:
        return None
    found = text_of(path)
    return found if found is not None else text_of(path.removesuffix(".py") + "/__init__.py")


def import_path(text: str, name: str, file: str) -> str | None:
    """The module file a `from ... import name` at the top of the file reads it from."""
    lines = text.splitlines()
    for index, line in enumerate(lines):
        if not line.startswith("from ") or " import" not in line:
            continue
        statement = statement_at(lines, index)
        if isinstance(statement, ast.ImportFrom) and any(
            (a.asname or a.name) == name for a in statement.names
        ):
            return imported_from(ast.Module(body=[statement], type_ignores=[]), name, file)
    return None
