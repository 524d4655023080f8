"""The class each `self.X` of a class holds, where its text says it (`ClassFact.attr_classes`),
and the methods called on an attribute or on a typed name that are kept for the linker."""

from __future__ import annotations

import textwrap

from extract_samples import blanked_facts

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


# The skeleton blanks the constructor's body in the tree; the counts read the class's text as
# written, the constructor's lines among them.
GIVEN = """
    class Layer(Base):
        def __init__(self, config):
            self.tp_size = get_tp_size()
            self.head_dim = config.head_dim

            def split() -> tuple[int, int]: ...

            self.left, self.right = split()

        def shape(self, kind):
            out = make_shape(tp_size=self.tp_size, head_dim=self.head_dim)
            parts = dict(
                self.tp_size, size=1,
            )
            if kind is None:
                raise ValueError("no kind")
            return out, parts

        def view(self, buf, v):
            buf[self.tp_size :] = v
            print(f"{self.tp_size=}", sizes={self.tp_size: 1}, dim=2)
            if v is None:
                raise ValueError("no value")
    """


def test_an_attribute_given_as_a_keyword_or_read_in_brackets_is_not_assigned_there() -> None:
    (layer,) = blanked_facts(GIVEN, "pkg/layer.py").classes
    # `tp_size=self.tp_size, head_dim=...` passes `self.tp_size` (once a tuple target's
    # shape: `self.x` followed by `, ... =` on its line); so do a line inside a call's
    # brackets, a slice, an f-string's `{self.tp_size=}`, a dict's key
    assert layer.attr_classes["tp_size"] == "get_tp_size()"
    assert layer.attr_classes["head_dim"] == ""  # a chain: said nothing of, but assigned
    # a tuple target starts its statement: after a line ending in `...` too
    assert layer.attr_classes["left"] == layer.attr_classes["right"] == ""
