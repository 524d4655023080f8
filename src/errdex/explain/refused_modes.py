"""A mode a config's own validation refuses beside a field the path reads: no way out.

vllm's `validate_worker_profiler_config(profiler_config: ProfilerConfig)` raises on
unsupported `torch_profiler_activities` under `if profiler_type == "torch":`
(`profiler_type = profiler_config.profiler`). "Pass another `profiler`" looks like a way
out, but `ProfilerConfig`'s own validator raises when `torch_profiler_activities` is given
and `self.profiler != "torch"`: the user who listed activities meets that error instead.
The way out is the failing field's value (the message's list), not the mode.

Read from the facts the index holds: a held test of the site compares a field `F` of a
parameter annotated with a class `K` (directly or through a local) with a literal, the
path reads another field `G` of the same parameter, and a raise in a method of `K` (found
where the site's file imports `K` from) holds both `self.F` the other way and `self.G` set
(`is not None`, or true). Solutions that negate that test are dropped; "What it means"
says why.
"""

from __future__ import annotations

import ast
import copy

from errdex.ast_walk import walk
from errdex.explain.call_order import is_own
from errdex.explain.chain_branches import literal
from errdex.explain.context import CONTEXT_KINDS, Facts, RefusedMode
from errdex.explain.literal_members import import_path
from errdex.explain.plain import code
from errdex.extract.conditions import negate
from errdex.extract.shapes import is_not_none
from errdex.facts import SiteKind
from errdex.link.expression_texts import parse_expression
from errdex.store.base import Store, StoredSite

__all__ = ["refused_mode_sentence", "refused_modes"]

_COMPARED = (ast.Eq, ast.NotEq, ast.In, ast.NotIn)


def refused_modes(store: Store, stored: StoredSite, facts: Facts) -> list[RefusedMode]:
    """The held tests of the site whose other side the tested config's own check
    refuses with a field the path reads given."""
    if stored.site.kind not in (SiteKind.RAISE, SiteKind.ASSERT):
        return []
    local = {b.name: b.value for b in facts.bindings if b.origin == "local"}
    tests = [
        (condition.text, *found)
        for condition in facts.conditions
        if condition.kind not in CONTEXT_KINDS
        and (found := _field_test(condition.text, local)) is not None
    ]
    if not tests:
        return []  # most pages: the function is not read for its parameters
    function = facts.site_function()
    if function is None:
        return []
    typed = _typed_params(function)
    tests = [t for t in tests if t[1] in typed]
    if not tests:
        return []
    out: list[RefusedMode] = []
    raises: dict[str, list[StoredSite]] = {}
    for text, param, field, test in tests:
        given = _read_fields(function, param, stored.site.line) - {field}
        if not given:
            continue
        owner = typed[param]
        if owner not in raises:
            raises[owner] = _class_raises(store, stored, facts, owner)
        other = ast.dump(negate(test))
        for site in raises[owner]:
            tied = _refuses(site, other, given)
            if tied is not None:
                out.append(RefusedMode(text, owner, field, tied, site.file, site.site.line))
                break
    return out


def _typed_params(function: ast.FunctionDef) -> dict[str, str]:
    """The parameters annotated with one class (`config: ProfilerConfig`, `X | None`)."""
    args = function.args
    typed = {}
    for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs]:
        name = _class_name(arg.annotation)
        if name is not None and arg.arg not in ("self", "cls"):
            typed[arg.arg] = name
    return typed


def _class_name(node: ast.expr | None) -> str | None:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        if isinstance(node.right, ast.Constant) and node.right.value is None:
            return _class_name(node.left)
        return None
    if isinstance(node, ast.Name) and node.id[:1].isupper():
        return node.id
    return None


def _field_test(text: str, local: dict[str, str]) -> tuple[str, str, ast.expr] | None:
    """(the name, its field, the test with `self.<field>` for the name's) of a held
    `x == 'lit'` (or `!=`, `in`, `not in`: a mode, not a presence) where `x` is
    `name.field` or a local assigned it."""
    node = parse_expression(text)
    if not (isinstance(node, ast.Compare) and len(node.ops) == 1):
        return None
    if not isinstance(node.ops[0], _COMPARED) or not literal(node.comparators[0]):
        return None
    left = node.left
    if isinstance(left, ast.Name) and left.id in local:
        left = parse_expression(local[left.id]) or left
    if not (
        isinstance(left, ast.Attribute)
        and isinstance(left.value, ast.Name)
        and left.value.id not in ("self", "cls")
    ):
        return None
    own = ast.Attribute(value=ast.Name(id="self", ctx=ast.Load()), attr=left.attr, ctx=ast.Load())
    test = ast.Compare(left=own, ops=node.ops, comparators=node.comparators)
    return left.value.id, left.attr, test


def _read_fields(function: ast.FunctionDef, param: str, line: int) -> set[str]:
    """The fields of `param` the function reads before `line` (the site's)."""
    return {
        node.attr
        for node in walk(function)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == param
        and node.lineno <= line
    }


def _class_raises(store: Store, stored: StoredSite, facts: Facts, owner: str) -> list[StoredSite]:
    """The raises in the methods of `owner` where the site's file finds it: its own file,
    or under the module it imports `owner` from (a package's re-export included)."""
    if facts.top_class(owner) is not None:
        home = stored.file
    else:
        path = import_path(facts.source_text or "", owner, stored.file)
        if path is None:
            return []
        home = path.removesuffix(".py")
    return [
        s
        for s in store.class_sites(stored.version_id, owner)
        if s.site.kind is SiteKind.RAISE
        and (s.file == home or s.file == f"{home}.py" or s.file.startswith(f"{home}/"))
    ]


def _refuses(site: StoredSite, other: str, given: set[str]) -> str | None:
    """The field of `given` that `site`'s path holds set beside `other` (the tested field
    the other way), or None."""
    own = {}  # the locals assigned `self.<x>`, parsed once
    for binding in site.site.bindings:
        value = parse_expression(binding.value) if binding.origin == "local" else None
        if value is not None and is_own(value):
            own[binding.name] = value
    held = [parse_expression(c.text) for c in site.site.conditions if c.kind not in CONTEXT_KINDS]
    tests = [_inlined(n, own) for n in held if n is not None]
    if len(tests) != len(held) or not any(ast.dump(t) == other for t in tests):
        return None
    # the raise holds nothing else: those two alone decide it
    fields = [_set_field(t) for t in tests if ast.dump(t) != other]
    if not fields or not all(f in given for f in fields):
        return None
    return fields[0]


def _inlined(node: ast.expr, own: dict[str, ast.Attribute]) -> ast.expr:
    """`node` with a bare local name assigned `self.<x>` put back as `self.<x>`."""

    class _Inline(ast.NodeTransformer):
        def visit_Name(self, name: ast.Name) -> ast.expr:
            return own.get(name.id, name)

    # the parsed trees are shared: the copy is changed, and only dumped and matched after
    inlined = _Inline().visit(copy.deepcopy(node))
    return inlined if isinstance(inlined, ast.expr) else node


def _set_field(test: ast.expr) -> str | None:
    """`x` of `self.x is not None` or a bare `self.x`."""
    if is_own(test):
        return test.attr
    tested = is_not_none(test)
    return tested.attr if tested is not None and is_own(tested) else None


def refused_mode_sentence(found: list[RefusedMode]) -> str | None:
    """What "What it means" says of a test whose other side the config refuses."""
    said = [
        f"Another {code(f.field)} is no way out: {code(f.owner)}'s own check "
        f"({f.file}:{f.line}) refuses it when {code(f.given)} is given, which this path "
        f"reads, so it leads to that error instead."
        for f in found[:2]
    ]
    return " ".join(said) or None
