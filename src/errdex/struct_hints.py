"""The field types of a module's msgspec Structs, evaluated once per text.

A module of records says `from __future__ import annotations`, so each field's type is
kept as its text; msgspec evaluates the texts when a decoder is first made for a type
that holds them. msgspec compiles each field's text on its own (a `typing.ForwardRef`
apiece); the facts' and the sites' records (`facts`, `reading_facts`, `linked_facts`)
repeat a few texts many times, so each distinct text is compiled once. Each of those
modules calls `evaluate_field_types` once its classes are made.
"""

from __future__ import annotations

import sys
from typing import Any

import msgspec

__all__ = ["evaluate_field_types"]


def evaluate_field_types(module: str) -> None:
    """Put in place of each text among the field types of `module`'s Structs the type it
    names, as msgspec would evaluate it (names of the module, then builtins), each distinct
    text compiled once. A text naming something of its class's own namespace (which msgspec
    reads before builtins), or one that does not evaluate here, stays for msgspec to read.
    Call it last in the module: a Struct defined after the call is left to msgspec."""
    namespace = vars(sys.modules[module])
    made: dict[str, tuple[Any, frozenset[str]] | None] = {}
    for value in list(namespace.values()):
        if not (
            isinstance(value, type)
            and issubclass(value, msgspec.Struct)
            and value.__module__ == module
        ):
            continue
        own = vars(value)
        hints = own.get("__annotations__", {})
        for name, text in hints.items():
            if not isinstance(text, str):
                continue
            if text not in made:
                made[text] = _evaluated(text, namespace)
            found = made[text]
            if found is not None and not found[1] & own.keys():
                hints[name] = found[0]


def _evaluated(text: str, namespace: dict[str, Any]) -> tuple[Any, frozenset[str]] | None:
    """What `text` names in `namespace`, and the names it reads; None when it fails."""
    try:
        code = compile(text, "<field type>", "eval")
        return eval(code, namespace), frozenset(code.co_names)
    except Exception:  # a name imported only for type checking: msgspec says what is wrong
        return None
