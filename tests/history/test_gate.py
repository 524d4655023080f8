"""`errdex diff --git REPO OLD [NEW] --fail-on ...`: a gate on error changes, run as CI and a
pre-commit hook would run it, on a real git repository with two revisions."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from samples import commit, git

BEFORE = {
    "pyproject.toml": '[project]\nname = "shop"\n',
    "shop/cart.py": """\
        def add(item, count):
            if count < 1:
                raise ValueError(f"count must be at least 1, got {count}")
            if item is None:
                raise KeyError("no item given")
        """,
}
# The message users paste is reworded; the KeyError is gone; a new check arrives.
AFTER = {
    "shop/cart.py": """\
        def add(item, count):
            if count < 1:
                raise ValueError(f"count must be positive, got {count}")
            if count > 99:
                raise ValueError("at most 99 of one item")
        """,
}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "shop"
    root.mkdir()
    git(root, "init", "-q")
    commit(root, BEFORE, "one")
    git(root, "tag", "v1")
    commit(root, AFTER, "two")
    return root


def errdex(*args: str, cwd: Path, home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "ERRDEX_CACHE": str(home / "cache")}
    env.pop("ERRDEX_DB", None)
    return subprocess.run(
        [sys.executable, "-m", "errdex", *args], cwd=cwd, env=env, capture_output=True, text=True
    )


def test_a_reworded_and_a_removed_message_trip_the_gate(repo: Path, tmp_path: Path) -> None:
    done = errdex("diff", "--git", ".", "v1", "main", "--fail-on", "removed,reworded",
                  "--json", cwd=repo, home=tmp_path)  # fmt: skip
    assert done.returncode == 3, done.stderr
    record = json.loads(done.stdout)
    assert record["counts"] == {"added": 1, "removed": 1, "reworded": 1, "moved": 0, "unchanged": 0}
    assert record["reworded"][0]["new"]["template"] == "count must be positive, got {count}"
    assert "1 removed, 1 reworded" in done.stderr
    assert "Traceback" not in done.stderr
    # No database of the user's was touched: the run kept its own.
    assert not (tmp_path / "errdex.db").exists()


def test_changes_not_named_pass_and_markdown_is_for_a_pr_comment(
    repo: Path, tmp_path: Path
) -> None:
    done = errdex("diff", "--git", str(repo), "v1", "main", "--fail-on", "moved", "--markdown",
                  cwd=tmp_path, home=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "count must be positive" in done.stdout
    assert done.stdout.lstrip().startswith("#")


def test_without_new_the_working_tree_is_compared_and_ignored_files_are_not(
    repo: Path, tmp_path: Path
) -> None:
    (repo / ".gitignore").write_text("scratch/\n")
    (repo / "scratch").mkdir()
    (repo / "scratch" / "try.py").write_text("raise RuntimeError('only on my machine')\n")
    (repo / "shop" / "cart.py").write_text(
        "def add(item, count):\n    raise ValueError('the shop is closed')\n"
    )
    done = errdex("diff", "--git", ".", "HEAD", "--fail-on", "any", "--json",
                  cwd=repo, home=tmp_path)  # fmt: skip
    assert done.returncode == 3, done.stderr
    record = json.loads(done.stdout)
    assert record["new"] == "working-tree"
    texts = json.dumps(record)
    assert "the shop is closed" in texts
    assert "only on my machine" not in texts


def test_bad_arguments_are_one_line_and_exit_2(repo: Path, tmp_path: Path) -> None:
    for args in (["--git", ".", "v1", "main", "--fail-on", "renamed"],
                 ["--git", ".", "nope", "main"],
                 ["--git", ".", "a", "b", "c"]):  # fmt: skip
        done = errdex("diff", *args, cwd=repo, home=tmp_path)
        assert done.returncode == 2, (args, done.stderr)
        assert "Traceback" not in done.stderr


@pytest.mark.network
@pytest.mark.skipif(
    not Path(sys.executable).with_name("pre-commit").exists(),
    reason="pre-commit, a dev dependency, is not installed beside this Python",
)
def test_the_shipped_pre_commit_hook_blocks_a_reworded_message(repo: Path, tmp_path: Path) -> None:
    """The real pre-commit installs errdex from this checkout as its hook's environment (from
    the package index, as it would for a user) and runs the hook on a staged change."""
    project = Path(__file__).resolve().parents[2]
    pre_commit = Path(sys.executable).with_name("pre-commit")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit"),
           "ERRDEX_CACHE": str(tmp_path / "cache")}  # fmt: skip
    env.pop("ERRDEX_DB", None)
    (repo / "shop" / "cart.py").write_text(
        "def add(item, count):\n    if count < 1:\n        raise ValueError('bad count')\n"
    )
    git(repo, "add", "-A")
    done = subprocess.run(
        [str(pre_commit), "try-repo", str(project), "errdex-errors-changed", "--verbose"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "reworded" in done.stdout
