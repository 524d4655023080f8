"""A check on each item of a mapping the user passed, in a loop over its items: the way out
is phrased on the keywords (or the mapping's values) the user gave the public call."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import checks, indexed_package, offered, page_with_message

from errdex.store import Store

FILES = {
    "web/__init__.py": "from web.urls import URL, send\n",
    "web/_parse.py": """
        import re

        MAX_LENGTH = 4096

        PARTS = {
            "scheme": re.compile("[a-z]*"),
            "path": re.compile("[^?#]*"),
        }


        class InvalidURL(Exception):
            pass


        def parse(url, **kwargs):
            if "port" in kwargs:
                kwargs["port"] = str(kwargs["port"])
            for key, value in kwargs.items():
                if value is not None:
                    if len(value) > MAX_LENGTH:
                        raise InvalidURL(f"URL part '{key}' too long")
                    if not PARTS[key].fullmatch(value):
                        raise InvalidURL(f"Invalid URL part '{key}'")
            return url, kwargs


        def check_headers(headers, seen):
            for name, value in headers.items():
                if value in seen:
                    raise InvalidURL("header seen before")
            for name, value in headers.items():
                if not isinstance(value, str):
                    raise TypeError(f"header {name} must be a str")


        def check_fields(fields):
            fields["x"] = "1"
            for name, value in fields.items():
                if not isinstance(value, str):
                    raise TypeError(f"field {name} must be a str")


        def hook(**kw):
            for key, value in kw.items():
                if not isinstance(value, str):
                    raise TypeError(f"hook keyword {key} must be a str")
        """,
    "web/options.py": """
        LIMIT = 10


        def configure(**options):
            for key, value in options.items():
                if key.startswith("max_") and value > LIMIT:
                    raise ValueError(f"option {key} is over the limit")
            for key, value in options.items():
                if value is not None and not callable(value) and value.closed:
                    raise ValueError(f"option {key} is closed")


        class Plugin:
            def setup(self, **kw):
                for key, value in kw.items():
                    if not isinstance(value, int):
                        raise TypeError(f"plugin option {key} must be an int")
        """,
    "web/urls.py": """
        from web._parse import check_fields, check_headers, hook, parse


        class URL:
            def __init__(self, url, **kwargs):
                if not isinstance(url, str):
                    raise TypeError("url must be a str")
                self.parts = parse(url, **kwargs)


        def send(url, headers, fields, **options):
            check_headers(headers, set())
            check_fields(fields)
            hook(**dict(options))
        """,
}


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("web_items"), "web", FILES)


def test_a_table_of_patterns_by_keyword_is_said_for_the_keywords_of_the_public_call(
    web: Store,
) -> None:
    page = page_with_message(web, "web", "Invalid URL part")
    assert page.solutions[0].text == (
        "Give each keyword argument you pass to `web.URL` a value that the pattern for its "
        "name in `PARTS` matches as a whole (`scheme`: `'[a-z]*'`, `path`: `'[^?#]*'`): the "
        "keywords reach `parse` as `**kwargs`, which raises at line 24 for any other value "
        "(“Invalid URL part 'KEY'”)."
    )


def test_a_bound_on_each_keyword_is_said_of_the_public_calls_keywords(web: Store) -> None:
    page = page_with_message(web, "web", "URL part")
    assert page.solutions[0].text == (
        "Pass each keyword argument of `web.URL` with a length at most `MAX_LENGTH` (`4096`): "
        "the keywords reach `parse` as `**kwargs`, which raises at line 22 for any other "
        "value (“URL part 'KEY' too long”)."
    )


def test_a_named_mapping_passed_on_as_it_is_is_said_as_its_values(web: Store) -> None:
    page = page_with_message(web, "web", "header {name}")
    texts = [s.text for s in page.solutions]
    assert (
        "Pass each value of the mapping `headers` of `web.send` as an instance of `str`: the "
        "mapping reaches `check_headers` as `headers`, which raises at line 34 for any other "
        "value (“header NAME must be a str”)."
    ) in texts


def test_a_check_no_shape_puts_in_words_says_the_checks_on_the_item(web: Store) -> None:
    # the function is the user's own call
    page = page_with_message(web, "web", "option {key} is closed")
    assert page.solutions[0].text == (
        "Change each keyword argument you pass to `web.options.configure`: the keywords reach "
        "`configure` as `**options`, each value as `value` in the loop at line 9, and the "
        "check at line 10 fails when `value` is not None and `value` is not callable and "
        "`value.closed` is set (not empty, zero or None) (“option KEY is closed”)."
    )


def test_no_way_out_on_the_items_of_a_mapping_the_code_changed_or_built(web: Store) -> None:
    # a check reading the program's state beside the item, or the item's name (leaving
    # the keyword out may be the way); a mapping the function stores
    # into; keywords no public call hands on as its own `**kwargs`; a method's, which a
    # framework may fill
    shut = ("header seen", "field {name}", "hook keyword", "plugin option", "option {key} is over")
    for message in shut:
        page = page_with_message(web, "web", message)
        assert not any(
            s.text.startswith(("Give each", "Pass each", "Change each")) for s in page.solutions
        ), message
        # the page is built, its check read; only the field's own rule is offered
        assert checks(page), message
        assert offered(page) == _INSTEAD.get(message, []), message


# what a page above offers in place of the keywords' items
_INSTEAD = {"field {name}": ["Give field `NAME` a value that is a str, as the message says"]}
