"""The HTML pages: each draws the data its JSON twin under `/api/` returns."""

from __future__ import annotations

import functools
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

import errdex
from errdex.explain.page import Page
from errdex.explain.page_reads import page_reads
from errdex.render.json import plain
from errdex.store.base import Store
from errdex.web import views
from errdex.web.api import limit_of, query_of, split_file_path
from errdex.web.lookups import lookups
from errdex.web.present import highlight_python
from errdex.web.responses import catalog_answer
from errdex.web.templating import render


def _html(request: Request, template: str, **context: Any) -> HTMLResponse:
    return HTMLResponse(render(request, template, **context))


def page_context(store: Store, page: Page) -> dict[str, Any]:
    """An error page's template context: the page record, its snippet highlighted, what
    its "view source" link is pinned to (as every renderer says it), and the newest indexed
    version of its project (to say when the error is gone from it)."""
    source = page.source
    snippet = highlight_python(
        source.snippet, source.snippet_start, range(source.line, source.end_line + 1)
    )
    return {
        "page": plain(page),
        "snippet": snippet,
        "pin_text": source.pin_text(page.revision),  # what "view source" is pinned to
        # (asked of the page's own reads by `error`: the versions it read, not read again)
        "project_newest": errdex.newest_version(page.project, db=store),
    }


def home(request: Request) -> Response:
    return catalog_answer(
        request,
        "home",
        (),
        lambda store: _html(request, "index.html", **plain(errdex.list_projects(db=store))),
    )


async def search(request: Request) -> Response:
    if request.method == "GET" and not request.query_params.get("q", "").strip():
        return RedirectResponse(request.scope.get("root_path", "") + "/", status_code=303)
    text = await query_of(request)
    limit = limit_of(request)

    def build(store: Store) -> Response:
        found = errdex.search(text, db=store, limit=limit, pages=True)
        best = page_context(store, found.page) if found.page is not None else None
        return _html(request, "search.html", query=text, best=best, **plain(found.record()))

    # A POSTed paste gets the page a GET of the same text gets, from the same cache entry,
    # without an ETag: a POST is not revalidated.
    answer = functools.partial(catalog_answer, revalidate=request.method != "POST")
    return await lookups(request).run(answer, request, "search.html", (text, limit), build)


def error(request: Request) -> Response:
    error_id = views.error_id_of(request.path_params["error_id"])
    version = request.query_params.get("version")

    def build(store: Store) -> Response:
        reads = page_reads(store)  # the project's versions the page read, read once
        page = errdex.show(error_id, db=reads, version=version)
        return _html(request, "error.html", **page_context(reads, page))

    return catalog_answer(request, "error.html", (error_id, version), build)


def project(request: Request) -> Response:
    name = request.path_params["project"]
    version = request.query_params.get("version")
    return catalog_answer(
        request,
        "project.html",
        (name, version),
        lambda store: _html(
            request, "project.html", **plain(errdex.show_project(name, db=store, version=version))
        ),
    )


def source_file(request: Request) -> Response:
    name = request.path_params["project"]
    version, path = split_file_path(request.path_params["rest"])

    def build(store: Store) -> Response:
        record = errdex.show_file(name, version, path, db=store)
        text = errdex.read_file(name, record.version, path, db=store)
        code = None
        if text is not None:
            marked = {n for s in record.sites for n in range(s.line, s.end_line + 1)}
            code = highlight_python(text, 1, marked)
        return _html(request, "file.html", code=code, **plain(record))

    return catalog_answer(request, "file.html", (name, version, path), build)


def routes() -> list[Route]:
    return [
        Route("/", home),
        Route("/search", search, methods=["GET", "POST"]),
        Route("/errors/{error_id}", error),
        Route("/projects/{project}", project),
        Route("/projects/{project}/{rest:path}", source_file),
    ]
