"""A check of the configuration a user's subclass declares: the way out is that declaration.

pydantic's `BaseModel.__setattr__` raises "... is immutable" when `not
self.__config__.allow_mutation or self.__config__.frozen`. No argument of the call decides
that: `__config__` is a class attribute the base declares (`__config__ = BaseConfig`, and
`Config = BaseConfig` beside it), and the user's model overrides it with its own `class
Config:`; pydantic 2 reads `self.model_config.get('extra')`, which the model declares as
`model_config = ConfigDict(...)`. So when the raise's own test reads keys of such a
class-level configuration (an attribute of the site's class set in its body, never through
`self.`), the page says which value each key must have, written where the user's subclass
declares it: a nested class under the public name the base binds the same class to, or the
attribute assigned a call of the constructor the base uses. Only tests whose every part
(for `or`) or one part (for `and`) is such a key, in a shape whose opposite is a value, are
put in words.
"""

from __future__ import annotations

import ast
import re
from typing import NamedTuple

from errdex.ast_walk import walk
from errdex.explain.context import Facts
from errdex.explain.entry_args import short_export
from errdex.explain.input_nodes import field_key
from errdex.explain.page import Solution
from errdex.explain.plain import code, listed
from errdex.extract.module import is_type_checking
from errdex.extract.shapes import single_binding
from errdex.facts import BRANCH_KINDS, ConditionKind, SiteKind

__all__ = ["config_solution"]

_OWNERS = frozenset({"self", "cls"})
# `self.A.k`, `cls.A.get(`, `self.A[`: a key of something the object holds
_KEY_READ = re.compile(r"\b(?:self|cls)\.\w+(?:\.\w|\[)")


class _Read(NamedTuple):
    attribute: str  # the class attribute holding the configuration (`__config__`)
    owner: str  # `self` or `cls`, as the code reads it
    key: str  # the key or attribute of it the test reads (`frozen`)


class _Needed(NamedTuple):
    key: str
    value: str | None  # the value to write (Python source), None when not one value
    words: str  # the value in words


def config_solution(facts: Facts) -> Solution | None:
    """ "In your subclass of `BaseModel`, set `frozen` to `False` in its `Config` ...", or
    None."""
    site = facts.stored.site
    if site.kind not in (SiteKind.RAISE, SiteKind.ASSERT, SiteKind.WARN):
        return None
    if any(c.kind == ConditionKind.EXCEPT for c in facts.conditions):
        return None  # what failed is the `try`'s call
    checks = [c for c in facts.held if c.kind in BRANCH_KINDS]
    locals_ = {b.name: b.value for b in facts.bindings if b.origin == "local"}
    if not checks or not any(_KEY_READ.search(t) for t in (checks[-1].text, *locals_.values())):
        return None  # cheap: no page without such a read parses anything here
    try:
        test = ast.parse(checks[-1].text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return None
    needed = _needed(test, locals_)
    attributes = {r.attribute for r, _ in needed}
    if len(attributes) != 1:
        return None
    (attribute,) = attributes
    text = facts.source_text or ""
    if re.search(rf"^[ \t]+{re.escape(attribute)}[ \t]*:[^=\n]*ClassVar", text, re.M) is None:
        return None  # no class of the file declares it a `ClassVar`: its class is not parsed
    owner = facts.own_class()
    if owner is None:
        return None
    keys = [n for _, n in needed]
    where = _declared_where(owner, attribute, keys)
    if where is None:
        return None
    said = listed([f"{code(n.key)} to {n.words}" for n in keys], "and")
    them = "them" if len(keys) > 1 else "it"
    base = _class_path(facts, owner.name)
    return Solution(
        text=(
            f"In your subclass of {code(base)}, set {said} in its {where}: the check at line "
            f"{checks[-1].line} reads {them} from {code(f'{needed[0][0].owner}.{attribute}')}, "
            "which your class's declaration decides."
        ),
        condition=checks[-1].text,
        kind="input",
    )


def _needed(test: ast.expr, locals_: dict[str, str]) -> list[tuple[_Read, _Needed]]:
    """What each key of the configuration the test reads must be for the test to be false:
    every part of an `or`; the first part of an `and` that is a key."""
    if isinstance(test, ast.BoolOp):
        parts = [_part(v, locals_) for v in test.values]
        if isinstance(test.op, ast.Or):
            found = [p for p in parts if p is not None]
            return found if len(found) == len(parts) else []
        first = next((p for p in parts if p is not None), None)
        return [first] if first is not None else []
    one = _part(test, locals_)
    return [one] if one is not None else []


def _part(node: ast.expr, locals_: dict[str, str]) -> tuple[_Read, _Needed] | None:
    """The key one part of the test reads and the value that makes the part false."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        read = _read(node.operand, locals_)
        return (read, _Needed(read.key, "True", "`True`")) if read is not None else None
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        read = _read(node.left, locals_)
        if read is None:
            return None
        op, right = node.ops[0], node.comparators[0]
        value = ast.unparse(right)
        if isinstance(right, ast.Constant) and right.value is None:
            if isinstance(op, ast.IsNot):
                return read, _Needed(read.key, None, "nothing (leave it out)")
            return None
        if isinstance(op, ast.IsNot | ast.NotEq):
            return read, _Needed(read.key, value, code(value))
        if isinstance(op, ast.Is | ast.Eq):
            return read, _Needed(read.key, None, f"a value other than {code(value)}")
        if isinstance(op, ast.NotIn) and isinstance(right, ast.Tuple | ast.List | ast.Set):
            values = [code(ast.unparse(e)) for e in right.elts]
            return read, _Needed(read.key, None, f"one of {listed(values, 'or')}")
        return None
    read = _read(node, locals_)
    return (read, _Needed(read.key, "False", "`False`")) if read is not None else None


def _read(node: ast.expr, locals_: dict[str, str]) -> _Read | None:
    """The configuration key `node` reads: `self.A.k`, `self.A.get('k'[, default])`,
    `self.A['k']` (`cls.` alike), or a local assigned one of those."""
    if isinstance(node, ast.Name) and node.id in locals_:
        try:
            bound = ast.parse(locals_[node.id], mode="eval").body
        except (SyntaxError, ValueError, RecursionError):
            return None
        return _read(bound, {})
    if isinstance(node, ast.Attribute):
        held = _held(node.value)
        return _Read(*held, node.attr) if held is not None else None
    keyed = field_key(node)  # `self.A.get('k')`, `self.A['k']`
    if keyed is not None:
        held = _held(keyed[0])
        return _Read(*held, keyed[1]) if held is not None else None
    return None


def _held(node: ast.expr) -> tuple[str, str] | None:
    """(`A`, `self`) of `self.A`, (`A`, `cls`) of `cls.A`."""
    if (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id in _OWNERS
    ):
        return node.attr, node.value.id
    return None


def _declared_where(owner: ast.ClassDef, attribute: str, keys: list[_Needed]) -> str | None:
    """Where a subclass declares the configuration `attribute` holds, in words with the
    keys' values: a nested class under the public name the body binds the same class to
    (`Config = BaseConfig` beside `__config__ = BaseConfig`), or the attribute assigned a
    call of the constructor the body uses (`model_config = ConfigDict()`); None when the
    body declares it neither way or not as a `ClassVar`, or a method sets it on the
    instance."""
    values: dict[str, ast.expr] = {}
    # a body's `if TYPE_CHECKING:` block declares for the type checker what the metaclass
    # fills in: the same class attribute
    body = [
        *owner.body,
        *(
            inner
            for s in owner.body
            if isinstance(s, ast.If) and is_type_checking(s.test)
            for inner in s.body
        ),
    ]
    # a field of a dataclass or model (`cache_config: CacheConfig = Field(...)`) is each
    # instance's own, given to the constructor: only a `ClassVar` is the class's declaration
    if not any(
        isinstance(s, ast.AnnAssign)
        and isinstance(s.target, ast.Name)
        and s.target.id == attribute
        and "ClassVar" in ast.unparse(s.annotation)
        for s in body
    ):
        return None
    for statement in body:
        if (bound := single_binding(statement)) is None:
            continue
        target, value = bound
        if isinstance(target, ast.Name):
            values[target.id] = value
    declared = values.get(attribute)
    if declared is None or _set_on_instance(owner, attribute):
        return None
    if isinstance(declared, ast.Call) and isinstance(declared.func, ast.Name | ast.Attribute):
        if attribute.startswith("_") or any(n.value is None for n in keys):
            return None
        made = ", ".join(f"{n.key}={n.value}" for n in keys)
        return f"{code(attribute)} ({code(f'{attribute} = {ast.unparse(declared.func)}({made})')})"
    if isinstance(declared, ast.Name | ast.Attribute):
        shown = ast.unparse(declared)
        public = next(
            (
                name
                for name, value in values.items()
                if name != attribute
                and not name.startswith("_")
                and isinstance(value, ast.Name | ast.Attribute)
                and ast.unparse(value) == shown
            ),
            None,
        )
        if public is None:
            return None
        return (
            f"{code(public)} (a `class {public}:` in the class body, as {code(owner.name)} "
            f"declares `{public} = {shown}`)"
        )
    return None


def _set_on_instance(owner: ast.ClassDef, attribute: str) -> bool:
    """Whether a method of the class assigns `self.attribute` (an instance's own value)."""
    return any(
        isinstance(n, ast.Attribute)
        and n.attr == attribute
        and isinstance(n.ctx, ast.Store)
        and isinstance(n.value, ast.Name)
        and n.value.id == "self"
        for n in walk(owner)
    )


def _class_path(facts: Facts, name: str) -> str:
    """The path a user imports the class by (`pydantic.v1.BaseModel`), else its name."""
    shorter = short_export(facts.stored, name)
    if shorter is not None:
        return shorter
    path = facts.stored.public_path()
    function = facts.stored.site.function
    if path is not None and path.endswith(function):
        return path[: len(path) - len(function)] + name
    return name
