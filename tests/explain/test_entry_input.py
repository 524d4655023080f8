"""A check in an internal function on a value a public call passes on: the way out is that
argument of the public call, with the check and its message."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

FILES = {
    "web/__init__.py": "from web.urls import URL, fetch\n",
    "web/_parse.py": """
        class InvalidURL(Exception):
            pass


        def parse(url):
            if any(not c.isprintable() for c in url):
                raise InvalidURL("Invalid non-printable character in URL")
            scheme, _, rest = url.partition(":")
            has_scheme = scheme != ""
            check_path(rest, has_scheme=has_scheme)
            return scheme, rest


        def check_path(path, has_scheme):
            if path.startswith("::") and not has_scheme:
                raise InvalidURL("A path with no scheme cannot start with '::'")


        def check_session(session):
            if session.sharded:
                raise InvalidURL("Sharded sessions are not supported")


        def strict(value):
            if not value:
                raise TypeError("empty value")
            return value
        """,
    "web/urls.py": """
        from web._parse import check_session, parse, strict


        class URL:
            def __init__(self, url):
                if not isinstance(url, str):
                    raise TypeError("url must be a str")
                self.parts = parse(url)


        def fetch(url, session):
            check_session(session)
            try:
                return strict(url)
            except TypeError:
                return None
        """,
}


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("web"), "web", FILES)


def test_the_public_call_whose_argument_reaches_the_check_is_named(web: Store) -> None:
    page = page_with_message(web, "web", "Invalid non-printable character")
    assert page.solutions[0].text == (
        "Change the argument `url` you pass to `web.URL`: it reaches `parse` as `url`, and "
        "the check at line 7 fails when for some `c` in `url`: `c.isprintable()` returns a "
        "false value (“Invalid non-printable character in URL”)."
    )


def test_a_value_computed_from_the_argument_is_not_followed(web: Store) -> None:
    # `has_scheme` is what `parse` made of the URL: a call's answer is not the argument
    page = page_with_message(web, "web", "A path with no scheme")
    assert not any(s.text.startswith("Change the argument") for s in page.solutions)


def test_no_entry_solution_for_an_objects_state_or_an_error_the_caller_catches(
    web: Store,
) -> None:
    for message in ("Sharded sessions", "empty value"):
        page = page_with_message(web, "web", message)
        assert not any(s.text.startswith("Change the argument") for s in page.solutions)


def test_a_src_layout_names_the_public_call_by_its_module(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # a repository's `src/` folder is no part of the module's name: the user calls
    # `web.api.load`, never `src.web.api.load`
    files = {
        "src/web/__init__.py": "",
        "src/web/_parse.py": FILES["web/_parse.py"],
        "src/web/api.py": """
            from web._parse import parse


            def load(url):
                return parse(url)


            def save(url):
                raise NotImplementedError("saving is not supported")
            """,
    }
    for store in indexed_package(tmp_path_factory.mktemp("src_web"), "web", files):
        page = page_with_message(store, "web", "Invalid non-printable character")
        assert page.solutions[0].text.startswith(
            "Change the argument `url` you pass to `web.api.load`: it reaches `parse`"
        )
