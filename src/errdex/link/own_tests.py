"""The setting behind an attribute the site's function set to a comparison of it.

`moe_backend = vllm_config.kernel_config.moe_backend`, then `self.native = moe_backend in
NATIVE`, then `if self.native and ...: raise`: the extractor binds `self.native` to its
comparison (`WalkState.own_test`) and the locals that comparison reads. The setting behind
the compared name decides the attribute, and the values it is compared with (a literal, or
a constant of the version) say which of its values do: the page can name the value.

Kept only where both hold: a setting that gives the compared name its value as it is (for
a flag that takes a JSON object, the plain flag that writes that field instead: a bare
value is no JSON object), and a literal or constant to compare with. Elsewhere the
attribute's binding, and the locals only it brought in, are dropped: a name no setting
decides is internal state, not a way out.
"""

from __future__ import annotations

import ast
from typing import Any

import msgspec

from errdex.extract.conditions import dotted_name, dotted_names
from errdex.extract.shapes import OWN_OBJECT
from errdex.facts import Binding, ConditionKind, ErrorSite, FileFacts, KnobKind
from errdex.link.expression_texts import names_of, parse_expression
from errdex.link.knobs import KnobIndex, whole_object
from errdex.link.resolve import Namespace, constant_binding
from errdex.linked_facts import KnobLink, own_test_via

_OWN_PREFIXES = tuple(f"{name}." for name in OWN_OBJECT)


def own_attribute(binding: Binding) -> bool:
    """A binding of `self.X` (the extractor makes one only for a comparison)."""
    root, _, attr = binding.name.partition(".")
    return binding.origin == "local" and root in OWN_OBJECT and bool(attr) and "." not in attr


def decided(
    site: ErrorSite, facts: FileFacts, knobs: KnobIndex, names: Namespace
) -> tuple[ErrorSite, list[KnobLink]]:
    """The site with the `self.X` bindings a setting decides (and the constants they are
    compared with), and those settings; the other `self.X` bindings dropped."""
    # most sites bind no attribute: one test of each name's start before anything else
    if not any(b.name.startswith(_OWN_PREFIXES) for b in site.bindings):
        return site, []
    own = [b for b in site.bindings if own_attribute(b)]
    if not own:
        return site, []
    local = {b.name: b for b in site.bindings if b.origin == "local" and "." not in b.name}
    # the check's own conditions: an earlier exit's attribute decides another check
    checked = set(names_of(c for c in site.conditions if c.kind != ConditionKind.EARLY_EXIT))
    have = {b.name for b in site.bindings}
    found: list[KnobLink] = []
    added: list[Binding] = []
    dropped: list[Binding] = []
    for binding in own:
        test = parse_expression(binding.value)
        if binding.name not in checked or not isinstance(test, ast.Compare) or len(test.ops) != 1:
            dropped.append(binding)
            continue
        compared = _compared_with(test.comparators[0], facts, names)
        left = dotted_name(test.left)
        settings = (
            _settings(left, binding, facts, site.class_name, knobs, local)
            if compared is not None and left
            else []
        )
        if not settings:
            dropped.append(binding)
            continue
        found.extend(settings)
        if isinstance(compared, Binding) and compared.name not in have:
            have.add(compared.name)
            added.append(compared)
    if not dropped and not added:
        return site, found
    gone = {*dropped, *_brought(dropped, site)}
    kept = [b for b in site.bindings if b not in gone]
    return msgspec.structs.replace(site, bindings=(*kept, *added)), found


def _settings(
    left: str,
    binding: Binding,
    facts: FileFacts,
    class_name: str | None,
    knobs: KnobIndex,
    local: dict[str, Binding],
) -> list[KnobLink]:
    """The settings that give `left` their value as it is, each behind `left`."""
    via = own_test_via(binding.name, binding.value, binding.line)
    out: list[KnobLink] = []
    for knob in knobs.resolve_with(left, facts, class_name, local):
        if (
            knob.kind not in (KnobKind.FLAG, KnobKind.ENV)
            or not knob.same_value
            or knob.sets is not None
            or knob.conjunct
            or knob.json_fields
        ):
            continue
        if knob.kind == KnobKind.FLAG and whole_object(knob.value_type):
            # a flag taking a JSON object: a bare value is none; the plain flag that writes
            # the field is (`--moe-backend` for `kernel_config.moe_backend`)
            plain = _plain_flag(knob, local[left].value if left in local else left, knobs)
            if plain is None:
                continue
            knob = plain
        out.append(
            msgspec.structs.replace(
                knob, behind=left, via=f"{via}; {knob.via}" if knob.via else via
            )
        )
    return out


def _plain_flag(knob: KnobLink, dotted: str, knobs: KnobIndex) -> KnobLink | None:
    """The plain flag that writes the field `dotted` reads of the object a JSON-valued
    `knob` takes (`config.kernel_config.moe_backend`: `--moe-backend`), or None."""
    parts = dotted.split(".")
    field = knob.json_key or (parts[-1] if len(parts) >= 2 else None)
    taken = knob.name.lstrip("-").replace("-", "_")
    if field is None or (knob.json_key is None and parts[-2] != taken):
        return None
    plain = knobs.field_flag(field)
    if plain is None or plain.kind != KnobKind.FLAG or whole_object(plain.value_type):
        return None
    written = {flag for key, flag, _, _ in knob.json_set_by if key == field}
    # the index's plain flag for the field: the one the JSON flag's own overrides name,
    # when they name one
    return plain if not written or plain.name in written else None


def _compared_with(node: ast.expr, facts: FileFacts, names: Namespace) -> object | None:
    """The literal compared with (the node), or the constant's binding; None otherwise."""
    if _plain(node):
        return node
    name = dotted_name(node)
    if not name or name.split(".")[0] in OWN_OBJECT:
        return None
    found = names.resolve_constant(facts, name)
    if found is None or not _plain_value(found[0]):
        return None
    return constant_binding(facts, name, *found)


def _plain(node: ast.expr) -> bool:
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return bool(node.elts) and all(_plain(e) for e in node.elts)
    return isinstance(node, ast.Constant) and _plain_value(node.value)


def _plain_value(value: Any) -> bool:
    """A string or number, or a non-empty collection of them."""
    if isinstance(value, list | tuple | set | frozenset):
        return bool(value) and all(_plain_value(v) and not isinstance(v, list) for v in value)
    return isinstance(value, str | int | float) and not isinstance(value, bool)


def _names_in(text: str) -> list[str]:
    node = parse_expression(text)
    return dotted_names(node) if node is not None else []


def _brought(dropped: list[Binding], site: ErrorSite) -> set[Binding]:
    """The locals bound only for the dropped attributes' values: not read by a condition,
    nor by the value of a local a condition reads."""
    # a helper's site has no names of its own: they are its conditions'
    roots = {n.split(".")[0] for n in (*site.names, *names_of(site.conditions))}
    needed = set(roots)
    for b in site.bindings:
        if b.name in roots and b.origin == "local":
            needed.update(n.split(".")[0] for n in _names_in(b.value))
    read = {n.split(".")[0] for b in dropped for n in _names_in(b.value)}
    return {
        b
        for b in site.bindings
        if b.origin == "local" and b.name in read - needed and not own_attribute(b)
    }
