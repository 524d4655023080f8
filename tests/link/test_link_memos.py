"""What the linker works out once for many sites (per exception name, per function, per
condition text) gives each site the answer it would get alone."""

from __future__ import annotations

import textwrap

import pytest

import errdex.link.guards as guards
import errdex.link.returned as returned
import errdex.link.tests as expected_errors
from errdex.extract import extract_file
from errdex.facts import Condition, ConditionKind
from errdex.link import link_version
from errdex.link.named import NamedSettings
from errdex.link.passed import ParsedTests
from errdex.link.requests import _attributes
from errdex.link.resolve import Namespace
from errdex.link.tests import TestIndex as ExpectedErrors
from errdex.linked_facts import IndexedSite


def link(files: dict[str, str]) -> dict[str, IndexedSite]:
    return {s.site.message.text: s for s in every_site(files) if s.site.message is not None}


def every_site(files: dict[str, str]) -> list[IndexedSite]:
    data = {path: textwrap.dedent(text).encode() for path, text in files.items()}
    return link_version("shop", [extract_file(p, t) for p, t in data.items()], texts=data)


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


def test_a_plain_name_is_a_setting_only_through_what_a_module_binds_by_it() -> None:
    sites = link(
        {
            "shop/envs.py": """
            import os

            SHOP_DEBUG = os.getenv("SHOP_DEBUG")
            """,
            "shop/cart.py": """
            import os
            from shop.envs import SHOP_DEBUG

            try:
                import ujson
            except ImportError:
                ujson = None

            SHOP_FAST = os.getenv("SHOP_FAST")

            def dump(items):
                if ujson is None:
                    raise RuntimeError("install ujson")

            def add(count, items):
                if SHOP_FAST and len(items) > count:
                    raise ValueError("too many items")

            def check():
                if SHOP_DEBUG:
                    raise ValueError("debug only")

            def count_of(count, items):
                if isinstance(count, str) and len(items):
                    raise TypeError("count is text")
            """,
        }
    )

    def knobs(message: str) -> set[tuple[str, str]]:
        return {(k.name, k.behind) for k in sites[message].knobs}

    assert knobs("install ujson") == {("ujson", "ujson")}
    assert knobs("too many items") == {("SHOP_FAST", "SHOP_FAST")}
    assert knobs("debug only") == {("SHOP_DEBUG", "SHOP_DEBUG")}
    assert knobs("count is text") == set()  # `isinstance`, `len`, `count`: none


def test_the_sites_of_one_function_share_its_nearest_callers() -> None:
    sites = link(
        {
            "shop/cart.py": """
            def check(count):
                if count <= 0:
                    raise ValueError("count must be positive")
                if count > 9:
                    raise ValueError("too many items")

            def add(count):
                check(count)

            def refill(count):
                check(count)

            def order():
                refill(3)
            """,
        }
    )
    low, high = sites["count must be positive"], sites["too many items"]
    assert low.callers == ("shop.cart.add", "shop.cart.refill")  # one level up only
    assert high.callers is low.callers  # made once for the function
    assert {c.function for c in low.caller_links} == {"add", "refill", "order"}


def test_a_pattern_of_escaped_punctuation_is_matched_as_its_text() -> None:
    sites = link(
        {
            "shop/plan.py": """
            def run(planned):
                if not planned:
                    raise RuntimeError("plan() must be called before run()")
                if planned > 9:
                    raise RuntimeError("plan(x) must be called once")
            """,
            "tests/test_plan.py": """
            import pytest
            from shop.plan import run

            def test_unplanned():
                with pytest.raises(RuntimeError, match=r"plan\\(\\) must be called"):
                    run(0)

            def test_dotted():
                with pytest.raises(RuntimeError, match=r"plan\\(.\\) must"):
                    run(10)
            """,
        }
    )
    assert [t.function for t in sites["plan() must be called before run()"].tests] == [
        "test_unplanned"
    ]
    assert [t.function for t in sites["plan(x) must be called once"].tests] == ["test_dotted"]
    index = ExpectedErrors([])
    # searched as text, with no regex search (nor its clock)
    assert index._compile(r"plan\(\) must be \#1 \- or \\ not") == r"plan() must be #1 - or \ not"
    assert not isinstance(index._compile(r"plan\(.\) must"), str)  # `.` is any character
    assert not isinstance(index._compile(r"count \d+"), str)  # `\d` is a class


def _counted(monkeypatch: pytest.MonkeyPatch, owner: object, name: str) -> list[tuple[object, ...]]:
    """The arguments of each call of `owner.name` while the test runs."""
    calls: list[tuple[object, ...]] = []
    original = getattr(owner, name)

    def counted(*args: object) -> object:
        calls.append(args)
        return original(*args)

    monkeypatch.setattr(owner, name, counted)
    return calls


def test_a_message_several_sites_raise_is_matched_against_the_tests_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    searched = _counted(monkeypatch, expected_errors, "_search")
    sites = every_site(
        {
            "shop/cart.py": """
            def add(count):
                if count <= 0:
                    raise ValueError("count must be positive")

            def remove(count):
                if count <= 0:
                    raise ValueError("count must be positive")
            """,
            "tests/test_cart.py": """
            import pytest
            from shop.cart import add

            def test_zero():
                with pytest.raises(ValueError, match=r"must be \\w+"):
                    add(0)
            """,
        }
    )
    raised = [s for s in sites if s.file == "shop/cart.py"]
    assert [[t.function for t in s.tests] for s in raised] == [["test_zero"], ["test_zero"]]
    assert [text for _, text in searched] == ["count must be positive"]  # once for both


def test_the_settings_a_message_names_are_read_once_for_its_sites(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    named = _counted(monkeypatch, NamedSettings, "named")
    sites = every_site(
        {
            "shop/cart.py": """
            import os

            FAST = os.getenv("SHOP_FAST_MODE")

            def add(count):
                if count <= 0:
                    raise ValueError("count must be positive unless SHOP_FAST_MODE is set")

            def remove(count):
                if count <= 0:
                    raise ValueError("count must be positive unless SHOP_FAST_MODE is set")
            """,
        }
    )
    assert [[k.name for k in s.knobs] for s in sites] == [["SHOP_FAST_MODE"]] * 2
    assert len(named) == 1


def test_a_local_naming_no_function_that_returns_a_text_is_not_parsed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    parsed = _counted(monkeypatch, returned, "parse_expression")
    sites = link(
        {
            "shop/keys.py": """
            def check_key(key):
                if len(key) < 32:
                    return f"The key is {len(key)} bytes long, below 32 bytes."
                return None

            def sign(key, strict):
                key_msg = check_key(key)
                if strict:
                    raise ValueError(key_msg)

            def verify(key, strict):
                other_msg = describe(key)
                if strict:
                    raise KeyError(other_msg)
            """,
        }
    )
    assert [f.text.text for f in sites["{key_msg}"].shown] == [
        "The key is {len(key)} bytes long, below 32 bytes."
    ]
    assert sites["{other_msg}"].shown == ()
    assert parsed == [("check_key(key)",)]  # `describe(key)` names no such function


def test_a_helper_s_guard_naming_none_of_a_call_s_arguments_is_parsed_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    bound = _counted(monkeypatch, guards, "_bind")
    condition = Condition(test="shop_ready_once", kind=ConditionKind.IF, holds=False, line=3)
    first = guards.bind_guard(condition, {"message": "'no stock'", "code": "3"})
    second = guards.bind_guard(condition, {"message": "'no money'", "code": "4"})
    assert (
        first
        == second
        == (
            Condition(
                test="shop_ready_once",
                kind=ConditionKind.IF,
                holds=False,
                line=3,
                text="not shop_ready_once",
            ),
            None,
        )
    )
    assert len(bound) == 1
    # an argument that does not parse still leaves the guard as it is, named in it or not
    assert guards.bind_guard(condition, {"message": "not ("}) == (condition, None)


def test_a_call_of_what_a_module_imports_from_outside_is_not_looked_up(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    asked = _counted(monkeypatch, Namespace, "lookup")
    sites = link(
        {
            "shop/cart.py": """
            import torch
            from shop import checks

            def add(items):
                torch.cat(items)
                checks.check(items)
            """,
            "shop/checks.py": """
            def check(items):
                if not items:
                    raise ValueError("no items")
            """,
        }
    )
    assert [c.function for c in sites["no items"].caller_links] == ["add"]
    assert not [q for _, q in asked if str(q).startswith("torch")]
