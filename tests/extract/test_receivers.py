"""What extraction records of the object a method is called on, for the linker to say
which class's method a call reaches."""

from __future__ import annotations

import textwrap

import pytest

from errdex import extract
from errdex.extract import extract_file

SOURCE = textwrap.dedent(
    """
    from typing import Optional

    from pkg.items import Items

    def load() -> "Items":
        ...

    def maybe() -> Optional[Items]:
        ...

    def either() -> Items | None:
        ...

    def many() -> list[Items]:
        ...

    class Processor:
        def apply(self, items: Items | None, other, count: int):
            items.check("annotated")
            other.check("a parameter not annotated")
            load().check("a call result")
            make().parse().check("a method of an object named nowhere")
            kept = load()
            kept.check("kept")
            self.cache[0].check("a subscript")
    """
)


@pytest.fixture(autouse=True)
def whole_files(monkeypatch: pytest.MonkeyPatch) -> None:
    """What the walker records, whatever size of file gets a skeleton."""
    monkeypatch.setattr(extract, "build_skeleton", lambda *_, **__: None)


def test_returns_and_parameters_name_one_class_each() -> None:
    facts = extract_file("pkg/processor.py", SOURCE.encode())
    assert facts.returns == {"load": "Items", "maybe": "Items", "either": "Items"}
    assert facts.params == {"Processor.apply": {"items": "Items"}}  # `int` is no class of ours


def test_a_method_calls_receiver_is_what_the_code_says_it_is() -> None:
    facts = extract_file("pkg/processor.py", SOURCE.encode())
    assert [(c.args[0].source, c.receiver, c.receiver_type) for c in facts.calls] == [
        ('"annotated"', "items", "Items"),
        ('"a parameter not annotated"', "other", "Processor.apply(other)"),
        ('"a call result"', "...", "load()"),
        ('"a method of an object named nowhere"', "...", "?.parse()"),
        ('"kept"', "kept", "load()"),
        ('"a subscript"', "...", None),
    ]
