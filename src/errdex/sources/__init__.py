"""Where code comes from: a directory, a git revision, an archive, the index, installed dists."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from errdex.errors import SourceError
from errdex.lazy_names import lazy_names
from errdex.sources.base import MAX_FILE_BYTES, Skipped, Source, SourceFile, VersionInfo

if TYPE_CHECKING:
    from errdex.sources.archive import ArchiveSource
    from errdex.sources.archive_names import ARCHIVE_SUFFIXES, is_archive
    from errdex.sources.directory import DirectorySource
    from errdex.sources.git import GitSource, list_tags
    from errdex.sources.installed import InstalledSource, installed_all, installed_source
    from errdex.sources.pypi import cache_dir, download, parse_requirement, pypi_source

# The kinds of source, each imported when first named: whatever only reads `base`'s records
# (a lookup into what is indexed) need not import archives, git and the package index.
_LAZY = {
    "ARCHIVE_SUFFIXES": "errdex.sources.archive_names",
    "ArchiveSource": "errdex.sources.archive",
    "is_archive": "errdex.sources.archive_names",
    "DirectorySource": "errdex.sources.directory",
    "GitSource": "errdex.sources.git",
    "list_tags": "errdex.sources.git",
    "InstalledSource": "errdex.sources.installed",
    "installed_all": "errdex.sources.installed",
    "installed_source": "errdex.sources.installed",
    "cache_dir": "errdex.sources.pypi",
    "download": "errdex.sources.pypi",
    "parse_requirement": "errdex.sources.pypi",
    "pypi_source": "errdex.sources.pypi",
}


__getattr__ = lazy_names(globals(), _LAZY)


__all__ = [
    "ARCHIVE_SUFFIXES",
    "MAX_FILE_BYTES",
    "ArchiveSource",
    "DirectorySource",
    "GitSource",
    "InstalledSource",
    "Skipped",
    "Source",
    "SourceFile",
    "VersionInfo",
    "absolute_spec",
    "cache_dir",
    "download",
    "installed_all",
    "installed_source",
    "is_archive",
    "list_tags",
    "open_source",
    "open_sources",
    "parse_requirement",
    "pypi_source",
]

INSTALLED_PREFIX = "installed:"


def _git_spec(spec: str) -> tuple[str, str] | None:
    """`(path, rev)` when `spec` is `PATH@REV` with PATH an existing directory."""
    at = spec.find("@")
    while at > 0:
        if Path(spec[:at]).is_dir() and at + 1 < len(spec):
            return spec[:at], spec[at + 1 :]
        at = spec.find("@", at + 1)
    return None


def _dispatch(spec: str) -> list[Source]:
    from errdex.sources.archive import ArchiveSource
    from errdex.sources.archive_names import ARCHIVE_SUFFIXES, is_archive
    from errdex.sources.directory import DirectorySource
    from errdex.sources.git import GitSource
    from errdex.sources.installed import installed_all, installed_source
    from errdex.sources.pypi import parse_requirement, pypi_source
    from errdex.sources.remote_git import parse_remote, remote_git_source

    if spec.startswith(INSTALLED_PREFIX):
        name = spec[len(INSTALLED_PREFIX) :].strip()
        if name == "*":
            return list(installed_all())
        return [installed_source(name, spec=spec)]
    path = Path(spec)
    if path.is_dir():
        return [DirectorySource(path, spec=spec)]
    git = _git_spec(spec)
    if git is not None:
        return [GitSource(git[0], git[1], spec=spec)]
    if path.is_file():
        if is_archive(path):
            return [ArchiveSource(path, spec=spec)]
        suffixes = ", ".join(ARCHIVE_SUFFIXES)
        raise SourceError(f"not a directory or an archive ({suffixes}): {spec}")
    remote = parse_remote(spec)
    if remote is not None:
        return [remote_git_source(spec, remote)]
    if parse_requirement(spec) is not None:
        return [pypi_source(spec)]
    if path.exists():
        raise SourceError(f"not a directory, file or git revision: {spec}")
    raise SourceError(f"no such file or directory: {spec.partition('@')[0] or spec}")


def open_sources(
    spec: str, *, project: str | None = None, version: str | None = None
) -> list[Source]:
    """The sources a user's SOURCE argument names, with `--project`/`--version` applied.

    - an existing directory: its tree as it is now;
    - `PATH@REV` with PATH a git repository: that tag, branch or commit, read through git;
    - an existing `.whl`, `.tar.gz`, `.tgz`, `.tar.bz2`, `.tar.xz` or `.zip` file;
    - `URL[@REV]`: a git repository by its address, only that revision fetched;
    - `NAME==VERSION`: downloaded from the package index into the cache;
    - `installed:NAME`: an installed distribution; `installed:*`: all of them.
    """
    spec = spec.strip()
    if not spec:
        raise SourceError("no source given")
    sources = _dispatch(spec)
    if project is not None or version is not None:
        for source in sources:
            source.info = msgspec.structs.replace(
                source.info,
                project=project if project is not None else source.info.project,
                version=version if version is not None else source.info.version,
            )
    return sources


def absolute_spec(spec: str) -> str:
    """The spec with its local path made absolute (`./repo@v1.0` → `/home/me/repo@v1.0`), so
    that a process working in another folder (a cluster's worker) reads the same files;
    any other spec (`NAME==VERSION`, `installed:NAME`) as it is."""
    spec = spec.strip()
    if spec.startswith(INSTALLED_PREFIX):
        return spec
    path = Path(spec)
    if path.exists():  # as `_dispatch` does: an existing path is a path, whatever it looks like
        return os.fspath(path.absolute())
    git = _git_spec(spec)
    if git is not None:
        return f"{Path(git[0]).absolute()}@{git[1]}"
    return spec


def open_source(spec: str, *, project: str | None = None, version: str | None = None) -> Source:
    """The one source a spec names (`installed:*`, which names many, is an error here)."""
    sources = open_sources(spec, project=project, version=version)
    if len(sources) != 1:
        raise SourceError(f"{spec} names {len(sources)} sources, not one")
    return sources[0]
