"""Hostile input to the real command, in a subprocess: a clear line on stderr and an exit
code, never a traceback, a hang, or anything a terminal acts on."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from cli_process import SRC, run_errdex

from samples import write_package


def errdex(
    tmp_path: Path, *args: str, paste: bytes | None = None, cache: Path | None = None
) -> tuple[int, str, str]:
    more = {"ERRDEX_CACHE": str(cache)} if cache is not None else {}
    code, out, err = run_errdex(*args, data=tmp_path, paste=paste, **more)
    assert "Traceback" not in out + err
    assert "\x1b" not in out + err
    return code, out, err


def one_line(err: str) -> str:
    assert err.startswith("errdex: ") and err.count("\n") == 1, err
    return err


@pytest.fixture
def db(tmp_path: Path) -> str:
    """A database holding one small project, `demo` 1.0."""
    pkg = write_package(tmp_path / "demo", {"demo/m.py": "raise ValueError('bad value')\n"})
    path = str(tmp_path / "demo.db")
    code, _, err = errdex(tmp_path, "index", str(pkg), "--version", "1.0", "--db", path)
    assert code == 0, err
    return path


@pytest.mark.parametrize(
    ("paste", "exit_code"),
    [
        (b"ValueError: bad\x00value", 2),  # NUL bytes: binary, refused
        (b"ValueError: \x1b[31mbad value\x1b[0m\x1b]0;title\x07", 0),  # ANSI escapes
        (b"ValueError: bad value in caf\xe9.txt \xc3(", 0),  # invalid UTF-8 (Latin-1, cut)
        (b"ValueError: " + b"x" * 10_000_000, 1),  # 10 MB on one line
    ],
    ids=["nul", "ansi", "invalid-utf8", "10mb-line"],
)
def test_a_hostile_paste(tmp_path: Path, db: str, paste: bytes, exit_code: int) -> None:
    code, _, err = errdex(tmp_path, "lookup", "-", "--db", db, "--no-auto-index", paste=paste)
    assert code == exit_code, err
    if exit_code == 2:
        assert "looks binary" in one_line(err)


@pytest.mark.parametrize("release", ["not a requirement", "demo==", "demo>=1", "de\x1bmo==1"])
def test_a_release_that_is_not_a_requirement(tmp_path: Path, db: str, release: str) -> None:
    code, _, err = errdex(tmp_path, "lookup", "ValueError: x", "--package", release, "--db", db)
    assert code == 2
    assert "not a NAME==VERSION requirement" in one_line(err)


def test_a_database_that_is_no_sqlite_file(tmp_path: Path) -> None:
    path = tmp_path / "text.db"
    path.write_text("not a database\n" * 100)
    for command in (["list"], ["lookup", "ValueError: x"], ["show", "0" * 16]):
        code, _, err = errdex(tmp_path, *command, "--db", str(path))
        assert code == 2
        assert "file is not a database" in one_line(err)


def test_a_database_of_a_newer_errdex(tmp_path: Path, db: str) -> None:
    with sqlite3.connect(db) as conn:
        conn.execute("INSERT INTO schema_migrations VALUES ('9999_from_the_future', 'now')")
    for command in (["list"], ["diff", "demo", "1.0", "1.0"], ["export", "demo", "--out", "x"]):
        code, _, err = errdex(tmp_path, *command, "--db", db)
        assert code == 2
        assert "written by a newer errdex" in one_line(err)


def test_a_cache_folder_that_cannot_be_made(tmp_path: Path) -> None:
    """Was a NotADirectoryError traceback out of `index`."""
    (tmp_path / "a-file").write_text("")
    pkg = write_package(tmp_path / "demo", {"demo/m.py": "raise ValueError('x')\n"})
    code, _, err = errdex(tmp_path, "index", str(pkg), cache=tmp_path / "a-file" / "cache")
    assert code == 2
    assert "cannot open the facts cache" in one_line(err) and "Not a directory" in err


@pytest.mark.parametrize("under", ["a-file/out", "/dev/null"])
def test_an_export_folder_that_cannot_be_written(tmp_path: Path, db: str, under: str) -> None:
    """Was a FileNotFoundError or NotADirectoryError traceback out of `export`."""
    (tmp_path / "a-file").write_text("")
    out = under if under.startswith("/") else str(tmp_path / under)
    code, _, err = errdex(tmp_path, "export", "demo", "--out", out, "--db", db)
    assert code == 2
    assert f"cannot export into {out}: Not a directory" in one_line(err)


def test_run_of_a_script_that_does_not_compile_shows_no_errdex_frame(
    tmp_path: Path, db: str
) -> None:
    script = tmp_path / "broken.py"
    script.write_bytes(b"print('hi')\x00\n")
    done = subprocess.run(
        [sys.executable, "-m", "errdex", "run", str(script), "--db", db],
        env={**os.environ, "PYTHONPATH": str(SRC)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1
    assert done.stderr.strip().splitlines()[-1].startswith("SyntaxError: source code")
    assert "errdex" not in done.stderr and "runpy" not in done.stderr


@pytest.mark.parametrize(
    ("command", "said"),
    [
        (["index"], "give at least one SOURCE"),
        (["index", "x", "--tags", "v*", "--version", "1"], "--tags names each version"),
        (["diff", "demo", "1.0"], "give PROJECT OLD NEW"),
        (
            ["explain", "0" * 16, "--project", "d", "--llm-url", "http://x", "--llm-model", "m"],
            "give an error ID or --project",
        ),
    ],
)
def test_a_usage_error_a_command_finds_is_no_bug(
    tmp_path: Path, command: list[str], said: str
) -> None:
    """click's usage errors pass through errdex's catch-all for its own bugs."""
    code, _, err = errdex(tmp_path, *command)
    assert code == 2
    assert err.startswith("Usage: ") and f"Error: {said}" in err
    assert "internal error" not in err
