"""What an archive's file name says: that errdex reads it, and the distribution's name and
version (a wheel's and an sdist's names are parsed by `packaging`)."""

from __future__ import annotations

import os

from packaging.utils import (
    InvalidSdistFilename,
    InvalidWheelFilename,
    parse_sdist_filename,
    parse_wheel_filename,
)
from packaging.version import InvalidVersion, Version

ARCHIVE_SUFFIXES = (".whl", ".tar.gz", ".tgz", ".tar.bz2", ".tar.xz", ".zip")


def is_archive(path: str | os.PathLike[str]) -> bool:
    """Whether a file name ends in a suffix this source reads."""
    return str(path).lower().endswith(ARCHIVE_SUFFIXES)


def name_version_from_filename(filename: str) -> tuple[str, str, bool] | None:
    """`(name, version, is_wheel)` as an archive's file name spells them, or None."""
    lower = filename.lower()
    try:
        if lower.endswith(".whl"):
            wheel_name, wheel_version, _, _ = parse_wheel_filename(filename)
            return str(wheel_name), str(wheel_version), True
        if lower.endswith((".tar.gz", ".zip")):
            sdist_name, sdist_version = parse_sdist_filename(filename)
            return str(sdist_name), str(sdist_version), False
    except (InvalidWheelFilename, InvalidSdistFilename, InvalidVersion):
        pass
    for suffix in ARCHIVE_SUFFIXES:
        if lower.endswith(suffix) and suffix != ".whl":
            name, sep, version = filename[: -len(suffix)].rpartition("-")
            if sep and name and version:
                return name, version, False
    return None


def same_version(found: str, wanted: str) -> bool:
    """Whether two version labels name the same version (`1.0` and `1.0.0` do)."""
    try:
        return Version(found) == Version(wanted)
    except InvalidVersion:
        return found == wanted
