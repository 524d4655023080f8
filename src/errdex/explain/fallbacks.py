"""When a setting is the way out: a variable the code falls back from on its own.

A property may read an environment variable and, when it is unset, decide by itself:
vllm's `VllmConfig.use_v2_model_runner` returns `VLLM_USE_V2_MODEL_RUNNER` when it is set,
and otherwise `True`, unless Triton is missing or a feature V2 lacks is on, each logged
("... using the V1 model runner instead.") before `return False`. Setting the variable is
then the way out only where the user had set it to the other value; where the property fell
back for a feature, setting it leads into the check that refuses that feature (`Model
Runner V2 does not yet support: ...`). The page names those conditions beside the setting,
read from the property's own sites (its warnings, and the raises elsewhere guarded by the
same call as a warning) and its source.
"""

from __future__ import annotations

import ast

from errdex.ast_walk import walk
from errdex.explain.context import function_at
from errdex.explain.linked import binding_views
from errdex.explain.page import Knob
from errdex.explain.plain import code
from errdex.facts import KnobKind, SiteKind
from errdex.linked_facts import read_property_via
from errdex.store.base import Store, StoredSite

_LOGGED = frozenset({SiteKind.LOG, SiteKind.WARN})


def setting_fallbacks(store: Store, stored: StoredSite, knobs: list[Knob]) -> dict[str, str]:
    """For each variable read through such a property: the sentence that says when setting
    it is the way out."""
    out: dict[str, str] = {}
    for knob in knobs:
        read = read_property_via(knob.via) if knob.kind == KnobKind.ENV else None
        if read is None or knob.name in out:
            continue
        sentence = _fallback_sentence(store, stored, knob.name, *read)
        if sentence is not None:
            out[knob.name] = sentence
    return out


def _fallback_sentence(
    store: Store, stored: StoredSite, variable: str, prop: str, file: str, line: int
) -> str | None:
    sites = store.list_sites(project=stored.project, version=stored.version, file=file)
    logged = [
        s
        for s in sites
        if s.site.function == prop
        and s.site.kind in _LOGGED
        and s.site.message is not None
        and _when_unset(s, variable)
    ]
    if not logged:
        return None
    text = store.file_text(logged[0].version_id, file)
    tree = function_at(text, prop.rpartition(".")[2], line)
    if tree is None or not _returns_true_last(tree):
        return None
    falls = [s for s in logged if _returns_false_after(tree, s.site.line)]
    if not falls:
        return None
    quoted = []
    for site in falls:
        assert site.site.message is not None
        text = f"“{site.site.message.text}”"
        refused = _refused_by(sites, site, prop)
        if refused is not None and refused.site.message is not None:
            text += (
                f" (then setting it makes {code(refused.site.function)} raise "
                f"“{refused.site.message.text}”: turn off what the warning names instead)"
            )
        quoted.append(text)
    return (
        f"This is the way out where your environment sets {code(variable)} to a false value: "
        f"unset, {code(prop)} gives a true value unless it falls back and logs why: "
        + "; ".join(quoted)
        + "."
    )


def _when_unset(site: StoredSite, variable: str) -> bool:
    """Whether one of the site's conditions is the variable unset (`x is None`, `x` read
    from `envs.VARIABLE`)."""
    read = f"envs.{variable}"
    names = {read} | {b.name for b in binding_views(site) if b.value == read}
    return any(c.text in {f"{n} is None" for n in names} for c in site.site.conditions)


def _refused_by(sites: list[StoredSite], fallback: StoredSite, prop: str) -> StoredSite | None:
    """A raise elsewhere guarded by the same call the fallback is (`unsupported =
    self._get_v2_model_runner_unsupported_features()`): the check that refuses what made
    the property fall back."""
    calls = {
        b.value: b.name for b in binding_views(fallback) if b.origin == "local" and "(" in b.value
    }
    if not calls:
        return None
    for other in sites:
        if other.site.kind != SiteKind.RAISE or other.site.function == prop:
            continue
        for binding in binding_views(other):
            if binding.value in calls and any(
                binding.name in c.text for c in other.site.conditions
            ):
                return other
    return None


def _returns_true_last(function: ast.FunctionDef) -> bool:
    last = function.body[-1] if function.body else None
    return (
        isinstance(last, ast.Return)
        and isinstance(last.value, ast.Constant)
        and last.value.value is True
    )


def _returns_false_after(function: ast.FunctionDef, line: int) -> bool:
    """Whether the innermost statement holding `line` is followed, in its block, by
    `return False`."""
    found: tuple[int, bool] | None = None  # (the statement's span, whether False follows)
    for node in walk(function):
        for field in ("body", "orelse"):
            block = getattr(node, field, None)
            if not isinstance(block, list):
                continue
            for index, statement in enumerate(block):
                end = statement.end_lineno or statement.lineno
                if not statement.lineno <= line <= end:
                    continue
                after = block[index + 1] if index + 1 < len(block) else None
                false = (
                    isinstance(after, ast.Return)
                    and isinstance(after.value, ast.Constant)
                    and after.value.value is False
                )
                span = end - statement.lineno
                if found is None or span < found[0]:
                    found = (span, false)
    return found is not None and found[1]
