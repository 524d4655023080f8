"""Newest-first order of version labels: by PEP 440 when they parse, else by date."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from packaging.version import Version

T = TypeVar("T")


def parse_label(label: str) -> Version | None:
    """The label as a PEP 440 version (`v1.2` too), or None for a branch, sha or odd tag."""
    # Imported here: a store holding one version of a project (a first answer's) orders
    # nothing, and packaging's versions cost a first answer more than that order.
    from packaging.version import InvalidVersion, Version

    try:
        return Version(label)
    except InvalidVersion:
        return None


def newest_first(
    items: Sequence[T], label: Callable[[T], str], date: Callable[[T], str]
) -> list[T]:
    """Order `items` newest first.

    Labels that parse as versions are ordered by version. A label that does not (`main`,
    a short sha) goes right after the newest parsed version whose date is not later than
    its own, so a branch indexed today sorts above every release. `date` gives an ISO
    8601 string (the commit date, else when it was indexed).
    """
    if len(items) < 2:
        return list(items)
    parsed = sorted(
        ((v, item) for item in items if (v := parse_label(label(item))) is not None),
        key=lambda pair: (pair[0], date(pair[1])),
    )
    others = sorted(
        (item for item in items if parse_label(label(item)) is None),
        key=lambda item: (date(item), label(item)),
    )
    ordered: list[T] = [item for _, item in parsed]
    # Oldest first while merging: each unparsed label after the releases not newer than it.
    for item in others:
        when = date(item)
        position = 0
        for index, existing in enumerate(ordered):
            if date(existing) <= when:
                position = index + 1
        ordered.insert(position, item)
    ordered.reverse()
    return ordered


def utc_date(text: str | None, fallback: str) -> str:
    """An ISO 8601 date as comparable UTC text; `fallback` when missing or unreadable."""
    if not text:
        return fallback
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        return fallback
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.astimezone(UTC).isoformat(timespec="seconds")
