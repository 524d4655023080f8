"""The front door: what `import errdex` offers is pinned, and each call returns records."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections.abc import Callable
from pathlib import Path

import pytest

import errdex
from errdex.render.json import plain
from samples import write_package


def test_the_public_names_are_pinned() -> None:
    assert errdex.__all__ == [
        "ClusterRun",
        "EnrichReport",
        "ErrdexError",
        "ExplainedError",
        "FilePage",
        "IndexReport",
        "InputError",
        "LookupAnswer",
        "Match",
        "MatchRecord",
        "NotFoundError",
        "Page",
        "PasteAnswer",
        "ProjectList",
        "ProjectPage",
        "SiteRecord",
        "SourceError",
        "StoreError",
        "VersionDiff",
        "answer",
        "diff",
        "diff_git",
        "explain_error",
        "explain_project",
        "index",
        "index_cluster",
        "install",
        "list_projects",
        "list_sites",
        "load_ipython_extension",
        "lookup",
        "newest_version",
        "read_file",
        "search",
        "show",
        "show_file",
        "show_project",
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


def _two_versions(tmp_path: Path) -> tuple[str, list[Path]]:
    roots = []
    for label, limit in (("1.0", 2), ("1.1", 3)):
        roots.append(
            write_package(
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
        )
    return str(tmp_path / "e.db"), roots


def test_index_tells_of_each_version_and_opens_every_source_first(tmp_path: Path) -> None:
    db, roots = _two_versions(tmp_path)
    heard: list[tuple[str, str]] = []
    stages: set[str] = set()

    def started(info: errdex.sources.base.VersionInfo) -> Callable[[str, int, int], None]:
        heard.append(("started", info.version))
        return lambda stage, n, total: stages.add(stage)

    reports = errdex.index(
        [str(r) for r in roots],
        db=db,
        project="tiny",
        started=started,
        finished=lambda report: heard.append(("finished", report.version)),
    )
    assert len(reports) == 2
    assert heard == [(e, r.version) for r in reports for e in ("started", "finished")]
    assert stages  # the hook it gave was called
    with pytest.raises(errdex.SourceError):  # the bad one is found before anything is written
        errdex.index([str(roots[0]), str(tmp_path / "missing")], db=str(tmp_path / "f.db"))
    assert not (tmp_path / "f.db").exists()


def test_answer_and_search_give_the_best_page_and_file(tmp_path: Path) -> None:
    db, roots = _two_versions(tmp_path)
    for root, label in zip(roots, ("1.0", "1.1"), strict=True):
        errdex.index(str(root), db=db, project="tiny", version=label)
    paste = "ValueError: too many items: 9 (at most 3)"
    shown: list[errdex.PasteAnswer] = []
    answer = errdex.answer(paste, db=db, pages=True, answered=shown.append)
    assert shown == [answer]
    assert answer.best is not None and answer.page is not None
    assert (answer.page.id, answer.page.version) == (answer.best.id, "1.1")
    assert answer.file_text is not None and "at most 3" in answer.file_text
    assert plain(answer.record()) == plain(errdex.search(paste, db=db).record())
    found = errdex.search(paste, db=db, pages=True)
    assert found.page == answer.page and found.file_text is None
    assert errdex.read_file("tiny", "1.0", "tiny/core.py", db=db) is not None
    assert errdex.newest_version("tiny", db=db) == "1.1"
    assert errdex.show_project("tiny", db=db).version == "1.1"
    assert [s.line for s in errdex.show_file("tiny", "1.0", "tiny/core.py", db=db).sites] == [4]
    nothing = errdex.search("KeyError: 'nowhere'", db=db)
    assert nothing.best is None and nothing.record().matches == []


def test_no_public_name_is_hidden_by_a_subpackage() -> None:
    # Importing `errdex.explain` sets the attribute `explain` of `errdex`: a function of
    # that name would be replaced by the package.
    for info in pkgutil.iter_modules(errdex.__path__):
        if info.name != "__main__":  # it runs the command
            importlib.import_module(f"errdex.{info.name}")
    assert [n for n in errdex.__all__ if inspect.ismodule(getattr(errdex, n))] == []
