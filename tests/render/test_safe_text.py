"""`safe_text`: what reaches a terminal or a log line shows control and bidi characters as
escapes, and leaves everything else as it is."""

from __future__ import annotations

import io
import json

import pytest
from rich.panel import Panel
from rich.syntax import Syntax
from rich.text import Text

from errdex.render.console import PIPE_WIDTH, InertConsole, write_lines
from errdex.render.safe_text import safe_json, safe_line, safe_text


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("\x1b]0;title\x07", "\\x1b]0;title\\x07"),  # OSC: the window title
        ("\x1b]52;c;ZXZpbA==\x07", "\\x1b]52;c;ZXZpbA==\\x07"),  # OSC 52: the clipboard
        ("\x1b]8;;http://x\x1b\\link", "\\x1b]8;;http://x\\x1b\\link"),  # OSC 8: a link
        ("\x1b[2J\x1b[H", "\\x1b[2J\\x1b[H"),  # CSI: clear the screen
        ("\x9b31m", "\\x9b31m"),  # C1 CSI, one character
        ("a\rb", "a\\rb"),  # a carriage return overwrites the line
        ("\x00\x08\x7f", "\\x00\\x08\\x7f"),
        ("abc\u202edef\u2066g\u2069", "abc\\u202edef\\u2066g\\u2069"),  # bidi override, isolate
        ("x\u2028y", "x\\u2028y"),  # a line separator
    ],
)
def test_active_characters_are_shown_escaped(raw: str, shown: str) -> None:
    assert safe_text(raw) == shown
    assert safe_line(raw) == shown


def test_lines_keep_newlines_and_tabs_unless_one_line() -> None:
    assert safe_text("a\n\tb") == "a\n\tb"
    assert safe_line("a\n\tb") == "a\\n\\tb"


def test_ordinary_text_is_left_as_it_is() -> None:
    text = "ValueError: naïve 'x' — 東京 C:\\path {a}\\n [bold] ✓"
    assert safe_text(text) is text
    assert safe_line(text) == text


def test_json_keeps_its_value_and_loses_what_a_terminal_acts_on() -> None:
    value = {"message": "a\x1b[2J \x9b31m \u202e \x7f é"}
    encoded = safe_json(json.dumps(value, ensure_ascii=False))
    assert json.loads(encoded) == value
    assert not any(c in encoded for c in "\x1b\x9b\u202e\x7f")
    assert "é" in encoded


def rendered(*objects: object, terminal: bool) -> str:
    out = io.StringIO()
    console = InertConsole(file=out)
    console._force_terminal = terminal  # as rich does for FORCE_COLOR
    console.print(*objects)
    return out.getvalue()


def test_the_console_cleans_text_a_renderer_left_raw_and_drops_links() -> None:
    evil = "x\x1b]0;title\x07 \u202e"
    for terminal in (False, True):
        out = rendered(
            Text(evil), Panel(evil), "[link=http://evil.example]here[/link]", terminal=terminal
        )
        assert "\x1b]" not in out and "\u202e" not in out
        assert "\\x1b]0;title" in out and "\\u202e" in out
        assert "evil.example" not in out  # no OSC 8 link


def test_to_a_pipe_lines_are_not_wrapped_nor_padded() -> None:
    message = "word " * 60 + "end"
    code = "def f():\n    raise ValueError('" + "y" * 150 + "')\n"
    out = rendered(
        Text(message), Syntax(code, "python", line_numbers=True, word_wrap=True), terminal=False
    )
    lines = out.splitlines()
    assert lines[0] == message.rstrip()
    assert lines[2].endswith("y')")
    assert all(line == line.rstrip() for line in lines)
    assert max(len(line) for line in lines) < PIPE_WIDTH


def test_plain_lines_stay_one_line_each() -> None:
    out = io.StringIO()
    write_lines([Text("a\nforged line"), "b\rc"], out)
    assert out.getvalue() == "a\\nforged line\nb\\rc\n"
