"""Value flow through an object: `self.X` back to the constructor parameter it was kept from,
or to the attribute chain the constructor copied there.

`LLMEngine.get_metrics` asserts `self.log_stats`; `LLMEngine.__init__` ran `self.log_stats =
log_stats`, so the value tested is what the object's builder passed as `log_stats`
(`cls(log_stats=not engine_args.disable_log_stats)` in `from_engine_args`), and the walk
of passed arguments (`link.passed`) goes on from there to the setting. The extraction keeps
each class's such attributes (`ClassFact.attr_from`: kept as is or negated, assigned at the
top of `__init__` and nowhere else in the class); here they are looked up once per (class,
attribute), the class the one whose method reads `self.X` (a base's constructor may be
overridden, and a subclass may set the attribute in its own methods: neither is followed).

A `not` on the way (`self.x = not y`, `f(x=not y)`) is kept as a negation of the setting
found: `log_stats` must be true, so `disable_log_stats` must be false.

A constructor may copy a settings object's field instead (`self.kv_cache_dtype =
cache_config.cache_dtype if cache_config is not None else "auto"`, `ClassFact.attr_chains`):
`self.X` then holds what the field's flag gives (`--kv-cache-dtype`), which `KnobIndex.copied`
resolves as the class's own method would read the chain.
"""

from __future__ import annotations

from typing import NamedTuple

from errdex.extract.shapes import OWN_OBJECT
from errdex.facts import FileFacts
from errdex.link.resolve import Namespace

NOT = "not "  # how `CallSite.passes` and `ClassFact.attr_from` write a negated name


class KeptFrom(NamedTuple):
    """The constructor parameter an attribute holds."""

    module: str
    init: str  # `LLMEngine.__init__`
    param: str
    position: int  # among the constructor's parameters after `self`
    negated: bool


class AttributeSources:
    """The constructor parameters behind `self.X` reads, per (class, attribute)."""

    def __init__(self, names: Namespace) -> None:
        self._names = names
        self._memo: dict[tuple[str, str, str], KeptFrom | None] = {}

    def kept_from(self, facts: FileFacts, class_name: str | None, dotted: str) -> KeptFrom | None:
        """What `self.X` (`dotted`) read in a method of `class_name` holds, when its own
        constructor kept a parameter there; None for anything else."""
        if class_name is None:
            return None
        root, _, attr = dotted.partition(".")
        if root not in OWN_OBJECT or not attr or "." in attr:
            return None
        key = (facts.module, class_name, attr)
        if key not in self._memo:
            self._memo[key] = self._kept_from(facts.module, class_name, attr)
        return self._memo[key]

    def copied_from(self, facts: FileFacts, class_name: str | None, dotted: str) -> str | None:
        """The attribute chain `self.X` (`dotted`) read in a method of `class_name` holds,
        when its own constructor copied one there (`ClassFact.attr_chains`:
        `self.kv_cache_dtype = cache_config.cache_dtype`); None for anything else."""
        if class_name is None:
            return None
        root, _, attr = dotted.partition(".")
        if root not in OWN_OBJECT or not attr or "." in attr:
            return None
        resolved = self._names.classes.get(f"{facts.module}.{class_name}")
        return resolved.fact.attr_chains.get(attr) if resolved is not None else None

    def _kept_from(self, module: str, class_name: str, attr: str) -> KeptFrom | None:
        resolved = self._names.classes.get(f"{module}.{class_name}")
        if resolved is None:
            return None
        value = resolved.fact.attr_from.get(attr)
        if value is None:
            return None
        negated, param = negation(value)
        params = resolved.fact.init_params
        if param not in params:
            return None
        return KeptFrom(module, f"{class_name}.__init__", param, params.index(param), negated)


def negation(value: str) -> tuple[bool, str]:
    """(whether `value` is written negated, the name negated or not)."""
    if value.startswith(NOT):
        return True, value[len(NOT) :]
    return False, value
