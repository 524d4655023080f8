"""The page in the terminal: the seed's sections drawn with rich, from the `Page` alone."""

from __future__ import annotations

import re

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.syntax import Syntax
from rich.text import Text

from errdex.explain.page import GUARD_NOT_READ, ExampleFix, Page
from errdex.render.safe_text import safe_line, safe_text

_TICKS = re.compile(r"`([^`\n]+)`")
_MAX_LIST = 8


def prose(text: str, style: str = "") -> Text:
    """Explanation text with `backticked` names set as code; never read as rich markup,
    its control characters shown escaped."""
    text = safe_text(text)
    out = Text(style=style)
    at = 0
    for match in _TICKS.finditer(text):
        out.append(text[at : match.start()])
        out.append(match.group(1), style="bold cyan")
        at = match.end()
    out.append(text[at:])
    return out


def _heading(title: str) -> Text:
    return Text(f"\n{title}", style="bold underline")


def page_view(page: Page) -> Group:
    """Every section of the page, in the seed's order."""
    parts: list[RenderableType] = [_header(page)]
    if page.message is not None:
        message = Text(safe_text(page.message))
        parts.append(Panel(message, title="Error message", title_align="left", expand=False))
    if page.shown:
        seen = Text()
        for number, shown in enumerate(page.shown):
            seen.append("\n" if number else "")
            seen.append(safe_line(shown.line or shown.text))
            seen.append(f"  ({safe_line(shown.how)})", style="dim")
        parts.append(Panel(seen, title="As the user sees it", title_align="left", expand=False))
    parts += [_heading("What it means"), prose(page.what_it_means)]
    if page.why:
        parts.append(_heading("Why, in the code's own words"))
        for quote in page.why:
            said = Text(f"  “{safe_text(quote.text)}”\n")
            said.append_text(prose(f"    {quote.of}, {quote.file}:{quote.line}", style="dim"))
            parts.append(said)
    parts += _source(page)
    if page.conditions:
        parts.append(_heading("Raised when all of these hold"))
        for condition in page.conditions:
            line = prose(f"  • {condition.plain or '`' + condition.text + '`'}")
            line.append(f"  ({safe_line(condition.kind)}, line {condition.line})", style="dim")
            parts.append(line)
    if page.solutions:
        parts.append(_heading("Solutions"))
        for number, solution in enumerate(page.solutions, 1):
            parts.append(prose(f"{number}. {solution.text}"))
            if solution.fix is not None and solution.fix != page.example_fix:
                parts += _fix(solution.fix, indent="   ")
    if page.example_fix is not None:
        parts.append(_heading("Example fix"))
        parts += _fix(page.example_fix)
    parts += _when(page)
    parts += _linked(page)
    parts += _footer(page)
    return Group(*parts)


def _fix(fix: ExampleFix, indent: str = "") -> list[RenderableType]:
    """Before and after (the after alone when there is nothing to undo), then the note."""
    body = Text()
    if fix.before:
        body.append(f"{indent}# before\n", style="dim")
        body.append(_indented(safe_text(fix.before), indent) + "\n", style="red")
        body.append(f"{indent}# after\n", style="dim")
    body.append(_indented(safe_text(fix.after), indent), style="green")
    if fix.config:
        body.append(f"\n{indent}# or, in the config file it reads:\n", style="dim")
        body.append(_indented(safe_text(fix.config), indent), style="green")
    parts: list[RenderableType] = [body]
    if fix.note:
        parts.append(prose(indent + fix.note, style="dim"))
    return parts


def _indented(text: str, indent: str) -> str:
    return "\n".join(indent + line for line in text.split("\n"))


def _header(page: Page) -> Text:
    header = Text()
    header.append(f"{safe_line(page.project)} {safe_line(page.version)}", style="bold")
    kind = f"{page.kind} ({page.level})" if page.level else page.kind
    header.append(f" · {safe_line(kind)}")
    if page.exception is not None:
        header.append(" · ")
        header.append(safe_line(page.exception.name), style="bold magenta")
    header.append(f"  [{page.id}]", style="cyan")
    return header


def _source(page: Page) -> list[RenderableType]:
    source = page.source
    parts: list[RenderableType] = [_heading("Source")]
    where = Text(f"Thrown at {safe_line(source.file)}:{source.line}", style="bold")
    where.append(f" in {safe_line(source.function)}", style="dim")
    parts.append(where)
    if source.snippet:
        parts.append(
            Syntax(
                safe_text(source.snippet),
                "python",
                line_numbers=True,
                start_line=source.snippet_start,
                highlight_lines=set(range(source.line, source.end_line + 1)),
                word_wrap=True,
            )
        )
    if source.url:
        pinned = f"View source (at {source.pin_text(page.revision)}): {source.url}"
        parts.append(Text(safe_line(pinned), style="dim"))
    return parts


def _when(page: Page) -> list[RenderableType]:
    when = page.when_it_happens
    parts: list[RenderableType] = [_heading("When it happens"), prose("Trigger: " + when.trigger)]
    if when.situations:
        parts.append(Text("Situations:"))
        parts.extend(prose(f"  • {s}") for s in when.situations)
    return parts


def _linked(page: Page) -> list[RenderableType]:
    parts: list[RenderableType] = []
    if page.callers:
        parts.append(_heading("Called from"))
        for caller in page.callers[:_MAX_LIST]:
            line = Text("  " * caller.depth + "← ")
            line.append(safe_line(caller.function), style="bold")
            line.append(f"  {safe_line(caller.file)}:{caller.line}", style="dim")
            if caller.guard:
                line.append("  when ")
                line.append(safe_line(" and ".join(caller.guard)), style="cyan")
            elif not caller.guard_known:
                line.append(f"  ({GUARD_NOT_READ})", style="dim")
            parts.append(line)
    if page.knobs:
        parts.append(_heading("Settings involved"))
        for knob in page.knobs[:_MAX_LIST]:
            line = Text(f"  {knob.kind:<5}")
            line.append(safe_line(knob.name), style="bold green")
            behind = knob.behind or ""
            # a setting the message names as it is decides no name of the code
            shown = f"  ({knob.via})" if behind == knob.name and knob.via else f"  → {behind}"
            line.append(safe_line(shown), style="cyan")
            where = f"  {safe_line(knob.file)}:{knob.line}" if knob.file else ""
            line.append(where, style="dim")
            parts.append(line)
    if page.tests:
        parts.append(_heading("Tests that expect it"))
        for test in page.tests:
            shown = f"  {test.function}  {test.file}:{test.line}"
            parts.append(Text(safe_line(shown), style="dim"))
    if page.related:
        parts.append(_heading("Related errors"))
        for related in page.related[:_MAX_LIST]:
            line = Text("  • ")
            line.append(safe_line(related.message or related.exception or ""))
            line.append(f"  [{related.id}] {safe_line(related.relation)}", style="dim")
            parts.append(line)
    if len(page.versions) > 1:
        parts.append(_heading("Versions"))
        for entry in page.versions:
            shown = f"  {entry.version}: {entry.file}:{entry.line} ({entry.status})"
            parts.append(Text(safe_line(shown), style="dim"))
    return parts


def _footer(page: Page) -> list[RenderableType]:
    footer = Text(f"\n{safe_line(page.analysis.footer)}. ", style="dim")
    footer.append(f"Data as JSON: errdex show {page.id} --json", style="dim")
    if page.report_url:
        footer.append(f"\nReport an issue: {safe_line(page.report_url)}", style="dim")
    return [footer]
