"""Installed distributions are read through their metadata and RECORD, never imported."""

from __future__ import annotations

import ast
import importlib.metadata
import subprocess
import sys
from pathlib import Path

import pytest

from errdex.errors import SourceError
from errdex.sources.installed import InstalledSource, installed_all, installed_source


def test_an_installed_distribution_yields_its_record_python_files() -> None:
    source = installed_source("click")
    files = {f.path: f.data for f in source.files()}
    dist = importlib.metadata.distribution("click")
    assert "click/core.py" in files
    assert all(path.endswith((".py", ".pyi")) and not path.startswith("/") for path in files)
    core = Path(str(dist.locate_file("click/core.py")))
    assert files["click/core.py"] == core.read_bytes()

    info = source.info
    assert (info.project, info.version, info.source_kind) == ("click", dist.version, "installed")
    assert info.source == "installed:click"
    assert info.homepage == "https://github.com/pallets/click"
    assert info.date is not None
    assert installed_source("Click").info.revision == info.revision  # stable, name-insensitive


def test_tracker_and_homepage_come_from_the_metadata() -> None:
    info = installed_source("msgspec").info
    assert info.tracker_url == "https://github.com/msgspec/msgspec/issues"
    assert info.homepage == "https://msgspec.dev"


def test_reading_a_distribution_does_not_import_it() -> None:
    """Nor importlib.metadata and the email parser (`dist_info` finds and reads it)."""
    script = (
        "from errdex.indexing.installed import distributions_behind\n"
        "from errdex.sources.installed import installed_source\n"
        "assert distributions_behind([], ['click']) == ['click']\n"
        "source = installed_source('click')\n"
        "assert source.info.version and sum(1 for _ in source.files()) > 10\n"
    )
    assert _modules_after(script, ("click", "importlib.metadata", "email")) == []


def test_a_package_not_installed_here_is_told_without_importlib_metadata() -> None:
    """A traceback's frames into a package of another environment: the plain search of the
    path found no distribution of it, which `importlib.metadata` would not either."""
    script = (
        "from errdex.indexing.installed import distributions_behind\n"
        "from errdex.sources.dist_info import distribution\n"
        "frame = '/venv/lib/python3.10/site-packages/no_such_module_errdex/client.py'\n"
        "assert distributions_behind([frame], ['no_such_module_errdex_either']) == []\n"
        "assert distribution('no-such-dist-errdex') is None\n"
    )
    assert _modules_after(script, ("importlib.metadata", "email")) == []


def _modules_after(script: str, modules: tuple[str, ...]) -> list[str]:
    """Which of `modules` a fresh interpreter has imported once it ran `script`."""
    shown = f"import sys\nprint([m for m in {modules!r} if m in sys.modules])\n"
    done = subprocess.run(
        [sys.executable, "-c", script + shown], capture_output=True, text=True, check=True
    )
    return ast.literal_eval(done.stdout.strip())


def test_every_distribution_of_the_environment_once() -> None:
    sources = installed_all()
    names = [s.info.project.lower() for s in sources]
    assert {"click", "msgspec", "pytest"} <= set(names)
    assert len(names) == len(set(names))


def test_a_distribution_that_is_not_installed_is_a_source_error() -> None:
    with pytest.raises(SourceError, match="not installed: no-such-dist-errdex"):
        installed_source("no-such-dist-errdex")


def test_record_rows_that_leave_site_packages_are_refused_before_any_read(
    tmp_path: Path,
) -> None:
    # A hostile RECORD: each row but one names a file outside site-packages that exists,
    # so joining a row before refusing it would read (or stat) that file.
    site = tmp_path / "site"
    (site / "demo").mkdir(parents=True)
    (site / "demo" / "ok.py").write_text("X = 1\n")
    (tmp_path / "outside.py").write_text("SECRET = 1\n")
    (site / "outside.mo").write_bytes(b"")
    info = site / "demo-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: demo\nVersion: 1.0\n")
    rows = [
        "demo/ok.py,,",
        "../outside.py,,",
        "demo/../../outside.py,,",
        "demo\\..\\..\\outside.py,,",
        f"{tmp_path / 'outside.py'},,",
        f"/{tmp_path / 'outside.py'},,",
        "\\outside.py,,",
        "C:/outside.py,,",
        "../site/outside.mo,,",
    ]
    (info / "RECORD").write_text("\n".join(rows) + "\n")
    source = InstalledSource(importlib.metadata.PathDistribution(info))

    assert source.paths() == ["demo/ok.py"]
    assert {f.path: f.data for f in source.files()} == {"demo/ok.py": b"X = 1\n"}
    assert list(source.catalogs()) == []
    escapes = "outside site-packages (path escapes the archive ('..' component))"
    absolute = "outside site-packages (absolute path in archive)"
    assert {s.path: s.reason for s in source.skipped} == {
        "../outside.py": escapes,
        "demo/../../outside.py": escapes,
        "demo\\..\\..\\outside.py": escapes,
        str(tmp_path / "outside.py"): absolute,
        f"/{tmp_path / 'outside.py'}": absolute,
        "\\outside.py": absolute,
        "C:/outside.py": absolute,
    }
