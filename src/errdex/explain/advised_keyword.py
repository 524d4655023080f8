"""The keyword the message's advised call needs to reach the table the check reads.

A message may name the call that avoids it: “Use register_backend(Backend.NAME, 'your.module.
YourClass')”. When that function is defined in the site's own file and stores into the
module table the site's function reads (`_MAMBA_ATTN_OVERRIDES.get(self, ...)`) only on the
branch of one of its keyword parameters that defaults to false (`if is_mamba:`), the call
as the message writes it stores elsewhere and the same error follows. The advice is then
offered with that keyword (`is_mamba=True`) and the lines that show it. Read once a page,
from the site's file already kept (`kept_module`), and only when the quoted advice calls a
function the file defines.
"""

from __future__ import annotations

import ast
import re

import msgspec

from errdex.explain.context import Facts, kept_module
from errdex.explain.page import Solution
from errdex.explain.table_lookup import module_names
from errdex.extract.param_defaults import default_nodes

__all__ = ["with_needed_keyword"]

_CALL = re.compile(r"\b([A-Za-z_]\w*)\(")


def with_needed_keyword(facts: Facts, solution: Solution, said: str) -> Solution | None:
    """`solution` (the message's advice, `said` after its lead) worded with the keyword its
    call needs, or None when it needs none this rule can tell."""
    text = facts.source_text
    if not text:
        return None
    names = [n for n in dict.fromkeys(_CALL.findall(said)) if f"def {n}(" in text]
    if not names:
        return None
    site = facts.site_function()
    module = kept_module(text)
    if site is None or module is None:
        return None
    tables = module_names(module)
    read = {
        n.id
        for n in ast.walk(site)
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in tables
    }
    if not read:
        return None
    for name in names:
        function = next(
            (s for s in module.body if isinstance(s, ast.FunctionDef) and s.name == name), None
        )
        if function is None:
            continue
        for keyword, table, lines in _guarded_stores(function, read):
            if re.search(rf"\b{re.escape(keyword)}\s*=", said):
                continue
            where = (
                f"line {lines[0]}"
                if len(lines) == 1
                else f"lines {', '.join(str(n) for n in lines[:-1])} and {lines[-1]}"
            )
            member = _own_member(facts, module)
            also = f", with `{member[1]}` in place of `{member[0]}`" if member else ""
            return msgspec.structs.replace(
                solution,
                text=(
                    f"Do what the message says, passing `{keyword}=True` to `{name}`{also}: "
                    f"{said} (`{name}` stores into `{table}`, which "
                    f"`{facts.stored.site.function}` reads, only when `{keyword}` is true: "
                    f"{where}; without it the same error follows.)"
                ),
            )
    return None


def _own_member(facts: Facts, module: ast.Module) -> tuple[str, str] | None:
    """The word the message puts before a member of `self` (`Backend.{self.name}`) when
    the file binds no such name, with the class of the site's method that `self` is."""
    message = facts.stored.site.message
    owner = facts.own_class()
    if message is None or owner is None:
        return None
    found = re.search(r"\b([A-Za-z_]\w*)\.\{self\.\w+\}", message.text)
    if found is None or found.group(1) == owner.name:
        return None
    word = found.group(1)
    bound = module_names(module)
    for stmt in module.body:
        if isinstance(stmt, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            bound.add(stmt.name)
        elif isinstance(stmt, ast.Import):
            bound.update((a.asname or a.name).split(".")[0] for a in stmt.names)
    return None if word in bound else (word, owner.name)


def _guarded_stores(function: ast.FunctionDef, read: set[str]) -> list[tuple[str, str, list[int]]]:
    """Each keyword parameter defaulting to false, with a table of `read` that `function`
    stores into (`TABLE[key] = ...`) only inside `if KEYWORD:` bodies, and those lines."""
    false = [
        k
        for k, d in default_nodes(function)
        if isinstance(d, ast.Constant) and d.value in (False, None)
    ]
    out: list[tuple[str, str, list[int]]] = []
    for keyword in false:
        for table in sorted(read):
            inside: list[int] = []
            outside = False
            for node, guarded in _stores(function, table, keyword, False):
                if guarded:
                    inside.append(node.lineno)
                else:
                    outside = True
            if inside and not outside:
                out.append((keyword, table, inside))
    return out


def _stores(node: ast.AST, table: str, keyword: str, guarded: bool) -> list[tuple[ast.stmt, bool]]:
    """The statements under `node` that store into `table[...]` or rebind or mutate it,
    each with whether it runs only under `if KEYWORD:`."""
    found: list[tuple[ast.stmt, bool]] = []
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If):
            on = isinstance(child.test, ast.Name) and child.test.id == keyword
            if _touches(child.test, table):
                found.append((child, guarded))
            for stmt in child.body:
                found.extend(_stores(_Block(stmt), table, keyword, guarded or on))
            for stmt in child.orelse:
                found.extend(_stores(_Block(stmt), table, keyword, guarded))
        elif isinstance(child, (ast.stmt, ast.ExceptHandler)) and _compound(child):
            found.extend(_stores(child, table, keyword, guarded))
        elif isinstance(child, ast.stmt) and _touches(child, table):
            found.append((child, guarded))
    return found


class _Block(ast.AST):
    """One statement held as a block's only child, so `_stores` reads it as it reads one
    of a body's statements."""

    _fields = ("body",)

    def __init__(self, stmt: ast.stmt) -> None:
        super().__init__()
        self.body = [stmt]


def _compound(node: ast.AST) -> bool:
    return isinstance(
        node,
        (ast.FunctionDef, ast.For, ast.While, ast.With, ast.Try, ast.ExceptHandler),
    )


def _touches(node: ast.AST, table: str) -> bool:
    """Whether `node` stores into `table[...]`, rebinds it, or calls a method on it."""
    for n in ast.walk(node):
        target = (
            n.value
            if isinstance(n, ast.Subscript) and isinstance(n.ctx, (ast.Store, ast.Del))
            else n.func.value
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
            else n
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
            else None
        )
        if isinstance(target, ast.Name) and target.id == table:
            return True
    return False
