"""Jinja2 with autoescape on for every template: a message, code line or value is text."""

from __future__ import annotations

from typing import Any

import jinja2
from starlette.requests import Request

from errdex.explain.page import GUARD_NOT_READ
from errdex.web.links import Links, safe_href
from errdex.web.present import KIND_WORDS, prose, template_segments

_env = jinja2.Environment(
    loader=jinja2.PackageLoader("errdex.web", "templates"),
    autoescape=True,  # every template, whatever its name
    undefined=jinja2.StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
)
_env.filters["prose"] = prose
_env.globals.update(
    kind_words=KIND_WORDS,
    segments=template_segments,
    safe_href=safe_href,
    guard_not_read=GUARD_NOT_READ,
)


def render(request: Request, template: str, **context: Any) -> str:
    """A page: the template drawn from `context`, with the site's links at hand."""
    links = Links(request.scope.get("root_path", ""))
    return render_page(template, links, request_path=request.url.path, **context)


def render_page(template: str, links: Links, **context: Any) -> str:
    """A page drawn with the given links (a static export draws its index with its own)."""
    return _env.get_template(template).render(links=links, **context)
