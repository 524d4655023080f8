"""parse_paste on hostile input: never a crash or a hang; a clear InputError for non-text."""

from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from errdex.errors import InputError
from errdex.match.paste import Evidence, parse_paste

# A generous deadline catches a hang (catastrophic backtracking takes minutes), nothing finer:
# tests never measure speed.
HANG = settings(
    deadline=timedelta(seconds=30),
    max_examples=60,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

# Pieces of every format the parser knows, to stitch into near-misses of all of them.
FRAGMENTS = [
    "Traceback (most recent call last):",
    '  File "/x/y.py", line 12, in f',
    '  File "/x/y',
    "    raise ValueError(f'{x}')",
    "    ^^^^^^^^",
    "ValueError: bad value",
    "ValueError",
    "pkg.mod.Error: x: y: z",
    "During handling of the above exception, another exception occurred:",
    "The above exception was the direct cause of the following exception:",
    "  + Exception Group Traceback (most recent call last):",
    "  | ValueError: x",
    "  +-+---------------- 1 ----------------",
    "╭──────── Traceback (most recent call last) ────────╮",
    "│ /a/b.py:12 in f                                   │",
    "│ ❱ 12 │   raise X                                  │",
    "│ ╭── locals ──╮ │",
    "╰───────────────────────────────────────────────────╯",
    "ValueError                                Traceback (most recent call last)",
    "Cell In[3], line 2",
    "----> 2 foo()",
    "File ~/x.py:12, in bar(a)",
    "E       ValueError: boom",
    "E   ",
    "tests/test_x.py:12: ValueError",
    "src/x.py:3: in f",
    "_____ test_x _____",
    "/p/x.py:12: UserWarning: careful",
    "  warnings.warn(",
    "[rank0]: ",
    "(VllmWorker rank=0 pid=1) ",
    "ERROR 01-23 12:34:56 [engine.py:123] ",
    "WARNING:root:",
    "2024-05-01 10:00:00,123 - a.b - WARNING - ",
    "app-1  | ",
    "```",
    "> ",
    "<details>",
    "&lt;&#39;&gt;",
    "\x1b[0;31m",
    "[0;31m",
    "RuntimeError('oops')",
    '{"errorMessage": "x", "errorType": "E", "stackTrace": [',
    '["/x.py", 3, "f", "g()"]',
    '"  File \\"/x.py\\", line 3, in f\\n"',
    'Traceback (most recent call last):\\n  File \\"',
    'level=ERROR error="a \\" b" msg=',
    '/x/y.py", line 12, in f',
    "Did you mean: 'x'?",
    "...",
    "…",
    "(((",
    "'''",
    "\\",
    "\t",
    " " * 40,
]
line = st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=60))
paste_text = st.lists(st.lists(line, max_size=4).map("".join), max_size=60).map("\n".join)


def parses_or_refuses(text: str) -> None:
    try:
        evidence = parse_paste(text)
    except InputError as err:
        assert str(err)
        return
    assert isinstance(evidence, Evidence) and evidence.errors
    for err in evidence.errors:
        assert isinstance(err.message, str)
        assert err.exception is None or err.exception.strip()
        assert all(f.line is None or f.line >= 0 for f in err.frames)


@HANG
@given(st.text(max_size=5000))
def test_random_text(text: str) -> None:
    parses_or_refuses(text)


@HANG
@given(paste_text)
def test_stitched_fragments(text: str) -> None:
    parses_or_refuses(text)


@settings(HANG, max_examples=15)
@given(paste_text.filter(bool))
def test_hundred_kilobytes(text: str) -> None:
    parses_or_refuses((text * (100_000 // len(text) + 1))[:100_000])


@pytest.mark.parametrize(
    "text",
    [
        'File "' * 20_000,
        "(" * 200_000,
        ("(" + "a " * 40 + "pid=1 " + "b " * 40) * 2_000,
        "\x1b]" * 100_000,
        "Error: " * 100_000,
        "a.b.c.d.e.f.g.h.i.j.k.l.m.n." * 10_000 + "Error",
        "│ " * 100_000,
        ("│ " + "x" * 100 + " │\n") * 5_000,
        "'" * 300_000,
        "[" * 100_000 + "]" * 100_000,
        ("Traceback (most recent call last):\n" * 20_000),
        ('  File "/x/y.py", line 1, in f\n' * 20_000) + "ValueError: x",
        "ValueError('" * 50_000,
        ("File " + "a:1:" * 300 + ", in f(\n") * 300,
        (" " * 5_000 + "x\n") * 100,
        "x" * 900_000,
        ("y" * 80 + "\n") * 10_000,
        "2024-05-01 10:00:00,123 - " * 20_000,
        '{"a":' * 100_000,
        '{"' * 200_000,
        '{"errorMessage": "' + "x" * 500_000,
        'a="\\' * 100_000,
        "k=v " * 200_000,
        '\\n  File \\"' * 50_000,
        ("x" * 300 + '", line 1, in f\n') * 2_000,
    ],
    ids=lambda text: repr(text[:12]),
)
def test_pathological_input_terminates(text: str) -> None:
    parses_or_refuses(text)


def test_empty_and_blank_input_is_refused() -> None:
    for text in ["", "   ", "\n\n\t\n"]:
        with pytest.raises(InputError, match="empty"):
            parse_paste(text)
    with pytest.raises(InputError, match="no text is left"):
        parse_paste("```\n```\n")


def test_binary_input_is_refused() -> None:
    with pytest.raises(InputError, match="NUL"):
        parse_paste("ValueError: x\x00\x01\x02")
    with pytest.raises(InputError, match="binary"):
        parse_paste(
            "".join(chr(c) for c in range(1, 32) if chr(c) not in "\t\n\r\x1b\x0b\x0c") * 100
        )
    with pytest.raises(InputError, match="binary"):
        parse_paste(bytes(range(128, 256)).decode("latin-1") * 50)


def test_oversized_input_keeps_the_end() -> None:
    noise = "INFO 01-23 12:34:56 [x.py:1] starting worker\n" * 50_000
    text = noise + "ValueError: the error at the end\n"
    evidence = parse_paste(text, max_bytes=100_000)
    assert (evidence.errors[0].exception, evidence.errors[0].message) == (
        "ValueError",
        "the error at the end",
    )
    # The cut lands mid-line: the partial first line is dropped, not parsed as garbage.
    (err,) = parse_paste("abcdef\nValueError: kept", max_bytes=18).errors
    assert (err.exception, err.message) == ("ValueError", "kept")
