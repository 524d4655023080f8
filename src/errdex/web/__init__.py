"""The web face: HTML pages for people and JSON for programs, drawn from one page model.

Pages: `/`, `/search?q=`, `/errors/{id}`, `/projects/{project}`,
`/projects/{project}/{version}/files/{path}`. JSON: the same under `/api/`, plus
`/api/openapi.json`. Every failure is `{"error": message, "status": code}`. An answer drawn
from the catalog is named by its route, parameters and the store's generation: its ETag
revalidates without building it, and a repeat comes from the response cache.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from errdex.lazy_names import lazy_names

if TYPE_CHECKING:
    from errdex.web.app import create_app, serve

__all__ = ["create_app", "serve"]

# The app is imported on first use, not with the package: a server's worker imports
# `errdex.web.log_format` to set its logging up before it can answer the supervisor's
# health check, and the app's import there (0.7 s of CPU) got loaded workers killed.
__getattr__ = lazy_names(globals(), {"create_app": "errdex.web.app", "serve": "errdex.web.app"})
