"""The page shows the message as the user sees it, besides the template at the raise."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from errdex.explain import build_page
from errdex.indexing import index_source
from errdex.indexing.cache import FactsCache
from errdex.render.page_terminal import page_view
from errdex.sources import open_source
from errdex.store import Store, open_store
from samples import write_package

PACKAGE = {
    "api/__init__.py": "",
    "api/errors.py": """
        class APIError(Exception):
            status = 500
            title = "Internal Server Error"

            def __init__(self, detail="Something went wrong."):
                super().__init__(detail)
                self.detail = detail

            def __str__(self):
                return f"{self.status} {self.title}: {self.detail}"

        class Conflict(APIError):
            status = 409
            title = "Conflict"
        """,
    "api/views.py": """
        from api.errors import Conflict

        def create(name, existing):
            if name in existing:
                raise Conflict(f"{name!r} exists already")
        """,
}


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    root = write_package(tmp_path_factory.mktemp("api"), PACKAGE)
    with open_store(root / "errdex.db") as opened:
        cache = FactsCache(root / "facts.sqlite3")
        index_source(open_source(str(root), project="api", version="1.0"), opened, cache=cache)
        yield opened


def test_the_page_shows_the_text_and_the_traceback_line(store: Store) -> None:
    [site] = [s for s in store.list_sites("api") if s.file == "api/views.py"]
    page = build_page(store, site.id)
    assert page.message == "{name!r} exists already"
    [shown] = page.shown
    assert shown.text == "409 Conflict: {name!r} exists already"
    assert shown.line == "Conflict: 409 Conflict: {name!r} exists already"
    assert shown.how == "str(exc)"
    from rich.console import Console

    console = Console(width=120, record=True)
    console.print(page_view(page))
    assert "Conflict: 409 Conflict: {name!r} exists already" in console.export_text()
