"""A version diff as Markdown a maintainer can paste into release notes."""

from __future__ import annotations

from errdex.history.diff import DiffEntry, SiteRef, VersionDiff

_LONGEST = 240  # characters of a template shown; longer ones end in an ellipsis


def code(text: str) -> str:
    """`text` as an inline code span, whatever backticks and newlines it holds."""
    flat = " ".join(text.split("\n"))
    if len(flat) > _LONGEST:
        flat = flat[: _LONGEST - 1] + "…"
    run = longest = 0
    for char in flat:
        run = run + 1 if char == "`" else 0
        longest = max(longest, run)
    fence = "`" * (longest + 1)
    pad = " " if flat.startswith("`") or flat.endswith("`") or not flat.strip() else ""
    return f"{fence}{pad}{flat}{pad}{fence}"


def _what(side: SiteRef, kind: str) -> str:
    """`ValueError`, or the kind when there is no class (`log`)."""
    return code(side.exception) if side.exception else kind


def _place(side: SiteRef) -> str:
    where = f"{side.file}:{side.line}"
    shown = f"[{code(where)}]({side.url})" if side.url else code(where)
    return f"{shown} in {code(side.function)}"


def _message(side: SiteRef) -> str:
    return code(side.template) if side.template is not None else "*(no message)*"


def _added(entry: DiffEntry) -> str:
    side = entry.where
    return f"- {_what(side, entry.kind)}: {_message(side)} — {_place(side)}"


def _reworded(entry: DiffEntry) -> list[str]:
    assert entry.old is not None and entry.new is not None
    what = _what(entry.new, entry.kind)
    if entry.old.exception != entry.new.exception and entry.old.exception:
        what = f"{_what(entry.old, entry.kind)} → {what}"
    was = f" (was {_place(entry.old)})" if entry.old.file != entry.new.file else ""
    return [
        f"- {what} — {_place(entry.new)}{was}",
        f"  - before: {_message(entry.old)}",
        f"  - after: {_message(entry.new)}",
    ]


def _moved(entry: DiffEntry) -> str:
    assert entry.old is not None and entry.new is not None
    side = entry.new
    return (
        f"- {_what(side, entry.kind)}: {_message(side)} — from {_place(entry.old)}"
        f" to {_place(side)}"
    )


def diff_markdown(diff: VersionDiff) -> str:
    """Counts, then a section per kind of change, each entry with its file:line."""
    counts = diff.counts
    lines = [
        f"## Errors in {diff.project} {diff.new} (since {diff.old})",
        "",
        "| added | removed | reworded | moved | unchanged |",
        "| ---: | ---: | ---: | ---: | ---: |",
        "| " + " | ".join(f"{counts[k]:,}" for k in counts) + " |",
    ]
    sections: list[tuple[str, list[str]]] = [
        ("Added", [_added(e) for e in diff.added]),
        ("Removed", [_added(e) + f" (last in {diff.old})" for e in diff.removed]),
        ("Reworded", [line for e in diff.reworded for line in _reworded(e)]),
        ("Moved", [_moved(e) for e in diff.moved]),
    ]
    sizes = {
        "Added": len(diff.added),
        "Removed": len(diff.removed),
        "Reworded": len(diff.reworded),
        "Moved": len(diff.moved),
    }
    for title, body in sections:
        if body:
            lines.extend(["", f"### {title} ({sizes[title]:,})", "", *body])
    return "\n".join(lines) + "\n"
