"""A static catalog: one version of a project's pages and JSON twins, written as files.

The pages are the ones `errdex serve` answers, fetched from the app in-process and crawled
from the project's page by their own links, so the export holds exactly what a reader can
reach. Each page is written as `PATH/index.html` and each JSON twin as `PATH.json`, where
PATH is the page's address on the server; links are rewritten relative, so the folder
opens from `file://` and from any static host, at any prefix. Links to what the export
does not hold (other versions, other projects, the search) lose their target rather than
break. An index of every error (the export's home page) and a sitemap come with it.
"""

from __future__ import annotations

import asyncio
import html
import posixpath
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qs, quote, urlsplit
from xml.sax.saxutils import escape as xml_escape

import httpx

from errdex.errors import InputError, NotFoundError
from errdex.history.pairing import exception_name
from errdex.store import open_store
from errdex.store.base import StoredSite
from errdex.web.app import create_app
from errdex.web.links import Links

_ATTRIBUTE = re.compile(r'(?P<name>\b(?:href|src|action))="(?P<value>[^"]*)"')
_FORM = re.compile(r"<form\b.*?</form>", re.DOTALL)
_HOST = "http://errdex.invalid"  # the in-process app answers any host
_IN_FLIGHT = 8


@dataclass
class ExportReport:
    """What an export wrote."""

    project: str
    version: str
    out: Path
    pages: int = 0
    json_files: int = 0
    assets: int = 0
    bytes: int = 0
    seconds: float = 0.0
    errors: list[str] = field(default_factory=list)  # error ids of the index


class _Scope:
    """Which server addresses the export holds, and the file each one becomes."""

    def __init__(self, project: str, version: str, newest: bool) -> None:
        self.project, self.version, self.newest = project, version, newest
        links = Links()
        self.project_path = urlsplit(links.project(project)).path
        self.files_prefix = urlsplit(links.file(project, version, "x")).path[: -len("x")]

    def canonical(self, url: str) -> str | None:
        """The address to fetch for a link (`/errors/ID?version=V`), None when outside."""
        parts = urlsplit(url)
        if parts.scheme or parts.netloc or not parts.path.startswith("/"):
            return None
        path = parts.path
        api = path.startswith("/api/")
        page = path[4:] if api else path
        query = parse_qs(parts.query)
        version = query.get("version", [None])[0]
        if set(query) - {"version"}:
            return None
        if page == "/":  # the server's home lists every project: the export's is its index
            return None if api else "/"
        if path.startswith("/static/") or path == "/api/openapi.json":
            return path
        if version not in (None, self.version):
            return None
        if page == self.project_path or page.startswith(self.files_prefix):
            return path + ("" if self.newest else f"?version={quote(self.version)}")
        if page.startswith("/errors/") and page.count("/") == 2:
            return path + ("" if self.newest else f"?version={quote(self.version)}")
        return None

    @staticmethod
    def file_for(address: str, content_type: str) -> str:
        """The file an address is written to, relative to the export's root."""
        path = urlsplit(address).path
        if path.startswith("/static/") or path == "/api/openapi.json":
            return path.lstrip("/")
        if "json" in content_type:
            return path.lstrip("/") + ".json"
        return posixpath.join(path.lstrip("/"), "index.html") if path != "/" else "index.html"


class _RootLinks(Links):
    """The site's links as seen from the export's root folder (its index page)."""

    def home(self) -> str:
        return "index.html"

    def static(self, name: str) -> str:
        return f"static/{quote(name)}"

    def openapi(self) -> str:
        return "api/openapi.json"


def _relative(target: str, source: str) -> str:
    """`target` (a file of the export) as seen from the file `source`, percent-encoded."""
    return quote(posixpath.relpath(target, posixpath.dirname(source) or "."), safe="/")


def export_catalog(
    db: str | None,
    project: str,
    version: str | None,
    out: Path,
    *,
    base_url: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> ExportReport:
    """Write the catalog of `project` at `version` (default: its newest) under `out`."""
    started = time.perf_counter()
    with open_store(db) as store:
        versions = [record.label for record in store.versions(project)]
        if not versions:
            raise NotFoundError(f"no project {project!r} is indexed")
        newest = versions[0]
        chosen = version or newest
        if chosen not in versions:
            raise NotFoundError(
                f"no version {chosen!r} of {project} (indexed: {', '.join(versions)})"
            )
        sites = store.list_sites(project, chosen)
    scope = _Scope(project, chosen, chosen == newest)
    report = ExportReport(project=project, version=chosen, out=out)
    errors = sorted({site.id: site for site in sites}.values(), key=lambda s: (s.file, s.site.line))
    report.errors = [site.id for site in errors]
    try:  # a folder that cannot be made or written (under a file, read-only, a full disk)
        if out.exists() and any(out.iterdir()):
            raise InputError(f"{out} is not empty: export into a new or empty folder")
        out.mkdir(parents=True, exist_ok=True)
        asyncio.run(_crawl(db, scope, errors, report, progress))
        _write_sitemap(out, report, base_url)
    except OSError as error:
        raise InputError(f"cannot export into {out}: {error.strerror or error}") from error
    report.seconds = time.perf_counter() - started
    return report


async def _crawl(
    db: str | None,
    scope: _Scope,
    errors: list[StoredSite],
    report: ExportReport,
    progress: Callable[[int], None] | None,
) -> None:
    app = create_app(db, cache_mb=0)
    links = Links()
    seeds = [scope.canonical(links.project(scope.project)), scope.canonical(links.openapi())]
    seeds += [scope.canonical(links.error(site.id)) for site in errors]
    queue = [seed for seed in seeds if seed is not None]
    seen: set[str] = set(queue)
    written: dict[str, str] = {}
    try:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url=_HOST) as client:
            while queue:
                # A few requests at once: the app builds pages in its thread pool.
                batch, queue = queue[:_IN_FLIGHT], queue[_IN_FLIGHT:]
                fetched = await asyncio.gather(
                    *(_fetch_one(client, address, scope, report, written) for address in batch)
                )
                for link in (link for found in fetched for link in found):
                    if link not in seen:
                        seen.add(link)
                        queue.append(link)
                if progress is not None:
                    progress(len(batch))
    finally:
        app.state.pool.close()
    _write_index(report, scope, errors, written)


async def _fetch_one(
    client: httpx.AsyncClient,
    address: str,
    scope: _Scope,
    report: ExportReport,
    written: dict[str, str],
) -> list[str]:
    """Fetch one address, write its file; the in-scope addresses its links name."""
    if address == "/":
        return []  # written last, from every error
    response = await client.get(address)
    if response.status_code != 200:
        raise InputError(f"the app answered {response.status_code} for {address}")
    content_type = response.headers.get("content-type", "")
    target = scope.file_for(address, content_type)
    written[address] = target
    found: list[str] = []
    if "text/html" in content_type:
        body, found = _relink(response.text, target, scope)
        data = body.encode()
        report.pages += 1
    else:
        data = response.content
        if target.startswith("static/"):
            report.assets += 1
        else:
            report.json_files += 1
    path = report.out / target
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    report.bytes += len(data)
    return found


def _relink(page: str, target: str, scope: _Scope) -> tuple[str, list[str]]:
    """The page with every in-scope link relative to its file and every other internal link
    without a target; the in-scope addresses."""
    found: list[str] = []
    page = _FORM.sub("", page)  # a search form needs the server

    def rewrite(match: re.Match[str]) -> str:
        value = html.unescape(match["value"])
        if value.startswith("#") or urlsplit(value).scheme in ("http", "https", "mailto"):
            return match.group(0)
        url, _, fragment = value.partition("#")
        address = scope.canonical(url)
        if address is None:
            return "" if match["name"] == "href" else match.group(0)
        found.append(address)
        is_json = urlsplit(address).path.startswith("/api/")
        kind = "application/json" if is_json else "text/html"
        file = scope.file_for(address, kind)
        relative = _relative(file, target) + (f"#{fragment}" if fragment else "")
        return f'{match["name"]}="{html.escape(relative)}"'

    return _ATTRIBUTE.sub(rewrite, page), found


def _write_index(
    report: ExportReport, scope: _Scope, errors: list[StoredSite], written: dict[str, str]
) -> None:
    """The export's home: every error of the version, each linked to its page."""
    from errdex.web.templating import render_page

    rows = []
    for site in errors:
        address = scope.canonical(Links().error(site.id))
        page = written.get(address or "")
        rows.append(
            {
                "href": _relative(page, "index.html") if page else None,
                "id": site.id,
                "exception": exception_name(site),
                "message": site.site.message.text if site.site.message is not None else None,
                "file": site.file,
                "line": site.site.line,
                "kind": str(site.site.kind),
            }
        )
    project_page = written.get(scope.canonical(Links().project(scope.project)) or "")
    body = render_page(
        "catalog.html",
        _RootLinks(),
        project=scope.project,
        version=scope.version,
        rows=rows,
        project_href=_relative(project_page, "index.html") if project_page else None,
    )
    (report.out / "index.html").write_text(_FORM.sub("", body))
    report.pages += 1


def _write_sitemap(out: Path, report: ExportReport, base_url: str | None) -> None:
    """`sitemap.xml` of every page; with `base_url`, absolute as search engines want."""
    pages = sorted(p.relative_to(out).as_posix() for p in out.rglob("index.html"))
    base = (base_url or "").rstrip("/")
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">']  # fmt: skip
    for page in pages:
        where = quote(posixpath.dirname(page) + "/" if page != "index.html" else "", safe="/")
        location = f"{base}/{where}" if base else where or "./"
        lines.append(f"  <url><loc>{xml_escape(location)}</loc></url>")
    lines.append("</urlset>")
    (out / "sitemap.xml").write_text("\n".join(lines) + "\n")
    report.bytes += (out / "sitemap.xml").stat().st_size
