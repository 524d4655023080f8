"""Upgrade solutions, from releases of one project indexed side by side (a real git
repository with a tag for each release)."""

from __future__ import annotations

from pathlib import Path

from errdex.explain import build_page
from errdex.indexing import index_source
from errdex.sources import open_source
from errdex.store import Store, open_store
from samples import commit, git

V1 = {
    "pkg/__init__.py": "",
    "pkg/core.py": """
        def load(path, strict=True):
            if strict and path.endswith(".tmp"):
                raise ValueError("temporary files are refused")
            if path.startswith("~"):
                raise ValueError("paths must be expanded first")
            return path
        """,
}
# 2.0 drops the first check and changes the conditions of the second
V2 = {
    "pkg/core.py": """
        def load(path, strict=True):
            if strict and path.startswith("~") and not path.startswith("~/"):
                raise ValueError("paths must be expanded first: " + path)
            return path
        """,
}
# 3.0 only rewords the second check: no way out there
V3 = {
    "pkg/core.py": """
        def load(path, strict=True):
            if strict and path.startswith("~") and not path.startswith("~/"):
                raise ValueError("expand the path first: " + path)
            return path
        """,
}


def indexed(tmp_path: Path, *releases: dict[str, str]) -> Store:
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    store = open_store(tmp_path / "errdex.db")
    for number, files in enumerate(releases, 1):
        commit(repo, files, f"release {number}")
        git(repo, "tag", f"v{number}.0")
        index_source(open_source(f"{repo}@v{number}.0"), store)
    return store


def solutions_of(store: Store, message: str, version: str) -> list[tuple[str | None, str]]:
    (site,) = [
        s
        for s in store.list_sites(version=version)
        if s.site.message is not None and s.site.message.text.startswith(message)
    ]
    return [(s.kind, s.text) for s in build_page(store, site.id, version).solutions]


def test_a_check_gone_in_a_later_release_is_an_upgrade(tmp_path: Path) -> None:
    with indexed(tmp_path, V1, V2) as store:
        found = solutions_of(store, "temporary files", "v1.0")
        assert found[-1] == (
            "environment",
            "Upgrade repo to v2.0 or later: errdex's index of v2.0 has no such check at "
            "`pkg/core.py`.",
        )
        # the newest release has nothing to upgrade to
        assert not any("Upgrade" in t for _, t in solutions_of(store, "paths must", "v2.0"))


def test_a_check_under_other_conditions_is_an_upgrade_a_reworded_one_is_not(
    tmp_path: Path,
) -> None:
    with indexed(tmp_path, V1, V2, V3) as store:
        found = solutions_of(store, "paths must be expanded", "v1.0")
        assert found[-1] == (
            "environment",
            "Upgrade repo to v2.0 or later, where the check changed: it is raised only when "
            '`strict and path.startswith("~") and not path.startswith("~/")` '
            "(`pkg/core.py`:4).",
        )
        upgrades = [t for _, t in solutions_of(store, "paths must be expanded", "v2.0")]
        assert not any("Upgrade" in t for t in upgrades)


def test_a_check_moved_to_another_module_is_no_upgrade(tmp_path: Path) -> None:
    # 2.0 moves the code to another module: gone from its file, not from the release
    moved = {
        "pkg/core.py": "",
        "pkg/loader.py": V1["pkg/core.py"],
    }
    with indexed(tmp_path, V1, moved) as store:
        assert not any("Upgrade" in t for _, t in solutions_of(store, "temporary", "v1.0"))
