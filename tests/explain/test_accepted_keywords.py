"""A function taking `**kwargs` that refuses a key not among the names it lists: the way out
is a keyword among those names, before passing none at all."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import checks, indexed_package, offered, page_with_message

from errdex.store import Store

LINKS = {
    "links/__init__.py": "from links._urls import Link, build, loose\n",
    "links/_urls.py": """
        NAMES = ("scheme", "host")


        class Link:
            def __init__(self, url="", **kwargs):
                if kwargs:
                    allowed = {"scheme": str, "host": str, "port": int}
                    for key, value in kwargs.items():
                        if key not in allowed:
                            raise TypeError(f"{key!r} is an invalid keyword argument")
                self.url = url


        def build(**parts):
            for name in parts:
                if name not in NAMES:
                    raise TypeError(f"unknown part {name!r}")
            return parts


        def loose(**parts):
            allowed = set(NAMES)
            allowed.add("port")
            for name in parts:
                if name not in allowed:
                    raise TypeError(f"no such part {name!r}")
            return parts
        """,
}


@pytest.fixture(scope="module")
def links(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("links"), "links", LINKS)


def test_the_keywords_a_local_mapping_names(links: Store) -> None:
    page = page_with_message(links, "links", "{key!r} is an invalid keyword argument")
    # before: only "Pass an empty (false) value for the argument `kwargs` of `Link`."
    assert page.solutions[0].text == (
        "Pass `Link` only keywords it accepts: `scheme`, `host`, `port` (the check at line "
        "10 refuses any other name)."
    )
    assert "`**kwargs` of `Link` collects" in page.solutions[1].text
    assert "errdex found no setting" not in page.what_it_means


def test_the_keywords_a_module_constant_names(links: Store) -> None:
    page = page_with_message(links, "links", "unknown part")
    assert page.solutions[0].text.startswith(
        "Pass `build` only keywords it accepts: `scheme`, `host`"
    )


def test_a_set_changed_after_it_is_made_names_nothing(links: Store) -> None:
    # `allowed.add("port")`: the literal is not the whole set the check reads
    page = page_with_message(links, "links", "no such part")
    assert not any("only keywords it accepts" in s.text for s in page.solutions)
    assert offered(page) == [] and checks(page)
