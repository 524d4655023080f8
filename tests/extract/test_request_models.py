"""The request bodies of a server: the classes its routes take, and the fields of its
`*Request` classes with the calls that carry each on."""

from __future__ import annotations

import textwrap

from errdex.extract import extract_file

ROUTER = """
    from fastapi import APIRouter, Request
    from srv.protocol import ChatRequest

    router = APIRouter()


    @router.post(
        "/v1/chat",
        responses={400: {"model": dict}},
    )
    async def create_chat(request: ChatRequest, raw_request: Request) -> dict:
        return {}


    @router.get("/health")
    async def health() -> dict:
        return {}
    """

PROTOCOL = """
    from pydantic import BaseModel, Field
    from srv.params import Params


    class ChatRequest(BaseModel):
        messages: list[dict]
        marking: bool | None = None
        seed: int | None = Field(None, ge=0)
        top: int = Field(default=1, alias="topK")
        limit: ClassVar[int] = 3

        def to_params(self) -> Params:
            return Params(marking=self.marking, seed=self.seed, other=self.unknown)


    class Helper:
        marking: bool = True
    """


def test_a_routed_function_names_the_class_of_its_body() -> None:
    facts = extract_file("srv/router.py", textwrap.dedent(ROUTER).encode())
    (route,) = facts.routes
    assert (route.cls, route.parameter, route.path, route.method) == (
        "ChatRequest",
        "request",
        "/v1/chat",
        "post",
    )
    assert route.function == "create_chat"


def test_a_request_class_keeps_its_fields_defaults_aliases_and_where_they_go() -> None:
    facts = extract_file("srv/protocol.py", textwrap.dedent(PROTOCOL).encode())
    fields = {f.name: f for f in facts.request_fields}
    assert set(fields) == {"messages", "marking", "seed", "top"}  # no ClassVar, no Helper
    assert fields["messages"].default is None  # required
    assert fields["marking"].default == "None"
    assert fields["marking"].into == (("Params", "marking"),)
    assert fields["seed"].default == "None"
    assert fields["top"].alias == "topK"
    assert fields["top"].default == "1"
    assert fields["top"].into == ()


SERVING = """
    from srv.params import Params
    from srv.protocol import ChatRequest, EngineRequest


    class Serving:
        def build(self, request: ChatRequest, other: EngineRequest) -> Params:
            seed = request.seed
            params = Params(
                marking=request.marking,
                nested=dict(seed=other.seed),
                ok=request.seed == 1,
            )
            return helper(top=request.top, params=params)

        def plain(self, request, value) -> None:
            return Params(marking=request.marking)
    """


def test_a_call_outside_the_class_carries_a_field_of_an_annotated_request() -> None:
    facts = extract_file("srv/serving.py", textwrap.dedent(SERVING).encode())
    carried = {(c.cls, c.parameter, c.field, c.callee, c.keyword) for c in facts.request_carries}
    assert carried == {
        ("ChatRequest", "request", "marking", "Params", "marking"),
        ("EngineRequest", "other", "seed", "dict", "seed"),
        ("ChatRequest", "request", "top", "helper", "top"),
    }  # no assignment, no comparison, no parameter left unannotated
