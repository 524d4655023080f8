"""A check on state no user sets, inside code a setting picked: the way out is other code
(another backend, the kernel taken out), with the real values, after direct settings."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.explain.page import Page
from errdex.store import Store
from selection_samples import GIVEN, KERNELS, SERVE


@pytest.fixture(scope="module")
def serve(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("serve"), "serve", SERVE)


def page_of(store: Store, message: str) -> Page:
    return page_with_message(store, "serve", message)


def test_a_backend_check_offers_the_backends_that_stand_in_for_it(serve: Store) -> None:
    page = page_of(serve, "block num must be positive")
    (solution,) = page.solutions
    assert solution.kind == "setting"
    assert solution.text == (
        "Choose another attention backend: `--attention-backend TRITON` (or `FLASH`). This "
        "code runs for `CUTLASS` (`AttentionBackendEnum.CUTLASS` names a class of this "
        "file), set with `--attention-backend` or picked by default from the list at "
        "serve/platforms.py:7."
    )
    assert "no solution is offered" not in page.what_it_means
    assert (
        "But a setting picks the code it is in: it runs when `--attention-backend` is "
        "`CUTLASS` (given or picked by default), so another value avoids it."
    ) in page.what_it_means
    assert page.example_fix is not None
    assert (page.example_fix.before, page.example_fix.after) == (
        "serve run MODEL_TAG",
        "serve run MODEL_TAG --attention-backend TRITON",
    )


def test_a_kernel_check_offers_to_take_the_kernel_out(serve: Store) -> None:
    page = page_of(serve, "FastKernel expects a 2-D weight")
    texts = [s.text for s in page.solutions]
    assert texts[0] == (
        "Take `FastKernel` out of the selection: set `SERVE_DISABLED_KERNELS=FastKernel` "
        "(names already there stay, separated by `,`). The selection in "
        "serve/kernels/__init__.py lists it at line 8 and skips the classes named there, then "
        "tries the next candidate (`SlowKernel`, `SafeKernel`)."
    )
    assert page.example_fix is not None
    assert page.example_fix.after == "SERVE_DISABLED_KERNELS=FastKernel serve run MODEL_TAG"


@pytest.mark.parametrize(
    "message",
    [
        # a shape that must match another's: every candidate gets the same input
        "FastKernel expects four scales a row",
        # an assert states an invariant, not what this kernel supports
        "FastKernel needs a contiguous input",
    ],
)
def test_an_invariant_on_the_input_offers_no_kernel_taken_out(serve: Store, message: str) -> None:
    page = page_of(serve, message)
    assert not any("SERVE_DISABLED_KERNELS" in s.text for s in page.solutions)
    assert "candidates a selection tries" not in page.what_it_means


def test_a_warning_in_picked_code_offers_no_other_code(serve: Store) -> None:
    # the program goes on after a warning, and other code may not take what the user runs
    page = page_of(serve, "the fused output is not registered")
    assert page.solutions == []


@pytest.fixture(scope="module")
def kernels(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("kernels"), "serve", KERNELS)


def test_a_dict_keyed_by_the_flags_values_offers_its_other_keys_of_the_kind(
    kernels: Store,
) -> None:
    page = page_with_message(kernels, "serve", "FastMx requires bfloat16 activations")
    solution = page.solutions[0]  # before the internal argument's
    assert solution.text == (
        "Choose another linear backend: `--linear-backend late` (or `slow`). This code runs "
        "for `fast` "
        "(`_LINEAR_BACKEND_KERNEL_MAP['fast']` names a class of this file), set with "
        "`--linear-backend`."
    )
    assert page.example_fix is not None
    assert (page.example_fix.before, page.example_fix.after) == (
        "serve run MODEL_TAG",
        "serve run MODEL_TAG --linear-backend late",
    )
    # a kernel of another kind only under another key, or a flag that may be None: none
    assert page_with_message(kernels, "serve", "IntKernel requires int8 weights").solutions == []


@pytest.fixture(scope="module")
def given(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("given"), "serve", GIVEN)


def test_a_backend_only_the_flag_picks_offers_to_leave_the_flag_out_first(given: Store) -> None:
    page = page_with_message(given, "serve", "HPC attention does not support ALiBi")
    solution = page.solutions[0]  # before the internal constructor's `alibi_slopes`
    assert solution.kind == "setting"
    assert solution.text == (
        "Leave `--attention-backend HPC_ATTN` out, or choose another attention backend: "
        "`--attention-backend TRITON_ATTN` (or `FLASH_ATTN`). This code runs for `HPC_ATTN` "
        "(`AttentionBackendEnum.HPC_ATTN` names a class of this file), which no list or "
        "other code picks: it runs only when `--attention-backend HPC_ATTN` is given, and "
        "without it the platform's own list picks the attention backend."
    )
    assert "no solution is offered" not in page.what_it_means
    assert page.example_fix is not None
    assert (page.example_fix.before, page.example_fix.after) == (
        "serve run MODEL_TAG --attention-backend HPC_ATTN",
        "serve run MODEL_TAG --attention-backend TRITON_ATTN",
    )


def test_a_backend_only_the_flag_picks_with_no_listed_kind_offers_to_leave_the_flag_out(
    tmp_path: Path,
) -> None:
    # `B12X` says no kind (one word): no other member is known to take its place
    registry = GIVEN["serve/backends/registry.py"].replace("HPC_ATTN =", "B12X =")
    files = {**GIVEN, "serve/backends/registry.py": registry}
    for store in indexed_package(tmp_path, "serve", files):
        page = page_with_message(store, "serve", "HPC attention does not support")
        assert page.solutions[0].text.startswith(
            "Leave `--attention-backend B12X` out. This code runs for `B12X`"
        )
        assert page.example_fix is not None
        assert (page.example_fix.before, page.example_fix.after) == (
            "serve run MODEL_TAG --attention-backend B12X",
            "serve run MODEL_TAG",
        )
