"""A first answer into an installed package never indexed: the cyclic collector stays off
until the answer is given (no collection walks what answering made, all of which lives
until then), and is back on for the rest of the package and after."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

import errdex

SOURCE = "pygments"  # 343 files, installed wherever errdex is
PASTE = "pygments.util.ClassNotFound: Could not find style class 'Nope' in style module."


def test_nothing_is_collected_before_the_answer_is_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ERRDEX_CACHE", str(tmp_path / "cache"))
    events: list[str] = []
    collect = gc.collect

    def collecting(generation: int = 2) -> int:
        events.append("collect")
        return collect(generation)

    def answered(answer: errdex.PasteAnswer) -> None:
        assert answer.indexed and answer.indexed[0].partial  # from a few files first
        assert not gc.isenabled()  # the first collection after would walk all of it
        events.append("answered")

    monkeypatch.setattr(gc, "collect", collecting)
    gc.enable()
    try:
        answer = errdex.answer(
            PASTE, db=str(tmp_path / "errdex.db"), project=SOURCE, answered=answered
        )
        assert gc.isenabled()
    finally:
        gc.enable()
    assert answer.best is not None
    assert events[0] == "answered"
