"""The releases installed where a lookup runs: evidence of which release a paste came from,
read from the distributions' metadata (`importlib.metadata`), never by importing them."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping

__all__ = ["InstalledHere", "installed_versions"]


def _version(name: str) -> str | None:
    """The installed version of `name`, matched as the package index does
    (`huggingface_hub` is `huggingface-hub`). A distribution whose metadata cannot be read
    counts as not installed: the version is only a hint."""
    # Imported here (a fiftieth of a second, with the email parser it brings): a lookup into
    # an indexed catalog, or into a release read from its archive, may never ask.
    import importlib.metadata

    try:
        return importlib.metadata.version(name) or None
    except (importlib.metadata.PackageNotFoundError, ValueError, OSError):
        return None


def installed_versions(projects: Iterable[str]) -> dict[str, str]:
    """The installed version of each of `projects` that this environment has."""
    return {name: version for name in projects if (version := _version(name)) is not None}


class InstalledHere(Mapping[str, str]):
    """The installed version of each project a lookup asks about, read when first asked:
    a catalog may hold hundreds of projects, and only those with a match in several
    releases are asked about."""

    def __init__(self) -> None:
        self._read: dict[str, str | None] = {}

    def __getitem__(self, name: str) -> str:
        if name not in self._read:
            self._read[name] = _version(name)
        version = self._read[name]
        if version is None:
            raise KeyError(name)
        return version

    def __iter__(self) -> Iterator[str]:
        return iter([name for name, version in self._read.items() if version is not None])

    def __len__(self) -> int:
        return sum(1 for version in self._read.values() if version is not None)
