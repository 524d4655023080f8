"""A parser that reads a config file of flags: the flag naming the file, and its format."""

from __future__ import annotations

import textwrap

from errdex.extract.config_files import config_file_flags
from samples import FLAG_CONFIG_READER

VLLM_LIKE = FLAG_CONFIG_READER


def test_a_yaml_file_whose_keys_become_flags() -> None:
    assert config_file_flags(textwrap.dedent(VLLM_LIKE)) == {"--config": "yaml"}


def test_a_config_loaded_for_other_ends_is_no_file_of_flags() -> None:
    settings = """
        import json

        def load(path, args):
            if "--config" in args:
                return json.load(open(path))["model"]
        """
    assert config_file_flags(textwrap.dedent(settings)) == {}
    keys_only = VLLM_LIKE.replace('"--config" in args', "args.config")
    assert config_file_flags(textwrap.dedent(keys_only)) == {}
