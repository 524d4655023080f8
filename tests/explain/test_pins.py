"""Pinned honestly, end to end: a git revision's page links its commit and is dated by it,
a folder of no known origin says so and carries no date, a release links its tag."""

from __future__ import annotations

import zipfile
from pathlib import Path

import msgspec
from rich.console import Console
from starlette.testclient import TestClient

from errdex.explain import build_page
from errdex.explain.page import Page
from errdex.indexing import index_source
from errdex.render.json import encode
from errdex.render.page_terminal import page_view
from errdex.sources import open_source
from errdex.store import open_store
from errdex.web import create_app
from samples import COMMIT_DATE, commit, git, write_package

CODE = {
    "pkg/__init__.py": "",
    "pkg/core.py": """
        def check(size):
            if size < 0:
                raise ValueError("size must not be negative")
        """,
}


def terminal_text(page: Page) -> str:
    console = Console(width=200, record=True)
    console.print(page_view(page))
    return console.export_text()


def page_html(db: Path, page: Page) -> str:
    with TestClient(create_app(str(db))) as client:
        return client.get(f"/errors/{page.id}").text


def search_html(db: Path, paste: str) -> str:
    with TestClient(create_app(str(db))) as client:
        return client.get("/search", params={"q": paste}).text


def only_page(db: Path, spec: str) -> Page:
    with open_store(db) as store:
        index_source(open_source(spec), store)
        (site,) = store.list_sites()
        return build_page(store, site.id)


def test_a_git_tag_is_pinned_to_its_commit_and_dated_by_it(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    sha = commit(repo, CODE, "first")
    git(repo, "tag", "v1.0")
    git(repo, "remote", "add", "origin", "https://github.com/example/pkg.git")
    page = only_page(tmp_path / "errdex.db", f"{repo}@v1.0")
    assert page.version == "v1.0"
    assert page.source.pinned == f"commit {sha[:10]}"
    assert page.source.url == f"https://github.com/example/pkg/blob/{sha}/pkg/core.py#L4"
    assert page.analysis.date == COMMIT_DATE  # the commit's, not the day it was indexed
    assert page.analysis.footer == f"Static analysis of repo at commit {sha[:10]}, 2024-03-01"


def test_a_folder_of_no_known_origin_says_so_and_has_no_date(tmp_path: Path) -> None:
    write_package(tmp_path / "src", CODE)
    page = only_page(tmp_path / "errdex.db", str(tmp_path / "src"))
    assert page.source.url is None
    assert page.source.pinned is not None
    assert page.source.pinned.startswith("a folder with no known origin, content hash ")
    assert page.analysis.date is None
    assert "no known origin" in page.analysis.footer


def test_a_release_archive_is_pinned_to_its_tag_and_dated_by_its_files(tmp_path: Path) -> None:
    wheel = tmp_path / "pkg-1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        for name, text in CODE.items():
            info = zipfile.ZipInfo(name, date_time=(2025, 6, 2, 10, 0, 0))
            archive.writestr(info, text.replace("\n        ", "\n").lstrip("\n"))
        meta = zipfile.ZipInfo("pkg-1.0.dist-info/METADATA", date_time=(2025, 6, 2, 10, 0, 0))
        archive.writestr(
            meta,
            "Name: pkg\nVersion: 1.0\nProject-URL: Source, https://github.com/example/pkg\n",
        )
    page = only_page(tmp_path / "errdex.db", str(wheel))
    # nothing the wheel carries names its tag, nor where the repository keeps the file (no
    # sdist beside it): the guesses say so, in every face
    assert page.source.pinned == "tag v1.0"
    assert page.source.pin_basis == "guessed from the version; path in the repository guessed"
    assert page.source.pin_guessed
    assert page.source.url == "https://github.com/example/pkg/blob/v1.0/pkg/core.py#L3"
    assert page.analysis.date is not None and page.analysis.date.startswith("2025-06-02")
    assert page.analysis.footer.startswith(
        "Static analysis of pkg at tag v1.0, guessed from the version; path in the repository"
        " guessed, 2025-06-02"
    )
    said = "View source (at tag v1.0, guessed from the version; path in the repository guessed)"
    assert said in terminal_text(page)
    assert said in page_html(tmp_path / "errdex.db", page)
    assert said in search_html(tmp_path / "errdex.db", "ValueError: size must not be negative")
    assert msgspec.json.decode(encode(page))["source"]["pin_guessed"] is True


def test_a_release_recording_its_commit_is_pinned_to_it(tmp_path: Path) -> None:
    wheel = tmp_path / "pkg-1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        for name, text in CODE.items():
            archive.writestr(name, text.replace("\n        ", "\n").lstrip("\n"))
        archive.writestr("pkg/_version.py", "version = '1.0'\ncommit_id = 'g1a2b3c4d5e'\n")
        archive.writestr(
            "pkg-1.0.dist-info/METADATA",
            "Name: pkg\nVersion: 1.0\nProject-URL: Homepage, https://github.com/example/pkg\n",
        )
    page = only_page(tmp_path / "errdex.db", str(wheel))
    # the commit is known, the file's place in the repository is not (no sdist lists it)
    assert (page.source.pinned, page.source.pin_guessed) == ("commit 1a2b3c4d5e", True)
    basis = "recorded in its pkg/_version.py; path in the repository guessed"
    assert page.source.pin_basis == basis
    assert page.source.url == "https://github.com/example/pkg/blob/1a2b3c4d5e/pkg/core.py#L3"
    assert f"View source (at commit 1a2b3c4d5e, {basis})" in terminal_text(page)
