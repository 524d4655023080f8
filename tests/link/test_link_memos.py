"""What the linker works out once for many sites (per exception name, per function, per
condition text) gives each site the answer it would get alone."""

from __future__ import annotations

import textwrap

from errdex.extract import extract_file
from errdex.facts import Condition, ConditionKind
from errdex.link import link_version
from errdex.link.passed import ParsedTests
from errdex.link.requests import _attributes
from errdex.linked_facts import IndexedSite


def link(files: dict[str, str]) -> dict[str, IndexedSite]:
    data = {path: textwrap.dedent(text).encode() for path, text in files.items()}
    sites = link_version("shop", [extract_file(p, t) for p, t in data.items()], texts=data)
    return {s.site.message.text: s for s in sites if s.site.message is not None}


def test_each_message_gets_the_tests_of_its_exception_that_match_it() -> None:
    sites = link(
        {
            "shop/cart.py": """
            def add(count):
                if count <= 0:
                    raise ValueError(f"count must be positive, got {count}")
                if count > 9:
                    raise ValueError("too many items")
            """,
            "tests/test_cart.py": """
            import pytest
            from shop.cart import add

            def test_zero():
                with pytest.raises(ValueError, match="must be positive"):
                    add(0)

            def test_many():
                with pytest.raises(ValueError, match=r"too \\w+ items"):
                    add(10)

            def test_bad():
                with pytest.raises(ValueError, match="items ("):
                    add(11)
            """,
        }
    )
    assert [t.function for t in sites["count must be positive, got {count}"].tests] == ["test_zero"]
    assert [t.function for t in sites["too many items"].tests] == ["test_many"]


def test_a_condition_s_attributes_are_read_alike_each_time() -> None:
    assert _attributes("self.a.b is None and cfg.mode") == (("self", "a"), ("cfg", "mode"))
    assert _attributes("self.a.b is None and cfg.mode") == (("self", "a"), ("cfg", "mode"))
    assert _attributes("x > 1") == ()


def test_a_site_s_tests_are_those_of_its_conditions_that_parse() -> None:
    conditions = (
        Condition(test="mode == 'x'", kind=ConditionKind.IF, holds=True, line=2),
        Condition(test="not (", kind=ConditionKind.IF, holds=True, line=3),
        Condition(test="n", kind=ConditionKind.IF, holds=False, line=4),
    )
    tests = ParsedTests(conditions)
    first = [type(t).__name__ for t in tests]
    assert first == ["Compare", "Name"]
    assert [type(t).__name__ for t in tests] == first  # read again: the same parse
