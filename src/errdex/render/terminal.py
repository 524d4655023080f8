"""Terminal rendering with rich: site tables, one site in full, index summaries."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rich.console import Console, Group
from rich.markup import escape
from rich.panel import Panel
from rich.syntax import Syntax
from rich.text import Text

from errdex.history.versions import NewestVersion
from errdex.indexing import IndexReport
from errdex.indexing.cluster import VersionResult
from errdex.match.lookup import LookupResult
from errdex.store.base import StoredSite


def _exception_label(stored: StoredSite) -> str:
    site = stored.site
    if stored.exception is not None:
        return stored.exception.name
    if site.level:
        return f"log.{site.level}"
    return site.exception or str(site.kind)


def site_lines(sites: Sequence[StoredSite]) -> Group:
    """One line per site: id, kind, exception, place, message (cropped on a terminal)."""
    lines = []
    for stored in sites:
        site = stored.site
        line = Text(no_wrap=True, overflow="ellipsis")
        line.append(stored.id, style="cyan")
        line.append(f"  {site.kind:<7} ")
        line.append(f"{_exception_label(stored):<18} ", style="magenta")
        line.append(f"{stored.file}:{site.line}  ", style="dim")
        line.append(site.message.text if site.message is not None else "")
        lines.append(line)
    return Group(*lines)


def index_summary(report: IndexReport, console: Console) -> None:
    if report.up_to_date:
        console.print(
            f"[bold]{report.project} {report.version}[/] ({report.revision[:12]}): up to date, "
            f"{report.sites} sites (use --force to index it again)"
        )
        return
    kinds = ", ".join(f"{n} {k}" for k, n in sorted(report.kinds.items(), key=lambda kv: -kv[1]))
    console.print(
        f"[bold]{report.project} {report.version}[/] ({report.revision[:12]}): "
        f"{report.files} files ({report.parsed} parsed, {report.cached} from cache), "
        f"{report.sites} sites: {kinds or 'none'}; {report.seconds:.2f} s"
    )
    if report.skipped:
        reasons = Counter(_reason_class(s.reason) for s in report.skipped)
        console.print(f"[yellow]skipped {len(report.skipped)} files:[/]")
        for reason, count in reasons.most_common():
            examples = [s.path for s in report.skipped if _reason_class(s.reason) == reason][:3]
            console.print(f"  {count} × {reason}: {', '.join(examples)}", highlight=False)


def cluster_result(result: VersionResult, console: Console) -> None:
    """One version indexed on a cluster: its summary, or why it failed (and where)."""
    if result.report is not None:
        index_summary(result.report, console)
        return
    where = f" (on {result.worker})" if result.worker else ""
    console.print(
        f"[bold red]failed[/] {escape(result.source)}{where}: {escape(result.error or '')}",
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
    if newest.status == "present":
        return f"Still raised in the newest version, {newest.version}, with the same id."
    if newest.status == "removed":
        return f"Removed after {newest.removed_after}: {newest.version} no longer raises it."
    return (
        f"In the newest version, {newest.version}, it was {newest.status}: errdex show {newest.id}"
    )


def lookup_view(result: LookupResult, source_text: str | None) -> Group:
    """The best match in full (message, place, code, values, why), runners-up on a line each."""
    parts: list[object] = []
    best = result.matches[0]
    header = Text()
    header.append(f"{best.project} {best.version}", style="bold")
    header.append(f" · {best.kind} · ")
    level = best.site.site.level if best.site else None
    header.append(best.exception or f"logger.{level}", style="bold magenta")
    header.append(f"  [{best.id}]  score {best.score:.2f}", style="cyan")
    parts.append(header)
    if best.message:
        parts.append(Panel(Text(best.message), title="message", title_align="left"))
    if best.shown:
        parts.append(Panel(Text(best.shown), title="as the user sees it", title_align="left"))
    where = Text(f"{best.file}:{best.line}", style="bold")
    where.append(f" in {best.function}", style="dim")
    parts.append(where)
    if best.url:
        parts.append(Text(best.url, style="dim underline"))
    if best.newest is not None:
        parts.append(Text(newest_line(best.newest), style="yellow"))
    site = best.site.site if best.site else None
    if source_text is not None and site is not None:
        parts.append(
            Syntax(
                source_text,
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
            values.append(f"  {{{expr}}}", style="cyan")
            values.append(f" = {value}\n")
        parts.append(values)
    if best.variant is not None:
        variant = Text("Reason: ", style="bold")
        variant.append(best.variant.reason, style="green")
        variant.append(f"  {best.variant.file}:{best.variant.line}\n", style="dim")
        for guard in best.variant.conditions:
            variant.append(f"  when {guard}\n", style="dim")
        parts.append(variant)
    if site is not None and site.conditions:
        conditions = Text("Happens when all of these hold:\n", style="bold")
        for condition in site.conditions:
            conditions.append(f"  • {condition.statement}\n")
        parts.append(conditions)
    parts.append(Text("Why: " + "; ".join(best.why), style="dim"))
    if len(result.matches) > 1:
        others = Text("Also possible:\n", style="bold")
        for match in result.matches[1:]:
            others.append(f"  {match.score:5.2f} ", style="cyan")
            others.append(f"{match.id} {match.file}:{match.line} ", style="dim")
            others.append(f"{(match.message or '')[:100]}\n")
        parts.append(others)
    return Group(*parts)  # type: ignore[arg-type]


def nearest_view(result: LookupResult) -> Group:
    """Nothing matched: the nearest templates and what to index."""
    lines: list[object] = [Text("No indexed error matches this text.", style="bold yellow")]
    if result.nearest:
        lines.append(Text("Nearest templates:"))
        for match in result.nearest:
            line = Text(f"  {match.score:5.2f} ", style="cyan")
            line.append(f"{match.project} {match.version} {match.file}:{match.line} ", style="dim")
            line.append((match.message or "")[:100])
            lines.append(line)
    lines.append(
        Text(
            "Hint: index the package the error comes from, e.g. `errdex index NAME==VERSION` "
            "or `errdex index installed:NAME`, then look it up again.",
            style="dim",
        )
    )
    return Group(*lines)  # type: ignore[arg-type]
