"""What a method or property of a JSON-valued flag's object returns: the flag's field.

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
import itertools
import re

from errdex.ast_walk import walk
from errdex.explain.context import Facts, at_margin, class_header
from errdex.explain.name_forms import normal_form
from errdex.explain.outline import defining, importing_or_defining, may_define, top_module
from errdex.explain.page import ConditionView, Knob
from errdex.explain.table_lookup import imported_from
from errdex.extract.shapes import and_parts
from errdex.facts import KnobKind
from errdex.store.base import Store, StoredSite

_ANNOTATION_WORDS = frozenset({"None", "Optional", "Union", "ClassVar", "Final"})


def returned_fields(store: Store, stored: StoredSite, facts: Facts) -> dict[str, str]:
    """`receiver.method()` (or `receiver.prop`, a property) of the held conditions → the
    expression it returns, with the receiver in place of `self`, for receivers behind a
    JSON-valued flag."""
    receivers = {k.behind for k in facts.knobs if _json_flag(k)}
    out: dict[str, str] = {}
    if not receivers:
        return out
    classes: dict[tuple[str, str], ast.ClassDef | None] = {}  # each class read once a page
    for condition in facts.held:
        node = _parsed(condition.text)
        nodes = list(walk(node)) if node is not None else []
        callees = {id(n.func) for n in nodes if isinstance(n, ast.Call)}
        for found in nodes:
            if id(found) in callees:
                continue  # the method of a call: read with its call
            called = (
                isinstance(found, ast.Call)
                and not found.args
                and not found.keywords
                and isinstance(found.func, ast.Attribute)
            )
            attribute = found.func if isinstance(found, ast.Call) else found
            if not isinstance(attribute, ast.Attribute) or (
                isinstance(found, ast.Call) and not called
            ):
                continue
            receiver = ast.unparse(attribute.value)
            if receiver not in receivers or ast.unparse(found) in out:
                continue
            cls = _receiver_class(store, stored, facts, receiver, attribute.attr, classes)
            returned = _member_return(cls, receiver, attribute.attr, called) if cls else None
            if returned is not None:
                out[ast.unparse(found)] = returned
    return out


def returned_conjuncts(condition: ConditionView, returned: dict[str, str]) -> list[ConditionView]:
    """The parts of the condition (its conjuncts, or itself) that call such a method, each
    with the call replaced by what it returns."""
    node = _parsed(condition.text)
    if node is None or not returned:
        return []
    parts = and_parts(node)

    class _Swap(ast.NodeTransformer):
        def visit_Call(self, call: ast.Call) -> ast.AST:
            return self._swapped(call)

        def visit_Attribute(self, attribute: ast.Attribute) -> ast.AST:
            return self._swapped(attribute)

        def _swapped(self, node: ast.expr) -> ast.AST:
            text = returned.get(ast.unparse(node))
            parsed = _parsed(text) if text is not None else None
            return parsed if parsed is not None else self.generic_visit(node)

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


def _receiver_class(
    store: Store,
    stored: StoredSite,
    facts: Facts,
    receiver: str,
    member: str,
    classes: dict[tuple[str, str], ast.ClassDef | None],
) -> ast.ClassDef | None:
    """The class the site's own class declares the receiver's attribute as, parsed; None
    when its file defines no function `member` (the class is then not parsed)."""
    attribute = _own_attribute(receiver, facts)
    owner = stored.site.function.split(".")[0]
    if attribute is None or not _may_declare(facts, owner, attribute):
        return None
    tree = _owner_tree(facts, owner)
    if tree is None:
        return None
    class_name = _declared_class(tree, owner, attribute)
    if class_name is None:
        return None
    tree = facts.top_module(importing_or_defining(class_name))
    if tree is None:
        return None
    defined_here = any(isinstance(n, ast.ClassDef) and n.name == class_name for n in tree.body)
    path = stored.file if defined_here else imported_from(tree, class_name, stored.file)
    if path is None:
        return None
    if (path, class_name) not in classes:
        # kept for the page: a class not parsed for one member is read again for the next
        text = (
            facts.source_text
            if path == stored.file
            else facts.once(f"file_text:{path}", lambda: store.file_text(stored.version_id, path))
        )
        if text is not None and not may_define(text, member):
            return None  # no method or property of that name: the class is not needed
        module = (
            facts.top_module(defining(class_name))
            if path == stored.file
            else top_module(text, store.file_outline(stored.version_id, path), defining(class_name))
        )
        found = [c for c in (module.body if module else []) if isinstance(c, ast.ClassDef)]
        classes[(path, class_name)] = next((c for c in found if c.name == class_name), None)
    return classes[(path, class_name)]


def _member_return(cls: ast.ClassDef, receiver: str, name: str, called: bool) -> str | None:
    """What the method `name` (called) or the property `name` returns, on `receiver`."""
    for function in cls.body:
        if (
            isinstance(function, ast.FunctionDef)
            and function.name == name
            and _is_property(function) != called
        ):
            return _single_return(function, receiver, _fields(cls))
    return None


def _fields(cls: ast.ClassDef) -> frozenset[str]:
    """The fields the class body declares (`name: type = ...`), the keys of its JSON (not
    a private one: `_enabled`, set by the class itself)."""
    return frozenset(
        s.target.id
        for s in cls.body
        if isinstance(s, ast.AnnAssign)
        and isinstance(s.target, ast.Name)
        and not s.target.id.startswith("_")
    )


def _is_property(function: ast.FunctionDef) -> bool:
    return any(
        ast.unparse(d).rpartition(".")[2] in ("property", "cached_property")
        for d in function.decorator_list
    )


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


def _may_declare(facts: Facts, owner: str, attribute: str) -> bool:
    """Whether the class `owner` may declare `attribute` in its body (`attribute: X`), read
    in its text before it is parsed: a class of 6,000 lines that never writes the name and
    a colon after it is not parsed to find no declaration."""
    return facts.once(
        f"may_declare:{owner}.{attribute}", lambda: _declaring(facts, owner, attribute)
    )


def _declaring(facts: Facts, owner: str, attribute: str) -> bool:
    text = facts.class_text(owner)
    if text is None or not _defined_once(facts, owner):
        return True  # (defined twice: the text is the first one's)
    declared = rf"(?<![.\w]){re.escape(attribute)}(?!\w)[\s\\)]*:(?!=)"
    return re.search(declared, normal_form(text)) is not None


def _owner_tree(facts: Facts, owner: str) -> ast.Module | None:
    """The site's class `owner`, as a module: the page's parse of the class (other rules
    read it too) when the file defines it once."""
    if _defined_once(facts, owner):
        found = facts.top_class(owner)
        if found is not None:
            return ast.Module(body=[found], type_ignores=[])
    return facts.top_module(defining(owner))


def _defined_once(facts: Facts, owner: str) -> bool:
    """Whether one line of the site's file starts a class `owner`."""
    return facts.once(f"defined_once:{owner}", lambda: _headers(facts.source_text, owner) == 1)


def _headers(text: str | None, owner: str) -> int:
    """The lines of `text` that start a class `owner` (2 for two or more)."""
    if text is None:
        return 0
    found = at_margin(class_header(owner), normal_form(text))
    return len(list(itertools.islice(found, 2)))


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
                    for n in walk(statement.annotation)
                    if isinstance(n, ast.Name) and n.id not in _ANNOTATION_WORDS
                }
                return names.pop() if len(names) == 1 else None
    return None


def _single_return(function: ast.FunctionDef, receiver: str, fields: frozenset[str]) -> str | None:
    """The expression of a body that is one `return` (after a docstring) over `self`'s
    fields and literals, with `receiver` for `self`; None when it reads anything else of
    `self` (another property: `self.is_ec_producer`, no key of the JSON)."""
    body = function.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    if len(body) != 1 or not isinstance(body[0], ast.Return) or body[0].value is None:
        return None
    value = body[0].value
    for node in walk(value):
        if isinstance(node, ast.Call | ast.Lambda | ast.NamedExpr):
            return None  # what a call returns is another method's
        if isinstance(node, ast.Name) and node.id != "self":
            return None  # a module name: not the object's own field
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.attr not in fields
        ):
            return None  # a property or method of the object: no key of its JSON
    text = ast.unparse(value)
    if "self." not in text:
        return None
    swapped = _parsed(text)
    if swapped is None:
        return None
    for node in walk(swapped):
        if isinstance(node, ast.Name) and node.id == "self":
            node.id = receiver  # an attribute chain's text: `self` becomes the receiver
    return ast.unparse(swapped)


def _parsed(text: str) -> ast.expr | None:
    """A fresh tree (the rules here change it: not the shared one of `parse_expression`)."""
    try:
        return ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return None
