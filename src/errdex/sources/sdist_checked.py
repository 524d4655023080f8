"""The size of a release's sdist that errdex did not download, being larger than the cap
(`repo_layout.MAX_SDIST_BYTES`).

Without this record, each index of such a release (vllm's 47 MB sdist) asks again: `pip
config list` in a process of its own, then the project pages of every configured index,
about a second of wall time and a third of a second of CPU for an answer that does not
change (a file on the index is never changed: its size stays). The record is kept in the
downloads folder, beside the archives it speaks for, so that a cache sharing those
downloads shares it too. A release with no sdist listed is not recorded: an index that
could not be read hides its files without failing the others' answer, and a release may
gain an sdist later.
"""

from __future__ import annotations

import json
from pathlib import Path

from packaging.utils import canonicalize_name

from errdex.sources.json_record import write_record

_RECORDS = ".sdists"  # hidden: the downloads folder lists archives


def _record(directory: Path, name: str, version: str) -> Path:
    return directory / _RECORDS / f"{canonicalize_name(name)}-{version}.json"


def known_too_large(directory: Path, name: str, version: str, cap: int) -> bool:
    """Whether the index said that the sdist of `name==version` is larger than `cap` bytes."""
    try:
        size = json.loads(_record(directory, name, version).read_text()).get("size")
    except (OSError, ValueError, AttributeError):
        return False  # no record, or an unreadable one: ask the index
    return isinstance(size, int) and size > cap


def remember_too_large(directory: Path, name: str, version: str, size: int) -> None:
    """Record that the index lists the sdist of `name==version` at `size` bytes, past the
    cap; a record that cannot be written is no error (the index is asked again)."""
    write_record(_record(directory, name, version), {"size": size})
