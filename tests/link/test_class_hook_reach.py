"""The class-creation hook nearest a raise at any depth: a metaclass's `__new__` or a
base's `__init_subclass__` some chain of calls reaches the raise from, further up than
the three callers a page keeps; none for a function no hook reaches, nor a plain class's
`__init__`."""

from __future__ import annotations

import textwrap
from typing import Any

import pytest

from errdex.extract import extract_file
from errdex.link import link_version
from errdex.link.callers import CallerIndex
from errdex.linked_facts import IndexedSite

FILES = {
    "made/__init__.py": "",
    "made/_meta.py": """
        from made._steps import one


        class Meta(type):
            def __new__(mcs, name, bases, namespace):
                cls = super().__new__(mcs, name, bases, namespace)
                one(cls)
                return cls


        class Plain:
            def __init__(self):
                from made._steps import lonely

                lonely(self)


        class Base:
            def __init_subclass__(cls, **kwargs):
                from made._steps import three

                three(cls)
        """,
    "made/_steps.py": """
        def one(cls):
            two(cls)


        def two(cls):
            three(cls)


        def three(cls):
            four(cls)


        def four(cls):
            if getattr(cls, "bad", False):
                raise TypeError("bad class")


        def lonely(obj):
            if obj is None:
                raise ValueError("no object")
        """,
}


def _sites() -> dict[str, IndexedSite]:
    facts = [extract_file(p, textwrap.dedent(t).encode()) for p, t in FILES.items()]
    return {s.site.message.text: s for s in link_version("made", facts) if s.site.message}


def test_the_nearest_hook_at_any_depth() -> None:
    hook = _sites()["bad class"].class_hook
    assert hook is not None
    # `Base.__init_subclass__` calls `three`: two calls above `four`, nearer than `Meta`'s
    assert (hook.function, hook.depth, hook.calls) == (
        "Base.__init_subclass__",
        2,
        "made._steps.three",
    )


def test_a_plain_class_init_is_no_hook() -> None:
    assert _sites()["no object"].class_hook is None


# A hook that hands the build on as a callback (`partial(gen.generate, ...)` of a local
# generator) instead of calling it: the handler calls it back.
HANDED = {
    "handed/__init__.py": "",
    "handed/_meta.py": """
        from functools import partial

        from handed._build import Generator, Handler


        class Meta(type):
            def __new__(mcs, name, bases, namespace):
                cls = super().__new__(mcs, name, bases, namespace)
                gen = Generator(cls)
                Handler(partial(gen.generate, strict=False))
                return cls
        """,
    "handed/_build.py": """
        class Handler:
            def __init__(self, generate):
                self.generate = generate


        class Generator:
            def __init__(self, cls):
                self.cls = cls

            def generate(self, tp, strict=True):
                if getattr(tp, "bad", False):
                    raise TypeError("bad type")
        """,
}


def test_a_method_handed_on_as_a_callback() -> None:
    facts = [extract_file(p, textwrap.dedent(t).encode()) for p, t in HANDED.items()]
    sites = {s.site.message.text: s for s in link_version("handed", facts) if s.site.message}
    hook = sites["bad type"].class_hook
    assert hook is not None
    assert (hook.function, hook.depth, hook.calls) == (
        "Meta.__new__",
        1,
        "handed._build.Generator.generate",
    )


def test_only_the_calls_of_the_hooks_and_what_they_reach_are_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the walk reads a function's calls at its first visit, not every call of the version
    read: list[tuple[str, str]] = []
    outgoing = CallerIndex._outgoing

    def counted(self: CallerIndex, caller: tuple[str, str], *rest: Any) -> Any:
        read.append(caller)
        return outgoing(self, caller, *rest)

    monkeypatch.setattr(CallerIndex, "_outgoing", counted)
    hook = _sites()["bad class"].class_hook
    assert hook is not None and hook.function == "Base.__init_subclass__"
    assert set(read) == {
        ("made._meta", "Meta.__new__"),
        ("made._meta", "Base.__init_subclass__"),
        ("made._steps", "one"),
        ("made._steps", "two"),
        ("made._steps", "three"),
        ("made._steps", "four"),
    }
    assert len(read) == len(set(read))  # each once
