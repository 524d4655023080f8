"""Revalidation from the store's generation and the response cache, through the real app on
a real catalog (SQLite; PostgreSQL too where a test says so).

Builders are counted by wrapping the functions the views build answers with (`Builds`):
each call goes on to the real function, so the counts say what was built.
"""

from __future__ import annotations

import gzip
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient
from test_api import error_id
from web_samples import SHOP_VERSIONS, Catalog, build_catalog, index_package

import errdex
from errdex.cli import main
from errdex.errors import InputError, NotFoundError
from errdex.store import open_store
from errdex.web import create_app
from errdex.web.cache import ENV_CACHE_MB, MB, CachedBody, ResponseCache, cache_limit
from samples import rejected_analysis

PASTE = "ValueError: count must be positive, got -3"

# Every kind of address drawn from the catalog alone, with the builders it calls.
ADDRESSES: dict[str, set[str]] = {
    "/": {"list_projects"},
    "/api/projects": {"list_projects"},
    "/projects/shop": {"show_project"},
    "/api/projects/shop?version=1.0": {"show_project"},
    "/projects/shop/1.1/files/shop/cart.py": {"show_file", "read_file"},
    "/api/projects/shop/1.1/files/shop/cart.py": {"show_file"},
    f"/search?q={PASTE}": {"search", "newest_version"},
    f"/api/search?q={PASTE}": {"search"},
    "/errors/{id}": {"show", "newest_version"},
    "/api/errors/{id}?version=1.0": {"show"},
}


class Builds:
    """Counts the calls of the library functions the views build answers with."""

    NAMES = (
        "list_projects",
        "newest_version",
        "read_file",
        "search",
        "show",
        "show_file",
        "show_project",
    )

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls: Counter[str] = Counter()
        for name in self.NAMES:
            monkeypatch.setattr(errdex, name, self._counted(name, getattr(errdex, name)))

    def _counted(self, name: str, real: Callable[..., Any]) -> Callable[..., Any]:
        def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls[name] += 1
            return real(*args, **kwargs)

        return counted

    def taken(self) -> Counter[str]:
        """The calls since the last `taken`."""
        found, self.calls = self.calls, Counter()
        return found


def addresses(catalog: Catalog) -> dict[str, set[str]]:
    wanted = error_id(catalog, "count must be positive")
    return {path.replace("{id}", wanted): names for path, names in ADDRESSES.items()}


@contextmanager
def client_on(db: str, **options: Any) -> Iterator[TestClient]:
    app = create_app(db, **options)
    try:
        with TestClient(app) as client:
            yield client
    finally:
        app.state.pool.close()


def tags(client: TestClient, paths: list[str]) -> dict[str, str]:
    found = {}
    for path in paths:
        response = client.get(path)
        assert response.status_code == 200, path
        found[path] = response.headers["etag"]
    return found


@pytest.fixture
def fresh(tmp_path: Path) -> Catalog:
    """A catalog of this test's own: tests here write to it."""
    return build_catalog(tmp_path)


@pytest.fixture(params=["sqlite", "postgres"])
def any_catalog(request: pytest.FixtureRequest, tmp_path: Path) -> Catalog:
    """A catalog of this test's own in a SQLite file, or in PostgreSQL."""
    db = request.getfixturevalue("pg_url") if request.param == "postgres" else None
    return build_catalog(tmp_path, db=db)


# Revalidation -----------------------------------------------------------------------------


@pytest.mark.parametrize("cache_mb", [0, 64])
def test_a_revalidation_builds_nothing(
    fresh: Catalog, monkeypatch: pytest.MonkeyPatch, cache_mb: int
) -> None:
    builds = Builds(monkeypatch)
    with client_on(fresh.db, cache_mb=cache_mb) as client:
        for path, builders in addresses(fresh).items():
            first = client.get(path)
            assert first.status_code == 200, path
            assert set(builds.taken()) == builders, path
            tag = first.headers["etag"]
            again = client.get(path, headers={"If-None-Match": tag})
            assert (again.status_code, again.content, again.headers["etag"]) == (304, b"", tag)
            assert builds.taken() == Counter(), path


def test_tags_change_exactly_when_the_catalog_is_written(
    any_catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    paths = list(addresses(any_catalog))
    builds = Builds(monkeypatch)
    # The indexer is another store on the database, as another process would be.
    with client_on(any_catalog.db) as client, open_store(any_catalog.db) as indexer:
        seen = [tags(client, paths)]
        indexer.list_sites("shop")
        indexer.search_candidates(["count", "positive"])
        assert tags(client, paths) == seen[0]  # reads change nothing
        builds.taken()

        def after_a_write() -> None:
            now = tags(client, paths)
            for earlier in seen:
                assert [p for p in paths if now[p] == earlier[p]] == []
            seen.append(now)
            assert tags(client, paths) == now  # and stays until the next write

        folder = any_catalog.root / "shop-1.2"
        index_package(indexer, folder, SHOP_VERSIONS["1.1"], "shop", "1.2")
        after_a_write()
        listed = {p["name"]: p for p in client.get("/api/projects").json()["projects"]}
        assert listed["shop"]["versions"] == ["1.2", "1.1", "1.0"]
        assert builds.taken()  # answered anew, not from the cache

        index_package(indexer, folder, SHOP_VERSIONS["1.1"], "shop", "1.2")  # up to date
        assert tags(client, paths) == seen[-1]

        indexer.put_analysis(rejected_analysis(error_id(any_catalog, "count must"), "r" * 40))
        after_a_write()
        indexer.delete_version("shop", "1.2")
        after_a_write()
        with pytest.raises(NotFoundError):
            indexer.delete_version("shop", "1.2")
        assert tags(client, paths) == seen[-1]


def test_tags_are_the_same_in_another_app_on_the_database(fresh: Catalog) -> None:
    """Nothing of the process is in a tag: another worker, or a restart, gives the same."""
    paths = list(addresses(fresh))
    with client_on(fresh.db) as one:
        first = tags(one, paths)
    with client_on(fresh.db, cache_mb=0) as other:
        assert tags(other, paths) == first


# The response cache ------------------------------------------------------------------------


@pytest.mark.parametrize(("cache_mb", "built_again"), [(64, False), (0, True)])
def test_a_repeat_is_served_from_the_cache(
    fresh: Catalog, monkeypatch: pytest.MonkeyPatch, cache_mb: int, built_again: bool
) -> None:
    builds = Builds(monkeypatch)
    with client_on(fresh.db, cache_mb=cache_mb) as client:
        for path in addresses(fresh):
            first = client.get(path)
            builds.taken()
            again = client.get(path)
            assert bool(builds.taken()) == built_again, path
            assert (again.status_code, again.content) == (200, first.content)
            assert dict(again.headers) == dict(first.headers), path  # gzip, ETag, CSP...


def test_a_kept_answer_is_gzipped_or_not_as_asked(fresh: Catalog) -> None:
    path = f"/errors/{error_id(fresh, 'count must be positive')}"
    with client_on(fresh.db) as client:
        plain = client.get(path, headers={"Accept-Encoding": "identity"})
        zipped = client.get(path, headers={"Accept-Encoding": "gzip"})  # from the cache
        again = client.get(path, headers={"Accept-Encoding": "identity"})
    assert zipped.headers["content-encoding"] == "gzip"
    assert "content-encoding" not in plain.headers and "content-encoding" not in again.headers
    assert plain.text == zipped.text == again.text
    assert "accept-encoding" in zipped.headers["vary"].lower()


def test_an_answer_is_gzipped_when_a_client_first_takes_gzip(fresh: Catalog) -> None:
    path = f"/errors/{error_id(fresh, 'count must be positive')}"
    with client_on(fresh.db) as client:
        kept: ResponseCache = client.app.state.responses  # type: ignore[attr-defined]
        client.get(path, headers={"Accept-Encoding": "identity"})  # built: not gzipped
        (entry,) = kept._entries.values()
        assert entry.gzipped is None and entry.packable
        unpacked = kept.size
        zipped = client.get(path, headers={"Accept-Encoding": "gzip"})
        (entry,) = kept._entries.values()
        assert entry.gzipped is not None and not entry.packable
        assert kept.size == unpacked + len(entry.gzipped)  # the old entry counted once
        assert zipped.headers["content-encoding"] == "gzip"
        assert gzip.decompress(entry.gzipped) == entry.body
        assert entry.packed() is entry


def test_a_posted_paste_shares_the_answer_of_its_get(
    fresh: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    builds = Builds(monkeypatch)
    with client_on(fresh.db) as client:
        posted = client.post("/api/search", content=PASTE.encode())
        assert builds.taken() == Counter(search=1)
        got = client.get("/api/search", params={"q": PASTE})
        assert (builds.taken(), got.json()) == (Counter(), posted.json())

        page = client.post("/search", data={"q": PASTE})
        assert builds.taken() == Counter(search=1, newest_version=1)
        assert "etag" not in page.headers  # a POST is not revalidated
        again = client.post("/search", data={"q": PASTE})
        assert (builds.taken(), again.text) == (Counter(), page.text)
        html = client.get("/search", params={"q": PASTE})
        assert (builds.taken(), html.text) == (Counter(), page.text)
        assert "etag" in html.headers


def test_failures_are_not_kept(fresh: Catalog, monkeypatch: pytest.MonkeyPatch) -> None:
    builds = Builds(monkeypatch)
    with client_on(fresh.db) as client:
        for _ in range(2):
            response = client.get("/api/errors/0123456789abcdef")
            assert response.status_code == 404
            assert builds.taken() == Counter(show=1)
        assert len(client.app.state.responses) == 0  # type: ignore[attr-defined]


def test_the_cache_keeps_to_its_bytes(fresh: Catalog, monkeypatch: pytest.MonkeyPatch) -> None:
    builds = Builds(monkeypatch)
    app = create_app(fresh.db)
    cache = app.state.responses = ResponseCache(200_000)  # a search page is about 9 kB
    try:
        with TestClient(app) as client:
            for n in range(40):
                assert client.get("/search", params={"q": f"{PASTE}{n}"}).status_code == 200
                assert cache.size <= cache.limit
            assert 10 < len(cache) < 40
            builds.taken()
            client.get("/search", params={"q": f"{PASTE}39"})
            assert builds.taken() == Counter()  # the newest is kept
            client.get("/search", params={"q": f"{PASTE}0"})
            assert builds.taken()["search"] == 1  # the oldest went first
    finally:
        app.state.pool.close()


def test_the_least_recently_used_goes_first() -> None:
    cache = ResponseCache(16_000)  # entries of up to 1,000 bytes
    body = CachedBody(b"x" * 500, "text/html")
    room = cache.limit // ResponseCache.cost("k00", body)
    for n in range(room):
        assert cache.put(f"k{n:02}", body)
    assert len(cache) == room
    assert cache.get("k00") == body  # used: now the newest
    cache.put("new", body)
    assert cache.get("k01") is None
    assert cache.get("k00") == body
    size = cache.size
    cache.put("k00", body)  # kept again by a second builder: counted once
    assert cache.size == size <= cache.limit
    assert not cache.put("big", CachedBody(b"x" * 1_000, "text/html"))  # over a 16th
    assert cache.get("big") is None
    off = ResponseCache(0)
    assert not off.put("k", CachedBody(b"", "text/html"))
    assert off.get("k") is None


def test_the_size_comes_from_the_option_or_the_environment(
    monkeypatch: pytest.MonkeyPatch, fresh: Catalog
) -> None:
    monkeypatch.delenv(ENV_CACHE_MB, raising=False)
    assert (cache_limit(), cache_limit(0), cache_limit(3)) == (64 * MB, 0, 3 * MB)
    monkeypatch.setenv(ENV_CACHE_MB, "8")
    assert (cache_limit(), cache_limit(2)) == (8 * MB, 2 * MB)
    with client_on(fresh.db) as client:
        assert client.app.state.responses.limit == 8 * MB  # type: ignore[attr-defined]
    for bad in ("-1", "lots", "1.5"):
        monkeypatch.setenv(ENV_CACHE_MB, bad)
        with pytest.raises(InputError, match=ENV_CACHE_MB):
            cache_limit()


def test_serve_refuses_a_bad_cache_size_in_one_line(fresh: Catalog) -> None:
    result = CliRunner(env={ENV_CACHE_MB: "lots"}).invoke(main, ["serve", "--db", fresh.db])
    assert result.exit_code == 2
    assert result.stderr.startswith("errdex: ") and ENV_CACHE_MB in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
