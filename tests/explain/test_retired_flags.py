"""A flag the program still accepts but whose declaration calls it deprecated and without
effect is no way out: the page says so and offers the flag its deprecation names instead;
at the deprecation's own warning, leaving the flag out stays the way out."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

ENG = {
    "eng/__init__.py": "",
    "eng/config.py": """
        from dataclasses import dataclass


        @dataclass
        class CacheConfig:
            cache_mode: str = "none"
            \"\"\"The cache strategy, derived from `enable_caching`.\"\"\"
            enable_caching: bool = False


        class EngineConfig:
            def __init__(self, cache_config):
                self.cache_config = cache_config

            def check_mode(self):
                if self.cache_config.cache_mode == "align":
                    raise ValueError("align mode needs a block size of 16")
        """,
    "eng/args.py": """
        import argparse
        import logging
        from dataclasses import dataclass

        logger = logging.getLogger(__name__)

        _CACHE_MODE_DEPRECATION = (
            "--cache-mode is deprecated. "
            "It has no effect: caching follows --enable-caching."
        )


        @dataclass
        class EngineArgs:
            cache_mode: str | None = None
            enable_caching: bool = False

            @staticmethod
            def add_cli_args(parser: argparse.ArgumentParser) -> None:
                parser.add_argument("--enable-caching", action="store_true")
                parser.add_argument(
                    "--cache-mode",
                    **{"default": None, "help": _CACHE_MODE_DEPRECATION},
                )

            def create_cache_config(self):
                if self.cache_mode is not None:
                    logger.warning(_CACHE_MODE_DEPRECATION)
        """,
}


@pytest.fixture(scope="module")
def eng(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("eng"), "eng", ENG)


def test_a_deprecated_flag_is_no_way_out(eng: Store) -> None:
    page = page_with_message(eng, "eng", "align mode needs")
    texts = [s.text for s in page.solutions]
    assert not any("--cache-mode" in t and "instead" not in t for t in texts), texts
    assert texts[0].startswith("Change `--enable-caching` instead")
    assert "`--cache-mode` is deprecated in this version and decides nothing" in (
        page.what_it_means
    )
    assert page.example_fix is None or "--cache-mode" not in page.example_fix.after


def test_leaving_it_out_silences_its_own_warning(eng: Store) -> None:
    page = page_with_message(eng, "eng", "--cache-mode is deprecated")
    assert page.solutions and "--cache-mode" in page.solutions[0].text
