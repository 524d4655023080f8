"""Copied roots: `self.X.rest`, where a constructor copied another object's attribute chain
onto `self.X`, is that chain's `rest`.

A KV connector reads `self._kv_transfer_config.kv_connector_extra_config.get("num_cpu_blocks")`;
its base's `__init__` ran `self._kv_transfer_config = vllm_config.kv_transfer_config` (under
`if vllm_config.kv_transfer_config is not None:`, the `else` raising). No flag is named for
`_kv_transfer_config`, but the dict read is `vllm_config.kv_transfer_config.kv_connector_
extra_config`: a key of `--kv-transfer-config`'s JSON. The chain is taken from the class the
method belongs to, or the nearest base that assigns the attribute, where the class:

- copies it once, at the top of its own `__init__` (`ClassFact.attr_chains`), or
- assigns it once, under an `if` that tests that very chain for being there (`AttrSet`:
  `if cfg.x is not None: self.x = cfg.x`), so that whenever it is set it holds the chain;

and no class nearer the method's own assigns it (`ClassFact.attr_classes` names every
attribute a class's text assigns). Anything else (a conversion, a call, two assignments, a
guard on something else) gives nothing.
"""

from __future__ import annotations

from typing import NamedTuple

from errdex.extract.shapes import OWN_OBJECT
from errdex.facts import AttrSet, FileFacts
from errdex.link.resolve import Namespace


class CopiedRoot(NamedTuple):
    """`self.X.rest` written as the chain the constructor copied onto `self.X`."""

    dotted: str  # `vllm_config.kv_transfer_config.kv_connector_extra_config`
    facts: FileFacts  # the file of the class that copies it: the chain's names are its own
    class_name: str  # that class
    via: str  # how: "`self._kv_transfer_config` is `vllm_config.kv_transfer_config` (...)"


class CopiedRoots:
    """The chains constructors copy onto `self`, looked up once per (class, attribute)."""

    def __init__(self, names: Namespace, sets: dict[str, list[tuple[AttrSet, FileFacts]]]) -> None:
        self._names = names
        self._sets = sets  # attribute → its assignments under an `if` (`KnobIndex._sets`)
        self._memo: dict[tuple[str, str, str], tuple[str, FileFacts, str, int] | None] = {}

    def of(self, dotted: str, facts: FileFacts, class_name: str | None) -> CopiedRoot | None:
        """`dotted` (`self.X.rest`, read in a method of `class_name`) with the chain the
        constructor copied onto `self.X` in place of it; None when there is none."""
        root, _, rest = dotted.partition(".")
        attr, dot, tail = rest.partition(".")
        if root not in OWN_OBJECT or not dot or not tail or class_name is None:
            return None
        key = (facts.module, class_name, attr)
        if key not in self._memo:
            self._memo[key] = self._copied(facts, class_name, attr)
        found = self._memo[key]
        if found is None:
            return None
        chain, where, owner, line = found
        at = f"{where.path}:{line}" if line else f"`{owner}.__init__`"
        via = f"`self.{attr}` is `{chain}` (set in {at})"
        return CopiedRoot(f"{chain}.{tail}", where, owner, via)

    def _copied(
        self, facts: FileFacts, class_name: str, attr: str
    ) -> tuple[str, FileFacts, str, int] | None:
        for resolved in self._names.class_and_bases(facts, class_name):
            fact = resolved.fact
            chain = fact.attr_chains.get(attr)
            if chain is not None:
                return chain, resolved.file, fact.qualname, 0
            guarded = self._guarded(resolved.file, fact.qualname, attr)
            if guarded is not None:
                return guarded[0], resolved.file, fact.qualname, guarded[1]
            if attr in fact.attr_classes:
                return None  # the class nearest the method assigns it some other way
        return None

    def _guarded(self, facts: FileFacts, class_name: str, attr: str) -> tuple[str, int] | None:
        """The chain the class assigns `self.attr` once under an `if` that tests that chain
        for being there, with the line; None for any other assignment."""
        sets = [
            found
            for found, where in self._sets.get(attr, ())
            if where is facts and found.class_name == class_name
        ]
        if len(sets) != 1:
            return None
        found = sets[0]
        value = found.value
        if found.target != f"self.{attr}" or not _chain(value):
            return None
        if found.guard not in (value, f"{value} is not None"):
            return None
        return value, found.line


def _chain(value: str) -> bool:
    """Whether `value` is an attribute chain of another object (`cfg.transfer_config`)."""
    parts = value.split(".")
    return len(parts) > 1 and parts[0] not in OWN_OBJECT and all(p.isidentifier() for p in parts)
