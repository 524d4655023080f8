"""The `str.find` scans the skeleton, the settings scan and the constants share."""

from __future__ import annotations

import re

import pytest

from errdex.extract.textscan import (
    LineNumbers,
    after_word_boundary,
    find_all,
    inside_bounds,
    line_heads,
    line_matches,
    matches_from,
    name_start,
    occurrences,
    offsets_of,
    starting,
    string_bounds,
    triple_quoted_bounds,
    words_after,
)


def test_occurrences_are_every_offset_overlaps_included() -> None:
    assert list(occurrences("aaaa", "aa")) == [0, 1, 2]
    assert list(occurrences("abc", "x")) == []


def test_line_heads_are_the_occurrences_only_indentation_precedes() -> None:
    text = "def f():\n    return a\n\x0c return b\nx = 1; return c\nreturn d  # return e\n"
    assert [text[at:].split("\n")[0] for at in line_heads(text, "return ")] == [
        "return a",
        "return b",
        "return d  # return e",
    ]


def test_words_after_a_lead_are_each_words_occurrences_in_one_pass() -> None:
    text = "log.error(x); log.errors; e.exception(); a.log(1).error(2); .err"
    words = (".error", ".errors", ".exception", ".log(", ".err")
    found = words_after(text, ".", words)
    assert found == {word: list(occurrences(text, word)) for word in words}
    assert found[".errors"] == [text.index(".errors")]


def test_words_after_refuses_words_holding_their_lead_again() -> None:
    with pytest.raises(ValueError):
        words_after("a.b.c", ".", (".b.c",))


def test_matches_from_a_words_offsets_are_what_finditer_finds() -> None:
    text = "return x\nreturn  y # c\nreturnz\n  return a and b\nreturn return q\n"
    pattern = re.compile(r"return [ \t]*(\w+(?:[ \t]+and[ \t]+\w+)*)[ \t]*(?:#[^\n]*)?$", re.M)
    returns = starting(text, "return ", offsets_of(text, "return"))
    assert returns == list(occurrences(text, "return "))
    found = [(m.span(), m[1]) for m in matches_from(pattern, text, returns)]
    assert found == [(m.span(), m[1]) for m in pattern.finditer(text)]
    assert [name for _, name in found] == ["x", "y", "a and b", "q"]


def test_find_all_sorts_the_offsets_of_all_words() -> None:
    text = "os.getenv('A') or os.environ['B'] or getenv('C')"
    assert find_all(text, ("environ", "getenv")) == [3, 21, 37]


def test_a_word_boundary_is_no_identifier_character_before() -> None:
    text = "check(x); self.check(y); precheck(z)"
    assert [at for at in occurrences(text, "check(") if after_word_boundary(text, at)] == [0, 15]


def test_a_name_starts_after_the_last_character_no_identifier_holds() -> None:
    text = "f(parallel_config.tp_size)"
    end = text.index(")")
    assert text[name_start(text, end) : end] == "tp_size"
    assert text[name_start(text, end, dotted=True) : end] == "parallel_config.tp_size"
    # never before `start`
    assert name_start(text, end, start=10, dotted=True) == 10


def test_triple_quoted_strings_pair_each_opening_with_its_own_kind() -> None:
    text = "a = \"\"\"x ''' y\"\"\"\nb = 1\nc = '''z'''\n"
    bounds = triple_quoted_bounds(text)
    assert bounds == [4, 14, 28, 32]
    assert inside_bounds(bounds, text.index("y"))
    assert not inside_bounds(bounds, text.index("b"))
    assert inside_bounds(bounds, text.index("z"))


def test_string_bounds_read_quotes_as_the_tokenizer_does() -> None:
    text = (
        "# a comment's quote: '''\n"
        "x = 'it''s'  # \"\"\"\n"
        'code = """\\\n'
        "def f():\n"
        '""" % values\n'
        "y = 'a \\\n"
        "b'\n"
        "z = 1\n"
    )
    bounds = string_bounds(text)
    # the two strings that span lines, not the quotes in a comment or in a one-line string
    assert len(bounds) == 4
    assert inside_bounds(bounds, text.index("def f"))
    # a line that begins with the closing quote is the string's, not a statement's
    assert inside_bounds(bounds, text.index('""" % values'))
    assert inside_bounds(bounds, text.index("b'"))
    assert not inside_bounds(bounds, text.index("z = 1"))
    assert not inside_bounds(bounds, text.index(" % values"))


def test_line_numbers_number_each_offset_by_its_line_in_any_order() -> None:
    text = "a = 1\n\nclass B:\n    pass"
    line_of = LineNumbers(text)
    assert [line_of(text.index(w)) for w in ("a", "class", "pass")] == [1, 3, 4]
    # an offset before the last one asked is counted again from the start
    assert [line_of(text.index(w)) for w in ("class", "\n\n", "a", "pass")] == [3, 1, 1, 4]


def test_line_matches_find_a_pattern_only_at_the_start_of_a_line() -> None:
    text = "class A:\n    x = 'class Fake'\n    class B:\n        pass\n"
    found = [
        (at, m.group(2))
        for at, _, m in line_matches(re.compile(r"\n([ \t]*)class[ \t]+(\w+)"), text)
    ]
    # each at the offset its line starts at in the text (the first line too)
    assert found == [(0, "A"), (text.index("    class B"), "B")]
