"""Other readings of a pasted error whose class the parser did not find."""

from __future__ import annotations

import pytest

from errdex.match.evidence import ErrorEvidence
from errdex.match.readings import printed_name, readings


def classes(message: str) -> list[str | None]:
    return [r.exception for r in readings(ErrorEvidence(None, message, ()))]


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("ClientDisconnect", [None, "ClientDisconnect"]),
        ("starlette.requests.ClientDisconnect", [None, "starlette.requests.ClientDisconnect"]),
        ("_Upgrade: <x.Session object at 0x7f>", [None, "_Upgrade"]),
        ("Error: no such option", [None]),  # click's printed `Error:` names no class
        ("NOTE: this is prose", [None]),
        ("the cart expired", [None]),
        ("A" + "a" * 200_000, [None]),  # too long for a class name: read once, quickly
        ("a." * 5_000 + "B: x", [None]),
    ],
)
def test_a_message_is_read_as_a_class_only_where_it_names_one(
    message: str, expected: list[str | None]
) -> None:
    assert classes(message) == expected


def test_a_parsed_class_is_kept() -> None:
    assert [r.exception for r in readings(ErrorEvidence("ValueError", "Oops", ()))] == [
        "ValueError"
    ]


def test_old_names_of_oserror_print_as_oserror() -> None:
    assert [printed_name(n) for n in ("IOError", "builtins.EnvironmentError", "pkg.Error")] == [
        "OSError",
        "OSError",
        "Error",
    ]
