"""`open_sources` turns the user's SOURCE argument into the right source(s)."""

from __future__ import annotations

import os
import re
import subprocess
import zipfile
from pathlib import Path

import pytest

from errdex.errors import SourceError
from errdex.sources import (
    ArchiveSource,
    DirectorySource,
    GitSource,
    InstalledSource,
    absolute_spec,
    open_source,
    open_sources,
)


def make_repo(root: Path) -> None:
    root.mkdir()
    (root / "m.py").write_text("M = 1\n")
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "T",
        "GIT_AUTHOR_EMAIL": "t@example.invalid",
        "GIT_COMMITTER_NAME": "T",
        "GIT_COMMITTER_EMAIL": "t@example.invalid",
        "GIT_CONFIG_GLOBAL": os.devnull,
    }
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "one"], ["tag", "v1"]):
        subprocess.run(["git", *args], cwd=root, env=env, check=True, capture_output=True)


def test_a_directory_is_a_directory_source(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text("")
    [source] = open_sources(str(tmp_path))
    assert isinstance(source, DirectorySource)
    assert source.info.source == str(tmp_path)


def test_path_at_rev_of_a_repository_is_a_git_source(tmp_path: Path) -> None:
    make_repo(tmp_path / "repo")
    [source] = open_sources(f"{tmp_path / 'repo'}@v1")
    assert isinstance(source, GitSource)
    assert (source.info.version, [f.path for f in source.files()]) == ("v1", ["m.py"])


def test_an_archive_file_is_an_archive_source(tmp_path: Path) -> None:
    wheel = tmp_path / "demo-1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr("demo/a.py", "")
    [source] = open_sources(str(wheel))
    assert isinstance(source, ArchiveSource)
    assert source.info.source_kind == "wheel"


def test_name_equals_version_comes_from_the_download_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ERRDEX_CACHE", str(tmp_path))
    (tmp_path / "downloads").mkdir()
    with zipfile.ZipFile(tmp_path / "downloads/errdex_probe-2.0-py3-none-any.whl", "w") as z:
        z.writestr("probe.py", "")
    [source] = open_sources("errdex-probe==2.0")
    assert source.info.source_kind == "pypi"


def test_installed_names_one_distribution_or_all(tmp_path: Path) -> None:
    [one] = open_sources("installed:click")
    assert isinstance(one, InstalledSource) and one.info.project == "click"
    every = open_sources("installed:*")
    assert len(every) > 5 and all(isinstance(s, InstalledSource) for s in every)


def test_project_and_version_overrides_apply_to_the_version_info(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text("")
    source = open_source(str(tmp_path), project="acme", version="2024.1")
    assert (source.info.project, source.info.version) == ("acme", "2024.1")
    assert source.info.source_kind == "directory"


def test_bad_specs_get_a_clear_source_error(tmp_path: Path) -> None:
    missing = tmp_path / "nope"
    no_such = f"^no such file or directory: {re.escape(str(missing))}$"
    with pytest.raises(SourceError, match=no_such):
        open_sources(str(missing))
    with pytest.raises(SourceError, match=no_such):
        open_sources(f"{missing}@v1")
    plain = tmp_path / "plain"
    plain.mkdir()
    with pytest.raises(SourceError, match="not a git repository"):
        open_sources(f"{plain}@v1")
    (tmp_path / "notes.txt").write_text("hi")
    with pytest.raises(SourceError, match="not a directory or an archive"):
        open_sources(str(tmp_path / "notes.txt"))
    with pytest.raises(SourceError, match="no source given"):
        open_sources("  ")
    with pytest.raises(SourceError, match=r"names \d+ sources, not one"):
        open_source("installed:*")


def test_absolute_spec_makes_a_local_path_absolute_and_leaves_the_rest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_repo(tmp_path / "repo")
    monkeypatch.chdir(tmp_path)
    assert absolute_spec("repo") == str(tmp_path / "repo")
    assert absolute_spec("repo@v1") == f"{tmp_path / 'repo'}@v1"
    assert absolute_spec(" six==1.16.0 ") == "six==1.16.0"
    assert absolute_spec("installed:click") == "installed:click"
    assert absolute_spec("missing/folder") == "missing/folder"
