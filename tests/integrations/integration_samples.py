"""What the integration tests share: an error raised inside an installed package (click, a
dependency of errdex, so it is installed wherever the tests run) and an isolated database."""

from __future__ import annotations

import os
from pathlib import Path

# `Choice.convert` fails through click's own `fail` helper, in click/types.py.
RAISE_IN_CLICK = "import click\nclick.Choice(['red', 'green']).convert('blue', None, None)\n"


def isolated_env(tmp: Path) -> dict[str, str]:
    """The environment for a child process: a database and a cache of the test's own."""
    env = {**os.environ, "ERRDEX_DB": str(tmp / "errdex.db"), "ERRDEX_CACHE": str(tmp / "cache")}
    env.pop("ERRDEX_HOOK", None)
    return env
