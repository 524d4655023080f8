"""A re-raise of a class the package raises only with no message (a signal to stop, click's
`Abort` on Ctrl+C or at the end of input) offers no "fix what its message names": there is
no message. A class raised with a message keeps that way out."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package

from errdex.explain.build import build_page
from errdex.explain.page import Page
from errdex.facts import SiteKind
from errdex.store import Store

FILES = {
    "cli/__init__.py": "from cli.core import Command\n",
    "cli/core.py": """
        class Abort(RuntimeError):
            pass


        class Failure(RuntimeError):
            pass


        def ask(text):
            try:
                return input(text)
            except EOFError:
                raise Abort() from None


        def stop():
            raise Abort()


        def find(name):
            raise Failure(f"no such thing: {name}")


        class Command:
            def main(self, name, standalone_mode=True):
                try:
                    return ask(name)
                except Abort:
                    if not standalone_mode:
                        raise
                    raise SystemExit(1)

            def run(self, name, standalone_mode=True):
                try:
                    return find(name)
                except Failure:
                    if not standalone_mode:
                        raise
                    raise SystemExit(1)
        """,
}


@pytest.fixture(scope="module")
def cli(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("cli"), "cli", FILES)


def reraise_in(store: Store, function: str) -> Page:
    (site,) = [
        s
        for s in store.list_sites("cli")
        if s.site.function == function and s.site.kind is SiteKind.RERAISE
    ]
    return build_page(store, site.id)


def test_a_class_raised_only_bare_has_no_message_to_fix(cli: Store) -> None:
    page = reraise_in(cli, "Command.main")
    # not offered: "Fix what this error's own message names: `ask(name)` ... raised `Abort`"
    assert page.solutions == []
    assert "its message says" not in page.what_it_means
    assert "the input of that call is what to check" not in page.what_it_means
    assert "a class the package raises only with no message" in page.what_it_means


def test_a_class_raised_with_a_message_keeps_its_way_out(cli: Store) -> None:
    page = reraise_in(cli, "Command.run")
    assert page.solutions[0].text.startswith("Fix what this error's own message names")
