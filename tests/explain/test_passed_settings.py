"""A parameter of the site's function that a caller gives from a setting: the page names
the setting (and through which functions it arrives), not the internal argument."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store
from samples import BACKEND_ARGS

ENG = {
    "eng/__init__.py": "",
    "eng/args.py": BACKEND_ARGS,
    "eng/platforms/__init__.py": "",
    "eng/platforms/interface.py": """
        class Platform:
            def get_backend_cls(self, selected_backend, config):
                return None
        """,
    "eng/platforms/rocm.py": """
        from eng.platforms.interface import Platform


        class RocmPlatform(Platform):
            def get_backend_cls(self, selected_backend, config):
                reasons = config.check()
                if selected_backend is not None and reasons:
                    raise ValueError(f"Selected backend {selected_backend} is not valid")
                return "x"
        """,
    "eng/selector.py": """
        def get_backend(config, attention_config):
            backend = attention_config.backend
            return _cached_get_backend(backend=backend, config=config)


        def _cached_get_backend(backend, config):
            from eng.platforms import current_platform

            return current_platform.get_backend_cls(backend, config=config)
        """,
}


@pytest.fixture(scope="module")
def eng(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("passed"), "eng", ENG)


def test_a_backend_passed_down_from_a_flag_is_left_out(eng: Store) -> None:
    page = page_with_message(eng, "eng", "Selected backend")
    assert page.solutions, page.what_it_means
    first = page.solutions[0].text
    assert first.startswith("Do not pass `--attention-backend`"), first
    # through which functions the value arrives
    said = " ".join(page.when_it_happens.situations)
    assert "passed in by `_cached_get_backend`, from `get_backend`" in said, said
