"""An archive's sha256, kept beside its size and modification time so that a wheel of
hundreds of megabytes is hashed once, not on each lookup that reads a few of its members."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from platformdirs import user_cache_dir

_CHUNK = 1 << 20


def _kept_at(path: Path) -> Path:
    root = os.environ.get("ERRDEX_CACHE") or user_cache_dir("errdex")
    name = hashlib.sha256(os.fsencode(path.resolve())).hexdigest()[:32]
    return Path(root) / "digests" / f"{name}.json"


def archive_sha256(path: Path) -> str:
    """The hex sha256 of the file at `path`, from the record kept for it when the file's size
    and modification time are those recorded (a file changed in place is hashed anew).

    Raises OSError when the file cannot be read; a record that cannot be kept is no error.
    """
    info = path.stat()
    stamp = [info.st_size, info.st_mtime_ns]
    kept = _kept_at(path)
    try:
        record = json.loads(kept.read_text())
        if record.get("stamp") == stamp and isinstance(record.get("sha256"), str):
            return str(record["sha256"])
    except (OSError, ValueError, AttributeError):
        pass  # no record yet, or an unreadable one: hash the file
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(_CHUNK), b""):
            digest.update(chunk)
    value = digest.hexdigest()
    try:
        kept.parent.mkdir(parents=True, exist_ok=True)
        scratch = kept.with_suffix(f".{os.getpid()}.tmp")
        scratch.write_text(json.dumps({"stamp": stamp, "sha256": value}))
        scratch.replace(kept)
    except OSError:
        pass  # a cache that cannot be written only costs time next run
    return value
