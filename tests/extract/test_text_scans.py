"""The whole-text scans find what starts a file's first line as any other line, read each
quoted name of a `not in` test, whichever quote it is written with, and leave out the lines
that can be no item of a list."""

from __future__ import annotations

from errdex.extract.keyed_tables import literal_aliases, module_tables
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
    assert module_tables(text)[0] == {"KERNELS": {"a": ("AKernel",), "b": ("BKernel", "CKernel")}}
    assert module_tables('TABLE = {"x": {XKernel}, "y": {YKernel}}')[0] == {
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


def test_a_module_dict_is_parsed_for_a_table_only_when_a_bracket_opens_after_its_own() -> None:
    # `NAMES` opens no bracket after its own: not parsed, and the table after it still is
    text = (
        'NAMES = {"a": "x", "b": y}\nKERNELS = {\n    "a": (AKernel,),\n    "b": (BKernel,),\n}\n'
    )
    assert module_tables(text)[0] == {"KERNELS": {"a": ("AKernel",), "b": ("BKernel",)}}


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
