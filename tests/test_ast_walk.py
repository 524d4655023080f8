"""errdex.ast_walk.walk gives the nodes ast.walk gives, the same objects in the same order."""

from __future__ import annotations

import ast
import inspect
import json
import textwrap

import pytest

from errdex.ast_walk import node_fields, walk

# Every kind of statement and expression the grammar has since 3.9, leaves included: a
# dict display with `**` (a None key), a match with its patterns, f-strings, async forms.
ALL_SHAPES = textwrap.dedent(
    '''
    """Doc."""
    from __future__ import annotations
    import os.path as p, sys
    from . import a as b
    from ..x import *

    @decorate(1, key=2)
    class C(Base, metaclass=Meta):
        x: int = 1
        y: "str"

        async def m(self, a, /, b=1, *args, c: int = 2, d, **kw) -> None:
            global g
            async with ctx() as (u, v), other():
                async for i in aiter():
                    await thing
                    yield i
                    yield from other
            nonlocal_ = lambda q, *r, **s: q
            return [z async for z in it if z] if a else {k: v for k, v in d.items()}

    def f():
        x = y = 1
        x += 2
        del x[1:2:3], y.attr
        try:
            assert x, "message"
        except (TypeError, ValueError) as error:
            raise RuntimeError(f"bad {x!r:>{width}} {y=}") from error
        else:
            pass
        finally:
            pass
        try:
            pass
        except* OSError:
            pass
        while not (x and y or z):
            if x is None or x in y or x not in z or -x < ~y <= +z:
                break
            elif (w := x @ y):
                continue
            else:
                x = {**a, "b": 1, **c}
        for (i, *rest) in {1, 2}:
            print(*rest, **{"sep": ""}, end=b"\\n")
        with open(p) as handle:
            handle[...]
        match command:
            case [1, 2, *others]:
                pass
            case {"key": value, **rest}:
                pass
            case Point(x=0, y=_) | None if x > 0:
                pass
            case str() as text:
                pass
            case True:
                pass
        return (yield)
    '''
)


def _same_walk(tree: ast.AST) -> None:
    expected = list(ast.walk(tree))
    found = list(walk(tree))
    assert len(found) == len(expected)
    assert all(a is b for a, b in zip(found, expected, strict=True))


def test_every_shape_walks_as_ast_walk() -> None:
    _same_walk(ast.parse(ALL_SHAPES))


@pytest.mark.parametrize("module", [ast, inspect, json.decoder, textwrap])
def test_standard_library_modules_walk_as_ast_walk(module: object) -> None:
    _same_walk(ast.parse(inspect.getsource(module)))  # type: ignore[arg-type]


def test_a_subtree_and_a_leaf() -> None:
    tree = ast.parse("f(a.b, *c)[d] = 1")
    _same_walk(tree.body[0])
    leaf = next(n for n in ast.walk(tree) if isinstance(n, ast.Store))
    assert list(walk(leaf)) == [leaf]


def test_nodes_built_by_hand_walk_as_ast_walk() -> None:
    # a missing field, a list holding None and something that is no node
    node = ast.Dict(keys=[None, ast.Name("k", ast.Load())], values=[ast.Constant(1), "x"])
    call = ast.Call(func=ast.Name("f", ast.Load()), args=[node])  # no `keywords`
    _same_walk(call)


def test_fields_that_never_hold_a_node_are_not_read() -> None:
    assert node_fields(ast.Name) == ("ctx",)
    assert node_fields(ast.Attribute) == ("value", "ctx")
    assert node_fields(ast.Constant) == ()
    assert node_fields(ast.FunctionDef)[:3] == ("args", "body", "decorator_list")
    assert node_fields(ast.Load) == ()


def test_a_node_walked_again_gives_the_same_nodes() -> None:
    tree = ast.parse(ALL_SHAPES)
    function = tree.body[-1]
    for _ in range(4):  # the first walk as it goes, the second keeps them, later reuse
        _same_walk(tree)
        _same_walk(function)
    stopped = walk(ast.parse("a + b"))  # a first walk stopped early still keeps nothing
    next(stopped)


def test_a_walked_tree_is_freed_without_the_collector() -> None:
    import gc
    import weakref

    class Module(ast.Module):
        """A module node that can be referred to weakly."""

    tree = ast.parse("def f(x):\n    return x.y + 1\n")
    root = Module(body=tree.body, type_ignores=[])
    for _ in range(3):
        assert len(list(walk(root))) == len(list(ast.walk(root)))
    gone = weakref.ref(root)
    enabled = gc.isenabled()
    gc.disable()
    try:
        del root, tree
        assert gone() is None  # no cycle through the kept nodes
    finally:
        if enabled:
            gc.enable()
