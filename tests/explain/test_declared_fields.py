"""A check on `self.attr` where the class has no `__init__` of its own that says which
keyword set it: a dataclass's (or `Struct`'s) field, checked in its `__post_init__`, or a
base's keyword the class hands on through `**kwargs`. The way out is that keyword of the
user's call, with the fields the call must give in the example fix; a field the
`__post_init__` assigns before the check, or an attribute the class's own constructor
assigns, is not the keyword as given."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

REQ = {
    "req/__init__.py": """
        from req.core import Option
        from req.request import Adapter, Request, Sampling, Spec
        """,
    "req/request.py": """
        from dataclasses import dataclass, field

        import msgspec


        class Adapter(msgspec.Struct, omit_defaults=True):
            name: str
            slot: int
            path: str = ""

            def __post_init__(self):
                if self.slot < 1:
                    raise ValueError(f"slot must be > 0, got {self.slot}")
                assert self.path, "path cannot be empty"


        @dataclass
        class Request:
            prompt: str
            budget: int = 16
            _seen: int = field(default=0, init=False)

            def __post_init__(self):
                if self.budget > 4096:
                    raise ValueError(f"budget too large: {self.budget}")


        class Sampling(msgspec.Struct):
            n: int = 1
            top_k: int = 0
            max_tokens: int | None = 16

            def __post_init__(self):
                if self.top_k < 0:
                    self.top_k = 0
                self._verify()

            def _verify(self):
                if self.n < 1:
                    raise ValueError(f"n must be at least 1, got {self.n}.")
                if self.top_k > 100:
                    raise ValueError("top_k too large")
                if self.max_tokens is not None and self.max_tokens < 1:
                    raise ValueError("max_tokens must be at least 1")

            def later(self):
                if self.n > 8:
                    raise ValueError("n too large for later")


        @dataclass
        class Spec:
            width: int = 0

            def __post_init__(self):
                self.width = self.width or 8
                if self.width > 64:
                    raise ValueError("a spec too wide")
        """,
    "req/core.py": """
        class Parameter:
            def __init__(self, decls=None, nargs=None, required=False):
                if nargs is None:
                    nargs = 1
                self.nargs = nargs
                self.required = required


        class Option(Parameter):
            def __init__(self, decls=None, count=False, **attrs):
                super().__init__(decls, **attrs)
                if count:
                    self.required = False
                if self.nargs == -1:
                    raise TypeError("nargs=-1 is not supported for options.")
                if self.required and count:
                    raise TypeError("a required counter")
        """,
    "req/base.py": """
        class Query:
            def __init__(self, entities, session=None):
                self.session = session

            def first(self):
                if not self.session:
                    raise LookupError("no session to query")


        class Made:
            def __init__(self, registry=None):
                self.registry = registry
        """,
    "req/sharded.py": """
        from typing import TypeVar

        from .base import Made, Query

        T = TypeVar("T")


        class ShardedSession:
            pass


        class ShardedQuery(Query[T]):
            def __init__(self, *args, **kwargs):
                super().__init__(*args, **kwargs)
                if not isinstance(self.session, ShardedSession):
                    raise TypeError("a sharded query runs on a sharded session")


        class Named(Made):
            def __init__(self, registry, **kwargs):
                super().__init__(**kwargs)
                if not isinstance(self.registry, ShardedSession):
                    raise TypeError("a named thing needs a sharded registry")
        """,
    "req/ext/__init__.py": "",
    "req/ext/horizontal.py": """
        from ..base import Query

        __all__ = ["DeepQuery"]


        class DeepSession:
            pass


        class DeepQuery(Query):
            def __init__(self, *args, **kwargs):
                super().__init__(*args, **kwargs)
                if not isinstance(self.session, DeepSession):
                    raise TypeError("a deep query runs on a deep session")


        class InnerQuery(Query):
            def __init__(self, *args, **kwargs):
                super().__init__(*args, **kwargs)
                if not isinstance(self.session, DeepSession):
                    raise TypeError("an inner query runs on a deep session")
        """,
}


@pytest.fixture(scope="module")
def req(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("declared"), "req", REQ)


def test_a_struct_field_checked_after_construction_is_the_keyword_of_the_call(req: Store) -> None:
    page = page_with_message(req, "req", "path cannot be empty")
    # before: "errdex found no setting or argument a user passes behind that ... worth
    # reporting to the project"
    assert page.solutions[0].text == (
        "Pass a non-empty (true) value for the argument `path` of `Adapter`."
    )
    assert "worth reporting" not in page.what_it_means


def test_the_fix_gives_the_fields_without_default_and_those_the_check_refuses_empty(
    req: Store,
) -> None:
    page = page_with_message(req, "req", "slot must be > 0")
    assert page.solutions[0].text == "Pass the argument `slot` of `Adapter` at least `1`."
    fix = page.example_fix
    assert fix is not None
    assert "Adapter(name=NAME, path=PATH, slot=1)" in fix.after


def test_a_dataclass_field_is_the_keyword_and_a_field_not_in_init_is_left_alone(
    req: Store,
) -> None:
    page = page_with_message(req, "req", "budget too large")
    assert page.solutions[0].text == "Pass the argument `budget` of `Request` at most `4096`."


def test_a_field_the_post_init_assigns_first_is_not_the_keyword_as_given(req: Store) -> None:
    page = page_with_message(req, "req", "a spec too wide")
    assert not any("`width` of `Spec`" in s.text for s in page.solutions)


def test_a_base_keyword_handed_on_through_kwargs_is_the_keyword_of_the_call(req: Store) -> None:
    page = page_with_message(req, "req", "nargs=-1 is not supported")
    assert page.solutions[0].text == "Pass the argument `nargs` of `Option` other than `-1`."


def test_an_attribute_the_class_assigns_itself_is_not_the_base_keyword(req: Store) -> None:
    page = page_with_message(req, "req", "a required counter")
    assert not any("`required` of `Option`" in s.text for s in page.solutions)


def test_a_check_the_post_init_runs_itself_reads_the_fields_as_given(req: Store) -> None:
    page = page_with_message(req, "req", "n must be at least 1")
    assert page.solutions[0].text == "Pass the argument `n` of `Sampling` at least `1`."
    fix = page.example_fix
    assert fix is not None and "Sampling(n=1)" in fix.after
    # a field the `__post_init__` sets before the call is no longer the keyword as given
    page = page_with_message(req, "req", "top_k too large")
    assert not any("`top_k` of `Sampling`" in s.text for s in page.solutions)
    # a method the object's user calls later reads what the object became since
    page = page_with_message(req, "req", "n too large for later")
    assert not any("`n` of `Sampling`" in s.text for s in page.solutions)


def test_a_bound_on_an_optional_field_keeps_the_limit_rather_than_none(req: Store) -> None:
    page = page_with_message(req, "req", "max_tokens must be at least 1")
    # before the bound was preferred: "Pass None for the argument `max_tokens` ..."
    assert page.solutions[0].text == ("Pass the argument `max_tokens` of `Sampling` at least `1`.")


def test_a_keyword_handed_to_a_base_of_another_module_is_the_keyword_of_the_call(
    req: Store,
) -> None:
    # the base's constructor (`Query.__init__` of `req/base.py`, a generic written
    # `Query[T]`) keeps the `session` handed on through `**kwargs`; before: no solution
    page = page_with_message(req, "req", "a sharded query runs on a sharded session")
    assert page.solutions[0].text == (
        "Pass the argument `session` of `ShardedQuery` as an instance of `ShardedSession`."
    )
    # a keyword the class takes itself and does not hand on is not the base's (`Named`'s
    # own `registry` stays out of `**kwargs`: the base's is None)
    page = page_with_message(req, "req", "a named thing needs a sharded registry")
    assert not any("`registry` of `Named`" in s.text for s in page.solutions)


def test_a_keyword_of_a_class_a_librarys_deep_module_exports_is_the_keyword_of_the_call(
    req: Store,
) -> None:
    # `req.ext.horizontal` lists `DeepQuery` in its `__all__`: a class users make, three
    # dots deep (before: no solution); its other class is its own: no call a user writes
    solutions = {
        owner: [s.text for s in page_with_message(req, "req", message).solutions]
        for owner, message in (
            ("DeepQuery", "a deep query runs on a deep session"),
            ("InnerQuery", "an inner query runs on a deep session"),
        )
    }
    assert solutions["DeepQuery"][:1] == [
        "Pass the argument `session` of `DeepQuery` as an instance of `DeepSession`."
    ]
    assert not any("`session` of `InnerQuery`" in text for text in solutions["InnerQuery"])
