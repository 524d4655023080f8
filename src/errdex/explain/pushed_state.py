"""A read of the last item a module-level stack holds, failed: the call made outside the
push that fills it.

click's `get_current_context` returns `_local.stack[-1]` in a `try` and raises under
`except (AttributeError, IndexError)`; only `push_context(ctx)` in the same module appends
to that stack (and `pop_context()` takes the item off). No argument of the function decides
it: the call was made where nothing had pushed an item yet (outside a command, after its
end). The way out is to make the call while a push is in effect; the function's docstring
sentence that names the push (“To push the current context, :meth:`Context.scope` can be
used.”) says how a user makes one.
"""

from __future__ import annotations

import ast
import re

from errdex.ast_walk import walk
from errdex.explain.context import Facts
from errdex.explain.page import Solution
from errdex.explain.plain import code
from errdex.explain.table_lookup import module_names
from errdex.extract.conditions import dotted_name
from errdex.facts import ConditionKind

_EMPTY = ("IndexError", "LookupError", "AttributeError", "KeyError")


def pushed_state_solution(facts: Facts) -> Solution | None:
    """ "Call `get_current_context` while a `push_context(...)` is in effect …"; else None."""
    site = facts.stored.site
    caught = [
        c
        for c in facts.conditions
        if c.kind == ConditionKind.EXCEPT and any(e in c.text for e in _EMPTY)
    ]
    if not caught:
        return None
    function = facts.site_function()
    if function is None or not _reads_last_item(function):
        return None
    tree = facts.source_tree()  # the whole file, parsed only for a read of `[-1]` in a `try`
    if tree is None:
        return None
    stack = _last_item_read(function, site.line, module_names(tree))
    if stack is None:
        return None
    pushes = [f.name for f in _functions(tree) if f.name != function.name and _appends(f, stack)]
    if not pushes:
        return None
    pops = [f.name for f in _functions(tree) if _pops(f, stack)]
    callee = code(site.function)
    push = code(f"{pushes[0]}(...)")
    taken = f" (and {code(pops[0] + '()')} takes it off)" if pops else ""
    text = (
        f"Call {callee} while a {push} is in effect: it reads the last item of "
        f"{code(stack)}, which only {code(pushes[0])} puts there{taken}; made before any "
        "push or after the last one is taken off, the call finds none."
    )
    said = _docstring_on(function, pushes[0])
    if said:
        text += f" Its docstring: “{said}”"
    return Solution(text=text, condition=caught[0].text, kind="input")


def _last_item_read(function: ast.FunctionDef, line: int, module: set[str]) -> str | None:
    """`_local.stack` of `return _local.stack[-1]` in the `try` whose handler holds the site,
    for a name the module binds."""
    for node in walk(function):
        if not isinstance(node, ast.Try):
            continue
        if not any(h.lineno <= line <= (h.end_lineno or h.lineno) for h in node.handlers):
            continue
        for part in node.body:
            for sub in walk(part):
                if not (isinstance(sub, ast.Subscript) and _minus_one(sub.slice)):
                    continue
                value = sub.value
                dotted = dotted_name(value) if isinstance(value, ast.Name | ast.Attribute) else None
                if dotted is not None and dotted.split(".")[0] in module:
                    return dotted
    return None


def _reads_last_item(function: ast.FunctionDef) -> bool:
    return any(
        isinstance(n, ast.Subscript) and _minus_one(n.slice)
        for t in walk(function)
        if isinstance(t, ast.Try)
        for part in t.body
        for n in walk(part)
    )


def _minus_one(node: ast.expr) -> bool:
    return (
        isinstance(node, ast.UnaryOp)
        and isinstance(node.op, ast.USub)
        and isinstance(node.operand, ast.Constant)
        and node.operand.value == 1
    )


def _functions(tree: ast.Module) -> list[ast.FunctionDef]:
    return [n for n in tree.body if isinstance(n, ast.FunctionDef)]


def _appends(function: ast.FunctionDef, stack: str) -> bool:
    """`stack.append(x)`, or `root.__dict__.setdefault("attr", []).append(x)` for
    `root.attr`."""
    root, _, attr = stack.partition(".")
    for node in walk(function):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "append"
        ):
            continue
        target = node.func.value
        if dotted_name(target) == stack if isinstance(target, ast.Name | ast.Attribute) else False:
            return True
        if (
            attr
            and isinstance(target, ast.Call)
            and isinstance(target.func, ast.Attribute)
            and target.func.attr == "setdefault"
            and dotted_name(target.func.value) == f"{root}.__dict__"
            and target.args
            and isinstance(target.args[0], ast.Constant)
            and target.args[0].value == attr
        ):
            return True
    return False


def _pops(function: ast.FunctionDef, stack: str) -> bool:
    """`stack.pop()`."""
    return any(
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "pop"
        and isinstance(node.func.value, ast.Name | ast.Attribute)
        and dotted_name(node.func.value) == stack
        for node in walk(function)
    )


def _docstring_on(function: ast.FunctionDef, push: str) -> str | None:
    """The docstring's sentence that speaks of the push, by the first word of its name
    (`push` of `push_context`): how a user makes one."""
    doc = ast.get_docstring(function) or ""
    word = push.strip("_").split("_")[0]
    if len(word) < 3:
        return None
    text = " ".join(doc.split())
    for sentence in re.split(r"(?<=\.)\s+", text):
        if re.search(rf"\b{re.escape(word)}", sentence, re.IGNORECASE):
            return sentence
    return None
