"""The real `errdex` command in a child process, run from this tree's sources."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"


def run_errdex(
    *args: str,
    data: Path,
    paste: bytes | None = None,
    path: tuple[Path, ...] = (),
    **env: str,
) -> tuple[int, str, str]:
    """`python -m errdex ARGS` (exit code, stdout, stderr) with its database and cache
    under `data`, `path` before the sources on its PYTHONPATH, `env` added to its
    environment (ERRDEX_DEBUG unset unless given)."""
    full = dict(os.environ)
    full.pop("ERRDEX_DEBUG", None)
    full["ERRDEX_DB"] = str(data / "errdex.db")
    full["ERRDEX_CACHE"] = str(data / "cache")
    full["PYTHONPATH"] = os.pathsep.join(str(p) for p in (*path, SRC))
    full.update(env)
    done = subprocess.run(
        [sys.executable, "-m", "errdex", *args],
        env=full,
        input=paste,
        capture_output=True,
        timeout=120,
    )
    out, err = (s.decode("utf-8", "replace") for s in (done.stdout, done.stderr))
    return done.returncode, out, err
