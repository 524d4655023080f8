"""A mode the user's object was made with: an earlier exit on a constructor flag, off by
default, whose branch does the work another way, is the author's way out after the
check's own input; a flag whose branch only returns is not."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

LAB = {
    "lab/__init__.py": "from lab.group import Group\n",
    "lab/group.py": """
        class Group:
            def __init__(self, name, run_without_command=False, quiet=False):
                self.name = name
                self.run_without_command = run_without_command
                self.quiet = quiet

            def invoke(self, args):
                if not args:
                    if self.run_without_command:
                        result = self.callback()
                        return result
                    raise ValueError("Missing command.")
                return args

            def show(self, lines):
                if not lines:
                    if self.quiet:
                        return None
                    raise ValueError("Nothing to show.")
                return lines

            def callback(self):
                return self.name
        """,
}


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("modes"), "lab", LAB)


def texts(store: Store, message: str) -> list[str]:
    return [s.text for s in page_with_message(store, "lab", message).solutions]


def test_a_flag_whose_branch_does_the_work_is_offered_after_the_input(lab: Store) -> None:
    found = texts(lab, "Missing command.")
    assert found[0].startswith("Pass a non-empty (true) value for the argument `args`")
    assert any("`run_without_command` of `Group`" in t for t in found[1:])


def test_a_flag_whose_branch_only_returns_is_no_way_out(lab: Store) -> None:
    assert not any("quiet" in t for t in texts(lab, "Nothing to show."))
