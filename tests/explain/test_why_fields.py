"""The docstring of a field of `self` a check tests, quoted as its why."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.explain.why_fields import self_reads
from errdex.store import Store

FIELDS = {
    "cfg/__init__.py": "",
    "cfg/compile.py": '''
        from dataclasses import dataclass


        @dataclass
        class BaseConfig:
            level: int = 0
            """The optimization level. The passes `fusion` turns on only run at level 3,
            where the graph is captured whole."""


        @dataclass
        class CompileConfig(BaseConfig):
            custom_ops: list = None
            """Fine-grained control over which custom ops to enable. An op named twice
            cannot be told apart: "+op" enables it and "-op" disables it."""

            backend: str = "inductor"
            """The backend to compile with."""

            cache_dir: str = ""
            """Where the compiled graphs are kept between runs; must be writable."""

            def check_ops(self):
                if len(set(self.custom_ops)) != len(self.custom_ops):
                    raise ValueError("an op is named twice in custom_ops")

            def check_backend(self):
                if self.backend not in ("inductor", "eager"):
                    raise ValueError("unknown backend")

            def check_cache(self):
                if not self.cache_dir:
                    raise ValueError("no cache_dir given")

            min_size: int = 0
            """The least size. Must be <= max_size."""

            max_size: int = 0

            allowed_sizes: list = None
            """Sizes that are allowed; any other size is refused."""

            def check_sizes(self):
                if self.min_size > self.max_size:
                    raise ValueError("the least size must not exceed the largest")

            def check_device(self):
                if self.min_size or self.allowed_sizes:
                    raise ValueError("min_size and allowed_sizes are not supported here")

            def check_level(self, fusion):
                if fusion and self.level != 3:
                    raise ValueError("fusion needs level 3")
        ''',
}


@pytest.fixture(scope="module")
def cfg(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("cfg"), "cfg", FIELDS)


def quotes(store: Store, message: str) -> list[tuple[str, str]]:
    return [(q.of, q.text) for q in page_with_message(store, "cfg", message).why]


def test_the_docstring_under_a_tested_field_that_speaks_of_the_check(cfg: Store) -> None:
    # it shares "named twice" with the message beyond the field's own name (`custom_ops`)
    # and states a limit ("cannot")
    assert quotes(cfg, "an op is named twice") == [
        (
            "doc of the field `custom_ops`",
            "Fine-grained control over which custom ops to enable. An op named twice cannot "
            'be told apart: "+op" enables it and "-op" disables it.',
        )
    ]
    # of a base class the same file declares
    assert quotes(cfg, "fusion needs level") == [
        (
            "doc of the field `level`",
            "The optimization level. The passes `fusion` turns on only run at level 3, where "
            "the graph is captured whole.",
        )
    ]


def test_a_short_limit_naming_another_tested_field_is_quoted_whole(cfg: Store) -> None:
    # the whole paragraph: its limit alone is a sentence of three words
    assert quotes(cfg, "the least size must not") == [
        ("doc of the field `min_size`", "The least size. Must be <= max_size.")
    ]


def test_no_docstring_that_shares_only_the_tested_fields_names(cfg: Store) -> None:
    # a message listing the fields it refuses shares their words ("sizes", "allowed") with
    # each field's doc, which says what the field is, not why it is refused here
    assert quotes(cfg, "min_size and allowed_sizes") == []


def test_no_docstring_that_says_only_what_the_field_is(cfg: Store) -> None:
    # "The backend to compile with." shares only the field's own name and gives no reason
    assert quotes(cfg, "unknown backend") == []
    # "must be writable" is a reason, but of another check: it shares no word of this one
    # beyond the field's name
    assert quotes(cfg, "no cache_dir given") == []


def test_the_fields_a_condition_reads_not_the_methods_it_calls() -> None:
    assert sorted(self_reads(["self.a.b > self.limit", "self.check(x) or self.a"])) == [
        "a",
        "limit",
    ]
