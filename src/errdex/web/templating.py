"""Jinja2 with autoescape on for every template: a message, code line or value is text."""

from __future__ import annotations

from typing import Any

import jinja2
from starlette.requests import Request

from errdex.explain.page import GUARD_NOT_READ
from errdex.web.links import Links, safe_href
from errdex.web.present import KIND_WORDS, prose, template_segments

_DICT_ATTRIBUTES = frozenset(dir(dict))


class _Environment(jinja2.Environment):
    """Jinja's environment, reading a plain dict's field as an item first.

    A page's record reaches its template as plain dicts (`render.json.plain`): `page.message`
    asks the dict for an attribute, fails, then takes the item, and each of the hundreds of
    such reads a page makes raises and catches an `AttributeError`. The item is what Jinja
    gives anyway unless the name is one of dict's own attributes (`items`, `get`), which
    are still read as attributes."""

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict and attribute not in _DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except KeyError:
                return self.undefined(obj=obj, name=attribute)
        return super().getattr(obj, attribute)


_env = _Environment(
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
