"""Terminal rendering with rich: site tables, one site in full, index summaries."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.console import Console, Group
from rich.markup import escape
from rich.panel import Panel
from rich.syntax import Syntax
from rich.text import Text

from errdex.bugs import INTERNAL
from errdex.render.safe_text import safe_line, safe_text

if TYPE_CHECKING:  # only named in annotations: a lookup need not import indexing
    from errdex.history.timeline import NewestVersion
    from errdex.indexing import IndexReport
    from errdex.indexing.cluster import VersionResult
    from errdex.match.results import LookupResult
    from errdex.render.records import SiteRecord
    from errdex.sources.base import VersionInfo


def _exception_label(record: SiteRecord) -> str:
    if record.exception is not None:
        return safe_line(record.exception.name)
    if record.level:
        return safe_line(f"log.{record.level}")
    return safe_line(record.raised or record.kind)


def site_lines(sites: Sequence[SiteRecord]) -> Group:
    """One line per site: id, kind, exception, place, message (cropped on a terminal)."""
    lines = []
    for record in sites:
        line = Text(no_wrap=True, overflow="ellipsis")
        line.append(record.id, style="cyan")
        line.append(f"  {record.kind:<7} ")
        line.append(f"{_exception_label(record):<18} ", style="magenta")
        line.append(f"{safe_line(record.file)}:{record.line}  ", style="dim")
        line.append(safe_line(record.message) if record.message is not None else "")
        lines.append(line)
    return Group(*lines)


def index_summary(report: IndexReport, console: Console) -> None:
    name = Text(f"{safe_line(report.project)} {safe_line(report.version)}", style="bold")
    revision = safe_line(report.revision[:12])
    if report.up_to_date:
        console.print(
            Text.assemble(
                name,
                f" ({revision}): up to date, {report.sites} sites (use --force to index it again)",
            )
        )
        return
    kinds = ", ".join(f"{n} {k}" for k, n in sorted(report.kinds.items(), key=lambda kv: -kv[1]))
    console.print(
        Text.assemble(
            name,
            f" ({revision}): {report.files} files ({report.parsed} parsed,"
            f" {report.cached} from cache), {report.sites} sites: {safe_line(kinds or 'none')};"
            f" {report.seconds:.2f} s{_stages(report.timings)}",
        )
    )
    if report.skipped:
        reasons = Counter(_reason_class(s.reason) for s in report.skipped)
        console.print(Text(f"skipped {len(report.skipped)} files:", style="yellow"))
        for reason, count in reasons.most_common():
            examples = [s.path for s in report.skipped if _reason_class(s.reason) == reason][:3]
            shown = ", ".join(safe_line(e) for e in examples)
            console.print(Text(f"  {count} × {safe_line(reason)}: {shown}"))
        bug = next((s for s in report.skipped if s.reason.startswith(INTERNAL)), None)
        if bug is not None:  # the error itself, which the reason's class above leaves out
            console.print(
                Text(f"  {safe_line(bug.path)}: {safe_line(bug.reason)}: a bug, please report it")
            )


def _stages(timings: dict[str, float]) -> str:
    """The seconds of each stage, where the time went: ' (read 0.31, extract 9.02, ...)'."""
    if not timings:
        return ""
    return " (" + ", ".join(f"{stage} {seconds:.2f}" for stage, seconds in timings.items()) + ")"


def cluster_result(result: VersionResult, console: Console) -> None:
    """One version indexed on a cluster: its summary, or why it failed (and where)."""
    if result.report is not None:
        index_summary(result.report, console)
        return
    where = f" (on {result.worker})" if result.worker else ""
    console.print(
        f"[bold red]failed[/] {escape(safe_line(result.source))}{escape(safe_line(where))}:"
        f" {escape(safe_line(result.error or ''))}",
        highlight=False,
        soft_wrap=True,
    )


def cluster_total(results: Sequence[VersionResult], seconds: float, console: Console) -> None:
    """The total of a run on a cluster: versions indexed, up to date, failed; sites; time."""
    reports = [r.report for r in results if r.report is not None]
    fresh = sum(1 for r in reports if r.up_to_date)
    failed = len(results) - len(reports)
    console.print(
        f"[bold]{len(reports)} of {len(results)} versions[/] indexed on the cluster"
        f" ({fresh} up to date), {failed} failed; {sum(r.sites for r in reports)} sites;"
        f" {seconds:.1f} s",
        highlight=False,
        soft_wrap=True,
    )


def _reason_class(reason: str) -> str:
    return reason.split(",")[0].split(":")[0].strip()


def newest_line(newest: NewestVersion) -> str:
    """What a match in an older version is in the newest one, in a line."""
    version = safe_line(newest.version)
    if newest.status == "present":
        return f"Still raised in the newest version, {version}, with the same id."
    if newest.status == "removed":
        removed_after = safe_line(newest.removed_after or "")
        return f"Removed after {removed_after}: {version} no longer raises it."
    return f"In the newest version, {version}, it was {newest.status}: errdex show {newest.id}"


def lookup_view(result: LookupResult, source_text: str | None) -> Group:
    """The best match in full (message, place, code, values, why), runners-up on a line each."""
    parts: list[object] = []
    best = result.matches[0]
    header = Text()
    header.append(f"{safe_line(best.project)} {safe_line(best.version)}", style="bold")
    header.append(f" · {best.kind} · ")
    level = best.site.site.level if best.site else None
    header.append(safe_line(best.exception or f"logger.{level}"), style="bold magenta")
    header.append(f"  [{best.id}]  score {best.score:.2f}", style="cyan")
    parts.append(header)
    if best.message:
        message = Text(safe_text(best.message))
        parts.append(Panel(message, title="message", title_align="left", expand=False))
    if best.shown:
        shown = Text(safe_text(best.shown))
        parts.append(Panel(shown, title="as the user sees it", title_align="left", expand=False))
    where = Text(f"{safe_line(best.file)}:{best.line}", style="bold")
    where.append(f" in {safe_line(best.function)}", style="dim")
    parts.append(where)
    if best.url:
        parts.append(Text(safe_line(best.url), style="dim underline"))
    if best.newest is not None:
        parts.append(Text(newest_line(best.newest), style="yellow"))
    site = best.site.site if best.site else None
    if source_text is not None and site is not None:
        parts.append(
            Syntax(
                safe_text(source_text),
                "python",
                line_numbers=True,
                line_range=(max(1, site.line - 6), site.end_line + 4),
                highlight_lines=set(range(site.line, site.end_line + 1)),
                word_wrap=True,
            )
        )
    if best.values:
        values = Text("Values in your message:\n", style="bold")
        for expr, value in best.values.items():
            values.append(f"  {{{safe_line(expr)}}}", style="cyan")
            values.append(f" = {safe_line(value)}\n")
        parts.append(values)
    if best.variant is not None:
        variant = Text("Reason: ", style="bold")
        variant.append(safe_line(best.variant.reason), style="green")
        variant.append(f"  {safe_line(best.variant.file)}:{best.variant.line}\n", style="dim")
        for guard in best.variant.conditions:
            variant.append(f"  when {safe_line(guard)}\n", style="dim")
        parts.append(variant)
    if site is not None and site.conditions:
        conditions = Text("Happens when all of these hold:\n", style="bold")
        for condition in site.conditions:
            conditions.append(f"  • {safe_line(condition.statement)}\n")
        parts.append(conditions)
    parts.append(Text("Why: " + safe_line("; ".join(best.why)), style="dim"))
    if len(result.matches) > 1:
        others = Text("Also possible:\n", style="bold")
        for match in result.matches[1:]:
            others.append(f"  {match.score:5.2f} ", style="cyan")
            others.append(f"{match.id} {safe_line(match.file)}:{match.line} ", style="dim")
            others.append(f"{safe_line((match.message or '')[:100])}\n")
        parts.append(others)
    return Group(*parts)  # type: ignore[arg-type]


def nearest_view(result: LookupResult) -> Group:
    """Nothing matched: the nearest templates and what to index."""
    lines: list[object] = [Text("No indexed error matches this text.", style="bold yellow")]
    if result.nearest:
        lines.append(Text("Nearest templates:"))
        for match in result.nearest:
            line = Text(f"  {match.score:5.2f} ", style="cyan")
            place = f"{match.project} {match.version} {match.file}:{match.line} "
            line.append(safe_line(place), style="dim")
            line.append(safe_line((match.message or "")[:100]))
            lines.append(line)
    lines.append(
        Text(
            "Hint: index the package the error comes from, e.g. `errdex index NAME==VERSION` "
            "or `errdex index installed:NAME`, then look it up again.",
            style="dim",
        )
    )
    return Group(*lines)  # type: ignore[arg-type]


def failure_line(message: str) -> Text:
    """`errdex: message`, the one line a failed command prints on standard error."""
    return Text.assemble(("errdex:", "bold red"), " ", safe_line(message))


def note_line(message: str) -> Text:
    """`errdex: message`, a remark on standard error that is no failure."""
    return Text(f"errdex: {safe_line(message)}")


def progress_label(label: str) -> str:
    """A task's label for a progress bar, whose columns read rich markup."""
    return escape(safe_line(label))


def interrupted_index(done: Sequence[IndexReport], under_way: VersionInfo) -> str:
    """What the database holds after Ctrl-C stopped an index run: the versions this run
    wrote (each whole), and nothing of the one under way (its transaction never committed)."""
    written = [f"{r.project} {r.version}" for r in done if not r.up_to_date and r.error is None]
    stopped = f"interrupted while indexing {under_way.project} {under_way.version}, of which"
    if not written:
        return f"{stopped} nothing was written; the database holds what it held before this run"
    return (
        f"{stopped} nothing was written; the database now holds what this run indexed"
        f" before: {', '.join(written)}"
    )
