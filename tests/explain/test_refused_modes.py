"""A mode whose other value the config's own validation refuses beside a field the path
reads is no way out: "another profiler" with activities given meets the config's error."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

LAB = {
    "lab/__init__.py": "",
    "lab/config/__init__.py": """
        from lab.config.profiler import ProfilerConfig

        __all__ = ["ProfilerConfig"]
        """,
    "lab/config/profiler.py": """
        from dataclasses import dataclass


        @dataclass
        class ProfilerConfig:
            profiler: str | None = None
            activities: list[str] | None = None
            label: str = ""

            def __post_init__(self):
                if self.activities is not None:
                    if self.profiler != "torch":
                        raise ValueError("activities apply only to the torch profiler")
        """,
    "lab/wrapper.py": """
        from lab.config import ProfilerConfig

        _SUPPORTED = frozenset({"CPU", "CUDA"})


        def check(config: ProfilerConfig) -> None:
            kind = config.profiler
            if kind is None:
                return
            if kind == "torch":
                chosen = config.activities or ["CPU"]
                unsupported = set(chosen) - _SUPPORTED
                if unsupported:
                    raise ValueError(f"Unsupported activities: {unsupported}")


        def named(config: ProfilerConfig) -> None:
            kind = config.profiler
            if kind == "torch":
                if config.label == "":
                    raise ValueError("a torch profile needs a label")
        """,
}


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("refused"), "lab", LAB)


def test_a_mode_the_config_refuses_beside_the_given_field_is_no_way_out(lab: Store) -> None:
    page = page_with_message(lab, "lab", "Unsupported activities")
    texts = [s.text for s in page.solutions]
    assert not any("other than `'torch'`" in t for t in texts), texts
    assert (
        "Another `profiler` is no way out: `ProfilerConfig`'s own check "
        "(lab/config/profiler.py:14) refuses it when `activities` is given"
    ) in page.what_it_means, page.what_it_means


def test_a_mode_the_config_ties_to_no_field_the_path_reads_stays(lab: Store) -> None:
    # the config refuses another profiler only beside `activities`, which `named` never reads
    page = page_with_message(lab, "lab", "a torch profile needs a label")
    assert "is no way out: `ProfilerConfig`'s own check" not in page.what_it_means


def test_the_sites_of_a_class_are_its_methods_in_any_file(lab: Store) -> None:
    version = lab.list_sites("lab")[0].version_id
    sites = lab.class_sites(version, "ProfilerConfig")
    assert [(s.file, s.site.function) for s in sites] == [
        ("lab/config/profiler.py", "ProfilerConfig.__post_init__")
    ]
    # `LIKE` reads `_` as any character ("ProfilerConfig.__post_init__" matches): no wildcard
    assert lab.class_sites(version, "Profiler_onfig") == []
    assert lab.class_sites(version, "Nowhere") == []
