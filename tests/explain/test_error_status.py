"""A raise because a server answered with an error status: the page says the request is what
to check (the status is the server's answer, no setting), and, for a method raising on the
response the user holds, that its status can be tested first; a test of another number or of
a status that is no HTTP code says nothing of the kind."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

WEB = {
    "web/__init__.py": "from web.models import Response\n",
    "web/models.py": """
        class HTTPStatusError(Exception):
            pass


        class Response:
            def __init__(self, status_code, location=None):
                self.status_code = status_code
                self.location = location

            @property
            def is_success(self):
                return 200 <= self.status_code < 300

            @property
            def has_redirect_location(self):
                return self.location is not None

            def raise_for_status(self):
                if not self.is_success:
                    if self.has_redirect_location:
                        raise HTTPStatusError(f"redirect {self.status_code} to {self.location}")
                    raise HTTPStatusError(f"error status {self.status_code}")
                return self
        """,
    "web/upload.py": """
        def upload(session, url, data):
            response = session.put(url, data=data)
            if not 200 <= response.status < 300:
                raise RuntimeError(f"upload failed with {response.status}")
            if response.length > 1000:
                raise RuntimeError(f"the reply is too long: {response.length}")
            if response.status == "queued":
                raise RuntimeError("the upload is queued")
            return response


        def fetch(client, url):
            reply = client.get(url)
            if reply.status_code < 200 or reply.status_code >= 300:
                raise RuntimeError("the fetch failed")
            return reply


        def checked(client, url):
            response = client.get(url)
            if response.ok is False:
                raise RuntimeError("the check failed")
            return response


        def exited(connection, job):
            response = connection.send(job)
            if not 0 <= response.status_code <= 255:
                raise RuntimeError("the job has no exit status")
            return response
        """,
    "web/jobs.py": """
        class Job:
            def __init__(self, ok):
                self.ok = ok

            def wait(self):
                if not self.ok:
                    raise RuntimeError("the job failed")


        def build(builder):
            result = builder.run()
            if not result.is_success:
                raise RuntimeError("the build failed")


        def collect(cache, key):
            result = cache.get(key)
            if not result.ok:
                raise RuntimeError("the cached job failed")
        """,
}


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("web"), "web", WEB)


def test_an_error_status_says_the_request_is_what_to_check(web: Store) -> None:
    page = page_with_message(web, "web", "error status")
    first = page.solutions[0].text
    assert first.startswith("Check the request the response answers: the server sent"), first
    assert "other than success, which the message shows. A 4xx status is a fault" in first
    assert "test `response.is_success` before calling `raise_for_status`" in first
    page = page_with_message(web, "web", "redirect")
    assert any("A 3xx status with a location is a redirect" in s.text for s in page.solutions)


def test_a_status_compared_with_http_codes_is_an_error_status(web: Store) -> None:
    page = page_with_message(web, "web", "upload failed")
    texts = [s.text for s in page.solutions]
    assert any(t.startswith("Check the request `response` answers") for t in texts), texts
    assert not any("before calling" in t for t in texts)  # not a method on the response
    # held after that check: a success; and another number, a status that is a word
    for message in ("the reply is too long", "the upload is queued"):
        page = page_with_message(web, "web", message)
        assert not any("Check the request" in s.text for s in page.solutions), message


def test_a_status_read_twice_in_an_or_is_one_status_the_message_does_not_show(
    web: Store,
) -> None:
    page = page_with_message(web, "web", "the fetch failed")
    first = page.solutions[0].text
    assert first.startswith("Check the request `reply` answers: the server sent a status"), first
    assert "a status other than success. A 4xx" in first  # no status in the message


def test_a_job_or_a_result_that_is_no_response_gets_no_status_to_check(web: Store) -> None:
    # `cache.get(key)` looks a value up: no request sent, whatever its `.ok` tells
    for message in ("the job failed", "the build failed", "the cached job failed"):
        page = page_with_message(web, "web", message)
        assert not any("Check the request" in s.text for s in page.solutions), message


def test_an_identity_test_of_the_status_is_read(web: Store) -> None:
    # `response.ok is False`: `is` of `True`, `False` or `None` is fixed by the language
    page = page_with_message(web, "web", "the check failed")
    first = page.solutions[0].text
    assert first.startswith("Check the request `response` answers: the server sent"), first


def test_a_status_compared_with_codes_no_http_status_has_gets_no_http_words(
    web: Store,
) -> None:
    # `not 0 <= status_code <= 255`: an exit status out of a byte, no 4xx or 5xx answer
    page = page_with_message(web, "web", "the job has no exit status")
    assert not any("A 4xx status" in s.text for s in page.solutions)
