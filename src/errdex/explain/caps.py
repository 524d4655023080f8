"""A limit raised past a guard: the next check a setting's new value meets, and its way out.

A page that says to raise a setting past a count (`--max-model-len` with a value at least
the prompt's length) sends the user into another check where the setting's value has a
ceiling of its own: vllm's `_get_and_verify_max_len` raises "User-specified max_model_len
... is greater than the derived max_model_len" unless `VLLM_ALLOW_LONG_MAX_MODEL_LEN=1`.
The page names that check with the solution, and the setting that lets the value past it.

When the program logs a warning where that setting lets the value past (vllm warns that
positions past the model's length "lead to nan"), the page quotes it with the way past
(`explain/override_warning.py`).

The check is found by the setting's field name: a raise of the same version whose message
or reasons share the name (a message that refuses a value names the setting), whose
conditions compare a name of that field above something, and whose path has a setting of
its own that decides it.
"""

from __future__ import annotations

import ast

from errdex.ast_walk import walk
from errdex.explain.knob_actions import knob_action
from errdex.explain.linked import knob_views
from errdex.explain.override_warning import override_warning, warned_sentence
from errdex.explain.page import ConditionView, Knob
from errdex.explain.plain import code
from errdex.explain.views import condition_view
from errdex.facts import KnobKind, SiteKind
from errdex.store.base import Store, StoredSite

_CANDIDATES = 50
_ABOVE = (ast.Gt, ast.GtE)


def setting_caps(store: Store, stored: StoredSite, knobs: list[Knob]) -> dict[str, str]:
    """For each setting the site compares as it is: the sentence that names the check its
    value meets when raised, and the setting that lets it past (none when no such check)."""
    out: dict[str, str] = {}
    tests = [c.text for c in stored.site.conditions]
    for knob in knobs:
        if knob.kind not in (KnobKind.ENV, KnobKind.FLAG) or not knob.same_value:
            continue
        if knob.behind is None or knob.name in out:
            continue
        field = knob.behind.rpartition(".")[2]
        if not field.isidentifier() or not any(_ordered(t, knob.behind) for t in tests):
            continue
        sentence = _cap_sentence(store, stored, knob.name, field)
        if sentence is not None:
            out[knob.name] = sentence
    return out


def _ordered(text: str, name: str) -> bool:
    """Whether the condition compares `name` by order (`len(ids) > self.max_model_len`)."""
    try:
        node = ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return False
    return any(
        isinstance(n, ast.Compare)
        and any(isinstance(op, ast.Gt | ast.GtE | ast.Lt | ast.LtE) for op in n.ops)
        and any(_last(side) == name.rpartition(".")[2] for side in (n.left, *n.comparators))
        for n in walk(node)
    )


def _cap_sentence(store: Store, stored: StoredSite, setting: str, field: str) -> str | None:
    candidates = store.search_candidates(
        [field], project=stored.project, version=stored.version, limit=_CANDIDATES
    )
    for other in candidates:
        if other.id == stored.id or other.site.kind != SiteKind.RAISE:
            continue
        bound = next((b for c in other.site.conditions if (b := _above(c.text, field))), None)
        if bound is None:
            continue
        found = _way_past(other, setting)
        if found is None:
            continue
        way, condition = found
        message = other.site.message.text if other.site.message is not None else None
        # its first sentence: what it refuses (the rest is advice, the way past below)
        said = f" (“{message.split('. ')[0].rstrip('.')}.”)" if message else ""
        where = f"{code(other.site.function)} ({other.file}:{other.site.line})"
        sentence = (
            f"A value above {code(bound)} raises another error{said} in {where}, unless you "
            f"also {way[0].lower()}{way[1:]}."
        )
        return sentence + _warned(store, other, condition, said)
    return None


def _above(text: str, field: str) -> str | None:
    """The bound in `field > bound` (or `bound < field`), the test the raise refuses."""
    try:
        node = ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return None
    for n in walk(node):
        if not isinstance(n, ast.Compare) or len(n.ops) != 1:
            continue
        left, right, op = n.left, n.comparators[0], n.ops[0]
        if isinstance(right, ast.Constant) or isinstance(left, ast.Constant):
            continue
        if _last(left) == field and isinstance(op, _ABOVE):
            return ast.unparse(right)
        if _last(right) == field and isinstance(op, ast.Lt | ast.LtE):
            return ast.unparse(left)
    return None


def _warned(store: Store, other: StoredSite, condition: ConditionView, said: str) -> str:
    """What the code warns of where the way past takes effect, as a sentence ("" when it
    warns of nothing the sentence does not already quote)."""
    logged = override_warning(store, other, condition)
    return "" if logged is None else warned_sentence(other, logged, said)


def _way_past(other: StoredSite, setting: str) -> tuple[str, ConditionView] | None:
    """The exact action of a setting other than `setting` that makes one of the raise's
    conditions false (`Set VLLM_ALLOW_LONG_MAX_MODEL_LEN=1`), with that condition."""
    knobs = [k for k in knob_views(other) if k.name != setting]
    if not knobs:
        return None
    for condition in other.site.conditions:
        view = condition_view(condition)
        action = knob_action(view, knobs)
        if action is not None and not action.vague and action.before and action.after:
            return action.text, view
    return None


def _last(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None
