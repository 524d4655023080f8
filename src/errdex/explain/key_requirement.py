"""One key of a mapping the user hands in, checked against what the message says it must be.

`validate_diffusion_sampling_params(params)` reads `read_only =
params.extra_args.get("diffusion_read_only")` and raises "diffusion_read_only must be a
boolean (or 0/1)." when the value is neither: the user's way out is that one key of their
request's `extra_args`, with the value the message asks for. Emptying the whole mapping,
which an earlier `if not extra: return` also allows, drops every other option they gave.

Only where the raise's own test, its locals replaced by what they were assigned, reads one
key of a mapping that is an argument of the public function (or an attribute of one), and
nothing else but the function's other arguments, constants and builtins; and only where the
message states a requirement whose subject is that key. A check of a key the program fills
itself (a model's processor outputs) is in a private function, or in one whose mapping is
no argument, and gets nothing here.
"""

from __future__ import annotations

import ast
import builtins
import copy
from dataclasses import dataclass

from errdex.ast_walk import walk
from errdex.explain.context import Facts
from errdex.explain.entry_input import CHECKS, names_read
from errdex.explain.expanded import deep_expanded
from errdex.explain.input_nodes import field_key, is_call
from errdex.explain.inputs import public_name
from errdex.explain.page import Solution
from errdex.explain.plain import code
from errdex.explain.stated_requirement import message_text, requirements
from errdex.extract.conditions import dotted_name
from errdex.facts import ConditionKind, SiteKind
from errdex.link.expression_texts import parse_expression

_BUILTINS = frozenset(dir(builtins))  # None, True and False among them
_KEY = "__key__"  # what the key's value is read as, once the mapping's read is set aside


@dataclass(frozen=True)
class KeyRequirement:
    solution: Solution
    holder: str  # the mapping whose key it is, as the function reads it: `params.extra_args`


def key_requirement(facts: Facts) -> KeyRequirement | None:
    """ "Give the key `k` of `params.extra_args` (the argument `params` of `f`) a value
    as the message says: ...", or None."""
    site = facts.stored.site
    if site.kind not in (SiteKind.RAISE, SiteKind.HELPER) or site.message is None:
        return None
    if not public_name(site.function):
        return None
    checks = [c for c in facts.held if c.kind in CHECKS]
    if not checks:
        return None
    found = _key_read(deep_expanded(checks[-1].text, facts), facts)
    if found is None:
        return None
    holder, key = found
    text = message_text(facts)
    if not any(_names_key(r.subject, key) for r in requirements(text)):
        return None  # the message speaks of something else, or asks for nothing
    root = holder.split(".", 1)[0]
    solution = Solution(
        text=(
            f"Give the key {code(repr(key))} of {code(holder)} (the argument {code(root)} of "
            f"{code(site.function)}) a value as the message says: “{text}”"
        ),
        condition=checks[-1].text,
        kind="input",
    )
    return KeyRequirement(solution, holder)


def empties_mapping(solution: Solution, holder: str, facts: Facts) -> bool:
    """Whether `solution` avoids the check through the exit on the whole mapping (`if not
    extra: return`, `extra` being `params.extra_args`): it drops every other key given."""
    if solution.kind != "input" or solution.condition is None:
        return False
    return any(
        c.kind == ConditionKind.EARLY_EXIT
        and c.text == solution.condition
        and deep_expanded(c.text, facts) == holder
        for c in facts.held
    )


def _key_read(text: str, facts: Facts) -> tuple[str, str] | None:
    """(the mapping, the key) when the test reads one key of an argument's mapping and
    otherwise only the function's arguments, constants and builtins."""
    node = parse_expression(text)
    if node is None:
        return None
    reads: set[tuple[str, str]] = set()
    for n in walk(node):
        found = field_key(n) if isinstance(n, ast.expr) else None
        if found is None:
            continue
        mapping = found[0]
        dotted = dotted_name(mapping) if isinstance(mapping, ast.Name | ast.Attribute) else None
        if dotted is None:
            return None  # a key of something computed
        reads.add((dotted, found[1]))
    if len(reads) != 1:
        return None
    holder, key = reads.pop()
    # `self` and `cls` are the object's own state, no argument of the user's
    params = set(facts.read.params) - {"self", "cls"}
    if holder.split(".", 1)[0] not in params:
        return None  # a mapping the function made or read from elsewhere
    constants = {b.name.split(".", 1)[0] for b in facts.bindings if b.origin == "constant"}
    rest = ast.parse(_without_key(node, holder, key), mode="eval").body
    # a comprehension's own names (`all(0 <= t < n for t in seed)`) are the key's items
    if names_read(rest) - params - constants - _BUILTINS - {_KEY} - _class_names(rest):
        return None  # something the program holds decides it too
    return holder, key


def _class_names(node: ast.expr) -> set[str]:
    """The names read only as the class an `isinstance`/`issubclass` tests against
    (`Iterable`): what the value must be, no state of the program."""
    classes: set[int] = set()
    for n in walk(node):
        if isinstance(n, ast.Call) and (is_call(n, "isinstance") or is_call(n, "issubclass")):
            classes.update(id(c) for a in n.args[1:2] for c in walk(a))
    names = [n for n in walk(node) if isinstance(n, ast.Name)]
    inside = {n.id for n in names if id(n) in classes}
    return inside - {n.id for n in names if id(n) not in classes}


def _without_key(node: ast.expr, holder: str, key: str) -> str:
    """The test's text with each read of the key written as one name."""

    class _Key(ast.NodeTransformer):
        def visit_Call(self, n: ast.Call) -> ast.AST:
            return _replaced(n) or self.generic_visit(n)

        def visit_Subscript(self, n: ast.Subscript) -> ast.AST:
            return _replaced(n) or self.generic_visit(n)

    def _replaced(n: ast.expr) -> ast.expr | None:
        found = field_key(n)
        if found is not None and found[1] == key and ast.unparse(found[0]) == holder:
            return ast.Name(id=_KEY, ctx=ast.Load())
        return None

    # a copy: parsed conditions are shared by the page's rules. Given as text, parsed again
    # by the caller: the copy carries the node lists `ast_walk.walk` kept on the walked
    # parse, which the replaced nodes make stale (a walk of the copy still finds the key)
    return ast.unparse(_Key().visit(copy.deepcopy(node)))


def _names_key(subject: str | None, key: str) -> bool:
    """The requirement's subject is the key (`diffusion_read_only`, `diffusion_seed_canvas
    ids`), as its first word."""
    if subject is None:
        return False
    first = subject.split()[0].strip("`'\"")
    return first == key
