"""What a call's argument is an attribute of (`CallSite.typed`): the class the caller's code
says the object is; and a call through a local holding a bound method (`CallSite` of each
method it may hold)."""

from __future__ import annotations

import textwrap

from errdex.extract import extract_file
from errdex.facts import CallSite

SOURCE = """
    class Serving:
        def annotated(self, request: Body) -> None:
            self._check(request.kind)

        def asserted(self, ctx) -> None:
            request = ctx.request
            assert isinstance(request, Body)
            kind = request.kind
            self._check(kind)

        def guarded(self, ctx) -> None:
            if isinstance(ctx.request, Body):
                request = ctx.request
                self._check(request.kind)

        def returned_early(self, ctx) -> None:
            if not isinstance(ctx.request, Body):
                return
            self._check(ctx.request.kind)

        def unknown(self, ctx) -> None:
            request = ctx.request
            self._check(request.kind)
            if isinstance(request, (Body, Other)):
                self._check(request.kind)

        def asserted_elsewhere(self, ctx, flag) -> None:
            request = ctx.request
            if flag:
                assert isinstance(request, Body)
            self._check(request.kind)

        def bound(self, joint) -> None:
            read = self.read_joint if joint else self.read
            read(1, 2)
            plain = self.read
            plain(3)
    """


def _calls(function: str) -> list[CallSite]:
    facts = extract_file("pkg/serving.py", textwrap.dedent(SOURCE).encode())
    return [c for c in facts.call_sites if c.function == f"Serving.{function}"]


def test_the_caller_s_annotation_assert_or_guard_says_the_object_s_class() -> None:
    for function in ("annotated", "asserted", "guarded"):
        (call,) = _calls(function)
        assert call.passes[0][1] == "request.kind"
        assert call.typed == (("request", "Body"),), function
    (call,) = _calls("returned_early")
    assert call.typed == (("ctx.request", "Body"),)


def test_no_class_is_said_without_one_test_on_the_call_s_way() -> None:
    assert [c.typed for c in _calls("unknown")] == [(), ()]
    # an assert in a block the call is not in
    assert [c.typed for c in _calls("asserted_elsewhere")] == [()]


def test_a_local_holding_a_bound_method_calls_each_method_it_may_hold() -> None:
    calls = [(c.callee, c.receiver, c.line) for c in _calls("bound")]
    assert calls == [("read_joint", "self", 36), ("read", "self", 36), ("read", "self", 38)]
