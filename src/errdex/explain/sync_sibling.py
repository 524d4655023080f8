"""A method called on an object of the other kind: call its sibling of that kind instead.

An API with both forms of a method (`Request.aread` and `Request.read` in httpx) checks
in the async one that what it reads is asynchronous (`assert isinstance(self.stream,
typing.AsyncIterable)`); a request built for a synchronous client fails it. The way out a
user takes is the method of the same class without the `a` prefix, where that method reads
the same thing: not an asynchronous object of their own. The other way round, a sync method
refusing what is not synchronous (`Response.close` on the response of an `AsyncClient`) is
left for its `a`-prefixed coroutine or async generator (`await response.aclose()`). A type
of the standard library that has an `Async` form (`typing.Iterable` beside
`typing.AsyncIterable`: `Request.read` asserting a sync stream, for a request built with async
content) is synchronous as a `Sync...` class is.
"""

from __future__ import annotations

import ast

from errdex.ast_walk import walk
from errdex.explain.context import Facts
from errdex.explain.fix_forms import swapped_method_fix
from errdex.explain.page import ConditionView, ExampleFix, Solution
from errdex.explain.plain import code
from errdex.explain.user_call import user_call
from errdex.extract.setters import param_names
from errdex.link.expression_texts import negated_call

# The standard library's abstract types (`typing`, `collections.abc`, `contextlib`) that have
# an asynchronous form named `Async...`: a check for one of them refuses what is asynchronous.
_SYNC_ABSTRACT = frozenset(
    {"Iterable", "Iterator", "Generator", "ContextManager", "AbstractContextManager"}
)


def sync_sibling_solution(facts: Facts) -> Solution | None:
    """`Call read() instead of aread()`, for a public `aX` method whose check refuses an
    object that is not asynchronous, when its class defines a plain `X` reading it too;
    `Call await aclose() instead of close()` for a public `X` refusing what is not
    synchronous, when the class defines an async `aX` reading it too."""
    function = facts.stored.site.function
    owner, _, method = function.rpartition(".")
    if not owner or "." in owner or len(method) < 2 or method.startswith("_"):
        return None
    if facts.stored.public_path() is None or method.startswith("a_"):
        return None
    refusal = _refusal(facts)
    if refusal is None:
        return None
    condition, target, kind, wants_async = refusal
    if wants_async and method.startswith("a"):
        other = method[1:]
    elif not wants_async:
        other = "a" + method
    else:
        return None
    if not other.isidentifier() or other.startswith("_"):
        return None
    found = _sibling_reads(facts.source_tree(), owner, other, target, not wants_async)
    if found is None:
        return None
    if wants_async:
        text = (
            f"Call {code(other + '()')} instead of {code(method + '()')}: {code(function)} "
            f"needs {code(target)} to be {_a(kind)} {code(kind)}, and here it is synchronous; "
            f"{code(f'{owner}.{other}')} reads it."
        )
    else:
        looped = _generator(found)
        called = f"async for ... in {other}()" if looped else f"await {other}()"
        text = (
            f"Call {code(called)} instead of {code(method + '()')}: {code(function)} "
            f"needs {code(target)} to be {_a(kind)} {code(kind)}, and here it is "
            f"asynchronous (made for async code); {code(f'{owner}.{other}')} reads it."
        )
        if kind.rpartition(".")[2] in _SYNC_ABSTRACT:
            # what is no `Iterable` may be no iterable at all (an int), not an async one:
            # the way out is said of the case it is for
            text = (
                f"Call {code(called)} instead of {code(method + '()')} when {code(target)} "
                f"is asynchronous (made for async code): {code(function)} needs it to be "
                f"{_a(kind)} {code(kind)}; {code(f'{owner}.{other}')} reads it."
            )
    return Solution(
        text=text,
        condition=condition.text,
        kind="input",
        fix=_fix(facts, method, other, wants_async),
    )


def _refusal(facts: Facts) -> tuple[ConditionView, str, str, bool] | None:
    """The first condition on the path refusing an object of the other kind, with what it
    reads, the type it wants and whether that type is asynchronous."""
    for condition in facts.held:
        text = condition.text
        if "isinstance(" not in text or not _names_kind(text):
            continue  # most are not: no parse of them
        refused = _refused_kind(condition.text)
        if refused is not None:
            return (condition, *refused)
    return None


def _fix(facts: Facts, method: str, other: str, to_sync: bool) -> ExampleFix | None:
    """`await request.aread()` → `request.read()` on the user's object (`response.close()`
    → `await response.aclose()` the other way), for a method that takes no argument (the
    sibling's are not read)."""
    call = user_call(facts)
    if call is None or call[1] != method or facts.read.required:
        return None
    owner = facts.stored.site.function.rpartition(".")[0]
    coroutine, plain = (method, other) if to_sync else (other, method)
    found = _method(facts.source_tree(), owner, coroutine)
    if not isinstance(found, ast.AsyncFunctionDef):
        return None
    # an async generator is looped over, a coroutine awaited
    looped = _generator(found)
    fix = swapped_method_fix(call[0], coroutine, plain, awaited=not looped, iterated=looped)
    if to_sync:
        return fix
    # the same two calls, the other way round
    return ExampleFix(before=fix.after, after=fix.before, note=fix.note)


def _generator(function: ast.AST) -> bool:
    return any(isinstance(n, ast.Yield | ast.YieldFrom) for n in walk(function))


def _method(
    tree: ast.Module | None, owner: str, name: str
) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """The method `name` of the module's class `owner`."""
    for node in tree.body if tree is not None else []:
        if isinstance(node, ast.ClassDef) and node.name == owner:
            found = _own_method(node, name)
            if found is not None:
                return found
    return None


def _own_method(
    cls: ast.ClassDef | None, name: str
) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """The method `name` the class's own body defines first."""
    for item in cls.body if cls is not None else []:
        if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) and item.name == name:
            return item
    return None


def _refused_kind(text: str) -> tuple[str, str, bool] | None:
    """(`self.stream`, `typing.AsyncIterable`, True) of `not isinstance(self.stream, ...)`
    whose type is an asynchronous one (`Async...`); (..., False) for a synchronous one
    (`SyncByteStream`)."""
    call = negated_call(text, "isinstance")
    if call is None or len(call.args) != 2:
        return None
    kind = ast.unparse(call.args[1])
    bare = kind.rpartition(".")[2]
    if not bare.startswith(("Async", "Sync")) and bare not in _SYNC_ABSTRACT:
        return None
    return ast.unparse(call.args[0]), kind, bare.startswith("Async")


def _names_kind(text: str) -> bool:
    """Whether a condition's text may name a type of one kind: `...Sync...`, `...Async...`, or
    a standard abstract type that has an async form."""
    return "sync" in text.lower() or any(name in text for name in _SYNC_ABSTRACT)


def _sibling_reads(
    tree: ast.Module | None, owner: str, name: str, target: str, coroutine: bool
) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """The method `name` of class `owner` of the module, plain (an `async def` when
    `coroutine`), when it uses `target` too."""
    item = _method(tree, owner, name)
    kind = ast.AsyncFunctionDef if coroutine else ast.FunctionDef
    if isinstance(item, kind) and any(
        isinstance(n, ast.Attribute | ast.Name) and ast.unparse(n) == target for n in walk(item)
    ):
        return item
    return None


def counterpart_class_solution(facts: Facts) -> Solution | None:
    """`Send it with httpx.AsyncClient ...` for a method of a public class `C` refusing what
    is not synchronous, when the site's file defines `AsyncC` whose method of the same name
    refuses what is not asynchronous in the same thing (and the other way round): the
    object was made for the other kind of client."""
    public = facts.stored.public_path()
    owner, _, method = facts.stored.site.function.rpartition(".")
    if public is None or not owner or "." in owner or owner != facts.stored.site.class_name:
        return None
    refusal = _refusal(facts)
    if refusal is None:
        return None
    condition, target, kind, wants_async = refusal
    if wants_async:
        other = owner[len("Async") :] if owner.startswith("Async") else ""
    else:
        other = "Async" + owner
    if not other or not _counterpart_takes(facts, other, method, target, not wants_async):
        return None
    path = public.removesuffix(f".{method}").removesuffix(owner) + other
    theirs = "asynchronous" if not wants_async else "synchronous"
    mine = "synchronous" if not wants_async else "asynchronous"
    text = (
        f"Make the call with {code(path)} instead, whose {code(method)} takes it: "
        f"{code(facts.stored.site.function)} needs {code(target)} to be "
        f"{_a(kind)} {code(kind)}, and here it is {theirs}. To keep your {code(owner)}, "
        f"make {code(target)} {mine}."
    )
    origin = _returned_by(facts, owner, method, target)
    if origin is not None:
        # a local made by a call on another object (the user's transport): said as what
        # that object's method must return
        local, _, attribute = target.partition(".")
        text = text.removesuffix(".") + (
            f": {code(local)} is what {code(origin[0])} returns (line {origin[1]}), so the "
            f"{code(attribute)} of what {code(origin[2])} returns must be {_a(kind)} {code(kind)}."
        )
    return Solution(text=text, condition=condition.text, kind="input")


def _returned_by(facts: Facts, owner: str, method: str, target: str) -> tuple[str, int, str] | None:
    """(`transport.handle_request(request)`, its line, `handle_request`) when `target` reads
    an attribute of a local that the site's method assigns once, from a call of a public
    method of another object (`response = transport.handle_request(request)`, or its
    `await`)."""
    name, dot, _ = target.partition(".")
    if not dot or name == "self":
        return None
    item = _own_method(facts.top_class(owner), method)
    if item is None or name in param_names(item):
        return None
    stores = [
        n
        for n in walk(item)
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) and n.id == name
    ]
    # the one store of the local is an assignment's only target
    made = next((n for n in walk(item) if isinstance(n, ast.Assign) and n.targets == stores), None)
    if len(stores) != 1 or made is None:
        return None
    value = made.value
    value = value.value if isinstance(value, ast.Await) else value
    if not (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Attribute)
        and isinstance(value.func.value, ast.Name)
        and value.func.value.id not in ("self", "cls")
        and not value.func.attr.startswith("_")
    ):
        return None
    return ast.unparse(value), made.lineno, value.func.attr


def _counterpart_takes(facts: Facts, other: str, method: str, target: str, coroutine: bool) -> bool:
    """Whether class `other` of the site's file defines `method` (an `async def` when
    `coroutine`) that refuses `target` unless it is of the other kind."""
    found = facts.top_class(other)
    for item in found.body if found is not None else []:
        kind = ast.AsyncFunctionDef if coroutine else ast.FunctionDef
        if isinstance(item, kind) and item.name == method:
            # an `if not isinstance(...)` refusal, or an `assert isinstance(...)` (its test
            # negated)
            tests = [ast.unparse(n) for n in walk(item) if isinstance(n, ast.UnaryOp)]
            tests += [f"not {ast.unparse(n.test)}" for n in walk(item) if isinstance(n, ast.Assert)]
            return any(
                (refused := _refused_kind(test)) is not None
                and refused[0] == target
                and refused[2] == coroutine
                for test in tests
            )
    return False


def _a(kind: str) -> str:
    return "an" if kind[:1] in ("A", "E", "I", "O", "U") else "a"
