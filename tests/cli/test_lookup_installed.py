"""A traceback into an installed distribution that is not indexed yet: lookup indexes it."""

from __future__ import annotations

import json
import traceback
from pathlib import Path

import click
from click.testing import CliRunner

from errdex.cli import main


def real_click_traceback() -> str:
    """A real traceback of a real click error, raised by click (errdex's own dependency)."""

    @click.command()
    @click.argument("name")
    def hello(name: str) -> None:
        raise AssertionError("not reached")

    try:
        hello.main(["a", "b"], standalone_mode=False)
    except click.UsageError:
        return traceback.format_exc()
    raise AssertionError("click accepted an extra argument")


def test_lookup_indexes_the_installed_distribution_on_the_spot(tmp_path: Path) -> None:
    paste = real_click_traceback()
    assert "site-packages" in paste and "Got unexpected extra argument" in paste
    runner = CliRunner(env={"ERRDEX_DB": str(tmp_path / "e.db"), "ERRDEX_CACHE": str(tmp_path)})
    result = runner.invoke(main, ["lookup", "-", "--json"], input=paste)
    assert result.exit_code == 0, result.stderr
    assert "indexing installed click" in result.stderr
    best = json.loads(result.stdout)["matches"][0]
    assert best["project"] == "click"
    assert best["file"] == "click/core.py"
    # the call of the raising helper `ctx.fail(...)` with the text, not `fail`'s own raise
    assert best["kind"] == "helper"
    assert best["message"].startswith("Got unexpected extra argument (")
    assert list(best["values"].values()) == ["b"]
    # Once indexed, the next lookup needs no indexing.
    again = runner.invoke(main, ["lookup", "-", "--json"], input=paste)
    assert again.exit_code == 0
    assert "indexing" not in again.stderr
