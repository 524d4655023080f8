"""Small JSON records that errdex keeps beside its downloads (hashes, sizes).

Several processes may share one downloads folder, so a record is written to a name of this
process first and renamed: a reader sees the whole record or none. A record that cannot be
written is no error: it only saves work, and the next run does that work again.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path


def write_record(path: Path, record: dict[str, object]) -> None:
    """Write `record` to `path` whole or not at all; an `OSError` is swallowed."""
    scratch = path.with_name(f".{path.name}.{os.getpid()}.part")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        scratch.write_text(json.dumps(record))
        scratch.replace(path)
    except OSError:
        with contextlib.suppress(OSError):
            scratch.unlink(missing_ok=True)
