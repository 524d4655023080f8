"""Dict keys: a local that reads one key of a dict (`extra.get("backend", "cpu")`,
`extra["path"]`), the dict it reads and how.

A configuration object's free dict (`kv_connector_extra_config`, a flag's whole
`model_loader_extra_config`) is where a user writes keys no class declares: the key read
here is one of them, and the name holds its value as it is, up to a conversion that keeps
a value of the compared type (`str(...)`, `int(...)`, `.lower()`).
"""

from __future__ import annotations

import ast
import functools
from typing import NamedTuple

from errdex.extract.conditions import dotted_name
from errdex.link.expression_texts import parse_expression

# Conversions that give back a value of the type the code compares it as: a value the
# check accepts, written in the JSON, passes through them as it is.
_KEEPING_CALLS = frozenset({"str", "int", "float", "bool"})
_KEEPING_METHODS = frozenset({"lower", "strip", "upper"})


class DictRead(NamedTuple):
    """`receiver.get("key", default)`, `receiver.pop("key", default)` or `receiver["key"]`."""

    receiver: str  # the dict as the code names it: `extra`, `load_config.extra_config`
    key: str
    # `.get`'s (or `.pop`'s) default as written (`'cpu'`, `None` when it gives none);
    # None for `d["k"]`
    default: str | None


@functools.lru_cache(maxsize=1 << 14)
def dict_read(text: str) -> DictRead | None:
    """The key a local's value reads of a dict, when that is all it does; None otherwise."""
    if ".get(" not in text and ".pop(" not in text and '["' not in text and "['" not in text:
        return None  # most values: no key read at all, nothing to parse
    node = parse_expression(text)
    return _read(node) if node is not None else None


def _read(node: ast.expr) -> DictRead | None:
    node = _unwrapped(node)
    if isinstance(node, ast.BoolOp):
        return _or_empty(node)
    if isinstance(node, ast.IfExp):
        # `d.get("k", "auto") if isinstance(d, dict) else "auto"`: the same default
        # either way, so the key decides
        read = _read(node.body)
        if read is None or not isinstance(node.orelse, ast.Constant):
            return None
        return read if read.default == repr(node.orelse.value) else None
    if isinstance(node, ast.Subscript) and _key(node.slice) is not None:
        receiver = _receiver(node.value)
        key = _key(node.slice)
        return DictRead(receiver, key, None) if receiver and key else None
    if not (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("get", "pop")  # `pop` gives the key's value as `get` does
        and not node.keywords
        and 1 <= len(node.args) <= 2
    ):
        return None
    key = _key(node.args[0])
    receiver = _receiver(node.func.value)
    if key is None or receiver is None:
        return None
    if len(node.args) == 1:
        return DictRead(receiver, key, "None")
    default = node.args[1]
    if not isinstance(default, ast.Constant):
        return None  # a default computed elsewhere: what leaving the key out gives is not known
    return DictRead(receiver, key, repr(default.value))


def _or_empty(node: ast.BoolOp) -> DictRead | None:
    """`d.get("k") or ""`: the key's value, an empty one standing in for a key left out
    (its default then the empty constant); a key that may be given empty reads the same.
    Not `d["k"] or ""` (leaving the key out fails), nor a fallback to another value."""
    if not (isinstance(node.op, ast.Or) and len(node.values) == 2):
        return None
    empty = node.values[1]
    if not isinstance(empty, ast.Constant) or empty.value:
        return None
    read = _read(node.values[0])
    if read is None or read.default is None or read.default not in _EMPTY_DEFAULTS:
        return None
    return read._replace(default=repr(empty.value))


# `.get`'s defaults an empty fallback after `or` takes the place of
_EMPTY_DEFAULTS = frozenset({"None", "''", "0", "False"})


def _unwrapped(node: ast.expr) -> ast.expr:
    while isinstance(node, ast.Call) and not node.keywords:
        func = node.func
        if isinstance(func, ast.Name) and func.id in _KEEPING_CALLS and len(node.args) == 1:
            node = node.args[0]
        elif isinstance(func, ast.Attribute) and func.attr in _KEEPING_METHODS and not node.args:
            node = func.value
        else:
            break
    return node


def _key(node: ast.expr) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.isidentifier():
        return node.value
    return None


def _receiver(node: ast.expr) -> str | None:
    return dotted_name(node) if isinstance(node, ast.Name | ast.Attribute) else None


def dict_alias(text: str) -> str | None:
    """The dict a local holds under an empty fallback: `a.extra_config or {}` is
    `a.extra_config` (an empty dict has no key to read)."""
    if " or " not in text:
        return None
    node = parse_expression(text)
    if not (
        isinstance(node, ast.BoolOp)
        and isinstance(node.op, ast.Or)
        and len(node.values) == 2
        and isinstance(node.values[0], ast.Name | ast.Attribute)
    ):
        return None
    empty = node.values[1]
    if not (
        (isinstance(empty, ast.Dict) and not empty.keys)
        or (
            isinstance(empty, ast.Call)
            and isinstance(empty.func, ast.Name)
            and empty.func.id == "dict"
            and not empty.args
            and not empty.keywords
        )
    ):
        return None
    return dotted_name(node.values[0])
