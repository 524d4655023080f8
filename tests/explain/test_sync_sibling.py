"""The async method called on a synchronous object: the page says to call the method of the
same class without the `a` prefix, where that method reads the same thing; the sync method
called on an asynchronous object: its `a`-prefixed coroutine or async generator."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package

from errdex.explain import build_page
from errdex.explain.page import Page
from errdex.store import Store

STREAMS = {
    "streams/__init__.py": (
        "from streams.models import Body, Other, Reply\n"
        "from streams.clients import Client, AsyncClient\n"
    ),
    "streams/clients.py": """
        from streams.models import AsyncStream, SyncStream


        class Client:
            def send(self, request):
                return self._send_one(request)

            def _send_one(self, request):
                if not isinstance(request.stream, SyncStream):
                    raise RuntimeError("an async request sent with a sync Client")
                return request

            def _receive(self, request, transport):
                response = transport.handle(request)
                response.request = request
                assert isinstance(response.stream, SyncStream)
                return response


        class AsyncClient:
            async def send(self, request):
                return await self._send_one(request)

            async def _send_one(self, request):
                if not isinstance(request.stream, AsyncStream):
                    raise RuntimeError("a sync request sent with an AsyncClient")
                return request

            async def _receive(self, request, transport):
                response = await transport.handle_async(request)
                assert isinstance(response.stream, AsyncStream)
                return response
        """,
    "streams/relays.py": """
        from streams.models import AsyncStream, SyncStream


        class Relay:
            def _pass(self, request, transport):
                response = transport._handle(request)
                assert isinstance(response.stream, SyncStream)
                return response


        class AsyncRelay:
            async def _pass(self, request, transport):
                response = await transport._handle_async(request)
                assert isinstance(response.stream, AsyncStream)
                return response
        """,
    "streams/models.py": """
        import typing


        class Body:
            def __init__(self, stream):
                self.stream = stream

            def read(self):
                if not hasattr(self, "_content"):
                    assert isinstance(self.stream, typing.Iterable)
                    self._content = b"".join(self.stream)
                return self._content

            async def aread(self):
                if not hasattr(self, "_content"):
                    assert isinstance(self.stream, typing.AsyncIterable)
                    self._content = b"".join([part async for part in self.stream])
                return self._content

            def iter_raw(self):
                assert isinstance(self.stream, typing.Iterable)
                yield from self.stream

            async def aiter_raw(self):
                assert isinstance(self.stream, typing.AsyncIterable)
                async for part in self.stream:
                    yield part


        class Reply:
            def __init__(self, stream):
                self.stream = stream

            def close(self):
                if not isinstance(self.stream, SyncStream):
                    raise RuntimeError("sync close on an async stream")
                self.stream.close()

            async def aclose(self):
                if not isinstance(self.stream, AsyncStream):
                    raise RuntimeError("async close on a sync stream")
                await self.stream.aclose()

            def iter_raw(self):
                if not isinstance(self.stream, SyncStream):
                    raise RuntimeError("sync iterator on an async stream")
                yield from self.stream

            async def aiter_raw(self):
                if not isinstance(self.stream, AsyncStream):
                    raise RuntimeError("async iterator on a sync stream")
                async for part in self.stream:
                    yield part

            def read(self):
                if not isinstance(self.stream, SyncStream):
                    raise RuntimeError("sync read on an async stream")
                return b"".join(self.stream)


        class SyncStream:
            pass


        class AsyncStream:
            pass


        class Other:
            def __init__(self, stream):
                self.stream = stream

            async def aclose(self):
                assert isinstance(self.stream, typing.AsyncIterable)
                await self.stream.aclose()
        """,
}


@pytest.fixture(scope="module")
def streams(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("streams"), "streams", STREAMS)


def solutions_of(store: Store, function: str) -> list[str]:
    return [s.text for s in page_of(store, function).solutions]


def page_of(store: Store, function: str) -> Page:
    (site,) = [s for s in store.list_sites("streams") if s.site.function == function]
    return build_page(store, site.id)


def test_the_sync_sibling_that_reads_the_same_stream_is_named(streams: Store) -> None:
    assert solutions_of(streams, "Body.aread") == [
        "Call `read()` instead of `aread()`: `Body.aread` needs `self.stream` to be a "
        "`typing.AsyncIterable`, and here it is synchronous; `Body.read` reads it."
    ]


def test_no_sibling_no_solution(streams: Store) -> None:
    # `Other` has no `close`: nothing of the package's to call instead
    page = page_of(streams, "Other.aclose")
    assert not any("instead of" in s.text for s in page.solutions)
    assert page.solutions == []
    assert "`Other.aclose` (streams/models.py:75) fails an `assert`" in page.what_it_means


def test_the_fix_awaits_a_coroutine_and_loops_over_an_async_generator(streams: Store) -> None:
    read = page_of(streams, "Body.aread").example_fix
    assert read is not None
    assert (read.before, read.after) == ("await body.aread()", "body.read()")
    raw = page_of(streams, "Body.aiter_raw").example_fix
    assert raw is not None
    assert raw.before == "async for item in body.aiter_raw():\n    ..."
    assert raw.after == "for item in body.iter_raw():\n    ..."


def test_a_sync_method_on_an_async_object_names_its_coroutine(streams: Store) -> None:
    assert solutions_of(streams, "Reply.close")[0] == (
        "Call `await aclose()` instead of `close()`: `Reply.close` needs `self.stream` to be a "
        "`SyncStream`, and here it is asynchronous (made for async code); `Reply.aclose` "
        "reads it."
    )
    fix = page_of(streams, "Reply.close").example_fix
    assert fix is not None
    assert (fix.before, fix.after) == ("reply.close()", "await reply.aclose()")
    raw = page_of(streams, "Reply.iter_raw").example_fix
    assert raw is not None
    assert raw.before == "for item in reply.iter_raw():\n    ..."
    assert raw.after == "async for item in reply.aiter_raw():\n    ..."


def test_no_async_sibling_no_counterpart(streams: Store) -> None:
    # `Reply` has no `aread`: nothing of the package's to call instead
    assert not any("instead of" in t for t in solutions_of(streams, "Reply.read"))
    assert solutions_of(streams, "Reply.read") == [
        "Pass the argument `stream` of `Reply` as an instance of `SyncStream`."
    ]


def test_an_object_made_for_the_other_client_names_that_client(streams: Store) -> None:
    assert solutions_of(streams, "AsyncClient._send_one")[0] == (
        "Make the call with `streams.Client` instead, whose `_send_one` takes it: "
        "`AsyncClient._send_one` needs `request.stream` to be an `AsyncStream`, and here it "
        "is synchronous. To keep your `AsyncClient`, make `request.stream` asynchronous."
    )
    assert solutions_of(streams, "Client._send_one")[0].startswith(
        "Make the call with `streams.AsyncClient` instead"
    )


def test_a_standard_sync_type_names_the_async_twin(streams: Store) -> None:
    # `typing.Iterable` has an async form (`typing.AsyncIterable`): a read asserting it
    # refuses a body built with async content, which `aread` takes; but an int is no
    # `Iterable` either, so the way out is said of the async case, not as what was met
    assert solutions_of(streams, "Body.read")[0] == (
        "Call `await aread()` instead of `read()` when `self.stream` is asynchronous (made "
        "for async code): `Body.read` needs it to be a `typing.Iterable`; `Body.aread` "
        "reads it."
    )
    fix = page_of(streams, "Body.read").example_fix
    assert fix is not None
    assert (fix.before, fix.after) == ("body.read()", "await body.aread()")
    assert solutions_of(streams, "Body.iter_raw")[0].startswith(
        "Call `async for ... in aiter_raw()` instead of `iter_raw()`"
    )


def test_an_assert_on_what_another_object_returned_says_that_method(streams: Store) -> None:
    # the counterpart's own `assert` refuses the other kind; the stream is read from what a
    # method of another object (the user's transport) returned: said as what it must return
    assert solutions_of(streams, "Client._receive")[0] == (
        "Make the call with `streams.AsyncClient` instead, whose `_receive` takes it: "
        "`Client._receive` needs `response.stream` to be a `SyncStream`, and here it is "
        "asynchronous. To keep your `Client`, make `response.stream` synchronous: `response` "
        "is what `transport.handle(request)` returns (line 15), so the `stream` of what "
        "`handle` returns must be a `SyncStream`."
    )
    assert solutions_of(streams, "AsyncClient._receive")[0].endswith(
        "`response` is what `transport.handle_async(request)` returns (line 31), so the "
        "`stream` of what `handle_async` returns must be an `AsyncStream`."
    )
    # a private method's return is the package's own doing, not the user's: not said
    assert solutions_of(streams, "Relay._pass")[0].endswith(
        "To keep your `Relay`, make `response.stream` synchronous."
    )
