"""Ways out of a constructor's check on an attribute a private method made of its argument.

click's `Option.__init__` raises `TypeError("Secondary flag is not valid for non-boolean
flag.")` when `not self.is_bool_flag and self.secondary_opts`; `Parameter.__init__` sets
`self.name, self.opts, self.secondary_opts = self._parse_decls(param_decls or (),
expose_value)`, and what `Option._parse_decls` returns in that place is computed from its
`decls` alone (the `/--no-x` part of a declaration). The way out is that argument of the
class: change the `param_decls` given to `click.Option`. Offered for a class the package
exports, when the attribute is assigned from the call in the constructor (or a base's, in
the file, the argument handed on as it is) and every `return` of the method puts in that
place a value computed from one parameter alone.
"""

from __future__ import annotations

import ast

from errdex.ast_walk import walk
from errdex.explain.context import Facts, class_in_file
from errdex.explain.init_contents import derived_from
from errdex.explain.init_passed import constructor_argument, method_params
from errdex.explain.item_fields import own_init
from errdex.explain.page import ConditionView, Solution
from errdex.explain.plain import code
from errdex.explain.table_lookup import module_names
from errdex.explain.user_call import exported_constructor
from errdex.extract.shapes import BUILTIN_NAMES
from errdex.facts import ConditionKind
from errdex.link.expression_texts import parse_expression

_MAX_BASES = 4


def init_result_solution(conditions: list[ConditionView], facts: Facts) -> Solution | None:
    """ "Change the `param_decls` you give `click.Option` ..."; else None."""
    owner, _, method = facts.stored.site.function.rpartition(".")
    if method != "__init__" or not owner or "." in owner:
        return None
    tested = [
        c
        for c in conditions
        if c.kind in (ConditionKind.IF, ConditionKind.ELIF) and c.holds and _own_attributes(c.text)
    ]
    made = exported_constructor(facts) if tested else None
    if made is None:
        return None
    fixed: frozenset[str] | None = None  # the module's names: the whole file parsed
    for condition in reversed(tested):
        for attribute in _own_attributes(condition.text):
            found = _made_by(facts, owner, attribute)
            if found is None:
                continue  # most pages: the file is not parsed for nothing
            tree = facts.source_tree()
            if tree is None:
                return None
            fixed = fixed or BUILTIN_NAMES | module_names(tree)
            called, place = found
            decided = _deciding(facts, owner, called, place, fixed)
            if decided is None:
                continue
            words = condition.plain or code(condition.text)
            text = (
                f"Change the {code(decided)} you give {code(made)}: its constructor sets "
                f"{code('self.' + attribute)} from it through {code(called)}, and the check at "
                f"line {condition.line} fails when {words}."
            )
            return Solution(text=text, condition=condition.text, kind="input")
    return None


def _own_attributes(text: str) -> list[str]:
    node = parse_expression(text)
    return [
        n.attr
        for n in (walk(node) if node is not None else ())
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "self"
    ]


def _chain(facts: Facts, owner: str) -> list[ast.ClassDef]:
    """`owner` and its first bases defined in the site's file."""
    found: list[ast.ClassDef] = []
    name: str | None = owner
    while name and len(found) < _MAX_BASES:
        cls = class_in_file(facts, name)
        if cls is None:
            break
        found.append(cls)
        base = cls.bases[0] if cls.bases else None
        name = base.id if isinstance(base, ast.Name) else None
    return found


def _made_by(facts: Facts, owner: str, attribute: str) -> tuple[str, int | None] | None:
    """(the method, the place in what it returns) of `self.a, self.<attribute> =
    self._m(...)` in a constructor along the class chain."""
    for cls in _chain(facts, owner):
        init = own_init(cls)
        for statement in init.body if init is not None else []:
            if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1):
                continue
            value, target = statement.value, statement.targets[0]
            if not (
                isinstance(value, ast.Call)
                and isinstance(value.func, ast.Attribute)
                and ast.unparse(value.func.value) == "self"
            ):
                continue
            places = target.elts if isinstance(target, ast.Tuple) else [target]
            for place, element in enumerate(places):
                if ast.unparse(element) == f"self.{attribute}":
                    return value.func.attr, place if isinstance(target, ast.Tuple) else None
    return None


def _deciding(
    facts: Facts, owner: str, called: str, place: int | None, fixed: frozenset[str]
) -> str | None:
    """The constructor's argument that alone decides what `called` returns at `place`."""
    function = next(
        (
            n
            for cls in _chain(facts, owner)
            for n in cls.body
            if isinstance(n, ast.FunctionDef) and n.name == called
        ),
        None,
    )
    if function is None:
        return None
    returned = []
    for node in walk(function):
        if isinstance(node, ast.Return) and node.value is not None:
            value = node.value
            if place is not None:
                if not (isinstance(value, ast.Tuple) and place < len(value.elts)):
                    return None
                value = value.elts[place]
            returned.append(value)
    reads = [_reads(v) for v in returned]
    for position, param in enumerate(method_params(function)):
        derived = derived_from(function, param, fixed)
        # every `return` gives a value made of it (a literal beside, `return None, ...`
        # under a test of another argument, means that argument decides too)
        if not reads or not all(r & derived and r <= derived | fixed for r in reads):
            continue
        found = constructor_argument(facts, owner, called, param, position)
        if found is not None:
            return found[1]
    return None


def _reads(node: ast.expr) -> set[str]:
    return {n.id for n in walk(node) if isinstance(n, ast.Name)}
