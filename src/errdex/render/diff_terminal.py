"""A version diff in the terminal: counts, then one line per change (two for a rewording)."""

from __future__ import annotations

from rich.console import Group
from rich.text import Text

from errdex.history.diff import DiffEntry, SiteRef, VersionDiff

_SIGNS = {"added": ("+", "green"), "removed": ("-", "red"), "moved": (">", "yellow")}


def _label(side: SiteRef, kind: str) -> str:
    return side.exception or kind


def _line(sign: str, style: str, side: SiteRef, kind: str, extra: str = "") -> Text:
    line = Text(no_wrap=True, overflow="ellipsis")
    line.append(f"{sign} ", style=f"bold {style}")
    line.append(side.id, style="cyan")
    line.append(f"  {_label(side, kind):<18} ", style="magenta")
    line.append(f"{side.file}:{side.line}{extra}  ", style="dim")
    line.append(side.template if side.template is not None else "")
    return line


def _reworded(entry: DiffEntry) -> list[Text]:
    assert entry.old is not None and entry.new is not None
    head = Text(no_wrap=True, overflow="ellipsis")
    head.append("~ ", style="bold blue")
    head.append(f"{entry.old.id} → {entry.new.id}", style="cyan")
    head.append(f"  {_label(entry.new, entry.kind)}  ", style="magenta")
    head.append(f"{entry.new.file}:{entry.new.line} in {entry.new.function}", style="dim")
    before = Text("    before: ", style="dim", no_wrap=True, overflow="ellipsis")
    before.append(entry.old.template or "", style="red")
    after = Text("    after:  ", style="dim", no_wrap=True, overflow="ellipsis")
    after.append(entry.new.template or "", style="green")
    return [head, before, after]


def diff_view(diff: VersionDiff) -> Group:
    """Counts on the first line, then added, removed, reworded and moved errors."""
    counts = ", ".join(f"{n:,} {what}" for what, n in diff.counts.items())
    lines: list[Text] = [Text(f"{diff.project} {diff.old} → {diff.new}: {counts}", style="bold")]
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
