"""Installed distributions as sources, found through their metadata (never imported)."""

from __future__ import annotations

import contextlib
import csv
import os
from collections.abc import Iterator
from pathlib import PurePosixPath

from errdex.errors import SourceError
from errdex.sources._common import (
    catalog_paths,
    github_link_template,
    is_python,
    iso_utc,
    metadata_urls,
    read_capped,
    read_catalogs,
    select_python,
    sha256_hex,
    too_large,
    tree_revision,
    unsafe_reason,
)
from errdex.sources.base import (
    MAX_FILE_BYTES,
    EntryPoint,
    Pin,
    Skipped,
    SourceFile,
    VersionInfo,
    canonical_name,
)
from errdex.sources.dist_info import Distribution, Fields, distribution
from errdex.sources.entry_points import entry_points_txt
from errdex.sources.release_pins import direct_url_commit


class InstalledSource:
    """The Python files an installed distribution's RECORD lists, relative to site-packages.

    The revision hashes the (path, content hash) pairs, taking each hash from RECORD
    when it is there and reading the file when it is not.
    """

    def __init__(self, dist: Distribution, *, spec: str | None = None) -> None:
        self.dist = dist
        self.skipped: list[Skipped] = []
        meta = dist.metadata  # parsed anew on each access: once is enough
        name = _first(meta, "Name") or "unknown"
        self._files: list[tuple[str, str]] = []
        hashes: list[tuple[str, str]] = []
        newest: float | None = None
        listed = _listed(dist)
        for rel in sorted(select_python(p for p in listed if is_python(p))):
            reason = unsafe_reason(rel)
            if reason is not None:
                self.skipped.append(Skipped(rel, f"outside site-packages ({reason})"))
                continue
            full, record_hash = listed[rel]
            try:
                info = os.stat(full)  # noqa: PTH116 - no Path object per file (see _listed)
            except OSError:
                self.skipped.append(Skipped(rel, "listed in RECORD but missing"))
                continue
            if info.st_size > MAX_FILE_BYTES:
                self.skipped.append(Skipped(rel, too_large(info.st_size, MAX_FILE_BYTES)))
                continue
            if record_hash is not None:
                content_hash = record_hash
            else:
                data = read_capped(rel, full, self.skipped)
                if data is None:
                    continue
                content_hash = sha256_hex(data)
            hashes.append((rel, content_hash))
            self._files.append((rel, full))
            newest = info.st_mtime if newest is None else max(newest, info.st_mtime)
        self._scan_skipped = list(self.skipped)
        self._where = dict(self._files)
        # gettext catalogs it ships: read by `catalogs`, left out of the revision
        self._catalogs = {
            rel: listed[rel][0] for rel in catalog_paths(listed) if unsafe_reason(rel) is None
        }

        urls = metadata_urls(meta.get_all)
        direct = dist.read_text("direct_url.json")
        vcs = direct_url_commit(direct.encode()) if direct else None
        self.info = VersionInfo(
            project=name,
            version=_first(meta, "Version") or "unknown",
            revision=tree_revision(hashes),
            date=iso_utc(newest) if newest is not None else None,
            source_kind="installed",
            source=spec if spec is not None else f"installed:{name}",
            # a copy installed from a git checkout links its commit; any other has no
            # known origin (its files may differ from any release's)
            link_template=github_link_template(*vcs) if vcs else None,
            pin=Pin(kind="commit", ref=vcs[1], basis="recorded in its direct_url.json")
            if vcs
            else None,
            tracker_url=urls.tracker,
            homepage=urls.homepage or urls.repository,
            entry_points=_entry_points(dist),
        )

    def paths(self) -> list[str]:
        """The paths `files` yields, without reading any file."""
        return [rel for rel, _ in self._files]

    def read(self, path: str) -> bytes | None:
        """One file's bytes (None when it is not one of the source's files, or unreadable)."""
        full = self._where.get(path)
        return read_capped(path, full, self.skipped) if full is not None else None

    def catalogs(self) -> Iterator[SourceFile]:
        """Yield the distribution's gettext catalogs (`catalog_paths`), within a budget of
        their own: the translations a user may see its messages in."""
        return read_catalogs(self._catalogs)

    def files(self) -> Iterator[SourceFile]:
        """Yield the distribution's Python files in path order."""
        self.skipped = list(self._scan_skipped)
        for rel, full in self._files:
            data = read_capped(rel, full, self.skipped)
            if data is not None:
                yield SourceFile(rel, data)


def _entry_points(dist: Distribution) -> tuple[EntryPoint, ...]:
    """The scripts its `entry_points.txt` names, read as text (nothing is imported)."""
    try:
        text = dist.read_text("entry_points.txt")
    except (OSError, UnicodeDecodeError):
        return ()
    return entry_points_txt(text.encode()) if text else ()


def _listed(dist: Distribution) -> dict[str, tuple[str, str | None]]:
    """Each file RECORD lists: its posix path relative to site-packages → (its full path,
    its RECORD hash as `mode=value`, or None).

    RECORD is read as the CSV it is: the stdlib's `files` makes a path object per row,
    which for a package of thousands of files costs more than the rest of a first answer.
    Distributions without RECORD (old egg-info ones) go through `files`.
    """
    text = dist.read_text("RECORD")
    if text is None:
        return {
            path.as_posix(): (
                str(dist.locate_file(path)),
                f"{path.hash.mode}={path.hash.value}" if path.hash is not None else None,
            )
            for path in dist.files or []
        }
    base = str(dist.locate_file(""))
    # Joined as `os.path.join` joins a relative path (an absolute one, which it would take
    # as it is, is refused by `unsafe_reason` before its full path is used): thousands of
    # rows, so strings, not Paths, and no call a row.
    prefix = base if base.endswith(os.sep) else base + os.sep
    listed: dict[str, tuple[str, str | None]] = {}
    for row in csv.reader(text.splitlines()):
        if not row or not row[0]:
            continue
        rel = _posix(row[0])
        listed[rel] = (prefix + rel, row[1] if len(row) > 1 and row[1] else None)
    return listed


def _posix(written: str) -> str:
    """A RECORD path as the path objects spell it (no `./`, no doubled or trailing `/`)."""
    if "//" in written or "/./" in written or written.startswith("./") or written.endswith("/"):
        return PurePosixPath(written).as_posix()
    return written


def _first(meta: Fields, field: str) -> str | None:
    """One metadata field, or None when it is missing (no warning, no KeyError)."""
    values = meta.get_all(field)
    if not values:
        return None
    return str(values[0]).strip() or None


def installed_source(name: str, *, spec: str | None = None) -> InstalledSource:
    """The installed distribution called `name` in the running environment."""
    if not name.strip():
        raise SourceError("installed: needs a distribution name")
    dist = distribution(name.strip())
    if dist is None:
        raise SourceError(f"not installed: {name}")
    return InstalledSource(dist, spec=spec)


def installed_all() -> list[InstalledSource]:
    """Every distribution of the running environment, once each (the first on sys.path)."""
    import importlib.metadata

    seen: set[str] = set()
    sources: list[InstalledSource] = []
    for dist in importlib.metadata.distributions():
        name = _first(dist.metadata, "Name")
        if not name:
            continue  # a broken or empty metadata directory
        key = canonical_name(name)
        if key in seen:
            continue
        seen.add(key)
        with contextlib.suppress(OSError, ValueError):
            sources.append(InstalledSource(dist))
    return sorted(sources, key=lambda source: canonical_name(source.info.project))
