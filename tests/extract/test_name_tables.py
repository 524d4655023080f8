"""Registries of plugins by name: module-level dicts of (module file, class) pairs."""

from __future__ import annotations

import ast

import pytest

from errdex.extract.keyed_tables import module_tables


def test_a_dict_of_module_and_class_pairs_is_a_registry_of_names() -> None:
    text = (
        "_PARSERS = {\n"
        '    "deepseek_r1": (  # name\n'
        '        "deepseek_r1_parser",  # filename\n'
        '        "DeepSeekR1Parser",\n'
        "    ),\n"
        '    "xlam": ("xlam_parser", "xLAMParser"),\n'
        "}\n"
    )
    classes, names = module_tables(text)
    assert classes == {}
    assert names == {
        "_PARSERS": {
            "deepseek_r1": ("deepseek_r1_parser", "DeepSeekR1Parser"),
            "xlam": ("xlam_parser", "xLAMParser"),
        }
    }


def test_pairs_that_name_no_module_and_class_are_no_registry() -> None:
    # a class name in small letters, a path that is no module name, a value of one string
    for value in ('("mod", "lower")', '("a/b.py", "Cls")', '"Cls"', '("mod", "Cls", "x")'):
        text = f'TABLE = {{\n    "a": {value},\n    "b": ("mod_b", "ClsB"),\n}}\n'
        assert module_tables(text) == ({}, {}), value
    # a dict of class families is read as before, and not as names
    classes, names = module_tables('KERNELS = {"a": {AKernel}, "b": {BKernel}}\n')
    assert classes == {"KERNELS": {"a": ("AKernel",), "b": ("BKernel",)}}
    assert names == {}


def test_a_registry_after_many_class_tables_is_kept() -> None:
    # the class tables' cap is theirs: a registry of names below them is still read
    tables = "".join(f'T{i} = {{"a": {{A{i}}}, "b": {{B{i}}}}}\n' for i in range(60))
    registry = '_PARSERS = {"a": ("a_parser", "AParser"), "b": ("b_parser", "BParser")}\n'
    classes, names = module_tables(tables + registry)
    assert len(classes) == 50
    assert list(names) == ["_PARSERS"]


def test_class_tables_past_the_cap_are_not_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    # once 50 class tables are read, only a dict holding a `("module", "Class")` pair is
    tables = "".join(f'T{i} = {{"a": {{A{i}}}, "b": {{B{i}}}}}\n' for i in range(60))
    registry = '_PARSERS = {"a": ("a_parser", "AParser"), "b": ("b_parser", "BParser")}\n'
    parsed = []
    parse = ast.parse
    monkeypatch.setattr(ast, "parse", lambda text, *a, **k: parsed.append(text) or parse(text))
    classes, names = module_tables(tables + registry)
    assert (len(classes), list(names)) == (50, ["_PARSERS"])
    assert len(parsed) == 51
