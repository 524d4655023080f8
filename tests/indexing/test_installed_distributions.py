"""Which installed distributions a paste's frames point into, found by name first and
through every distribution's file list only for a module named otherwise."""

from __future__ import annotations

from errdex.indexing.installed import distributions_behind


def test_modules_are_found_whether_or_not_their_distribution_shares_their_name() -> None:
    paths = [
        "/venv/lib/python3.11/site-packages/_pytest/python.py",  # shipped by pytest
        "/venv/lib/python3.11/site-packages/yaml/constructor.py",  # shipped by PyYAML
        "/venv/lib/python3.11/site-packages/click/core.py",  # shipped by click
    ]
    assert distributions_behind(paths, ["msgspec", "no_such_module_errdex"]) == [
        "pytest",
        "PyYAML",
        "click",
        "msgspec",
    ]
