"""Where a wheel's files sit in the repository, learnt from the same release's sdist.

A wheel drops the folder a project keeps its code under (`src/click/core.py` is
`click/core.py` in the wheel); a link built from the wheel's path points nowhere. The sdist
lists the files as the repository holds them: it is fetched from the package index only
(within `MAX_SDIST_BYTES`), read by `ArchiveSource` under its hostile-archive rules (its
names and small evidence files only: never built, never run), and the one folder that
turns the wheel's paths into the sdist's is put into the link. The sdist's pin evidence
(a commit it records, a tag its metadata names) replaces a tag guessed from the version.
Without an sdist, or when none folder fits, the link stays and its pin says the path is
guessed.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path

import msgspec
from packaging.utils import canonicalize_name

from errdex.errors import SourceError
from errdex.sources._common import github_link_template
from errdex.sources.archive import ArchiveSource
from errdex.sources.archive_names import is_archive, name_version_from_filename, same_version
from errdex.sources.base import VersionInfo
from errdex.sources.sdist_checked import known_too_large, remember_too_large

# An sdist is downloaded for its listing only, which `tarfile` reads member by member in
# Python (about 0.1-0.5 ms each): vllm's 47 MB sdist cost 3-5 s of CPU, a tenth of its whole
# index, for links alone. Larger sdists (compiled sources, test data) keep the guessed path.
MAX_SDIST_BYTES = 16 * 1024 * 1024
MAX_SDIST_UNPACKED = 512 * 1024 * 1024  # what its tar stream may unpack to
MAX_LISTED = 20_000  # the Python files of an sdist matched against the wheel's
_BLOB = "/blob/"


def folder_of(wheel_paths: Iterable[str], sdist_paths: Iterable[str]) -> str | None:
    """The folder (`src/`, `lib/`, or "" for none) under which the sdist lists the wheel's
    files, when one folder holds at least half of them and every one found anywhere;
    None when the listing is too long, or no single folder fits (a mixed layout)."""
    wheel = set(wheel_paths)
    listed = list(sdist_paths)
    if not wheel or len(listed) > MAX_LISTED:
        return None
    found: dict[str, set[str]] = defaultdict(set)
    for path in listed:
        start = 0
        while True:
            if path[start:] in wheel:
                found[path[:start]].add(path[start:])
            cut = path.find("/", start)
            if cut == -1:
                break
            start = cut + 1
    if not found:
        return None
    folder, held = max(found.items(), key=lambda kv: (len(kv[1]), -len(kv[0])))
    anywhere = set().union(*found.values())
    if len(held) * 2 < len(wheel) or held != anywhere:
        return None
    return folder


def cached_sdist(directory: Path, name: str, version: str) -> Path | None:
    """The sdist of `name==version` already in `directory` (`.tar.gz` first), within
    `MAX_SDIST_BYTES` as a downloaded one is."""
    if not directory.is_dir():
        return None
    wanted, found = canonicalize_name(name), []
    for entry in directory.iterdir():
        parsed = name_version_from_filename(entry.name) if entry.is_file() else None
        if parsed is None or parsed[2] or entry.stat().st_size > MAX_SDIST_BYTES:
            continue  # a wheel, another file, or an sdist too large to read for links
        if canonicalize_name(parsed[0]) == wanted and same_version(parsed[1], version):
            found.append((not entry.name.endswith(".tar.gz"), entry.name, entry))
    return min(found)[2] if found else None


def fetch_sdist(name: str, version: str, directory: Path) -> Path | None:
    """The release's sdist from the cache, else from the configured index (None when it has
    none, or it is larger than `MAX_SDIST_BYTES`, or the index cannot be read)."""
    cached = cached_sdist(directory, name, version)
    if cached is not None:
        return cached
    if known_too_large(directory, name, version, MAX_SDIST_BYTES):
        return None
    from errdex.sources.pip_config import index_settings
    from errdex.sources.simple_index import IndexClient, release_files

    try:
        with IndexClient(index_settings()) as client:
            files = client.project_files(name) or []
            sdists = [
                f
                for f in release_files(files, name, version)
                if is_archive(f.filename) and not f.filename.lower().endswith(".whl")
            ]
            if not sdists:
                return None
            chosen = min(sdists, key=lambda f: (f.yanked, not f.filename.endswith(".tar.gz")))
            if chosen.size is not None and chosen.size > MAX_SDIST_BYTES:
                # said before downloading it (an index page without sizes: during)
                remember_too_large(directory, name, version, chosen.size)
                return None
            return client.download(chosen, directory, limit=MAX_SDIST_BYTES)
    except SourceError:
        return None


def with_layout(info: VersionInfo, wheel_paths: Iterable[str], sdist: Path | None) -> VersionInfo:
    """`info` of a release read from its wheel, its link moved under the folder the sdist
    keeps the files in and pinned to what the sdist records; as it was when nothing fits."""
    template, pin = info.link_template, info.pin
    if template is None or pin is None or _BLOB not in template or sdist is None:
        return info
    try:
        listing = ArchiveSource(sdist, max_unpacked_bytes=MAX_SDIST_UNPACKED)
    except SourceError:
        return info
    evidence = listing.info.pin
    if pin.guessed and evidence is not None and not evidence.guessed:
        pin = evidence
    folder = folder_of(wheel_paths, listing.paths())
    repository = template.partition(_BLOB)[0]
    if folder is None:
        pin = msgspec.structs.replace(pin, path_basis=None)
        return msgspec.structs.replace(
            info, link_template=github_link_template(repository, pin.ref), pin=pin
        )
    basis = f"as its sdist lists it, under {folder}" if folder else "as its sdist lists it"
    pin = msgspec.structs.replace(pin, path_basis=basis)
    return msgspec.structs.replace(
        info, link_template=github_link_template(repository, pin.ref, folder), pin=pin
    )
