"""`errdex index`, `list` and `show` from the outside: exit codes, messages, the database."""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from errdex.cli import main
from errdex.store import open_store
from samples import write_package


def _interruptible() -> None:
    """Ctrl-C reaches the child: a test run started in the background (a shell's `&`) has
    SIGINT ignored, which its children inherit, and then Python never raises
    KeyboardInterrupt."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ERRDEX_DB", str(tmp_path / "errdex.db"))
    monkeypatch.setenv("ERRDEX_CACHE", str(tmp_path / "cache"))


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


GOOD = """
    def connect(host, retries):
        if retries < 0:
            raise ValueError(f"retries must be >= 0, got {retries}")
    """


def test_index_then_list_and_show_as_json(tmp_path: Path) -> None:
    pkg = write_package(tmp_path / "demo", {"demo/net.py": GOOD})
    code, _, err = run("index", str(pkg), "--project", "demo", "--version", "1.0")
    assert code == 0, err
    summary = " ".join(err.split())
    assert "1 sites" in summary
    # where the time went, stage by stage
    assert re.search(r" s \(read [0-9.]+, extract [0-9.]+, again [0-9.]+, link [0-9.]+,", summary)
    code, out, _ = run("list", "--project", "demo", "--json")
    (record,) = json.loads(out)
    assert record["message"] == "retries must be >= 0, got {retries}"
    assert (record["file"], record["line"], record["function"]) == ("demo/net.py", 4, "connect")
    assert record["conditions"][0]["text"] == "retries < 0"
    assert record["variants"] == []
    code, out, _ = run("show", record["id"], "--json")
    assert code == 0
    shown = json.loads(out)
    assert shown["id"] == record["id"]
    assert [(v["version"], v["file"], v["line"]) for v in shown["versions"]] == [
        ("1.0", "demo/net.py", 4)
    ]


def test_bad_files_are_skipped_with_their_reason(tmp_path: Path) -> None:
    pkg = write_package(
        tmp_path / "demo",
        {
            "demo/good.py": GOOD,
            "demo/binary.py": b"\x00\x01\x02 raise",
            "demo/latin.py": b"# -*- coding: utf-8 -*-\nx = '\xff\xfe'\n",
            "demo/broken.py": "def f(:\n    pass\n",
            "demo/generic.py": "def first[T](items: list[T]) -> T:\n    return items[0]\n",
            "demo/fstring.py": 'x = f"{"nested"}"\n',
        },
    )
    (report,) = json.loads(_stdout_of("index", str(pkg), "--project", "demo", "--json"))
    reasons = {s["path"]: s["reason"] for s in report["skipped"]}
    assert reasons["demo/binary.py"].startswith("binary file")
    assert reasons["demo/latin.py"].startswith("undecodable source")
    assert reasons["demo/broken.py"].startswith("syntax error, line 1")
    if sys.version_info < (3, 12):
        assert "newer than Python" in reasons["demo/generic.py"]
        assert "demo/fstring.py" in reasons
    assert report["sites"] == 1


def _stdout_of(*args: str) -> str:
    code, out, err = run(*args)
    assert code == 0, err
    return out


def test_a_source_that_does_not_exist(tmp_path: Path) -> None:
    code, out, err = run("index", str(tmp_path / "nowhere"))
    assert code == 2
    assert out == ""
    assert err.strip().startswith("errdex: no such file or directory")
    assert len(err.strip().splitlines()) == 1


def test_a_corrupt_archive(tmp_path: Path) -> None:
    wheel = tmp_path / "demo-1.0-py3-none-any.whl"
    wheel.write_bytes(b"PK\x03\x04 this is not really a zip file")
    code, _, err = run("index", str(wheel))
    assert code == 2
    assert "not a valid wheel" in err


def test_an_archive_with_escaping_paths_and_a_bomb(tmp_path: Path) -> None:
    wheel = tmp_path / "demo-1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("demo/net.py", textwrap.dedent(GOOD))
        z.writestr("../evil.py", "raise SystemExit('escaped')\n")
        z.writestr("demo/bomb.py", b"#" * (40 * 1024 * 1024))
        z.writestr("demo-1.0.dist-info/METADATA", "Name: demo\nVersion: 1.0\n")
    report = json.loads(_stdout_of("index", str(wheel), "--json"))[0]
    assert report["sites"] == 1
    skipped = {s["path"] for s in report["skipped"]}
    assert {"../evil.py", "demo/bomb.py"} <= skipped


def test_unknown_id_and_empty_database(tmp_path: Path) -> None:
    open_store(tmp_path / "errdex.db").close()  # made, migrated, empty
    code, _, err = run("show", "0123456789abcdef")
    assert code == 1
    assert "0123456789abcdef" in err
    code, _, err = run("list")
    assert code == 1
    assert "index something first" in err


@pytest.mark.parametrize(
    "command",
    [
        ("list",),
        ("show", "0123456789abcdef"),
        ("diff", "demo", "1.0", "2.0"),
        ("lookup", "--no-auto-index", "ValueError: x"),
        ("lookup", "ValueError: no traceback, nothing to index"),
        ("explain", "0123456789abcdef", "--llm-url", "http://127.0.0.1:9", "--llm-model", "m"),
        ("serve", "--port", "0"),
    ],
)
def test_reading_a_database_that_does_not_exist_makes_none(
    tmp_path: Path, command: tuple[str, ...]
) -> None:
    missing = tmp_path / "nowhere" / "errdex.db"
    code, out, err = run(*command, "--db", str(missing))
    assert code == 1 and out == ""
    assert err.startswith(f"errdex: no database at {missing}: index something first")
    assert err.count("\n") == 1
    assert not missing.parent.exists()
    pkg = write_package(tmp_path / "demo", {"demo/net.py": GOOD})
    assert run("index", str(pkg), "--db", str(missing))[0] == 0  # indexing makes it
    assert missing.is_file()


def test_a_database_that_is_not_one(tmp_path: Path) -> None:
    bad = tmp_path / "not.db"
    bad.write_text("hello, I am a text file" * 100)
    code, _, err = run("list", "--db", str(bad))
    assert code == 2
    assert err.startswith("errdex:")


def test_ctrl_c_mid_index_leaves_the_earlier_version(tmp_path: Path) -> None:
    env = {**os.environ, "ERRDEX_DB": str(tmp_path / "errdex.db")}
    small = write_package(tmp_path / "v1", {"demo/net.py": GOOD})
    cli = [sys.executable, "-m", "errdex", "index", "--project", "demo", "--version", "1.0"]
    subprocess.run([*cli, str(small)], env=env, check=True, capture_output=True)
    big = write_package(
        tmp_path / "v2",
        {
            f"demo/mod{i}.py": "".join(
                f"def f{j}(x):\n    if x > {j}:\n        raise ValueError(f'{i}.{j} {{x}}')\n"
                for j in range(400)
            )
            for i in range(600)
        },
    )
    proc = subprocess.Popen(
        [*cli, "--workers", "1", str(big)],
        env={**env, "ERRDEX_CACHE": str(tmp_path / "cold-cache")},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_interruptible,
    )
    # Interrupt once it is indexing (its facts cache exists), not while Python still
    # imports: a fixed sleep raced the imports on a loaded machine.
    started = tmp_path / "cold-cache" / "facts.sqlite3"
    deadline = time.monotonic() + 60
    while not started.exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.5)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 2, err
    assert "interrupted" in err
    assert "Traceback" not in err
    with sqlite3.connect(tmp_path / "errdex.db") as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    listed = subprocess.run(
        [sys.executable, "-m", "errdex", "list", "--project", "demo", "--json"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert [r["file"] for r in json.loads(listed.stdout)] == ["demo/net.py"]


def test_an_unchanged_version_is_up_to_date_unless_forced(tmp_path: Path) -> None:
    pkg = write_package(tmp_path / "demo", {"demo/net.py": GOOD})
    args = ("index", str(pkg), "--project", "demo", "--version", "1.0", "--json")
    (first,) = json.loads(_stdout_of(*args))
    (again,) = json.loads(_stdout_of(*args))
    (forced,) = json.loads(_stdout_of(*args, "--force"))
    assert (first["up_to_date"], again["up_to_date"], forced["up_to_date"]) == (False, True, False)
    assert first["sites"] == again["sites"] == forced["sites"] == 1
    assert (forced["parsed"], forced["cached"]) == (0, 1)


def test_ctrl_c_after_a_version_was_written_says_the_database_holds_it(tmp_path: Path) -> None:
    env = {**os.environ, "ERRDEX_DB": str(tmp_path / "errdex.db")}
    env["ERRDEX_CACHE"] = str(tmp_path / "cache")
    first = write_package(tmp_path / "alpha", {"alpha/net.py": GOOD})
    second = write_package(
        tmp_path / "beta",
        {
            f"beta/mod{i}.py": "".join(
                f"def f{j}(x):\n    if x > {j}:\n        raise ValueError(f'{i}.{j} {{x}}')\n"
                for j in range(100)
            )
            for i in range(300)
        },
    )
    proc = subprocess.Popen(
        [sys.executable, "-m", "errdex", "index", "--workers", "1", str(first), str(second)],
        env=env,
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
        preexec_fn=_interruptible,
    )
    assert proc.stderr is not None
    summary = proc.stderr.readline()  # alpha is written: beta is under way
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert summary.startswith("alpha "), summary
    assert proc.returncode == 2, err
    assert "interrupted while indexing beta" in err
    assert "the database now holds what this run indexed before: alpha" in err
    assert "held before this run" not in err and "Traceback" not in err
    listed = run("list", "--json", "--db", str(tmp_path / "errdex.db"))[1]
    assert {r["project"] for r in json.loads(listed)} == {"alpha"}
