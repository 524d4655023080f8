"""Paths joined onto a name and tested for being there: `os.path.exists(os.path.join(
model_path, "audio_tokenizer"))`. The folder the name gives decides the test, so a setting
behind the name is a way out (the link, `passed`), said as the path to supply there (the
page, `explain.path_tests`). Only literal parts after the name, each inside the folder: a
path the code computes says nothing a user can supply, an absolute part (`"/opt/tok"`)
makes `os.path.join` drop the folder, and `..` leaves it.
"""

from __future__ import annotations

import ast
import re

from errdex.extract.conditions import dotted_name

_MODULES = ("os.path", "path", "osp")  # as vllm and most code import it
_JOINS = frozenset(f"{m}.join" for m in _MODULES)
_TESTS = frozenset(f"{m}.{t}" for m in _MODULES for t in ("exists", "isdir", "isfile"))
# a part `os.path.join` does not put inside the folder: absolute (`/x`, `\\x`, `C:x`), or one
# with a `..` step
_OUTSIDE = re.compile(r"^(?:[/\\]|[A-Za-z]:)|(?:^|[/\\])\.\.(?:[/\\]|$)")


def joined_onto(node: ast.AST | None) -> tuple[ast.expr, str] | None:
    """For `os.path.join(part, "a", "b")`, whose other parts are literal strings inside the
    folder `part` names: (`part`, "a/b"); None for any other node."""
    if not (
        isinstance(node, ast.Call)
        and len(node.args) > 1
        and not node.keywords
        and dotted_name(node.func) in _JOINS
    ):
        return None
    parts = [
        a.value
        for a in node.args[1:]
        if isinstance(a, ast.Constant)
        and isinstance(a.value, str)
        and a.value
        and _OUTSIDE.search(a.value) is None
    ]
    if len(parts) != len(node.args) - 1:
        return None
    return node.args[0], "/".join(parts)


def path_test(node: ast.AST | None) -> tuple[ast.expr, str] | None:
    """For `os.path.exists(path)` (or `isdir`, `isfile`): (`path`, the test's name); None
    for any other node."""
    if not (isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords):
        return None
    called = dotted_name(node.func)
    if called not in _TESTS:
        return None
    return node.args[0], called.rpartition(".")[2]
