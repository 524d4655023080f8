"""A lookup of the user's argument in a module's table, under `except KeyError` or by
`.get` tested for None: the way out is one of the table's keys, a few of them named when the
table is a literal."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_in_function

from errdex.store import Store

FILES = {
    "glyphs/__init__.py": "from glyphs.emoji import Emoji, lookup, stream, renamed\n",
    "glyphs/_codes.py": """
        CODES = {"smile": "1", "frown": "2", "wink": "3", "grin": "4", "sob": "5"}


        def code_of(name):
            if not name:
                raise ValueError("a name is needed")
            return CODES[name]
        """,
    "glyphs/emoji.py": """
        from glyphs._codes import CODES

        ALIASES = {"happy": "smile", "sad": "frown"}


        class NoEmoji(Exception):
            pass


        class Emoji:
            def __init__(self, name):
                try:
                    self.char = CODES[name]
                except KeyError:
                    raise NoEmoji(f"No emoji called {name!r}")


        def lookup(alias):
            try:
                return ALIASES[alias]
            except KeyError:
                raise NoEmoji(f"No alias {alias!r}") from None


        def _internal(name):
            try:
                return ALIASES[name]
            except KeyError:
                raise NoEmoji(f"No alias {name!r}") from None


        class Config:
            def __getattr__(self, name):
                try:
                    return ALIASES[name]
                except KeyError:
                    raise AttributeError(f"Config has no attribute {name!r}") from None


        def _code_of(color, offset=0):
            if isinstance(color, int):
                return str(color + offset)
            return ALIASES[color] + str(offset)


        def style(text, fg=None):
            if fg:
                try:
                    return _code_of(fg) + text
                except KeyError:
                    raise TypeError(f"Unknown color {fg!r}") from None
            return text


        def stream(name):
            opener = CODES.get(name)
            if opener is None:
                raise TypeError(f"Unknown stream {name!r}")
            return opener


        def stream_of(name):
            opener = CODES.get(name)
            if opener is None:
                raise TypeError(f"Unknown stream {name!r}")
            return opener


        def renamed(name):
            opener = CODES.get(name)
            if opener is None:
                opener = ALIASES.get(name)
            if opener is None:
                raise TypeError(f"Unknown {name!r}")
            return opener


        def cached(name, cache):
            try:
                return cache[name]
            except KeyError:
                raise NoEmoji(f"Not cached: {name!r}") from None


        class Board:
            layouts = {"row": list, "column": tuple}

            def split(self, *parts, layout="column"):
                try:
                    self.layout = self.layouts[layout]()
                except KeyError:
                    raise NoEmoji(f"No layout called {layout!r}")


        class Shelf:
            kinds = {"row": list}

            def __init__(self, extra):
                self.kinds = dict(extra)

            def pick(self, kind):
                try:
                    return self.kinds[kind]
                except KeyError:
                    raise NoEmoji(f"No kind called {kind!r}")
        """,
}


@pytest.fixture(scope="module")
def glyphs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("glyphs"), "glyphs", FILES)


def test_a_table_imported_from_another_module_is_named_with_its_keys(glyphs: Store) -> None:
    texts = [s.text for s in page_in_function(glyphs, "glyphs", "Emoji.__init__").solutions]
    assert texts[0] == (
        "Pass for the argument `name` of `Emoji` one of the keys of `CODES` (such as "
        "`'smile'`, `'frown'`, `'wink'`, `'grin'`, …): the lookup `CODES[name]` at line 14 "
        "found no such key."
    )


def test_a_table_of_the_same_module_gives_its_keys(glyphs: Store) -> None:
    texts = [s.text for s in page_in_function(glyphs, "glyphs", "lookup").solutions]
    assert texts[0].startswith(
        "Pass for the argument `alias` of `lookup` one of the keys of `ALIASES` (such as "
        "`'happy'`, `'sad'`): "
    )


def test_no_table_solution_for_an_internal_function_an_attribute_or_a_mapping_passed_in(
    glyphs: Store,
) -> None:
    for function in ("_internal", "cached", "Config.__getattr__"):
        texts = [s.text for s in page_in_function(glyphs, "glyphs", function).solutions]
        assert not any("one of the keys of" in t for t in texts)


def test_a_table_a_function_of_the_module_looks_the_argument_up_in(glyphs: Store) -> None:
    page = page_in_function(glyphs, "glyphs", "style")
    first = page.solutions[0]
    assert first.text == (
        "Pass for the argument `fg` of `style` one of the keys of `ALIASES` (such as "
        "`'happy'`, `'sad'`): `_code_of`, which looks `fg` up in `ALIASES` (line 44), found "
        "no such key."
    )
    # the fix passes a key
    assert first.fix is not None and first.fix.after.endswith("style(text=TEXT, fg='happy')")


def test_a_get_tested_for_none_is_a_lookup_too(glyphs: Store) -> None:
    first = page_in_function(glyphs, "glyphs", "stream").solutions[0]
    assert first.text == (
        "Pass for the argument `name` of `stream` one of the keys of `CODES` (such as "
        "`'smile'`, `'frown'`, `'wink'`, `'grin'`, …): `CODES.get(name)` at line 57 found no "
        "such key."
    )


def test_a_get_whose_result_is_set_again_or_of_a_function_not_exported_names_no_table(
    glyphs: Store,
) -> None:
    # `opener` falls back to another table: neither one's keys alone are the way out;
    # `stream_of` is not exported by the package: likely a helper the program calls itself
    for function in ("renamed", "stream_of"):
        texts = [s.text for s in page_in_function(glyphs, "glyphs", function).solutions]
        assert not any("one of the keys of" in t for t in texts)


def test_a_table_in_the_class_body_gives_its_keys(glyphs: Store) -> None:
    page = page_in_function(glyphs, "glyphs", "Board.split")
    # before: no solution ("the input of that call is what to check")
    assert page.solutions[0].text == (
        "Pass for the argument `layout` of `Board.split` one of the keys of `self.layouts` "
        "(such as `'row'`, `'column'`): the lookup `self.layouts[layout]` at line 91 found "
        "no such key."
    )


def test_a_class_table_the_instance_sets_again_names_no_keys(glyphs: Store) -> None:
    texts = [s.text for s in page_in_function(glyphs, "glyphs", "Shelf.pick").solutions]
    assert not any("one of the keys of" in t for t in texts)
