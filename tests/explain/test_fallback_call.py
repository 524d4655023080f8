"""A handler that, given a fallback argument, calls its own function again on it instead of
raising (`if default is not None: return self.get_style(default)`): the fallback hides the
failure (the result is the fallback's, not what was asked for), so giving it is no way out;
"What it means" says so. A handler that works the result out another way keeps its way out."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

LOOK = {
    "look/__init__.py": """
        from look.console import Console
        """,
    "look/console.py": """
        class StyleSyntaxError(Exception):
            pass


        class MissingStyle(Exception):
            pass


        def parse(name):
            if not name.isidentifier():
                raise StyleSyntaxError(f"bad style {name!r}")
            return name


        class Console:
            def get_style(self, name, *, default=None):
                try:
                    return parse(name)
                except StyleSyntaxError as error:
                    if default is not None:
                        return self.get_style(default)
                    raise MissingStyle(f"Failed to get style {name!r}; {error}") from None

            def get_color(self, name, *, default=None):
                try:
                    return parse(name)
                except StyleSyntaxError as error:
                    if default is not None:
                        return default.upper()
                    raise MissingStyle(f"Failed to get color {name!r}; {error}") from None
        """,
}


@pytest.fixture(scope="module")
def look(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("look"), "look", LOOK)


def test_a_fallback_the_function_is_called_again_on_is_no_way_out(look: Store) -> None:
    page = page_with_message(look, "look", "Failed to get style")
    assert not any("`default`" in s.text for s in page.solutions), page.solutions
    assert (
        "otherwise the handler returns `self.get_style(default)` instead (the fallback's "
        "result, not the one asked for), which hides the failure rather than avoiding it"
    ) in page.what_it_means


def test_a_result_worked_out_another_way_keeps_its_way_out(look: Store) -> None:
    page = page_with_message(look, "look", "Failed to get color")
    assert any("`default`" in s.text for s in page.solutions), page.solutions
