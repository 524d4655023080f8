"""A version diff in the terminal: counts, then one line per change (two for a rewording)."""

from __future__ import annotations

from rich.console import Group
from rich.text import Text

from errdex.history.diff import DiffEntry, SiteRef, VersionDiff
from errdex.render.safe_text import safe_line

_SIGNS = {"added": ("+", "green"), "removed": ("-", "red"), "moved": (">", "yellow")}


def _label(side: SiteRef, kind: str) -> str:
    return safe_line(side.exception or kind)


def _line(sign: str, style: str, side: SiteRef, kind: str, extra: str = "") -> Text:
    line = Text(no_wrap=True, overflow="ellipsis")
    line.append(f"{sign} ", style=f"bold {style}")
    line.append(side.id, style="cyan")
    line.append(f"  {_label(side, kind):<18} ", style="magenta")
    line.append(f"{safe_line(side.file)}:{side.line}{safe_line(extra)}  ", style="dim")
    line.append(safe_line(side.template) if side.template is not None else "")
    return line


def _reworded(entry: DiffEntry) -> list[Text]:
    assert entry.old is not None and entry.new is not None
    head = Text(no_wrap=True, overflow="ellipsis")
    head.append("~ ", style="bold blue")
    head.append(f"{entry.old.id} → {entry.new.id}", style="cyan")
    head.append(f"  {_label(entry.new, entry.kind)}  ", style="magenta")
    place = f"{entry.new.file}:{entry.new.line} in {entry.new.function}"
    head.append(safe_line(place), style="dim")
    before = Text("    before: ", style="dim", no_wrap=True, overflow="ellipsis")
    before.append(safe_line(entry.old.template or ""), style="red")
    after = Text("    after:  ", style="dim", no_wrap=True, overflow="ellipsis")
    after.append(safe_line(entry.new.template or ""), style="green")
    return [head, before, after]


def diff_view(diff: VersionDiff) -> Group:
    """Counts on the first line, then added, removed, reworded and moved errors."""
    counts = ", ".join(f"{n:,} {what}" for what, n in diff.counts.items())
    title = safe_line(f"{diff.project} {diff.old} → {diff.new}: {counts}")
    lines: list[Text] = [Text(title, style="bold")]
    for entry in diff.added:
        lines.append(_line(*_SIGNS["added"], entry.where, entry.kind))
    for entry in diff.removed:
        lines.append(_line(*_SIGNS["removed"], entry.where, entry.kind))
    for entry in diff.reworded:
        lines.extend(_reworded(entry))
    for entry in diff.moved:
        assert entry.old is not None
        was = f" (was {entry.old.file}:{entry.old.line} in {entry.old.function})"
        lines.append(_line(*_SIGNS["moved"], entry.where, entry.kind, was))
    return Group(*lines)
