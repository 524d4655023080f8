"""The web face: HTML pages for people and JSON for programs, drawn from one page model.

Pages: `/`, `/search?q=`, `/errors/{id}`, `/projects/{project}`,
`/projects/{project}/{version}/files/{path}`. JSON: the same under `/api/`, plus
`/api/openapi.json`. Every failure is `{"error": message, "status": code}`. An answer drawn
from the catalog is named by its route, parameters and the store's generation: its ETag
revalidates without building it, and a repeat comes from the response cache.
"""

from __future__ import annotations

from errdex.web.app import create_app, serve

__all__ = ["create_app", "serve"]
