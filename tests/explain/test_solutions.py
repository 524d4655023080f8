"""Solutions are ways out a user can take: a setting, the input, the environment; what no
user decides is context in "What it means", and a guard whose other branch fails is none."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.explain.knob_actions import knob_action
from errdex.explain.page import ConditionView, Knob, Page
from errdex.facts import ConditionKind, KnobKind
from errdex.store import Store

SHOP = {
    "shop/__init__.py": "",
    "shop/args.py": """
        from dataclasses import dataclass


        @dataclass
        class ShopArgs:
            enforce_eager: bool = False
            workers: int = 1


        class Shop:
            def __init__(self, name, enforce_eager=False, workers=1):
                self.args = ShopArgs(enforce_eager, workers)
        """,
    "shop/config.py": """
        import logging

        logger = logging.getLogger(__name__)


        class ShopConfig:
            def __post_init__(self):
                if self.model_config.enforce_eager:
                    self.compile_config.graph_mode = GraphMode.NONE
                    logger.info("Eager mode is the same as setting graph_mode=none")

            def check(self):
                if self.compile_config.graph_mode != GraphMode.NONE:
                    raise ValueError("profiling needs graphs off")
        """,
    "shop/client.py": """
        import logging
        import sys

        logger = logging.getLogger(__name__)

        MODES = ("fast", "safe")


        class Client:
            def __init__(self, timeout=None, http2=False):
                self.timeout = timeout
                self.http2 = http2

            def connect(self, url):
                if not isinstance(url, str):
                    raise TypeError(f"url must be a str, got {type(url)}")
                return url

            def open(self):
                if self.http2:
                    try:
                        import h2
                    except ImportError:
                        raise ImportError(
                            "Using http2=True, but h2 is not installed. "
                            "Make sure to install it using `pip install shop[http2]`."
                        )


        def check_mode(mode, size):
            if mode not in MODES:
                raise ValueError("unknown mode")
            # Sizes above a page are split by the caller: a bigger one is a bug upstream.
            if size > 4096:
                raise ValueError("size too big; use a size of at most 4096")


        def _drain(state):
            if state.ready:
                raise RuntimeError("drained twice")


        def to_text(data):
            if isinstance(data, str):
                return data
            elif isinstance(data, bytes):
                return data.decode()
            raise TypeError("data must be text")


        def take(count):
            if count > 0:
                raise ValueError("cannot take from a closed pool")


        def console():
            if sys.platform != "win32":
                raise ImportError("this console works only on Windows")


        def tune(dtype, size):
            if dtype != "half":
                logger.warning("tuning off: dtype %s", dtype)
                return
            if size > 64:
                logger.warning("tuning off: size %s is too big", size)


        def find(items, key):
            for item in items:
                if item == key:
                    break
            else:
                raise KeyError("no such key")
        """,
}


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("shop"), "shop", SHOP)


def page_of(store: Store, message: str) -> Page:
    return page_with_message(store, "shop", message)


def test_a_guard_whose_other_branch_raises_is_no_way_out(shop: Store) -> None:
    page = page_of(shop, "size too big")
    texts = [s.text for s in page.solutions]
    assert texts[0] == "Pass the argument `size` of `check_mode` at most `4096`."
    assert not any("mode" in t and "MODES" in t for t in texts)
    assert "The guard at line 32 is no way out" in page.what_it_means


def test_the_message_says_what_to_do(shop: Store) -> None:
    page = page_of(shop, "size too big")
    assert "Do what the message says: “use a size of at most 4096”" in [
        s.text for s in page.solutions
    ]


def test_the_comment_by_the_check_says_why(shop: Store) -> None:
    page = page_of(shop, "size too big")
    assert [(q.text, q.of, q.line) for q in page.why] == [
        (
            "Sizes above a page are split by the caller: a bigger one is a bug upstream.",
            "comment above the guard at line 35",
            34,
        )
    ]
    assert "Sizes above a page" not in page.what_it_means


def test_a_constant_gives_the_values_that_avoid_the_check(shop: Store) -> None:
    page = page_of(shop, "unknown mode")
    assert page.solutions[0].text == (
        "Pass the argument `mode` of `check_mode` as one of `'fast'`, `'safe'`."
    )
    assert page.solutions[0].kind == "input"


def test_a_type_check_on_an_argument_asks_for_that_type(shop: Store) -> None:
    page = page_of(shop, "url must be a str")
    assert [s.text for s in page.solutions] == [
        "Pass the argument `url` of `Client.connect` as an instance of `str`."
    ]


def test_a_chain_of_type_checks_asks_for_any_of_the_types(shop: Store) -> None:
    page = page_of(shop, "data must be text")
    assert page.solutions[0].text == (
        "Pass the argument `data` of `to_text` as an instance of one of `str`, `bytes`."
    )


def test_none_of_a_counted_thing_is_no_way_out(shop: Store) -> None:
    page = page_of(shop, "cannot take from a closed pool")
    assert not any("at most `0`" in s.text for s in page.solutions)


def test_a_platform_check_asks_for_that_platform(shop: Store) -> None:
    page = page_of(shop, "this console works only on Windows")
    assert [(s.kind, s.text) for s in page.solutions] == [
        (
            "environment",
            "Run it on Windows: the check at line 58 tests the machine, not your input.",
        )
    ]


def test_for_a_warning_a_branch_that_warns_too_is_no_way_out(shop: Store) -> None:
    page = page_of(shop, "tuning off: size")
    assert [s.text for s in page.solutions] == ["Pass the argument `size` of `tune` at most `64`."]
    assert "is no way out: its other branch fails as well" in page.what_it_means


def test_a_setting_that_assigns_the_attribute_elsewhere_is_the_way_out(shop: Store) -> None:
    page = page_of(shop, "profiling needs graphs off")
    first = page.solutions[0]
    assert (first.kind, first.knob) == ("setting", "--enforce-eager")
    assert first.text.startswith(
        "Pass `--enforce-eager` (shop/config.py:10 sets `self.compile_config.graph_mode = "
        "GraphMode.NONE` when `self.model_config.enforce_eager`; the code says: “Eager mode "
        "is the same as setting graph_mode=none”)"
    )
    assert page.example_fix is not None
    assert (
        page.example_fix.after == "from shop.args import Shop\nShop(name=NAME, enforce_eager=True)"
    )


def test_a_failed_import_asks_for_the_package_and_the_constructor_keyword(shop: Store) -> None:
    page = page_of(shop, "Using http2=True")
    kinds = [(s.kind, s.text) for s in page.solutions]
    # installing keeps the HTTP/2 the user asked for; leaving `http2` out gives it up, after
    assert kinds[0] == ("environment", "Run `pip install shop[http2]`, as the message says: "
                        "“Make sure to install it using `pip install shop[http2]`.”")  # fmt: skip
    assert kinds[-1] == (
        "input",
        "Pass an empty (false) value for the argument `http2` of `Client`, or leave it out (it "
        "is `False` by default).",
    )
    assert any(k == "environment" and "provides `h2`" in t for k, t in kinds)
    assert "It runs when importing `h2`" in page.what_it_means


def test_internal_state_is_context_not_a_solution(shop: Store) -> None:
    page = page_of(shop, "drained twice")
    assert page.solutions == []
    assert "The check applies only when `state.ready` is set" in page.what_it_means
    assert "So no solution is offered" in page.what_it_means


def test_a_page_with_a_way_out_does_not_say_none_is_offered(shop: Store) -> None:
    page = page_of(shop, "unknown mode")
    assert page.solutions
    assert "So no solution is offered" not in page.what_it_means


def test_a_site_in_a_for_else_is_not_said_to_be_unguarded(shop: Store) -> None:
    page = page_of(shop, "no such key")
    assert "nothing in its function guards it" not in page.what_it_means
    assert "in the `else` of the loop `for item in items`" in page.what_it_means


def test_a_field_of_a_json_valued_flag_is_set_in_its_json() -> None:
    knob = Knob(
        name="--compilation-config",
        kind=KnobKind.FLAG,
        behind="self.compilation_config",
        same_value=True,
        value_type="CompilationConfig",
    )
    condition = ConditionView(
        text="self.compilation_config.mode != 'none'",
        test="self.compilation_config.mode == 'none'",
        kind=ConditionKind.EARLY_EXIT,
        holds=False,
        line=3,
    )
    action = knob_action(condition, [knob])
    assert action is not None
    assert action.text.startswith('Pass `--compilation-config \'{"mode": "none"}\'`')
