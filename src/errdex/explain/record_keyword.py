"""A field of the record the user builds, kept on `self` by the constructor it is handed to.

A class that takes a record of the user's settings (`init_info: TrainerInitInfo`, a
`@dataclass`) often keeps one field of it as an attribute: directly (`self.rank =
init_info.rank`), or by handing it to its base's constructor under the attribute's own name
(`super().__init__(..., rank=init_info.rank)`, whose `__init__` sets `self.rank = rank`). A
method's check of `self.rank` against another value (`get_rank() != rank`) then reads the
field the user gave when they built the record, and the way out is that keyword of the
record, equal to the value the check compares it with. Taken only when the message itself
names the field on the record's class or on one of its bases (`TrainerInitInfo.rank`): the
authors' word that the user's field is what is wrong. A field no message names may be one
the package fills in itself, and the attribute may have been changed since; nothing then.
"""

from __future__ import annotations

import ast
import re

from errdex.ast_walk import walk
from errdex.explain.context import Facts, class_in_file
from errdex.explain.declared_fields import (
    base_name,
    class_named,
    declared_fields,
    fields_class,
    self_assignments,
    super_init_call,
)
from errdex.explain.item_fields import own_init
from errdex.explain.page import Solution
from errdex.explain.plain import code
from errdex.explain.user_data import local_sources
from errdex.extract.setters import init_params
from errdex.extract.shapes import annotated_class, self_attribute
from errdex.link.expression_texts import parse_expression

__all__ = ["record_keyword_solution"]

# `TrainerInitInfo.rank` in the message's literal text: a class name, a dot, a field
_CLASS_FIELD = re.compile(r"(?<![\w.{])([A-Z]\w*)\.([a-z_]\w*)\b(?![.(])")
_MAX_BASES = 3  # how many classes up the record's bases the message may name


def record_keyword_solution(facts: Facts) -> Solution | None:
    """ "Build the `Record` with `field=` equal to `other` ..." for a method's check of
    `self.<attribute>` that the class's constructor took from the record's field, when the
    message names that field; else None."""
    site = facts.stored.site
    text = site.message.text if site.message is not None else ""
    owner, _, method = site.function.rpartition(".")
    named = _named_fields(text)
    if not named or not owner or "." in owner or method == "__init__" or not facts.held:
        return None
    compared = _compared_attribute(facts)
    if compared is None:
        return None
    attribute, other, line = compared
    cls = class_in_file(facts, owner)
    init = own_init(cls) if cls is not None else None
    if cls is None or init is None:
        return None
    kept = _kept_field(facts, cls, init, attribute)
    if kept is None:
        return None
    record, param, field, kept_line = kept
    bases = _bases(facts, record)
    if not _declares(record, bases, field):
        return None
    said = [c for c in (record.name, *(name for name, _ in bases)) if (field, c) in named]
    if not said:
        return None
    return Solution(
        text=(
            f"Build the {code(record.name)} with {code(field + '=')} equal to {code(other)}: "
            f"{code(owner)} keeps its {code(f'{param}.{field}')} as "
            f"{code('self.' + attribute)} (line {kept_line}), and this check (line {line}) "
            f"needs the two to agree, as the message says of {code(f'{said[0]}.{field}')}."
        ),
        condition=facts.held[-1].text,
        kind="input",
    )


def _named_fields(text: str) -> set[tuple[str, str]]:
    """The (field, class) pairs the message's literal text names as `Class.field`."""
    literal = re.sub(r"\{[^{}]*\}", " ", text)
    return {(m.group(2), m.group(1)) for m in _CLASS_FIELD.finditer(literal)}


def _compared_attribute(facts: Facts) -> tuple[str, str, int] | None:
    """(attribute, the other side's source, line) when the site's last held condition is
    `a != b` with one side `self.<attribute>`, or a local the function sets only from it,
    and the other side a value the program reads or computes, of neither."""
    condition = facts.held[-1]
    tree = parse_expression(condition.text)
    function = facts.site_function()
    if function is None or not (
        isinstance(tree, ast.Compare) and len(tree.ops) == 1 and isinstance(tree.ops[0], ast.NotEq)
    ):
        return None
    sides = (tree.left, tree.comparators[0])
    sources = local_sources(function)
    for side, other in (sides, sides[::-1]):
        attribute = self_attribute(side)
        if attribute is None and isinstance(side, ast.Name):
            values = sources.get(side.id, [])
            if len(values) == 1 and isinstance(values[0], ast.expr):
                attribute = self_attribute(values[0])
        if attribute is None or self_assignments(function, attribute):
            continue
        if any(isinstance(n, ast.Name) and n.id == "self" for n in walk(other)):
            continue
        if not any(isinstance(n, ast.Name | ast.Call) for n in walk(other)):
            continue  # a literal (`rank != 0`) says which one may pass, not what to agree with
        if isinstance(side, ast.Name) and any(
            isinstance(n, ast.Name) and n.id == side.id for n in walk(other)
        ):
            continue
        return attribute, ast.unparse(other), condition.line
    return None


def _kept_field(
    facts: Facts, cls: ast.ClassDef, init: ast.FunctionDef, attribute: str
) -> tuple[ast.ClassDef, str, str, int] | None:
    """(the record class, the parameter, its field, the line) when the constructor keeps
    `<param>.<field>` as `self.<attribute>`, the parameter annotated with a class, and
    nothing else in the class assigns the attribute."""
    assigned = self_assignments(cls, attribute)
    value: ast.expr | None = None
    if assigned == 1:
        for node in walk(init):
            if (
                isinstance(node, ast.Assign)
                and len(node.targets) == 1
                and self_attribute(node.targets[0]) == attribute
            ):
                value = node.value
    elif assigned == 0:
        value = _handed_to_base(facts, cls, init, attribute)
    if not (
        isinstance(value, ast.Attribute)
        and isinstance(value.value, ast.Name)
        and not value.attr.startswith("_")
    ):
        return None
    param = next(
        (a for a in (*init.args.args, *init.args.kwonlyargs) if a.arg == value.value.id), None
    )
    name = annotated_class(param.annotation) if param is not None else None
    record = class_named(facts, name) if name is not None else None
    if record is None:
        return None
    return record, value.value.id, value.attr, value.lineno


def _handed_to_base(
    facts: Facts, cls: ast.ClassDef, init: ast.FunctionDef, attribute: str
) -> ast.expr | None:
    """What the constructor passes its base's `__init__` as the keyword `attribute`, when
    the base's constructor keeps that keyword as it is in `self.<attribute>`."""
    call = super_init_call(init)
    value = next((k.value for k in call.keywords if k.arg == attribute), None) if call else None
    named = base_name(cls.bases[0]) if len(cls.bases) == 1 else None
    base = class_named(facts, named) if named is not None else None
    base_init = own_init(base) if base is not None else None
    if value is None or base_init is None:
        return None
    params, plain = init_params(base_init)
    return value if params.get(attribute) == attribute and attribute in plain else None


def _declares(
    record: ast.ClassDef, bases: list[tuple[str, ast.ClassDef | None]], field: str
) -> bool:
    """Whether the dataclass `record`, or a dataclass it derives from (`bases`), declares
    `field` as a keyword of its call."""
    for current in (record, *(base for _, base in bases)):
        if current is None or not fields_class(current):
            return False
        if field in declared_fields(current):
            return True
    return False


def _bases(facts: Facts, record: ast.ClassDef) -> list[tuple[str, ast.ClassDef | None]]:
    """The name and class (None when not found) of the record's bases, one base each, up
    to `_MAX_BASES` classes up."""
    out: list[tuple[str, ast.ClassDef | None]] = []
    current: ast.ClassDef | None = record
    for _ in range(_MAX_BASES):
        if current is None or len(current.bases) != 1:
            break
        name = base_name(current.bases[0])
        if name is None:
            break
        current = class_named(facts, name)
        out.append((name, current))
    return out
