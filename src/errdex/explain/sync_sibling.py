"""The async method called on a synchronous object: call its synchronous sibling instead.

An API with both forms of a method (`Request.aread` and `Request.read` in httpx) checks
in the async one that what it reads is asynchronous (`assert isinstance(self.stream,
typing.AsyncIterable)`); a request built for a synchronous client fails it. The way out a
user takes is the method of the same class without the `a` prefix, where that method reads
the same thing: not an asynchronous object of their own.
"""

from __future__ import annotations

import ast

from errdex.ast_walk import walk
from errdex.explain.context import Facts
from errdex.explain.fix_forms import swapped_method_fix
from errdex.explain.page import ExampleFix, Solution
from errdex.explain.plain import code
from errdex.explain.user_call import user_call


def sync_sibling_solution(facts: Facts) -> Solution | None:
    """`Call read() instead of aread()`, for a public `aX` method whose check refuses an
    object that is not asynchronous, when its class defines a plain `X` reading it too."""
    function = facts.stored.site.function
    owner, _, method = function.rpartition(".")
    if not owner or "." in owner or len(method) < 2 or not method.startswith("a"):
        return None
    if facts.stored.public_path() is None or method.startswith("a_"):
        return None
    sync = method[1:]
    if not sync.isidentifier() or sync.startswith("_"):
        return None
    for condition in facts.held:
        refused = _not_async(condition.text)
        if refused is None:
            continue
        target, kind = refused
        if not _sibling_reads(facts.source_tree(), owner, sync, target):
            return None
        text = (
            f"Call {code(sync + '()')} instead of {code(method + '()')}: {code(function)} "
            f"needs {code(target)} to be a {code(kind)}, and here it is synchronous; "
            f"{code(f'{owner}.{sync}')} reads it."
        )
        return Solution(
            text=text, condition=condition.text, kind="input", fix=_fix(facts, method, sync)
        )
    return None


def _fix(facts: Facts, method: str, sync: str) -> ExampleFix | None:
    """`await request.aread()` → `request.read()` on the user's object, for a method that
    takes no argument (the sibling's are not read)."""
    call = user_call(facts)
    if call is None or call[1] != method or facts.read.required:
        return None
    owner = facts.stored.site.function.rpartition(".")[0]
    found = _method(facts.source_tree(), owner, method)
    if not isinstance(found, ast.AsyncFunctionDef):
        return None
    # an async generator is looped over, a coroutine awaited
    looped = any(isinstance(n, ast.Yield | ast.YieldFrom) for n in walk(found))
    return swapped_method_fix(call[0], method, sync, awaited=not looped, iterated=looped)


def _method(
    tree: ast.Module | None, owner: str, name: str
) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """The method `name` of the module's class `owner`."""
    for node in tree.body if tree is not None else []:
        if isinstance(node, ast.ClassDef) and node.name == owner:
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) and item.name == name:
                    return item
    return None


def _not_async(text: str) -> tuple[str, str] | None:
    """(`self.stream`, `typing.AsyncIterable`) of `not isinstance(self.stream, ...)` whose
    type is an asynchronous one (`Async...`)."""
    try:
        node = ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return None
    if not (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)):
        return None
    call = node.operand
    if not (
        isinstance(call, ast.Call)
        and isinstance(call.func, ast.Name)
        and call.func.id == "isinstance"
        and len(call.args) == 2
    ):
        return None
    kind = ast.unparse(call.args[1])
    if not kind.rpartition(".")[2].startswith("Async"):
        return None
    return ast.unparse(call.args[0]), kind


def _sibling_reads(tree: ast.Module | None, owner: str, sync: str, target: str) -> bool:
    """Whether class `owner` of the module defines a plain (not async) `sync` that uses
    `target` too."""
    item = _method(tree, owner, sync)
    return isinstance(item, ast.FunctionDef) and any(
        isinstance(n, ast.Attribute | ast.Name) and ast.unparse(n) == target for n in walk(item)
    )
