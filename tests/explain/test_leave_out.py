"""A solution never says to leave out what may keep the check failing: a parameter whose
default does not make the condition false (or is not known), a required argument whose
attribute the check reads, or a flag's value None (no command line gives one); it does
where the default avoids the check."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.explain.page import Page
from errdex.store import Store

GATE = {
    "gate/__init__.py": "",
    "gate/kernel.py": """
        class Forward:
            def __init__(self, topk_length, is_gather=True):
                self.topk_length = topk_length
                self.is_gather = is_gather
                self.block = 64
                if self.topk_length % self.block != 0 and self.is_gather:
                    raise ValueError("topk length must be a multiple of 64 when gathering")


        def pick(name, mode=3):
            if mode is not None:
                raise ValueError("pick takes no mode here")
            return name


        def fetch(url, proxy=None, verify=False, timeout=None):
            if timeout is None:
                timeout = 5.0
            if proxy is not None:
                raise ValueError("fetch takes no proxy here")
            if verify:
                raise ValueError("fetch cannot verify here")
            if timeout is not None:
                raise ValueError("fetch takes no timeout here")
            return url


        def render(text, links=True, wrap=False):
            if not links:
                raise ValueError("render needs links here")
            if not wrap:
                raise ValueError("render needs wrapping here")
            return text


        class Engram:
            def verify(self, parallel_config):
                if parallel_config.elastic:
                    raise ValueError("elastic parallelism is not supported")
                if parallel_config.rank is not None:
                    raise ValueError("a fixed rank is not supported")
        """,
    "gate/cli.py": """
        import argparse


        def parser():
            p = argparse.ArgumentParser()
            p.add_argument("--dataset-name", default="random")
            p.add_argument("--self-timed", action=argparse.BooleanOptionalAction, default=None)
            return p


        def run(args):
            if args.self_timed is not None:
                raise ValueError("--self-timed/--no-self-timed needs a timed dataset")
        """,
}


@pytest.fixture(scope="module")
def gate(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("gate"), "gate", GATE)


def page_of(store: Store, message: str) -> Page:
    return page_with_message(store, "gate", message)


def texts(page: Page) -> list[str]:
    return [s.text for s in page.solutions]


def test_a_parameter_on_by_default_is_turned_off_not_left_out(gate: Store) -> None:
    # `is_gather` defaults to True: leaving it out fails the same check
    page = page_of(gate, "topk length must be")
    # (the message's own requirement of `topk_length` follows: `stated_requirement`)
    assert texts(page)[0] == (
        "Pass `False` for the argument `is_gather` of `Forward` (it is on by default)."
    )
    assert not any("leave it out" in t.lower() for t in texts(page))
    assert page.example_fix is not None
    assert "is_gather=False" in page.example_fix.after
    assert page.example_fix.after != page.example_fix.before


def test_a_default_that_avoids_the_check_is_left_out(gate: Store) -> None:
    proxy = page_of(gate, "fetch takes no proxy")
    assert texts(proxy) == [
        "Leave the argument `proxy` of `fetch` out (it is None by default), or pass None."
    ]
    assert proxy.example_fix is not None
    assert "proxy=" not in proxy.example_fix.after
    assert "proxy=PROXY" in proxy.example_fix.before
    verify = page_of(gate, "fetch cannot verify")
    assert texts(verify) == [
        "Pass an empty (false) value for the argument `verify` of `fetch`, or leave it out "
        "(it is `False` by default)."
    ]


def test_a_parameter_rebound_before_the_check_has_no_default_to_lean_on(gate: Store) -> None:
    # `timeout` is set to 5.0 when left out: its written default says nothing
    for text in texts(page_of(gate, "fetch takes no timeout")):
        assert "leave it out" not in text and "by default" not in text


def test_a_value_not_none_asks_for_none_not_for_leaving_out(gate: Store) -> None:
    page = page_of(gate, "pick takes no mode")
    assert texts(page)[0] == "Pass None for the argument `mode` of `pick`."
    assert not any("out" in t for t in texts(page))


def test_a_condition_on_an_attribute_of_an_argument_is_about_the_attribute(gate: Store) -> None:
    elastic = texts(page_of(gate, "elastic parallelism"))
    assert (
        "Pass for the argument `parallel_config` of `Engram.verify` a value whose `elastic` "
        "is false (empty)." in elastic
    )
    rank = texts(page_of(gate, "a fixed rank"))
    assert (
        "Pass for the argument `parallel_config` of `Engram.verify` a value whose `rank` "
        "is None." in rank
    )
    for text in elastic + rank:
        assert "leave it out" not in text and "out, or None" not in text


def test_a_flag_is_never_given_the_value_none(gate: Store) -> None:
    page = page_of(gate, "--self-timed/--no-self-timed")
    assert not any("None`" in t for t in texts(page))
    assert any(t.startswith("Do not pass `--self-timed` in any form") for t in texts(page))


def test_a_value_wanted_true_is_left_out_only_where_the_default_is_true(gate: Store) -> None:
    assert texts(page_of(gate, "render needs links")) == [
        "Pass a non-empty (true) value for the argument `links` of `render`, or leave it out "
        "(it is `True` by default)."
    ]
    assert texts(page_of(gate, "render needs wrapping")) == [
        "Pass a non-empty (true) value for the argument `wrap` of `render`."
    ]


def test_a_switch_on_by_default_that_the_call_turned_off_is_turned_back_on(gate: Store) -> None:
    fix = page_of(gate, "render needs links").example_fix
    assert fix is not None
    assert fix.before == "from gate.kernel import render\nrender(text=TEXT, links=False)"
    assert fix.after == "from gate.kernel import render\nrender(text=TEXT, links=True)"
    # a default not known to be on gives no exact value to write
    assert page_of(gate, "render needs wrapping").example_fix is None
