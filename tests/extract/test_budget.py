"""Each file's extraction has bounds: text that would cost the parser too much is not parsed,
and an analysis past its wall-clock limit stops; either way that file alone is skipped."""

from __future__ import annotations

import msgspec
import pytest

import errdex.extract.budget as budget
from errdex.extract import extract_file
from errdex.facts import FileFacts
from errdex.indexing.parallel import extract_batch


def fstring_raise(fields: int) -> bytes:
    body = "".join(f"{{a{i % 10}}}" for i in range(fields))
    return f'def f():\n    raise ValueError(f"{body}")\n'.encode()


def test_an_f_string_of_200000_fields_is_skipped_with_the_reason_before_parsing() -> None:
    # Python 3.11 parses one such f-string in quadratic time: 74 s.
    facts = extract_file("pkg/fields.py", fstring_raise(200_000))
    assert facts.error == "an f-string with 200000 fields (the limit is 5000)"
    assert facts.sites == ()


def test_f_strings_within_the_limit_are_read_as_ever() -> None:
    facts = extract_file("pkg/fields.py", fstring_raise(50))
    assert facts.error is None
    [site] = facts.sites
    assert site.message is not None and site.message.text.startswith("{a0}{a1}")


def test_doubled_braces_are_text_not_fields() -> None:
    text = 'x = f"' + "{{}}" * 6000 + '{y}"\n'
    assert budget.over_budget(text) is None


def test_a_3_mb_list_literal_is_skipped_with_the_reason_before_parsing() -> None:
    # Its parse tree took 1.5 GB.
    source = "TABLE = [" + ",".join(str(i % 10) for i in range(1_500_000)) + "]\n"
    facts = extract_file("pkg/table.py", source.encode())
    assert facts.error == ("too much syntax to parse (about 1500002 nodes; the limit is 250000)")


def test_a_file_whose_analysis_runs_past_its_time_limit_is_skipped_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    checks = "".join(
        f"def f{i}(x):\n    if x > {i}:\n        raise ValueError(f'bad {{x}} {i}')\n"
        for i in range(4000)
    )
    slow = ("slow.py", checks.encode())
    quick = ("quick.py", b"x = 1\n")
    # The slow file takes about a second on a quiet machine, the quick one well under a
    # millisecond: a limit of a quarter second holds them apart even when a loaded machine
    # stalls the quick one (a limit of 10 ms failed it there).
    monkeypatch.setattr(budget, "FILE_SECONDS", 0.25)
    results = {path: blob for path, blob, *_ in extract_batch([slow, quick])}
    decoded = msgspec.msgpack.decode(results["slow.py"], type=FileFacts)
    assert decoded.error == "took more than 0.25 s to analyse"
    assert msgspec.msgpack.decode(results["quick.py"], type=FileFacts).error is None
