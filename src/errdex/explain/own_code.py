"""Which Python calls are the package's own: no example fix calls them.

A package its users run by the command it installs (vllm's `vllm serve`) is driven by that
command, its settings and its environment variables; its Python API is what its top
package exports (`vllm/__init__.py`: `LLM`, `SamplingParams`, `EngineArgs`, listed in
`__all__` and imported there). A check in any other class or function of such a package
(a model's layer, an attention kernel, the worker's workspace) is reached by the command
or by the exported API, never by a call the user writes: a fix that calls that code
(`MambaMixer2(..., cache_config=CACHE_CONFIG)`, `workspace_manager.lock()`) shows a line
no user runs, and is not drawn. The fixes that stay on such a page are the command line,
the variable, the config file, the install, the request body, and a call of the exported
API. A package with no command keeps its public modules' calls (`rich.rule.Rule`,
`pydantic.v1.create_model`): they are its API.
"""

from __future__ import annotations

import ast
import re
from pathlib import PurePosixPath

import msgspec

from errdex.ast_walk import walk
from errdex.explain.context import Facts, parse_module
from errdex.explain.fix_forms import instance_name
from errdex.explain.page import Solution
from errdex.store.base import StoredSite

__all__ = ["own_code", "top_init_file", "without_own_code_fix"]

# The kinds of a way out whose fix is no Python call of the package's code: a setting's
# (a command line, a variable), an environment's (an install).
_NOT_CALLS = frozenset({"setting", "environment"})


def top_init_file(stored: StoredSite) -> str:
    """The path of the `__init__.py` of the package the site's module is in, as stored."""
    parts = PurePosixPath(stored.file).parts
    depth = len(stored.module.split("."))
    if stored.file.endswith("__init__.py"):
        depth += 1  # `pkg/sub/__init__.py` is the module `pkg.sub`
    prefix = parts[: max(len(parts) - depth, 0)]
    top = stored.module.split(".")[0]
    return str(PurePosixPath(*prefix, top, "__init__.py"))


def own_code(facts: Facts) -> bool:
    """Whether the site's function is the package's own: the package installs a command
    and its top package does not export the site's class or function."""
    if not facts.scripts:
        return False
    return facts.once("own_code", lambda: _not_exported(facts))


def _not_exported(facts: Facts) -> bool:
    stored = facts.stored
    text = facts.top_init() if facts.top_init is not None else None
    tree = parse_module(text)
    if tree is None:
        return False  # what the package exports is not known: its calls are kept
    top = stored.module.split(".")[0]
    name = stored.site.function.split(".")[0]
    exports, starred = _exports(tree, top)
    if f"{stored.module}.{name}" in exports:
        return False
    if name.startswith("_") or not (stored.module in exports or stored.module in starred[0]):
        return True
    # a module the top package exports whole (`from . import config`) or all the names of
    # (`from .api import *`): its public names, those of its own `__all__` when it has one
    own = parse_module(facts.source_text)
    listed = _listed(own) if own is not None else None
    return not (
        (listed is None or name in listed)
        and (stored.module in exports or starred[1] is None or name in starred[1])
    )


def _exports(tree: ast.Module, top: str) -> tuple[set[str], tuple[set[str], set[str] | None]]:
    """The defining paths of the names the top package imports (`vllm.entrypoints.llm.LLM`),
    those it lists in `__all__` when it has one, and of what it defines itself; and the
    modules it imports every name of (`from .api import *`), with that `__all__`."""
    listed = _listed(tree)
    imported: dict[str, str] = {}
    starred: set[str] = set()
    for node in walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = _absolute(node, top)
            for alias in node.names:
                if alias.name == "*":
                    starred.add(base)
                else:
                    imported[alias.asname or alias.name] = f"{base}.{alias.name}"
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            imported.setdefault(node.name, f"{top}.{node.name}")
    paths = {path for name, path in imported.items() if listed is None or name in listed}
    return paths, (starred, listed)


def _listed(tree: ast.Module) -> set[str] | None:
    """The names of the module's `__all__`, None when it has none."""
    listed: set[str] | None = None
    for node in walk(tree):
        if (names := _all_names(node)) is not None:
            listed = names
    return listed


def _all_names(node: ast.AST) -> set[str] | None:
    """The names of `__all__ = [...]` (or a tuple); None for any other statement."""
    if not (
        isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)
        and isinstance(node.value, ast.List | ast.Tuple)
    ):
        return None
    elements = node.value.elts
    return {e.value for e in elements if isinstance(e, ast.Constant) and isinstance(e.value, str)}


def _absolute(node: ast.ImportFrom, top: str) -> str:
    """The module an import in the top package's `__init__` names, made absolute."""
    if not node.level:
        return node.module or ""
    return ".".join(p for p in (top, node.module) if p)  # `from .x import Y` in `top`


def without_own_code_fix(solution: Solution, facts: Facts) -> Solution:
    """The solution without its fix where the fix calls the package's own code (the
    site's class or function, in a package driven by its command)."""
    fix = solution.fix
    if fix is None or solution.kind in _NOT_CALLS or not own_code(facts):
        return solution
    owner = facts.stored.site.function.split(".")[0]
    words = {owner, instance_name(owner)}
    text = f"{fix.before}\n{fix.after}"
    if not any(re.search(rf"(?<![\w.]){re.escape(w)}\b", text) for w in words):
        return solution  # a request's body, a file opened: no call of the package's code
    return msgspec.structs.replace(solution, fix=None)
