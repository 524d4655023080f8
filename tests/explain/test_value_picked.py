"""Code a setting's value picks: a backend that supports only values of `--kv-cache-dtype`
its base does not declare runs only for them, and a value of the base's avoids it; another
backend alone does not (it must support the value too)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import cast

import pytest
from explain_samples import indexed_package, page_with_message
from text_facts import text_facts

from errdex.explain.context import Facts
from errdex.explain.outline import Keep
from errdex.explain.value_picked import value_picked
from errdex.facts import SiteKind
from errdex.store import Store
from errdex.store.base import StoredSite
from value_picked_samples import CACHED


@pytest.fixture(scope="module")
def cached(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("cached"), "serve", CACHED)


def test_a_backend_made_for_other_values_offers_a_value_of_its_base(cached: Store) -> None:
    page = page_with_message(cached, "serve", "Packed attention does not support sinks")
    solution = page.solutions[0]
    assert solution.kind == "setting"
    assert solution.knob == "--kv-cache-dtype"
    assert solution.text == (
        "Choose a value of `--kv-cache-dtype` that its base `AttentionBackend` declares: "
        "`--kv-cache-dtype auto` (or `float16`, `bfloat16`). This code is in the file of "
        "`PackedBackend`, which supports only `--kv-cache-dtype` `packed_4bit`, `packed_3bit` "
        "(`supported_kv_cache_dtypes`, line 10), none of those `AttentionBackend` declares: it "
        "runs only when `--kv-cache-dtype` is given such a value, and another one picks other "
        "code."
    )
    # of the backends the platform's list stands in with, one takes `packed_4bit`: named
    # after the value (`FLASH` takes only the base's values and `fp8`)
    assert page.solutions[1].text.startswith(
        "Choose another attention backend: `--attention-backend WIDE`. "
    )
    assert page.example_fix is not None
    assert (page.example_fix.before, page.example_fix.after) == (
        "serve run MODEL_TAG --kv-cache-dtype packed_4bit",
        "serve run MODEL_TAG --kv-cache-dtype auto",
    )


def test_a_private_helper_the_backends_code_calls_is_its_own(cached: Store) -> None:
    page = page_with_message(cached, "serve", "packed rows come in pairs")
    assert page.solutions[0].knob == "--kv-cache-dtype"


def test_an_assert_in_such_a_backend_offers_only_backends_taking_the_value(
    cached: Store,
) -> None:
    page = page_with_message(cached, "serve", "packed head size must be positive")
    assert not any("--kv-cache-dtype" in s.text for s in page.solutions)
    assert [s.text.split(".")[0] for s in page.solutions if s.knob == "--attention-backend"] == [
        "Choose another attention backend: `--attention-backend WIDE`"
    ]


def test_a_method_testing_a_prefix_decides_the_values(cached: Store) -> None:
    page = page_with_message(cached, "serve", "quant decode drops {dropped}")
    solution = page.solutions[0]
    assert solution.text.startswith(
        "Choose a value of `--kv-cache-dtype` that its base `AttentionBackend` declares: "
        "`--kv-cache-dtype auto` (or `float16`, `bfloat16`). This code is in the file of "
        "`QuantBackend`, which supports only values of `--kv-cache-dtype` that start with "
        "`quant_` (`supports_kv_cache_dtype`, line 8)"
    )
    assert page.example_fix is not None
    assert page.example_fix.before.endswith("--kv-cache-dtype quant_k8")


_BACKEND = "Choose another attention backend"


@pytest.mark.parametrize(
    ("message", "offered"),
    [
        # its list holds the base's values: picked by default too
        ("Flash attention does not support sinks", [_BACKEND]),
        # a sibling backend of the file takes the base's values
        ("Shared attention does not support sinks", []),
        # no flag of the version is named so
        ("Styled attention does not support sinks", []),
        # a check of the value itself: another value is its own way out, not other code
        ("no kernel for kv_cache_dtype", [_BACKEND]),
        # a public helper or a class of the file the backend does not name: other files
        # may call it, for any value
        (
            "heads are packed in eights",
            [_BACKEND, "Pass the argument `head_size` of `pack_heads` as a multiple of `8`."],
        ),
        (
            "packed stats count down",
            [_BACKEND, "Pass the argument `count` of `PackedStats.record` at least `0`."],
        ),
    ],
)
def test_no_value_is_offered_where_the_code_is_not_the_values_alone(
    cached: Store, message: str, offered: list[str]
) -> None:
    page = page_with_message(cached, "serve", message)
    # (a backend standing in may still name the values it takes: "for `--kv-cache-dtype`")
    assert not any(s.text.startswith("Choose a value of") for s in page.solutions)
    # what the page offers instead (the page is built, its check read)
    assert [s.text.split(":")[0] for s in page.solutions] == offered, page.solutions
    assert "raises" in page.what_it_means and "when all of these hold" in page.what_it_means


READ_ONLY = """\
class Runner:
    def run(self, backend, dtype):
        if dtype not in backend.supported_kv_cache_dtypes:
            raise ValueError("dtype not supported")
        return backend.supports_kv_cache_dtype(dtype)
"""


@pytest.mark.parametrize(
    "declaring",
    [
        "class B:\n    supported_kv_cache_dtypes = ['a']\n",
        "class B:\n    supported_kv_cache_dtypes: ClassVar[list[str]] = ['a']\n",
        "class B:\n    def supports_kv_cache_dtype(cls, x):\n        return x == 'a'\n",
    ],
)
def test_a_file_that_only_reads_what_backends_support_is_not_parsed(
    monkeypatch: pytest.MonkeyPatch, declaring: str
) -> None:
    """Naming `supported_…` or `supports_…` is not declaring them: the file's classes are
    parsed only where a class may declare what it supports."""
    parsed: list[bool] = []

    def counted(facts: Facts, keep: Keep) -> ast.Module | None:
        parsed.append(True)
        return None

    monkeypatch.setattr(Facts, "top_module", counted)

    class Site:
        kind = SiteKind.RAISE

    class Stored:
        site = Site()

    stored = cast(StoredSite, Stored())
    assert value_picked(cast(Store, None), stored, text_facts(READ_ONLY)) is None
    assert parsed == []
    assert value_picked(cast(Store, None), stored, text_facts(READ_ONLY + declaring)) is None
    assert parsed == [True]
