"""Which release of a project a paste came from, told by the evidence in it.

An error held by several releases has a site in each; they often differ (a line moved,
the function moved to another file). The paste tells them apart by what it shows:

1. a traceback frame at the site's lines in that release, or the place a log line or a
   printed warning names;
2. a frame's path naming the release: an egg's or a wheel's folder
   (`requests-2.20.0-py3.9.egg/requests/models.py`), a Nix store entry;
3. the other frames of the project: a release whose file has the frame's printed code at
   the frame's line agrees with the paste (so does the code line a printed warning shows
   under the place its `stacklevel` names, often a caller's);
4. the exception's module, when the paste names the class with it and the class moved;
5. the reason of a reasons list the message names, where only some releases have it;
6. the release installed where the lookup runs (read from distribution metadata, never by
   importing), when the caller says the lookup runs in the user's environment.

Wording that changed between releases needs no step here: each wording is an error id of
its own, and the template that explains the message best already won the ranking.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

import msgspec

from errdex.lazy_re import lazy_compile
from errdex.match.evidence import Frame, at_lines
from errdex.sources.base import canonical_name
from errdex.store.base import Store, StoredSite

__all__ = ["ReleaseChoice", "VersionSpan", "choose_release", "version_spans"]

_MAX_FRAMES = 12  # the project's frames compared with each release's files
_MAX_RELEASES = 40


class VersionSpan(msgspec.Struct, frozen=True, kw_only=True):
    """Where an error's site is in a run of consecutive releases."""

    first: str  # the oldest release of the run
    last: str  # the newest
    id: str
    file: str
    line: int
    function: str


class ReleaseChoice(msgspec.Struct, frozen=True, kw_only=True):
    """The release chosen for one error, why, and whether the evidence decided it."""

    site: StoredSite
    why: str
    decided: bool  # the evidence leaves one site (or releases that agree on where it is)


def choose_release(
    store: Store,
    sites: Sequence[StoredSite],
    frames: Sequence[Frame],
    *,
    exception: str | None = None,
    reason: str | None = None,
    installed: Mapping[str, str] | None = None,
) -> ReleaseChoice:
    """The release to show of one error held by `sites` (one per release, newest first),
    narrowed step by step by the evidence; the newest of what is left."""
    left = list(sites[:_MAX_RELEASES])
    reasons: list[str] = []
    facts = _Facts(frames, exception, reason, installed if installed is not None else {})
    steps = (_at_frame, _path_release, _frame_code, _exception_module, _reason, _installed)
    for step in steps:
        if len(left) < 2:
            break
        kept, said = step(store, left, facts)
        if kept and len(kept) < len(left):
            left = kept
            reasons.append(said)
    chosen = left[0]
    decided = len(left) == 1 or _same_place(left)
    if reasons:
        why = f"version {chosen.version}: {'; '.join(reasons)}"
    elif decided:
        why = f"version {chosen.version}: the newest holding it (the site is the same in each)"
    else:
        why = (
            f"version {chosen.version}: the newest holding it; nothing in the paste tells "
            f"which of {len(left)} releases it came from, and their sites differ"
        )
    return ReleaseChoice(site=chosen, why=why, decided=decided)


def version_spans(sites: Sequence[StoredSite], labels: Sequence[str]) -> list[VersionSpan]:
    """The error's site per run of consecutive releases (of `labels`, oldest first) where
    it stays in place, newest run first."""
    held = {site.version: site for site in reversed(sites)}  # the first row of each release
    spans: list[VersionSpan] = []
    for label in labels:
        site = held.get(label)
        if site is None:
            continue
        place = (site.id, site.file, site.site.line, site.site.function)
        last = spans[-1] if spans else None
        if (
            last is not None
            and (last.id, last.file, last.line, last.function) == place
            and (labels.index(last.last) == labels.index(label) - 1)
        ):
            spans[-1] = msgspec.structs.replace(last, last=label)
            continue
        spans.append(
            VersionSpan(
                first=label, last=label, id=site.id, file=site.file,
                line=site.site.line, function=site.site.function,
            )
        )  # fmt: skip
    return spans[::-1]


def _same_place(sites: Sequence[StoredSite]) -> bool:
    return len({(s.file, s.site.line, s.site.end_line) for s in sites}) == 1


_Step = tuple[list[StoredSite], str]


class _Facts(NamedTuple):
    """What the paste (and the place the lookup runs) says of the release."""

    frames: Sequence[Frame]  # innermost first
    exception: str | None  # the class as pasted
    reason: str | None  # the reason of a reasons list the message names
    installed: Mapping[str, str]  # project → the release installed here


def _at_frame(store: Store, sites: list[StoredSite], facts: _Facts) -> _Step:
    """The releases whose site sits at a frame's line (the innermost such frame)."""
    for depth, frame in enumerate(facts.frames):
        kept = [s for s in sites if _at(frame, s)]
        if kept:
            where = "the innermost frame" if depth == 0 else "a traceback frame"
            return kept, f"{where} is at its line {kept[0].site.line}"
    return [], ""


# A folder named for a distribution and its release, as eggs, wheels run in place (pex,
# zipapps) and Nix store entries are: `requests-2.20.0-py3.9.egg`, `<hash>-python3.11-
# requests-2.31.0`. The name is the last run of words before the version.
_RELEASE_DIR = lazy_compile(
    r"(?:^|-)(?P<name>[A-Za-z][A-Za-z0-9_.]{0,80}?)-(?P<version>\d[\w.+!]{0,40}?)"
    r"(?:-py\d?[\w.-]{0,60}|\.egg|\.dist-info)?$"
)


def _path_release(store: Store, sites: list[StoredSite], facts: _Facts) -> _Step:
    """The releases a frame's path names in the folder that holds the project's files."""
    top = sites[0].file.split("/", 1)[0]
    names = {canonical_name(sites[0].project), canonical_name(top)}
    for frame in facts.frames:
        path = "/" + frame.path.replace("\\", "/")
        if f"/{top}/" not in path:
            continue
        for folder in reversed(path[: path.rindex(f"/{top}/")].split("/")[-6:]):
            found = _RELEASE_DIR.search(folder)
            if found is None or canonical_name(found["name"]) not in names:
                continue
            kept = [s for s in sites if s.version == found["version"]]
            return kept, f"a traceback path names {folder}"
    return [], ""


def _at(frame: Frame, site: StoredSite) -> bool:
    """The frame points into the site's lines; a log prefix's place, printed with the
    file's name alone (`[registry.py:267]`), is at the site when its file has that name (the
    sites compared are one error's, in one project)."""
    lines = site.site.line, site.site.end_line
    if "/" not in frame.path and "\\" not in frame.path and frame.line is not None:
        named = frame.path == site.file.rsplit("/", 1)[-1]
        return named and lines[0] <= frame.line <= lines[1]
    return at_lines(frame, site.file, *lines)


def _frame_code(store: Store, sites: list[StoredSite], facts: _Facts) -> _Step:
    """The releases whose files have the project's frames' printed code at their lines."""
    top = sites[0].file.split("/", 1)[0]
    mine = [f for f in facts.frames if f.line and f.code and _inside(f.path, top)]
    mine = mine[:_MAX_FRAMES]
    if not mine:
        return [], ""
    texts: dict[tuple[int, str], list[str] | None] = {}
    agree: dict[int, int] = {}
    for index, site in enumerate(sites):
        votes = 0
        for frame in mine:
            path = _relative(frame.path, top)
            key = (site.version_id, path)
            if key not in texts:
                text = store.file_text(site.version_id, path)
                texts[key] = text.splitlines() if text is not None else None
            lines = texts[key]
            if lines is None or not frame.line or frame.line > len(lines):
                continue
            shown = " ".join((frame.code or "").split())
            there = " ".join(lines[frame.line - 1].split())
            # (A stray quote or backtick of the paste's markup may end the printed line.)
            votes += 1 if there in (shown, shown.strip("`'\"")) else -1
        agree[index] = votes
    best = max(agree.values())
    if best <= 0 or all(v == best for v in agree.values()):
        return [], ""
    kept = [site for index, site in enumerate(sites) if agree[index] == best]
    return kept, f"{best} traceback line(s) of {top} read as printed there"


def _inside(path: str, top: str) -> bool:
    return f"/{top}/" in "/" + path.replace("\\", "/")


def _relative(path: str, top: str) -> str:
    path = "/" + path.replace("\\", "/")
    return path[path.rindex(f"/{top}/") + 1 :]


def _exception_module(store: Store, sites: list[StoredSite], facts: _Facts) -> _Step:
    """The releases where the pasted class, written with its module, is the site's class."""
    pasted = facts.exception
    if not pasted or "." not in pasted:
        return [], ""
    kept = [s for s in sites if s.exception is not None and s.exception.qualname == pasted]
    return kept, f"the class is {pasted} there"


def _reason(store: Store, sites: list[StoredSite], facts: _Facts) -> _Step:
    """The releases whose reasons list has the reason the message names."""
    named = facts.reason
    kept = [s for s in sites if any(v.reason.text == named for v in s.site.variants)]
    return kept, "its reasons list has the reason named"


def _installed(store: Store, sites: list[StoredSite], facts: _Facts) -> _Step:
    """The release installed where the lookup runs."""
    version = facts.installed.get(sites[0].project)
    kept = [s for s in sites if version is not None and s.version == version]
    return kept, f"the installed release of {sites[0].project}"
