"""The request fields behind a site's conditions (`link.requests`): a field of a route's
body class read from the request, or carried by the body's method into another object."""

from __future__ import annotations

import textwrap

from errdex.extract import extract_file
from errdex.link import link_version
from errdex.linked_facts import IndexedSite

PROTOCOL = """
    from pydantic import BaseModel
    from srv.params import Params


    class ChatRequest(BaseModel):
        messages: list[dict]
        marking: bool | None = None
        mode: str = "fast"

        def to_params(self) -> Params:
            return Params(marking=self.marking, extra=dict(mode=self.mode))
    """

ROUTER = """
    from srv.protocol import ChatRequest


    @app.post("/v1/chat")
    async def create_chat(request: ChatRequest) -> dict:
        return {}
    """

OTHER = """
    from pydantic import BaseModel
    from srv.protocol import ChatRequest


    class OtherRequest(BaseModel):
        mark: bool | None = None


    @app.post("/v2/other")
    async def other(request: OtherRequest) -> dict:
        return {}


    def to_chat(request: OtherRequest) -> ChatRequest:
        return ChatRequest(messages=[], marking=request.mark)
    """

CHECKS = """
    from srv.protocol import ChatRequest


    class Params:
        def __init__(self, marking=None, extra=None):
            self.marking = marking


    class Checks:
        def params(self, params: Params) -> None:
            if params.marking is True:
                raise ValueError("marking asked")

        def direct(self, request: ChatRequest, other: object) -> None:
            if request.mode == "slow" or other.mode == "slow":
                raise ValueError("slow mode")
    """


def _linked() -> dict[str, IndexedSite]:
    sources = {
        "srv/__init__.py": "",
        "srv/protocol.py": PROTOCOL,
        "srv/router.py": ROUTER,
        "srv/params.py": CHECKS,
        "srv/other.py": OTHER,
        "srv/cli.py": "def chat():\n    from openai import OpenAI\n    return OpenAI()\n",
    }
    files = [extract_file(p, textwrap.dedent(t).encode()) for p, t in sources.items()]
    return {s.site.function: s for s in link_version("srv", files)}


def test_a_field_carried_into_an_object_of_the_version_is_linked() -> None:
    # the middle link, into the chat body, is the page's to leave out: no `Params`
    link, _, further = _linked()["Checks.params"].requests
    assert (link.key, link.attr, link.target) == ("marking", "marking", "srv.params.Params")
    assert link.model == "srv.protocol.ChatRequest"
    assert link.routes == ("POST /v1/chat",)
    assert link.required == ("messages",)
    assert link.via == "Params(marking=self.marking)"
    assert link.client  # the version uses the OpenAI client (`srv/cli.py`)
    # a body made into another body, which builds the object: one more hop
    assert (further.key, further.target, further.model) == (
        "mark",
        "srv.params.Params",
        "srv.other.OtherRequest",
    )
    assert further.via == "ChatRequest(marking=request.mark), Params(marking=self.marking)"
    assert further.routes == ("POST /v2/other",)


def test_a_field_read_from_the_request_needs_the_parameter_of_its_class() -> None:
    # `other.mode` is no request's; `dict(mode=...)` carries it into no class
    (link,) = _linked()["Checks.direct"].requests
    assert (link.attr, link.target, link.via) == ("mode", "srv.protocol.ChatRequest", None)
    assert link.default == "'fast'"


DOTTED_PROTOCOL = """
    from pydantic import BaseModel
    import srv.params


    class ChatRequest(BaseModel):
        marking: bool | None = None

        def to_params(self):
            return srv.params.Params.from_flags(marking=self.marking)
    """

DOTTED_ROUTER = """
    from srv import params
    from srv.protocol import ChatRequest


    @app.post("/v1/chat")
    async def create_chat(request: ChatRequest) -> dict:
        return {}


    def submit(request: ChatRequest):
        return params.Params(extra=request.marking)


    def failed(request: ChatRequest):
        raise params.ParamsError(marking=request.marking)
    """

DOTTED_CHECKS = """
    class ParamsError(Exception):
        def __init__(self, marking=None):
            self.marking = marking


    class Params:
        def __init__(self, marking=None, extra=None):
            self.marking = marking
            self.extra = extra

        @classmethod
        def from_flags(cls, marking=None):
            return cls(marking=marking)


    def check(params: Params) -> None:
        if params.marking is True or params.extra is True:
            raise ValueError("marking asked")
    """


def test_a_field_carried_into_a_class_named_by_a_dotted_path_is_linked() -> None:
    # `params.Params(...)` through a module imported, `srv.params.Params.from_flags(...)`
    # through a package's module and a method of the class: each builds a `Params`; an
    # error made with the field (`params.ParamsError(...)`) is no object a check reads
    sources = {
        "srv/__init__.py": "",
        "srv/protocol.py": DOTTED_PROTOCOL,
        "srv/router.py": DOTTED_ROUTER,
        "srv/params.py": DOTTED_CHECKS,
    }
    files = [extract_file(p, textwrap.dedent(t).encode()) for p, t in sources.items()]
    (site,) = (s for s in link_version("srv", files) if s.site.function == "check")
    carried = {(link.attr, link.target, link.via) for link in site.requests if link.via}
    assert carried == {
        ("marking", "srv.params.Params", "srv.params.Params.from_flags(marking=self.marking)"),
        ("extra", "srv.params.Params", "params.Params(extra=request.marking)"),
    }
