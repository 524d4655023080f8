"""A message saying the type of the user's attribute could not be inferred: annotate it.

A framework that builds fields from a class's body (pydantic v1's `ModelField`) takes each
field's type from its annotation, or failing that from its default's class; a field
declared `x = None` gives neither, and the message says so of the name (`unable to infer
type for attribute "{self.name}"`). The name is one the user's class declares: the way out
is an annotation on it where the class declares it. Taken from the message's own words,
which open on that failure and name the attribute or field in a placeholder, and only
where the code that failed reads annotations (the site's class, or its function when it is
no method, names an `annotation`, `__annotations__` or `get_type_hints`): a type inferred
from data (`unable to infer type for field "{name}"` of a column whose values are all
`None`) has no declaration to annotate.
"""

from __future__ import annotations

import ast
import re

from errdex.ast_walk import walk
from errdex.explain.context import Facts
from errdex.explain.page import Solution
from errdex.facts import SiteKind

__all__ = ["inferred_type_solution"]

_UNINFERRED = re.compile(
    r"^(?:unable to|cannot|can't|could not|couldn't|failed to)\s+(?:infer|deduce)\s+"
    r"(?:the\s+)?type\s+(?:for|of)\s+(?:the\s+)?(?P<noun>attribute|field)\s+"
    r"[\"'`“]?(?P<name>\{[^{}]+\})[\"'`”]?\s*\.?$",
    re.I,
)


def inferred_type_solution(facts: Facts) -> Solution | None:
    """ "Give the attribute “{name}” a type annotation where your class declares it ...",
    for a raise whose whole message says its type could not be inferred."""
    site = facts.stored.site
    message = site.message
    if site.kind is not SiteKind.RAISE or message is None:
        return None
    found = _UNINFERRED.match(message.text.strip())
    if found is None or not _reads_annotations(facts):
        return None
    noun = found.group("noun").lower()
    name = re.sub(r"![rsa]\}$", "}", found.group("name"))
    return Solution(
        text=(
            f"Give the {noun} “{name}” a type annotation where your class declares it "
            f"(`x: Optional[int] = None` in place of `x = None`): as the message says, its "
            "type could not be inferred."
        ),
        kind="input",
    )


def _reads_annotations(facts: Facts) -> bool:
    """Whether the site's class (or its function, when it is no method) reads a type from
    an annotation: a name or attribute holding `annotation`, `__annotations__`, or a call of
    `get_type_hints`."""
    scope: ast.AST | None = facts.own_class() or facts.site_function()
    if scope is None:
        return False
    for node in walk(scope):
        name = node.id if isinstance(node, ast.Name) else getattr(node, "attr", None)
        if isinstance(name, str) and ("annotation" in name.lower() or name == "get_type_hints"):
            return True
        if isinstance(node, ast.arg) and "annotation" in node.arg.lower():
            return True
    return False
