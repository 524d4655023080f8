"""A check of `self.X` that the object's constructor kept from a parameter its builders
fill from a flag (`link.value_flow`): the way out is the flag, turned through a `not`."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import SERVE_CLI, indexed_package, page_with_message

from errdex.store import Store
from kept_attribute_samples import ARGS, ENGINE, RENDERER, SERVER

ENG = {
    **SERVE_CLI,
    "eng/args.py": ARGS,
    "eng/engine.py": ENGINE,
    "eng/render.py": RENDERER,
    "eng/server.py": SERVER,
    "eng/loggers.py": """
        class LoggerManager:
            def __init__(self, enable_default_loggers: bool = True, client_count: int = 1):
                self.loggers = []
                if enable_default_loggers and self.loggers is not None:
                    if client_count > 1:
                        raise ValueError("Stats of many clients are incomplete")
                    self.loggers.append(client_count)


        class AsyncEngine:
            def __init__(self, log_stats: bool, client_count: int = 1):
                self.manager = LoggerManager(enable_default_loggers=log_stats, client_count=2)

            @classmethod
            def from_engine_args(cls, engine_args):
                return cls(log_stats=not engine_args.disable_log_stats)
        """,
}


@pytest.fixture(scope="module")
def eng(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("eng"), "eng", ENG)


def test_an_attribute_kept_from_a_negated_flag_is_turned_by_leaving_the_flag_out(
    eng: Store,
) -> None:
    page = page_with_message(eng, "eng", "Stat logging disabled")
    texts = [s.text for s in page.solutions]
    assert texts, page
    assert texts[0].startswith("Do not pass `--disable-log-stats`"), texts
    # not offered: the internal constructor's keyword first
    assert "Pass a non-empty (true) value for the argument `log_stats`" not in texts[0]


def test_an_attribute_a_helper_is_given_is_the_flag_its_builder_reads(eng: Store) -> None:
    page = page_with_message(eng, "eng", "Per-request kwargs are disabled")
    texts = [s.text for s in page.solutions]
    assert texts and texts[0].startswith("Pass `--trust-request-kwargs`"), texts


def test_a_negated_flag_passed_on_to_a_branch_is_turned_once(eng: Store) -> None:
    page = page_with_message(eng, "eng", "Stats of many clients are incomplete")
    texts = [s.text for s in page.solutions]
    assert texts and texts[0].startswith("Pass `--disable-log-stats`"), texts
    # not said: the flag's own value followed down the branch as if it were the name's
    assert "no sure way out" not in page.what_it_means
