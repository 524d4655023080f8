"""A `try` that resolved the user's annotation and failed with `NameError`: the way out is
in the module that writes the annotation.

pydantic's `_apply_field_serializers` resolves the return annotation of the user's
serializer with `get_function_return_type(serializer.func, ...)` under `except NameError`,
and SQLAlchemy's declarative scan evaluates a `Mapped["Address"]` annotation in the module
that declares the mapped class. Python raises `NameError` only for a name not bound where
it is looked up, and an annotation (a type hint, a forward reference written as a string)
is the user's own text: the way out is to make the name it uses importable there, not to
change what the internal call was given. Said only when the clause names `NameError`
itself (a broad one catches every failure of the call) and the call, or the function
holding the site, says it resolves an annotation or a type; any other evaluation may be
of the package's own names.
"""

from __future__ import annotations

import re

from errdex.explain.plain import code
from errdex.facts import SiteKind

__all__ = ["undefined_name_text"]

# Words of a call, or of the function around it, that resolves annotations:
# `get_function_return_type`, `eval_type_backport`, `de_stringify_annotation`,
# `_cleanup_mapped_str_annotation`, `get_type_hints`, `_resolve_forward_ref`.
_RESOLVES = re.compile(r"annotation|type|hint|forward", re.IGNORECASE)
_RETURN = re.compile(r"return_(?:type|annotation|hint)s?$")
# A call as written (cut short where the index cut it): its callee and first argument.
_CALLED = re.compile(r"(?P<name>[\w.]+)\((?P<first>[\w.]+)[,)]")


def undefined_name_text(
    written: str, shown: str, line: int, function: str, kind: SiteKind
) -> str | None:
    """The way out of the call `written` (as the `try` at `line` of `function` writes it,
    maybe cut short; `shown` as the page quotes it) having raised `NameError` while it
    resolved an annotation; None when neither it nor `function` says of an annotation."""
    if not (_RESOLVES.search(written) or _RESOLVES.search(function)):
        return None
    resolved = "an annotation"
    called = _CALLED.match(written)
    if called is not None and _RETURN.search(called["name"].rpartition(".")[2]):
        # `get_function_return_type(func, ...)`: the return annotation of the function given
        first = code(called["first"])
        resolved = f"the return annotation of the function it was given ({first})"
    named = (
        "this error's message names it"
        if kind is SiteKind.RERAISE
        else "the `NameError` above this one in the traceback names it"
    )
    return (
        f"Define or import the name your annotation uses where the annotation is written: "
        f"{shown} (the `try` at line {line}) resolved {resolved} and met a "
        f"name that is not defined there ({named}: `name '...' is not defined`). A type an "
        "annotation names, also in one written as a string (a forward reference), must be "
        "importable from the module that declares the annotation when it is resolved: import "
        "it there at module level (not only under `if TYPE_CHECKING:`), define it before it "
        "is resolved, or correct its spelling."
    )
