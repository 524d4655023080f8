"""A type's own class methods that its validator hands the value on to, and the class
settings their checks read.

A type whose hook hands the framework a validator (`yield cls.validate` in
`__get_validators__`) often splits the value into named parts and hands them on to class
methods of its own (`cls.validate_parts(parts)`), whose checks read the type's class-level
settings (`cls.tld_required`, `cls.allowed_schemes`), which each type built on it in the same
module sets anew. No user calls those methods: "the argument `parts`" names nothing a user
writes. The ways out are the data's and the declaration's: the value a field declared as
one of those types is given (one that has the part the check asks for, `tld` read as
`d.group('tld')`; a part among the type's collection), or a type of the family whose setting
leaves the check off (the type a subclass that turned the setting on is built on).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence
from dataclasses import dataclass

from errdex.ast_walk import walk
from errdex.explain.context import Facts
from errdex.explain.page import ConditionView, Solution
from errdex.explain.plain import code, listed
from errdex.explain.validators import TYPE_HOOKS, hook_handed
from errdex.extract.shapes import is_none

_MAX_DEPTH = 3  # calls from the validator to the site's method
_MAX_SHOWN = 3  # types named in a sentence
_MAX_VALUES = 8  # members of a collection setting shown
_CLASS = re.compile(r"^class[ \t]+(\w+)[ \t]*\([ \t]*(\w+)[ \t]*[,)]", re.M)
_Value = tuple[object, int]  # a class setting's literal value and the line that sets it


@dataclass(frozen=True)
class _Family:
    owner: str  # the type whose hook hands the validator on, the site's class
    validator: str  # the method its hook hands the framework
    names: tuple[str, ...]  # the owner, then the module's classes built on it, in file order
    bases: dict[str, str]  # each class of the family but the owner: its base
    classes: dict[str, ast.ClassDef]


def class_setting_solutions(facts: Facts, conditions: Sequence[ConditionView]) -> list[Solution]:
    """The ways out of a check in a class method a type's validator hands the value on to:
    the value a field of the type is given, the type of the family that leaves the class
    setting the check reads off; empty for any other site."""
    site = facts.stored.site
    owner, _, name = site.function.rpartition(".")
    text = facts.source_text or ""
    if not owner or "." in owner or not any(hook in text for hook in TYPE_HOOKS):
        return []
    if not any("cls." in c.text or c.text.endswith(" is None") for c in conditions):
        return []
    family = _family(facts, owner, name)
    if family is None:
        return []
    function = facts.site_function()
    if function is None:
        return []
    runs = (
        f"{code(site.function)} checks it inside {code(f'{owner}.{family.validator}')}, the "
        "validator the framework runs on such a field"
    )
    found: list[Solution] = []
    parts = [p for c in conditions for p in [_part(c, function)] if p is not None]
    for condition in conditions:
        read = _setting_read(condition.text)
        if read is None:
            continue
        setting, subject, local_tested = read
        values = _settings(family, setting, text)
        if values is None:
            continue
        on = [n for n in family.names if _set(values[n])]
        if not on:
            continue
        fields = _declared(on, family, setting)
        if subject is not None:
            found.append(
                Solution(
                    text=(
                        f"In the data you validate, give {fields} a value whose "
                        f"{code(subject)} is one of its type's {code(setting)}: "
                        f"{_members(on, values)}. {runs}."
                    ),
                    condition=condition.text,
                    kind="input",
                )
            )
        tested = _read_part(local_tested, condition.line, function) if local_tested else None
        part = tested if local_tested else (parts[0] if parts else None)
        if subject is None and part is not None:
            local, read_as = part
            found.append(
                Solution(
                    text=(
                        f"In the data you validate, give {fields} a value that has a "
                        f"{code(local)} (here {code(local)} is {code(read_as)}): {runs}, and "
                        f"the check at line {condition.line} applies only where the type's "
                        f"{code(setting)} is set, as {_setters(on, family, values)}."
                    ),
                    condition=condition.text,
                    kind="input",
                )
            )
        looser = _looser(family, values)
        if looser:
            found.append(
                Solution(
                    text=(
                        f"Declare the field as {looser}: it leaves {code(setting)} "
                        f"{_unset_words(values[family.owner])}, and the check at line "
                        f"{condition.line} applies only where the type sets it."
                    ),
                    condition=condition.text,
                    kind="input",
                )
            )
        return found
    if parts:  # no setting read: the part the value lacks, on every type of the family
        local, read_as = parts[0]
        fields = f"a field declared as {code(owner)} or a type built on it"
        return [
            Solution(
                text=(
                    f"In the data you validate, give {fields} a value that has a "
                    f"{code(local)} (here {code(local)} is {code(read_as)}): {runs}."
                ),
                condition=f"{local} is None",
                kind="input",
            )
        ]
    return []


def _family(facts: Facts, owner: str, name: str) -> _Family | None:
    """The site's class as a type whose hook hands the framework a validator that reaches
    the site's method through the class's own `cls.m(...)` calls, with the module's classes
    built on it."""
    top = facts.top_class(owner)
    if top is None:
        return None
    methods = {n.name: n for n in top.body if isinstance(n, ast.FunctionDef)}
    handed = [m for hook in TYPE_HOOKS if hook in methods for m in hook_handed(methods[hook])]
    validator = next((m for m in handed if m in methods), None)
    if validator is None or name not in methods or name == validator:
        return None
    reached, edge = {validator}, [validator]
    for _ in range(_MAX_DEPTH):
        edge = [
            m for e in edge for m in _cls_calls(methods[e]) if m in methods and m not in reached
        ]
        reached.update(edge)
    if name not in reached:
        return None
    names, bases = [owner], {}
    classes = {owner: top}
    for match in _CLASS.finditer(facts.source_text or ""):
        sub, base = match.group(1), match.group(2)
        if base in classes and sub not in classes:
            found = facts.top_class(sub)
            if found is None or _replaces(found, name):
                return None  # a type that checks its own way: the family's words would not hold
            names.append(sub)
            bases[sub] = base
            classes[sub] = found
    return _Family(owner, validator, tuple(names), bases, classes)


def _replaces(found: ast.ClassDef, name: str) -> bool:
    """Whether the class defines the method `name` anew without calling the one it
    overrides (`super().name(...)`)."""
    for node in found.body:
        if isinstance(node, ast.FunctionDef) and node.name == name:
            return not any(
                isinstance(n, ast.Call)
                and isinstance(n.func, ast.Attribute)
                and n.func.attr == name
                and isinstance(n.func.value, ast.Call)
                and isinstance(n.func.value.func, ast.Name)
                and n.func.value.func.id == "super"
                for n in walk(node)
            )
    return False


def _cls_calls(method: ast.FunctionDef) -> list[str]:
    """The class's own methods a method calls as `cls.m(...)`."""
    return [
        n.func.attr
        for n in walk(method)
        if isinstance(n, ast.Call)
        and isinstance(n.func, ast.Attribute)
        and isinstance(n.func.value, ast.Name)
        and n.func.value.id == "cls"
    ]


def _setting_read(text: str) -> tuple[str, str | None, str | None] | None:
    """(`setting`, None, None) for a test of `cls.setting` alone; (`setting`, the subject,
    None) for `cls.setting and x not in cls.setting`; (`setting`, None, `x`) for
    `cls.setting and x is None`; else None."""
    try:
        node = ast.parse(text, mode="eval").body
    except SyntaxError:
        return None
    own = _own_setting(node)
    if own is not None:
        return own, None, None
    if not (isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And)):
        return None
    if len(node.values) != 2:
        return None
    first, second = node.values
    setting = _own_setting(first)
    if setting is None or not isinstance(second, ast.Compare) or len(second.ops) != 1:
        return None
    if "cls" in {n.id for n in walk(second.left) if isinstance(n, ast.Name)}:
        return None
    (op,), (right,) = second.ops, second.comparators
    if isinstance(op, ast.NotIn) and _own_setting(right) == setting:
        return setting, ast.unparse(second.left), None
    if isinstance(op, ast.Is) and is_none(right) and isinstance(second.left, ast.Name):
        return setting, None, second.left.id
    return None


def _own_setting(node: ast.expr) -> str | None:
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return node.attr if node.value.id == "cls" and not node.attr.startswith("_") else None
    return None


def _part(condition: ConditionView, function: ast.FunctionDef) -> tuple[str, str] | None:
    """(`x`, how it is read) for a test `x is None` of a local every assignment of which
    before the test reads the part named as it is from another object: `x = parts['x']`,
    `x = m.group('x')`; a start at None aside."""
    found = re.fullmatch(r"(\w+) is None", condition.text)
    return _read_part(found.group(1), condition.line, function) if found else None


def _read_part(local: str, line: int, function: ast.FunctionDef) -> tuple[str, str] | None:
    values: list[ast.expr] = []
    for node in walk(function):
        if not isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign | ast.For):
            continue
        if getattr(node, "lineno", line) >= line:
            continue
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for target in targets:
            value = _bound(target, getattr(node, "value", None), local, node)
            if isinstance(value, bool):
                return None  # a loop's, an unpacked or an augmented binding of it
            if value is not None and not is_none(value):  # a start at None: no part yet
                values.append(value)
    if not values:
        return None
    reads = {ast.unparse(v) for v in values}
    if not all(_named_part(v, local) for v in values) or len(reads) != 1:
        return None
    return local, reads.pop()


def _bound(
    target: ast.expr, value: ast.expr | None, local: str, node: ast.stmt
) -> ast.expr | bool | None:
    """The value `target` binds to `local`: None when it binds no `local`, False when not
    one expression (a loop's, an augmented assignment's, a starred or uneven unpacking)."""
    if isinstance(target, ast.Name):
        if target.id != local:
            return None
        if isinstance(node, ast.For | ast.AugAssign) or value is None:
            return False
        return value
    if isinstance(target, ast.Tuple | ast.List):
        names = [n for n in walk(target) if isinstance(n, ast.Name) and n.id == local]
        if not names:
            return None
        items = value.elts if isinstance(value, ast.Tuple | ast.List) else None
        if isinstance(node, ast.For) or items is None or len(items) != len(target.elts):
            return False
        for item, value_item in zip(target.elts, items, strict=True):
            if isinstance(item, ast.Name) and item.id == local:
                return value_item
        return False
    return None


def _named_part(node: ast.expr, name: str) -> bool:
    """`parts['name']` or `found.group('name')`."""
    key: ast.expr | None = None
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
        key = node.slice
    elif (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "group"
        and len(node.args) == 1
        and not node.keywords
    ):
        key = node.args[0]
    return isinstance(key, ast.Constant) and key.value == name


def _settings(family: _Family, setting: str, text: str) -> dict[str, _Value] | None:
    """Each type's value of the class setting, its own or its base's: literals each, the
    owner's its own; None when one is not a literal or code assigns it on an object."""
    if re.search(rf"\b(?:cls|self)\.{re.escape(setting)}\s*[-+|&]?=(?!=)", text):
        return None
    own: dict[str, _Value] = {}
    for name in family.names:
        for node in family.classes[name].body:
            target, value = None, None
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                target, value = node.targets[0], node.value
            elif isinstance(node, ast.AnnAssign):
                target, value = node.target, node.value
            if isinstance(target, ast.Name) and target.id == setting and value is not None:
                try:
                    own[name] = (ast.literal_eval(value), node.lineno)
                except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
                    return None
    if family.owner not in own:
        return None
    values: dict[str, _Value] = {}
    for name in family.names:
        values[name] = own[name] if name in own else values[family.bases[name]]
    return values


def _set(value: _Value) -> bool:
    return bool(value[0])


def _own_line(family: _Family, values: dict[str, _Value], name: str) -> int | None:
    """The line where the class sets the setting itself, when it does."""
    base = family.bases.get(name)
    value = values[name]
    return None if base is not None and value is values[base] else value[1]


def _declared(on: list[str], family: _Family, setting: str) -> str:
    """ "a field declared as `A` or `B`": the types the check applies to."""
    if len(on) == len(family.names):
        return f"a field declared as {code(family.owner)} or a type built on it"
    if len(on) <= _MAX_SHOWN:
        return "a field declared as " + listed([code(n) for n in on], "or")
    shown = ", ".join(code(n) for n in on[:_MAX_SHOWN])
    return f"a field declared as {shown} or another type that sets {code(setting)}"


def _setters(on: list[str], family: _Family, values: dict[str, _Value]) -> str:
    """ "`B` (line 12) does": the types that turn the setting on themselves."""
    own = [(n, _own_line(family, values, n)) for n in on]
    own = [(n, line) for n, line in own if line is not None]
    words = [f"{code(n)} (line {line})" for n, line in own[:_MAX_SHOWN]]
    verb = "does" if len(words) == 1 else "do"
    return f"{listed(words)} {verb}" if words else f"{code(family.owner)} does"


def _members(on: list[str], values: dict[str, _Value]) -> str:
    """ "`'a'`, `'b'` for `A`, `B`; `'c'` for `C`": each collection and the types holding it."""
    groups: dict[str, list[str]] = {}
    for name in on:
        members = values[name][0]
        if not isinstance(members, (set, frozenset, list, tuple)):
            return "those it lists"
        ordered = sorted(repr(m) for m in members)
        words = ", ".join(code(m) for m in ordered[:_MAX_VALUES])
        words += ", …" if len(ordered) > _MAX_VALUES else ""
        groups.setdefault(words, []).append(code(name))
    shown = [f"{w} for {', '.join(ts)}" for w, ts in list(groups.items())[:_MAX_SHOWN]]
    more = "; and those of the other types that set it" if len(groups) > _MAX_SHOWN else ""
    return "; ".join(shown) + more


def _looser(family: _Family, values: dict[str, _Value]) -> str:
    """ "`B` in place of `C`": the nearest type the one type that turns the setting on is
    built on that leaves it off; the owner, the type the others are built on, when more
    turn it on; "" when the owner sets it itself."""
    if _set(values[family.owner]):
        return ""
    pairs: dict[str, list[str]] = {}
    for name in family.names:
        if not _set(values[name]) or _own_line(family, values, name) is None:
            continue
        base = family.bases[name]
        while _set(values[base]):
            base = family.bases[base]
        pairs.setdefault(base, []).append(name)
    if len(pairs) == 1 and all(len(turned) == 1 for turned in pairs.values()):
        ((base, (turned,)),) = pairs.items()
        return f"{code(base)} in place of {code(turned)}"
    return f"{code(family.owner)}, the type the others are built on"


def _unset_words(value: _Value) -> str:
    return "None" if value[0] is None else "false"
