"""What a page's "view source" link and footer are pinned to, said as what it is.

A release from an archive is linked at the commit it records, else at the tag a link of
its metadata names, else at the tag guessed from its version, which the label then says
(`sources.release_pins`), at the path its sdist lists (`sources.repo_layout`), else at the
archive's own path, which the label then says is guessed; its revision is the archive's
sha256, a content hash, not a pin of the repository. A git revision is its commit. A
folder or an installed copy has no known origin (unless installed from a git checkout):
its hash names the indexed files, and the page says so. The date is the revision's (the
commit's; a release's upload to the index, else its archive's newest file), never the day
it was indexed; a folder's file times date nothing, and neither does the fixed time a
reproducible build gives every file, so those have none.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from errdex.store.base import VersionRecord

_REF = re.compile(r"/(?:-/)?blob/([^/{}]+)/")
_RELEASES = frozenset({"wheel", "sdist", "pypi"})
_DATED_KINDS = frozenset({"git", *_RELEASES})
_FIXED_BUILD_DATES = frozenset({"1980-01-01", "1980-01-02", "2016-01-01", "2020-02-02"})
_GUESSED = "guessed from the version"
_PATH_GUESSED = "path in the repository guessed"


class PinLabel(NamedTuple):
    """What the link points at (`tag v0.33.0`), how that is known, and whether a guess."""

    pinned: str
    basis: str | None = None
    guessed: bool = False


def pin_label(record: VersionRecord | None, revision: str) -> PinLabel:
    """`tag v0.33.0`, `commit 4b6bdec4ab`, or what the revision is when nothing pins it."""
    template = record.link_template if record is not None else None
    kind = record.source_kind if record is not None else ""
    pin = record.pin if record is not None else None
    if template and pin is not None:
        what = f"commit {pin.ref[:10]}" if pin.kind == "commit" else f"tag {pin.ref}"
        if kind in _RELEASES and pin.path_basis is None:
            return PinLabel(what, f"{pin.basis}; {_PATH_GUESSED}", True)
        return PinLabel(what, pin.basis, pin.guessed)
    if template and "{revision}" in template:
        return PinLabel(f"commit {revision[:10]}")
    ref = _REF.search(template) if template else None
    if ref is not None:
        # Written before pins were recorded: a release's tag was then always the guess.
        guessed = kind in _RELEASES
        said = f"{_GUESSED}; {_PATH_GUESSED}" if guessed else None
        return PinLabel(f"tag {ref.group(1)}", said, guessed)
    if kind == "git":
        return PinLabel(f"commit {revision[:10]}")
    if kind in _RELEASES:
        return PinLabel(f"archive sha256 {revision[:10]}")
    return PinLabel(f"a folder with no known origin, content hash {revision[:10]}")


def revision_date(record: VersionRecord | None) -> str | None:
    """The date of the revision itself, when the source has one. Reproducible builds stamp
    every member of an archive with one fixed time (zip's 1980-01-01, flit's 2016-01-01,
    hatchling's 2020-02-02): that dates the build tool, not the release."""
    if record is None or record.source_kind not in _DATED_KINDS or not record.date:
        return None
    if record.source_kind != "git" and record.date[:10] in _FIXED_BUILD_DATES:
        return None
    return record.date
