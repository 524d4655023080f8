"""Ways out of a private method's check on what is in an argument the constructor hands it.

click's `Option._parse_decls(decls, expose_value)` loops `for decl in decls:` and raises
`TypeError(f"Name '{name}' defined twice")` when a second plain name comes: `decl` and
`name` hold only what `decls` held. `Parameter.__init__` hands it the user's `param_decls`
(`init_passed` follows that), so the way out is what the user declared: change the
`param_decls` given to `click.Option`. Offered when every name the path's conditions read
is the argument itself or a local computed from it alone (with literals, builtins and the
module's own names), at least one condition reads such a local, and nothing else decides
the check (no `self`) but, each in a condition of its own, another argument of the method
as a switch (`_parse_decls` raises "Could not determine name for option" only `if name is
None` and `expose_value`: the way out is still the `param_decls` that name no option).
"""

from __future__ import annotations

import ast

from errdex.ast_walk import walk
from errdex.explain.context import Facts
from errdex.explain.entry_input import names_read
from errdex.explain.init_passed import constructor_argument, method_params
from errdex.explain.page import ConditionView, Solution
from errdex.explain.plain import code
from errdex.explain.table_lookup import module_names
from errdex.explain.user_call import exported_constructor
from errdex.extract.shapes import BUILTIN_NAMES
from errdex.facts import ConditionKind
from errdex.link.expression_texts import parse_expression

_CHECKS = frozenset({ConditionKind.IF, ConditionKind.ELIF, ConditionKind.ELSE})
_KINDS = _CHECKS | {ConditionKind.LOOP, ConditionKind.EARLY_EXIT}


def init_contents_solution(conditions: list[ConditionView], facts: Facts) -> Solution | None:
    """ "Change the `param_decls` you give `click.Option` ..."; else None."""
    site = facts.stored.site
    owner, _, method = site.function.rpartition(".")
    if not owner or "." in owner or not method.startswith("_") or method.startswith("__"):
        return None
    tests = [c for c in facts.conditions if c.kind in _CHECKS]
    if not tests or any(c.kind not in _KINDS for c in facts.conditions):
        return None  # checked before the file is parsed: most pages end here
    function = facts.site_function()
    made = exported_constructor(facts) if function is not None else None
    if function is None or made is None:
        return None
    params = method_params(function)
    fixed: frozenset[str] | None = None  # the module's names: the whole file parsed
    reads = [condition_reads(c.text) for c in facts.conditions]
    read = set().union(*reads)
    for param in params:
        found = constructor_argument(facts, owner, method, param, params.index(param))
        if found is None:
            continue  # most pages: the file is not parsed for nothing
        tree = facts.source_tree()
        if tree is None:
            return None
        fixed = fixed or BUILTIN_NAMES | module_names(tree)
        derived = derived_from(function, param, fixed)
        others = set(params) - {param}
        if not read & (derived - {param}) or not all(
            (r <= derived | fixed and c.kind is not ConditionKind.EARLY_EXIT)
            or (r & others and r <= others | fixed)
            for c, r in zip(facts.conditions, reads, strict=True)
        ):
            continue  # an earlier exit on the argument itself: the message's advice says more
        argument = found[1]
        check = next((c for c in reversed(tests) if condition_reads(c.text) & derived), tests[-1])
        said = f" (“{site.message.text}”)" if site.message is not None else ""
        text = (
            f"Change the {code(argument)} you give {code(made)}: its constructor hands it "
            f"to {code(method)} as {code(param)}, and the check at line {check.line} fails on "
            f"the value given{said}."
        )
        return Solution(text=text, condition=check.text, kind="input")
    return None


def condition_reads(text: str) -> set[str]:
    """The names a condition reads; a loop's header (`for decl in decls`) reads both."""
    node = parse_expression(text.removeprefix("for "))
    return names_read(node) if node is not None else {"<unread>"}


def derived_from(
    function: ast.FunctionDef, param: str, fixed: frozenset[str] | set[str]
) -> set[str]:
    """`param` and the locals every assignment of which computes from it alone: loop
    targets over it, values read from it, lists it fills (`names.append(decl)`)."""
    sources: dict[str, list[ast.expr]] = {}
    for node in walk(function):
        pairs: list[tuple[ast.expr, ast.expr]] = []
        if isinstance(node, ast.Assign):
            pairs = [(t, node.value) for t in node.targets]
        elif isinstance(node, ast.AugAssign | ast.AnnAssign) and node.value is not None:
            pairs = [(node.target, node.value)]
        elif isinstance(node, ast.For | ast.comprehension):
            pairs = [(node.target, node.iter)]
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.attr in ("append", "extend", "add", "insert")
        ):
            pairs = [(node.func.value, a) for a in node.args]
        for target, value in pairs:
            for bound in walk(target):
                if isinstance(bound, ast.Name):
                    sources.setdefault(bound.id, []).append(value)
    own = {a.arg for a in [*function.args.posonlyargs, *function.args.args]}
    derived = {param}
    changed = True
    while changed:
        changed = False
        for name, values in sources.items():
            if name in derived or name in own:
                continue
            reads = [names_read(v) for v in values]
            if not any(r & derived for r in reads):
                continue
            if all(r <= derived | fixed | {name} for r in reads):
                derived.add(name)
                changed = True
    return derived
