"""A module's Struct field types evaluated once per text: the types msgspec would read."""

from __future__ import annotations

import importlib
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import msgspec
import pytest

from errdex.struct_hints import evaluate_field_types

_RECORDS = """
from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

if TYPE_CHECKING:
    from collections.abc import Sequence


class Place(msgspec.Struct, frozen=True):
    path: str
    line: int | None = None


class Site(msgspec.Struct):
    message: str | None
    places: tuple[Place, ...] = ()
    notes: dict[str, str | None] = {}


class Shadowed(msgspec.Struct):
    kind: str = "raise"
    str: int = 0  # a name of the class's own: msgspec reads it before the builtin
    other: str | None = None


class Later(msgspec.Struct):
    seen: Sequence[str] = ()  # imported only for type checking
"""


@pytest.fixture
def records(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[list[ModuleType]]:
    """The same records twice, as two modules: one left to msgspec, one evaluated first."""
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in ("records_read", "records_evaluated"):
        (tmp_path / f"{name}.py").write_text(_RECORDS)
        monkeypatch.delitem(sys.modules, name, raising=False)
    yield [importlib.import_module(n) for n in ("records_read", "records_evaluated")]


def test_each_text_becomes_the_type_msgspec_reads(records: list[ModuleType]) -> None:
    read, evaluated = records
    evaluate_field_types(evaluated.__name__)
    site, place = evaluated.Site, evaluated.Place
    assert site.__annotations__["message"] == str | None
    assert site.__annotations__["places"] == tuple[place, ...]
    assert place.__annotations__["line"] == int | None
    # what a decoder is made from: the same as msgspec's own reading of the texts
    kinds = [read.Site, read.Place]
    expected = repr(msgspec.inspect.multi_type_info(kinds)).replace("records_read", "_")
    found = repr(msgspec.inspect.multi_type_info([site, place]))
    assert found.replace("records_evaluated", "_") == expected
    made = site("m", (place("a.py", 3),), {"k": None})
    assert msgspec.msgpack.Decoder(site).decode(msgspec.msgpack.encode(made)) == made


def test_a_text_reading_the_class_own_names_or_unknown_ones_stays(
    records: list[ModuleType],
) -> None:
    evaluated = records[1]
    evaluate_field_types(evaluated.__name__)
    shadowed = evaluated.Shadowed.__annotations__
    assert (shadowed["kind"], shadowed["other"]) == ("str", "str | None")  # `str` is its own
    assert shadowed["str"] is int
    assert evaluated.Later.__annotations__["seen"] == "Sequence[str]"


# Prints msgspec's type information of every Struct of the records' modules; given "off",
# with their field types left to msgspec to read.
_RECORD_TYPES = """
import sys

import msgspec

if sys.argv[1:] == ["off"]:
    import errdex.struct_hints

    errdex.struct_hints.evaluate_field_types = lambda module: None
import errdex.facts, errdex.linked_facts, errdex.reading_facts

structs = [
    value
    for module in ("errdex.facts", "errdex.reading_facts", "errdex.linked_facts")
    for value in vars(sys.modules[module]).values()
    if isinstance(value, type) and issubclass(value, msgspec.Struct)
    and value.__module__ == module
]
assert len(structs) > 20, structs
print(repr(msgspec.inspect.multi_type_info(structs)))
"""


def test_the_records_types_are_the_ones_msgspec_reads_itself() -> None:
    # the real records: a name of a module that a class also holds, a name imported only
    # for type checking that evaluates all the same, each read as msgspec reads it
    read, evaluated = (
        subprocess.run(
            [sys.executable, "-c", _RECORD_TYPES, *given],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for given in (["off"], [])
    )
    assert evaluated == read
