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


# A parser that makes each key of `data` a flag when `--config` is given; the loader that
# read `data` stands before it in each test.
PARSER = """
def parse(args, data):
    if "--config" in args:
        return ["--" + key for key in data]
"""


def test_a_config_file_flag_needs_a_loader_the_key_made_a_flag_and_the_test() -> None:
    text = (
        "def parse(args):\n"
        '    if "--config" in args:\n'
        "        data = yaml.safe_load(open(path))\n"
        '        return ["--" + key for key in data]\n'
    )
    assert config_file_flags(text) == {"--config": "yaml"}
    assert config_file_flags(text.replace("yaml.safe_load(", "yaml.safe_read(")) == {}


def test_a_config_file_is_in_the_format_of_the_first_loader_whose_name_starts_a_word() -> None:
    assert config_file_flags("yaml.load(f)" + PARSER) == {"--config": "yaml"}  # at the start
    assert config_file_flags("a = pyyaml.load(f)\nb = json.load(g)\n" + PARSER) == {
        "--config": "json"
    }
    assert config_file_flags("tomllib.load(f)\nyaml.safe_load(g)\n" + PARSER) == {
        "--config": "toml"
    }
    assert config_file_flags("toml.load(f)" + PARSER) == {"--config": "toml"}
    assert config_file_flags("json.safe_load(f)\nload(f)\nyaml_load(f)\n" + PARSER) == {}
    text = (
        "def parse(args):\n"
        '    if "--config" in args:\n'
        "        data = json.load(open(path)) or yaml.safe_load(open(path))\n"
        '        return ["--" + key for key in data]\n'
    )
    assert config_file_flags(text) == {"--config": "json"}


def test_a_key_made_a_flag_in_an_f_string_or_at_the_text_start() -> None:
    loader = '\ndata = yaml.safe_load(f)\nif "--config" in args:\n    pass\n'
    assert config_file_flags('[f"--{key}" for key in data]' + loader) == {"--config": "yaml"}
    assert config_file_flags('"--" + key' + loader) == {"--config": "yaml"}
    assert config_file_flags('[elf"--{key}"]' + loader) == {}
