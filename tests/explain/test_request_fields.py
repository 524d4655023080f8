"""A way out through a field of the request body a user sends to the package's server:
the field the server copies into the object a check reads, with the value the check
accepts, and the body as sent."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import body_ways, indexed_package, page_with_message

from errdex.store import Store

PARAMS = """
    import logging

    logger = logging.getLogger(__name__)


    class Params:
        def __init__(
            self,
            marking: bool | None = None,
            greedy: bool = False,
            trace: list | None = None,
            penalty: float = 0.0,
            least: int = 0,
        ) -> None:
            self.marking = marking
            self.greedy = greedy
            self.trace = trace  # set from Python only
            self.penalty = penalty
            self.least = least

        def verify(self) -> None:
            if not -2.0 <= self.penalty <= 2.0:
                raise ValueError(f"penalty must be in [-2, 2], got {self.penalty}")
            if self.least < 0:
                raise ValueError(f"least must be at least 0, got {self.least}")


    class Internal:
        def __init__(self) -> None:
            self.marking = None


    def check_marking(params: "Params | None") -> bool:
        if params is None:
            return True
        if params.marking is False:
            return False
        if params.greedy:
            logger.warning("Marking is on, but greedy requests cannot be marked.")
            params.marking = False  # a `return False` would be the exit's fallback too
        return params.marking is not False


    def check_asked(params: "Params | None", engine: object) -> None:
        if params is not None and params.marking is True:
            if engine is None:
                logger.warning("Marking asked of an engine without a marker.")


    def check_trace(params: Params) -> None:
        if params.trace is not None and params.marking is not False:
            raise ValueError("Trace replay cannot be marked")


    def check_internal(state: Internal) -> bool:
        if state.marking is False:
            return False
        logger.warning("Internal marking is not settled.")
        return True
    """

PROTOCOL = """
    from pydantic import BaseModel
    from srv.params import Params


    class ChatRequest(BaseModel):
        messages: list[dict]
        marking: bool | None = None
        stream: bool = False
        greedy: bool = False
        penalty: float = 0.0
        least: int = 0

        def to_params(self) -> Params:
            return Params(
                marking=self.marking,
                penalty=self.penalty,
                least=self.least,
                **dict(greedy=self.greedy),
            )
    """

ROUTER = """
    from fastapi import APIRouter
    from srv.protocol import ChatRequest

    router = APIRouter()


    @router.post("/v1/chat")
    async def create_chat(request: ChatRequest) -> dict:
        return {}
    """

SERVING = """
    from srv.protocol import ChatRequest


    class Serving:
        def handle(self, request: ChatRequest, other: object) -> None:
            if request.stream:
                raise ValueError("Streaming is not supported by this server")
            if other.stream:
                raise ValueError("Other streams are not supported")


    def handle_either(request: "ChatRequest | None") -> None:
        if request is not None and request.stream:
            raise ValueError("Either stream is not supported")


    def handle_kinds(request, strict) -> None:
        if isinstance(request, (dict, ChatRequest)):
            if request.stream:
                raise ValueError("Neither kind streams here")
        elif isinstance(request, (dict, Serving)) and strict:
            if request.stream:
                raise ValueError("No serving streams here")
    """


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    files = {
        "srv/__init__.py": "",
        "srv/params.py": PARAMS,
        "srv/protocol.py": PROTOCOL,
        "srv/router.py": ROUTER,
        "srv/serving.py": SERVING,
    }
    yield from indexed_package(tmp_path_factory.mktemp("srv"), "srv", files)


def test_a_field_the_server_copies_into_the_checked_object_is_the_way_out(srv: Store) -> None:
    page = page_with_message(srv, "srv", "Marking is on, but greedy")
    # after the argument of the public function, which a Python caller passes itself
    assert page.solutions[0].text.startswith("Pass for the argument `params`")
    first = page.solutions[1]
    assert first.kind == "input"
    assert first.text.startswith(
        "In the body of your request (`POST /v1/chat`), set `marking` to `false`"
    )
    assert "copies it into `Params.marking`" in first.text
    assert page.example_fix is not None
    assert page.example_fix.before == 'POST /v1/chat\n{"messages": MESSAGES}'
    assert page.example_fix.after == 'POST /v1/chat\n{"messages": MESSAGES, "marking": false}'
    # no client of the OpenAI API here
    assert page.example_fix.note == "`MESSAGES` stands for your own value."


def test_a_field_of_the_request_read_directly_is_the_way_out(srv: Store) -> None:
    page = page_with_message(srv, "srv", "Streaming is not supported")
    first = page.solutions[0]
    assert first.text.startswith(
        "In the body of your request (`POST /v1/chat`), set `stream` to `false` "
        "(or leave it out: `false` by default)"
    )
    assert page.example_fix is not None
    assert page.example_fix.before == 'POST /v1/chat\n{"messages": MESSAGES, "stream": STREAM}'
    assert page.example_fix.after == 'POST /v1/chat\n{"messages": MESSAGES}'


def test_an_internal_object_with_a_field_of_the_same_name_is_no_request(srv: Store) -> None:
    assert body_ways(srv, "srv", "Internal marking is not settled") == []
    assert body_ways(srv, "srv", "Other streams are not supported") == []


def test_a_check_no_request_reaches_has_no_request_way_out(srv: Store) -> None:
    # `params.trace` is set from Python only: no body sends it
    assert body_ways(srv, "srv", "Trace replay cannot be marked") == []


def test_a_bound_of_a_carried_field_is_said_with_the_number(srv: Store) -> None:
    (said,) = body_ways(srv, "srv", "least must be at least 0")
    assert said.text.startswith(
        "In the body of your request (`POST /v1/chat`), send `least` at least `0`"
    )
    assert said.fix is not None
    # out of bounds, the key was sent: the user's value before, the bound after
    assert said.fix.before == 'POST /v1/chat\n{"messages": MESSAGES, "least": LEAST}'
    assert said.fix.after == 'POST /v1/chat\n{"messages": MESSAGES, "least": 0}'
    (said,) = body_ways(srv, "srv", "penalty must be in")
    assert "send `penalty` from `-2.0` to `2.0`" in said.text
    assert said.fix is None  # no one value to show


def test_a_part_of_an_and_a_field_decides_is_a_way_out(srv: Store) -> None:
    (said,) = body_ways(srv, "srv", "Marking asked of an engine without")
    # `marking is not True` on a flag: send it false
    assert "set `marking` to `false`" in said.text


def test_a_parameter_of_a_union_or_a_function_is_read_by_its_annotation(srv: Store) -> None:
    (said,) = body_ways(srv, "srv", "Either stream is not supported")
    assert "set `stream` to `false` (or leave it out: `false` by default)" in said.text


def test_an_isinstance_test_of_several_classes_narrows_to_any_of_them(srv: Store) -> None:
    (said,) = body_ways(srv, "srv", "Neither kind streams here")
    assert "set `stream` to `false` (or leave it out: `false` by default)" in said.text
    # none of the classes tested is the request's: no body reaches the check
    assert body_ways(srv, "srv", "No serving streams here") == []
