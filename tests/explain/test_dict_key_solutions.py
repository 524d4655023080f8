"""A name holding one key of a free dict a JSON-valued flag gives (`extra.get("backend",
"cpu")` of `transfer_config.extra_config`, or of `--loader-extra-config`'s whole dict): the
way out names the key where the user writes it, nested in the object's dict field, with a
value the check names; `x is not None` of a `.get` leaves the key out of the dict."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import SERVE_CLI, indexed_package, page_with_message

from errdex.store import Store
from samples import DICT_ARGS

ENG = {
    **SERVE_CLI,
    "eng/args.py": DICT_ARGS,
    "eng/offload.py": """
        def offload(vllm_config):
            extra = vllm_config.transfer_config.extra_config or {}
            backend = str(extra.get("backend", "cpu")).lower()
            if backend not in ("cpu", "disk"):
                raise ValueError("unknown offload backend")


        def blocks(vllm_config):
            extra = vllm_config.transfer_config.extra_config
            count = extra.get("num_blocks")
            if count is not None and count <= 0:
                raise ValueError("num_blocks must be positive")


        def lazy(vllm_config):
            extra = vllm_config.transfer_config.extra_config
            lazy_offload = bool(extra.get("lazy_offload", False))
            if lazy_offload:
                raise ValueError("lazy offload needs a disk")


        def load(load_config):
            extra_config = load_config.loader_extra_config
            threads = extra_config.get("num_threads")
            if threads is not None and threads <= 0:
                raise ValueError("num_threads must be positive")


        def strategy(load_config):
            extra_config = load_config.loader_extra_config
            kind = extra_config.get("strategy", "eager")
            if kind != "lazy":
                raise ValueError("only the lazy strategy streams")


        def prefill(load_config):
            extra_config = load_config.loader_extra_config
            backend = extra_config.get("prefill_backend", "auto")
            if backend != "auto":
                raise ValueError("only the auto prefill runs here")
        """,
}


@pytest.fixture(scope="module")
def eng(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("eng"), "eng", ENG)


def test_a_key_of_a_dict_in_the_object_is_written_nested_with_a_value_the_check_names(
    eng: Store,
) -> None:
    page = page_with_message(eng, "eng", "unknown offload backend")
    texts = [s.text for s in page.solutions]
    assert any(
        t.startswith('Pass `--transfer-config \'{"extra_config": {"backend": "cpu"}}\'`')
        for t in texts
    ), texts
    # the object's other keys (the connector) are the user's: no line without them
    assert all(s.fix is None for s in page.solutions if "--transfer-config" in s.text)


def test_a_key_read_with_get_that_must_be_none_is_left_out_of_the_dict(eng: Store) -> None:
    page = page_with_message(eng, "eng", "num_blocks must be positive")
    texts = [s.text for s in page.solutions]
    assert any(
        t.startswith("Leave `num_blocks` out of `extra_config` in the JSON of `--transfer-config`")
        for t in texts
    ), texts
    # not the whole flag: that drops the connector
    assert not any(t.startswith("Do not pass `--transfer-config`") for t in texts), texts


def test_a_yes_no_key_of_a_dict_is_turned_by_its_default(eng: Store) -> None:
    page = page_with_message(eng, "eng", "lazy offload needs a disk")
    texts = [s.text for s in page.solutions]
    assert any('{"extra_config": {"lazy_offload": false}}' in t for t in texts), texts


def test_a_key_of_a_flags_whole_dict_is_written_at_the_top(eng: Store) -> None:
    page = page_with_message(eng, "eng", "num_threads must be positive")
    texts = [s.text for s in page.solutions]
    assert any(
        t.startswith("Leave `num_threads` out of the JSON of `--loader-extra-config`")
        for t in texts
    ), texts
    page = page_with_message(eng, "eng", "only the lazy strategy streams")
    (solution,) = [s for s in page.solutions if "--loader-extra-config" in s.text]
    assert solution.text.startswith('Pass `--loader-extra-config \'{"strategy": "lazy"}\'`')
    assert solution.fix is not None
    after = 'eng serve MODEL_TAG --loader-extra-config \'{"strategy": "lazy"}\''
    assert solution.fix.after == after


def test_a_key_a_flag_of_its_name_may_write_is_named_with_no_value(eng: Store) -> None:
    # `--prefill-backend` may write the key into the dict over the JSON: no value is sure
    page = page_with_message(eng, "eng", "only the auto prefill runs here")
    texts = [s.text for s in page.solutions]
    assert not any('"prefill_backend": "auto"' in t for t in texts), texts
    assert any(
        t.startswith("Change `prefill_backend` in the JSON of `--loader-extra-config`")
        for t in texts
    ), texts


PASSED = {
    **SERVE_CLI,
    "eng/args.py": DICT_ARGS,
    "eng/layer.py": """
        def resolve_backend(backend, head_dim):
            if backend not in ("auto", "triton", "fast"):
                raise ValueError(f"unsupported prefill backend {backend}")
            fast_ok = head_dim == 128
            if backend == "fast" and not fast_ok:
                raise RuntimeError("the fast backend needs head_dim 128")
            return "fast" if fast_ok else "triton"


        class Layer:
            def __init__(self, load_config, head_dim):
                extra = load_config.loader_extra_config
                backend = (
                    extra.get("prefill_backend", "auto") if isinstance(extra, dict) else "auto"
                )
                self.backend = resolve_backend(backend, head_dim)
        """,
}


@pytest.fixture(scope="module")
def passed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("passed"), "eng", PASSED)


def test_a_key_a_caller_reads_and_passes_is_written_in_the_flag_s_json(passed: Store) -> None:
    texts = [s.text for s in page_with_message(passed, "eng", "unsupported prefill").solutions]
    assert texts[0].startswith('Pass `--loader-extra-config \'{"prefill_backend": "auto"}\'`'), (
        texts
    )
    # compared with one value the check refuses: the key to change, before the argument
    texts = [s.text for s in page_with_message(passed, "eng", "the fast backend").solutions]
    assert texts[0].startswith(
        "Change `prefill_backend` in the JSON of `--loader-extra-config`, which `backend` follows"
    ), texts


HELPED = {
    **SERVE_CLI,
    "eng/args.py": DICT_ARGS,
    "eng/worker.py": """
        def _make_pool(extra_config, sleeping):
            pool = str(extra_config.get("pool") or "").upper()
            if not pool:
                return None
            if pool not in ("NV", "RDMA"):
                raise ValueError(f"unsupported pool {pool!r}")
            if sleeping:
                raise ValueError("a pool cannot sleep")
            return pool


        class Worker:
            def __init__(self, vllm_config, sleeping):
                extra_config = vllm_config.transfer_config.extra_config
                self.pool = _make_pool(extra_config, sleeping)
        """,
}


@pytest.fixture(scope="module")
def helped(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("helped"), "eng", HELPED)


def test_a_key_a_helper_reads_of_the_dict_its_callers_give_is_in_the_flag_s_json(
    helped: Store,
) -> None:
    """`pool = str(extra_config.get("pool") or "").upper()`, every call giving the helper
    the flag's free dict: a value the check names, nested in the dict field; or, for a
    check that needs the key given at all, the key left out (it reads `""` then)."""
    texts = [s.text for s in page_with_message(helped, "eng", "unsupported pool").solutions]
    assert texts[0].startswith('Pass `--transfer-config \'{"extra_config": {"pool": "NV"}}\'`'), (
        texts
    )
    texts = [s.text for s in page_with_message(helped, "eng", "a pool cannot sleep").solutions]
    assert any(
        t.startswith("Leave `pool` out of `extra_config` in the JSON of `--transfer-config`")
        for t in texts
    ), texts
