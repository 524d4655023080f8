"""A caller whose guard was not read (a call after a branch, in a body read as text) is
shown as such on every face of the page, never as a call without a condition."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner
from starlette.testclient import TestClient

from errdex.cli import main
from errdex.explain import build_page
from errdex.indexing import index_source
from errdex.indexing.cache import FactsCache
from errdex.render.json import plain
from errdex.sources import open_source
from errdex.store import open_store
from errdex.web import create_app
from samples import QUIET_FUNCTIONS, write_package

MESSAGE = "not a TOML file: {path}"
FILES = {
    "srv/__init__.py": "",
    "srv/config.py": """
        def load_config(path):
            if not path.endswith(".toml"):
                raise ValueError(f"not a TOML file: {path}")
            return path
        """,
    # Enough site-free functions that this file gets a skeleton: `serve` is read as text.
    "srv/server.py": QUIET_FUNCTIONS
    + """
from srv.config import load_config


def serve(path):
    if path is None:
        return None
    return load_config(path)
""",
    "pyproject.toml": '[project]\nname = "srv"\nversion = "1.0"\n',
}
SERVER = FILES["srv/server.py"]
CALL = "srv/server.py:{}".format(SERVER[: SERVER.index("    return load_config")].count("\n") + 1)


def _indexed(tmp_path: Path) -> tuple[str, str]:
    """The database and the id of the error raised under the blanked caller."""
    write_package(tmp_path / "src", FILES)
    db = str(tmp_path / "errdex.db")
    with open_store(db) as store:
        index_source(
            open_source(str(tmp_path / "src")), store, cache=FactsCache(tmp_path / "facts")
        )
        (site,) = [
            s for s in store.list_sites("srv") if s.site.message and s.site.message.text == MESSAGE
        ]
    return db, site.id


def test_the_page_says_the_conditions_of_the_call_were_not_read(tmp_path: Path) -> None:
    db, error_id = _indexed(tmp_path)
    with open_store(db) as store:
        page = build_page(store, error_id)
    (caller,) = page.callers
    assert (caller.function, caller.guard, caller.guard_known) == ("serve", [], False)
    assert page.when_it_happens.trigger.startswith(
        f"`serve` calls `load_config` ({CALL}) (conditions not read);"
    )
    assert plain(page)["callers"][0]["guard_known"] is False

    shown = CliRunner(env={"ERRDEX_DB": db, "COLUMNS": "200"}).invoke(main, ["show", error_id])
    assert f"serve  {CALL}  (conditions not read)" in shown.stdout

    app = create_app(db)
    try:
        with TestClient(app) as client:
            html = client.get(f"/errors/{error_id}").text
    finally:
        app.state.pool.close()
    assert '<span class="dim">(conditions not read)</span>' in html
