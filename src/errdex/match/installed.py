"""The releases installed where a lookup runs: evidence of which release a paste came from,
read from the distributions' metadata (`importlib.metadata`), never by importing them."""

from __future__ import annotations

import importlib.metadata
from collections.abc import Iterable

__all__ = ["installed_versions"]


def installed_versions(projects: Iterable[str]) -> dict[str, str]:
    """The installed version of each of `projects` that this environment has.

    Names are matched as the package index does (`huggingface_hub` is `huggingface-hub`).
    A distribution whose metadata cannot be read counts as not installed: the version is
    only a hint.
    """
    found: dict[str, str] = {}
    for name in projects:
        try:
            version = importlib.metadata.version(name)
        except (importlib.metadata.PackageNotFoundError, ValueError, OSError):
            continue
        if version:
            found[name] = version
    return found
