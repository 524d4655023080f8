"""Where the body of a generator or a coroutine runs: not where it is called.

Calling a generator function only makes the generator: its body, and any raise in it, runs
where the generator is iterated (`for item in gen():`, `next(gen())`, `list(gen())`). A
coroutine's body runs where it is awaited. So a caller whose `try` holds only the call
(`items = gen()` there, the loop after it) does not catch what the body raises; one whose
`try` holds the iteration does.

The index records a call standing as a statement, assigned, returned, yielded or handed to
a builtin that consumes it; not the iterable of a `for` or of a comprehension, the way a
generator is most often used. So the recorded callers of a generator are not all of them:
`every_call_recorded` tells whether each call of it in the files read is one of those read.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from enum import Enum

from errdex.ast_walk import is_generator, walk

__all__ = ["Deferred", "deferred_kind", "every_call_recorded", "name_lines", "runs_where_called"]

# builtins that iterate their first argument to its end (or to its first item: `next`)
_CONSUMING = frozenset(
    {"next", "list", "tuple", "set", "frozenset", "dict", "sorted", "sum", "any", "all", "min",
     "max"}
)  # fmt: skip
# builtins whose result iterates what they are given, as they are iterated themselves
_PASSING_ON = frozenset({"enumerate", "zip", "iter", "filter", "map"})


class Deferred(Enum):
    """When the body of a function runs, for one that does not run it where it is called."""

    ITERATED = "iterated"  # a generator (or an async one)
    AWAITED = "awaited"  # a coroutine


def deferred_kind(function: ast.FunctionDef | ast.AsyncFunctionDef) -> Deferred | None:
    """Whether the function's body runs later than its call, and when."""
    if is_generator(function):
        return Deferred.ITERATED
    if isinstance(function, ast.AsyncFunctionDef):
        return Deferred.AWAITED
    return None


def runs_where_called(function: ast.AST, calls: Iterable[ast.Call], kind: Deferred) -> bool:
    """Whether each generator or coroutine call of `calls` (in `function`) is iterated or
    awaited in the same expression: a `try` around the call is then around its body."""
    parents = {id(child): node for node in walk(function) for child in ast.iter_child_nodes(node)}
    return all(_run_there(parents, call, kind) for call in calls)


def _run_there(parents: dict[int, ast.AST], call: ast.Call, kind: Deferred) -> bool:
    node: ast.AST = call
    while True:
        parent = parents.get(id(node))
        if parent is None:
            return False
        if kind is Deferred.AWAITED:
            return isinstance(parent, ast.Await)
        if isinstance(parent, ast.For | ast.AsyncFor | ast.comprehension):
            return parent.iter is node
        if isinstance(parent, ast.YieldFrom):
            return True
        if not (isinstance(parent, ast.Call) and node in parent.args):
            return False
        func = parent.func
        if isinstance(func, ast.Attribute) and func.attr == "join":  # `", ".join(gen())`
            return True
        name = func.id if isinstance(func, ast.Name) else None
        if name in _CONSUMING and parent.args[0] is node:
            return True
        if name not in _PASSING_ON:
            return False
        node = parent  # `enumerate(gen())`: iterated where the enumerate is


def every_call_recorded(text: str, name: str, recorded: Iterable[int]) -> bool:
    """Whether every line of `text` that calls `name` (`name(`, `obj.name(`), other than its
    `def`, is one of the `recorded` lines. A mention in a comment or a string counts too:
    the answer is then no, which only keeps a page from saying more."""
    kept = set(recorded)
    for match in re.finditer(rf"(?<!\w){re.escape(name)}\s*\(", text):
        start = text.rfind("\n", 0, match.start()) + 1
        if re.match(r"\s*(?:async\s+)?def\s", text[start : match.start()] + " "):
            continue  # its own `def name(`
        if text.count("\n", 0, match.start()) + 1 not in kept:
            return False
    return True


def name_lines(function: ast.AST, name: str) -> list[tuple[ast.Call, int]]:
    """The calls of `name` (or of a method of that name) in `function`, each with the line
    its name is written on (`self.\\n    _items(...)` spans lines)."""
    found = []
    for node in walk(function):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if (isinstance(func, ast.Name) and func.id == name) or (
            isinstance(func, ast.Attribute) and func.attr == name
        ):
            found.append((node, func.end_lineno or node.lineno))
    return found
