"""What a page says of its check, true at the site: a container filled after it was bound
is not shown as its first value, a `try` is not narrowed to the calls named, and a warning
is not called harmless."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_in_function, page_with_message

from errdex.explain.page import Page
from errdex.store import Store

FILES = {
    "said/__init__.py": "",
    "said/kernels.py": """
        import logging
        import os

        logger = logging.getLogger(__name__)


        def installed_version(name):
            return os.environ.get(name.upper())


        def warn_if_missing(cubin=False):
            wanted = installed_version("kernels")
            packages = []
            if not cubin:
                packages.append("kernels-cubin")
            installed = {name: installed_version(name) for name in packages}
            if wanted is None or all(v == wanted for v in installed.values()):
                return
            logger.warning("Precompiled kernels are missing; run the download command.")


        class Pool:
            def __init__(self):
                self._size = 0
                self._limit = 4

            def grow(self):
                self._size += 1
                if self._size > self._limit:
                    logger.warning("The pool grew past its limit; the connection is not kept.")


        def warn_if_empty(names):
            found = []
            if not found and names:
                logger.warning("No kernels found among the names given.")
        """,
    "said/client.py": """
        class Client:
            def __init__(self, hooks):
                self.hooks = hooks

            def send(self, request):
                response = self._send_single(request)
                try:
                    for hook in self.hooks:
                        hook(response)
                    response.history = list(request.history)
                    request = self.build_redirect(request, response)
                    response.read()
                except BaseException as exc:
                    response.close()
                    raise exc
                return request

            def build_redirect(self, request, response):
                return request

            def _send_single(self, request):
                return request.response

            def load(self, text):
                import json

                try:
                    return json.loads(text.strip())
                except ValueError as exc:
                    raise ValueError(f"Not a JSON document: {exc}") from exc
        """,
}


@pytest.fixture(scope="module")
def said(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("said"), "said", FILES)


def test_a_list_filled_after_it_was_bound_is_not_shown_as_its_first_value(said: Store) -> None:
    # vllm 0.33.0 utils/flashinfer.py:133-137: `packages = []`, then `packages.append(...)`
    page: Page = page_with_message(said, "said", "Precompiled kernels are missing")
    assert "`packages` is `[]`" not in page.what_it_means, page.what_it_means
    # a list the function never fills is what it was bound to
    page = page_with_message(said, "said", "No kernels found among")
    assert "`found` is `[]`" in page.what_it_means, page.what_it_means


def test_a_try_is_not_narrowed_to_the_calls_a_page_names(said: Store) -> None:
    # httpx 0.27.0 _client.py:980-999: hooks, the history, the redirect and `read()`
    page: Page = page_with_message(said, "said", "Not a JSON document")
    assert "another call in it" not in page.what_it_means, page.what_it_means
    sent = page_in_function(said, "said", "Client.send")
    assert "or another call in it (the `try` at line" in sent.what_it_means, sent.what_it_means


def test_a_warning_with_no_way_out_is_not_called_harmless(said: Store) -> None:
    page: Page = page_with_message(said, "said", "The pool grew past its limit")
    assert "no error by itself" not in page.what_it_means, page.what_it_means
    assert "The message says what the program met." in page.what_it_means, page.what_it_means
