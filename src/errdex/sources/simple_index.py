"""A package index's simple API (PEP 691 JSON, PEP 503 HTML): a release's files, one chosen,
downloaded as a file and hash-checked. Nothing downloaded is ever built, installed or run.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import json
import os
import ssl
from collections.abc import Iterable, Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import NamedTuple
from urllib.parse import urldefrag, urljoin, urlsplit
from urllib.request import url2pathname

import httpx
from packaging.tags import sys_tags
from packaging.utils import (
    InvalidWheelFilename,
    canonicalize_name,
    parse_wheel_filename,
)
from packaging.version import InvalidVersion, Version

from errdex.errors import SourceError
from errdex.sources.archive_names import is_archive, name_version_from_filename, same_version
from errdex.sources.digests import records_beside, remember_sha256
from errdex.sources.pip_config import IndexSettings

# A download larger than this is refused: the largest real wheels are about 1 GB.
MAX_DOWNLOAD_BYTES = 4 * 1024**3
MAX_PAGE_BYTES = 64 * 1024 * 1024  # a project page (the largest list tens of thousands of files)
TIMEOUT = httpx.Timeout(60.0, connect=30.0)
_ACCEPT = (
    "application/vnd.pypi.simple.v1+json, application/vnd.pypi.simple.v1+html;q=0.2,"
    " text/html;q=0.01"
)
_HASHES = ("sha256", "sha384", "sha512")  # the ones pip trusts; md5 alone is not a check
_CHUNK = 1 << 20


class IndexFile(NamedTuple):
    """One file a project page lists."""

    filename: str
    url: str
    hashes: dict[str, str]
    yanked: bool
    uploaded: str | None = None  # when the index received it (PEP 700's `upload-time`)
    size: int | None = None  # its size in bytes, when the index says (PEP 700's `size`)


def shown(url: str) -> str:
    """An index URL fit for a message: no user name, password or query."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{host}{port}{parts.path}" if parts.scheme != "file" else url


class _Links(HTMLParser):
    """The `<a href>`s of a PEP 503 page, with their `data-yanked`."""

    def __init__(self) -> None:
        super().__init__()
        self.links: list[tuple[str, str, bool]] = []  # (href, text, yanked)
        self._open: tuple[str, bool] | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            found = dict(attrs)
            self._open = (found.get("href") or "", "data-yanked" in found)
            self._text = []

    def handle_data(self, data: str) -> None:
        if self._open is not None:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "a" and self._open is not None:
            self.links.append((self._open[0], "".join(self._text).strip(), self._open[1]))
            self._open = None


def _parse_json(page_url: str, body: bytes) -> list[IndexFile]:
    try:
        data = json.loads(body)
        entries = data["files"]
    except (ValueError, KeyError, TypeError) as exc:
        raise SourceError(f"the index at {shown(page_url)} answered malformed JSON") from exc
    files: list[IndexFile] = []
    for entry in entries if isinstance(entries, list) else []:
        if not isinstance(entry, dict):
            continue
        filename, url = entry.get("filename"), entry.get("url")
        if not isinstance(filename, str) or not isinstance(url, str):
            continue
        raw = entry.get("hashes")
        hashes = (
            {k: v for k, v in raw.items() if isinstance(v, str)} if isinstance(raw, dict) else {}
        )
        uploaded, size = entry.get("upload-time"), entry.get("size")
        files.append(
            IndexFile(
                filename,
                urljoin(page_url, url),
                hashes,
                bool(entry.get("yanked")),
                _upload_time(uploaded),
                size if isinstance(size, int) and not isinstance(size, bool) else None,
            )
        )
    return files


def _upload_time(value: object) -> str | None:
    """An index's `upload-time` in UTC to the second, as errdex writes dates; anything else
    an index sends (a hostile one may send anything) is no date."""
    if not isinstance(value, str) or len(value) > 40:
        return None
    try:
        moment = dt.datetime.fromisoformat(value)
    except ValueError:
        return None
    if moment.tzinfo is None:
        return None
    return moment.astimezone(dt.UTC).isoformat(timespec="seconds")


def _parse_html(page_url: str, body: bytes) -> list[IndexFile]:
    parser = _Links()
    parser.feed(body.decode("utf-8", "replace"))
    files: list[IndexFile] = []
    for href, text, yanked in parser.links:
        url, fragment = urldefrag(urljoin(page_url, href))
        algorithm, _, value = fragment.partition("=")
        hashes = {algorithm: value} if algorithm in _HASHES and value else {}
        filename = os.path.basename(urlsplit(url).path) or text  # noqa: PTH119 - a URL path
        files.append(IndexFile(filename, url, hashes, yanked))
    return files


class IndexClient:
    """Talks to the indexes of `settings`, in pip's order, over one HTTP client."""

    def __init__(self, settings: IndexSettings) -> None:
        self.settings = settings
        self._http = httpx.Client(
            timeout=TIMEOUT, follow_redirects=True, verify=_verification(settings.cert)
        )

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> IndexClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- project pages ------------------------------------------------------------------

    def project_files(self, name: str) -> list[IndexFile] | None:
        """Every file the indexes list for a project; None when no index knows it.

        As with pip, an index that cannot be read does not hide what the others list; its
        error is raised only when no other index has the project.
        """
        if self.settings.no_index:
            raise SourceError("pip is configured with no index (no-index)")
        found: list[IndexFile] | None = None
        failure: SourceError | None = None
        for root in self.settings.urls:
            page_url = urljoin(root, f"{canonicalize_name(name)}/")
            try:
                files = self._page(page_url)
            except SourceError as exc:
                failure = failure or exc
                continue
            if files is not None:
                found = (found or []) + files
        if found is None and failure is not None:
            raise failure
        return found

    def _page(self, page_url: str) -> list[IndexFile] | None:
        if page_url.startswith("file:"):
            return _file_page(page_url)
        try:
            with self._http.stream("GET", page_url, headers={"Accept": _ACCEPT}) as response:
                if response.status_code == 404:
                    return None
                response.raise_for_status()
                body = _read_capped(response.iter_bytes(), MAX_PAGE_BYTES, page_url)
                kind = response.headers.get("content-type", "").split(";")[0].strip()
                page_url = str(response.url)
        except httpx.HTTPError as exc:
            raise SourceError(f"cannot read the index at {shown(page_url)}: {exc}") from exc
        if kind.endswith("json"):
            return _parse_json(page_url, body)
        return _parse_html(page_url, body)

    # -- downloads ----------------------------------------------------------------------

    def download(self, file: IndexFile, directory: Path, limit: int = MAX_DOWNLOAD_BYTES) -> Path:
        """Save `file` in `directory` under its own name once its hash matches the index's
        (a `SourceError` when it is larger than `limit` bytes).

        It is written to a temporary name first and renamed when checked, so a download cut
        short or tampered with never sits in the cache as if it were whole.
        """
        target = directory / file.filename
        partial = directory / f".{file.filename}.{os.getpid()}.part"
        algorithm = next((a for a in _HASHES if a in file.hashes), None)
        digest = hashlib.new(algorithm or "sha256")
        try:
            with partial.open("wb") as out:
                for chunk in self._chunks(file.url, limit):
                    digest.update(chunk)
                    out.write(chunk)
            if algorithm is not None and digest.hexdigest() != file.hashes[algorithm].lower():
                raise SourceError(f"{file.filename}: its {algorithm} differs from the index's")
            partial.replace(target)
            if digest.name == "sha256":  # the source's revision: no need to hash it again
                remember_sha256(
                    target, digest.hexdigest(), records_beside(target), uploaded=file.uploaded
                )
        except OSError as exc:
            raise SourceError(f"cannot save {file.filename}: {exc.strerror or exc}") from exc
        finally:
            with contextlib.suppress(OSError):
                partial.unlink()
        return target

    def _chunks(self, url: str, limit: int) -> Iterator[bytes]:
        if url.startswith("file:"):
            with Path(url2pathname(urlsplit(url).path)).open("rb") as handle:
                yield from _capped(iter(lambda: handle.read(_CHUNK), b""), url, limit)
            return
        try:
            with self._http.stream("GET", url) as response:
                response.raise_for_status()
                yield from _capped(response.iter_bytes(_CHUNK), url, limit)
        except httpx.HTTPError as exc:
            raise SourceError(f"cannot download {shown(url)}: {exc}") from exc


def _verification(cert: str | None) -> ssl.SSLContext | bool:
    """pip's `cert` (a CA bundle file or a folder of them) as httpx's `verify`."""
    if not cert:
        return True
    try:
        if Path(cert).is_dir():
            return ssl.create_default_context(capath=cert)
        return ssl.create_default_context(cafile=cert)
    except (OSError, ssl.SSLError) as exc:
        raise SourceError(f"cannot use pip's cert setting {cert}: {exc}") from exc


def _capped(chunks: Iterable[bytes], url: str, limit: int) -> Iterator[bytes]:
    total = 0
    for chunk in chunks:
        total += len(chunk)
        if total > limit:
            raise SourceError(f"{shown(url)} is larger than {limit} bytes")
        yield chunk


def _read_capped(chunks: Iterable[bytes], limit: int, url: str) -> bytes:
    out = bytearray()
    for chunk in chunks:
        out += chunk
        if len(out) > limit:
            raise SourceError(f"the index page {shown(url)} is larger than {limit} bytes")
    return bytes(out)


def _file_page(page_url: str) -> list[IndexFile] | None:
    """A `file:` index: the folder's `index.html` when it has one, else its files."""
    folder = Path(url2pathname(urlsplit(page_url).path))
    page = folder / "index.html"
    try:
        if page.is_file():
            return _parse_html(page_url, page.read_bytes()[:MAX_PAGE_BYTES])
        if folder.is_dir():
            return [
                IndexFile(p.name, urljoin(page_url, p.name), {}, False)
                for p in sorted(folder.iterdir())
                if p.is_file()
            ]
    except OSError:
        pass
    return None


def release_files(files: Iterable[IndexFile], name: str, version: str) -> list[IndexFile]:
    """The files of `name==version` among a project page's (any kind, archives or not)."""
    wanted = canonicalize_name(name)
    out = []
    for file in files:
        if os.path.basename(file.filename) != file.filename:  # noqa: PTH119 - not a path here
            continue  # a name with a folder in it could not be the cache's file
        parsed = name_version_from_filename(file.filename) or _other_name_version(file.filename)
        if parsed is None:
            continue
        if canonicalize_name(parsed[0]) == wanted and same_version(parsed[1], version):
            out.append(file)
    return out


def _other_name_version(filename: str) -> tuple[str, str, bool] | None:
    """`(name, version, False)` for the files that are neither a wheel nor an sdist (an egg,
    an installer), to say what a release has instead."""
    stem = filename.split(".tar")[0].rsplit(".", 1)[0] if "." in filename else filename
    name, _, rest = stem.partition("-")
    version = rest.split("-")[0] if rest else ""
    return (name, version, False) if name and version else None


def _wheel_rank(filename: str, supported: dict[object, int]) -> tuple[int, int]:
    """Pure wheels first; then those this interpreter could install, best tag first."""
    try:
        _, _, _, tags = parse_wheel_filename(filename)
    except InvalidWheelFilename:
        return (3, 0)
    if any(tag.platform == "any" for tag in tags):
        return (0, min((supported.get(tag, len(supported)) for tag in tags), default=0))
    known = [supported[tag] for tag in tags if tag in supported]
    return (1, min(known)) if known else (2, 0)


def choose(files: Iterable[IndexFile]) -> IndexFile | None:
    """The file to read: a wheel (pure first, then one for this interpreter, then any),
    else an sdist (`.tar.gz` first); never a yanked one while another is there."""
    supported: dict[object, int] = {}
    for position, tag in enumerate(sys_tags()):
        supported.setdefault(tag, position)
    ranked = []
    for file in files:
        if not is_archive(file.filename):
            continue
        if file.filename.lower().endswith(".whl"):
            kind, rank = _wheel_rank(file.filename, supported)
        else:
            kind, rank = 4, 0 if file.filename.lower().endswith(".tar.gz") else 1
        ranked.append(((file.yanked, kind, rank, file.filename), file))
    return min(ranked, key=lambda pair: pair[0])[1] if ranked else None


def newest_version(files: Iterable[IndexFile]) -> str | None:
    """The newest version among a project's wheels and sdists that are not yanked: a final
    one when there is any, else the newest pre-release (some projects publish only those)."""
    versions: set[Version] = set()
    for file in files:
        parsed = name_version_from_filename(file.filename)
        if parsed is None or file.yanked or not is_archive(file.filename):
            continue
        with contextlib.suppress(InvalidVersion):
            versions.add(Version(parsed[1]))
    finals = {v for v in versions if not v.is_prerelease and not v.is_devrelease}
    return str(max(finals or versions)) if versions else None
