"""An internal function's argument beside the setting that decides the same name: the
setting is offered, the argument no user passes is not; a function the package hands to
users keeps both."""

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
        class ParallelConfig:
            pipeline_parallel_size: int = 1
            enable_sp: bool = False


        class ModelConfig:
            def verify_with_parallel_config(self, parallel_config):
                if parallel_config.enable_sp:
                    if parallel_config.pipeline_parallel_size != 1:
                        raise ValueError("--enable-sp requires one pipeline stage")


        def check_parallel(parallel_config):
            if parallel_config.enable_sp:
                if parallel_config.pipeline_parallel_size > 4:
                    raise ValueError("--enable-sp takes at most four pipeline stages")
        """,
    "eng/args.py": """
        from dataclasses import dataclass

        from eng.config import ModelConfig, ParallelConfig, check_parallel


        @dataclass
        class EngineArgs:
            pipeline_parallel_size: int = 1
            enable_sp: bool = False

            @staticmethod
            def add_cli_args(parser):
                parser.add_argument("--pipeline-parallel-size", type=int, default=1)
                parser.add_argument("--enable-sp", action="store_true")
                return parser

            def create_engine_config(self):
                parallel_config = ParallelConfig(
                    pipeline_parallel_size=self.pipeline_parallel_size,
                    enable_sp=self.enable_sp,
                )
                ModelConfig().verify_with_parallel_config(parallel_config)
                check_parallel(parallel_config)
                return parallel_config
        """,
}


@pytest.fixture(scope="module")
def eng(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("eng"), "eng", ENG)


def test_the_flag_is_offered_and_the_internal_argument_is_not(eng: Store) -> None:
    page = page_with_message(eng, "eng", "--enable-sp requires one pipeline stage")
    texts = [s.text for s in page.solutions]
    assert any(t.startswith("Pass `--pipeline-parallel-size 1`") for t in texts), texts
    assert not any("of `ModelConfig.verify_with_parallel_config`" in t for t in texts), texts


def test_a_function_the_package_hands_to_users_keeps_its_argument(eng: Store) -> None:
    page = page_with_message(eng, "eng", "--enable-sp takes at most four")
    texts = [s.text for s in page.solutions]
    assert any("`--pipeline-parallel-size" in t for t in texts), texts
    assert any("of `check_parallel`" in t for t in texts), texts
