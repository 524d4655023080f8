"""The method to call first, for a message that says what must have happened to the object.

"'.elapsed' may only be accessed after the response has been read or closed" (httpx's
`Response.elapsed`): the participles name methods of the class the property belongs to
(`read`, `close`). The first the class defines that takes no argument, and is no coroutine,
is the call to make first on the user's object: `response.read()`, then `.elapsed`. Only
where the sentence's object is that class's own (`response` of `Response`).
"""

from __future__ import annotations

import ast
import re

from errdex.explain.context import Facts
from errdex.explain.page import Change
from errdex.explain.user_call import user_call

_AFTER = re.compile(
    r"\bafter\s+(?:the\s+|this\s+|your\s+)?(?P<object>[A-Za-z_]\w*)\s+(?:has|have)\s+been\s+"
    r"(?P<verbs>[a-z]+(?:(?:\s*,\s*|\s+or\s+|\s+and\s+)[a-z]+)*)",
    re.I,
)
_SNAKE = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def precondition_change(text: str, facts: Facts) -> Change | None:
    """The call to make first that a "First make sure X has been VERBed" solution implies,
    as a `first` change; None when the class defines no such method."""
    found = _AFTER.search(text)
    site = facts.stored.site
    owner, _, member = site.function.rpartition(".")
    if found is None or not owner or "." in owner or owner != site.class_name:
        return None
    if found["object"].lower() != _SNAKE.sub("_", owner).lower():
        return None  # another object's state: not a method of this class
    call = user_call(facts, constructor=True)
    methods = _plain_methods(facts, owner)
    if call is None or not methods:
        return None
    for verb in re.split(r"\s*,\s*|\s+or\s+|\s+and\s+", found["verbs"]):
        for name in _infinitives(verb.lower()):
            if name in methods:
                return Change(form="first", target=call[0], method=name, after="", keyword=member)
    return None


def _infinitives(participle: str) -> list[str]:
    """`closed` → close, `started` → start, `stopped` → stop; `read` as it is."""
    if not participle.endswith("ed"):
        return [participle]
    return [participle[:-1], participle[:-2], participle[:-3]]


def _plain_methods(facts: Facts, owner: str) -> set[str]:
    """The public methods of the class (in the site's file) that take no argument."""
    tree = facts.source_tree()
    for node in tree.body if tree is not None else []:
        if isinstance(node, ast.ClassDef) and node.name == owner:
            return {
                m.name
                for m in node.body
                if isinstance(m, ast.FunctionDef)
                and not m.name.startswith("_")
                and not m.decorator_list
                and len(m.args.args) - len(m.args.defaults) <= 1
                and not m.args.kwonlyargs
            }
    return set()
