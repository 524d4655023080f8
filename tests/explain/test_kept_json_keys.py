"""A JSON flag's fix gives, in both lines, the other keys of the flag's object that the
check tests as yes/no values (`"pinned": true` where the check is `self.pinned and self.mode !=
"fast"`): without them the "before" line never meets the check. A key of a type not
known has no value sure to hold it: no fix then."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import SERVE_CLI, indexed_package, page_with_message

from errdex.explain.page import Page
from errdex.store import Store

CACHE = {
    **SERVE_CLI,
    "eng/args.py": """
        import json
        from dataclasses import dataclass

        from eng.cache import CacheConfig


        @dataclass
        class EngineArgs:
            cache_config: CacheConfig | None = None

            @staticmethod
            def add_cli_args(parser):
                parser.add_argument("--cache-config", type=json.loads)
                return parser
        """,
    "eng/cache.py": """
        from dataclasses import dataclass


        @dataclass
        class CacheConfig:
            offload: bool = True
            pinned: bool = False
            shared: bool | None = None
            pool: str | None = None
            mode: str = "fast"

            def __post_init__(self):
                if self.pinned and self.mode != "fast":
                    raise ValueError("pinned pages need the fast mode")
                if self.shared and not self.offload:
                    raise ValueError("shared pages require offload")
                if self.pool and not self.offload:
                    raise ValueError("a page pool requires offload")
        """,
}


@pytest.fixture(scope="module")
def eng(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("cache"), "eng", CACHE)


def page_of(store: Store, message: str) -> Page:
    return page_with_message(store, "eng", message)


def test_a_yes_no_key_the_check_tests_is_kept_in_both_lines(eng: Store) -> None:
    page = page_of(eng, "pinned pages")
    (fix,) = [s.fix for s in page.solutions if s.fix is not None and '"mode"' in s.fix.after]
    assert (
        fix.before == """eng serve MODEL_TAG --cache-config '{"pinned": true, "mode": "VALUE"}'"""
    )
    assert fix.after == """eng serve MODEL_TAG --cache-config '{"pinned": true, "mode": "fast"}'"""


def test_a_yes_no_or_none_key_is_kept_as_the_check_needs_it(eng: Store) -> None:
    # `shared: bool | None = None`: `true` is a value it takes, and what the check needs
    page = page_of(eng, "shared pages")
    (fix,) = [s.fix for s in page.solutions if s.fix is not None and '"offload"' in s.fix.after]
    assert (
        fix.before == """eng serve MODEL_TAG --cache-config '{"shared": true, "offload": false}'"""
    )
    assert fix.after == """eng serve MODEL_TAG --cache-config '{"shared": true, "offload": true}'"""


def test_no_fix_where_a_key_of_unknown_type_must_hold(eng: Store) -> None:
    page = page_of(eng, "a page pool requires")
    assert page.solutions  # the way out is still said
    assert page.example_fix is None
