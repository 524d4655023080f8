"""Ways out through a value the user gave that the message prints back: a key the object
they index lacks, a name not among those the message lists as available.

The conditions of such checks read the program's state (`pop_indexes`, the columns of a
table it loaded), so no rule on the input puts them in words; the message is what ties the
failing value to the user: it prints the value they gave (a parameter of the function, as
`{key}` or `{var_y!r}`) and, often, what would have been accepted. The sentence keeps those
placeholders, so that a lookup fills them with the values of the user's own message.
"""

from __future__ import annotations

import ast
import re

from errdex.explain.context import Facts
from errdex.explain.page import Solution
from errdex.explain.plain import code
from errdex.facts import Placeholder, SiteKind
from errdex.link.expression_texts import parse_expression

# Dunder methods a user reaches by subscription (`headers[key]`, `del cookies[name]`): their
# first parameter is the key the user wrote.
_SUBSCRIPTS = {"__getitem__": "look up", "__delitem__": "delete"}
_KEY_ERRORS = frozenset({"KeyError", "LookupError"})
# Dunder methods a user reaches by an attribute's name (`obj.item`, `del obj.item`): their
# first parameter is the name the user wrote; the way out of each
_ATTRIBUTE_WAYS = {
    "__getattr__": "use only an attribute it has (check the name's spelling; `dir()` of the "
    "object lists those it has)",
    # `dir()` lists methods too, which no `del` on the object removes
    "__delattr__": "delete only an attribute set on it (check the name's spelling, and that "
    "it was not deleted already)",
}
# What a message says of an attribute that is not there: `__delattr__` raises AttributeError
# for one that cannot be deleted too ("Frozen is frozen: cannot delete 'x'"), so there the
# message must say the attribute is absent.
_ABSENT = re.compile(
    r"\bno (?:such )?attribute\b|\bhas no\b|\bnot found\b|\bdoes not exist\b"
    r"|\bis not (?:an? )?(?:attribute|field|set)\b",
    re.I,
)
# Calls that print a collection's members as they are.
_LISTING = frozenset({"list", "sorted", "set", "tuple", "str", "repr"})


def given_value_solution(facts: Facts) -> Solution | None:
    """The way out of a check that fails on a value the user gave and the message prints,
    or None."""
    found = _missing_key(facts) or _missing_attribute(facts) or _missing_module_name(facts)
    found = found or _not_among_listed(facts)
    if found is None:
        return None
    text, condition = found
    return Solution(text=text, condition=condition, kind="input")


def _placeholders(facts: Facts) -> list[Placeholder]:
    message = facts.stored.site.message
    return list(message.placeholders) if message is not None else []


def _missing_key(facts: Facts) -> tuple[str, str | None] | None:
    """`raise KeyError(key)` in a public class's `__getitem__`/`__delitem__`: the key the
    user wrote is not in the object."""
    site = facts.stored.site
    owner, _, method = site.function.rpartition(".")
    verb = _SUBSCRIPTS.get(method)
    if verb is None or not owner or owner != site.class_name or owner.startswith("_"):
        return None
    if site.exception not in _KEY_ERRORS or not facts.read.params:
        return None
    message = site.message
    if message is None or len(message.parts) != 1:
        return None  # the message is the key itself, nothing else
    (printed,) = message.placeholders
    key = facts.read.params[0]
    if printed.expr != key:
        return None
    held = facts.held
    if held and _found_by_key(held[-1].text, key, facts):
        return None  # the key was found: the check is of what it holds
    return (
        f"The key {printed.render()} is not in the {code(owner)}: {verb} only a key it "
        f"holds (check the key's spelling against those it has).",
        held[-1].text if held else None,
    )


def _found_by_key(test: str, key: str, facts: Facts) -> bool:
    """Whether the check reads, through the locals it names, a subscription by `key`
    (`o = state.obj()`, `state = self._dict[key]`): that lookup raised no `KeyError`, so
    the key is there and the check is of what it holds (a weak reference's object gone),
    not of the key's spelling."""
    node = parse_expression(test)
    todo = [node] if node is not None else []
    bound = {b.name: b.value for b in facts.bindings if b.origin == "local"}
    seen: set[str] = set()
    while todo:
        current = todo.pop()
        for sub in ast.walk(current):
            if isinstance(sub, ast.Subscript) and ast.unparse(sub.slice) == key:
                return True
            if isinstance(sub, ast.Name) and sub.id in bound and sub.id not in seen:
                seen.add(sub.id)
                value = parse_expression(bound[sub.id])
                if value is not None:
                    todo.append(value)
    return False


def _missing_attribute(facts: Facts) -> tuple[str, str | None] | None:
    """`raise AttributeError(f"... has no attribute {item!r}")` in a public class's
    `__getattr__` or `__delattr__`: the attribute the user wrote (`obj.item`, `del
    obj.item`) is not on the object. Python's own meaning of that error from `__getattr__`,
    so it holds for any class that raises it so; from `__delattr__` it may as well mean the
    attribute cannot be deleted (a frozen object), so there only a message that says the
    attribute is absent, raised under a test or a failed deletion (not for every name),
    gets the way out."""
    site = facts.stored.site
    owner, _, method = site.function.rpartition(".")
    way = _ATTRIBUTE_WAYS.get(method)
    if way is None or not owner or owner != site.class_name or owner[:1] == "_":
        return None
    if site.exception != "AttributeError" or not facts.read.params:
        return None
    if facts.stored.public_path() is None or site.message is None:
        return None
    if method == "__delattr__" and (not site.conditions or not _ABSENT.search(site.message.text)):
        # not said to be absent: it may be there and refuse deletion; or raised for every
        # name (a frozen, sealed object): no attribute is one to delete
        return None
    name = facts.read.params[0]
    printed = next((p for p in site.message.placeholders if p.expr == name), None)
    if printed is None:
        return None  # the message does not say which attribute
    held = facts.held
    if any(_known(c.text, name) for c in held):
        return None  # a name the object declares (unset, say): its spelling is not the fault
    return (
        f"The attribute {printed.render()} is not on the {code(owner)}: {way}.",
        held[-1].text if held else None,
    )


def _missing_module_name(facts: Facts) -> tuple[str, str | None] | None:
    """`raise AttributeError(f"module {__name__!r} has no attribute {name!r}")` in a module's
    own `__getattr__`: Python calls it with the name the user looked up (`module.name`, `from
    module import name`) when the module does not define it, and it raises for every name it
    does not provide lazily. The way out is a name the module has, never the one name its
    test lets through (often a deprecated alias, kept for old code)."""
    site = facts.stored.site
    if site.function != "__getattr__" or site.class_name or site.kind == SiteKind.ASSERT:
        return None
    if site.exception not in ("AttributeError", "ImportError") or not facts.read.params:
        return None
    name = facts.read.params[0]
    message = site.message
    printed = next((p for p in message.placeholders if p.expr == name), None) if message else None
    module = facts.stored.module
    if printed is None or any(part.startswith("_") for part in module.split(".")):
        return None  # the message does not say which name, or the module is private
    said = message.text if message is not None else ""
    if "attribute" not in said.lower() and len(message.parts if message else ()) != 1:
        return None  # a message of its own (no class for a model type): not a missing name
    held = facts.held
    return (
        f"The name {printed.render()} is not in the module {code(module)}: use only a name it "
        f"defines (check the spelling; a name it no longer has was moved or removed in this "
        f"version, and `dir({module})` lists those it has).",
        held[-1].text if held else None,
    )


def _known(condition: str, name: str) -> bool:
    """Whether the condition holds the name among those the object knows (`item in
    private_attributes`)."""
    try:
        node = ast.parse(condition, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return False
    return (
        isinstance(node, ast.Compare)
        and isinstance(node.left, ast.Name)
        and node.left.id == name
        and isinstance(node.ops[0], ast.In)
    )


def _not_among_listed(facts: Facts) -> tuple[str, str | None] | None:
    """`var_y not in df.columns`, with a message that prints both `var_y` and the columns:
    the value given is not one of those listed, and one of them avoids the check."""
    if facts.stored.site.kind == SiteKind.ASSERT:
        return None  # an assertion states what the code holds true, not what it accepts
    params = set(facts.read.params)
    placeholders = _placeholders(facts)
    printed = {p.expr: p for p in placeholders}
    for condition in reversed(facts.held):
        node = parse_expression(condition.text)
        if not (
            isinstance(node, ast.Compare)
            and len(node.ops) == 1
            and isinstance(node.ops[0], ast.NotIn)
            and isinstance(node.left, ast.Name)
        ):
            continue
        name = node.left.id
        if name not in params or name not in printed:
            continue
        collection = ast.unparse(node.comparators[0])
        # the placeholder that prints the collection the check tests (`df.columns.tolist()`
        # prints `df.columns`)
        listed = next(
            (p for p in placeholders if p.expr != name and _reads(p.expr, collection)),
            None,
        )
        if listed is None:
            continue
        return (
            f"Give for {code(name)} one of the values the message lists as available "
            f"({listed.render()}) instead of {printed[name].render()}: the check at line "
            f"{condition.line} tests {code(condition.text)}.",
            condition.text,
        )
    return None


def _reads(expression: str, collection: str) -> bool:
    """Whether a placeholder prints the members of the collection: the collection itself,
    or it through `list()`, `sorted()`, `set()`, `tuple()`, `", ".join()`, `.keys()`,
    `.tolist()` or a generator over it (not its length, not one of its items)."""
    try:
        node = ast.parse(expression, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return False
    while True:
        if ast.unparse(node) == collection:
            return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id not in _LISTING or len(node.args) != 1:
                return False
            node = node.args[0]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            method = node.func
            if method.attr == "join" and len(node.args) == 1:
                node = node.args[0]
            elif method.attr in ("keys", "tolist") and not node.args:
                node = method.value
            else:
                return False
        elif isinstance(node, ast.GeneratorExp | ast.ListComp) and len(node.generators) == 1:
            node = node.generators[0].iter
        else:
            return False
