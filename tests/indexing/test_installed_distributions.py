"""Which installed distributions a paste's frames point into, found by name first and
through every distribution's file list only for a module named otherwise."""

from __future__ import annotations

import importlib.metadata
from typing import NoReturn

import pytest

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


def test_a_module_not_installed_here_reads_no_distribution_s_file_list(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A paste from another environment: frames into its own code and into a package this
    # one lacks. Reading every installed distribution's files (a good part of a second in a
    # large environment) could find no owner for either.
    def every_file_list() -> NoReturn:
        raise AssertionError("read every distribution's file list")

    monkeypatch.setattr(importlib.metadata, "packages_distributions", every_file_list)
    paths = [
        "/home/user/venv/lib/python3.10/site-packages/no_such_module_errdex/client.py",
        "/home/user/venv/lib/python3.10/site-packages/click/core.py",
    ]
    assert distributions_behind(paths, ["no_such_module_errdex_either"]) == ["click"]
