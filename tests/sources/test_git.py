"""A git source reads a revision's files through git itself, without a checkout."""

from __future__ import annotations

from pathlib import Path

import pytest

from errdex.errors import SourceError
from errdex.sources.base import MAX_FILE_BYTES
from errdex.sources.git import GitSource, list_tags, web_link_template
from samples import COMMIT_DATE, commit, git


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """v1.0: pkg/a.py says 1; main: a.py says 2, plus b.py; a `feature` branch in between."""
    root = tmp_path / "demo-repo"
    root.mkdir()
    git(root, "init", "-q")
    commit(root, {"pyproject.toml": '[project]\nname = "demo"\n', "pkg/a.py": "A = 1\n"}, "one")
    git(root, "tag", "v1.0")
    git(root, "branch", "feature")
    commit(root, {"pkg/a.py": "A = 2\n", "pkg/b.py": "B = 2\n"}, "two")
    return root


def read(source: GitSource) -> dict[str, bytes]:
    return {f.path: f.data for f in source.files()}


def test_a_tag_reads_that_revision_not_the_work_tree(repo: Path) -> None:
    (repo / "pkg/a.py").write_text("A = 'uncommitted'\n")
    source = GitSource(repo, "v1.0")
    assert read(source) == {"pkg/a.py": b"A = 1\n"}
    assert source.info.version == "v1.0"
    assert source.info.revision == git(repo, "rev-parse", "v1.0^{commit}")
    assert (source.info.project, source.info.source_kind) == ("demo", "git")
    assert source.info.date == COMMIT_DATE
    assert source.info.source == f"{repo}@v1.0"


def test_a_branch_keeps_its_name_and_a_sha_becomes_a_short_sha(repo: Path) -> None:
    assert GitSource(repo, "feature").info.version == "feature"
    head = git(repo, "rev-parse", "HEAD")
    by_sha = GitSource(repo, head)
    assert by_sha.info.version == git(repo, "rev-parse", "--short", head)
    assert by_sha.info.revision == head
    assert read(by_sha) == {"pkg/a.py": b"A = 2\n", "pkg/b.py": b"B = 2\n"}
    assert GitSource(repo, "HEAD").info.version == by_sha.info.version


def test_many_files_stream_through_one_batch_reader(repo: Path) -> None:
    files = {f"pkg/gen/m{i:03}.py": f"N = {i}\n" * (i + 1) for i in range(150)}
    commit(repo, files, "many")
    got = read(GitSource(repo, "main"))
    for rel, text in files.items():
        assert got[rel] == text.encode()
    assert len(got) == 152

    early = GitSource(repo, "main").files()
    assert next(early).path == "pkg/a.py"
    early.close()  # a consumer that stops early leaves no git process behind


def test_links_symlinks_big_blobs_and_skipped_dirs_are_left_out(repo: Path) -> None:
    (repo / "pkg").joinpath("link.py").symlink_to("a.py")
    commit(
        repo,
        {
            "pkg/big.py": "#" * (MAX_FILE_BYTES + 1),
            "build/lib/pkg/a.py": "",
            ".github/scripts/ci.py": "",
            "stubs/only.pyi": "",
            "pkg/a.pyi": "",
        },
        "odd files",
    )
    source = GitSource(repo, "main")
    assert sorted(read(source)) == ["pkg/a.py", "pkg/b.py", "stubs/only.pyi"]
    reasons = {s.path: s.reason for s in source.skipped}
    assert reasons["pkg/link.py"] == "symbolic link"
    assert reasons["pkg/big.py"].startswith("too large")


@pytest.mark.parametrize(
    ("remote", "template"),
    [
        (
            "https://github.com/acme/demo.git",
            "https://github.com/acme/demo/blob/{revision}/{path}#L{line}",
        ),
        (
            "git@github.com:acme/demo.git",
            "https://github.com/acme/demo/blob/{revision}/{path}#L{line}",
        ),
        (
            "ssh://git@gitlab.com/group/sub/demo.git",
            "https://gitlab.com/group/sub/demo/-/blob/{revision}/{path}#L{line}",
        ),
        (
            "https://user:token@github.com/acme/demo",
            "https://github.com/acme/demo/blob/{revision}/{path}#L{line}",
        ),
        ("/srv/git/demo.git", None),
        ("https://example.org/acme/demo.git", None),
    ],
)
def test_web_link_template_from_a_remote_url(remote: str, template: str | None) -> None:
    assert web_link_template(remote) == template


def test_link_template_comes_from_the_origin_remote(repo: Path) -> None:
    assert GitSource(repo, "v1.0").info.link_template is None
    git(repo, "remote", "add", "origin", "git@github.com:acme/demo.git")
    info = GitSource(repo, "v1.0").info
    assert info.link_template == "https://github.com/acme/demo/blob/{revision}/{path}#L{line}"
    assert info.homepage == "https://github.com/acme/demo"


def test_tags_are_listed_in_version_order_and_filtered_by_glob(repo: Path) -> None:
    for tag in ["v1.10", "v1.9", "v2.0", "v2.0rc1", "nightly"]:
        git(repo, "tag", tag)
    assert list_tags(repo) == ["v1.0", "v1.9", "v1.10", "v2.0rc1", "v2.0", "nightly"]
    assert list_tags(repo, "v1.*") == ["v1.0", "v1.9", "v1.10"]


def test_clear_errors_for_no_repository_and_unknown_revision(repo: Path, tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    with pytest.raises(SourceError, match="not a git repository"):
        GitSource(plain, "main")
    with pytest.raises(SourceError, match="not a git repository"):
        list_tags(plain)
    with pytest.raises(SourceError, match=r"unknown revision 'v9\.9'"):
        GitSource(repo, "v9.9")
    with pytest.raises(SourceError, match="unknown revision"):
        GitSource(repo, "--output=x")
    with pytest.raises(SourceError, match="no such file or directory"):
        GitSource(tmp_path / "missing", "main")
