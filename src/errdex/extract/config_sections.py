"""A configuration class's keys that are sections of their own, and the keys it requires.

`hisparse_config: HiSparseConfig | None = None` in `AttentionConfig` is a section: the
key's JSON value is an object of `HiSparseConfig`'s own keys (`--attention-config
'{"hisparse_config": {}}'` turns HiSparse on with its defaults). Whether `{}` is such an
object depends on the section's class: one that requires no key (each has a default)
takes it. A fix's "before" line that must give the section (the check reads `is not
None`) writes `{}` where the linker finds the class requires none.
"""

from __future__ import annotations

import ast

from errdex.extract.conditions import dotted_name
from errdex.extract.shapes import annotated_class
from errdex.lazy_re import lazy_compile

_CONFIG_NAME = lazy_compile(r"^[A-Z]\w*Config$")


def section_keys(body: list[ast.stmt], keys: tuple[str, ...]) -> dict[str, str]:
    """Those of `keys` declared as one configuration class, alone or or'ed with None
    (`HiSparseConfig | None`, `Optional[HiSparseConfig]`, `Union[mod.HiSparseConfig, None]`,
    a string annotation too): the key → that class's short name."""
    found: dict[str, str] = {}
    for item in body:
        if not (isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)):
            continue
        if item.target.id not in keys:
            continue
        named = annotated_class(item.annotation)
        short = named.rpartition(".")[2] if named is not None else ""
        if _CONFIG_NAME.search(short):
            found[item.target.id] = short
    return found


def required_keys(body: list[ast.stmt], keys: tuple[str, ...]) -> tuple[str, ...]:
    """Those of `keys` without a default: `x: int`, `x: int = Field(gt=0)`, `Field(...)`
    (a `Field`/`field` call gives one with `default`, `default_factory`, or a first
    argument other than `...`)."""
    found: list[str] = []
    for item in body:
        if not (isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)):
            continue
        if item.target.id in keys and not _has_default(item.value):
            found.append(item.target.id)
    return tuple(found)


def _has_default(value: ast.expr | None) -> bool:
    if value is None:
        return False
    if not isinstance(value, ast.Call):
        return True
    name = dotted_name(value.func) or ""
    if name.rpartition(".")[2] not in ("Field", "field"):
        return True
    if any(k.arg in ("default", "default_factory") for k in value.keywords):
        return True
    first = value.args[0] if value.args else None
    return first is not None and not (isinstance(first, ast.Constant) and first.value is ...)
