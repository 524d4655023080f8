"""Commands given what they cannot use: one line on stderr, exit 2, no traceback, no
password."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest
from click.testing import CliRunner

from errdex.cli import main
from errdex.store import open_store
from samples import write_package


@pytest.fixture
def db(tmp_path: Path) -> str:
    path = str(tmp_path / "errdex.db")
    open_store(path).close()
    return path


def fails_in_one_line(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit)  # not a traceback
    assert result.stderr.startswith("errdex: ") and result.stderr.count("\n") == 1
    return result.stderr


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("http://[::1", "cannot be read"),
        ("http://", "names no host"),
        ("ftp://127.0.0.1/v1", "must start with http:// or https://"),
    ],
)
def test_a_model_url_that_is_no_url(db: str, url: str, said: str) -> None:
    err = fails_in_one_line("explain", "0" * 16, "--llm-url", url, "--llm-model", "m", "--db", db)
    assert said in err


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])  # nothing listens once it is closed


def test_the_password_in_a_model_url_is_never_printed(db: str, tmp_path: Path) -> None:
    package = write_package(tmp_path / "pkg", {"pkg/m.py": "raise ValueError('always')\n"})
    assert CliRunner().invoke(main, ["index", str(package), "--db", db]).exit_code == 0
    (site,) = json.loads(CliRunner().invoke(main, ["list", "--json", "--db", db]).stdout)
    url = f"http://user:s3cret-pw@127.0.0.1:{closed_port()}/v1"
    err = fails_in_one_line("explain", site["id"], "--llm-url", url, "--llm-model", "m", "--db", db)
    assert "s3cret" not in err
    assert "http://user:***@127.0.0.1:" in err


def test_serve_on_a_port_in_use(db: str) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        err = fails_in_one_line("serve", "--db", db, "--port", str(port))
    assert f"cannot listen on 127.0.0.1:{port}: the port is in use" in err


@pytest.mark.parametrize("host", ["no-such-host.invalid", "999.1.1.1"])
def test_serve_on_a_host_that_is_not_there(db: str, host: str) -> None:
    err = fails_in_one_line("serve", "--db", db, "--host", host, "--port", "8000")
    assert f"cannot listen on {host}:8000" in err
