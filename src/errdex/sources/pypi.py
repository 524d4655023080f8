"""`NAME==VERSION` from the package index: fetched as a file into a cache, read as an archive."""

from __future__ import annotations

import os
from pathlib import Path

from packaging.utils import canonicalize_name
from platformdirs import user_cache_dir

from errdex.errors import SourceError
from errdex.lazy_re import lazy_compile
from errdex.sources.archive import ArchiveSource
from errdex.sources.archive_names import name_version_from_filename, same_version
from errdex.sources.digests import records_beside
from errdex.sources.pip_config import index_settings
from errdex.sources.repo_layout import fetch_sdist, with_layout

_REQUIREMENT = lazy_compile(
    r"^\s*(?P<name>[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*==\s*"
    r"(?P<version>[A-Za-z0-9][A-Za-z0-9.!+_-]*)\s*$"
)


def parse_requirement(spec: str) -> tuple[str, str] | None:
    """`(name, version)` for a `NAME==VERSION` spec, else None."""
    match = _REQUIREMENT.match(spec)
    return (match["name"], match["version"]) if match else None


def cache_dir() -> Path:
    """Where downloads are kept: `$ERRDEX_CACHE/downloads`, else the user cache's."""
    root = os.environ.get("ERRDEX_CACHE") or user_cache_dir("errdex")
    return Path(root) / "downloads"


def find_cached(directory: Path, name: str, version: str) -> Path | None:
    """An archive of `name==version` already in `directory` (a wheel before an sdist)."""
    if not directory.is_dir():
        return None
    wanted = canonicalize_name(name)
    matches: list[tuple[bool, str, Path]] = []
    for entry in directory.iterdir():
        parsed = name_version_from_filename(entry.name) if entry.is_file() else None
        if parsed is None:
            continue
        found_name, found_version, wheel = parsed
        if canonicalize_name(found_name) == wanted and same_version(found_version, version):
            matches.append((not wheel, entry.name, entry))
    return min(matches)[2] if matches else None


def fetch_release(name: str, version: str, directory: Path) -> Path:
    """Ask the configured indexes for `name==version`, download the file `choose` picks into
    `directory` and check its hash; a `SourceError` says why when there is nothing to read."""
    # Imported here: the HTTP client is needed only for a download, not to read the cache.
    from errdex.sources.simple_index import IndexClient, choose, release_files

    with IndexClient(index_settings()) as client:
        files = client.project_files(name)
        if files is None:
            raise SourceError(f"no project {name} on the index")
        release = release_files(files, name, version)
        if not release:
            raise SourceError(f"the index has no release {version} of {name}")
        chosen = choose(release)
        if chosen is None:
            listed = ", ".join(sorted({f.filename for f in release})[:5])
            raise SourceError(f"the index has neither a wheel nor an sdist of it (only {listed})")
        return client.download(chosen, directory)


def download(name: str, version: str, *, directory: Path | None = None) -> Path:
    """The wheel (or, when there is none, the sdist) of `name==version`, in the cache.

    A file already in the cache is used without touching the network. Otherwise the file
    is fetched from the index the user's pip is configured with, its hash checked against
    the index's: it is only ever read as an archive, never built, installed or run (pip's
    own download would prepare an sdist's metadata by running its build backend).
    """
    target = directory if directory is not None else cache_dir()
    cached = find_cached(target, name, version)
    if cached is not None:
        return cached
    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SourceError(f"cannot create the download cache {target}: {exc.strerror}") from exc
    try:
        return fetch_release(name, version, target)
    except SourceError as exc:
        raise SourceError(f"cannot download {name}=={version}: {exc}") from exc


def pypi_source(spec: str, *, directory: Path | None = None, layout: bool = True) -> ArchiveSource:
    """The archive of a `NAME==VERSION` spec, downloaded on first use (source_kind "pypi").
    With `layout`, a wheel's links follow the folder its sdist keeps the files under
    (`repo_layout`); without, a lookup's first answer waits on no second download, and the
    links say their path is guessed."""
    parsed = parse_requirement(spec)
    if parsed is None:
        raise SourceError(f"not a NAME==VERSION requirement: {spec}")
    name, version = parsed
    path = download(name, version, directory=directory)
    # its sha256 recorded beside it by the download (`digests`), not hashed again
    source = ArchiveSource(path, spec=spec, source_kind="pypi", digests=records_beside(path))
    if layout and source.wheel and source.info.link_template is not None:
        sdist = fetch_sdist(name, version, path.parent)
        source.info = with_layout(source.info, source.paths(), sdist)
    return source
