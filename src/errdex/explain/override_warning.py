"""The warning a program logs where a setting lets a value past its check.

A check with an override often warns in the branch the override takes: vllm's
`_get_and_verify_max_len` raises unless `VLLM_ALLOW_LONG_MAX_MODEL_LEN` is set, and when it
is, logs that positions past the model's length "lead to nan" or "cause a CUDA array
out-of-bounds error". A page offering the override quotes that warning with it.

The warning is a log (or `warnings.warn`) site of the raise's own function, at warning level
or above, on the same path as the raise up to the test the setting decides, and in that
test's other branch (`if envs.X: logger.warning(...)` / `else: raise ...`): a warning
merely later in the function is not where the setting takes effect.
"""

from __future__ import annotations

from errdex.explain.plain import code
from errdex.facts import ConditionKind, ConditionRecord, SiteKind
from errdex.store.base import Store, StoredSite

_LEVELS = frozenset({"warning", "warn", "error", "critical", "fatal", "exception"})


def override_warning(
    store: Store, raised: StoredSite, condition: ConditionRecord
) -> tuple[str, int] | None:
    """The text logged (placeholders in braces) in the other branch of `condition`'s test
    in `raised`'s function, at warning level or above, with its line; None when none."""
    return override_warnings(store, raised, [condition]).get(condition.text)


def override_warnings(
    store: Store, raised: StoredSite, conditions: list[ConditionRecord]
) -> dict[str, tuple[str, int]]:
    """For each of `conditions` of `raised` (by its text): the warning its function logs
    on the same path up to that test, in the branch where it goes the other way, with its
    line (one read of the file's sites for all)."""
    if not conditions:
        return {}
    warnings = [
        other
        for other in store.sites_in_files(
            [raised.file], project=raised.project, version=raised.version
        )
        if other.id != raised.id
        and other.site.function == raised.site.function
        and other.site.message is not None
        and _warns(other)
    ]
    path = [(c.test, c.holds, c.line) for c in raised.site.conditions]
    out: dict[str, tuple[str, int]] = {}
    for condition in conditions:
        # the path to the test, then the test the other way: `if X: warn; else: raise`
        wanted = {t for t in path if t[2] < condition.line}
        wanted.add((condition.test, not condition.holds, condition.line))
        for other in warnings:
            message = other.site.message
            held = {
                (c.test, c.holds, c.line)
                for c in other.site.conditions
                # past an early exit is the rest of the function, not a branch of it
                if c.kind is not ConditionKind.EARLY_EXIT or c.line != condition.line
            }
            # right in that branch, not under a test of its own further in
            if message is not None and held == wanted:
                out[condition.text] = (message.text, other.site.line)
                break
    return out


def warned_sentence(raised: StoredSite, logged: tuple[str, int], said: str) -> str:
    """ " With that set, `f` (file:line) logs a warning instead: “…”": the sentences of the
    warning `said` (what the page already quotes of the refusal) does not hold; "" when
    none is left."""
    message = raised.site.message.text if raised.site.message is not None else None
    # a log of the refusal's own message warns of nothing the page does not already say
    warning = "" if logged[0] == message else new_sentences(logged[0], said)
    if not warning:
        return ""
    where = f"{code(raised.site.function)} ({raised.file}:{logged[1]})"
    return f" With that set, {where} logs a warning instead: “{warning.rstrip('.')}.”"


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
