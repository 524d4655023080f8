"""An attribute left None by the one object that makes its class: the way out is that
maker's own setting, not an argument of a class the user never makes; nothing said where
the maker's switch is set again after its constructor, or where the class is made twice."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

RUNS = {
    "runs/__init__.py": """
        from runs.runner import Outcome, Runner, Tally, Worker
        """,
    "runs/runner.py": """
        class Outcome:
            def __init__(self, out, err=None):
                self.out = out
                self.err = err

            @property
            def errors(self):
                if self.err is None:
                    raise ValueError("errors were not kept apart")
                return self.err


        class Runner:
            def __init__(self, merge=True):
                self.merge = merge

            def run(self, job):
                out, err = job()
                if self.merge:
                    kept = None
                else:
                    kept = err
                return Outcome(out, err=kept)


        class Tally:
            def __init__(self, note=None):
                self.note = note

            def read(self):
                if self.note is None:
                    raise ValueError("no note was taken")
                return self.note


        class Worker:
            def __init__(self, quiet=False):
                self.quiet = quiet

            def mute(self):
                self.quiet = True

            def work(self, job):
                if self.quiet:
                    note = None
                else:
                    note = job()
                return Tally(note=note)
        """,
}


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("runs"), "runs", RUNS)


def test_the_makers_switch_behind_the_none_it_passes(runs: Store) -> None:
    page = page_with_message(runs, "runs", "errors were not kept apart")
    first = page.solutions[0]
    assert first.kind == "setting"
    assert first.text == (
        "Make the `runs.Runner` with `merge=False`: `Runner.run` makes the `Outcome` (line 24) "
        "with `err` None when `self.merge` is set (line 20), which its constructor's `merge` "
        "sets; `Outcome.err` is None only then."
    )
    assert not any(s.text.startswith("Give the argument `err`") for s in page.solutions)
    assert first.fix is not None and first.fix.after.endswith("Runner(merge=False)")


def test_no_makers_switch_that_another_method_sets(runs: Store) -> None:
    page = page_with_message(runs, "runs", "no note was taken")
    assert not any(s.text.startswith("Make the `") for s in page.solutions)
