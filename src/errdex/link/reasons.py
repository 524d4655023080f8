"""Expand reasons lists: items appended in the raising function and in helpers it calls."""

from __future__ import annotations

from collections import defaultdict

import msgspec

from errdex.extract.shapes import OWN_OBJECT
from errdex.facts import Condition, FileFacts, ReasonsCall, ReasonsList, Variant

_MAX_DEPTH = 4  # helpers calling helpers: deeper chains are not followed


class ReasonsIndex:
    """The functions of a version that return reasons lists, by module and by name."""

    def __init__(self, files: list[FileFacts]) -> None:
        self._by_qualname: dict[tuple[str, str], tuple[ReasonsList, FileFacts]] = {}
        self._by_name: dict[str, list[tuple[str, ReasonsList, FileFacts]]] = defaultdict(list)
        for facts in files:
            for qualname, built in facts.reason_builders.items():
                self._by_qualname[(facts.module, qualname)] = (built, facts)
                name = qualname.rsplit(".", 1)[-1]
                self._by_name[name].append((qualname, built, facts))

    def expand(
        self,
        reasons: ReasonsList,
        facts: FileFacts,
        class_name: str | None,
        known: tuple[Condition, ...] = (),
    ) -> tuple[Variant, ...]:
        """Every variant of a reasons list, helpers' items carrying the call's guard too.

        `known` are the site's own conditions: a call's guard repeats them, so they are
        left out of each variant's.
        """
        out: list[Variant] = []
        self._expand(reasons, facts, class_name, 0, set(), out)
        if not known:
            return tuple(out)
        return tuple(
            msgspec.structs.replace(v, conditions=tuple(c for c in v.conditions if c not in known))
            for v in out
        )

    def _expand(
        self,
        reasons: ReasonsList,
        facts: FileFacts,
        class_name: str | None,
        depth: int,
        visiting: set[tuple[str, str]],
        out: list[Variant],
    ) -> None:
        out.extend(reasons.variants)
        if depth >= _MAX_DEPTH:
            return
        for call in reasons.calls:
            found = self._find(call, facts, class_name)
            if found is None:
                continue
            qualname, built, where = found
            key = (where.module, qualname)
            if key in visiting:
                continue
            inner: list[Variant] = []
            self._expand(
                built,
                where,
                qualname.rpartition(".")[0] or None,
                depth + 1,
                visiting | {key},
                inner,
            )
            for variant in inner:
                out.append(
                    msgspec.structs.replace(
                        variant,
                        conditions=call.conditions + variant.conditions,
                        file=variant.file or (where.path if where is not facts else None),
                    )
                )

    def _find(
        self, call: ReasonsCall, facts: FileFacts, class_name: str | None
    ) -> tuple[str, ReasonsList, FileFacts] | None:
        if call.receiver in OWN_OBJECT and class_name:
            qualname = f"{class_name}.{call.callee}"
            hit = self._by_qualname.get((facts.module, qualname))
            if hit is not None:
                return qualname, hit[0], hit[1]
        named = self._by_name.get(call.callee, [])
        same_module = [n for n in named if n[2] is facts]
        if same_module:
            return same_module[0]
        return named[0] if len(named) == 1 else None
