"""The site in a real headless Chromium, driven by Playwright, against `errdex serve`.

A real traceback of a real package (the installed `packaging`) is pasted into the box; the
browser lands on its page, follows a related error and opens its JSON. The evil package's
HTML must stay text with the page's script ban lifted (`bypass_csp`): escaping alone keeps
it inert.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from test_serve import serving
from web_samples import EVIL_NAME, EVIL_PROJECT, Catalog, build_catalog, real_traceback

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium"
    ),
]

sync_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    return build_catalog(tmp_path_factory.mktemp("browser"), packaging=True)


@pytest.fixture(scope="module")
def server(catalog: Catalog) -> Iterator[str]:
    with serving(catalog) as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[sync_api.Browser]:
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: sync_api.Browser) -> Iterator[sync_api.Page]:
    # Scripts the site's policy forbids are allowed here: only escaping may keep them out.
    context = browser.new_context(bypass_csp=True)
    opened = context.new_page()
    dialogs: list[str] = []
    opened.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    yield opened
    context.close()
    assert dialogs == []


def paste(page: sync_api.Page, base: str, text: str) -> None:
    page.goto(base + "/")
    page.fill("textarea#q", text)
    page.click("form.paste button[type=submit]")
    page.wait_for_url(re.compile(r"/search\?q="))


def crumbs(page: sync_api.Page) -> str:
    return " ".join(page.locator("article.error-page p.crumbs").first.inner_text().split())


def assert_inert(page: sync_api.Page) -> None:
    assert page.evaluate("typeof window.pwned") == "undefined"
    assert page.evaluate("document.querySelectorAll('script, img, iframe').length") == 0
    assert page.evaluate("document.querySelectorAll('[onclick], [onerror]').length") == 0


def test_paste_a_real_traceback_follow_a_related_error_open_its_json(
    page: sync_api.Page, server: str
) -> None:
    traceback = real_traceback("from packaging.version import Version; Version('not a version')")
    raised_at = re.findall(r'packaging/version\.py", line (\d+)', traceback)[-1]
    paste(page, server, traceback)

    # The best match is opened below the ranked list, with the value the message held.
    assert crumbs(page) == "packaging · error · InvalidVersion"
    best = page.locator("ol.matches li.best")
    assert best.locator(".ph .val").first.inner_text() == "not a version"
    best.locator("a.match-head").click()
    page.wait_for_url(re.compile(r"/errors/[0-9a-f]{16}"))
    first_id = page.url.split("/errors/")[1][:16]
    assert crumbs(page) == "packaging · error · InvalidVersion"
    assert page.locator("pre.message").inner_text() == "Invalid version: {version!r}"
    source = page.locator("section.source").inner_text()
    assert f"packaging/version.py:{raised_at}" in source
    marked = page.locator("section.source .hll").inner_text()
    assert raised_at in marked and "raise InvalidVersion" in marked

    related = page.locator("a.related-link").first
    related.click()
    page.wait_for_url(re.compile(r"/errors/[0-9a-f]{16}"))
    second_id = page.url.split("/errors/")[1][:16]
    assert second_id != first_id
    assert crumbs(page).startswith("packaging · ")

    page.locator("a.json-link").click()
    page.wait_for_url(re.compile(rf"/api/errors/{second_id}"))
    record = json.loads(page.locator("body").inner_text())
    assert (record["id"], record["project"]) == (second_id, "packaging")
    assert record["analysis"]["footer"].startswith("Static analysis of packaging at ")


def test_html_in_messages_stays_text(page: sync_api.Page, server: str, catalog: Catalog) -> None:
    traceback = real_traceback(
        f"from evil.core import render; render({EVIL_NAME!r})", catalog.root / "evil"
    )
    paste(page, server, traceback)
    assert_inert(page)
    assert page.locator("ol.matches li.best .ph .val").first.inner_text() == EVIL_NAME
    message = page.locator("article.error-page pre.message").inner_text()
    assert message == 'bad name <b>{name}</b> & "quotes" <img src=x onerror="window.pwned=2">'
    assert page.get_by_text(EVIL_PROJECT).first.is_visible()

    project = quote(EVIL_PROJECT, safe="")
    for path in (
        f"/projects/{project}",
        f"/projects/{project}/6.6.6/files/evil/core.py",
    ):
        page.goto(server + path)
        assert_inert(page)
    assert "</pre><script>window.pwned=3</script>" in page.locator(".code").inner_text()
    errors = page.locator("table.sites a[href^='/errors/']")
    hrefs = [str(a.get_attribute("href")) for a in errors.all()]
    assert len(hrefs) == 4
    for href in hrefs:
        page.goto(server + href)
        assert_inert(page)
        assert page.locator("article.error-page").is_visible()


def test_an_error_page_fits_a_phone(browser: sync_api.Browser, server: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    traceback = real_traceback("from packaging.version import Version; Version('x y')")
    paste(page, server, traceback)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    assert page.locator("article.error-page h1").is_visible()
    context.close()


def test_an_example_fix_is_drawn_as_the_user_writes_the_call(
    page: sync_api.Page, server: str
) -> None:
    paste(page, server, "ValueError: at most 100 of apple per order")
    page.locator("ol.matches li.best a.match-head").click()
    page.wait_for_url(re.compile(r"/errors/[0-9a-f]{16}"))
    fix = page.locator("article.error-page pre.fix").first.inner_text()
    assert fix.splitlines() == [
        "# before",
        "from shop.cart import add",
        "add(cart=CART, item=ITEM, stock=STOCK, count=COUNT)",
        "# after",
        "from shop.cart import add",
        "add(cart=CART, item=ITEM, stock=STOCK, count=100)",
    ]
    assert "`COUNT`" not in page.locator("article.error-page p.note").first.inner_text()
