"""The front door: what `import errdex` offers is pinned, and each call returns records."""

from __future__ import annotations

from pathlib import Path

import pytest

import errdex
from errdex.render.json import plain
from samples import write_package


def test_the_public_names_are_pinned() -> None:
    assert errdex.__all__ == [
        "ErrdexError",
        "IndexReport",
        "InputError",
        "LookupAnswer",
        "Match",
        "MatchRecord",
        "NotFoundError",
        "Page",
        "ProjectList",
        "SiteRecord",
        "SourceError",
        "StoreError",
        "VersionDiff",
        "diff",
        "index",
        "install",
        "list_projects",
        "list_sites",
        "load_ipython_extension",
        "lookup",
        "show",
        "unload_ipython_extension",
    ]
    assert all(hasattr(errdex, name) for name in errdex.__all__)


def test_each_call_returns_records_and_raises_errdex_errors(tmp_path: Path) -> None:
    db = str(tmp_path / "e.db")
    for label, limit in (("1.0", 2), ("1.1", 3)):
        root = write_package(
            tmp_path / label,
            {
                "tiny/__init__.py": "",
                "tiny/core.py": f"""
                    def take(n):
                        if n > {limit}:
                            raise ValueError(f"too many items: {{n}} (at most {limit})")
                    """,
            },
        )
        errdex.index(str(root), db=db, project="tiny", version=label)
    (match,) = errdex.lookup("ValueError: too many items: 9 (at most 3)", db=db)
    page = errdex.show(match.id, db=db)
    assert (page.version, page.source.file, page.source.line) == ("1.1", "tiny/core.py", 4)
    sites = errdex.list_sites(db=db, project="tiny", version="1.1")
    assert [(s.file, s.line, s.kind) for s in sites] == [("tiny/core.py", 4, "raise")]
    assert plain(sites[0])["class"] is None  # the JSON key a keyword cannot be
    projects = errdex.list_projects(db=db)
    assert [(p.name, p.versions) for p in projects.projects] == [("tiny", ["1.1", "1.0"])]
    changes = errdex.diff("tiny", "1.0", "1.1", db=db)
    assert changes.counts["reworded"] == 1
    with pytest.raises(errdex.NotFoundError):
        errdex.show("0" * 16, db=db)
    with pytest.raises(errdex.NotFoundError):
        errdex.diff("tiny", "1.0", "9.9", db=db)
