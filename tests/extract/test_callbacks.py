"""The bound methods a function hands a call without calling them: the callee calls them
back (`FileFacts.callbacks`). A method of a local whose class the code says, one of the
object's own, one inside a `partial(...)`; not a method called, nor a plain attribute of a
parameter no annotation names, nor a module's function."""

from __future__ import annotations

import textwrap

from errdex.extract import extract_file

SOURCE = """
    from functools import partial

    from pkg import build
    from pkg.build import Builder, Handler, register


    def complete(cls, other):
        gen = Builder(cls)
        handler = Handler(partial(gen.generate, strict=False), gen)
        register(other.build)
        register(build.validate)
        gen.check(cls)
        return handler


    class Model:
        def setup(self):
            register(self._build)

        def _build(self):
            return 1
    """


def _callbacks() -> set[tuple[str, str | None, str, str | None]]:
    facts = extract_file("pkg/models.py", textwrap.dedent(SOURCE).encode())
    return {(c.callee, c.receiver, c.function, c.receiver_type) for c in facts.callbacks}


def test_a_bound_method_of_a_local_in_a_partial() -> None:
    assert ("generate", "gen", "complete", "Builder()") in _callbacks()


def test_a_method_of_the_object_own() -> None:
    assert ("_build", "self", "Model.setup", None) in _callbacks()


def test_neither_a_call_nor_an_untyped_parameter() -> None:
    found = {(callee, receiver) for callee, receiver, _, _ in _callbacks()}
    assert ("check", "gen") not in found  # called, not handed on
    assert ("build", "other") not in found  # nothing says what `other` is
    # a module's function, handed on to be called when data comes
    assert ("validate", "build") not in found
