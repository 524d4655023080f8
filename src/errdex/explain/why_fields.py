"""The attribute docstrings of the fields a check tests on `self`.

A configuration class documents each field with a string right under its declaration
(`enable_fusion: bool = False` over a string "Fuse ops; requires the Inductor backend."): the
doc a method of that class that tests `self.enable_fusion` checks against. Read from the
class as the site's file declares it (its parse, kept once per page), and from a base the
same file declares: no fact of the index.
"""

from __future__ import annotations

import ast
import inspect
import re
from collections.abc import Iterator

from errdex.ast_walk import walk
from errdex.explain.context import Facts
from errdex.extract.docs import assigned_name, docstring_under
from errdex.extract.shapes import self_attribute
from errdex.link.expression_texts import parse_expression


def self_reads(texts: list[str]) -> list[str]:
    """The attributes of `self` the texts (expressions) read, once each: not a method they
    call (`self.check(x)`)."""
    out: dict[str, None] = {}
    for text in texts:
        node = parse_expression(text.strip())  # a statement's text (`for x in ...`): None
        if node is None:
            continue
        called = {id(n.func) for n in walk(node) if isinstance(n, ast.Call)}
        for sub in walk(node):
            if isinstance(sub, ast.Attribute) and id(sub) not in called:
                name = self_attribute(sub)
                if name is not None:
                    out[name] = None
    return list(out)


def _may_declare(text: str | None, attrs: list[str]) -> bool:
    """Whether a line of the file starts, after its indentation, with one of `attrs` and then
    `:` or `=`, as a field declared in a class body does: most classes set their fields in
    `__init__` (`self.x = ...`), and a file with no such line needs no class parsed here
    (a cold page would otherwise parse the site's class for nothing)."""
    if text is None:
        return False
    names = "|".join(re.escape(a) for a in attrs)
    return re.search(rf"^[ \t]+(?:{names})[ \t]*(?::|=(?!=))", text, re.MULTILINE) is not None


def field_docs(facts: Facts, attrs: list[str]) -> Iterator[tuple[str, str, int]]:
    """(attribute, the first paragraph of its docstring, the docstring's line) for each of
    `attrs` the site's class (or a base of it the same file declares) declares with a
    string right under it."""
    if not attrs or not _may_declare(facts.source_text, attrs):
        return
    cls = facts.own_class()
    if cls is None:
        return
    classes = [cls]
    for base in cls.bases:
        if isinstance(base, ast.Name) and base.id != cls.name:
            found = facts.top_class(base.id)
            if found is not None:
                classes.append(found)
    wanted = set(attrs)
    for owner in classes:
        for index, node in enumerate(owner.body):
            name = assigned_name(node)
            under = docstring_under(owner.body, index) if name in wanted else None
            if name is None or under is None:
                continue
            wanted.discard(name)
            text, line = under
            paragraph = inspect.cleandoc(text).split("\n\n")[0]
            yield name, " ".join(paragraph.split()), line
