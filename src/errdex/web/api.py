"""The JSON API under `/api/`: the same data the pages draw, for programs."""

from __future__ import annotations

import json
from importlib.resources import files
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

import errdex
from errdex.errors import NotFoundError
from errdex.explain.page import Page
from errdex.match import LookupAnswer
from errdex.render.json import schemas
from errdex.render.records import Failure, FilePage, ProjectList, ProjectPage
from errdex.store.base import Store
from errdex.web import views
from errdex.web.forms import form_field
from errdex.web.lookups import lookups
from errdex.web.responses import JSONResponse, catalog_answer


def openapi_description() -> dict[str, Any]:
    """The OpenAPI description: routes from `openapi.json`, the schemas of their answers
    generated from the record types the routes return, so the two cannot drift apart."""
    spec: dict[str, Any] = json.loads(
        files("errdex.web").joinpath("openapi.json").read_text("utf-8")
    )
    spec["components"]["schemas"] = schemas(
        [ProjectList, ProjectPage, FilePage, LookupAnswer, Page, Failure]
    )
    return spec


_OPENAPI = openapi_description()


def limit_of(request: Request, default: int = 5, most: int = 50) -> int:
    raw = request.query_params.get("limit")
    try:
        return max(1, min(most, int(raw))) if raw else default
    except ValueError:
        return default


async def read_body(request: Request, limit: int) -> bytes:
    """The request body, refused past `limit` bytes (it is read into memory)."""
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise HTTPException(413, f"the body is over {limit // 1_000_000} MB")
        chunks.append(chunk)
    return b"".join(chunks)


async def query_of(request: Request) -> str:
    """The pasted text: `q` of the query string, or of a POSTed form, or a text body."""
    if request.method != "POST":
        return views.clean_query(request.query_params.get("q"))
    # A form encodes a byte in up to three: allow that much of a megabyte of paste.
    body = await read_body(request, 3 * views.MAX_QUERY + 1024)
    field = form_field(request.headers.get("content-type", ""), body, "q")
    return views.clean_query(body.decode("utf-8", "replace") if field is None else field)


def projects(request: Request) -> Response:
    return catalog_answer(
        request, "projects", (), lambda store: JSONResponse(errdex.list_projects(db=store))
    )


def project(request: Request) -> Response:
    name = request.path_params["project"]
    version = request.query_params.get("version")
    return catalog_answer(
        request,
        "project",
        (name, version),
        lambda store: JSONResponse(errdex.show_project(name, db=store, version=version)),
    )


def split_file_path(rest: str) -> tuple[str, str]:
    """`{version}/files/{path}`: a version label may hold `/` (a branch), a path too."""
    version, sep, path = rest.partition("/files/")
    if not sep or not version or not path:
        raise NotFoundError(f"no such page: expected VERSION/files/PATH, got {rest!r}")
    return version, path


def file(request: Request) -> Response:
    name = request.path_params["project"]
    version, path = split_file_path(request.path_params["rest"])
    return catalog_answer(
        request,
        "file",
        (name, version, path),
        lambda store: JSONResponse(errdex.show_file(name, version, path, db=store)),
    )


async def search(request: Request) -> Response:
    text = await query_of(request)
    project_name = request.query_params.get("project")
    version = request.query_params.get("version")
    limit = limit_of(request)

    def build(store: Store) -> Response:
        found = errdex.search(text, db=store, project=project_name, version=version, limit=limit)
        return JSONResponse(found.record())

    # GET or POST, the same text has the same answer: a POSTed paste is kept under the
    # hash of its text (the key holds no body), and a repeat of it is not looked up again.
    params = (text, project_name, version, limit)
    return await lookups(request).run(catalog_answer, request, "search", params, build)


def error(request: Request) -> Response:
    error_id = views.error_id_of(request.path_params["error_id"])
    version = request.query_params.get("version")
    return catalog_answer(
        request,
        "error",
        (error_id, version),
        lambda store: JSONResponse(errdex.show(error_id, db=store, version=version)),
    )


def openapi(request: Request) -> Response:
    return JSONResponse(_OPENAPI)


def routes() -> list[Route]:
    return [
        Route("/api/projects", projects),
        Route("/api/projects/{project}", project),
        Route("/api/projects/{project}/{rest:path}", file),
        Route("/api/search", search, methods=["GET", "POST"]),
        Route("/api/errors/{error_id}", error),
        Route("/api/openapi.json", openapi),
    ]
