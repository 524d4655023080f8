"""A git repository at a revision as a source, read through git itself (no checkout)."""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import IO, NamedTuple

from packaging.version import InvalidVersion, Version

from errdex.errors import SourceError
from errdex.sources._common import (
    MAX_CATALOG_BYTES,
    MAX_CATALOG_FILE,
    catalog_paths,
    in_skipped_dir,
    is_python,
    select_python,
    too_large,
    tree_project,
    unsafe_reason,
)
from errdex.sources.base import MAX_FILE_BYTES, Skipped, SourceFile, VersionInfo
from errdex.sources.entry_points import tree_entry_points

_PACKAGING_FILES = ("pyproject.toml", "setup.cfg", "setup.py")
_PACKAGING_FILE_LIMIT = 1024 * 1024
_SYMLINK_MODE = "120000"


class _Blob(NamedTuple):
    path: str
    object_id: str
    size: int


def git_env() -> dict[str, str]:
    """The environment for git: no prompts, stable messages, no inherited repository."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY"}
    }
    env.update({"GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C", "LANGUAGE": "C"})
    return env


def _git(repo: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[bytes]:
    """Run one git command in `repo`, capturing its output."""
    try:
        done = subprocess.run(
            ["git", *args],
            cwd=repo,
            env=git_env(),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            check=False,
        )
    except FileNotFoundError as exc:
        raise SourceError("git is not installed (needed to read a repository)") from exc
    if check and done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        detail = message[-1] if message else f"exit status {done.returncode}"
        raise SourceError(f"git {args[0]} failed in {repo}: {detail}")
    return done


def _out(done: subprocess.CompletedProcess[bytes]) -> str:
    return done.stdout.decode("utf-8", "replace").strip()


def _open_repo(path: str | os.PathLike[str]) -> Path:
    """The repository directory, or a `SourceError` saying why it is not one."""
    repo = Path(path)
    if not repo.exists():
        raise SourceError(f"no such file or directory: {path}")
    if not repo.is_dir():
        raise SourceError(f"not a git repository: {path}")
    done = _git(repo, "rev-parse", "--git-dir", check=False)
    if done.returncode != 0:
        lines = done.stderr.decode("utf-8", "replace").strip().splitlines()
        if lines and "not a git repository" not in lines[0].lower():
            raise SourceError(f"cannot read the git repository {path}: {lines[0]}")
        raise SourceError(f"not a git repository: {path}")
    return repo


def web_repository(remote_url: str) -> str | None:
    """The web address of a GitHub or GitLab remote (`https://github.com/o/r`), else None."""
    match = re.match(
        r"^(?:[a-z][a-z0-9+.-]*://)?(?:[^@/]+@)?([^/:@]+)(?::\d+)?[:/](.+?)(?:\.git)?/*$",
        remote_url.strip(),
    )
    if match is None:
        return None
    host, repo_path = match.group(1).lower(), match.group(2).strip("/")
    if not re.fullmatch(r"[\w.-]+(?:/[\w.-]+)+", repo_path):
        return None
    if host in {"github.com", "www.github.com"} and repo_path.count("/") == 1:
        return f"https://github.com/{repo_path}"
    if host == "gitlab.com" or host.startswith("gitlab."):
        return f"https://{host}/{repo_path}"
    return None


def web_link_template(remote_url: str) -> str | None:
    """A "view source" template for a GitHub or GitLab remote URL, else None.

    The template keeps `{revision}`, `{path}` and `{line}` as fields to fill.
    """
    base = web_repository(remote_url)
    if base is None:
        return None
    blob = "/blob/" if base.startswith("https://github.com/") else "/-/blob/"
    return base + blob + "{revision}/{path}#L{line}"


def _version_key(tag: str) -> tuple[int, Version]:
    digit = re.search(r"\d", tag)
    try:
        if digit is not None:
            return (0, Version(tag[digit.start() :]))
    except InvalidVersion:
        pass
    return (1, Version("0"))  # not a version: after the versions, in git's own order


def worktree_files(path: str | os.PathLike[str]) -> tuple[Path, set[str]]:
    """A repository's top folder, and the files of its working tree that git does not
    ignore, tracked or not (relative to that folder, as a revision's paths are)."""
    repo = _open_repo(path)
    top = Path(_out(_git(repo, "rev-parse", "--show-toplevel")))
    done = _git(top, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
    return top, {name.decode("utf-8", "replace") for name in done.stdout.split(b"\0") if name}


def list_tags(path: str | os.PathLike[str], pattern: str = "*") -> list[str]:
    """The repository's tags matching a glob `pattern`, oldest version first.

    Tags that read as versions (`v1.2.0`, `release-2.0rc1`) are ordered by PEP 440; the
    others follow in git's version order.
    """
    repo = _open_repo(path)
    done = _git(repo, "tag", "--list", "--sort=version:refname", "--", pattern)
    tags = [line for line in _out(done).splitlines() if line]
    return sorted(tags, key=_version_key)


def _catalog_blob(path: str, kind: str, mode: str, size: str) -> bool:
    """A tree entry that may be a gettext catalog to read: a file at a safe path."""
    if not path.endswith((".po", ".mo")) or kind != "blob" or mode == _SYMLINK_MODE:
        return False
    return unsafe_reason(path) is None and not in_skipped_dir(path) and size.isdigit()


class GitSource:
    """The Python files of a git repository at one revision (tag, branch or commit).

    Paths are relative to the repository root. Blobs are read with one
    `git cat-file --batch` process; nothing is checked out.
    """

    def __init__(self, path: str | os.PathLike[str], rev: str, *, spec: str | None = None) -> None:
        self.repo = _open_repo(path)
        if not rev or rev.startswith("-"):
            raise SourceError(f"unknown revision {rev!r} in {path}")
        found = _git(
            self.repo, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}", check=False
        )
        if found.returncode != 0:
            raise SourceError(f"unknown revision {rev!r} in {path}")
        self.commit = _out(found)
        self.skipped: list[Skipped] = []
        self._packaging: dict[str, tuple[str, int]] = {}  # root file -> (object id, size)
        self._catalogs: dict[str, _Blob] = {}  # gettext catalogs: read by `catalogs`
        self._blobs = self._list_tree()
        self._scan_skipped = list(self.skipped)

        project = tree_project(self._read_packaging_file)
        remote = _git(self.repo, "config", "--get", "remote.origin.url", check=False)
        origin = _out(remote) if remote.returncode == 0 else ""
        template = web_link_template(origin)
        homepage = project.urls.homepage or project.urls.repository or web_repository(origin)
        date = _out(_git(self.repo, "show", "-s", "--format=%cI", self.commit))
        self.info = VersionInfo(
            project=project.name or self._folder_name(),
            version=rev if self._is_named_ref(rev) else self._short(),
            revision=self.commit,
            date=date or None,
            source_kind="git",
            source=spec if spec is not None else f"{path}@{rev}",
            link_template=template,
            tracker_url=project.urls.tracker,
            homepage=homepage,
            entry_points=tree_entry_points(self._read_packaging_file),
        )

    def files(self) -> Iterator[SourceFile]:
        """Yield the revision's Python files in path order, streamed from `git cat-file`."""
        self.skipped = list(self._scan_skipped)
        yield from self._read(self._blobs)

    def catalogs(self) -> Iterator[SourceFile]:
        """Yield the revision's gettext catalogs (`catalog_paths`), within a budget of their
        own: the translations a user may see its messages in."""
        chosen = catalog_paths(self._catalogs)
        blobs, spent = [], 0
        for path in sorted(chosen):
            blob = self._catalogs[path]
            if blob.size <= MAX_CATALOG_FILE and spent + blob.size <= MAX_CATALOG_BYTES:
                blobs.append(blob)
                spent += blob.size
        yield from self._read(blobs)

    def _read(self, blobs: list[_Blob]) -> Iterator[SourceFile]:
        """The blobs' contents, streamed from one `git cat-file --batch`."""
        if not blobs:
            return
        try:
            process = subprocess.Popen(
                ["git", "cat-file", "--batch"],
                cwd=self.repo,
                env=git_env(),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
            )
        except FileNotFoundError as exc:
            raise SourceError("git is not installed (needed to read a repository)") from exc
        assert process.stdin is not None and process.stdout is not None
        try:
            for blob in blobs:
                data = self._cat(process.stdin, process.stdout, blob)
                if data is not None:
                    yield SourceFile(blob.path, data)
        finally:
            with contextlib.suppress(OSError):
                process.stdin.close()
            process.stdout.close()  # a git still writing gets EPIPE and stops
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()

    def _cat(self, stdin: IO[bytes], stdout: IO[bytes], blob: _Blob) -> bytes | None:
        try:
            stdin.write(blob.object_id.encode("ascii") + b"\n")
            stdin.flush()
        except BrokenPipeError as exc:
            raise SourceError(f"git cat-file stopped while reading {self.repo}") from exc
        header = stdout.readline().split()
        if len(header) == 2 and header[1] == b"missing":
            self.skipped.append(Skipped(blob.path, "object missing from the repository"))
            return None
        if len(header) != 3:
            raise SourceError(f"git cat-file stopped while reading {self.repo}")
        size = int(header[2])
        data = stdout.read(size)
        stdout.read(1)  # the newline after each object
        if len(data) != size:
            raise SourceError(f"git cat-file stopped while reading {self.repo}")
        return data

    def _list_tree(self) -> list[_Blob]:
        done = _git(self.repo, "ls-tree", "-r", "-z", "--long", "--full-tree", self.commit)
        entries: dict[str, tuple[str, str, str, str]] = {}
        for entry in done.stdout.split(b"\0"):
            meta, tab, raw_path = entry.partition(b"\t")
            fields = meta.split()
            if not tab or len(fields) != 4:
                continue
            try:
                path = raw_path.decode("utf-8")
            except UnicodeDecodeError:
                if is_python(raw_path.decode("utf-8", "replace")):
                    name = raw_path.decode("utf-8", "replace")
                    self.skipped.append(Skipped(name, "path is not valid UTF-8"))
                continue
            mode, kind, object_id, size = (field.decode("ascii") for field in fields)
            if path in _PACKAGING_FILES and kind == "blob" and size.isdigit():
                self._packaging[path] = (object_id, int(size))
            if is_python(path) and not in_skipped_dir(path):
                entries[path] = (mode, kind, object_id, size)
            elif _catalog_blob(path, kind, mode, size):
                self._catalogs[path] = _Blob(path, object_id, int(size))

        blobs: list[_Blob] = []
        for path in sorted(select_python(entries)):
            mode, kind, object_id, size = entries[path]
            reason = unsafe_reason(path)
            if reason is None and kind != "blob":
                reason = f"not a file ({kind})"
            elif reason is None and mode == _SYMLINK_MODE:
                reason = "symbolic link"
            elif reason is None and int(size) > MAX_FILE_BYTES:
                reason = too_large(int(size), MAX_FILE_BYTES)
            if reason is None:
                blobs.append(_Blob(path, object_id, int(size)))
            else:
                self.skipped.append(Skipped(path, reason))
        return blobs

    def _read_packaging_file(self, name: str) -> bytes | None:
        entry = self._packaging.get(name)
        if entry is None or entry[1] > _PACKAGING_FILE_LIMIT:
            return None
        done = _git(self.repo, "cat-file", "blob", entry[0], check=False)
        return done.stdout if done.returncode == 0 else None

    def _is_named_ref(self, rev: str) -> bool:
        refs = [f"refs/tags/{rev}", f"refs/heads/{rev}", f"refs/remotes/{rev}"]
        if rev.startswith("refs/"):
            refs = [rev]
        return any(
            _git(self.repo, "show-ref", "--verify", "--quiet", ref, check=False).returncode == 0
            for ref in refs
        )

    def _short(self) -> str:
        return _out(_git(self.repo, "rev-parse", "--short", self.commit))

    def _folder_name(self) -> str:
        top = _git(self.repo, "rev-parse", "--show-toplevel", check=False)
        folder = Path(_out(top)) if top.returncode == 0 and _out(top) else self.repo.resolve()
        return folder.name.removesuffix(".git") or "repository"
