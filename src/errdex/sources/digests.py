"""An archive's sha256, kept beside its size and modification time so that a wheel of
hundreds of megabytes is hashed once, not on each lookup that reads a few of its members.

A file errdex downloads has its record written by the download, from the hash it checked
while the bytes arrived (`remember_sha256`), and kept in the downloads folder itself
(`records_beside`): a first index right after the download, or one from another cache
folder sharing those downloads, reads the record instead of hashing the file again (a
quarter of a second and 336 MB read for vllm's wheel). Any other archive's record is kept
in the cache's `digests` folder.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from platformdirs import user_cache_dir

from errdex.sources.json_record import write_record

_CHUNK = 1 << 20
_RECORDS_BESIDE = ".digests"  # hidden: the downloads folder lists archives


def records_beside(path: Path) -> Path:
    """The folder that keeps the records of the files in `path`'s folder."""
    return path.parent / _RECORDS_BESIDE


def _kept_at(path: Path, records: Path | None) -> Path:
    if records is not None:
        return records / f"{path.name}.json"
    root = os.environ.get("ERRDEX_CACHE") or user_cache_dir("errdex")
    name = hashlib.sha256(os.fsencode(path.resolve())).hexdigest()[:32]
    return Path(root) / "digests" / f"{name}.json"


def _stamp(path: Path) -> list[int]:
    info = path.stat()
    return [info.st_size, info.st_mtime_ns]


def archive_sha256(path: Path, records: Path | None = None) -> str:
    """The hex sha256 of the file at `path`, from the record kept for it (in `records` by
    the file's name, else in the cache) when the file's size and modification time are
    those recorded (a file changed in place is hashed anew).

    Raises OSError when the file cannot be read; a record that cannot be kept is no error.
    """
    stamp = _stamp(path)
    try:
        record = json.loads(_kept_at(path, records).read_text())
        if record.get("stamp") == stamp and isinstance(record.get("sha256"), str):
            return str(record["sha256"])
    except (OSError, ValueError, AttributeError):
        pass  # no record yet, or an unreadable one: hash the file
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(_CHUNK), b""):
            digest.update(chunk)
    value = digest.hexdigest()
    _keep(path, stamp, value, records)
    return value


def remember_sha256(
    path: Path, value: str, records: Path | None = None, *, uploaded: str | None = None
) -> None:
    """Record `value` as the sha256 of the file at `path` as it now is (a download whose
    hash was checked as it was written), and when the index says it was uploaded."""
    try:
        stamp = _stamp(path)
    except OSError:
        return
    _keep(path, stamp, value, records, uploaded)


def recorded_upload_time(path: Path, records: Path | None = None) -> str | None:
    """When the index received the file at `path`, as its download recorded it: a release's
    date where the archive's own file times are a reproducible build's fixed one."""
    try:
        record = json.loads(_kept_at(path, records).read_text())
        if record.get("stamp") == _stamp(path) and isinstance(record.get("uploaded"), str):
            return str(record["uploaded"])
    except (OSError, ValueError, AttributeError):
        pass
    return None


def _keep(
    path: Path, stamp: list[int], value: str, records: Path | None, uploaded: str | None = None
) -> None:
    kept = _kept_at(path, records)
    record: dict[str, object] = {"stamp": stamp, "sha256": value}
    if uploaded is not None:
        record["uploaded"] = uploaded
    write_record(kept, record)
