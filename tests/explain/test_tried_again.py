"""A guard before a `try` whose other branch runs the `try`'s own call is no way out of
a failure under its `except`; a key a constructor keeps of a JSON-valued flag's dict is
offered where the user writes it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import SERVE_CLI, build_page, indexed_package, page_with_message

from errdex.store import Store
from samples import DICT_ARGS

ENG = {
    **SERVE_CLI,
    "eng/args.py": DICT_ARGS,
    "eng/loader.py": """
        import logging
        from copy import copy

        from eng.args import LoadConfig

        logger = logging.getLogger(__name__)


        def with_wait(op):
            return op()


        class Loader:
            def __init__(self, load_config: LoadConfig):
                extra_config = copy(load_config.loader_extra_config or {})
                self.fallback: bool = extra_config.pop("fallback", True)
                self.verbose: bool = extra_config.pop("verbose", False)

            def memory(self):
                if not self.fallback:
                    return with_wait(self._query)
                try:
                    return self._query()
                except OSError as e:
                    logger.warning("Cannot query the daemon (%s); assuming none", e)
                    return 0

            def size(self):
                if self.verbose:
                    return self._describe()
                try:
                    return self._query()
                except OSError as e:
                    logger.warning("Cannot size the daemon (%s); assuming none", e)
                    return 0

            def count(self):
                if self.verbose:
                    return self._describe()
                try:
                    self._describe()
                    return self._query()
                except OSError as e:
                    logger.warning("Cannot count the daemon (%s); assuming none", e)
                    return 0

            def load(self):
                try:
                    return self._load()
                except OSError:
                    if not self.fallback:
                        raise
                return None
        """,
}


@pytest.fixture(scope="module")
def eng(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("eng"), "eng", ENG)


def test_a_kept_key_under_a_handler_is_offered_in_the_flags_json(eng: Store) -> None:
    (site,) = [
        s for s in eng.list_sites("eng") if s.site.message is None or s.site.message.text is None
    ]
    page = build_page(eng, site.id)
    assert page.solutions, page
    assert page.solutions[0].text.startswith(
        "Pass `--loader-extra-config '{\"fallback\": true}'`"
    ), page.solutions[0].text


def test_a_guard_whose_branch_runs_the_tried_call_is_no_way_out(eng: Store) -> None:
    page = page_with_message(eng, "eng", "Cannot query the daemon")
    assert not any("fallback" in s.text for s in page.solutions), page.solutions
    assert "its other branch runs `self._query` too" in page.what_it_means, page.what_it_means
    # a guard whose branch calls something else is still a way out
    other = page_with_message(eng, "eng", "Cannot size the daemon")
    assert any("verbose" in s.text for s in other.solutions), other.solutions
    # a `try` of two calls: which of them failed is not known
    more = page_with_message(eng, "eng", "Cannot count the daemon")
    assert any("verbose" in s.text for s in more.solutions), more.solutions
