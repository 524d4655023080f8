"""A parser a table of another module of its folder, one named for validating, pairs with a
type (`(date, [parse_day])` in `validators.py`, after `from .parse import parse_day`) is a
validator as one its own module lists is; a helper every caller of which is such a
validator handing it its value as it came (`get_number(value, "date")`) checks the field's
value too, one step up. Their pages speak of the field's value: the pattern it must match
(a pattern built from the module's strings, a test of either of two), or the types the
message says it expects."""

from __future__ import annotations

import textwrap
from collections.abc import Iterator
from types import SimpleNamespace
from typing import cast

import pytest
from explain_samples import indexed_package

from errdex.explain.build import build_page
from errdex.explain.context import Facts
from errdex.explain.page import Page
from errdex.explain.validator_tables import handed_on
from errdex.explain.validators import _handed_by_name
from errdex.facts import SiteKind
from errdex.reading_facts import SourceRead
from errdex.store import Store, StoredSite

FILES = {
    "stamps/__init__.py": "",
    "stamps/parse.py": """
        import re
        from datetime import date, timedelta

        date_expr = r'(?P<year>\\d{4})-(?P<month>\\d{1,2})-(?P<day>\\d{1,2})'
        date_re = re.compile(f'{date_expr}$')
        day_re = re.compile(r'^(?P<days>\\d+)d$')
        week_re = re.compile(r'^(?P<weeks>\\d+)w$')


        class StampError(ValueError):
            pass


        def get_number(value, expected):
            if isinstance(value, (int, float)):
                return value
            try:
                return float(value)
            except ValueError:
                return None
            except TypeError:
                raise TypeError(f'invalid type; expected {expected}, string, int or float')


        def as_text(value):
            if not isinstance(value, (str, bytes)):
                raise TypeError('invalid type; expected str or bytes')
            return value


        def parse_day(value):
            if isinstance(value, date):
                return value
            number = get_number(value, 'date')
            if number is not None:
                return date.fromordinal(int(number))
            as_text(value)
            match = date_re.match(value)
            if match is None:
                raise StampError()
            return date(**{k: int(v) for k, v in match.groupdict().items()})


        def parse_span(value):
            if isinstance(value, timedelta):
                return value
            try:
                match = day_re.match(value) or week_re.match(value)
            except TypeError:
                raise TypeError('invalid type; expected timedelta or string')
            if not match:
                raise StampError()
            return timedelta(**{k: int(v) for k, v in match.groupdict().items()})


        def parse_word(value):
            if not isinstance(value, str):
                raise TypeError('invalid type; expected str or bytes')
            return value
        """,
    "stamps/validators.py": """
        from datetime import date, timedelta

        from .parse import parse_day, parse_span

        _VALIDATORS = [
            (date, [parse_day]),
            (timedelta, [parse_span]),
        ]


        def find_validators(type_):
            for kind, validators in _VALIDATORS:
                if issubclass(type_, kind):
                    return validators
            raise TypeError(f"no validator found for {type_}")
        """,
    "stamps/words.py": """
        from .parse import as_text, parse_word

        _VALIDATORS = [(str, [parse_word])]


        def count(value):
            text = as_text(value)
            if not text.isdigit():
                raise ValueError("not a count")
        """,
}


@pytest.fixture(scope="module")
def stamps(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("stamps"), "stamps", FILES)


def page(store: Store, function: str, exception: str, kind: SiteKind = SiteKind.RAISE) -> Page:
    (site,) = [
        s
        for s in store.list_sites("stamps")
        if s.site.function == function and s.site.kind == kind and exception in str(s.site)
    ]
    return build_page(store, site.id)


def texts(found: Page) -> list[str]:
    return [s.text for s in found.solutions]


def test_a_table_of_a_module_importing_it_makes_it_a_validator(stamps: Store) -> None:
    # `validators.py` (kept: it holds a raise) pairs `parse_span` with `timedelta`: either
    # pattern the `try` assigned `match` from is the way out, each shown
    (first, *_) = texts(page(stamps, "parse_span", "StampError"))
    assert first.startswith(
        "In the data you validate, give a field declared as `timedelta` a value in a form one "
        "of these accepts: the pattern `day_re` (`r'^(?P<days>\\d+)d$'`) matches from its "
        "start, or the pattern `week_re` (`r'^(?P<weeks>\\d+)w$'`) matches from its start. "
        "`parse_span` is a validator the framework runs on that value"
    )


def test_a_pattern_built_from_the_modules_strings_is_shown(stamps: Store) -> None:
    (first, *_) = texts(page(stamps, "parse_day", "StampError"))
    assert first.startswith(
        "In the data you validate, give a field declared as `date` a value in a form the "
        "pattern `date_re` (`r'(?P<year>\\d{4})-(?P<month>\\d{1,2})-(?P<day>\\d{1,2})$'`) "
        "matches from its start."
    )


def test_the_types_the_message_expects_are_the_way_out(stamps: Store) -> None:
    (first, *_) = texts(page(stamps, "parse_span", "TypeError"))
    assert first.startswith(
        "In the data you validate, give a field declared as `timedelta` a value of a type the "
        "message expects: timedelta or string."
    )


def test_a_helper_of_validators_checks_the_fields_value(stamps: Store) -> None:
    # `get_number` is called by `parse_day` on its own value: no user passes its argument
    found = texts(page(stamps, "get_number", "TypeError"))
    assert found[0].startswith(
        "In the data you validate, give a field declared as `date` a value of a type the "
        "message expects: date, string, int or float. `get_number` runs on that value "
        "inside `parse_day`, a validator the framework runs"
    )
    assert not any("argument `value` of `get_number`" in t for t in found)
    # the validator's own call of it says the same of the field
    (helper, *_) = texts(page(stamps, "parse_day", "TypeError", SiteKind.HELPER))
    assert helper.startswith(
        "In the data you validate, give a field declared as `date` a value of a type the "
        "message expects: date, string, int or float."
    )


def test_a_parser_no_table_lists_keeps_its_argument(stamps: Store) -> None:
    # `parse_word` is in a table of `words.py` only, a module not named for validating (not
    # read); `as_text` is called by `count` too, which is no validator
    assert not any("In the data you validate" in t for t in texts(page(stamps, "parse_word", "")))
    assert not any(
        "In the data you validate" in t for t in texts(page(stamps, "as_text", "TypeError"))
    )
    # each keeps its argument's way out
    assert texts(page(stamps, "parse_word", "")) == [
        "Pass the argument `value` of `parse_word` as an instance of `str`."
    ]
    assert texts(page(stamps, "as_text", "TypeError")) == [
        "Pass the argument `value` of `as_text` as an instance of one of `str`, `bytes`."
    ]


def test_the_folders_validating_modules_are_read_once_a_page() -> None:
    # the site's function and each caller asked of: `validators.py` read once for them all
    facts = Facts(stored=cast(StoredSite, SimpleNamespace(file="stamps/parse.py")),
                  conditions=[], read=SourceRead())  # fmt: skip
    facts.source_text = textwrap.dedent(FILES["stamps/parse.py"])
    facts.folder_paths = lambda: sorted(FILES)
    read: list[str] = []

    def file_text(path: str) -> str:
        read.append(path)
        return textwrap.dedent(FILES[path])

    facts.file_text = file_text
    assert handed_on(facts, "parse_day") == "a field declared as `date`"
    assert handed_on(facts, "parse_span") == "a field declared as `timedelta`"
    assert handed_on(facts, "parse_word") is None  # `words.py` is not named for validating
    assert read == ["stamps/validators.py"]


def test_a_folder_is_read_for_a_validator_s_name_once_a_process() -> None:
    # two cold pages of one version asking whether `parse_day` is handed on by name: the
    # folder's texts are read for the first only (the revision is the content's hash)
    read: list[str] = []

    def file_text(path: str) -> str:
        read.append(path)
        return textwrap.dedent(FILES[path])

    def cold_page(revision: str) -> Facts:
        stored = SimpleNamespace(file="stamps/parse.py", revision=revision)
        facts = Facts(stored=cast(StoredSite, stored), conditions=[], read=SourceRead())
        facts.folder_paths = lambda: sorted(FILES)
        facts.file_text = file_text
        return facts

    assert _handed_by_name(cold_page("rev-1"), "parse_day")  # `validators.py`'s table
    first = len(read)
    assert first > 0
    assert _handed_by_name(cold_page("rev-1"), "parse_day")
    assert len(read) == first
    # another version (another content) is read again
    assert _handed_by_name(cold_page("rev-2"), "parse_day")
    assert len(read) == 2 * first
