"""The class each `self.X` of a class holds, where its text says it (`ClassFact.attr_classes`),
and the methods called on an attribute or on a typed name that are kept for the linker."""

from __future__ import annotations

import textwrap

from errdex.extract import extract_file

SOURCE = """
    class Engine(Base):
        held: Runner
        count: int

        def __init__(self, runner: Runner, other):
            self.built = Runner(
                size=1,
            )
            self.made: Runner | None = None
            self.factory = make_runner()
            self.factory = None
            self.child = Runner().child
            self.kept = other
            self.twice = Runner()
            self.twice = Other()
            self.own = self._make()

        def step(self, batch):
            self.built.prepare(batch)
            self.built.reset()
            self.kept.prepare(batch)
    """


def test_the_class_an_attribute_holds_as_the_class_s_text_says_it() -> None:
    facts = extract_file("pkg/engine.py", textwrap.dedent(SOURCE).encode())
    (engine,) = facts.classes
    assert engine.attr_classes == {
        "held": "Runner",  # a class-level annotation
        "made": "Runner",  # `self.made: Runner | None`
        "built": "Runner()",  # the whole value a call of it
        "factory": "make_runner()",  # a call, `None` aside
        "own": "self._make()",
        "child": "",  # an attribute of a call's result
        "kept": "",  # a name: what it holds is not said here
        "twice": "",  # two calls of different callees
    }


def test_a_method_called_on_an_attribute_is_kept_when_it_gives_a_name() -> None:
    facts = extract_file("pkg/engine.py", textwrap.dedent(SOURCE).encode())
    found = {(c.receiver, c.callee) for c in facts.call_sites if c.function == "Engine.step"}
    # `self.built.reset()` gives nothing: no value to follow
    assert found == {("self.built", "prepare"), ("self.kept", "prepare")}
