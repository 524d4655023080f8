"""A directory tree on disk as a source: its Python files, read as they are now."""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Collection, Iterator
from pathlib import Path

from errdex.errors import SourceError
from errdex.sources._common import (
    is_python,
    iso_utc,
    read_capped,
    read_catalogs,
    select_python,
    sha256_hex,
    skip_dir,
    too_large,
    tree_project,
    tree_revision,
)
from errdex.sources.base import MAX_FILE_BYTES, Skipped, SourceFile, VersionInfo
from errdex.sources.entry_points import tree_entry_points

_PACKAGING_FILE_LIMIT = 1024 * 1024


class DirectorySource:
    """The `.py` files under a directory, skipping VCS data, caches, environments and builds.

    Symbolic links are followed only when they point to a file inside the tree; linked
    directories are never entered (no loops, no escape).
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        spec: str | None = None,
        keep: Collection[str] | None = None,
    ) -> None:
        """`keep`, when given, is the only relative paths to read (say, what git tracks)."""
        given = Path(path)
        if not given.exists():
            raise SourceError(f"no such file or directory: {path}")
        if not given.is_dir():
            raise SourceError(f"not a directory: {path}")
        self.root = given.resolve()
        self.skipped: list[Skipped] = []
        self._files: list[tuple[str, Path]] = []
        self._catalogs: dict[str, Path] = {}  # gettext catalogs found: read by `catalogs`
        self._scan(keep)

        hashes: list[tuple[str, str]] = []
        readable: list[tuple[str, Path]] = []
        newest: float | None = None
        for rel, full in self._files:
            data = read_capped(rel, full, self.skipped)
            if data is None:
                continue
            readable.append((rel, full))
            hashes.append((rel, sha256_hex(data)))
            with contextlib.suppress(OSError):
                mtime = full.stat().st_mtime
                newest = mtime if newest is None else max(newest, mtime)
        self._files = readable
        self._scan_skipped = list(self.skipped)

        project = tree_project(self._read_packaging_file)
        self.info = VersionInfo(
            project=project.name or self.root.name,
            version=project.version or "local",
            revision=tree_revision(hashes),
            date=iso_utc(newest) if newest is not None else None,
            source_kind="directory",
            source=spec if spec is not None else str(path),
            link_template=None,
            tracker_url=project.urls.tracker,
            homepage=project.urls.homepage or project.urls.repository,
            entry_points=tree_entry_points(self._read_packaging_file),
        )

    def files(self) -> Iterator[SourceFile]:
        """Yield the tree's Python files in path order, read from disk now."""
        self.skipped = list(self._scan_skipped)
        for rel, full in self._files:
            data = read_capped(rel, full, self.skipped)
            if data is not None:
                yield SourceFile(rel, data)

    def catalogs(self) -> Iterator[SourceFile]:
        """Yield the tree's gettext catalogs (`catalog_paths`), within a budget of their
        own: the translations a user may see its messages in."""
        usable = {rel: full for rel, full in self._catalogs.items() if not self._unusable(full)}
        return read_catalogs(usable)

    def _scan(self, keep: Collection[str] | None) -> None:
        candidates: dict[str, Path] = {}

        def on_error(exc: OSError) -> None:
            where = Path(exc.filename) if exc.filename else self.root
            self._skip(where, f"unreadable directory ({exc.strerror})")

        for dirpath, dirnames, filenames in os.walk(self.root, onerror=on_error):
            here = Path(dirpath)
            kept = []
            for name in sorted(dirnames):
                if skip_dir(name):
                    continue
                if (here / name).is_symlink():
                    self._skip(here / name, "symbolic link to a directory, not followed")
                    continue
                kept.append(name)
            dirnames[:] = kept
            for name in filenames:
                if is_python(name) or name.endswith((".po", ".mo")):
                    full = here / name
                    rel = full.relative_to(self.root).as_posix()
                    if keep is None or rel in keep:
                        found = candidates if is_python(name) else self._catalogs
                        found[rel] = full

        chosen = select_python(candidates)
        for rel in sorted(chosen):
            full = candidates[rel]
            reason = self._unusable(full)
            if reason is None:
                self._files.append((rel, full))
            else:
                self.skipped.append(Skipped(rel, reason))

    def _unusable(self, full: Path) -> str | None:
        try:
            if full.is_symlink() and not full.resolve().is_relative_to(self.root):
                return "symbolic link out of the tree"
            info = full.stat()
        except (OSError, RuntimeError) as exc:  # RuntimeError: a symlink loop
            return f"unreadable ({exc})"
        if not stat.S_ISREG(info.st_mode):
            return "not a regular file"
        if info.st_size > MAX_FILE_BYTES:
            return too_large(info.st_size, MAX_FILE_BYTES)
        return None

    def _read_packaging_file(self, name: str) -> bytes | None:
        full = self.root / name
        try:
            if not full.is_file() or full.stat().st_size > _PACKAGING_FILE_LIMIT:
                return None
            return full.read_bytes()
        except OSError:
            return None

    def _skip(self, full: Path, reason: str) -> None:
        try:
            rel = full.relative_to(self.root).as_posix()
        except ValueError:
            rel = str(full)
        self.skipped.append(Skipped(rel, reason))
