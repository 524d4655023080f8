"""A version's console scripts are stored with it, on both backends, and a database made
before they were kept reads as having none."""

from __future__ import annotations

from pathlib import Path

import msgspec
from store_samples import FILES, SITES, version_info
from test_store_migrations import Schema, schema  # noqa: F401  # the fixture

from errdex.sources.base import EntryPoint
from errdex.store import Store, open_store
from errdex.store.base import VersionStats

SCRIPTS = (
    EntryPoint("console_scripts", "demo", "demo.cli:main"),
    EntryPoint("gui_scripts", "demo-gui", "demo.gui:run"),
)


def test_a_versions_console_scripts_are_read_back(store: Store) -> None:
    info = msgspec.structs.replace(version_info("1.0"), entry_points=SCRIPTS)
    store.write_version(info, SITES, FILES)
    store.write_version(version_info("2.0", revision="b" * 40), SITES, FILES)
    by_label = {v.label: v for v in store.versions("demo")}
    assert by_label["1.0"].entry_points == SCRIPTS
    assert by_label["2.0"].entry_points == ()


def test_an_older_database_gains_the_column_and_keeps_its_versions(
    schema: Schema,  # noqa: F811
    db_url: str,
) -> None:
    older = tuple(m for m in schema.migrations if m.name != "0005_version_console_scripts")
    assert len(older) == len(schema.migrations) - 1
    if "://" not in db_url:
        Path(db_url).parent.mkdir(parents=True)
    with schema.connect() as conn:
        schema.migrate(conn, older)
        conn.execute("INSERT INTO projects (name) VALUES ('demo')")
        stats = msgspec.json.encode(
            VersionStats(project="demo", version="0.9", sites=0, errors=0, files=0, new_blobs=0)
        ).decode()
        conn.execute(
            "INSERT INTO versions (project_id, label, revision, date, source_kind, source,"
            " link_template, indexed_at, stats) SELECT id, '0.9', 'c', NULL, 'directory', '.',"
            f" NULL, '2024-01-01T00:00:00+00:00', '{stats}' FROM projects"
        )
    with open_store(db_url) as store:
        (old,) = store.versions("demo")
        assert (old.label, old.entry_points) == ("0.9", ())
