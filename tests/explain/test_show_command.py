"""`errdex show ID` prints the page; `--json` prints the same page as JSON; `lookup` shows
the best match's page under its summary."""

from __future__ import annotations

import json

from click.testing import CliRunner
from explain_samples import HISPARSE, V1, site_with

from errdex.cli import main
from errdex.store import open_store


def run(db: str, *args: str) -> tuple[int, str, str]:
    result = CliRunner(env={"ERRDEX_DB": db, "COLUMNS": "200"}).invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def error_id(db: str, message: str) -> str:
    with open_store(db) as store:
        return site_with(store, message).id


def test_show_prints_the_sections_of_the_page(db_path: str) -> None:
    code, out, _ = run(db_path, "show", error_id(db_path, V1))
    assert code == 0
    for heading in (
        "Error message",
        "What it means",
        "Source",
        "Raised when all of these hold",
        "Solutions",
        "Example fix",
        "When it happens",
        "Called from",
        "Settings involved",
        "Related errors",
    ):
        assert heading in out, heading
    assert "← EngineConfig.__post_init__  engine/config.py:9  when not self.use_v2" in out
    assert "1. Set ENGINE_USE_V2=1" in out
    assert "Static analysis of engine at a folder with no known origin" in out


def test_show_json_is_the_page_record(db_path: str) -> None:
    code, out, _ = run(db_path, "show", error_id(db_path, HISPARSE), "--json")
    assert code == 0
    record = json.loads(out)
    assert record["solutions"][0]["knob"] == "ENGINE_USE_V2"
    assert record["analysis"]["footer"].startswith("Static analysis")


def test_show_an_unknown_id_or_version_says_so(db_path: str) -> None:
    code, _, err = run(db_path, "show", "0123456789abcdef")
    assert code == 1 and "no error with id" in err
    code, _, err = run(db_path, "show", error_id(db_path, V1), "--version", "9.9")
    assert code == 1 and "is not in version 9.9 (it is in 1.0)" in err


def test_lookup_shows_the_page_of_the_best_match(db_path: str) -> None:
    text = "ValueError: Runner V1 does not support: eager mode"
    code, out, _ = run(db_path, "lookup", text, "--no-auto-index")
    assert code == 0
    assert "Raised when all of these hold" in out and "Solutions" in out
