"""A property read before anything set the attribute behind it: set it, or pass it when made.

httpx's `HTTPError.request` raises "The .request property has not been set." when
`self._request is None`; `HTTPError.__init__` starts every error with None, and only two
things fill it in: the property's own setter (`exc.request = ...`) and the constructors of
subclasses that take it as a keyword (`RequestError(message, request=...)`). No method a user
calls first sets it (`call_first`), and the class's own constructor takes no such argument
(`inputs`), so the way out is one of those two: assign the property before reading it, or
give the keyword when making the object.
"""

from __future__ import annotations

import ast

from errdex.ast_walk import walk
from errdex.explain.call_order import is_own, own_assignments
from errdex.explain.context import Facts
from errdex.explain.fix_forms import instance_name
from errdex.explain.page import ConditionView, Solution
from errdex.explain.plain import code, listed
from errdex.extract.calls import is_property
from errdex.extract.shapes import single_binding


def set_later_solution(
    target: str,
    member: str,
    attr: str,
    condition: ConditionView,
    facts: Facts,
) -> Solution | None:
    """ "Set `request` on your `HTTPError` object before reading it: ..." for a property
    whose own setter stores its value in `self.attr`, or whose attribute subclasses'
    constructors set from a keyword; None otherwise."""
    owner_node = facts.own_class()
    if owner_node is None or not _is_property(owner_node, member):
        return None
    setter = _stores_value(owner_node, member, attr)
    makers = _keyword_makers(facts, owner_node.name, member, attr, setter)
    if not setter and not makers:
        return None
    owner = target.rpartition(".")[2]
    ways = []
    if setter:
        ways.append(f"assign it (`{instance_name(owner)}.{member} = ...`)")
    if makers:
        made = listed(
            [
                code(f"{c}(..., {k}=...)") + (" (its subclasses alike)" if more else "")
                for c, k, more in makers
            ],
            "or",
        )
        ways.append(f"make the object with the keyword: {made}")
    return Solution(
        text=(
            f"Set {code(member)} on your {code(owner)} object before reading it: "
            f"{' or '.join(ways)}. {code(owner + '.__init__')} leaves "
            f"{code('self.' + attr)} None, and the property {code(member)} refuses an "
            "object before something sets it."
        ),
        condition=condition.text,
        kind="input",
    )


def _is_property(owner: ast.ClassDef, member: str) -> bool:
    return any(
        isinstance(f, ast.FunctionDef) and f.name == member and is_property(f) for f in owner.body
    )


def _stores_value(owner: ast.ClassDef, member: str, attr: str) -> bool:
    """Whether the property's setter (`@member.setter`) assigns its own argument to
    `self.attr` as it is."""
    for f in owner.body:
        if not (
            isinstance(f, ast.FunctionDef)
            and f.name == member
            and any(ast.unparse(d) == f"{member}.setter" for d in f.decorator_list)
            and len(f.args.args) == 2
        ):
            continue
        given = f.args.args[1].arg
        if any(isinstance(v, ast.Name) and v.id == given for _, v in own_assignments(f, attr)):
            return True
    return False


def _keyword_makers(
    facts: Facts, owner: str, member: str, attr: str, setter: bool
) -> list[tuple[str, str, bool]]:
    """(public subclass, keyword, whether all its subclasses in the file take the keyword too)
    of each subclass in the site's file whose constructor stores a keyword with a default
    as it is in `self.attr` (or through the property's setter): the call that leaves it out
    is the one that keeps None. A subclass takes it when it has no constructor of its own or
    one that takes the same keyword (a `__init__(self, message)` of its own does not)."""
    tree = facts.source_tree()
    if tree is None:
        return []
    classes = {c.name: c for c in tree.body if isinstance(c, ast.ClassDef)}
    below = {owner}
    changed = True
    while changed:  # the subclasses in the file, through any depth
        changed = False
        for name, c in classes.items():
            if name not in below and any(ast.unparse(b) in below for b in c.bases):
                below.add(name)
                changed = True
    stored = member if setter else None
    found = []
    for name in sorted(below - {owner}, key=lambda n: classes[n].lineno):
        init = _constructor(classes[name])
        if init is None or name.startswith("_"):
            continue
        keyword = _stored_keyword(init, attr, stored)
        if keyword is None:
            continue
        found.append((name, keyword, _all_take(classes, name, keyword)))
    return found


def _all_take(classes: dict[str, ast.ClassDef], name: str, keyword: str) -> bool:
    """Whether the class has subclasses in the file and every one, at any depth, takes the
    keyword: by a constructor of its own that takes it, or by none (its base's is called)."""
    takes = {name: True}
    changed = True
    while changed:
        changed = False
        for below, c in classes.items():
            if below in takes:
                continue
            base = next((b for b in map(ast.unparse, c.bases) if b in takes), None)
            if base is None:
                continue
            made = _constructor(c)
            takes[below] = takes[base] if made is None else keyword in _defaulted_keywords(made)
            changed = True
    return len(takes) > 1 and all(takes.values())


def _constructor(c: ast.ClassDef) -> ast.FunctionDef | None:
    """The class's own `__init__`."""
    return next(
        (f for f in c.body if isinstance(f, ast.FunctionDef) and f.name == "__init__"), None
    )


def _stored_keyword(init: ast.FunctionDef, attr: str, member: str | None) -> str | None:
    """The keyword with a default the constructor assigns as it is to `self.attr` (or to
    `self.member`, the property whose setter stores it)."""
    defaulted = _defaulted_keywords(init)
    for node in walk(init):
        bound = single_binding(node)
        if bound is None:
            continue
        target, value = bound
        if (
            is_own(target)
            and target.attr in (attr, member)
            and isinstance(value, ast.Name)
            and value.id in defaulted
        ):
            return value.id
    return None


def _defaulted_keywords(init: ast.FunctionDef) -> set[str]:
    """The parameters of the constructor a call may give by keyword or leave out."""
    args = init.args
    defaulted = {a.arg for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d}
    positional = [*args.posonlyargs, *args.args]
    # a positional-only parameter is no keyword (`request=...` to it is a TypeError)
    keywords = positional[len(args.posonlyargs) :]
    return defaulted | {
        a.arg for a in positional[len(positional) - len(args.defaults) :] if a in keywords
    }
