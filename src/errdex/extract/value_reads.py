"""What a local's assigned value reads, worked out where the walk holds the value's tree.

The linker follows a local that a condition or a guard tests to the settings behind its
value (`link.knobs`): an environment read, another name as it is, or the names the value
is computed from (`facts.ValueRead`). From the value's source that takes a token scan or
a parse per distinct text, thousands of them per version, in the linker's one process; the
extraction's workers have each value's tree already, so they give it as a fact of the file
(`FileFacts.value_reads`, by the source). `value_read` is the one rule for both: the linker
parses the texts the extraction gave none for, and reads them with it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping

from errdex.extract.conditions import NAME_OR_ATTRIBUTE, dotted_names
from errdex.extract.knobs import env_read_of
from errdex.extract.quick_unparse import quick_unparse
from errdex.facts import CallFact, CallSite, ErrorSite, ValueRead

# Expressions whose source, parsed alone, is not the expression again (`y := f()` and
# `yield x` need the brackets or the statement around them): the linker keeps its own
# answer for those texts (none: they do not parse).
_NOT_ALONE = (ast.NamedExpr, ast.Yield, ast.YieldFrom, ast.Starred)


Read = tuple[str | None, str | None, tuple[str, ...]]  # the fields of a `ValueRead`


def value_read(node: ast.expr, text: str, names: Iterable[str] | None = None) -> Read:
    """What the value `node`, whose source is `text`, reads (`ValueRead`'s fields);
    `names`: its `dotted_names`, when the caller has them already."""
    read = env_read_of(node) if may_read_env(text) else None
    if read is not None:
        return read, None, ()
    if isinstance(node, NAME_OR_ATTRIBUTE):
        return None, quick_unparse(node) or ast.unparse(node), ()
    return None, None, tuple(dotted_names(node) if names is None else names)


def may_read_env(text: str) -> bool:
    """False when `text` cannot hold an environment read (every way of reading one names
    `getenv` or `environ`); non-ASCII text may spell them in other characters."""
    return "environ" in text or "getenv" in text or not text.isascii()


def parses_alone(node: ast.expr) -> bool:
    """Whether the source the walk records for `node` (its lines joined, comments dropped,
    strings kept) parses, alone, to `node` again: an expression that needs nothing around
    it. The linker's answer for the text is then `value_read`'s."""
    if isinstance(node, _NOT_ALONE):
        return False
    return not (isinstance(node, ast.Tuple) and any(isinstance(e, ast.Starred) for e in node.elts))


def bound_values(
    known: Mapping[str, ValueRead], *groups: Iterable[ErrorSite | CallFact | CallSite]
) -> dict[str, ValueRead]:
    """What the values of the locals bound in the sites and calls of `groups` read, of
    those `known` has, in the order the bindings come: the same for the same facts however
    they were made (a second extraction spliced from the first gives the whole one's)."""
    out: dict[str, ValueRead] = {}
    for group in groups:
        for made in group:
            for binding in made.bindings:
                if binding.origin != "local" or binding.value in out:
                    continue
                found = known.get(binding.value)
                if found is not None:
                    out[binding.value] = found
    return out
