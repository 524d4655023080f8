"""A check on the body of the user's own class: a name it defines twice.

A metaclass's `__prepare__` may return a mapping of its own (pydantic's
`ModelMetaclass.__prepare__` returns `_ModelNamespaceDict()`); Python then calls that
mapping's `__setitem__` for every name the body of a class made with the metaclass
assigns, the user's model included. A check there that finds the key already present
(`existing = self.get(k, None)`) fires on the second definition of one name in the user's
class: the way out is to give the two definitions different names.
"""

from __future__ import annotations

import ast

from errdex.ast_walk import walk
from errdex.explain.context import Facts
from errdex.explain.input_nodes import free_names
from errdex.explain.page import Solution
from errdex.explain.plain import code


def class_body_solution(facts: Facts) -> Solution | None:
    """ "Rename one of the two definitions of `{k}` in your class's body", or None."""
    site = facts.stored.site
    owner, _, method = site.function.rpartition(".")
    if method != "__setitem__" or not owner or owner != site.class_name:
        return None
    if len(facts.read.params) < 1:
        return None
    key = facts.read.params[0]
    # the key already present: a local read from the mapping by the key, tested
    present = {
        b.name for b in facts.bindings if b.origin == "local" and _reads_own_key(b.value, key)
    }
    tested = [c for c in facts.held if present & _names(c.text) or f"{key} in self" in c.text]
    metaclass = _preparing_metaclass(facts, owner) if tested else None
    if metaclass is None:
        return None
    printed = _printed_key(facts, key)
    return Solution(
        text=(
            f"Rename one of the two definitions of {printed} in the body of your class "
            f"(a class whose metaclass is {code(metaclass)}): the body assigns that name "
            f"twice, and this check runs on the second."
        ),
        condition=tested[-1].text,
        kind="input",
    )


def _reads_own_key(value: str, key: str) -> bool:
    """`self.get(k, None)`, `self.get(k)` or `self[k]`."""
    try:
        node = ast.parse(value, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return False
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        receiver = ast.unparse(node.func.value)
        first = ast.unparse(node.args[0]) if node.args else None
        return receiver == "self" and node.func.attr == "get" and first == key
    if isinstance(node, ast.Subscript):
        return ast.unparse(node.value) == "self" and ast.unparse(node.slice) == key
    return False


def _names(text: str) -> set[str]:
    try:
        return set(free_names(ast.parse(text, mode="eval").body))
    except (SyntaxError, ValueError, RecursionError):
        return set()


def _preparing_metaclass(facts: Facts, owner: str) -> str | None:
    """The class of the same file whose `__prepare__` returns a new `owner` mapping."""
    tree = facts.source_tree()
    for cls in walk(tree) if tree is not None else ():
        if not isinstance(cls, ast.ClassDef):
            continue
        for node in cls.body:
            if not (isinstance(node, ast.FunctionDef) and node.name == "__prepare__"):
                continue
            for inner in walk(node):
                if (
                    isinstance(inner, ast.Return)
                    and isinstance(inner.value, ast.Call)
                    and ast.unparse(inner.value.func) == owner
                ):
                    return cls.name
    return None


def _printed_key(facts: Facts, key: str) -> str:
    """`{k}` when the message prints the key (a lookup fills it from the paste), else the
    parameter's name in code."""
    message = facts.stored.site.message
    for placeholder in message.placeholders if message is not None else ():
        if placeholder.expr == key:
            return f"`{placeholder.render()}`"
    return "the name"
