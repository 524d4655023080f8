"""A check that sees the user's argument only through locals made from it: the message's
rule is said of that argument ("Change what you pass for `rows` of `Formatter.write_dl` as
the message says"), with its `:param:` line; not of a local that reads the object's state
or another argument, nor where the message states no rule, nor in a package driven by
its command."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package

from errdex.explain import build_page
from errdex.store import Store

DERIVED = {
    "shapes/__init__.py": """
        from shapes.tables import Formatter, parse_color
        """,
    "shapes/tables.py": """
        import os
        import re

        RE_COLOR = re.compile(r"^rgb\\(([\\d\\s,]+)\\)$")


        def measure(rows):
            widths = {}
            for row in rows:
                for index, col in enumerate(row):
                    widths[index] = max(widths.get(index, 0), len(col))
            return tuple(widths[i] for i in sorted(widths))


        class Formatter:
            def __init__(self, columns=2):
                self.columns = columns

            def write_dl(self, rows, col_max=30):
                \"\"\"Writes a definition list.

                :param rows: a list of two item tuples for the terms and values.
                :param col_max: the maximum width of the first column.
                \"\"\"
                rows = list(rows)
                widths = measure(rows)
                if len(widths) != 2:
                    raise TypeError("Expected two columns for definition list")
                return widths

            def write_table(self, rows):
                widths = measure(rows)
                if len(widths) != self.columns:
                    raise TypeError("Expected as many columns as the formatter has")
                return widths

            def write_pairs(self, rows, extra):
                widths = measure(rows) + extra
                if len(widths) != 2:
                    raise TypeError("Expected two columns for the pairs")
                return widths

            def write_row(self, row):
                cells = measure([row])
                if len(cells) > 3:
                    raise TypeError("Too many cells in the row")
                return cells


        def parse_color(color):
            original = color
            color = color.lower().strip()
            if color == "default":
                return None
            match = RE_COLOR.match(color)
            if match is None:
                raise ValueError(f"{original!r} is not a valid color")
            (rgb,) = match.groups()
            components = rgb.split(",")
            if len(components) != 3:
                raise ValueError(f"expected three components in {original!r}")
            return components


        def default_size():
            return os.environ.get("SHAPES_SIZE", "80x24")


        def parse_size(size=None):
            if size is None:
                size = default_size()
            parts = size.split("x")
            if len(parts) != 2:
                raise ValueError("expected two dimensions, as WIDTHxHEIGHT")
            return parts
        """,
}


# The same module in a package driven by its command (`shapes = "shapes.cli:main"`).
COMMANDED = {
    **DERIVED,
    "pyproject.toml": """
        [project]
        name = "shapes"
        version = "1.0"
        [project.scripts]
        shapes = "shapes.cli:main"
        """,
    "shapes/cli.py": """
        def main():
            return 0
        """,
}


@pytest.fixture(scope="module")
def commanded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("commanded"), "shapes", COMMANDED)


@pytest.fixture(scope="module")
def derived(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("derived"), "shapes", DERIVED)


def first_solution(store: Store, function: str) -> str | None:
    """The first way out of the last site of `function`."""
    sites = [s for s in store.list_sites("shapes") if s.site.function == function]
    site = max(sites, key=lambda s: s.site.line)
    page = build_page(store, site.id)
    return page.solutions[0].text if page.solutions else None


def test_a_local_made_from_the_argument_is_the_argument(derived: Store) -> None:
    # `rows = list(rows)`, `widths = measure(rows)`: the check sees what the user passed
    assert first_solution(derived, "Formatter.write_dl") == (
        "Change what you pass for `rows` of `Formatter.write_dl` as the message says: "
        "“Expected two columns for definition list”; its docstring: “a list of two item "
        "tuples for the terms and values.”"
    )


def test_every_check_of_the_path_read_through_locals_of_the_argument(derived: Store) -> None:
    # lowered, matched, a group split: the exit and the match's test read the same argument
    assert first_solution(derived, "parse_color") == (
        "Change what you pass for `color` of `parse_color` as the message says: "
        "“expected three components in ORIGINAL”"
    )


def test_a_local_that_reads_more_than_the_argument_is_not_it(derived: Store) -> None:
    # the object's own state, another argument: the argument alone does not decide the check
    for function in ("Formatter.write_table", "Formatter.write_pairs"):
        found = first_solution(derived, function)
        assert found is None or "Change what you pass for `rows`" not in found


def test_a_message_that_states_no_rule_gets_nothing_here(derived: Store) -> None:
    found = first_solution(derived, "Formatter.write_row")
    assert found is None or "Change what you pass for `row`" not in found


def test_a_package_driven_by_its_command_gets_nothing_here(commanded: Store) -> None:
    # its functions are handed what its own code computed: the command's flags are the
    # user's way in
    found = first_solution(commanded, "Formatter.write_dl")
    assert found is None or "Change what you pass for `rows`" not in found


def test_an_argument_replaced_by_another_value_is_not_what_the_check_sees(derived: Store) -> None:
    # `size = default_size()` when none is given: the check may see the variable's value,
    # which the user never passed
    found = first_solution(derived, "parse_size")
    assert found is None or "Change what you pass for `size`" not in found
