"""Ways out of a check on each object the user handed a class: the object made otherwise.

click's `MultiCommand.__init__` loops `for param in self.params:` and raises when
`isinstance(param, Argument) and not param.required` (chain mode takes no optional
arguments). The parameters are the user's: each `Argument` they declared. The way out
that keeps what they asked for is each such object made with the keyword that sets the
attribute (`Argument(..., required=True)`), not the switch of the check (`chain`). Offered
when the loop runs over an attribute of the object, the test reads one attribute of the
item (`not item.attr`, `item.attr is None`), optionally after an `isinstance` of a class
of the same file, and that class's constructor (or a base's, in the file) sets
`self.attr` from a keyword of the same name.
"""

from __future__ import annotations

import ast

from errdex.ast_walk import walk
from errdex.explain.closure_switch import public_module
from errdex.explain.context import Facts, class_in_file
from errdex.explain.page import Change, ConditionView, Solution
from errdex.explain.plain import code
from errdex.extract.shapes import is_none, isinstance_of
from errdex.facts import ConditionKind
from errdex.link.expression_texts import parse_expression

_MAX_BASES = 4


def item_field_solution(conditions: list[ConditionView], facts: Facts) -> Solution | None:
    """ "Make each `Argument` among the `params` ... with `required=True`"; else None."""
    loop = next(
        (
            c
            for c in facts.conditions  # the loop is no way out: not among `conditions`
            if c.kind is ConditionKind.LOOP and c.text.startswith("for ")
        ),
        None,
    )
    module = public_module(facts.stored.file)
    if loop is None or module is None:
        return None
    target, _, iterated = loop.text[4:].partition(" in ")
    if not (iterated.startswith("self.") and target.isidentifier()):
        return None
    for condition in reversed(conditions):
        if condition.kind not in (ConditionKind.IF, ConditionKind.ELIF) or not condition.holds:
            continue
        if condition.line <= loop.line:
            continue
        found = _item_test(condition.text, target)
        if found is None:
            continue
        cls_name, attribute, after = found
        cls = _setting_class(facts, cls_name, attribute)
        if cls is None:
            return None
        return _solution(facts, module, cls, (cls_name, attribute, after), iterated, condition)
    return None


def _item_test(text: str, item: str) -> tuple[str, str, str] | None:
    """(the class, the attribute, the value that passes) of `isinstance(item, K) and not
    item.attr` (`True`) or `... and item.attr is None` (the attribute's name in capitals:
    the user's value)."""
    node = parse_expression(text)
    if not (isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And)):
        return None
    if len(node.values) != 2:
        return None
    kind, test = node.values
    checked = isinstance_of(kind, item)
    if not isinstance(checked, ast.Name):
        return None
    cls_name = checked.id
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        field = _field(test.operand, item)
        return (cls_name, field, "True") if field else None
    if (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.Is)
        and is_none(test.comparators[0])
    ):
        field = _field(test.left, item)
        return (cls_name, field, field.upper()) if field else None
    return None


def _field(node: ast.expr, item: str) -> str | None:
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return node.attr if node.value.id == item else None
    return None


def _setting_class(facts: Facts, name: str, attribute: str) -> ast.ClassDef | None:
    """The class `name` of the file, when its constructor or a base's in the file takes
    a keyword `attribute` and sets `self.<attribute>` from it as it is."""
    cls = class_in_file(facts, name)
    current = cls
    for _ in range(_MAX_BASES):
        if current is None:
            return None
        init = own_init(current)
        if init is not None and _sets_from_keyword(init, attribute):
            return cls
        if init is not None and not _hands_on(init, attribute):
            return None  # a constructor between that does something else with it
        base = current.bases[0] if current.bases else None
        current = class_in_file(facts, base.id) if isinstance(base, ast.Name) else None
    return None


def _hands_on(init: ast.FunctionDef, attribute: str) -> bool:
    """Whether a constructor passes the keyword on to `super().__init__` as
    `attribute=attribute`, rebinding it only under `if attribute is None:` (a default it
    fills in); one that does not take it at all hands it on in its `**kwargs`."""
    args = init.args
    if attribute not in {a.arg for a in [*args.args, *args.kwonlyargs]}:
        return args.kwarg is not None
    filling: set[int] = set()
    for node in walk(init):
        if (
            isinstance(node, ast.If)
            and isinstance(node.test, ast.Compare)
            and ast.unparse(node.test) == f"{attribute} is None"
        ):
            filling |= {id(n) for statement in node.body for n in walk(statement)}
    stored = [
        n
        for n in walk(init)
        if isinstance(n, ast.Name) and n.id == attribute and isinstance(n.ctx, ast.Store)
    ]
    passed = any(
        isinstance(n, ast.Call)
        and ast.unparse(n.func) == "super().__init__"
        and any(
            k.arg == attribute and isinstance(k.value, ast.Name) and k.value.id == attribute
            for k in n.keywords
        )
        for n in walk(init)
    )
    return passed and all(id(n) in filling for n in stored)


def _sets_from_keyword(init: ast.FunctionDef, attribute: str) -> bool:
    """`self.<attribute> = <attribute>` among the constructor's top statements, the
    keyword one of its parameters."""
    args = init.args
    if attribute not in {a.arg for a in [*args.args, *args.kwonlyargs]}:
        return False
    return any(
        isinstance(s, ast.Assign)
        and len(s.targets) == 1
        and ast.unparse(s.targets[0]) == f"self.{attribute}"
        and isinstance(s.value, ast.Name)
        and s.value.id == attribute
        for s in init.body
    )


def _solution(
    facts: Facts,
    module: str,
    cls: ast.ClassDef,
    found: tuple[str, str, str],
    iterated: str,
    condition: ConditionView,
) -> Solution:
    cls_name, attribute, after = found
    owner = facts.stored.site.function.partition(".")[0]
    given = f"{attribute}=True" if after == "True" else attribute
    text = (
        f"Make each {code(cls_name)} you give your {code(owner)} (its "
        f"{code(iterated.removeprefix('self.'))}) with {code(given)}: the check at line "
        f"{condition.line} refuses every one whose {code(attribute)} is "
        f"{'false' if after == 'True' else 'None'}."
    )
    init = own_init(cls)
    required: tuple[str, ...] = ()
    if init is not None:
        positional = init.args.args[1:]
        required = tuple(
            f"{a.arg}={a.arg.upper()}"
            for a in positional[: len(positional) - len(init.args.defaults)]
            if a.arg != attribute
        )
    change = Change(
        form="call",
        target=f"{module}.{cls_name}",
        argument=attribute,
        before=None,
        after=after,
        required=required,
    )
    return Solution(text=text, condition=condition.text, kind="input", change=change)


def own_init(cls: ast.ClassDef) -> ast.FunctionDef | None:
    """The `__init__` the class defines itself, if any."""
    return next(
        (n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None
    )
