"""What a release's "view source" link is pinned to, read from the evidence it carries.

The code host is never asked. A commit when the release records one: the `commit_id` a
setuptools-scm / hatch-vcs / vcs-versioning version file writes, a `+g<sha>` local label
(setuptools-scm, versioningit), pbr's `pbr.json`, a git archive's `.git_archival.txt`, or
an installed copy's `direct_url.json`. Else the tag a link of its metadata names for this
very version (a changelog at `blob/v1.2.3/`, release notes at `releases/tag/1.2.3`). Else
the tag guessed from the version, and the pin says it is a guess.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable

import msgspec

from errdex.lazy_re import lazy_compile
from errdex.sources._common import github_link_template, github_repo
from errdex.sources.base import Pin

_SHA = r"[0-9a-f]{7,40}"
_COMMIT_ID = lazy_compile(r"""\bcommit_id\s*=\s*['"]g?(""" + _SHA + r""")['"]""")
_LOCAL_COMMIT = lazy_compile(r"\+(?:[^+]*[.])?g(" + _SHA + r")(?:[.]|$)")
_ARCHIVAL_NODE = lazy_compile(r"^node:\s*([0-9a-f]{40})\s*$", re.MULTILINE)
_HEX = lazy_compile(_SHA)
# A ref a link names inside its repository, and the version it spells (`v1.2.3`,
# `rel_1_2_3`, `pkg-1.2.3`): a prefix of letters and separators, then the version.
_LINK_REF = lazy_compile(r"/(?:blob|tree|releases/tag)/([^/?#]+)")
_TAGGED_VERSION = lazy_compile(r"[A-Za-z_.-]*?(\d[\w.-]*)")

# Names of the files that may hold pin evidence (`may_hold_pin`), and how deep a version
# file may sit (`pkg/_version.py`, `src/pkg/_version.py`; a vendored one lies deeper).
_VERSION_FILES = frozenset({"_version.py", "version.py", "__version__.py", "_scm_version.py"})
_PIN_FILE_ENDS = ("version.py", "version__.py", "pbr.json", ".git_archival.txt")
_VERSION_FILE_DEPTH = 3


def may_hold_pin(path: str) -> bool:
    """Whether an archive member (path without an sdist's top folder) may record the
    release's commit: a version file near the top, pbr.json, .git_archival.txt."""
    if not path.endswith(_PIN_FILE_ENDS):
        return False
    parts = path.split("/")
    name = parts[-1]
    if name == "pbr.json":
        return len(parts) == 2 and parts[0].endswith((".dist-info", ".egg-info"))
    if name == ".git_archival.txt":
        return len(parts) == 1
    return name in _VERSION_FILES and len(parts) <= _VERSION_FILE_DEPTH


def _text(data: bytes) -> str:
    return data.decode("utf-8", "replace")


def version_file_commit(data: bytes, version: str) -> str | None:
    """The commit a generated version file records (`commit_id = 'g4ba787ec9'`), when the
    file states this very version (a vendored package's file states its own)."""
    text = _text(data)
    match = _COMMIT_ID.search(text)
    if match is None or not any(f"{q}{version}{q}" in text for q in "'\""):
        return None
    return match.group(1)


def local_label_commit(version: str) -> str | None:
    """The commit a version's local label names: `1.2.dev3+g1a2b3c4` or `+g1a2b3c4.d2024`."""
    match = _LOCAL_COMMIT.search(version)
    return match.group(1) if match is not None else None


def pbr_commit(data: bytes) -> str | None:
    """The `git_version` pbr writes into `pbr.json`."""
    try:
        found = json.loads(data)
    except ValueError:
        return None
    sha = found.get("git_version") if isinstance(found, dict) else None
    return sha if isinstance(sha, str) and _HEX.fullmatch(sha) else None


def archival_commit(data: bytes) -> str | None:
    """The `node:` of a `.git_archival.txt` that `git archive` filled in (an unfilled one
    still says `$Format:%H$`)."""
    match = _ARCHIVAL_NODE.search(_text(data))
    return match.group(1) if match is not None else None


def direct_url_commit(data: bytes) -> tuple[str, str] | None:
    """(GitHub repository, commit) of a copy installed from a git checkout, as its
    `direct_url.json` records them (PEP 610)."""
    try:
        found = json.loads(data)
    except ValueError:
        return None
    if not isinstance(found, dict) or not isinstance(found.get("vcs_info"), dict):
        return None
    vcs, url = found["vcs_info"], found.get("url")
    sha = vcs.get("commit_id")
    repository = github_repo(url) if isinstance(url, str) else None
    if vcs.get("vcs") != "git" or not isinstance(sha, str) or not _HEX.fullmatch(sha):
        return None
    return (repository, sha) if repository is not None else None


def _spells(ref: str, version: str) -> bool:
    match = _TAGGED_VERSION.fullmatch(ref)
    return match is not None and match.group(1).replace("_", ".").replace("-", ".") == version


def linked_tag(links: Iterable[tuple[str, str]], repository: str, version: str) -> Pin | None:
    """The tag a metadata link inside `repository` names for this very version."""
    for label, url in links:
        if github_repo(url) != repository:
            continue
        match = _LINK_REF.search(url[len(repository) :])
        if match is not None and _spells(match.group(1), version):
            return Pin(kind="tag", ref=match.group(1), basis=f"named by its {label} link")
    return None


def release_pin(
    repository: str,
    version: str,
    commits: Iterable[tuple[str | None, str]],
    links: Iterable[tuple[str, str]] = (),
    path_basis: str | None = None,
) -> tuple[str, Pin]:
    """The link template of a release in `repository`, and its pin: the first commit of
    `commits` ((commit or None, where it is recorded)) found, else the tag a link names,
    else the tag `v<version>` (without its local label), guessed. `path_basis` says how
    the indexed paths are known to be the repository's (None: they are guessed to be)."""
    for sha, where in commits:
        if sha:
            pin = Pin(kind="commit", ref=sha, basis=f"recorded in {where}", path_basis=path_basis)
            return github_link_template(repository, sha), pin
    release = version.partition("+")[0]  # a local label is not in the tag
    pin = linked_tag(links, repository, release) or Pin(
        kind="tag", ref="v" + release, basis="guessed from the version", guessed=True
    )
    pin = msgspec.structs.replace(pin, path_basis=path_basis)
    return github_link_template(repository, pin.ref), pin


def archive_commits(version: str, found: dict[str, bytes]) -> list[tuple[str | None, str]]:
    """The commits an archive's evidence files (`may_hold_pin`, by path) record, best first,
    with where each is recorded."""
    commits: list[tuple[str | None, str]] = []
    for path in sorted(found, key=lambda p: (p.count("/"), p)):
        name = path.rpartition("/")[2]
        if name == "pbr.json":
            commits.append((pbr_commit(found[path]), "its pbr.json"))
        elif name == ".git_archival.txt":
            commits.append((archival_commit(found[path]), "its .git_archival.txt"))
        else:
            commits.append((version_file_commit(found[path], version), f"its {path}"))
    commits.append((local_label_commit(version), "its version's local label"))
    return commits
