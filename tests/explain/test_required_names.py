"""A message that says an environment variable is required: set it, where the package reads
it; a parameter's way out is the check's own, said once."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

LAB = {
    "lab/__init__.py": "from lab.registry import register\n",
    "lab/registry.py": """
        import os


        def register(spec, manager=None):
            assert manager is not None, "manager is required"
            return spec, manager


        class Snapshot:
            def __init__(self):
                folder = os.environ.get("LAB_PLUGIN_DIR", "")
                self.folder = folder or None

            def check(self):
                if self.folder is None:
                    raise RuntimeError("LAB_PLUGIN_DIR is required")


        def build(folder):
            if folder is None:
                raise RuntimeError("LAB_OTHER_DIR is required")
            return folder
        """,
}


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("required"), "lab", LAB)


def test_a_parameter_is_named_once_by_the_checks_own_way_out(lab: Store) -> None:
    page = page_with_message(lab, "lab", "manager is required")
    named = [s.text for s in page.solutions if "`manager`" in s.text]
    assert len(named) == 1, named


def test_a_required_environment_variable_is_to_set(lab: Store) -> None:
    page = page_with_message(lab, "lab", "LAB_PLUGIN_DIR is required")
    assert page.solutions, page
    first = page.solutions[0]
    assert (first.kind, first.knob) == ("setting", "LAB_PLUGIN_DIR"), page.solutions
    # what it gives is the value the check finds absent: no "no setting behind that"
    assert first.condition == "self.folder is None", first
    assert "behind that" not in page.what_it_means, page.what_it_means


def test_a_variable_the_package_does_not_read_is_not_offered(lab: Store) -> None:
    page = page_with_message(lab, "lab", "LAB_OTHER_DIR is required")
    assert not any("LAB_OTHER_DIR" in s.text for s in page.solutions), page.solutions
