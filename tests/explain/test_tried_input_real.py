"""The except rules on the releases they were found on: click's `style` and httpx's
`BrotliDecoder.decode` no longer offer to leave out the value their `try` converts (an empty
colour, an empty body), and httpx's `encode_host` keeps "ASCII text" for an IDNA host, a test
of what the value is."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from errdex.explain import build_page
from errdex.explain.page import Page
from errdex.store.base import Store
from samples import indexed_releases

pytestmark = pytest.mark.network

PACKAGES = ("click==8.1.7", "httpx==0.27.0")


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    opened = indexed_releases(tmp_path_factory.mktemp("real"), PACKAGES)
    yield opened
    opened.close()


def page_at(store: Store, project: str, file: str, line: int) -> Page:
    (site,) = [s for s in store.list_sites(project) if s.file == file and s.site.line == line]
    return build_page(store, site.id, use_model=False)


@pytest.mark.parametrize(
    ("project", "file", "line", "value"),
    [
        ("click", "click/termui.py", 561, "fg"),
        ("httpx", "httpx/_decoders.py", 124, "data"),
    ],
)
def test_leaving_out_what_the_try_converts_is_no_way_out(
    store: Store, project: str, file: str, line: int, value: str
) -> None:
    page = page_at(store, project, file, line)
    assert not any(
        f"empty (false) value for the argument `{value}`" in s.text for s in page.solutions
    )
    assert "worth reporting" not in page.what_it_means


def test_a_test_of_what_the_value_is_stays_a_way_out(store: Store) -> None:
    # (said of the `host` part of the URL the user gives `httpx.URL`, which hands it down)
    page = page_at(store, "httpx", "httpx/_urlparse.py", 329)
    assert page.solutions[0].text == (
        "Pass the `host` part of the argument `url` of `httpx.URL` (or the keyword `host` given "
        "in its place; it reaches `encode_host` as `host`) as ASCII text."
    )


def test_an_unknown_colour_names_the_value_given(store: Store) -> None:
    # `_interpret_color(fg)` under `except KeyError`: the colour given is what failed
    page = page_at(store, "click", "click/termui.py", 561)
    assert page.solutions[0].text.startswith(
        "Give `style` another `fg`: the value given makes `_interpret_color(fg)` fail"
    )
