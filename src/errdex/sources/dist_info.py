"""An installed distribution found by its `.dist-info` folder on `sys.path` and read as
`importlib.metadata` reads it, without importing that module: it and the email parser it
brings are a sixth of what a first answer into an installed package imports. Whatever the
plain case does not cover (another finder of distributions, a zip or egg on the path, an
`.egg-info` folder) is left to `importlib.metadata` itself."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from importlib.metadata import PackagePath

__all__ = ["DistInfo", "Distribution", "Fields", "distribution"]

_SEPARATORS = re.compile(r"[-_.]+")
# A line of the header section, as the email parser tells one (a field, a continuation, an
# mbox `From ` line); any other line starts the body.
_HEADER_LINE = re.compile(r"^(From |[\041-\071\073-\176]*:|[\t ])")
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")


class Fields(Protocol):
    """What errdex reads of a distribution's core metadata (`PackageMetadata`)."""

    def get_all(self, name: str) -> list[Any] | None: ...

    def __getitem__(self, name: str) -> Any: ...


class Distribution(Protocol):
    """What errdex reads of an installed distribution (`importlib.metadata.Distribution`)."""

    @property
    def metadata(self) -> Fields: ...

    @property
    def files(self) -> list[PackagePath] | None: ...

    def read_text(self, filename: str) -> str | None: ...

    def locate_file(self, path: str | os.PathLike[str]) -> object: ...


class Headers:
    """A core-metadata file's fields, as `email.message_from_string` (compat32) reads
    them: each value as written after its name, continuation lines kept."""

    def __init__(self, text: str) -> None:
        self._fields = _header_fields(text)

    def get_all(self, name: str) -> list[Any] | None:
        wanted = name.lower()
        return [value for field, value in self._fields if field.lower() == wanted] or None

    def __getitem__(self, name: str) -> Any:
        found = self.get_all(name)
        return found[0] if found else None


class DistInfo:
    """A `.dist-info` folder, read as `importlib.metadata.PathDistribution` reads it."""

    def __init__(self, path: Path) -> None:
        self._path = path

    def read_text(self, filename: str) -> str | None:
        try:
            return self._path.joinpath(filename).read_text(encoding="utf-8")
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError, PermissionError):
            return None

    def locate_file(self, path: str | os.PathLike[str]) -> Path:
        return self._path.parent / path

    @property
    def metadata(self) -> Headers:
        return Headers(self.read_text("METADATA") or self.read_text("PKG-INFO") or "")

    @property
    def files(self) -> list[PackagePath] | None:
        """As `importlib.metadata` lists them (read only for a folder without a RECORD)."""
        import importlib.metadata

        return importlib.metadata.PathDistribution(self._path).files


def distribution(name: str) -> Distribution | None:
    """The installed distribution called `name`, as `importlib.metadata.distribution` finds
    it; None when there is none (or no name)."""
    if not name:
        return None
    found, sure = _dist_info(name)
    if found is not None or sure:
        return found
    import importlib.metadata

    try:
        return importlib.metadata.distribution(name)
    except (importlib.metadata.PackageNotFoundError, ValueError):
        return None


def _dist_info(name: str) -> tuple[DistInfo | None, bool]:
    """The `.dist-info` folder `importlib.metadata` would find first for `name`, when the
    plain search finds it, and whether the plain search's answer is sure: it is the only
    search (no other finder of distributions) and read every entry of the path, so that
    finding none means there is none (a traceback's frame into a package of another
    environment: `importlib.metadata` and the email parser it imports would look again)."""
    from importlib.machinery import PathFinder

    if any(
        finder is not PathFinder and getattr(finder, "find_distributions", None) is not None
        for finder in sys.meta_path
    ):
        return None, False
    wanted = _normalized(name)
    for entry in sys.path:
        if not isinstance(entry, str) or entry.lower().endswith(".egg"):
            return None, False
        root = entry or "."
        try:
            children = os.listdir(root)  # noqa: PTH208 - its order, as importlib.metadata lists
        except FileNotFoundError:
            continue
        except OSError:
            return None, False  # a zip, or unreadable: importlib.metadata knows how it reads
        for child in children:
            low = child.lower()
            folder = low.endswith((".dist-info", ".egg-info"))
            if folder and _normalized(low.rpartition(".")[0].partition("-")[0]) == wanted:
                if low.endswith(".dist-info"):
                    return DistInfo(Path(root, child)), True
                return None, False
    return None, True


def _normalized(name: str) -> str:
    """A distribution's name as `importlib.metadata` compares them (PEP 503, `_` for `-`)."""
    return _SEPARATORS.sub("-", name).lower().replace("-", "_")


def _header_fields(text: str) -> list[tuple[str, str]]:
    """(name, value) of each field of the header section, as the email parser's compat32
    policy reads them."""
    fields: list[tuple[str, str]] = []
    lines: list[str] = []  # the field being read, its continuation lines after it

    def close() -> None:
        if lines:
            field, value = lines[0].split(":", 1)
            value = value.lstrip(" \t") + "".join(lines[1:])
            fields.append((field, value.rstrip("\r\n")))
            lines.clear()

    for line in _LINE.findall(text):
        if not _HEADER_LINE.match(line):
            break  # a blank line, or a line that starts the body
        if line[0] in " \t":
            if lines:
                lines.append(line)
            continue
        close()
        if line.startswith(("From ", ":")):
            continue  # an mbox envelope line, a field without a name: no field
        lines.append(line)
    close()
    return fields
