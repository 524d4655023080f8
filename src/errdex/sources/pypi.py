"""`NAME==VERSION` from the package index: downloaded by pip into a cache, read as an archive."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version
from platformdirs import user_cache_dir

from errdex.errors import SourceError
from errdex.sources.archive import ArchiveSource, name_version_from_filename

PIP_TIMEOUT_SECONDS = 900

_REQUIREMENT = re.compile(
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


def _same_version(found: str, wanted: str) -> bool:
    try:
        return Version(found) == Version(wanted)
    except InvalidVersion:
        return found == wanted


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
        if canonicalize_name(found_name) == wanted and _same_version(found_version, version):
            matches.append((not wheel, entry.name, entry))
    return min(matches)[2] if matches else None


def _pip_message(output: str) -> str:
    """The last line of pip's output that says what went wrong."""
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    for line in reversed(lines):
        if line.lower().startswith("error:"):
            return line[len("error:") :].strip()
    for line in reversed(lines):
        if not line.lower().startswith(("warning", "hint:", "note:")):
            return line
    return "pip download failed"


def _pip_download(requirement: str, directory: Path) -> tuple[bool, str]:
    command = [
        sys.executable,
        "-m",
        "pip",
        "download",
        "--no-deps",
        "--no-input",
        "--disable-pip-version-check",
        "--progress-bar",
        "off",
        "--dest",
        str(directory),
        "--prefer-binary",  # a wheel of this version when there is one, else the sdist
        requirement,
    ]
    try:
        done = subprocess.run(
            command,
            capture_output=True,
            text=True,
            errors="replace",
            stdin=subprocess.DEVNULL,
            timeout=PIP_TIMEOUT_SECONDS,
            check=False,
        )
    except subprocess.TimeoutExpired as exc:
        raise SourceError(f"pip download {requirement}: timed out") from exc
    except OSError as exc:
        raise SourceError(f"pip download {requirement}: cannot run pip ({exc})") from exc
    return done.returncode == 0, _pip_message(done.stdout + "\n" + done.stderr)


def download(name: str, version: str, *, directory: Path | None = None) -> Path:
    """The wheel (or, when there is none, the sdist) of `name==version`, in the cache.

    A file already in the cache is used without touching the network. A wheel for this
    interpreter is preferred; when the index has none, pip fetches the sdist (note that
    pip then prepares the sdist's metadata by running its build backend in an isolated
    build environment, pypa/pip#1884; errdex itself never imports or runs it).
    """
    target = directory if directory is not None else cache_dir()
    cached = find_cached(target, name, version)
    if cached is not None:
        return cached
    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SourceError(f"cannot create the download cache {target}: {exc.strerror}") from exc
    requirement = f"{name}=={version}"
    ok, message = _pip_download(requirement, target)
    if not ok:
        raise SourceError(f"cannot download {requirement}: {message}")
    found = find_cached(target, name, version)
    if found is None:
        raise SourceError(f"cannot download {requirement}: pip saved no wheel or sdist of it")
    return found


def pypi_source(spec: str, *, directory: Path | None = None) -> ArchiveSource:
    """The archive of a `NAME==VERSION` spec, downloaded on first use (source_kind "pypi")."""
    parsed = parse_requirement(spec)
    if parsed is None:
        raise SourceError(f"not a NAME==VERSION requirement: {spec}")
    name, version = parsed
    path = download(name, version, directory=directory)
    return ArchiveSource(path, spec=spec, source_kind="pypi")
