"""What every source yields: the files of one version, and that version's metadata."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Protocol

import msgspec

# Files larger than this are skipped with a reason: generated tables, vendored blobs.
MAX_FILE_BYTES = 4 * 1024 * 1024


def canonical_name(name: str) -> str:
    """A distribution's name as PEP 503 compares it (`SQLAlchemy`, `oslo.config` →
    `sqlalchemy`, `oslo-config`): `packaging.utils.canonicalize_name`, whose import (its
    wheel tags and platform probes) is a good part of a lookup's start-up."""
    return re.sub(r"[-_.]+", "-", name).lower()


class EntryPoint(msgspec.Struct, frozen=True):
    """A command the distribution installs: `vllm = vllm.entrypoints.cli.main:main`."""

    group: str  # "console_scripts" or "gui_scripts"
    name: str  # the command: vllm
    target: str  # module:function it runs


class Pin(msgspec.Struct, frozen=True, kw_only=True):
    """What a version's "view source" link points at, and how that is known."""

    kind: str  # "commit" or "tag"
    ref: str  # the commit id (maybe abbreviated) or the tag's name
    basis: str  # how it is known: "recorded in its version file", "guessed from the version"
    guessed: bool = False  # True when nothing the source carries confirms the ref
    # how the link's path in the repository is known ("as its sdist lists it"); None when
    # it is the indexed file's path, guessed to be the repository's
    path_basis: str | None = None


class VersionInfo(msgspec.Struct, kw_only=True):
    """The metadata of one indexed version of a project."""

    project: str
    version: str  # the label: "0.33.0", a tag, a branch, or a short sha
    revision: str  # a git commit sha, or an archive's sha256
    date: str | None = None  # ISO 8601: the commit date or the archive's newest member
    source_kind: str  # "directory", "git", "wheel", "sdist", "pypi", "installed"
    source: str  # the spec the user gave
    # "view source" link with {path} and {line} (and {revision}) fields, or None
    link_template: str | None = None
    # what the link's ref is and how it is known, when the source does not pin it exactly
    # by itself (a release read from an archive; an installed copy of a VCS checkout)
    pin: Pin | None = None
    tracker_url: str | None = None  # the project's issue tracker, from its metadata
    pipeline: str = ""  # set by the indexer: which extraction and linking made the sites
    homepage: str | None = None
    # the commands it installs, from its packaging files (read, never run)
    entry_points: tuple[EntryPoint, ...] = ()
    # set by the indexer: the names it defines (modules, classes, functions, constants,
    # settings), what a model's prose about it is checked against
    names: tuple[str, ...] = ()
    # set by the indexer: each file's top-level statement starts as extracted, packed
    # (`store.contents.pack_outline`), kept beside the file's stored content
    outlines: dict[str, bytes] = {}


class SourceFile(msgspec.Struct, frozen=True):
    """One Python file of a version, as bytes; its path is relative and uses `/`."""

    path: str
    data: bytes


class Skipped(msgspec.Struct, frozen=True):
    """A file a source left out, and why."""

    path: str
    reason: str


class Source(Protocol):
    """A version of a codebase that can be read without importing or running it."""

    info: VersionInfo
    skipped: list[Skipped]  # filled while `files()` runs

    def files(self) -> Iterator[SourceFile]:
        """Yield every Python file of the version (`.py`, and `.pyi` only without a `.py`)."""
        ...
