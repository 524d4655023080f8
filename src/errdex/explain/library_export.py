"""Whether a library hands the site's class (or function) to its users, at any depth.

The users'-class gates (`state_gated.users_call`, `declared_fields._users_class`) take a
class a few dots from the top package as one users make (`rich.console.Console`): depth
stands in for "the package hands it to its users". In a library (a package with no command
of its own: its users write Python against it, see `own_code`) the authors say so outright,
at any depth: a class its module lists in `__all__` (`sqlalchemy.ext.horizontal_shard`'s
`ShardedSession`, `ShardedQuery`), or one a package's `__init__` or another module's
`__all__` re-exports (`sqlalchemy.ext.asyncio.AsyncSession`: the link's public path is not
where it is defined). A public name of a module with no `__all__` is not enough: a
library's internals live there too (`sqlalchemy.orm.strategies.JoinedLoader`). A package
driven by its command (vllm) keeps the depth gates: its Python API is what its top package
exports, and its deep modules' classes are the command's own.
"""

from __future__ import annotations

import ast
import re

from errdex.explain.context import Facts

__all__ = ["library_export"]

# `__all__ = [...]` or `(...)` at a module's top level: the names are read from its literal
_ALL = re.compile(r"^__all__\s*(?::[^=\n]*)?=\s*([\[(].*?[\])])", re.MULTILINE | re.DOTALL)


def library_export(facts: Facts) -> bool:
    """Whether the site's class (or function) is one a library exports to its users: the
    package installs no command and the class is re-exported or listed in its module's
    `__all__`."""
    stored = facts.stored
    if facts.scripts:
        return False
    path, function = stored.public_path(), stored.site.function
    if path is None or not path.endswith(function):
        return False
    if stored.public:
        return True  # re-exported: a package's `__init__` or a module's `__all__` names it
    listed = facts.once("module_all", lambda: module_all(facts.source_text))
    return listed is not None and function.partition(".")[0] in listed


def module_all(text: str | None) -> frozenset[str] | None:
    """The names a module's `__all__` literal lists; None when it has none (or it is not a
    literal of strings)."""
    found = _ALL.search(text or "")
    if found is None:
        return None
    try:
        value = ast.literal_eval(found.group(1))
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        return None
    return frozenset(value)
