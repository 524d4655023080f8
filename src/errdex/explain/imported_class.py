"""A class the site's file imports from another module of the package, read from the store.

A constructor that hands its arguments on to its base's (`ShardedQuery(*args, **kwargs)`
calls `Query.__init__(entities, session=None)`, which sets `self.session = session`) keeps
the user's keyword in an attribute only the base's file says. The base is read from the
module the site's file imports it from by name (`from ..orm.query import Query`), when the
index keeps that module's file, or under `if TYPE_CHECKING:` for its annotations alone
(rich's console.py imports `Live` only there); a name the file binds otherwise, or that the
module only re-exports (its class is not in that file), is not followed.
"""

from __future__ import annotations

import ast
import re

from errdex.explain.callee_advice import resolve_called
from errdex.explain.context import Facts, top_class_in
from errdex.explain.outline import importing_or_defining
from errdex.extract.module import is_type_checking, module_name
from errdex.store.base import Store, StoredSite


def imported_class(store: Store, facts: Facts, name: str) -> ast.ClassDef | None:
    """The top-level class `name` of the site's file imports from another module of the
    package, parsed alone from that module's kept file; None when it is not imported by
    name from a module of the package, or the index keeps no such class there. Once a
    page for each name."""
    return facts.once(f"imported_class:{name}", lambda: _imported_class(store, facts, name))


def module_file_text(store: Store, stored: StoredSite, module: str) -> str | None:
    """The kept text of the version's module `module` (`a.b`: `a/b.py`, else
    `a/b/__init__.py`, under the folder the site's file is under), or None."""
    for path in module_paths(stored, module):
        text = store.file_text(stored.version_id, path)
        if text is not None:
            return text
    return None


def module_kept_text(facts: Facts, module: str) -> tuple[str, str] | None:
    """(path, kept text) of the version's module `module`, read through the page's own file
    reader (each file once a page), or None when the index keeps neither of its paths."""
    if facts.file_text is None:
        return None
    for path in module_paths(facts.stored, module):
        text = facts.file_text(path)
        if text is not None:
            return path, text
    return None


def module_paths(stored: StoredSite, module: str) -> tuple[str, str]:
    """The paths the version's module `module` may be kept at (`a.b`: `a/b.py`, else
    `a/b/__init__.py`), under the folder the site's file is under."""
    own = module_name(stored.file)[0].replace(".", "/")
    at = stored.file.find(own)
    prefix = stored.file[:at] if at > 0 else ""
    base = prefix + module.replace(".", "/")
    return f"{base}.py", f"{base}/__init__.py"


def _imported_class(store: Store, facts: Facts, name: str) -> ast.ClassDef | None:
    stored = facts.stored
    tree = facts.top_module(importing_or_defining(name))
    if tree is None:
        return None
    module, is_package = module_name(stored.file)
    package = module if is_package else module.rpartition(".")[0]
    target = resolve_called(name, tree, module, package) or _typing_import(facts, name, package)
    if target is None or target[0] == module:
        return None  # not imported, or defined in the site's own file
    source, defined = target
    top = module.partition(".")[0]
    if source.partition(".")[0] != top:
        return None  # another distribution's class: the index holds none of its files
    text = module_file_text(store, stored, source)
    return top_class_in(text, defined) if text is not None else None


# a top-level statement that may be `if TYPE_CHECKING:` (of any module: `t.TYPE_CHECKING`),
# told from the text before it is parsed
_TYPING_ONLY = re.compile(r"if\s+(?:\w+\.)?TYPE_CHECKING\s*:")


def _typing_import(facts: Facts, name: str, package: str) -> tuple[str, str] | None:
    """(module, name) of a class the file imports for its annotations alone, under `if
    TYPE_CHECKING:` (rich's console.py: `from .live import Live`): the same class."""
    tree = facts.top_module(lambda chunk, start, end: _TYPING_ONLY.match(chunk) is not None)
    if tree is None:
        return None
    imports: list[ast.stmt] = [
        statement
        for block in tree.body
        if isinstance(block, ast.If) and is_type_checking(block.test)
        for statement in block.body
        if isinstance(statement, ast.ImportFrom | ast.Import)
    ]
    module = module_name(facts.stored.file)[0]
    return resolve_called(name, ast.Module(body=imports, type_ignores=[]), module, package)
