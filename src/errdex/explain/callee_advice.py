"""What the failed call said before it failed: the advice of the message the called function
logs in the `except` that passes its failure on.

vllm's `PyNcclCommunicator.from_unique_id_bytes` raises "failed to load the NCCL library"
under `except` of a `try` that made one call, `NCCLLibrary(library_path)`; that constructor
logs "Failed to load NCCL library from {so_file}. ... please set the environment variable
VLLM_NCCL_SO_PATH to point to the correct nccl library path." in its own `except` and then
re-raises: the user's log holds that advice right above the traceback, and it is the way
out of the same failure. Only a function of the version's own code, imported by name into
the site's file or defined there, and only a log (or warning) in an `except` clause whose
last statement re-raises, is read.
"""

from __future__ import annotations

import ast

from errdex.ast_walk import walk
from errdex.explain.advice import message_advice
from errdex.explain.context import Facts
from errdex.explain.outline import importing_or_defining
from errdex.explain.page import Solution
from errdex.explain.plain import code
from errdex.extract.module import resolve_relative
from errdex.facts import ConditionKind, SiteKind
from errdex.store import Store
from errdex.store.base import StoredSite

__all__ = ["callee_advice_solutions", "callee_messages", "resolve_called"]

_LOGGED = (SiteKind.LOG, SiteKind.WARN)


def callee_messages(store: Store, facts: Facts) -> list[tuple[str, str]]:
    """(the called function, the message it logs before passing its failure on) for the
    one call the `try` of the site's innermost `except` made."""
    stored = facts.stored
    excepts = [c for c in facts.conditions if c.kind is ConditionKind.EXCEPT]
    if not excepts:
        return []
    tried = facts.read.tries.get(excepts[-1].line)
    if tried is None or len(tried.calls) != 1:
        return []  # with another call in the `try`, that one may be what failed
    called = tried.calls[0].partition("(")[0]
    tree = facts.top_module(importing_or_defining(called.partition(".")[0]))
    if tree is None:
        return []
    target = resolve_called(called, tree, stored.module)
    if target is None:
        return []
    module, name = target
    for path in (module.replace(".", "/") + ".py", module.replace(".", "/") + "/__init__.py"):
        found = _logged_before_reraise(store, stored, path, name)
        if found:
            return [(called, message) for message in found]
    return []


def resolve_called(
    called: str, tree: ast.Module, own_module: str, package: str | None = None
) -> tuple[str, str] | None:
    """(module, name) of a called name: imported by name (`from m import Name as N`), a
    module's attribute (`mod.func` after `import pkg.mod as mod`), or defined in the file.
    With `package` (the one relative imports start from), a relative import is read too."""
    root, _, attr = called.partition(".")
    if "." in attr:
        return None
    for stmt in tree.body:
        if isinstance(stmt, ast.ImportFrom) and not attr:
            relative = stmt.level and package is not None
            if not relative and (stmt.level or not stmt.module):
                continue
            for alias in stmt.names:
                if (alias.asname or alias.name) == root:
                    return resolve_relative(package or "", stmt.module, stmt.level), alias.name
        elif isinstance(stmt, ast.Import) and attr:
            for alias in stmt.names:
                if (alias.asname or alias.name) == root:
                    return alias.name, attr
        elif isinstance(stmt, ast.FunctionDef | ast.ClassDef) and stmt.name == root and not attr:
            return own_module, root
    return None


def _logged_before_reraise(store: Store, stored: StoredSite, path: str, name: str) -> list[str]:
    """The messages logged in the function `name` (a class's `__init__`) of the file at
    `path`, each in an `except` clause that ends by re-raising."""
    functions = (name, f"{name}.__init__")
    logged = [
        n
        for n in store.neighbours(stored.version_id, path)
        if n.function in functions and n.kind in _LOGGED and n.message
    ]
    if not logged:
        return []
    text = store.file_text(stored.version_id, path)
    if text is None:
        return []
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    handlers = [
        h
        for node in walk(tree)
        if isinstance(node, ast.Try)
        for h in node.handlers
        if h.body and _reraises(h.body[-1], h.name)
    ]
    return [
        n.message
        for n in logged
        if n.message and any(h.lineno <= n.line <= (h.end_lineno or h.lineno) for h in handlers)
    ]


def _reraises(stmt: ast.stmt, bound: str | None) -> bool:
    """`raise` or `raise e` of the exception the clause caught."""
    if not isinstance(stmt, ast.Raise) or stmt.cause is not None:
        return False
    return stmt.exc is None or (
        bound is not None and isinstance(stmt.exc, ast.Name) and stmt.exc.id == bound
    )


def callee_advice_solutions(facts: Facts) -> list[Solution]:
    """The advice of what the failed call logged, as solutions in its own words."""
    out: list[Solution] = []
    for called, message in facts.callee_messages:
        for advice in message_advice(message):
            if advice.version is not None:
                continue  # a library the callee warns of, not what made its call fail
            text = (
                f"Do what {code(called)} logs when it fails, right before this error: "
                f"“{advice.text}”"
            )
            out.append(Solution(text=text, kind=advice.kind, change=advice.change))
    return out
