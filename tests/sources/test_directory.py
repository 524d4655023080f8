"""A directory source yields the tree's Python files as bytes, with the tree's metadata."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from errdex.errors import SourceError
from errdex.sources.base import MAX_FILE_BYTES
from errdex.sources.directory import DirectorySource


def write(root: Path, files: dict[str, bytes | str]) -> None:
    for rel, content in files.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        data = content.encode() if isinstance(content, str) else content
        target.write_bytes(data)


def paths(source: DirectorySource) -> list[str]:
    return [f.path for f in source.files()]


def test_yields_every_python_file_with_relative_posix_paths_and_raw_bytes(
    tmp_path: Path,
) -> None:
    write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/core.py": "raise ValueError('x')\n",
            "pkg/sub/deep.py": b"# latin-1 \xe9\n",
            "pkg/data.json": "{}",
            "README.md": "# readme",
            "setup.py": "from setuptools import setup\nsetup(name='demo-pkg')\n",
        },
    )
    source = DirectorySource(tmp_path)
    files = {f.path: f.data for f in source.files()}
    assert sorted(files) == ["pkg/__init__.py", "pkg/core.py", "pkg/sub/deep.py", "setup.py"]
    assert files["pkg/sub/deep.py"] == b"# latin-1 \xe9\n"  # bytes as-is, not decoded
    assert source.skipped == []


def test_a_stub_counts_only_when_no_py_sits_beside_it(tmp_path: Path) -> None:
    write(tmp_path, {"m/a.py": "", "m/a.pyi": "", "m/b.pyi": "", "m/__init__.pyi": ""})
    assert paths(DirectorySource(tmp_path)) == ["m/__init__.pyi", "m/a.py", "m/b.pyi"]


def test_vcs_data_caches_environments_builds_and_hidden_dirs_are_left_out(
    tmp_path: Path,
) -> None:
    left_out = [
        ".git/hooks/x.py",
        "__pycache__/x.py",
        "node_modules/x.py",
        ".venv/lib/x.py",
        "venv/lib/x.py",
        ".tox/py311/x.py",
        "build/lib/x.py",
        "dist/x.py",
        ".hidden/x.py",
        "pkg/__pycache__/x.py",
    ]
    write(tmp_path, dict.fromkeys([*left_out, "pkg/kept.py"], "x = 1\n"))
    assert paths(DirectorySource(tmp_path)) == ["pkg/kept.py"]


def test_symlinks_are_followed_only_inside_the_tree(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    write(outside, {"secret.py": "SECRET = 1\n", "lib/x.py": ""})
    root = tmp_path / "tree"
    write(root, {"pkg/real.py": "A = 1\n"})
    (root / "pkg/alias.py").symlink_to(root / "pkg/real.py")
    (root / "pkg/escape.py").symlink_to(outside / "secret.py")
    (root / "linked_dir").symlink_to(outside / "lib")

    source = DirectorySource(root)
    files = {f.path: f.data for f in source.files()}
    assert files == {"pkg/alias.py": b"A = 1\n", "pkg/real.py": b"A = 1\n"}
    reasons = {s.path: s.reason for s in source.skipped}
    assert reasons["pkg/escape.py"] == "symbolic link out of the tree"
    assert "not followed" in reasons["linked_dir"]


def test_too_large_and_special_files_are_skipped_with_a_reason(tmp_path: Path) -> None:
    write(tmp_path, {"big.py": b"#" * (MAX_FILE_BYTES + 1), "ok.py": "x = 1\n"})
    os.mkfifo(tmp_path / "pipe.py")  # reading it would hang
    source = DirectorySource(tmp_path)
    assert paths(source) == ["ok.py"]
    reasons = {s.path: s.reason for s in source.skipped}
    assert reasons["big.py"].startswith("too large")
    assert reasons["pipe.py"] == "not a regular file"


def test_project_version_and_links_come_from_pyproject(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "pyproject.toml": """
[project]
name = "demo"
version = "1.4.0"
[project.urls]
Homepage = "https://demo.example.org"
"Bug Tracker" = "https://github.com/acme/demo/issues"
""",
            "demo/__init__.py": "",
        },
    )
    info = DirectorySource(tmp_path).info
    assert (info.project, info.version, info.source_kind) == ("demo", "1.4.0", "directory")
    assert info.tracker_url == "https://github.com/acme/demo/issues"
    assert info.homepage == "https://demo.example.org"
    assert info.link_template is None


@pytest.mark.parametrize(
    ("files", "project", "version"),
    [
        ({"setup.cfg": "[metadata]\nname = cfg-demo\nversion = 2.0\n"}, "cfg-demo", "2.0"),
        (
            {"setup.cfg": "[metadata]\nname = cfg-demo\nversion = attr: pkg.__version__\n"},
            "cfg-demo",
            "local",
        ),
        ({"setup.py": "setup(\n    name='py-demo',\n)\n"}, "py-demo", "local"),
        ({"pyproject.toml": "not [valid toml", "setup.py": "setup(name='fb')"}, "fb", "local"),
        ({}, "myfolder", "local"),
    ],
)
def test_project_falls_back_to_setup_cfg_setup_py_then_the_folder_name(
    tmp_path: Path, files: dict[str, bytes | str], project: str, version: str
) -> None:
    root = tmp_path / "myfolder"
    root.mkdir()
    write(root, {**files, "m.py": ""})
    info = DirectorySource(root).info
    assert (info.project, info.version) == (project, version)


def test_revision_hashes_paths_and_contents_not_times(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    for root in (a, b):
        write(root, {"pkg/x.py": "x = 1\n", "pkg/y.py": "y = 2\n"})
    os.utime(a / "pkg/x.py", (1_000_000, 1_000_000))
    assert DirectorySource(a).info.revision == DirectorySource(b).info.revision

    (b / "pkg/y.py").write_text("y = 3\n")
    assert DirectorySource(a).info.revision != DirectorySource(b).info.revision
    (b / "pkg/y.py").rename(b / "pkg/z.py")
    write(b, {"pkg/z.py": "y = 2\n"})
    assert DirectorySource(a).info.revision != DirectorySource(b).info.revision


def test_date_is_the_newest_modification_time_in_iso_form(tmp_path: Path) -> None:
    write(tmp_path, {"old.py": "", "new.py": ""})
    os.utime(tmp_path / "old.py", (0, 1_600_000_000))
    os.utime(tmp_path / "new.py", (0, 1_700_000_000))
    assert DirectorySource(tmp_path).info.date == "2023-11-14T22:13:20+00:00"


def test_a_missing_path_or_a_file_is_a_source_error(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="no such file or directory"):
        DirectorySource(tmp_path / "nope")
    (tmp_path / "f.py").write_text("")
    with pytest.raises(SourceError, match="not a directory"):
        DirectorySource(tmp_path / "f.py")
