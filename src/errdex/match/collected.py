"""A message that is a list or a dict as Python prints it (`['Not a valid email address.']`,
`{'_schema': ['Invalid input type.']}`): validation libraries collect the messages of
their checks and raise the collection once (`errors = []` ... `raise ValidationError(errors)`).
The texts inside were written elsewhere; the raise the traceback ends at is the one given
the collection, which a raise whose message is one local bound to a list or dict is.
"""

from __future__ import annotations

import ast
from functools import lru_cache

from errdex.facts import ErrorSite, Placeholder

__all__ = ["collects", "prints_collection"]

_MAX_LENGTH = 4000
_LISTS = ("[", "list(")
_DICTS = ("dict(", "defaultdict(", "OrderedDict(")


def collects(site: ErrorSite, message: str) -> str | None:
    """The local the site raises with, when the message prints as a list or a dict and that
    local is first bound to one (`errors = []`); else None."""
    kind = _printed_kind(message.strip())
    parts = site.message.parts if site.message is not None else ()
    if kind is None or len(parts) != 1 or not isinstance(parts[0], Placeholder):
        return None
    name = parts[0].expr
    for binding in site.bindings:
        if binding.name == name and binding.origin == "local":
            return name if _bound_kind(binding.value.strip()) == kind else None
    return None


def prints_collection(message: str) -> bool:
    """The message is a list or a dict as Python prints it."""
    return _printed_kind(message.strip()) is not None


@lru_cache(maxsize=256)
def _printed_kind(text: str) -> str | None:
    if len(text) > _MAX_LENGTH or text[:1] not in ("[", "{"):
        return None
    try:
        value = ast.literal_eval(text)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
    if isinstance(value, list):
        return "list"
    return "dict" if isinstance(value, dict) else None


def _bound_kind(source: str) -> str | None:
    if source.startswith(_LISTS):
        return "list"
    if source.startswith(_DICTS):
        return "dict"
    if source.startswith("{"):
        try:
            node = ast.parse(source, mode="eval").body
        except SyntaxError:
            return None
        return "dict" if isinstance(node, ast.Dict | ast.DictComp) else None
    return None
