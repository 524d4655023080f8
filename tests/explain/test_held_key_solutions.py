"""A name holding one key of a JSON-valued flag's object (a local, or `self.x` its
constructor set): the way out names the key in the flag's JSON, or the plain flag that
writes it; a truth test of a key that is not yes/no gets no `false`."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import SERVE_CLI, indexed_package, page_with_message

from errdex.store import Store

ENG = {
    "eng/__init__.py": "",
    "eng/config.py": """
        from dataclasses import dataclass, field
        from enum import Enum


        class Mode(Enum):
            NONE = 0
            FULL = 1


        @dataclass
        class KernelConfig:
            enable_warmup: bool = True
            mode: Mode = Mode.NONE
            dump_path: str | None = None
            role: str = "both"


        @dataclass
        class AttentionConfig:
            backend: str | None = None


        def warm(vllm_config):
            enable_warmup = vllm_config.kernel_config.enable_warmup
            if enable_warmup:
                raise RuntimeError("warmup needs a GPU")


        def compile_it(vllm_config):
            mode = vllm_config.kernel_config.mode
            if mode != Mode.FULL:
                raise RuntimeError("only the full mode compiles")


        def dump(vllm_config):
            if vllm_config.kernel_config.dump_path:
                raise RuntimeError("dumping is not supported here")


        def trace(vllm_config):
            path = vllm_config.kernel_config.dump_path
            if path is not None:
                raise RuntimeError("traces are not written on this device")


        def save(vllm_config, items):
            role = vllm_config.kernel_config.role
            if role == "consumer":
                return
            if vllm_config.kernel_config.enable_warmup:
                raise RuntimeError("a warm kernel saves nothing")


        def route(vllm_config, spec):
            role = vllm_config.kernel_config.role
            if role == "producer":
                run_producer(spec)
            elif role == "both":
                if not spec:
                    raise RuntimeError("auto routing needs a spec")


        def profile(vllm_config):
            role = vllm_config.kernel_config.role
            if role != "proton":
                raise RuntimeError("only the proton role profiles")


        def select(vllm_config):
            backend = vllm_config.attention_config.backend
            if backend == "flex":
                raise RuntimeError("flex cannot run this model")
        """,
    "eng/args.py": """
        from dataclasses import dataclass, field

        from eng.config import AttentionConfig, KernelConfig


        @dataclass
        class EngineArgs:
            kernel_config: KernelConfig = field(default_factory=KernelConfig)
            attention_config: AttentionConfig = field(default_factory=AttentionConfig)
            attention_backend: str | None = AttentionConfig.backend
        """,
}


@pytest.fixture(scope="module")
def eng(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("eng"), "eng", ENG)


def test_a_yes_no_key_held_by_a_local_is_turned_in_the_json(eng: Store) -> None:
    page = page_with_message(eng, "eng", "warmup needs a GPU")
    texts = [s.text for s in page.solutions]
    assert any("--kernel-config '{\"enable_warmup\": false}'" in t for t in texts), texts


def test_a_key_tested_against_an_enum_member_is_named_in_the_json(eng: Store) -> None:
    page = page_with_message(eng, "eng", "only the full mode compiles")
    texts = [s.text for s in page.solutions]
    assert any(t.startswith("Change `mode` in the JSON of `--kernel-config`") for t in texts)


def test_a_key_that_is_no_yes_no_gets_no_false_nor_null(eng: Store) -> None:
    # `dump_path` is a path: `false` is no value of it
    page = page_with_message(eng, "eng", "dumping is not supported here")
    texts = [s.text for s in page.solutions]
    assert any("`--kernel-config`" in t for t in texts), texts  # the flag is the way out
    assert not any('"dump_path": false' in t for t in texts), texts
    # `null` beside the user's other keys may trip the class's validator of them: the
    # flag is left out whole
    page = page_with_message(eng, "eng", "traces are not written on this device")
    texts = [s.text for s in page.solutions]
    assert not any('"dump_path": null' in t for t in texts), texts
    assert any(t.startswith("Do not pass `--kernel-config` in any form") for t in texts), texts


def test_a_key_a_plain_flag_writes_is_that_flag(eng: Store) -> None:
    page = page_with_message(eng, "eng", "flex cannot run this model")
    texts = [s.text for s in page.solutions]
    assert any("`--attention-backend`" in t for t in texts), texts
    assert not any("Pass `--attention-config` with" in t for t in texts), texts


def test_an_earlier_exit_on_a_held_key_gives_its_mode_up(eng: Store) -> None:
    # `role == "consumer"` returns before the check: another mode, after the way that keeps it
    page = page_with_message(eng, "eng", "a warm kernel saves nothing")
    texts = [s.text for s in page.solutions]
    assert '"enable_warmup": false' in texts[0], texts
    assert not any('"role": "consumer"' in t for t in texts), texts
    (mode,) = [s for s in page.solutions if s.text.startswith("Change `role` in the JSON")]
    assert mode.drops


def test_a_held_key_that_is_no_yes_no_is_named_with_no_value(eng: Store) -> None:
    # a mode value alone may be refused by the class's validator (another key it needs)
    page = page_with_message(eng, "eng", "only the proton role profiles")
    texts = [s.text for s in page.solutions]
    assert not any('"role": "proton"' in t for t in texts), texts
    assert any(t.startswith("Change `role` in the JSON of `--kernel-config`") for t in texts)


def test_an_earlier_branch_on_a_held_key_is_no_way_out(eng: Store) -> None:
    # `role == "producer"` picks other code, with checks of its own
    page = page_with_message(eng, "eng", "auto routing needs a spec")
    texts = [s.text for s in page.solutions]
    assert not any('"role": "producer"' in t for t in texts), texts
    # the branch of the check itself names the key in the flag's JSON
    assert any(t.startswith("Change `role` in the JSON of `--kernel-config`") for t in texts)


SERVED = {
    **SERVE_CLI,
    "eng/config.py": """
        from dataclasses import dataclass


        @dataclass
        class AttentionConfig:
            backend: str | None = None
            \"\"\"The attention backend.\"\"\"


        @dataclass
        class TransferConfig:
            role: str | None = None


        def connect(vllm_config):
            role = vllm_config.transfer_config.role
            if vllm_config.parallel_config.prefill_size > 1 and role in ("consumer", "both"):
                raise NotImplementedError("consumers prefill alone")


        def prefill(vllm_config):
            backend = vllm_config.attention_config.backend
            if vllm_config.parallel_config.prefill_size > 1 and backend not in flash_kinds():
                raise ValueError("only flash prefills in parallel")
        """,
    "eng/args.py": """
        from dataclasses import dataclass, field

        from eng.config import AttentionConfig, TransferConfig


        @dataclass
        class EngineArgs:
            attention_config: AttentionConfig = field(default_factory=AttentionConfig)
            transfer_config: TransferConfig = field(default_factory=TransferConfig)
            attention_backend: str | None = AttentionConfig.backend
            prefill_size: int = 1

            @staticmethod
            def add_cli_args(parser):
                parser.add_argument("--attention-config", type=str)
                parser.add_argument("--attention-backend", type=str)
                parser.add_argument("--transfer-config", type=str)
                parser.add_argument("--prefill-size", type=int, default=1)
                return parser
        """,
}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("served"), "eng", SERVED)


def test_a_fix_keeps_one_of_two_flags_that_give_the_same_name(served: Store) -> None:
    # `--attention-backend` and `--attention-config`'s key both give `backend`: the user gave
    # it with one, so the line that reaches the check holds one, not both
    page = page_with_message(served, "eng", "only flash prefills in parallel")
    fixes = [s.fix for s in page.solutions if s.fix is not None and "--prefill-size" in s.text]
    assert fixes, page.solutions
    for fix in fixes:
        assert "--attention-backend ATTENTION_BACKEND" in fix.before, fix
        assert "--attention-config" not in fix.before, fix


def test_a_fix_names_the_users_own_json_for_a_held_key_that_is_no_yes_no(served: Store) -> None:
    # `{"role": "consumer"}` alone is not the user's JSON (a connector beside it, or a
    # validator asking for more keys): the line keeps the user's own value, named
    page = page_with_message(served, "eng", "consumers prefill alone")
    fixes = [s.fix for s in page.solutions if s.fix is not None and "--prefill-size" in s.text]
    assert fixes, page.solutions
    for fix in fixes:
        assert "--transfer-config TRANSFER_CONFIG" in fix.before, fix
        assert '"role"' not in fix.before + fix.after, fix
