"""What a method of a JSON-valued flag's object returns: the field of the flag that decides it.

vllm's warning tests `speculative_config.uses_dynamic_speculative_decoding()`, where
`speculative_config` is `self.speculative_config` (`--speculative-config`, a JSON object
of `SpeculativeConfig` fields) and the method is `return
self.num_speculative_tokens_per_batch_size is not None`. The condition is then that field
of the flag's JSON: leaving it out keeps speculative decoding and avoids the check, where
leaving out the whole flag drops the feature. The method is read from the store: the class
the site's own class declares the attribute as (`speculative_config: SpeculativeConfig |
None`), found through the site's imports (in a file the index keeps: one with sites). A
method of one `return` of an expression on `self`'s fields (and literals) stands for that
expression, with the object in the place of `self`.
"""

from __future__ import annotations

import ast

from errdex.explain.context import Facts, parse_module
from errdex.explain.page import ConditionView, Knob
from errdex.explain.table_lookup import imported_from
from errdex.facts import KnobKind
from errdex.store.base import Store, StoredSite

_ANNOTATION_WORDS = frozenset({"None", "Optional", "Union", "ClassVar", "Final"})


def returned_fields(store: Store, stored: StoredSite, facts: Facts) -> dict[str, str]:
    """`receiver.method()` of the held conditions → the expression it returns, with the
    receiver in place of `self`, for receivers behind a JSON-valued flag."""
    receivers = {k.behind for k in facts.knobs if _json_flag(k)}
    out: dict[str, str] = {}
    for condition in facts.held:
        node = _parsed(condition.text)
        for call in list(ast.walk(node)) if node is not None else []:
            if not (
                isinstance(call, ast.Call)
                and not call.args
                and not call.keywords
                and isinstance(call.func, ast.Attribute)
            ):
                continue
            receiver = ast.unparse(call.func.value)
            if receiver not in receivers or ast.unparse(call) in out:
                continue
            returned = _method_return(store, stored, facts, receiver, call.func.attr)
            if returned is not None:
                out[ast.unparse(call)] = returned
    return out


def returned_conjuncts(condition: ConditionView, returned: dict[str, str]) -> list[ConditionView]:
    """The parts of the condition (its conjuncts, or itself) that call such a method, each
    with the call replaced by what it returns."""
    node = _parsed(condition.text)
    if node is None or not returned:
        return []
    parts = node.values if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And) else [node]

    class _Swap(ast.NodeTransformer):
        def visit_Call(self, call: ast.Call) -> ast.AST:
            text = returned.get(ast.unparse(call))
            parsed = _parsed(text) if text is not None else None
            return parsed if parsed is not None else self.generic_visit(call)

    out = []
    for part in parts:
        before = ast.unparse(part)
        after = ast.unparse(_Swap().visit(_parsed(before) or part))
        if after != before:
            out.append(
                ConditionView(
                    text=after,
                    test=condition.test,
                    kind=condition.kind,
                    holds=condition.holds,
                    line=condition.line,
                )
            )
    return out


def _json_flag(knob: Knob) -> bool:
    declared = knob.value_type or ""
    json_valued = "Config" in declared or declared.startswith(("dict", "Dict"))
    return knob.kind == KnobKind.FLAG and knob.behind is not None and json_valued


def _method_return(
    store: Store, stored: StoredSite, facts: Facts, receiver: str, method: str
) -> str | None:
    attribute = _own_attribute(receiver, facts)
    tree = facts.source_tree()
    if attribute is None or tree is None:
        return None
    owner = stored.site.function.split(".")[0]
    class_name = _declared_class(tree, owner, attribute)
    if class_name is None:
        return None
    defined_here = any(isinstance(n, ast.ClassDef) and n.name == class_name for n in tree.body)
    path = stored.file if defined_here else imported_from(tree, class_name, stored.file)
    text = store.file_text(stored.version_id, path) if path is not None else None
    if path == stored.file:
        text = facts.source_text
    module = parse_module(text)
    if module is None:
        return None
    for cls in module.body:
        if isinstance(cls, ast.ClassDef) and cls.name == class_name:
            for function in cls.body:
                if isinstance(function, ast.FunctionDef) and function.name == method:
                    return _single_return(function, receiver)
    return None


def _own_attribute(receiver: str, facts: Facts) -> str | None:
    """`speculative_config` for `self.speculative_config`, or for a local bound to it."""
    if receiver.startswith("self.") and receiver[5:].isidentifier():
        return receiver[5:]
    for binding in facts.bindings:
        if binding.origin == "local" and binding.name == receiver:
            value = binding.value
            if value.startswith("self.") and value[5:].isidentifier():
                return value[5:]
    return None


def _declared_class(tree: ast.Module, owner: str, attribute: str) -> str | None:
    """The one class `owner`'s body declares `attribute` as (`X | None`)."""
    for cls in tree.body:
        if not (isinstance(cls, ast.ClassDef) and cls.name == owner):
            continue
        for statement in cls.body:
            if (
                isinstance(statement, ast.AnnAssign)
                and isinstance(statement.target, ast.Name)
                and statement.target.id == attribute
            ):
                names = {
                    n.id
                    for n in ast.walk(statement.annotation)
                    if isinstance(n, ast.Name) and n.id not in _ANNOTATION_WORDS
                }
                return names.pop() if len(names) == 1 else None
    return None


def _single_return(function: ast.FunctionDef, receiver: str) -> str | None:
    """The expression of a body that is one `return` (after a docstring) over `self`'s
    fields and literals, with `receiver` for `self`."""
    body = function.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    if len(body) != 1 or not isinstance(body[0], ast.Return) or body[0].value is None:
        return None
    value = body[0].value
    for node in ast.walk(value):
        if isinstance(node, ast.Call | ast.Lambda | ast.NamedExpr):
            return None  # what a call returns is another method's
        if isinstance(node, ast.Name) and node.id != "self":
            return None  # a module name: not the object's own field
    text = ast.unparse(value)
    if "self." not in text:
        return None
    swapped = _parsed(text)
    if swapped is None:
        return None
    for node in ast.walk(swapped):
        if isinstance(node, ast.Name) and node.id == "self":
            node.id = receiver  # an attribute chain's text: `self` becomes the receiver
    return ast.unparse(swapped)


def _parsed(text: str) -> ast.expr | None:
    """A fresh tree (the rules here change it: not the shared one of `parse_expression`)."""
    try:
        return ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return None
