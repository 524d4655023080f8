"""A setting that only skips an `assert x is not None` is no way out when the function goes on
to use the None after the guarded block."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, offered, page_in_function

from errdex.store import Store

FILES = {
    "pkg/__init__.py": "",
    "pkg/lookup.py": (
        "import os\n"
        "\n"
        "def matched(request, client):\n"
        "    tokens = request.tokens\n"
        "    if os.environ.get('PKG_SKIP') == '1':\n"
        "        assert tokens is not None\n"
        "        tokens = tokens[:-1]\n"
        "    return client.lookup(tokens)\n"
        "\n"
        "def refetched(request, client):\n"
        "    tokens = request.tokens\n"
        "    if os.environ.get('PKG_SKIP') == '1':\n"
        "        assert tokens is not None\n"
        "        tokens = tokens[:-1]\n"
        "    tokens = client.fetch(request)\n"
        "    return client.lookup(tokens)\n"
        "\n"
        "def trimmed(request):\n"
        "    tokens = request.tokens\n"
        "    if os.environ.get('PKG_SKIP') == '1':\n"
        "        assert tokens is not None\n"
        "        return tokens[:-1]\n"
        "    return []\n"
    ),
}


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("none"), "pkg", FILES)


def test_turning_the_guard_off_is_no_way_out_when_the_none_is_used_on(store: Store) -> None:
    texts = offered(page_in_function(store, "pkg", "matched"))
    assert not any("PKG_SKIP" in t for t in texts), texts


def test_turning_the_guard_off_stays_when_nothing_reads_the_none_after(store: Store) -> None:
    texts = offered(page_in_function(store, "pkg", "trimmed"))
    assert any("PKG_SKIP" in t for t in texts), texts


def test_what_it_means_says_why_the_setting_is_no_way_out(store: Store) -> None:
    page = page_in_function(store, "pkg", "matched")
    assert "is no way out: it only skips this check, and the function goes on to use `tokens`" in (
        page.what_it_means
    )
    assert "at line 8" in page.what_it_means
    assert "errdex found no setting" not in page.what_it_means


def test_turning_the_guard_off_stays_when_the_name_is_bound_anew_after(store: Store) -> None:
    texts = offered(page_in_function(store, "pkg", "refetched"))
    assert any("PKG_SKIP" in t for t in texts), texts
