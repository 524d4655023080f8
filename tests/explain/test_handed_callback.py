"""A check on what the user's callable did with a function a method hands it: after the
call, a local only that function sets (the callable never made the call that sets it);
inside it, what the callable passed. The way out is in the user's callable, said with the
line that sets the local and the tests it sits under; "What it means" says the check is of
the user's code, never the program's own state worth reporting. Nothing is said for a
callable the constructor wraps, a local the method sets again itself, a function handed to
something else than the kept callable, or a local the handed function does not set."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.explain import build_page
from errdex.facts import SiteKind
from errdex.store import Store

CB = {
    "cb/__init__.py": "from cb.transports import AsyncTransport, Transport, Wrapped\n",
    "cb/transports.py": """
        def create_event():
            return object()


        def wrap(app):
            return app


        def run(app, callback):
            return app(callback)


        class Transport:
            def __init__(self, app, raise_app_exceptions=True):
                self.app = app
                self.raise_app_exceptions = raise_app_exceptions

            def handle(self, request):
                seen_status = None
                seen_headers = None
                other = None

                def start_response(status, headers):
                    nonlocal seen_status, seen_headers
                    seen_status = status
                    seen_headers = headers

                result = self.app(request, start_response)
                assert seen_status is not None, "app never started the response"
                assert other is not None, "no other value"
                seen_headers = seen_headers or []
                assert seen_headers is not None, "headers never sent"
                return result

            def handle_pair(self, request):
                code = None
                pairs = None
                done = False

                def begin(status, headers):
                    nonlocal code, pairs, done
                    code = status
                    pairs = headers.get("pairs")
                    done = True

                self.app(request, begin)
                assert code is not None, "pair never begun"
                assert pairs is not None, "pair headers missing"
                assert done, "pair never done"

            def handle_loose(self, request):
                mark = 0
                items = None

                def fill(status, headers):
                    nonlocal mark, items
                    mark = status
                    items = headers.get("items")

                self.app(request, fill)
                assert mark != 5, "mark is five"
                assert items is not None, "items never filled"

            def handle_elsewhere(self, request):
                seen = None

                def start_response(status):
                    nonlocal seen
                    seen = status

                run(self.app, start_response)
                assert seen is not None, "run never started it"


        class Wrapped:
            def __init__(self, app):
                self.app = wrap(app)

            def handle(self, request):
                seen = None

                def start_response(status):
                    nonlocal seen
                    seen = status

                self.app(request, start_response)
                assert seen is not None, "wrapped app never started it"


        class AsyncTransport:
            def __init__(self, app, raise_app_exceptions=True):
                self.app = app
                self.raise_app_exceptions = raise_app_exceptions

            async def handle(self, request):
                status = None
                started = False
                done = create_event()

                async def send(message):
                    nonlocal status, started
                    if message["type"] == "start":
                        assert not started, "started twice"
                        status = message["status"]
                        started = True
                    elif message["type"] == "body":
                        more = message.get("more", False)
                        if not more:
                            done.set()

                try:
                    await self.app(request, send)
                except Exception:
                    if self.raise_app_exceptions:
                        raise
                    done.set()
                assert done.is_set(), "response not complete"
                assert status is not None, "no status"
        """,
}


@pytest.fixture(scope="module")
def cb(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("cb"), "cb", CB)


def test_a_local_only_the_handed_function_sets(cb: Store) -> None:
    page = page_with_message(cb, "cb", "app never started the response")
    first = page.solutions[0]
    assert first.text.startswith(
        "Make your `app` (the `app` you give `cb.Transport`) call `start_response`, the "
        "function this method hands it at line"
    )
    assert "`start_response` sets `seen_status` there. The check at line" in first.text
    assert "what your `app` (the `app` you give `cb.Transport`) did" in page.what_it_means
    assert "worth reporting" not in page.what_it_means


def test_the_tests_the_setting_line_sits_under(cb: Store) -> None:
    page = page_with_message(cb, "cb", "response not complete")
    assert (
        "`send` sets `done` there, when `message['type'] != 'start'` and "
        "`message['type'] == 'body'` and `not more`." in page.solutions[0].text
    )
    page = page_with_message(cb, "cb", "no status")
    assert "`send` sets `status` there, when `message['type'] == 'start'`." in (
        page.solutions[0].text
    )


def test_what_the_callable_passed_the_handed_function(cb: Store) -> None:
    page = page_with_message(cb, "cb", "started twice")
    first = page.solutions[0]
    assert first.text.startswith(
        "Change what your `app` (the `app` you give `cb.AsyncTransport`) passes to `send`"
    )
    assert "`send` itself sets `started` at line" in first.text
    assert "The check applies only when" not in page.what_it_means


@pytest.mark.parametrize(
    "message",
    [
        "no other value",  # a local the handed function does not set
        "headers never sent",  # set again by the method itself after the call
        "run never started it",  # handed to another function, not the kept callable
        "wrapped app never started it",  # the constructor does not keep the argument as is
    ],
)
def test_no_callback_said(cb: Store, message: str) -> None:
    page = page_with_message(cb, "cb", message)
    assert not any(s.text.startswith(("Make your", "Change what your")) for s in page.solutions)
    assert "did with" not in page.what_it_means


def test_a_local_set_beside_one_an_earlier_check_reads(cb: Store) -> None:
    # `pairs` is set with `code`, which the check before it reads: past that check `begin`
    # ran, so the check fails on what the callable passed it, not for want of the call
    page = page_with_message(cb, "cb", "pair never begun")
    assert page.solutions[0].text.startswith("Make your `app`")
    page = page_with_message(cb, "cb", "pair headers missing")
    assert page.solutions[0].text.startswith(
        "Change what your `app` (the `app` you give `cb.Transport`) passes to `begin`, the "
        "function this method hands it at line"
    )
    assert "`begin` sets `pairs` from its arguments at line" in page.solutions[0].text
    assert "did with `begin`" in page.what_it_means
    # `done = True` is its own value: past the check on `code` it always holds
    page = page_with_message(cb, "cb", "pair never done")
    assert not any(s.text.startswith(("Make your", "Change what your")) for s in page.solutions)


def test_an_earlier_check_that_passes_while_unset_proves_nothing(cb: Store) -> None:
    # `mark != 5` holds while `fill` never ran (`mark` stays 0): past it, `items` may still
    # be unset for want of the call
    page = page_with_message(cb, "cb", "items never filled")
    assert page.solutions[0].text.startswith("Make your `app`")
    assert "call `fill`" in page.solutions[0].text


REPORTED = {
    "rep/__init__.py": "from rep.transports import Transport\n",
    "rep/transports.py": """
        class Transport:
            def __init__(self, app, raise_app_exceptions=True):
                self.app = app
                self.raise_app_exceptions = raise_app_exceptions

            def handle(self, request):
                seen_status = None
                seen_exc_info = None

                def start_response(status, exc_info=None):
                    nonlocal seen_status, seen_exc_info
                    seen_status = status
                    seen_exc_info = exc_info

                result = self.app(request, start_response)
                assert seen_status is not None, "app never started the response"
                if seen_exc_info and seen_exc_info[0] and self.raise_app_exceptions:
                    raise seen_exc_info[1]
                return result
        """,
}


@pytest.fixture(scope="module")
def rep(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("rep"), "rep", REPORTED)


def test_the_exception_the_callable_passed_raised_again(rep: Store) -> None:
    # the app reports its own failure as `exc_info`, which the method raises: the way out
    # is in what failed in the app (the object's own switch in the test is said, not asked)
    (site,) = [s for s in rep.list_sites("rep") if s.site.kind == SiteKind.RAISE]
    page = build_page(rep, site.id)
    assert page.solutions[0].text == (
        "Fix the failure your `app` (the `app` you give `rep.Transport`) reports to "
        "`start_response`, the function this method hands it at line 16: `start_response` "
        "keeps what it is passed as `seen_exc_info` at line 14, and the method raises the "
        "exception in it when `seen_exc_info` is set (not empty, zero or None) and "
        "`seen_exc_info[0]` and `self.raise_app_exceptions` is set (not empty, zero or None)."
    )
