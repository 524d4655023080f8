"""`%load_ext errdex` in a real IPython shell, fed the way a user types."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from integration_samples import RAISE_IN_CLICK, isolated_env


def ipython(lines: str, tmp_path: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "IPython", "--simple-prompt", "--no-banner", "--colors=NoColor",
         "--HistoryManager.enabled=False"],
        input=lines + "exit\n",
        env=isolated_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=300,
    )  # fmt: skip
    return done.stdout + done.stderr


def test_the_summary_follows_the_cells_traceback(tmp_path: Path) -> None:
    out = ipython("%load_ext errdex\n" + RAISE_IN_CLICK, tmp_path)
    assert "BadParameter" in out
    assert out.index("BadParameter") < out.index("errdex: raised at click/types.py:")


def test_unloading_takes_it_away(tmp_path: Path) -> None:
    out = ipython("%load_ext errdex\n%unload_ext errdex\n" + RAISE_IN_CLICK, tmp_path)
    assert "BadParameter" in out
    assert "errdex: raised at" not in out
