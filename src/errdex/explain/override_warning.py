"""The warning a program logs where a setting lets a value past its check.

A check with an override often warns in the branch the override takes: vllm's
`_get_and_verify_max_len` raises unless `VLLM_ALLOW_LONG_MAX_MODEL_LEN` is set, and when it
is, logs that positions past the model's length "lead to nan" or "cause a CUDA array
out-of-bounds error". A page offering the override quotes that warning with it.

The warning is a log (or `warnings.warn`) site of the raise's own function whose conditions
hold the opposite of the condition the setting turns false (`envs.X` against the raise's
`not envs.X`), at warning level or above.
"""

from __future__ import annotations

import ast

from errdex.extract.conditions import negate
from errdex.facts import SiteKind
from errdex.store.base import Store, StoredSite

_LEVELS = frozenset({"warning", "warn", "error", "critical", "fatal", "exception"})


def override_warning(store: Store, raised: StoredSite, condition: str) -> tuple[str, int] | None:
    """The text logged (placeholders in braces) where `condition` of `raised` is false in
    its own function, at warning level or above, with its line; None when no such warning."""
    opposite = _negation(condition)
    if opposite is None:
        return None
    siblings = store.sites_in_files([raised.file], project=raised.project, version=raised.version)
    for other in siblings:
        site = other.site
        if other.id == raised.id or site.function != raised.site.function:
            continue
        if site.message is None or not _warns(other):
            continue
        if any(_same(c.statement, opposite) for c in site.conditions):
            return site.message.text, site.line
    return None


def new_sentences(text: str, said: str) -> str:
    """The sentences of `text` that `said` does not already hold (the log repeats the
    message the page quotes before its warning)."""
    kept = [s for s in text.split(". ") if s.strip() and s.rstrip(".") not in said]
    return ". ".join(kept)


def _warns(other: StoredSite) -> bool:
    kind = other.site.kind
    if kind == SiteKind.WARN:
        return True
    return kind == SiteKind.LOG and (other.site.level or "").lower() in _LEVELS


def _negation(text: str) -> ast.expr | None:
    """The condition's opposite, as an expression (`not x` → `x`, `a == b` → `a != b`)."""
    try:
        return negate(ast.parse(text, mode="eval").body)
    except (SyntaxError, ValueError, RecursionError):
        return None


def _same(text: str, node: ast.expr) -> bool:
    try:
        return ast.dump(ast.parse(text, mode="eval").body) == ast.dump(node)
    except (SyntaxError, ValueError, RecursionError):
        return False
