"""A wheel or sdist file as a source, read member by member without extracting anything."""

from __future__ import annotations

import bz2
import contextlib
import datetime as dt
import gzip
import io
import lzma
import os
import stat
import struct
import tarfile
import weakref
import zipfile
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, Protocol

from errdex.errors import SourceError
from errdex.lazy_re import lazy_compile
from errdex.sources._common import (
    MAX_CATALOG_BYTES,
    MAX_CATALOG_FILE,
    catalog_paths,
    clean_member_name,
    is_python,
    iso_utc,
    metadata_urls,
    parse_metadata,
    select_python,
    too_large,
    unsafe_reason,
)
from errdex.sources.archive_names import (
    is_archive,
    name_version_from_filename,
)
from errdex.sources.base import MAX_FILE_BYTES, EntryPoint, Skipped, SourceFile, VersionInfo
from errdex.sources.digests import archive_sha256, recorded_upload_time
from errdex.sources.entry_points import entry_points_txt, tree_entry_points
from errdex.sources.release_pins import archive_commits, may_hold_pin, release_pin

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer

# A member at least this large whose compression ratio exceeds MAX_RATIO is not read (a
# zip of many members just under a higher threshold once unpacked 2.3 MB into 2.1 GB).
RATIO_CHECK_BYTES = 64 * 1024
MAX_RATIO = 200
# What an archive may unpack to in total: max(this, MAX_RATIO × the archive's size). For a
# tar that is its whole stream; for a zip, whose members are read one by one, the members
# read. Past it a tar is refused (its stream cannot skip) and a zip's further members are
# skipped with a reason.
MIN_UNPACKED_LIMIT = 64 * 1024 * 1024
# An archive of more members than this is refused: a zip's directory is read whole on
# opening, so the count is checked before (a small zip can list a great many empty files).
MAX_MEMBERS = 100_000

_METADATA_LIMIT = 1024 * 1024
_METADATA_CANDIDATES = 16  # files that may hold the metadata kept while listing members
_ERRORS = (
    tarfile.TarError,
    zipfile.BadZipFile,
    zlib.error,
    lzma.LZMAError,
    EOFError,
    OSError,
    ValueError,
    NotImplementedError,
    RuntimeError,  # encrypted zip members
)


class _Member(NamedTuple):
    name: str  # as stored in the archive
    path: str  # the path a SourceFile gets, "" when the member is unsafe
    kind: str  # "file", "dir", "link" or "special"
    size: int  # as declared in the member's header
    compressed: int | None  # zip only
    mtime: float | None


class _Bomb(Exception):
    """An archive past a limit of the whole: unpacked bytes of a tar stream, members."""


class _MemberError(Exception):
    """One zip member that cannot be read; the others still can."""


class _Readable(Protocol):
    def read(self, size: int, /) -> bytes: ...


class _BoundedStream(io.RawIOBase):
    """A decompressed stream that refuses to yield more than `limit` bytes in total."""

    def __init__(self, inner: _Readable, limit: int) -> None:
        super().__init__()
        self._inner = inner
        self._limit = limit
        self._count = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: WriteableBuffer, /) -> int:
        view = memoryview(buffer).cast("B")
        data = self._inner.read(len(view))
        self._count += len(data)
        if self._count > self._limit:
            raise _Bomb(f"unpacks to more than {self._limit} bytes")
        view[: len(data)] = data
        return len(data)


def _zip_mtime(info: zipfile.ZipInfo) -> float | None:
    try:
        return dt.datetime(*info.date_time, tzinfo=dt.UTC).timestamp()
    except ValueError:
        return None


def _zip_kind(info: zipfile.ZipInfo) -> str:
    if info.is_dir():
        return "dir"
    kind = stat.S_IFMT(info.external_attr >> 16)  # 0 when the zip tool stored no type
    if kind == stat.S_IFLNK:
        return "link"
    if kind not in {0, stat.S_IFREG}:
        return "special"
    return "file"


# Asked of every member: compiled once (the `re` module's cache lookup alone is a tenth of
# listing a large wheel).
_WHEEL_SCRIPTS = lazy_compile(r"[^/]+\.dist-info/entry_points\.txt")
_SDIST_SCRIPTS = lazy_compile(
    r"(?:[^/]+/)?(?:pyproject\.toml|setup\.cfg|setup\.py|(?:src/)?[^/]+\.egg-info/entry_points\.txt)"
)
_SDIST_SCRIPT_ENDS = ("pyproject.toml", "setup.cfg", "setup.py", "entry_points.txt")
_WHEEL_METADATA = lazy_compile(r"[^/]+\.dist-info/METADATA")
_SDIST_METADATA = lazy_compile(r"(?:[^/]+/)?PKG-INFO")
_WHEEL_DATA = lazy_compile(r"^[^/]+\.data/(?:purelib|platlib)/(.+)$")


def _zip_member(info: zipfile.ZipInfo) -> _Member:
    name = clean_member_name(info.filename)
    return _Member(
        name=name or info.filename,
        path="" if unsafe_reason(info.filename) else name,
        kind=_zip_kind(info),
        size=info.file_size,
        compressed=info.compress_size,
        mtime=None,  # read when needed (`ArchiveSource._newest_date`)
    )


def _tar_kind(info: tarfile.TarInfo) -> str:
    if info.isreg():
        return "file"
    if info.isdir():
        return "dir"
    if info.issym() or info.islnk():
        return "link"
    return "special"


_EOCD = struct.Struct("<4s4H2LH")  # a zip's end of central directory record
_ZIP64_LOCATOR = struct.Struct("<4sLQL")
_ZIP64_EOCD = struct.Struct("<4sQ2H2L4Q")


def zip_member_count(path: Path) -> int | None:
    """How many members a zip's directory declares, read from its end records alone (so a
    directory of millions of entries is never loaded); None when they cannot be found."""
    try:
        with path.open("rb") as handle:
            size = handle.seek(0, os.SEEK_END)
            tail_start = max(0, size - _EOCD.size - 0xFFFF)
            handle.seek(tail_start)
            tail = handle.read()
            at = tail.rfind(b"PK\x05\x06")
            if at == -1 or at + _EOCD.size > len(tail):
                return None
            entries = _EOCD.unpack_from(tail, at)[4]
            if entries != 0xFFFF or at < _ZIP64_LOCATOR.size:
                return int(entries)
            locator = _ZIP64_LOCATOR.unpack_from(tail, at - _ZIP64_LOCATOR.size)
            if locator[0] != b"PK\x06\x07":
                return None
            handle.seek(locator[2])
            record = handle.read(_ZIP64_EOCD.size)
            if len(record) < _ZIP64_EOCD.size or record[:4] != b"PK\x06\x06":
                return None
            return int(_ZIP64_EOCD.unpack(record)[7])
    except OSError:
        return None


class ArchiveSource:
    """The Python files of a wheel or an sdist, read from the archive in memory.

    Members with absolute or `..` paths, links, devices, members over `MAX_FILE_BYTES` and
    members that look like decompression bombs are skipped with a reason; a tar stream
    that unpacks to more than its limit, or an archive that cannot be read, is a
    `SourceError`. `digests` is the folder that keeps the archive's sha256 (its revision)
    by its name (see `digests.records_beside`), else the cache's.
    """

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        spec: str | None = None,
        source_kind: str | None = None,
        max_unpacked_bytes: int | None = None,
        digests: Path | None = None,
    ) -> None:
        self.path = Path(path)
        if not self.path.exists():
            raise SourceError(f"no such file or directory: {path}")
        if not self.path.is_file():
            raise SourceError(f"not an archive file: {path}")
        if not is_archive(self.path):
            raise SourceError(f"{path}: not a wheel or sdist (unknown suffix)")
        self.wheel = self.path.name.lower().endswith(".whl")
        self._label = "wheel" if self.wheel else "sdist"
        self.skipped: list[Skipped] = []
        self._read_all: dict[str, bytes] | None = None
        self._read_spent = 0
        self._members_by_path: dict[str, tuple[zipfile.ZipInfo, _Member]] | None = None
        self._open_zip: zipfile.ZipFile | None = None

        try:
            with self.path.open("rb") as handle:
                head = handle.read(6)
            revision = archive_sha256(self.path, digests)
        except OSError as exc:
            raise SourceError(f"cannot read {path}: {exc.strerror}") from exc
        self._zip = head.startswith(b"PK")
        if self.wheel and not self._zip:
            raise self._invalid("not a zip file")
        size = self.path.stat().st_size
        self._unpacked_limit = (
            max_unpacked_bytes
            if max_unpacked_bytes is not None
            else max(MIN_UNPACKED_LIMIT, MAX_RATIO * size)
        )

        metadata_files: dict[str, bytes] = {}
        script_files: dict[str, bytes] = {}
        pin_files: dict[str, bytes] = {}
        self._members = self._scan(metadata_files, script_files, pin_files)
        self._prefix = "" if self.wheel else self._common_folder()
        self._paths: dict[str, str] = {}  # member name -> SourceFile path
        for member in self._members:
            if member.path and member.kind != "dir":
                self._paths.setdefault(member.name, self._map(member.path))
        self._selected = select_python(p for p in self._paths.values() if is_python(p))

        meta_name = self._metadata_member(metadata_files)
        meta = parse_metadata(metadata_files[meta_name]) if meta_name else None
        from_file = name_version_from_filename(self.path.name)
        project = (meta.get("Name") if meta else None) or (from_file[0] if from_file else None)
        version = (meta.get("Version") if meta else None) or (from_file[1] if from_file else None)
        urls = metadata_urls(meta.get_all) if meta is not None else None
        project_name = str(project).strip() if project else self.path.name
        version_label = str(version).strip() if version else "unknown"
        template = pin = None
        if urls is not None and urls.repository and version:
            found = {self._map(p): data for p, data in pin_files.items()}
            commits = archive_commits(version_label, found)
            layout = None if self.wheel else "as its sdist lists it"
            template, pin = release_pin(urls.repository, version_label, commits, urls.links, layout)
        self.info = VersionInfo(
            project=project_name,
            version=version_label,
            revision=revision,
            date=recorded_upload_time(self.path, digests) or self._newest_date(),
            source_kind=source_kind or self._label,
            source=spec if spec is not None else str(path),
            link_template=template,
            pin=pin,
            tracker_url=urls.tracker if urls else None,
            homepage=(urls.homepage or urls.repository) if urls else None,
            entry_points=self._entry_points(script_files),
        )

    def _newest_date(self) -> str | None:
        """The time of the newest file member, when no upload time is recorded (a zip's
        member times are read only then: a wheel lists thousands)."""
        if self._zip:
            infos = self._zip_file().infolist()
            times = (
                _zip_mtime(i) for i, m in zip(infos, self._members, strict=True) if m.kind == "file"
            )
        else:
            times = (m.mtime for m in self._members if m.kind == "file")
        newest = max((t for t in times if t), default=0)
        return iso_utc(newest) if newest else None

    def files(self) -> Iterator[SourceFile]:
        """Yield the archive's Python files in member order, within the unpacked budget."""
        self.skipped = []
        seen: set[str] = set()
        spent = 0
        for member, read in self._walk():
            if not is_python(member.name):
                continue
            if not member.path:
                self.skipped.append(Skipped(member.name, unsafe_reason(member.name) or "unsafe"))
                continue
            path = self._paths.get(member.name, member.path)
            if path not in self._selected or member.kind == "dir":
                continue
            if path in seen:
                self.skipped.append(Skipped(path, "duplicate member"))
                continue
            seen.add(path)
            left = self._unpacked_limit - spent
            reason = self._refusal(member)
            if reason is None and member.size > left:
                reason = self._spent()
            if reason is not None:
                self.skipped.append(Skipped(path, reason))
                continue
            try:
                # Never more than the budget left: a zip member's header may lie.
                data = read(min(MAX_FILE_BYTES, left) + 1)
            except _MemberError as exc:
                self.skipped.append(Skipped(path, f"unreadable member ({exc})"))
                continue
            spent += len(data)
            if len(data) > MAX_FILE_BYTES:
                reason = too_large(len(data), MAX_FILE_BYTES, exact=False)
            elif len(data) > left:
                reason = self._spent()
            if reason is not None:
                self.skipped.append(Skipped(path, reason))
                continue
            yield SourceFile(path, data)

    def catalogs(self) -> Iterator[SourceFile]:
        """Yield the archive's gettext catalogs (`catalog_paths`), within a budget of their
        own: the translations a user may see its messages in."""
        wanted = catalog_paths(self._paths.values())
        spent = 0
        for member, read in self._walk() if wanted else ():
            path = self._paths.get(member.name, member.path)
            if path not in wanted or self._refusal(member) is not None:
                continue
            if member.size > MAX_CATALOG_FILE or spent + member.size > MAX_CATALOG_BYTES:
                continue
            wanted.discard(path)
            try:
                data = read(MAX_CATALOG_FILE + 1)
            except _MemberError:
                continue
            spent += len(data)
            if len(data) <= MAX_CATALOG_FILE:
                yield SourceFile(path, data)

    def paths(self) -> list[str]:
        """The paths `files` yields (some may yet be refused when read), in the same order
        (member order), without reading."""
        return [p for p in dict.fromkeys(self._paths.values()) if p in self._selected]

    def read(self, path: str) -> bytes | None:
        """One file's bytes, or None when it is not one of the archive's files or is refused.

        A zip's member is read alone; a tar stream cannot seek, so its files are read all
        at once, on the first call.
        """
        if not self._zip:
            if self._read_all is None:
                self._read_all = {f.path: f.data for f in self.files()}
            return self._read_all.get(path)
        try:
            found = self._by_path().get(path)
        except _ERRORS:
            return None
        if found is None or self._refusal(found[1]) is not None:
            return None
        info, member = found
        left = self._unpacked_limit - self._read_spent
        if member.size > left:
            return None
        try:
            with self._zip_file().open(info) as handle:
                data = handle.read(min(MAX_FILE_BYTES, left) + 1)
        except (*_ERRORS, KeyError):
            return None
        self._read_spent += len(data)
        return data if len(data) <= min(MAX_FILE_BYTES, left) else None

    def _by_path(self) -> dict[str, tuple[zipfile.ZipInfo, _Member]]:
        """Each selected path's zip member: the first of that path, as `files` reads them."""
        if self._members_by_path is None:
            found: dict[str, tuple[zipfile.ZipInfo, _Member]] = {}
            # The open zip's directory, in the order `_scan` listed the members from it.
            for info, member in zip(self._zip_file().infolist(), self._members, strict=True):
                path = self._paths.get(member.name, member.path)
                if member.path and member.kind != "dir" and path in self._selected:
                    found.setdefault(path, (info, member))
            self._members_by_path = found
        return self._members_by_path

    def _zip_file(self) -> zipfile.ZipFile:
        """The zip, opened once for every `read` (its directory is read on opening)."""
        if self._open_zip is None:
            self._open_zip = zipfile.ZipFile(self.path)
            weakref.finalize(self, self._open_zip.close)
        return self._open_zip

    def _spent(self) -> str:
        return f"the archive's budget of {self._unpacked_limit} unpacked bytes is spent"

    # -- reading -------------------------------------------------------------------------

    def _scan(
        self,
        metadata_files: dict[str, bytes],
        script_files: dict[str, bytes],
        pin_files: dict[str, bytes],
    ) -> list[_Member]:
        """List every member; keep the bytes of the files that may hold the metadata, of
        those that may declare the scripts it installs, and of those that may record the
        release's commit."""
        members: list[_Member] = []
        for member, read in self._walk():
            members.append(member)
            small = member.kind == "file" and member.size <= _METADATA_LIMIT and member.path
            if not small:
                continue
            for kept, wanted in (
                (metadata_files, self._may_be_metadata),
                (script_files, self._may_declare_scripts),
                (pin_files, self._may_pin),
            ):
                if len(kept) < _METADATA_CANDIDATES and wanted(member.path):
                    with contextlib.suppress(_MemberError):
                        kept[member.path] = read(_METADATA_LIMIT)
        return members

    def _may_declare_scripts(self, path: str) -> bool:
        # The name's end first: asked of every member, and the patterns are tried on few.
        if self.wheel:
            return path.endswith("entry_points.txt") and _WHEEL_SCRIPTS.fullmatch(path) is not None
        return path.endswith(_SDIST_SCRIPT_ENDS) and _SDIST_SCRIPTS.fullmatch(path) is not None

    def _may_pin(self, path: str) -> bool:
        # An sdist's members sit in its top folder (not known yet while listing).
        return may_hold_pin(path if self.wheel else path.partition("/")[2])

    def _entry_points(self, found: dict[str, bytes]) -> tuple[EntryPoint, ...]:
        """A wheel's `entry_points.txt`; an sdist's egg-info one, else its packaging files."""
        for path in sorted(found):
            if path.endswith("entry_points.txt"):
                scripts = entry_points_txt(found[path])
                if scripts:
                    return scripts
        return tree_entry_points(lambda name: found.get(self._prefix + name))

    def _walk(self) -> Iterator[tuple[_Member, Callable[[int], bytes]]]:
        """Each member with a bounded reader of its bytes, in archive order.

        A zip member's reader raises `_MemberError` (that member is skipped); a tar
        member's reader raises `SourceError` (a broken stream cannot go on).
        """
        try:
            if self._zip:
                yield from self._walk_zip()
            else:
                yield from self._walk_tar()
        except _Bomb as exc:
            raise self._invalid(f"{exc}; possible decompression bomb") from exc
        except _ERRORS as exc:
            raise self._invalid(str(exc) or type(exc).__name__) from exc

    def _walk_zip(self) -> Iterator[tuple[_Member, Callable[[int], bytes]]]:
        declared = zip_member_count(self.path)
        if declared is not None and declared > MAX_MEMBERS:
            raise _Bomb(f"declares {declared} members; the limit is {MAX_MEMBERS}")
        archive = self._zip_file()  # kept open: `read` takes members from it later
        # Listed once (`_scan`); every later walk pairs that list with the same directory.
        listed: list[_Member] | None = getattr(self, "_members", None)
        for number, info in enumerate(archive.infolist()):
            member = listed[number] if listed is not None else _zip_member(info)

            def read(limit: int, info: zipfile.ZipInfo = info) -> bytes:
                try:
                    with archive.open(info) as handle:
                        return handle.read(limit)
                except _ERRORS as exc:
                    raise _MemberError(str(exc) or type(exc).__name__) from exc

            yield member, read

    def _walk_tar(self) -> Iterator[tuple[_Member, Callable[[int], bytes]]]:
        with contextlib.ExitStack() as stack:
            raw = stack.enter_context(self.path.open("rb"))
            head = raw.read(6)
            raw.seek(0)
            inner: _Readable = raw
            if head.startswith(b"\x1f\x8b"):
                inner = stack.enter_context(gzip.GzipFile(fileobj=raw, mode="rb"))
            elif head.startswith(b"BZh"):
                inner = stack.enter_context(bz2.BZ2File(raw, mode="rb"))
            elif head.startswith(b"\xfd7zXZ\x00"):
                inner = stack.enter_context(lzma.LZMAFile(raw, mode="rb"))
            stream = io.BufferedReader(_BoundedStream(inner, self._unpacked_limit))
            with tarfile.open(fileobj=stream, mode="r|") as archive:
                for count, info in enumerate(archive, 1):
                    if count > MAX_MEMBERS:
                        raise _Bomb(f"holds more than {MAX_MEMBERS} members")
                    name = clean_member_name(info.name)
                    member = _Member(
                        name=name or info.name,
                        path="" if unsafe_reason(info.name) else name,
                        kind=_tar_kind(info),
                        size=info.size,
                        compressed=None,
                        mtime=float(info.mtime),
                    )

                    def read(limit: int, info: tarfile.TarInfo = info) -> bytes:
                        try:
                            handle = archive.extractfile(info)
                            return handle.read(limit) if handle is not None else b""
                        except _Bomb as exc:
                            raise self._invalid(f"{exc}; possible decompression bomb") from exc
                        except _ERRORS as exc:
                            raise self._invalid(str(exc) or type(exc).__name__) from exc

                    yield member, read

    # -- deciding ------------------------------------------------------------------------

    def _refusal(self, member: _Member) -> str | None:
        """Why a member is not read, judged from its header alone (the read is bounded too)."""
        if member.kind == "link":
            return "link member"
        if member.kind != "file":
            return "not a regular file (device, fifo or other special member)"
        if member.size > MAX_FILE_BYTES:
            return too_large(member.size, MAX_FILE_BYTES)
        if member.compressed is not None and member.size >= RATIO_CHECK_BYTES:
            ratio = member.size / max(member.compressed, 1)
            if ratio > MAX_RATIO:
                return f"suspicious compression ratio ({ratio:.0f}:1; possible zip bomb)"
        return None

    def _may_be_metadata(self, path: str) -> bool:
        if self.wheel:
            return path.endswith("/METADATA") and _WHEEL_METADATA.fullmatch(path) is not None
        return path.endswith("PKG-INFO") and _SDIST_METADATA.fullmatch(path) is not None

    def _metadata_member(self, found: dict[str, bytes]) -> str | None:
        if self.wheel:
            names = sorted(found)
            return names[0] if names else None
        wanted = f"{self._prefix}PKG-INFO"
        if wanted in found:
            return wanted
        return "PKG-INFO" if "PKG-INFO" in found else None

    def _common_folder(self) -> str:
        """`name-version/` when every sdist member sits in that one top folder, else ""."""
        tops: set[str] = set()
        for member in self._members:
            if not member.path:
                continue
            top, sep, _ = member.path.partition("/")
            if not sep and member.kind != "dir":
                return ""
            tops.add(top)
        return f"{tops.pop()}/" if len(tops) == 1 else ""

    def _map(self, name: str) -> str:
        """The SourceFile path of a member: sdist folder dropped, wheel `.data` unfolded."""
        if self._prefix and name.startswith(self._prefix):
            return name[len(self._prefix) :]
        if self.wheel:
            match = _WHEEL_DATA.match(name)
            if match:
                return match.group(1)
        return name

    def _invalid(self, reason: str) -> SourceError:
        return SourceError(f"{self.path}: not a valid {self._label} ({reason})")
