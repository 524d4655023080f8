"""A caller that hands on what its object's constructor kept of the user's keyword.

A method often passes an internal function an attribute rather than an argument of its
own: `self.transport.handle(request)`, `check(self.timeout)`, where the class's constructor
set `self.timeout = timeout` from the keyword the user gave it. The value the check reads is
then that keyword of the class's call, as it was given, when the constructor assigns it as
it is (not a conversion or a fallback) and no other statement of the class assigns the
attribute again (a setter, a method that fills it in later): the chain of callers
(`entry_args.sole_entry`) goes on to the class's constructor.
"""

from __future__ import annotations

import ast

from errdex.explain.context import top_class_in
from errdex.explain.declared_fields import self_assignments
from errdex.explain.item_fields import own_init
from errdex.extract.setters import init_params, rebound
from errdex.store.base import Store, StoredSite


def kept_keyword(
    store: Store, chosen: StoredSite, file: str, function: str, values: list[ast.expr]
) -> str | None:
    """The keyword of the constructor of the class of `function` (a method `Class.name` of
    `file`) that the one value passed, `self.<attribute>`, holds as given; else None."""
    owner, _, method = function.rpartition(".")
    if len(values) != 1 or not owner or "." in owner or method == "__init__":
        return None
    value = values[0]
    if not (
        isinstance(value, ast.Attribute)
        and isinstance(value.value, ast.Name)
        and value.value.id == "self"
    ):
        return None
    cls = top_class_in(store.file_text(chosen.version_id, file), owner)
    init = own_init(cls) if cls is not None else None
    if cls is None or init is None:
        return None
    kept, plain = init_params(init)
    if value.attr not in plain or rebound(init, kept[value.attr]):
        return None  # not set from a keyword as it is: a conversion, a fallback, rebound
    if self_assignments(cls, value.attr) != 1:
        return None  # set again (a setter, a later fill-in): no longer the keyword
    return kept[value.attr]
