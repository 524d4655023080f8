"""The pass-through and twin rules on the releases they were found on: click's
`CliRunner.invoke` and httpx's `ASGITransport` re-raise what the user's command or app
raised, rich's `Live.start` what the user's renderable raised (three methods down), and
rich's `Color.downgrade` offers no `system` that meets the same assert in another branch."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from errdex.explain import build_page
from errdex.explain.page import Page
from errdex.store.base import Store
from samples import indexed_releases

pytestmark = pytest.mark.network

PACKAGES = ("click==8.1.7", "httpx==0.27.0", "rich==13.7.1")


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    with indexed_releases(tmp_path_factory.mktemp("real"), PACKAGES) as opened:
        yield opened


def page_at(store: Store, project: str, file: str, line: int) -> Page:
    (site,) = [s for s in store.list_sites(project) if s.file == file and s.site.line == line]
    return build_page(store, site.id, use_model=False)


@pytest.mark.parametrize(
    ("project", "file", "line", "supplied", "switch"),
    [
        (
            "click",
            "click/testing.py",
            428,
            "the `cli` you gave `CliRunner.invoke`",
            "catch_exceptions",
        ),
        (
            "httpx",
            "httpx/_transports/asgi.py",
            167,
            "the `app` you gave `ASGITransport`",
            "raise_app_exceptions",
        ),
        (
            "rich",
            "rich/live.py",
            129,
            "the `get_renderable` or `renderable` you gave `Live`",
            "refresh",
        ),
    ],
)
def test_the_users_own_failure_passes_through(
    store: Store, project: str, file: str, line: int, supplied: str, switch: str
) -> None:
    page = page_at(store, project, file, line)
    assert [s.text.split(" (the `try`")[0] for s in page.solutions] == [
        f"Fix the failure in {supplied}"
    ]
    assert page.example_fix is None
    assert f"`{switch}`" in page.what_it_means  # context: how it is reported, not a fix
    assert "does not fix it" in page.what_it_means


def test_no_system_that_meets_the_twin_assert(store: Store) -> None:
    for line in (520, 546, 549, 557, 560):
        page = page_at(store, "rich", "rich/color.py", line)
        assert not any("`system`" in s.text for s in page.solutions), line
        assert "is no way out: another value can take the branch" in page.what_it_means
