"""An attribute the class's own `__init__` stores from one of its parameters, once.

`def __init__(self, target): self.target = target`, and nothing else in the file assigns
`.target` (no `+=`, no `setattr` naming it or computing a name on `self`): the attribute is
the argument the user gave the constructor, as it is, and a page may say so
(`kept_argument`, for a private method's check; `failed_call`, for the path a file call
failed on). A path may be kept through a conversion that names the same file
(`os.fspath(filename)`, `Path(path)`); a path built from the parameter
(`f"/dev/shm/{name}.mmap"`, `_shm_path(name)`) is another path, and no such store.
"""

from __future__ import annotations

import ast
import re
from typing import TypeGuard

from errdex.ast_walk import walk
from errdex.extract.shapes import own_attributes_set

__all__ = ["PATH_KEEPING", "plain_store", "stored_once"]

# Calls that give the path they are given, spelled another way: the same file.
PATH_KEEPING = frozenset(
    {"os.fspath", "str", "Path", "pathlib.Path", "os.path.abspath", "os.path.expanduser"}
    | {"os.path.realpath", "os.path.normpath"}
)
# stores whose attribute name is computed: `setattr(self, attr, v)`, `self.__dict__.update(d)`,
# `self.__dict__[key] = v`
_DYNAMIC = re.compile(
    r"setattr\(\s*self\s*,\s*[^'\"\s]|__dict__\.update\(|__dict__\[[^'\"\]]+\]\s*=(?!=)"
)
_SETATTR = re.compile(r"setattr\(\s*self\s*,\s*[^'\"\s]")


def stored_once(text: str, attribute: str) -> bool:
    """Whether the file `text` assigns `.attribute` of any object once (`x.attribute =`,
    `+=`, an annotated one, a `setattr`/`__dict__` naming it), and computes no attribute
    name it stores on `self` but from a list of names that leaves it out."""
    name = re.escape(attribute)
    pattern = (
        rf"\.{name}\s*(?:[-+*/|&^%@]|//|<<|>>|\*\*)?=(?!=)|\.{name}\s*:[^=\n]*="
        rf"|setattr\([^)]*['\"]{name}['\"]|\[['\"]{name}['\"]\]\s*="
    )
    if len(re.findall(pattern, text)) != 1:
        return False
    if _DYNAMIC.search(text) is None:
        return True
    # a `__dict__` store names nothing; a `setattr` may, from a loop over names
    return _DYNAMIC.search(_SETATTR.sub("", text)) is None and _names_listed(text, attribute)


def _names_listed(text: str, attribute: str) -> bool:
    """Whether every `setattr(self, name, ...)` of the file whose name is computed is in a
    loop over a literal list of names that leaves `attribute` out (`for attr in ("shm_r",
    "shm_w"): ... setattr(self, attr, None)`): the names it stores are known."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return False
    known: set[int] = set()
    for loop in walk(tree):
        if not (isinstance(loop, ast.For) and isinstance(loop.target, ast.Name)):
            continue
        listed = loop.iter
        if not isinstance(listed, ast.Tuple | ast.List | ast.Set) or not all(
            isinstance(e, ast.Constant) and isinstance(e.value, str) for e in listed.elts
        ):
            continue
        names = {e.value for e in listed.elts if isinstance(e, ast.Constant)}
        for node in walk(loop):
            if _computed_setattr(node) and ast.unparse(node.args[1]) == loop.target.id:
                if attribute in names:
                    return False
                known.add(id(node))
    return all(id(n) in known for n in walk(tree) if _computed_setattr(n))


def _computed_setattr(node: ast.AST) -> TypeGuard[ast.Call]:
    """`setattr(self, name, value)` with a name that is no literal."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "setattr"
        and len(node.args) == 3
        and ast.unparse(node.args[0]) == "self"
        and not isinstance(node.args[1], ast.Constant)
    )


def plain_store(
    init: ast.FunctionDef,
    attribute: str,
    params: set[str],
    keeping: frozenset[str] = frozenset(),
) -> tuple[str, int] | None:
    """(the parameter, the line) of `self.attribute = param` at the top level of
    `__init__`, `param` never rebound there (`filename = filename or default` is another
    value); `keeping`: calls the parameter may pass through alone (`os.fspath(param)`)."""
    for statement in init.body:
        for name, value in own_attributes_set(statement):
            if name != attribute:
                continue
            if (
                isinstance(value, ast.Call)
                and ast.unparse(value.func) in keeping
                and len(value.args) == 1
                and not value.keywords
            ):
                value = value.args[0]
            if not (isinstance(value, ast.Name) and value.id in params):
                return None
            rebound = any(
                isinstance(n, ast.Name) and n.id == value.id and isinstance(n.ctx, ast.Store)
                for n in walk(init)
            )
            return None if rebound else (value.id, statement.lineno)
    return None
