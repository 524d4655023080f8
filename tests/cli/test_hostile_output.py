"""A package whose messages, file names and code carry escape sequences, indexed and shown by
every command: nothing that reaches the terminal acts on it, to a pipe or to a real
terminal (a pseudo-terminal, where rich draws its colours and boxes)."""

from __future__ import annotations

import json
import os
import pty
import re
import subprocess
import sys
import termios
from pathlib import Path

import pytest
from click.testing import CliRunner

from errdex.cli import main

ESC = "\x1b"
# Window title, clear screen, clipboard (OSC 52), a link (OSC 8), C1 CSI, a bidi override,
# and a carriage return that would overwrite the line with a forged one.
PAYLOAD = (
    f"{ESC}]0;pwned\x07{ESC}[2J{ESC}]52;c;ZXZpbA==\x07{ESC}]8;;http://evil.example{ESC}\\"
    "here\x9b31m\u202eexe.txt\rforged"
)
EVIL_NAME = f"ev{ESC}[31mil.py"


def source(message_tail: str) -> str:
    # The message carries the payload as Python escapes (the code shows them as written);
    # a comment carries it raw, so the code itself holds the characters too.
    return (
        f"# {PAYLOAD}\n"
        "def check(x):\n"
        "    if x:\n"
        f"        raise ValueError(f'gadget {{x}} is broken beyond repair {message_tail}"
        f"{PAYLOAD.encode('unicode_escape').decode()}')\n"
    )


def active(output: str, terminal: bool) -> list[str]:
    """The characters in `output` a terminal would act on; rich's own colour codes (SGR)
    on a terminal are not among them."""
    if terminal:
        output = re.sub(r"\x1b\[[0-9;]*m", "", output)
    return sorted(
        {
            c
            for c in output
            if (ord(c) < 0x20 and c != "\n") or 0x7F <= ord(c) < 0xA0 or c in "\u202e\u2066"
        }
    )


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    root = tmp_path_factory.mktemp("hostile")
    db = str(root / "errdex.db")
    ids = {}
    for version, tail in [("1.0", "now"), ("2.0", "today")]:
        package = root / version / "evil"
        package.mkdir(parents=True)
        (package / EVIL_NAME).write_text(source(tail))
        (package / f"broken{ESC}]0;x\x07.py").write_text("def (:\n")  # skipped, by name
        done = run(db, "index", str(root / version), "--project", "evil", "--version", version)
        assert done.returncode == 0, done.stderr
        assert active(done.stdout + done.stderr, terminal=False) == []
        assert "skipped" in done.stderr and "broken\\x1b]0;x\\x07.py" in done.stderr
        listed = json.loads(run(db, "list", "--json", "--version", version).stdout)
        ids[version] = listed[0]["id"]
    return {"db": db, **ids}


def run(db: str, *args: str) -> subprocess.CompletedProcess[str]:
    """`errdex ARGS` with its output to a pipe (click's runner: not a terminal)."""
    result = CliRunner(env={"ERRDEX_DB": db}).invoke(main, list(args))
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return subprocess.CompletedProcess(args, result.exit_code, result.stdout, result.stderr)


def on_terminal(db: str, *args: str) -> str:
    """What `errdex ARGS` writes to a real (pseudo-)terminal, as the terminal receives it."""
    leader, follower = pty.openpty()
    attributes = termios.tcgetattr(follower)
    attributes[1] &= ~termios.OPOST  # no \n → \r\n: every \r seen is errdex's own
    termios.tcsetattr(follower, termios.TCSANOW, attributes)
    env = {**os.environ, "ERRDEX_DB": db, "TERM": "xterm-256color", "COLUMNS": "100"}
    env.pop("NO_COLOR", None)
    child = subprocess.Popen(
        [sys.executable, "-m", "errdex", *args],
        stdin=subprocess.DEVNULL,
        stdout=follower,
        stderr=follower,
        env=env,
    )
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    assert child.wait(timeout=120) in (0, 1)
    return b"".join(chunks).decode("utf-8", "replace")


LOOKUP = "ValueError: gadget 5 is broken beyond repair now"


@pytest.mark.parametrize(
    "args",
    [
        ("list",),
        ("show", "@1.0"),
        ("lookup", LOOKUP, "--no-auto-index"),
        ("diff", "evil", "1.0", "2.0"),
    ],
    ids=["list", "show", "lookup", "diff"],
)
def test_nothing_a_terminal_acts_on_reaches_it(
    catalog: dict[str, str], args: tuple[str, ...]
) -> None:
    args = tuple(catalog[a[1:]] if a.startswith("@") else a for a in args)
    piped = run(catalog["db"], *args)
    assert piped.returncode == 0, piped.stderr
    assert active(piped.stdout + piped.stderr, terminal=False) == []
    assert "\\x1b]0;pwned" in piped.stdout and "\\u202e" in piped.stdout  # shown, escaped
    shown = on_terminal(catalog["db"], *args)
    assert "\x1b[" in shown  # rich drew colours: this was a terminal
    assert active(shown, terminal=True) == []
    assert "ev\\x1b[31mil.py" in shown  # shown, escaped (a terminal crops the message)


def test_list_keeps_one_line_per_site_to_a_pipe(catalog: dict[str, str]) -> None:
    out = run(catalog["db"], "list").stdout
    assert len(out.splitlines()) == 2  # a site per version; the payload's \r stays inside
    assert all("forged" in line for line in out.splitlines())


def test_json_holds_the_message_exactly_and_escaped(catalog: dict[str, str]) -> None:
    out = run(catalog["db"], "list", "--json").stdout
    assert active(out, terminal=False) == []
    (site, _) = json.loads(out)
    assert PAYLOAD in site["message"] and site["file"] == f"evil/{EVIL_NAME}"


def test_the_hook_prints_the_match_inert(catalog: dict[str, str], tmp_path: Path) -> None:
    script = tmp_path / "script.py"
    script.write_text(f"raise ValueError({'gadget 5 is broken beyond repair now' + PAYLOAD!r})\n")
    done = run(catalog["db"], "run", str(script))
    assert done.returncode == 1
    assert "errdex: raised at evil/ev\\x1b[31mil.py" in done.stderr
    # the traceback above it is Python's own, printed as Python prints it
    ours = done.stderr[done.stderr.index("errdex: raised at") :]
    assert active(ours, terminal=False) == []


def test_an_error_message_naming_hostile_input_is_inert(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main, ["index", str(tmp_path / f"missing{ESC}]0;x\x07"), "--db", str(tmp_path / "e.db")]
    )
    assert result.exit_code == 2
    assert active(result.stderr, terminal=False) == []
    assert "missing\\x1b]0;x\\x07" in result.stderr
