"""`errdex lookup` from the outside: answers, exit codes, and input it must survive."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from errdex.cli import main

SOURCE = """
    def connect(host, retries):
        if retries < 0:
            raise ValueError(f"retries must be >= 0, got {retries}")
    """


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    root = tmp_path_factory.mktemp("net")
    (root / "net").mkdir()
    (root / "net" / "client.py").write_text(textwrap.dedent(SOURCE))
    path = str(root / "errdex.db")
    env = {"ERRDEX_DB": path, "ERRDEX_CACHE": str(root / "cache")}
    result = CliRunner(env=env).invoke(main, ["index", str(root), "--project", "net"])
    assert result.exit_code == 0, result.stderr
    return path


def lookup(db: str, *args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner(env={"ERRDEX_DB": db}).invoke(main, ["lookup", *args], input=stdin)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def test_found_as_json(db: str) -> None:
    code, out, _ = lookup(db, "ValueError: retries must be >= 0, got -1", "--json")
    assert code == 0
    (match,) = json.loads(out)["matches"]
    assert (match["file"], match["line"], match["values"]) == (
        "net/client.py",
        4,
        {"retries": "-1"},
    )
    assert match["why"]
    assert "site" not in match


def test_found_in_the_terminal_with_values(db: str) -> None:
    code, out, _ = lookup(db, "retries must be >= 0, got -7")
    assert code == 0
    assert "net/client.py:4" in out
    assert "{retries} = -7" in out


def test_read_from_standard_input(db: str) -> None:
    code, out, _ = lookup(db, "-", "--json", stdin="ValueError: retries must be >= 0, got 3\n")
    assert code == 0
    assert json.loads(out)["matches"][0]["line"] == 4


def test_nothing_found_exits_1_with_a_hint(db: str) -> None:
    code, out, _ = lookup(db, "the flux capacitor overheated")
    assert code == 1
    assert "errdex index" in out


@pytest.mark.parametrize(
    ("paste", "message"),
    [("   \n\t", "empty"), ("\x00\x01\x02\x03garbage\x00\x00", "binary")],
)
def test_bad_input_exits_2(db: str, paste: str, message: str) -> None:
    code, _, err = lookup(db, "-", stdin=paste)
    assert code == 2
    assert message in err
    assert "Traceback" not in err


def test_an_unknown_project(db: str) -> None:
    code, _, err = lookup(db, "retries must be >= 0, got 1", "--project", "nope")
    assert code == 1
    assert "nope" in err


def test_an_empty_database(tmp_path: Path) -> None:
    code, _, err = lookup(str(tmp_path / "empty.db"), "anything at all")
    assert code == 1
    assert "index something first" in err


def test_a_100_megabyte_paste_answers(db: str) -> None:
    noise = ("INFO 2024-01-01 12:00:00 worker heartbeat ok " * 2 + "\n").encode()
    block = noise * ((1 << 20) // len(noise) + 1)
    with subprocess.Popen(
        [sys.executable, "-m", "errdex", "lookup", "-", "--json"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "ERRDEX_DB": db},
    ) as proc:
        # 100 MB of log with the error at its end: errdex keeps only the tail.
        paste = block * 100 + b"ValueError: retries must be >= 0, got -2\n"
        out, _ = proc.communicate(paste, timeout=120)
    assert proc.returncode == 0
    assert json.loads(out)["matches"][0]["line"] == 4


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.text(min_size=0, max_size=3000))
def test_any_text_gets_an_answer_or_a_clear_refusal(db: str, text: str) -> None:
    code, _, err = lookup(db, "-", stdin=text)
    assert code in (0, 1, 2)
    assert "Traceback" not in err


def test_text_built_to_backtrack(db: str) -> None:
    nasty = "retries must be >= 0, got " + "a " * 20000 + "!" * 5000
    code, _, _ = lookup(db, "-", stdin=nasty)
    assert code in (0, 1)


def test_json_is_printed_without_importing_rich(db: str) -> None:
    # A program waits on `lookup --json`: it imports no terminal renderer.
    script = (
        "import sys\n"
        "from errdex.cli import main\n"
        "try:\n"
        "    main(['lookup', 'retries must be >= 0, got -1', '--json'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'rich', 'pygments'}),"
        " file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        env={**os.environ, "ERRDEX_DB": db},
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(done.stdout)["matches"][0]["line"] == 4
    assert done.stderr.strip().splitlines()[-1] == "[]"
