"""The HTML pages through the ASGI test client: what each shows, and that all of it is text."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from urllib.parse import quote

import pytest
from starlette.testclient import TestClient
from test_api import error_id
from web_samples import EVIL_NAME, EVIL_PROJECT, EVIL_SCRIPT, Catalog

from errdex.web.links import Links, safe_href
from errdex.web.present import template_segments


def test_home_has_the_paste_box_and_the_projects(client: TestClient) -> None:
    html = client.get("/").text
    assert re.search(r'<form class="paste" action="/search" method="get">', html)
    assert re.search(r'<textarea id="q" name="q"', html)
    assert '<a href="/projects/shop">shop</a>' in html


def test_search_lists_matches_with_values_and_opens_the_best(client: TestClient) -> None:
    response = client.get("/search", params={"q": "ValueError: count must be positive, got -3"})
    html = response.text
    assert response.status_code == 200
    assert '<span class="ph" title="{count}"><span class="val">-3</span></span>' in html
    assert html.count('<article class="error-page"') == 1  # the best one, opened
    assert "What it means" in html and "Source" in html


def test_search_without_text_goes_home(client: TestClient) -> None:
    response = client.get("/search", follow_redirects=False)
    assert (response.status_code, response.headers["location"]) == (303, "/")


def test_error_page_has_the_seed_sections(client: TestClient, catalog: Catalog) -> None:
    wanted = error_id(catalog, "count must be positive")
    html = client.get(f"/errors/{wanted}").text
    header = re.search(r'<p class="crumbs">(.*?)</p>', html, re.S)
    assert header is not None
    assert re.sub(r"<[^>]+>|\s+", " ", header.group(1)).split() == [
        "shop",
        "·",
        "error",
        "·",
        "ValueError",
    ]
    for section in (
        "Error message",
        "What it means",
        "Source",
        "When it happens",
        "Related errors",
        "Versions",
    ):
        assert f"<h2>{section}</h2>" in html
    assert '<span class="hll">' in html  # the raising line is marked
    assert 'id="L-9"' in html  # lines keep their numbers
    assert f'href="/api/errors/{wanted}"' in html  # the footer links the JSON
    assert "Static analysis of shop at " in html
    assert 'class="related-link" href="/errors/' in html


def test_an_old_version_says_where_the_newest_is(client: TestClient, catalog: Catalog) -> None:
    wanted = error_id(catalog, "count must be positive")
    html = client.get(f"/errors/{wanted}", params={"version": "1.0"}).text
    banner = re.search(r'<p class="banner old">(.*?)</p>', html, re.S)
    assert banner is not None
    assert "The error appears in 1.1, 1.0; the newest is" in " ".join(banner.group(1).split())
    assert f'<a href="/errors/{wanted}">shop 1.1</a>' in banner.group(1)
    assert 'id="L-7"' in html  # 1.0's line


def test_a_reworded_error_links_its_new_wording(client: TestClient, catalog: Catalog) -> None:
    old = error_id(catalog, "at most 100", version="1.0")
    new = error_id(catalog, "orders hold at most 200", version="1.1")
    html = client.get(f"/errors/{old}").text
    banner = re.search(r'<p class="banner old">(.*?)</p>', html, re.S)
    assert banner is not None
    assert "In shop 1.1 the error is reworded:" in banner.group(1)
    assert f'href="/errors/{new}?version=1.1"' in banner.group(1)


def test_a_removed_error_says_where_it_went(client: TestClient, catalog: Catalog) -> None:
    gone = error_id(catalog, "the cart is already empty", version="1.0")
    html = client.get(f"/errors/{gone}").text
    assert "The error is gone from shop 1.1; it appears in 1.0." in " ".join(html.split())
    assert f'href="/errors/{gone}?version=1.1"' not in html  # no page where it is not


def test_project_and_file_pages(client: TestClient) -> None:
    html = client.get("/projects/shop").text
    assert "<h2>By exception class</h2>" in html
    assert '<a href="/projects/shop/1.1/files/shop/cart.py">shop/cart.py</a>' in html
    page = client.get("/projects/shop/1.1/files/shop/cart.py").text
    assert page.count('<span class="hll">') == 4
    assert 'href="#L-13"' in page


@pytest.mark.parametrize("status_path", ["/errors/0123456789abcdef", "/projects/nope", "/nope"])
def test_html_failures_draw_the_same_shape(client: TestClient, status_path: str) -> None:
    response = client.get(status_path)
    assert response.status_code == 404
    assert response.headers["content-type"].startswith("text/html")
    assert "<h1>404</h1>" in response.text


# Escaping ---------------------------------------------------------------------------------


class Elements(HTMLParser):
    """The tags and attributes a browser would build from a page."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: set[str] = set()
        self.attributes: set[str] = set()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        self.attributes.update(name for name, _ in attrs)
        self.hrefs.extend(value or "" for name, value in attrs if name in ("href", "src"))


def elements(html: str) -> Elements:
    parser = Elements()
    parser.feed(html)
    parser.close()
    return parser


def evil_pages(client: TestClient, catalog: Catalog) -> dict[str, str]:
    """Every page that shows something of the evil package."""
    project = quote(EVIL_PROJECT, safe="")
    pages = {
        "home": "/",
        "project": f"/projects/{project}",
        "file": f"/projects/{project}/6.6.6/files/evil/core.py",
        "search": "/search?q=" + quote(f'ValueError: bad name <b>{EVIL_NAME}</b> & "quotes"'),
        "search-nearest": "/search?q=" + quote("<script>nothing</script> at all here"),
        "missing": "/errors/" + quote("<img src=x onerror=alert(1)>", safe=""),
    }
    for start in ("<script>", "bad name", "</pre>", "<iframe"):
        pages[start] = f"/errors/{error_id(catalog, start, version='6.6.6')}"
    return {name: client.get(path).text for name, path in pages.items()}


def test_no_markup_from_the_indexed_code_reaches_a_page(
    client: TestClient, catalog: Catalog
) -> None:
    for name, html in evil_pages(client, catalog).items():
        found = elements(html)
        assert not found.tags & {"script", "img", "iframe", "b", "i"}, name
        assert not {a for a in found.attributes if a.startswith("on")}, name
        assert not [h for h in found.hrefs if h.lower().startswith(("javascript:", "data:"))]
        assert "&lt;" in html.split("<body>", 1)[1], name


def test_html_in_messages_is_shown_as_text(client: TestClient, catalog: Catalog) -> None:
    pages = evil_pages(client, catalog)
    assert "&lt;script&gt;window.pwned = 1&lt;/script&gt; name is empty" in pages["<script>"]
    assert "&lt;b&gt;{name}&lt;/b&gt; &amp; &#34;quotes&#34;" in pages["bad name"]
    # the value the paste held for {name}, in the search results
    assert '<span class="val">&lt;script&gt;window.pwned=5&lt;/script&gt;</span>' in pages["search"]
    # a comment in the source, through Pygments
    assert "&lt;/code&gt;&lt;/pre&gt;&lt;script&gt;" in pages["bad name"]
    assert EVIL_SCRIPT not in "".join(pages.values())


def test_only_http_links_leave_the_site() -> None:
    assert safe_href("https://example.org/x") == "https://example.org/x"
    for bad in ("javascript:alert(1)", " JavaScript:alert(1)", "data:text/html,x", "//x", None):
        assert safe_href(bad) is None


def test_links_quote_what_they_carry() -> None:
    links = Links("/root")
    assert links.project('a<b>"c') == "/root/projects/a%3Cb%3E%22c"
    assert (
        links.error("0123456789abcdef", "1.0 rc") == "/root/errors/0123456789abcdef?version=1.0+rc"
    )
    assert (
        links.file("p", "main/x", "a b/c.py", 3) == "/root/projects/p/main%2Fx/files/a%20b/c.py#L-3"
    )


def test_template_segments_mark_each_placeholder_with_its_value() -> None:
    segments = template_segments("got {count!r:>4} of {{literal}} {a[{b}]}", {"count": "3"})
    assert [(s.text, s.placeholder, s.value) for s in segments] == [
        ("got ", False, None),
        ("{count!r:>4}", True, "3"),
        (" of {literal} ", False, None),
        ("{a[{b}]}", True, None),
    ]
