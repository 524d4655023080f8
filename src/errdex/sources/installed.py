"""Installed distributions as sources, found through their metadata (never imported)."""

from __future__ import annotations

import contextlib
import importlib.metadata as metadata
from collections.abc import Iterator
from pathlib import Path

from packaging.utils import canonicalize_name

from errdex.errors import SourceError
from errdex.sources._common import (
    is_python,
    iso_utc,
    metadata_urls,
    read_capped,
    select_python,
    sha256_hex,
    too_large,
    tree_revision,
    unsafe_reason,
)
from errdex.sources.base import MAX_FILE_BYTES, EntryPoint, Skipped, SourceFile, VersionInfo
from errdex.sources.entry_points import entry_points_txt


class InstalledSource:
    """The Python files an installed distribution's RECORD lists, relative to site-packages.

    The revision hashes the (path, content hash) pairs, taking each hash from RECORD
    when it is there and reading the file when it is not.
    """

    def __init__(self, dist: metadata.Distribution, *, spec: str | None = None) -> None:
        self.dist = dist
        self.skipped: list[Skipped] = []
        name = _first(dist, "Name") or "unknown"
        listed = {path.as_posix(): path for path in dist.files or []}
        self._files: list[tuple[str, Path]] = []
        hashes: list[tuple[str, str]] = []
        newest: float | None = None
        for rel in sorted(select_python(p for p in listed if is_python(p))):
            reason = unsafe_reason(rel)
            if reason is not None:
                self.skipped.append(Skipped(rel, f"outside site-packages ({reason})"))
                continue
            full = Path(str(dist.locate_file(listed[rel])))
            try:
                info = full.stat()
            except OSError:
                self.skipped.append(Skipped(rel, "listed in RECORD but missing"))
                continue
            if info.st_size > MAX_FILE_BYTES:
                self.skipped.append(Skipped(rel, too_large(info.st_size, MAX_FILE_BYTES)))
                continue
            record_hash = listed[rel].hash
            if record_hash is not None:
                content_hash = f"{record_hash.mode}={record_hash.value}"
            else:
                data = read_capped(rel, full, self.skipped)
                if data is None:
                    continue
                content_hash = sha256_hex(data)
            hashes.append((rel, content_hash))
            self._files.append((rel, full))
            newest = info.st_mtime if newest is None else max(newest, info.st_mtime)
        self._scan_skipped = list(self.skipped)

        urls = metadata_urls(dist.metadata.get_all)
        self.info = VersionInfo(
            project=name,
            version=_first(dist, "Version") or "unknown",
            revision=tree_revision(hashes),
            date=iso_utc(newest) if newest is not None else None,
            source_kind="installed",
            source=spec if spec is not None else f"installed:{name}",
            link_template=None,
            tracker_url=urls.tracker,
            homepage=urls.homepage or urls.repository,
            entry_points=_entry_points(dist),
        )

    def files(self) -> Iterator[SourceFile]:
        """Yield the distribution's Python files in path order."""
        self.skipped = list(self._scan_skipped)
        for rel, full in self._files:
            data = read_capped(rel, full, self.skipped)
            if data is not None:
                yield SourceFile(rel, data)


def _entry_points(dist: metadata.Distribution) -> tuple[EntryPoint, ...]:
    """The scripts its `entry_points.txt` names, read as text (nothing is imported)."""
    try:
        text = dist.read_text("entry_points.txt")
    except (OSError, UnicodeDecodeError):
        return ()
    return entry_points_txt(text.encode()) if text else ()


def _first(dist: metadata.Distribution, field: str) -> str | None:
    """One metadata field, or None when it is missing (no warning, no KeyError)."""
    values = dist.metadata.get_all(field)
    if not values:
        return None
    return str(values[0]).strip() or None


def installed_source(name: str, *, spec: str | None = None) -> InstalledSource:
    """The installed distribution called `name` in the running environment."""
    if not name.strip():
        raise SourceError("installed: needs a distribution name")
    try:
        dist = metadata.distribution(name.strip())
    except (metadata.PackageNotFoundError, ValueError) as exc:
        raise SourceError(f"not installed: {name}") from exc
    return InstalledSource(dist, spec=spec)


def installed_all() -> list[InstalledSource]:
    """Every distribution of the running environment, once each (the first on sys.path)."""
    seen: set[str] = set()
    sources: list[InstalledSource] = []
    for dist in metadata.distributions():
        name = _first(dist, "Name")
        if not name:
            continue  # a broken or empty metadata directory
        key = canonicalize_name(name)
        if key in seen:
            continue
        seen.add(key)
        with contextlib.suppress(OSError, ValueError):
            sources.append(InstalledSource(dist))
    return sorted(sources, key=lambda source: canonicalize_name(source.info.project))
