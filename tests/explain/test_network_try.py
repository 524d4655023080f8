"""A site under `except` whose `try` sends a request to a URL: the page says the request
failed and offers the machine's reach to that host; not when the clause tells one failure
from another, nor when it catches what no failed request raises."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

NET = {
    "net/__init__.py": "",
    "net/fetch.py": """
        import requests

        def fetch(url):
            try:
                response = requests.get(url, timeout=5)
                response.raise_for_status()
            except requests.RequestException as e:
                raise RuntimeError(f"could not download the asset: {e}") from e
            return response.content


        def fetch_logo(host):
            try:
                return requests.get(f"https://{host}/logo.png", timeout=5).content
            except Exception as e:
                raise RuntimeError(f"could not download the logo: {e}") from e


        def fetch_sorted(url):
            try:
                return requests.get(url, timeout=5).content
            except Exception as e:
                if is_client_error(e):
                    raise ValueError(f"the server refused the URL {url}") from e
                raise


        def fetch_json(url):
            try:
                return requests.get(url, timeout=5).json()
            except ValueError as e:
                raise RuntimeError(f"the answer was no JSON: {e}") from e


        def is_client_error(error):
            return getattr(error, "status", 500) < 500
        """,
}


@pytest.fixture(scope="module")
def net(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("net"), "net", NET)


def test_a_failed_request_says_so_and_offers_the_reach_to_its_host(net: Store) -> None:
    page = page_with_message(net, "net", "could not download the asset")
    assert "the `try` sends a request (`requests.get(url, timeout=5)`) to the URL in `url`" in (
        page.what_it_means
    )
    first = page.solutions[0]
    assert first.kind == "environment"
    assert first.text.startswith("Make sure this machine can reach the host of the URL in `url`")


def test_a_url_written_out_is_named(net: Store) -> None:
    page = page_with_message(net, "net", "could not download the logo")
    assert page.solutions[0].text.startswith(
        "Make sure this machine can reach the host of the URL `https://HOST/logo.png`"
    )


def test_a_clause_that_sorts_failures_is_no_failed_request(net: Store) -> None:
    # the site is raised for the server's refusal alone: reaching the host is no way out
    page = page_with_message(net, "net", "the server refused the URL")
    assert not any("reach the host" in s.text for s in page.solutions)


def test_a_clause_for_another_failure_is_no_failed_request(net: Store) -> None:
    page = page_with_message(net, "net", "the answer was no JSON")
    assert "sends a request" not in page.what_it_means
    assert not any("reach the host" in s.text for s in page.solutions)
