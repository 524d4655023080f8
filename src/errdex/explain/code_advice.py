"""The code a message says to write instead, as the example fix.

A message that gives the replacement in code (`Use `q = q.merge(...)` to create an updated
copy.`, raised by `QueryParams.update`; ``secret_str.display()` is deprecated, use
`str(secret_str)` instead`) has the fix's after line in its own words. Its before line is
the code the message quotes beside it (`secret_str.display()`), else the call that raised
on the object the replacement names: `q.update(...)` for a method, `q[key] = value` for
`__setitem__`, with the replacement's own arguments. Drawn only where the replacement calls
a method of the class that raises, or the message quotes the raising call itself.
"""

from __future__ import annotations

import ast
import re

from errdex.ast_walk import walk
from errdex.explain.context import Facts
from errdex.explain.page import ExampleFix
from errdex.explain.plain import code
from errdex.explain.user_call import user_call

_QUOTED = re.compile(r"`([^`\n]+)`")


def code_advice_fix(advice: str, facts: Facts) -> ExampleFix | None:
    """Before and after for advice that gives its replacement in code; None otherwise."""
    message = facts.stored.site.message
    owner, _, method = facts.stored.site.function.rpartition(".")
    if message is None or not method or "." in owner:
        return None
    after = next((c for c in _QUOTED.findall(advice) if _calls(c)), None)
    if after is None:
        return None
    quoted = [c for c in _QUOTED.findall(message.text) if c != after and _calls(c)]
    before = next((c for c in quoted if re.search(rf"\.{re.escape(method)}\(", c)), None)
    if before is None:
        before = _raising_call(after, owner, method, facts)
    if before is None:
        return None
    return ExampleFix(
        before=before,
        after=after,
        note=f"The message's own code, in place of the {code(method)} call that raised; "
        f"keep your own names and values.",
    )


def _calls(text: str) -> bool:
    """Whether the text is Python code that calls something."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return False
    return any(isinstance(n, ast.Call) for n in walk(tree))


def _raising_call(after: str, owner: str, method: str, facts: Facts) -> str | None:
    """`q.update(...)` for `q = q.merge(...)`: the raising method on the object whose
    method (of the same class) the replacement calls, with the replacement's arguments."""
    call = user_call(facts)
    if call is None or call[1] != method:
        return None
    defined = _methods(facts, owner)
    for node in walk(ast.parse(after)):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.attr in defined
            and node.func.attr != method
        ):
            continue
        target = node.func.value.id
        if target[:1].isupper():
            return None  # the class's own name (`LLM.embed(...)`): no object of the user's
        args = [ast.unparse(a) for a in node.args]
        if method == "__setitem__":
            return f"{target}[{args[0]}] = {args[1]}" if len(args) == 2 else None
        if method.startswith("__"):
            return None  # another operator: not written by name
        return f"{target}.{method}({', '.join(args)})"
    return None


def _methods(facts: Facts, owner: str) -> set[str]:
    tree = facts.source_tree()
    for node in tree.body if tree is not None else []:
        if isinstance(node, ast.ClassDef) and node.name == owner:
            return {m.name for m in node.body if isinstance(m, ast.FunctionDef)}
    return set()
