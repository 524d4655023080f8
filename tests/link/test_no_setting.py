"""The quick "no setting" of a dotted name (`KnobIndex._no_setting`): what the knob
sources can match is in its sets, what none can is answered at once."""

from __future__ import annotations

import textwrap

from errdex.extract import extract_file
from errdex.link.knobs import KnobIndex
from errdex.link.resolve import Namespace

CONFIG = """
    import argparse
    from dataclasses import dataclass


    @dataclass
    class CacheConfig:
        block_size: int = 16
        \"\"\"Tokens a block holds.\"\"\"

        @property
        def tokens_per_block(self) -> int:
            return self.block_size


    @dataclass
    class EngineArgs:
        cache_config: dict | None = None
        swap_space: int = 4


    def add_cli_args(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--max-num-seqs", type=int)


    class Runner:
        def __init__(self, ready: bool) -> None:
            if ready:
                self.mode = "eager"
"""


def _index() -> KnobIndex:
    files = [extract_file("eng/config.py", textwrap.dedent(CONFIG).encode())]
    return KnobIndex(files, Namespace(files))


def test_names_a_source_matches_are_left_to_the_sources() -> None:
    index = _index()
    facts = extract_file("eng/runner.py", b"import os\n")
    for name in (
        "self.tokens_per_block",  # a property
        "self.block_size",  # a configuration class's key
        "args.max_num_seqs",  # a flag's destination
        "engine_args.swap_space",  # an arguments field
        "cache_config.anything",  # read of a field whose flag takes JSON
        "self.runner.mode",  # an attribute assigned under an `if`
        "os.environ",  # a root the file imports
    ):
        assert not index._no_setting(name.split("."), facts), name


def test_names_no_source_matches_get_no_setting_at_once() -> None:
    index = _index()
    facts = extract_file("eng/runner.py", b"import os\n")
    for name in ("self.hidden_size", "request.prompt", "args.model.tokens_per_block_x"):
        assert index._no_setting(name.split("."), facts), name
