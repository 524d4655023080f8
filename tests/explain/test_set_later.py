"""A property read before anything set the attribute behind it: the page says to assign the
property or give the subclass's keyword when making the object (`explain/set_later.py`)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_in_function

from errdex.store import Store

FILES = {
    "webby/__init__.py": """
        from webby.errors import HTTPError, RequestError, ConnectError, StatusError, Job
        """,
    "webby/errors.py": """
        class HTTPError(Exception):
            def __init__(self, message):
                super().__init__(message)
                self._request = None

            @property
            def request(self):
                if self._request is None:
                    raise RuntimeError("The .request property has not been set.")
                return self._request

            @request.setter
            def request(self, request):
                self._request = request


        class RequestError(HTTPError):
            def __init__(self, message, *, request=None):
                super().__init__(message)
                self._request = request


        class ConnectError(RequestError):
            pass


        class StatusError(HTTPError):
            def __init__(self, message, *, request, response):
                super().__init__(message)
                self.request = request
                self.response = response


        class Job:
            def __init__(self):
                self._result = None

            @property
            def result(self):
                if self._result is None:
                    raise RuntimeError("The result has not been set yet.")
                return self._result
        """,
    "webby/more.py": """
        class Conn:
            def __init__(self):
                self._sock = None
                self._open()

            def _open(self):
                self._sock = object()

            @property
            def sock(self):
                if self._sock is None:
                    raise RuntimeError("The socket has not been set.")
                return self._sock

            @sock.setter
            def sock(self, sock):
                self._sock = sock


        class Slot:
            def __init__(self):
                self._value = None

            @property
            def value(self):
                if self._value is None:
                    raise RuntimeError("The value has not been set yet.")
                return self._value

            @value.setter
            def value(self, value):
                self._value = value


        class Failure(Exception):
            def __init__(self, message):
                super().__init__(message)
                self._reply = None

            @property
            def reply(self):
                if self._reply is None:
                    raise RuntimeError("The .reply property has not been set.")
                return self._reply


        class ReplyFailure(Failure):
            def __init__(self, message, reply=None):
                super().__init__(message)
                self._reply: object = reply


        class TimedOut(ReplyFailure):
            def __init__(self, message):
                super().__init__(message)


        class PositionalFailure(Failure):
            def __init__(self, message, reply=None, /):
                super().__init__(message)
                self._reply = reply


        class Refused(ReplyFailure):
            pass
        """,
}


@pytest.fixture(scope="module")
def webby(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("webby"), "webby", FILES)


def test_a_property_is_set_by_its_setter_or_a_subclass_keyword(webby: Store) -> None:
    page = page_in_function(webby, "webby", "HTTPError.request")
    assert page.solutions[0].text.startswith(
        "Set `request` on your `HTTPError` object before reading it: assign it "
        "(`http_error.request = ...`) or make the object with the keyword: "
        "`RequestError(..., request=...)` (its subclasses alike). `HTTPError.__init__` "
        "leaves `self._request` None"
    )
    # a required keyword (`StatusError`'s) always sets it: no call of it leaves it out
    assert "StatusError" not in page.solutions[0].text


def test_a_property_nothing_sets_has_no_such_way_out(webby: Store) -> None:
    page = page_in_function(webby, "webby", "Job.result")
    assert not any(s.text.startswith("Set `result`") for s in page.solutions)


def test_a_property_the_constructor_fills_through_its_calls_is_not_set_later(
    webby: Store,
) -> None:
    # `self._sock = None; self._open()`: `_open` sets it, the object never starts without
    page = page_in_function(webby, "webby", "Conn.sock")
    assert not any(s.text.startswith("Set `sock`") for s in page.solutions)


def test_a_property_only_its_setter_fills_says_to_assign_it(webby: Store) -> None:
    page = page_in_function(webby, "webby", "Slot.value")
    assert page.solutions[0].text.startswith(
        "Set `value` on your `Slot` object before reading it: assign it (`slot.value = ...`). "
        "`Slot.__init__` leaves `self._value` None"
    )


def test_only_a_keyword_a_call_can_give_and_its_subclasses_take(webby: Store) -> None:
    # `TimedOut.__init__(self, message)` takes no `reply` (`Refused` does: not all its
    # subclasses alike); `PositionalFailure`'s is
    # positional-only; `ReplyFailure` stores it with an annotation
    page = page_in_function(webby, "webby", "Failure.reply")
    assert page.solutions[0].text.startswith(
        "Set `reply` on your `Failure` object before reading it: make the object with the "
        "keyword: `ReplyFailure(..., reply=...)`. `Failure.__init__` leaves"
    )
