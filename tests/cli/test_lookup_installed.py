"""A traceback into an installed distribution that is not indexed yet: lookup indexes it."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from errdex.cli import main
from samples import real_click_traceback


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
    # the raise inside the helper `Context.fail`, naming the call `ctx.fail(...)` in
    # `parse_args` that gives it the text
    assert (best["kind"], best["function"]) == ("raise", "Context.fail")
    assert best["called_at"]["function"] == "Command.parse_args"
    assert best["shown"].startswith("Got unexpected extra argument (")
    assert list(best["values"].values()) == ["b"]
    # Once indexed, the next lookup needs no indexing.
    again = runner.invoke(main, ["lookup", "-", "--json"], input=paste)
    assert again.exit_code == 0
    assert "indexing" not in again.stderr
