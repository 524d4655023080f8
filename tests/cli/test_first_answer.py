"""`errdex lookup` into an installed package never indexed: the answer comes from the files
the paste needs, is marked partial, equals the whole index's answer, and the package is
indexed whole right after."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest


def real_pygments_traceback() -> str:
    """A real traceback out of pygments (343 files; installed wherever errdex is)."""
    code = "import pygments.lexers\npygments.lexers.get_lexer_by_name('no-such-language')\n"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert "ClassNotFound" in done.stderr
    return done.stderr


def errdex(
    tmp_path: Path, db: str, *args: str, paste: str | None = None
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "ERRDEX_DB": str(tmp_path / db), "ERRDEX_CACHE": str(tmp_path / "cache")}
    return subprocess.run(
        [sys.executable, "-m", "errdex", *args],
        input=paste,
        env=env,
        capture_output=True,
        text=True,
    )


def test_the_first_answer_is_partial_right_and_completed(tmp_path: Path) -> None:
    paste = real_pygments_traceback()
    first = errdex(tmp_path, "first.db", "lookup", "-", "--json", paste=paste)
    assert first.returncode == 0, first.stderr
    answer = json.loads(first.stdout)
    (partial,) = answer["partial_index"]
    assert partial["project"].lower() == "pygments"
    assert "indexing the rest now" in first.stderr

    # The whole package indexed first, in another database: the same site first.
    indexed = errdex(tmp_path, "whole.db", "index", "installed:pygments", "--json")
    assert indexed.returncode == 0, indexed.stderr
    assert partial["files"] < json.loads(indexed.stdout)[0]["files"] / 2
    whole = json.loads(errdex(tmp_path, "whole.db", "lookup", "-", "--json", paste=paste).stdout)
    assert whole["partial_index"] == []
    best, expected = answer["matches"][0], whole["matches"][0]
    assert (best["file"], best["line"], best["id"]) == (
        expected["file"],
        expected["line"],
        expected["id"],
    )

    # After the answer, the package was completed: the same sites as the whole index.
    listed = json.loads(
        errdex(tmp_path, "first.db", "list", "--project", "Pygments", "--json").stdout
    )
    listed_whole = json.loads(
        errdex(tmp_path, "whole.db", "list", "--project", "Pygments", "--json").stdout
    )
    assert sorted(s["id"] for s in listed) == sorted(s["id"] for s in listed_whole)
    again = json.loads(errdex(tmp_path, "first.db", "lookup", "-", "--json", paste=paste).stdout)
    assert again["partial_index"] == []


def test_a_bare_message_with_its_qualified_class_is_answered_first_too(tmp_path: Path) -> None:
    paste = real_pygments_traceback().strip().splitlines()[-1]  # the last line alone
    first = errdex(tmp_path, "first.db", "lookup", paste, "--json")
    assert first.returncode == 0, first.stderr
    answer = json.loads(first.stdout)
    assert [p["project"].lower() for p in answer["partial_index"]] == ["pygments"]
    assert answer["matches"][0]["file"] == "pygments/lexers/__init__.py"


@pytest.mark.network
def test_a_release_named_with_package_is_answered_from_its_wheel(tmp_path: Path) -> None:
    paste = "no lexer for alias 'no-such-language' found"
    first = errdex(tmp_path, "first.db", "lookup", "--package", "pygments==2.17.2", paste,
                   "--json")  # fmt: skip
    assert first.returncode == 0, first.stderr
    answer = json.loads(first.stdout)
    (partial,) = answer["partial_index"]
    assert (partial["project"], partial["version"]) == ("Pygments", "2.17.2")
    assert answer["matches"][0]["file"] == "pygments/lexers/__init__.py"
    assert answer["matches"][0]["version"] == "2.17.2"
    assert "indexing Pygments 2.17.2 (first the" in first.stderr


def test_a_package_that_is_not_a_release_is_one_clear_line(tmp_path: Path) -> None:
    done = errdex(tmp_path, "first.db", "lookup", "--package", "pygments>=2", "some error")
    assert done.returncode != 0
    assert done.stderr.strip().splitlines() == [
        "errdex: not a NAME==VERSION requirement: pygments>=2"
    ]
