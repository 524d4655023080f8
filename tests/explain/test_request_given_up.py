"""A field of the request body a caller hands the check's function as an argument, one or
two calls up (`kind = request.kind; self._validate_kind(kind)`), is the way out when the
caller's code says the object is of the body's class; and a field the server copies into
an object the package's own code hands the check comes before that internal argument."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import body_ways, indexed_package, page_with_message

from errdex.store import Store

BODIES = """
    from pydantic import BaseModel, StrictBool
    from srv.sampling import Params


    class EmbedRequest(BaseModel):
        texts: list[str]
        kind: str | None = None
        joint: StrictBool = False
        mode: str | None = None
        level: int | None = None
        marking: bool | None = None
        greedy: bool = False

        def to_params(self) -> Params:
            return Params(marking=self.marking, greedy=self.greedy, level=self.level)
    """

ROUTES = """
    from fastapi import APIRouter
    from srv.bodies import EmbedRequest

    router = APIRouter()


    @router.post("/v1/embed")
    async def create_embedding(request: EmbedRequest) -> dict:
        return {}
    """

SAMPLING = """
    import logging

    logger = logging.getLogger(__name__)


    class Params:
        def __init__(
            self, marking: bool | None = None, greedy: bool = False, level: int | None = None
        ) -> None:
            self.marking = marking
            self.greedy = greedy
            self.level = level

        def verify(self) -> None:
            _check_marking(self.marking)
            check_level(self.level)


    def check_level(level: int | None) -> None:
        if level is None:
            return
        if level < 0:
            raise ValueError("Level must be at least 0")


    def _check_marking(marking: bool | None) -> None:
        if marking is True:
            raise ValueError("Marking is not built in")


    class Sampler:
        def add(self, params: Params) -> None:
            if params.marking is False:
                return
            if params.greedy:
                logger.warning("Marking is on, but greedy requests cannot be marked.")


        def add_all(self, batch: list[Params]) -> None:
            for params in batch:
                self.add(params)


    class Marker:
        def start(self, params: Params) -> None:
            if params.marking and params.greedy:
                logger.warning("Marker started on a greedy request.")
    """

EMBEDDING = """
    from srv.bodies import EmbedRequest


    class Context:
        request: object = None


    class Internal:
        kind: str | None = None


    class Embedder:
        def __init__(self, instructions: dict | None) -> None:
            self.instructions = instructions

        def factory(self, ctx: Context) -> None:
            request = ctx.request
            assert isinstance(request, EmbedRequest)
            kind = request.kind
            self._validate_kind(kind)

        def _validate_kind(self, kind: str | None) -> None:
            if kind is None:
                return
            if self.instructions is None:
                raise ValueError(f"Unsupported kind {kind!r}: no instructions here")
            if kind not in self.instructions:
                supported = ", ".join(sorted(self.instructions))
                raise ValueError(f"Kind {kind!r} is not listed. Supported values: {supported}")

        def serve(self, request: EmbedRequest) -> None:
            self._prepare(request.kind)

        def _prepare(self, kind: str | None) -> None:
            self._check_deep(kind)

        def _check_deep(self, kind: str | None) -> None:
            if kind is not None:
                raise ValueError(f"Kind {kind!r} is not taken two calls down")

        def guarded(self, ctx: Context) -> None:
            if not isinstance(ctx.request, EmbedRequest):
                return
            request = ctx.request
            self._check_guarded(request.kind)

        def _check_guarded(self, kind: str | None) -> None:
            if kind == "query":
                raise ValueError("Kind query is not taken behind a guard")

        def admitted(self, request: EmbedRequest) -> None:
            self._admit(request.joint)

        def _admit(self, joint: bool) -> None:
            if joint and not self.instructions:
                raise ValueError("joint: this model reads each text on its own")

        def both(self, request: EmbedRequest) -> None:
            self._check_named(request.kind)
            self._check_named(request.mode)

        def _check_named(self, value: str | None) -> None:
            if value is not None:
                raise ValueError("A named value is not taken here")

        def unsure(self, ctx: Context) -> None:
            request = ctx.request
            self._check_unsure(request.kind)

        def _check_unsure(self, kind: str | None) -> None:
            if kind is not None:
                raise ValueError(f"Kind {kind!r} of an object of no known class")

        def internal(self, state: Internal) -> None:
            self._check_internal(state.kind)

        def _check_internal(self, kind: str | None) -> None:
            if kind is not None:
                raise ValueError(f"Kind {kind!r} of an internal object")
    """


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    files = {
        "srv/__init__.py": "",
        "srv/sampling.py": SAMPLING,
        "srv/bodies.py": BODIES,
        "srv/routes.py": ROUTES,
        "srv/embedding.py": EMBEDDING,
    }
    yield from indexed_package(tmp_path_factory.mktemp("srv"), "srv", files)


def test_a_field_a_caller_hands_on_through_a_local_is_the_way_out(srv: Store) -> None:
    page = page_with_message(srv, "srv", "Unsupported kind")
    first = page.solutions[0]
    assert first.text == (
        "In the body of your request (`POST /v1/embed`), set `kind` to `null` (or leave it"
        " out: `null` by default); `Embedder.factory` hands it on to"
        " `Embedder._validate_kind` as `kind` (so that kind is None)."
    )
    assert page.example_fix is not None
    assert page.example_fix.before == 'POST /v1/embed\n{"texts": TEXTS, "kind": KIND}'
    assert page.example_fix.after == 'POST /v1/embed\n{"texts": TEXTS}'


def test_leaving_the_field_out_keeps_the_value_the_check_takes_said(srv: Store) -> None:
    page = page_with_message(srv, "srv", "Kind {kind!r} is not listed")
    texts = [s.text for s in page.solutions]
    assert texts[0].startswith("In the body of your request (`POST /v1/embed`), set `kind` to")
    # skipping the check gives up the field: the values it lists are said as well
    assert texts[1].startswith("Give for `kind` one of the values the message lists")


def test_a_field_two_calls_up_names_the_function_between(srv: Store) -> None:
    (said,) = body_ways(srv, "srv", "Kind {kind!r} is not taken two calls down")
    assert said.text.startswith("In the body of your request (`POST /v1/embed`), set `kind`")
    assert "`Embedder.serve` hands it on (through `Embedder._prepare`)" in said.text


def test_an_isinstance_the_guard_holds_says_the_class(srv: Store) -> None:
    (said,) = body_ways(srv, "srv", "Kind query is not taken behind a guard")
    assert said.text.startswith(
        "In the body of your request (`POST /v1/embed`), "
        'send `kind` with a value other than `"query"`'
    )


def test_a_strict_bool_field_is_sent_false(srv: Store) -> None:
    (said,) = body_ways(srv, "srv", "joint: this model reads each text")
    assert said.text.startswith(
        "In the body of your request (`POST /v1/embed`), set `joint` to `false` "
        "(or leave it out: `false` by default)"
    )


def test_an_object_of_no_known_class_or_another_class_gives_no_field(srv: Store) -> None:
    # `request = ctx.request` with nothing saying it is the body: no way out through it
    assert body_ways(srv, "srv", "Kind {kind!r} of an object of no known class") == []
    # a field of the same name on a class no route takes
    assert body_ways(srv, "srv", "Kind {kind!r} of an internal object") == []
    # two fields given to one parameter: which one the user sent is not known
    assert body_ways(srv, "srv", "A named value is not taken here") == []


def test_a_field_the_server_copies_into_self_and_hands_on_is_the_way_out(srv: Store) -> None:
    page = page_with_message(srv, "srv", "Marking is not built in")
    said = page.solutions[0]  # before the argument `marking` of `_check_marking`
    assert said.text == (
        "In the body of your request (`POST /v1/embed`), set `marking` to `false` (it is"
        " `null` when left out); the server copies it into `Params.marking`, and"
        " `Params.verify` hands it on to `_check_marking` as `marking` (so that marking is"
        " not True)."
    )


def test_both_ways_through_the_body_come_before_the_argument_handed_on(srv: Store) -> None:
    page = page_with_message(srv, "srv", "Level must be at least 0")
    texts = [s.text for s in page.solutions]
    assert texts[0].startswith("In the body of your request (`POST /v1/embed`), send `level` at")
    assert texts[1].startswith("In the body of your request (`POST /v1/embed`), set `level` to")
    assert texts[2].startswith("Pass the argument `level` of `check_level`")


def test_a_carried_field_comes_before_the_argument_the_package_hands_on(srv: Store) -> None:
    page = page_with_message(srv, "srv", "Marking is on, but greedy")
    # `Sampler.add` is called by the engine: its `params` is no value a user passes
    assert page.solutions[0].text.startswith("In the body of your request (`POST /v1/embed`)")
    assert any(s.text.startswith("Pass for the argument `params`") for s in page.solutions[1:])
    # a method of another class than the one the field is carried into: no user calls it
    page = page_with_message(srv, "srv", "Marker started on a greedy request")
    assert page.solutions[0].text.startswith("In the body of your request (`POST /v1/embed`)")
