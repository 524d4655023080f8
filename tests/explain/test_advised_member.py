"""The member the message says to use ("use FULL_AND_PIECEWISE"), given to the key of the
flag's JSON the check compares with the member the message names (`mode=FULL`): first, and
with its fix, before turning off the section the user gave."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import SERVE_CLI, indexed_package, page_with_message

from errdex.store import Store

ENG = {
    **SERVE_CLI,
    "eng/config.py": """
        from dataclasses import dataclass
        from enum import Enum


        class Mode(Enum):
            NONE = 0
            FULL = 1
            FULL_AND_PIECEWISE = 2


        @dataclass
        class KernelConfig:
            mode: Mode = Mode.FULL_AND_PIECEWISE


        def compile_it(vllm_config):
            if vllm_config.kernel_config.mode == Mode.FULL:
                raise ValueError("Sparse does not support mode=FULL; use FULL_AND_PIECEWISE.")


        def trace_it(vllm_config):
            if vllm_config.kernel_config.mode == Mode.FULL:
                raise ValueError("Tracing does not support FULL graphs; use FULL_AND_PIECEWISE.")
        """,
    "eng/args.py": """
        import json
        from dataclasses import dataclass, field

        from eng.config import KernelConfig


        @dataclass
        class EngineArgs:
            kernel_config: KernelConfig = field(default_factory=KernelConfig)

            @staticmethod
            def add_cli_args(parser):
                parser.add_argument("--kernel-config", type=json.loads)
                return parser
        """,
}


@pytest.fixture(scope="module")
def eng(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("eng"), "eng", ENG)


def test_the_member_the_message_says_to_use_is_given_to_the_key(eng: Store) -> None:
    page = page_with_message(eng, "eng", "Sparse does not support mode=FULL")
    first = page.solutions[0]
    assert first.text.startswith(
        'Pass `--kernel-config \'{"mode": "FULL_AND_PIECEWISE"}\'` (with the rest of your '
        "--kernel-config fields), as the message says: “use FULL_AND_PIECEWISE.”"
    ), first.text
    # its fix: the line before gives the key the member the check refuses, as the user did
    assert first.fix is not None
    assert first.fix.before == 'eng serve MODEL_TAG --kernel-config \'{"mode": "FULL"}\''
    assert first.fix.after == (
        'eng serve MODEL_TAG --kernel-config \'{"mode": "FULL_AND_PIECEWISE"}\''
    )
    # a message that does not name the key with the member refused: no key to give it
    page = page_with_message(eng, "eng", "Tracing does not support FULL graphs")
    assert not any('"mode": "FULL_AND_PIECEWISE"' in s.text for s in page.solutions)
