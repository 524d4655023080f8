"""What the texts of conditions and bindings hold, worked out once per text.

Conditions and bindings repeat across the sites of a function and the functions of a
module: the parse of each text, the names it is made of and the environment reads written
in it are cached by the text, not recomputed per site. The names of most texts are read
from their tokens (`scanned_names`), without a parse.
"""

from __future__ import annotations

import ast
import functools
import keyword
from collections.abc import Iterable

from errdex.ast_walk import walk
from errdex.extract.conditions import dotted_names
from errdex.extract.knobs import env_read_of
from errdex.extract.value_reads import may_read_env, value_read
from errdex.facts import Binding, Condition, FileFacts, ValueRead
from errdex.lazy_re import lazy_compile
from errdex.link.scanned_names import scan, scanned_names

# A plain name or attribute chain, as `ast.unparse` writes one.
_DOTTED = lazy_compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")


def bound_value(binding: Binding, facts: FileFacts) -> ValueRead | None:
    """What the value of the local `binding` (of a site or call of `facts`) reads: the
    extraction's answer where it had the value's tree, else `local_value` of its text."""
    found = facts.value_reads.get(binding.value)
    return found if found is not None else local_value(binding.value)


@functools.lru_cache(maxsize=1 << 16)
def local_value(text: str) -> ValueRead | None:
    """What the knobs behind a local can be, from the source of the value it is assigned:
    `facts.ValueRead`, as the extraction gives it where it had the value's tree."""
    if _DOTTED.fullmatch(text) and not any(map(keyword.iskeyword, text.split("."))):
        return ValueRead(None, text, ())  # what parsing it would give, without the parse
    if not may_read_env(text):
        scanned = scan(text)
        if scanned is not None and not scanned[1]:  # surely no name or attribute
            return ValueRead(None, None, scanned[0])
    value = parse_expression(text)
    return None if value is None else ValueRead(*value_read(value, text))


@functools.lru_cache(maxsize=1 << 16)
def env_reads_in(text: str) -> tuple[tuple[str, str], ...]:
    """(variable, source of the read) for each environment read written in a condition."""
    if "environ" not in text and "getenv" not in text:
        return ()
    tree = parse_expression(text)
    if tree is None:
        return ()
    out: list[tuple[str, str]] = []
    for node in walk(tree):
        if not isinstance(node, ast.expr):
            continue
        name = env_read_of(node) or _env_membership(node)
        if name is not None:
            out.append((name, ast.unparse(node)))
    return tuple(out)


def _env_membership(node: ast.expr) -> str | None:
    """The variable of `"X" in os.environ` (or `not in`): whether it is set at all."""
    if not (
        isinstance(node, ast.Compare)
        and len(node.ops) == 1
        and isinstance(node.ops[0], ast.In | ast.NotIn)
        and isinstance(node.left, ast.Constant)
        and isinstance(node.left.value, str)
        and ast.unparse(node.comparators[0]) in ("os.environ", "environ")
    ):
        return None
    return node.left.value


def names_of(conditions: Iterable[Condition]) -> list[str]:
    found: list[str] = []
    for condition in conditions:
        found.extend(_condition_names(condition.statement))
    return list(dict.fromkeys(found))


@functools.lru_cache(maxsize=1 << 16)
def _condition_names(text: str) -> tuple[str, ...]:
    scanned = scanned_names(text)  # most texts: their names without a parse
    if scanned is not None:
        return scanned
    tree = parse_expression(text)
    return tuple(dotted_names(tree)) if tree is not None else ()


@functools.lru_cache(maxsize=1 << 16)
def parse_expression(text: str) -> ast.expr | None:
    """The expression a condition or binding holds, parsed once per text (read-only: the
    same tree is handed to every caller), or None when it does not parse."""
    try:
        return ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def negated_call(text: str, func: str) -> ast.Call | None:
    """The call of `not func(...)` (`isinstance(...)` of `not isinstance(x, T)`), a plain
    name called; None for any other text."""
    node = parse_expression(text)
    if not (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)):
        return None
    call = node.operand
    if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == func:
        return call
    return None
