"""What `explain/value_picked.py` finds of a class a setting's value picks, as the page's
facts hold it (apart, so that the facts need not import the rule that reads them)."""

from __future__ import annotations

import msgspec


class ValuePicked(msgspec.Struct, frozen=True):
    """A class of the site's file picked only for values of `flag` its base does not
    declare: what it supports (`values`, or values starting with `prefix`), where, and
    the base's values."""

    flag: str  # --kv-cache-dtype
    owner: str  # the class: RocmOctaveAttentionBackend
    declared: str  # how it declares them: `supported_kv_cache_dtypes`, line 95
    base: str  # the base declaring the values every class has: AttentionBackend
    base_values: tuple[str, ...]
    values: tuple[str, ...] = ()
    prefix: str | None = None
    # a selection's setting → the members standing in for this code that support one of
    # `values` too (naming another alone must keep the value: the others refuse it)
    others: dict[str, tuple[str, ...]] = {}


class Taken(msgspec.Struct, frozen=True):
    """Of the values of a setting the class of the member picking the site's code takes,
    those a member standing in takes as well, where it takes only some of them
    (`explain/stand_ins.py`): the setting's flag and the values as the flag takes them;
    with `refused`, the values it refuses instead (its class decides the others by calls,
    so which of them it takes is not told), and in `shared` those others, in the order
    the class of the member picking the site's code lists them: a fix shows it with the
    first of them."""

    flag: str  # --dtype
    values: tuple[str, ...]  # bfloat16
    refused: bool = False
    shared: tuple[str, ...] = ()  # with `refused`: auto, float16, bfloat16
