"""The whole-text scans find what starts a file's first line as any other line, and read
each quoted name of a `not in` test, whichever quote it is written with."""

from __future__ import annotations

from errdex.extract.config_files import _loader_format, config_file_flags
from errdex.extract.environment import PLATFORM_WORDS, _may_name_platform, platform_tests
from errdex.extract.keyed_tables import _statement, keyed_tables, literal_aliases
from errdex.extract.registries import name_filters
from errdex.facts import NameFilter


def test_a_table_and_an_alias_on_the_first_line_are_read_and_indented_ones_are_not() -> None:
    text = (
        'Mode = Literal["a", "b"]\n'
        'KERNELS = {"a": {AKernel}, "b": [BKernel, CKernel]}\n'
        "class C:\n"
        '    Inner = Literal["x", "y"]\n'
        '    TABLE = {"x": {XKernel}, "y": {YKernel}}\n'
        'Later = Literal["c", "d"]\n'
    )
    assert literal_aliases(text) == {"Mode": ("a", "b"), "Later": ("c", "d")}
    assert keyed_tables(text) == {"KERNELS": {"a": ("AKernel",), "b": ("BKernel", "CKernel")}}
    assert keyed_tables('TABLE = {"x": {XKernel}, "y": {YKernel}}') == {
        "TABLE": {"x": ("XKernel",), "y": ("YKernel",)}
    }


def test_quoted_names_tested_with_not_in_are_read_in_order_with_either_quote() -> None:
    text = (
        "def usable(kernel):\n"
        "    if 'SlowKernel' not in envs.SKIPPED:\n"
        "        return True\n"
        '    return "FastKernel" not in envs.DISABLED and x not in y\n'
    )
    assert name_filters(text) == [
        NameFilter(setting="envs.SKIPPED", line=2, name="SlowKernel"),
        NameFilter(setting="envs.DISABLED", line=4, name="FastKernel"),
    ]


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
    assert _loader_format("yaml.load(f)") == "yaml"  # at the text's start
    assert _loader_format("a = pyyaml.load(f)\nb = json.load(g)\n") == "json"
    assert _loader_format("tomllib.load(f)\nyaml.safe_load(g)\n") == "toml"
    assert _loader_format("toml.load(f)") == "toml"
    assert _loader_format("json.safe_load(f)\nload(f)\nyaml_load(f)\n") is None
    text = (
        "def parse(args):\n"
        '    if "--config" in args:\n'
        "        data = json.load(open(path)) or yaml.safe_load(open(path))\n"
        '        return ["--" + key for key in data]\n'
    )
    assert config_file_flags(text) == {"--config": "json"}


def test_a_module_dict_is_parsed_for_a_table_only_when_a_bracket_opens_after_its_own() -> None:
    assert _statement('NAMES = {"a": "x", "b": y}\n', 0, 8, "}", opening="[({") is None
    table = 'KERNELS = {\n    "a": (AKernel,),\n}\n'
    node = _statement(table, 0, 10, "}", opening="[({")
    assert node is not None and node.lineno == 1
    assert keyed_tables('NAMES = {"a": "x", "b": y}\n' + table) == {}  # one key: no table


def test_item_lines_skip_arguments_that_can_be_no_item() -> None:
    """A line `x,` (a small letter or a digit first, no `.`) is never an item: the scan
    leaves it out, and it still parts the items around it (it is code between them)."""
    from errdex.extract.registries import _item_lines, choice_lists

    text = (
        "KERNELS = [\n"
        "    FastKernel,\n"
        "    fallback,\n"
        "    2,\n"
        "    _SafeKernel,\n"
        "]\n"
        "MODES = (\n"
        "    mode.FAST,\n"
        "    *extra,\n"
        "    None,\n"
        ")\n"
        "ORDER = [\n"
        "    FastKernel,\n"
        "    SafeKernel,\n"
        "]\n"
    )
    lines = [text[begin:comma].strip() for begin, comma in _item_lines(text)]
    assert lines == [
        *("FastKernel", "_SafeKernel", "mode.FAST", "*extra", "None"),
        *("FastKernel", "SafeKernel"),
    ]
    assert [(c.items, c.line) for c in choice_lists(text)] == [(("FastKernel", "SafeKernel"), 13)]


def test_every_platform_query_holds_a_word_tested_before_the_pattern() -> None:
    queries = (
        "current_platform.is_rocm()",
        "torch.cuda.is_available()",
        "torch.backends.mps.is_available()",
        "has_device_capability_family(100)",
        "is_device_capability(90)",
        "get_device_capability()[0] >= 9",
        "sys.platform == 'darwin'",
        "os.name == 'nt'",
        "platform.system() == 'Linux'",
    )
    for query in queries:
        assert PLATFORM_WORDS.search(query) is not None and _may_name_platform(query), query
    assert not _may_name_platform("return self.enabled")
    text = (
        "def on_rocm() -> bool:\n"
        "    return current_platform.is_rocm()\n"
        "\n"
        "def blackwell():\n"
        "    return has_device_capability_family(100)\n"
    )
    assert platform_tests(text) == {
        "on_rocm": "current_platform.is_rocm()",
        "blackwell": "has_device_capability_family(100)",
    }
