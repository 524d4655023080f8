"""The console scripts a version installs, read from its packaging files as text."""

from __future__ import annotations

import subprocess
import textwrap
import zipfile
from pathlib import Path

from errdex.sources.archive import ArchiveSource
from errdex.sources.base import EntryPoint
from errdex.sources.directory import DirectorySource
from errdex.sources.entry_points import (
    entry_points_txt,
    pyproject_scripts,
    setup_cfg_scripts,
    setup_py_scripts,
)
from errdex.sources.git import GitSource

VLLM = EntryPoint("console_scripts", "vllm", "vllm.entrypoints.cli.main:main")


def _b(text: str) -> bytes:
    return textwrap.dedent(text).encode()


def test_a_wheels_entry_points_txt_gives_its_scripts_not_its_plugins() -> None:
    found = entry_points_txt(
        _b("""
        [console_scripts]
        vllm = vllm.entrypoints.cli.main:main

        [vllm.general_plugins]
        lora = vllm.plugins.lora:register
        """)
    )
    assert found == (VLLM,)


def test_pyproject_scripts_gui_scripts_and_poetry() -> None:
    found = pyproject_scripts(
        _b("""
        [project]
        name = "demo"
        [project.scripts]
        demo = "demo.cli:main [extra]"
        [project.gui-scripts]
        demo-gui = "demo.gui:run"
        [tool.poetry.scripts]
        legacy = "demo.old:main"
        """)
    )
    assert [(e.group, e.name, e.target) for e in found] == [
        ("console_scripts", "demo", "demo.cli:main"),
        ("gui_scripts", "demo-gui", "demo.gui:run"),
        ("console_scripts", "legacy", "demo.old:main"),
    ]


def test_setup_cfg_options_entry_points() -> None:
    found = setup_cfg_scripts(
        _b("""
        [metadata]
        name = demo
        [options.entry_points]
        console_scripts =
            demo = demo.cli:main
            demo-admin = demo.admin:main
        """)
    )
    assert [e.name for e in found] == ["demo", "demo-admin"]


def test_setup_py_is_parsed_not_run_literal_or_bound_name() -> None:
    bound = _b("""
        import sys
        sys.exit("never run")
        SCRIPTS = {"console_scripts": ["demo = demo.cli:main"]}
        setup(name="demo", entry_points=SCRIPTS)
        """)
    inline = _b("""
        from setuptools import setup
        setup(entry_points='''
            [console_scripts]
            demo = demo.cli:main
        ''')
        """)
    for data in (bound, inline):
        assert setup_py_scripts(data) == (EntryPoint("console_scripts", "demo", "demo.cli:main"),)


def test_malformed_files_give_nothing() -> None:
    assert pyproject_scripts(b"[project\nscripts = ") == ()
    assert setup_cfg_scripts(b"\xff\xfe") == ()
    assert setup_py_scripts(b"setup(entry_points=compute())") == ()
    # a target that is no module path is left out
    assert entry_points_txt(b"[console_scripts]\nbad = rm -rf /\n") == ()


def test_a_wheel_source_reads_its_dist_info_entry_points(tmp_path: Path) -> None:
    wheel = tmp_path / "demo-1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr("demo/__init__.py", "")
        archive.writestr("demo-1.0.dist-info/METADATA", "Name: demo\nVersion: 1.0\n")
        archive.writestr(
            "demo-1.0.dist-info/entry_points.txt", "[console_scripts]\ndemo = demo.cli:main\n"
        )
    info = ArchiveSource(wheel).info
    assert info.entry_points == (EntryPoint("console_scripts", "demo", "demo.cli:main"),)


def test_an_sdist_reads_the_pyproject_in_its_top_folder(tmp_path: Path) -> None:
    import io
    import tarfile

    sdist = tmp_path / "demo-1.0.tar.gz"
    with tarfile.open(sdist, "w:gz") as archive:
        for name, text in (
            ("demo-1.0/PKG-INFO", "Name: demo\nVersion: 1.0\n"),
            (
                "demo-1.0/pyproject.toml",
                '[project]\nname = "demo"\n[project.scripts]\ndemo = "demo.cli:main"\n',
            ),
            ("demo-1.0/demo/__init__.py", ""),
        ):
            data = text.encode()
            member = tarfile.TarInfo(name)
            member.size = len(data)
            archive.addfile(member, io.BytesIO(data))
    assert [e.name for e in ArchiveSource(sdist).info.entry_points] == ["demo"]


def test_a_folder_and_a_git_revision_read_their_packaging_files(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "setup.cfg").write_text(
        "[metadata]\nname = pkg\n[options.entry_points]\nconsole_scripts =\n  pkg = pkg:main\n"
    )
    assert [e.target for e in DirectorySource(tmp_path).info.entry_points] == ["pkg:main"]

    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=tmp_path, check=True, capture_output=True)

    git("init", "-q")
    git("add", "-A")
    git("-c", "user.name=t", "-c", "user.email=t@e", "commit", "-qm", "one")
    (tmp_path / "setup.cfg").write_text("[metadata]\nname = pkg\n")
    git("add", "-A")
    git("-c", "user.name=t", "-c", "user.email=t@e", "commit", "-qm", "two")
    # each revision has the scripts it declared then
    assert [e.name for e in GitSource(tmp_path, "HEAD~1").info.entry_points] == ["pkg"]
    assert GitSource(tmp_path, "HEAD").info.entry_points == ()
