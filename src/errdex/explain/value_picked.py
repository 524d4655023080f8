"""The value of a setting that picks the code a site sits in: a class that supports only
values its base does not.

A backend declares the values of a setting it serves (`supported_kv_cache_dtypes =
["octave_k3v4", "octave_k3v3"]`, or `supports_kv_cache_dtype(cls, kv_cache_dtype)` that
returns `kv_cache_dtype.startswith("turboquant_")`), and the selection picks a backend only
for a value it supports. When none of those values is one its base declares for every
backend (`AttentionBackend.supported_kv_cache_dtypes = ["auto", "float16", "bfloat16"]`), the
class's code runs only because the user gave the setting such a value: a value of the base's
(`--kv-cache-dtype auto`) picks other code and avoids the check. Choosing another backend
alone does not: the backend the user names must support the value as well, and no backend
made for the base's values does.

Only what the code states is followed: the setting is a flag of the version named as the
attribute is (`kv_cache_dtype`, `--kv-cache-dtype`), the values are literals, the base's
list is a literal of a class the files of the version hold, and the class is the only one
of its file that derives from that base (a file of several backends sharing code, one of
them restricted, says nothing of the others).
"""

from __future__ import annotations

import ast
import re
import shlex

import msgspec

from errdex.ast_walk import walk
from errdex.explain.class_declarations import (
    Own,
    member_classes,
    own_values,
    supports_value,
    values_of_base,
)
from errdex.explain.context import Facts
from errdex.explain.page import ExampleFix, Solution
from errdex.explain.picked_value import ValuePicked
from errdex.explain.plain import code
from errdex.facts import KnobKind, SiteKind
from errdex.store.base import Store, StoredSite


def value_picked(store: Store, stored: StoredSite, facts: Facts) -> ValuePicked | None:
    """The class of the site's file picked only for a value of a setting its base does
    not support, or None. Not for a log record or a warning (the program goes on)."""
    text = facts.source_text
    if stored.site.kind in (SiteKind.LOG, SiteKind.WARN) or text is None:
        return None
    if "supported_" not in text and "supports_" not in text:
        return None  # most files: no class declaring what it supports
    if not _declares(text):
        return None  # named, never declared: the file's classes are not parsed
    # the classes that may declare values first (in a file of many classes, a few): the
    # others declare none, and are read only once one class is found restricted
    declaring = facts.top_module(_declaring)
    if declaring is None:
        return None
    found = [
        picked
        for cls in declaring.body
        if isinstance(cls, ast.ClassDef)
        for name, own in own_values(cls).items()
        if (picked := _restricted(store, stored, text, cls, name, own)) is not None
    ]
    if len(found) != 1 or found[0].flag not in store.defined_names(stored.version_id):
        return None
    picked = found[0]
    field = picked.flag[2:].replace("-", "_")
    if _reads(stored, field):
        return None  # a check of the value itself: the value that picked the code is no way out
    tree = facts.top_module(_classes)
    if tree is None:
        return None
    classes = [s for s in tree.body if isinstance(s, ast.ClassDef)]
    if not _reached_from(stored.site.function, picked.owner, classes):
        return None  # code of the file the class does not name: a helper others call too
    attribute = f"supported_{field}s"
    family = {picked.base, picked.owner}
    for other in classes:
        if other.name == picked.owner:
            continue
        # another class of the file on the same base (a sibling backend, one deriving
        # from this one): the file's code is not this class's alone
        if any(isinstance(b, ast.Name) and b.id in family for b in other.bases):
            return None
        if values_of_base(store, stored, text, other, attribute) is not None:
            return None
    others = {
        link.setting: _standing_in(store, stored, link.file, link.others, picked, attribute)
        for link in stored.selections
        if link.how == "choose" and link.file is not None
    }
    return msgspec.structs.replace(picked, others=others)


def _reached_from(function: str, owner: str, classes: list[ast.ClassDef]) -> bool:
    """Whether the site's code is the class's own: in the class, in a class of the file
    it names (`get_impl_cls` returning its `PackedImpl`), or in a private function of the
    file one of those names. A public function or class of the file that the class does
    not name may be called from other files, for whatever value the user chose."""
    top = function.split(".", 1)[0]
    if top == owner:
        return True
    bodies = {c.name: c for c in classes}
    named = _names_in(bodies[owner]) if owner in bodies else set()
    if top in named:
        return True
    if not top.startswith("_") or top in bodies or top == "<module>":
        return False
    return any(top in _names_in(bodies[n]) for n in named if n in bodies)


def _names_in(cls: ast.ClassDef) -> set[str]:
    """The bare names a class's body reads (a string annotation aside)."""
    return {n.id for n in walk(cls) if isinstance(n, ast.Name) and n.id != cls.name}


def _reads(stored: StoredSite, field: str) -> bool:
    """Whether the site's conditions or message name the setting's field."""
    word = re.compile(rf"\b{re.escape(field)}\b")
    texts = [c.test for c in stored.site.conditions]
    if stored.site.message is not None:
        texts.append(stored.site.message.text)
    return any(word.search(t) for t in texts)


def _standing_in(
    store: Store,
    stored: StoredSite,
    registry: str,
    members: tuple[str, ...],
    picked: ValuePicked,
    attribute: str,
) -> tuple[str, ...]:
    """The members, of those standing in, whose class supports a value `picked` supports:
    read from the class path the registry gives each member, and what the class declares
    (its own values, else its bases' list); a member not followed is left out."""
    classes = member_classes(store, stored, registry, members)
    setting = picked.flag[2:].replace("-", "_")
    out = []
    for member in members:
        if member not in classes:
            continue
        file, text, cls = classes[member]
        own = own_values(cls).get(setting)
        if own is not None:
            values, prefix = own[0], own[1]
        else:
            base = values_of_base(store, stored, text, cls, attribute, file)
            values, prefix = (base[1], None) if base is not None else ((), None)
        if any(supports_value(v, values, prefix) for v in picked.values) or (
            picked.prefix is not None and any(v.startswith(picked.prefix) for v in values)
        ):
            out.append(member)
    return tuple(out)


def _classes(chunk: str, start: int, end: int) -> bool:
    """The top-level statements that may be a class (decorated or not)."""
    return chunk.startswith(("class ", "@"))


def _declaring(chunk: str, start: int, end: int) -> bool:
    """The top-level statements that may be a class declaring values it supports."""
    return _classes(chunk, start, end) and _declares(chunk)


# What a class's body must hold for `own_values` to find anything: a `def supports_X(`,
# or a statement assigning (or annotating) a `supported_Xs` name (`_declares`). Most files
# that name `supported_` only read such lists (`if x not in backend.supported_dtypes:`): no
# class of theirs is parsed. Both patterns open with a literal, which `re` scans for fast.
_DEF_TESTED = re.compile(r"def\s+supports_[a-z]")
_BOUND_LIST = re.compile(r"supported_[a-z]\w*s(?:[ \t)]|\\\n)*(?:=(?!=)|:)")


def _declares(text: str) -> bool:
    """Whether `text` may declare values a class supports: a `def supports_X`, or a
    `supported_Xs` that a statement opens with (after its line's indentation or brackets,
    or a `:` or `;`) and assigns or annotates."""
    if _DEF_TESTED.search(text) is not None:
        return True
    for found in _BOUND_LIST.finditer(text):
        before = text[text.rfind("\n", 0, found.start()) + 1 : found.start()].rstrip(" \t(")
        if before == "" or before.endswith((":", ";")):
            return True
    return False


def _restricted(
    store: Store, stored: StoredSite, text: str, cls: ast.ClassDef, name: str, own: Own
) -> ValuePicked | None:
    values, prefix, declared = own
    base = values_of_base(store, stored, text, cls, f"supported_{name}s")
    if base is None:
        return None
    base_name, base_values = base
    if not base_values or any(supports_value(v, values, prefix) for v in base_values):
        return None
    return ValuePicked(
        flag="--" + name.replace("_", "-"),
        owner=cls.name,
        declared=declared,
        base=base_name,
        base_values=base_values,
        values=values,
        prefix=prefix,
    )


def value_picked_solution(picked: ValuePicked, stored: StoredSite) -> Solution | None:
    """Another value of the setting, one the base supports, with the command line of a
    selection of the site when one gives it. None for an `assert`: an invariant of the
    code, whichever value picked it (another backend is no way out of it either)."""
    if stored.site.kind == SiteKind.ASSERT:
        return None
    first, *rest = picked.base_values
    also = f" (or {', '.join(code(v) for v in rest)})" if rest else ""
    text = (
        f"Choose a value of {code(picked.flag)} that its base {code(picked.base)} declares: "
        f"{code(f'{picked.flag} {first}')}{also}. This code is in the file of "
        f"{code(picked.owner)}, which supports only {_supported(picked)} ({picked.declared}), "
        f"none of those {code(picked.base)} declares: it runs only when {code(picked.flag)} "
        "is given such a value, and another one picks other code."
    )
    return Solution(text=text, knob=picked.flag, kind="setting", fix=_fix(picked, stored))


def value_picked_context(picked: ValuePicked) -> str:
    """What "What it means" says when the way out offered is another value."""
    return (
        f"But a setting picks the code it is in: {code(picked.owner)} supports only "
        f"{_supported(picked)}, so it runs only when {code(picked.flag)} is given one of "
        f"them, and a value its base {code(picked.base)} declares avoids it."
    )


def _supported(picked: ValuePicked) -> str:
    if picked.prefix is not None:
        return f"values of {code(picked.flag)} that start with {code(picked.prefix)}"
    return f"{code(picked.flag)} " + ", ".join(code(v) for v in picked.values)


def _fix(picked: ValuePicked, stored: StoredSite) -> ExampleFix | None:
    """The command line with a value the class supports, then one of the base's; only
    when a setting of the site gives the command that takes flags of the version."""
    command = next((s.command for s in stored.selections if s.command), None)
    command = command or next(
        (k.command for k in stored.knobs if k.kind == KnobKind.FLAG and k.command), None
    )
    if command is None:
        return None
    given = picked.values[0] if picked.values else None
    if given is None:
        return None  # values named by a prefix: which one the user gave is theirs
    return ExampleFix(
        before=f"{command} {picked.flag} {shlex.quote(given)}",
        after=f"{command} {picked.flag} {shlex.quote(picked.base_values[0])}",
        note=f"{code(picked.flag)} picks the code this check is in; only the values "
        f"{code(picked.owner)} supports run it.",
    )
