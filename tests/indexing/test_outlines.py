"""Indexing keeps each stored file's outline (the lines its top-level statements start on),
but not for a file a first answer extracted cut and stores as written: that outline would
be of the cut text."""

from __future__ import annotations

import ast
from pathlib import Path

from errdex.extract.module import top_starts
from errdex.indexing import index_source
from errdex.indexing.cache import FactsCache
from errdex.match.partial import SubsetSource
from errdex.sources import open_source
from errdex.sources.base import SourceFile
from errdex.store import open_store
from samples import write_package

PACKAGE = {
    "pkg/__init__.py": "",
    "pkg/checks.py": """
        import os


        def check(value):
            if value < 0:
                raise ValueError(f"value {value} is below 0")
            return os.sep
        """,
    "pkg/other.py": """
        '''A module.'''


        def helper():
            return 1


        def fail(name):
            raise KeyError(f"no such name: {name}")
        """,
}


def test_an_indexed_file_keeps_its_outline_and_a_cut_one_none(tmp_path: Path) -> None:
    write_package(tmp_path / "src", PACKAGE)
    source = open_source(str(tmp_path / "src"), project="pkg", version="1.0")
    files = {f.path: f.data for f in source.files()}
    # `other.py` extracted cut to the definitions it needs: `helper` gone, lines moved up
    written = files["pkg/other.py"]
    cut = written.replace(b"def helper():\n    return 1\n\n\n", b"")
    kept = [SourceFile(p, cut if p == "pkg/other.py" else d) for p, d in files.items()]
    subset = SubsetSource(source, kept, total=len(kept), as_written={"pkg/other.py": written})

    with open_store(tmp_path / "errdex.db") as store:
        index_source(subset, store, cache=FactsCache(tmp_path / "facts.sqlite3"))
        [version] = store.versions("pkg")

        checks = files["pkg/checks.py"].decode()
        assert store.file_outline(version.id, "pkg/checks.py") == top_starts(ast.parse(checks))
        assert store.file_text(version.id, "pkg/other.py") == written.decode()
        assert store.file_outline(version.id, "pkg/other.py") is None


def test_the_outline_is_read_from_the_text_extracted(tmp_path: Path) -> None:
    write_package(
        tmp_path / "src", {"pkg/__init__.py": "", "pkg/checks.py": PACKAGE["pkg/checks.py"]}
    )
    with open_store(tmp_path / "errdex.db") as store:
        index_source(
            open_source(str(tmp_path / "src"), project="pkg", version="1.0"),
            store,
            cache=FactsCache(tmp_path / "facts.sqlite3"),
        )
        [version] = store.versions("pkg")
        text = store.file_text(version.id, "pkg/checks.py")
        assert text is not None
        assert store.file_outline(version.id, "pkg/checks.py") == top_starts(ast.parse(text))
