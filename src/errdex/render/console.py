"""The consoles errdex prints through: every segment of text made inert on its way out, and,
to a pipe, lines that are never wrapped.

The renderers clean each field as they draw it (`safe_text`), so that widths are measured
on what is shown; this console cleans again whatever reaches it, so a field a renderer
forgot still cannot act on the terminal. Links (OSC 8) are emitted only to http(s)
addresses of printable characters (errdex draws them to a site's source); any other is
dropped, since one from a string read as markup could point anywhere.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator, Sequence
from typing import IO, Any

from rich.console import (
    Console,
    ConsoleDimensions,
    ConsoleOptions,
    ConsoleRenderable,
    RenderHook,
    RenderResult,
)
from rich.measure import Measurement
from rich.rule import Rule
from rich.segment import Segment

from errdex.render.safe_text import safe_line, safe_text

# Output to a pipe is for grep and friends: a line is as long as its content. rich needs
# a width; this one is wider than any line it is given (a longer one still is not wrapped:
# the console prints with soft wrap).
PIPE_WIDTH = 4096
RULE_WIDTH = 80


class _Inert:
    """A renderable drawn as the one it wraps, its text segments cleaned, links dropped and,
    off a terminal, each line's trailing padding cut (rich pads code to the full width)."""

    def __init__(self, inner: ConsoleRenderable) -> None:
        self.inner = inner

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        segments = console.render(self.inner, options)
        if console.is_terminal:
            yield from _cleaned(segments)
            return
        for line in Segment.split_lines(_cleaned(segments)):
            yield from _trimmed(line)
            yield Segment.line()

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self.inner)


def safe_link(url: str | None) -> str | None:
    """`url` when a terminal may show it as a link: http(s), printable, no spaces."""
    if not url or not url.startswith(("https://", "http://")):
        return None
    return url if url.isprintable() and safe_line(url) == url and " " not in url else None


def _cleaned(segments: Iterable[Segment]) -> Iterator[Segment]:
    for segment in segments:
        if segment.control:
            yield segment
            continue
        style = segment.style
        if style is not None and style.link and safe_link(style.link) is None:
            style = style.update_link(None)
        yield Segment(safe_text(segment.text), style)


def _trimmed(line: list[Segment]) -> list[Segment]:
    while line and not line[-1].control and not line[-1].text.rstrip():
        line.pop()
    if line and not line[-1].control:
        last = line[-1]
        line[-1] = Segment(last.text.rstrip(), last.style)
    return line


class _CleanOutput(RenderHook):
    def process_renderables(self, renderables: list[ConsoleRenderable]) -> list[ConsoleRenderable]:
        return [_Inert(r) for r in renderables]


class InertConsole(Console):
    """A rich console that prints nothing a terminal acts on; to a pipe (decided at each
    print: tests and callers swap `sys.stdout`), lines are neither wrapped nor padded."""

    def __init__(self, *, stderr: bool = False, file: IO[str] | None = None) -> None:
        super().__init__(file=file, stderr=stderr, highlight=False, soft_wrap=False)
        self.push_render_hook(_CleanOutput())

    @property
    def size(self) -> ConsoleDimensions:
        found = super().size
        return found if self.is_terminal else ConsoleDimensions(PIPE_WIDTH, found.height)

    @size.setter
    def size(self, new_size: tuple[int, int]) -> None:
        self._width, self._height = new_size

    def rule(self, *args: Any, **options: Any) -> None:
        """A rule across the terminal; to a pipe, one of a terminal's usual width."""
        if self.is_terminal:
            super().rule(*args, **options)
        else:
            self.print(Rule(*args, **options), width=RULE_WIDTH)

    def print(self, *objects: Any, **options: Any) -> None:
        if not self.is_terminal and options.get("soft_wrap") is None:
            options["soft_wrap"] = True
        super().print(*objects, **options)


def write_lines(lines: Sequence[object], stream: IO[str] | None = None) -> None:
    """Plain lines (each `str()` of a rich Text or a string) to a pipe, one per line:
    a newline inside one is shown as `\\n`, never a second line."""
    out = stream if stream is not None else sys.stdout
    for line in lines:
        out.write(safe_line(str(line)) + "\n")
