"""Helpers the sources share: file selection, path safety, hashing, project metadata."""

from __future__ import annotations

import datetime as dt
import hashlib
import os
import re
import stat
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple
from urllib.parse import quote

from errdex.lazy_re import lazy_compile
from errdex.sources.base import MAX_FILE_BYTES, Skipped, SourceFile

if TYPE_CHECKING:
    from email.message import Message

# Directories no source descends into: VCS data, caches, environments, build output.
SKIP_DIRS = frozenset(
    {".git", "__pycache__", "node_modules", ".venv", "venv", ".tox", "build", "dist"}
)


def skip_dir(name: str) -> bool:
    """Whether a directory of this name is left out of a tree (hidden ones included)."""
    return name in SKIP_DIRS or name.startswith(".")


def in_skipped_dir(path: str) -> bool:
    """Whether any directory component of a relative posix path is one `skip_dir` leaves out."""
    return any(skip_dir(part) for part in path.split("/")[:-1])


def is_python(path: str) -> bool:
    """Whether a path names a Python source or stub file."""
    return path.endswith((".py", ".pyi"))


# Bounds on the gettext catalogs a source yields (`catalog_paths`): all of them, and one.
MAX_CATALOG_BYTES = 32 * 1024 * 1024
MAX_CATALOG_FILE = 2 * 1024 * 1024


def catalog_paths(paths: Iterable[str]) -> set[str]:
    """The gettext catalogs among `paths`: the compiled `.mo` files gettext reads, and the
    `.po` files where no `.mo` is beside them (a source tree not compiled yet)."""
    names = set(paths)
    chosen = {p for p in names if p.endswith(".mo")}
    chosen.update(p for p in names if p.endswith(".po") and p[:-3] + ".mo" not in names)
    return chosen


def read_catalogs(found: Mapping[str, str | Path]) -> Iterator[SourceFile]:
    """The gettext catalogs among files on disk ({relative path: full path}), read within
    their budget (`catalog_paths` chooses; a regular file only, never past its bound)."""
    spent = 0
    for rel in sorted(catalog_paths(found)):
        try:
            if not stat.S_ISREG(Path(found[rel]).stat().st_mode):
                continue
            with open(found[rel], "rb") as handle:
                data = handle.read(MAX_CATALOG_FILE + 1)
        except OSError:
            continue
        if len(data) > MAX_CATALOG_FILE or spent + len(data) > MAX_CATALOG_BYTES:
            continue
        spent += len(data)
        yield SourceFile(rel, data)


def select_python(paths: Iterable[str]) -> set[str]:
    """Keep the `.py` paths, and the `.pyi` paths that have no `.py` beside them."""
    names = set(paths)
    chosen = {p for p in names if p.endswith(".py")}
    chosen.update(p for p in names if p.endswith(".pyi") and p[:-1] not in names)
    return chosen


_DRIVE = lazy_compile(r"[A-Za-z]:")
_SEPARATORS = lazy_compile(r"[/\\]")


def unsafe_reason(name: str) -> str | None:
    """Why an archive member name must not be used as a path, or None when it is safe."""
    if name and ".." not in name and ":" not in name and "\x00" not in name:
        # The common case, without a pattern (asked of each of the thousands a wheel lists).
        return "absolute path in archive" if name.startswith(("/", "\\")) else None
    if not name:
        return "empty member name"
    if "\x00" in name:
        return "member name contains a NUL byte"
    if name.startswith(("/", "\\")) or _DRIVE.match(name):
        return "absolute path in archive"
    if ".." in _SEPARATORS.split(name):
        return "path escapes the archive ('..' component)"
    return None


def clean_member_name(name: str) -> str:
    """A member name without a leading `./` and without a trailing `/`."""
    while name.startswith("./"):
        name = name[2:]
    return name.rstrip("/")


def too_large(size: int, limit: int, *, exact: bool = True) -> str:
    """The reason given for a file over the size limit (`exact=False`: size is a lower bound)."""
    if not exact:
        return f"too large (more than {limit} bytes)"
    return f"too large ({size} bytes; the limit is {limit})"


def read_capped(rel: str, full: str | Path, skipped: list[Skipped]) -> bytes | None:
    """The bytes of a file on disk, or None with the reason added to `skipped`: unreadable,
    or over `MAX_FILE_BYTES` (read no further than that, whatever its size claims)."""
    try:
        with open(full, "rb") as handle:
            # As much as its size claims and a byte more: a read of the whole cap makes a
            # buffer of 4 MB a file (then shrunk), which cost more than reading the package.
            wanted = min(os.fstat(handle.fileno()).st_size, MAX_FILE_BYTES) + 1
            data = handle.read(wanted)
            if len(data) == wanted <= MAX_FILE_BYTES:  # it holds more than it claimed
                data += handle.read(MAX_FILE_BYTES + 1 - wanted)
    except OSError as exc:
        skipped.append(Skipped(rel, f"unreadable ({exc.strerror})"))
        return None
    if len(data) > MAX_FILE_BYTES:
        skipped.append(Skipped(rel, too_large(len(data), MAX_FILE_BYTES, exact=False)))
        return None
    return data


def sha256_hex(data: bytes) -> str:
    """The hex sha256 of some bytes."""
    return hashlib.sha256(data).hexdigest()


def tree_revision(pairs: Iterable[tuple[str, str]]) -> str:
    """A sha256 over the sorted (path, content hash) pairs of a set of files."""
    digest = hashlib.sha256()
    for path, content_hash in sorted(pairs):
        digest.update(f"{path}\x00{content_hash}\n".encode("utf-8", "surrogateescape"))
    return digest.hexdigest()


def iso_utc(timestamp: float) -> str:
    """A POSIX timestamp as an ISO 8601 string in UTC, to the second."""
    moment = dt.datetime.fromtimestamp(timestamp, tz=dt.UTC)
    return moment.isoformat(timespec="seconds")


class ProjectUrls(NamedTuple):
    """The links a project's metadata declares that errdex uses."""

    tracker: str | None = None
    homepage: str | None = None
    repository: str | None = None  # `https://github.com/owner/repo`, when there is one
    links: tuple[tuple[str, str], ...] = ()  # every (label, url) declared, in order


_GITHUB = lazy_compile(r"^(?:https?://|git\+https://)(?:www\.)?github\.com/([\w.-]+)/([\w.-]+)")


def github_repo(url: str) -> str | None:
    """`https://github.com/owner/repo` for any URL inside a GitHub repository, else None."""
    match = _GITHUB.match(url.strip())
    if match is None:
        return None
    owner, repo = match.group(1), match.group(2).removesuffix(".git")
    if not repo or owner in {"sponsors", "orgs"}:
        return None
    return f"https://github.com/{owner}/{repo}"


def classify_urls(labelled: Iterable[tuple[str, str]], home_page: str | None) -> ProjectUrls:
    """Pick the tracker, homepage and GitHub repository out of (label, url) pairs."""
    tracker = homepage = repository = None
    pairs = [(label.strip(), url.strip()) for label, url in labelled if url.strip()]
    for label, url in pairs:
        key = re.sub(r"[^a-z]", "", label.lower())
        if tracker is None and any(word in key for word in ("issue", "bug", "tracker")):
            tracker = url
        if homepage is None and key in {"homepage", "home"}:
            homepage = url
    if home_page and home_page.strip() not in {"", "UNKNOWN"}:
        homepage = home_page.strip()
    repo_words = ("source", "repository", "repo", "code", "github", "homepage", "home")
    for label, url in pairs:
        key = re.sub(r"[^a-z]", "", label.lower())
        if any(word in key for word in repo_words) and github_repo(url):
            repository = github_repo(url)
            break
    if repository is None and homepage:
        repository = github_repo(homepage)
    # Else a repository any other link lies in: the tracker's first, then the others
    # (documentation, changelog) in order.
    others = [u for _, u in pairs if u == tracker] + [u for _, u in pairs if u != tracker]
    for url in others if repository is None else ():
        repository = github_repo(url)
        if repository is not None:
            break
    return ProjectUrls(tracker, homepage, repository, tuple(pairs))


def parse_metadata(data: bytes) -> Message:
    """The headers of a core-metadata file (`METADATA` or `PKG-INFO`)."""
    # Imported here: an installed distribution's metadata is read without it (`dist_info`).
    from email.parser import BytesHeaderParser

    return BytesHeaderParser().parsebytes(data)


def metadata_urls(get_all: Callable[[str], list[Any] | None]) -> ProjectUrls:
    """The tracker, homepage and GitHub repository that core metadata declares.

    `get_all` is the metadata's `get_all` (an `email.message.Message` or importlib's
    `PackageMetadata`).
    """
    labelled: list[tuple[str, str]] = []
    for entry in get_all("Project-URL") or []:
        label, sep, url = str(entry).partition(",")
        if sep:
            labelled.append((label, url))
    homes = get_all("Home-page") or []
    return classify_urls(labelled, str(homes[0]) if homes else None)


def github_link_template(repository: str, ref: str, folder: str = "") -> str:
    """A "view source" template pinned to `ref`, with `{path}` and `{line}` left to fill;
    `folder` (`src/`) is where the repository keeps the indexed paths."""
    return f"{repository}/blob/{ref}/{quote(folder)}" + "{path}#L{line}"


class TreeProject(NamedTuple):
    """What a source tree's packaging files say about the project."""

    name: str | None = None
    version: str | None = None
    urls: ProjectUrls = ProjectUrls()


_SETUP_NAME = lazy_compile(rb"""\bname\s*=\s*["']([A-Za-z0-9][A-Za-z0-9._-]*)["']""")
_LITERAL_VERSION = lazy_compile(r"^[A-Za-z0-9.!+_-]+$")


def _from_pyproject(data: bytes) -> TreeProject | None:
    import tomllib  # here: what is installed, or a wheel, has no pyproject.toml to parse

    try:
        doc = tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    tool = doc.get("tool")
    poetry = tool.get("poetry") if isinstance(tool, dict) else None
    for table in (doc.get("project"), poetry):
        if isinstance(table, dict) and isinstance(table.get("name"), str):
            version = table.get("version")
            raw_urls = table.get("urls")
            urls = raw_urls if isinstance(raw_urls, dict) else {}
            labelled = [(str(k), v) for k, v in urls.items() if isinstance(v, str)]
            home = table.get("homepage")
            return TreeProject(
                table["name"],
                version if isinstance(version, str) else None,
                classify_urls(labelled, home if isinstance(home, str) else None),
            )
    return None


def _from_setup_cfg(data: bytes) -> TreeProject | None:
    import configparser  # imported here: start-up of lookup (only a file to parse needs it)

    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(data.decode("utf-8"))
        name = parser.get("metadata", "name", fallback=None)
        version = parser.get("metadata", "version", fallback=None)
        home = parser.get("metadata", "url", fallback=None)
        project_urls = parser.get("metadata", "project_urls", fallback="")
    except (UnicodeDecodeError, configparser.Error):
        return None
    if not name:
        return None
    labelled = []
    for line in project_urls.splitlines():
        label, sep, url = line.partition("=")
        if sep:
            labelled.append((label, url))
    if version is not None and not _LITERAL_VERSION.match(version.strip()):
        version = None  # `attr: pkg.__version__` and the like: not read without running code
    return TreeProject(name.strip(), version and version.strip(), classify_urls(labelled, home))


def tree_project(read: Callable[[str], bytes | None]) -> TreeProject:
    """Read a tree's name, version and links from pyproject.toml, setup.cfg or setup.py."""
    data = read("pyproject.toml")
    found = _from_pyproject(data) if data is not None else None
    if found is not None:
        return found
    data = read("setup.cfg")
    found = _from_setup_cfg(data) if data is not None else None
    if found is not None:
        return found
    data = read("setup.py")
    match = _SETUP_NAME.search(data) if data is not None else None
    if match is not None:
        return TreeProject(match.group(1).decode("ascii"))
    return TreeProject()
