"""Ask a model to explain errors: one page, or a whole version, resumable and concurrent.

Each answer is validated and cached in the store under (error id, revision, model, prompt
version) as accepted or rejected, so a run that stops resumes where it left off and never
asks twice. A request that fails (endpoint down) is not cached: the next run asks again.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed
from datetime import UTC, datetime
from typing import Protocol

import msgspec

from errdex.errors import ModelError, NotFoundError
from errdex.explain.build import build_page
from errdex.explain.model.answer import (
    decode_answer,
    encode_answer,
    unverifiable,
    verify_names,
)
from errdex.explain.model.prompt import PROMPT_VERSION, build_messages, facts_text
from errdex.explain.page import Page
from errdex.store.base import AnalysisRecord, Store

MAX_FAILURES_IN_A_ROW = 5  # then the endpoint is taken to be down and the run stops


class Chat(Protocol):
    model: str

    def complete(self, messages: list[dict[str, str]]) -> str: ...


class Outcome(msgspec.Struct, frozen=True, kw_only=True):
    error_id: str
    status: str  # "ok", "rejected", "cached", "failed"
    reasons: list[str] = []


class EnrichReport(msgspec.Struct, kw_only=True):
    """What a run over a version did."""

    project: str
    version: str
    model: str
    errors: int  # error ids in the version
    skipped: int = 0  # analysed by an earlier run (accepted or rejected)
    accepted: int = 0
    rejected: int = 0
    failed: int = 0
    rejected_for_citations: int = 0
    reasons: dict[str, int] = {}  # the kinds of rejection, counted


def enrich_error(
    store: Store, error_id: str, chat: Chat, version: str | None = None, *, refresh: bool = False
) -> Outcome:
    """Ask for one error's explanation (unless cached), validate and cache it."""
    page = build_page(store, error_id, version, use_model=False)
    if not refresh:
        cached = store.get_analysis(page.id, page.revision, chat.model, PROMPT_VERSION)
        if cached is not None:
            return Outcome(error_id=page.id, status="cached")
    content = chat.complete(build_messages(page))
    status, body, reasons = _check(store, page, content)
    store.put_analysis(
        AnalysisRecord(
            error_id=page.id,
            revision=page.revision,
            model=chat.model,
            prompt_version=PROMPT_VERSION,
            status=status,
            body=body,
            reason="; ".join(reasons) or None,
            created_at=datetime.now(UTC).isoformat(timespec="seconds"),
        )
    )
    return Outcome(error_id=page.id, status=status, reasons=reasons)


def _check(store: Store, page: Page, content: str) -> tuple[str, str | None, list[str]]:
    try:
        answer = decode_answer(content)
    except (msgspec.ValidationError, msgspec.DecodeError) as error:
        return "rejected", None, [f"schema: {error}"]
    versions = [r for r in store.versions(page.project) if r.revision == page.revision]
    version_id = versions[0].id if versions else None
    texts: dict[str, str | None] = {}

    def text_of(path: str) -> str | None:
        if path not in texts:
            texts[path] = store.file_text(version_id, path) if version_id is not None else None
        return texts[path]

    def lines(path: str) -> int | None:
        text = text_of(path)
        return None if text is None else text.count("\n") + 1

    corpus = facts_text(page) + "\n" + (text_of(page.source.file) or "")
    problems = unverifiable(answer, page, corpus, lines)
    if problems:
        return "rejected", encode_answer(answer), problems
    defined = store.defined_names(version_id) if version_id is not None else frozenset()
    checked, unknown = verify_names(answer, page, corpus, defined)
    if not checked.solutions:
        return "rejected", encode_answer(answer), ["no solution left: " + "; ".join(unknown)]
    notes = [f"not found in the index: {', '.join(unknown)}"] if unknown else []
    return "ok", encode_answer(checked), notes


def enrich_version(
    store: Store,
    project: str,
    chat: Chat,
    version: str | None = None,
    *,
    concurrency: int = 4,
    limit: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> EnrichReport:
    """Explain every error of a version (the newest by default), `concurrency` at a time.

    `progress(done, total)` is called after each error. Stops with `ModelError` when the
    endpoint fails `MAX_FAILURES_IN_A_ROW` times in a row; what was done stays cached.
    """
    records = store.versions(project)
    chosen = [r for r in records if version is None or r.label == version]
    if not chosen:
        raise NotFoundError(f"no version {version!r} of {project}")
    record = chosen[0]
    ids = list(dict.fromkeys(s.id for s in store.list_sites(project, record.label)))
    done_before = store.analysed_errors(record.revision, chat.model, PROMPT_VERSION)
    todo = [i for i in ids if i not in done_before]
    if limit is not None:
        todo = todo[:limit]
    report = EnrichReport(
        project=project,
        version=record.label,
        model=chat.model,
        errors=len(ids),
        skipped=len(ids) - len([i for i in ids if i not in done_before]),
    )
    reasons: Counter[str] = Counter()
    lock = threading.Lock()
    failures_in_a_row = 0
    last_failure: ModelError | None = None
    finished = 0
    with ThreadPoolExecutor(max_workers=max(1, concurrency)) as pool:
        futures = {pool.submit(enrich_error, store, i, chat, record.label): i for i in todo}
        for future in as_completed(futures):
            try:
                outcome = future.result()
            except ModelError as error:
                with lock:
                    report.failed += 1
                    failures_in_a_row += 1
                    last_failure = error
                if failures_in_a_row >= MAX_FAILURES_IN_A_ROW:
                    for pending in futures:
                        pending.cancel()
                    raise ModelError(
                        f"stopped after {failures_in_a_row} failed requests in a row "
                        f"({report.accepted + report.rejected} errors done and cached): "
                        f"{last_failure}"
                    ) from error
            else:
                with lock:
                    failures_in_a_row = 0
                    _count(report, outcome, reasons)
            finished += 1
            if progress is not None:
                progress(finished, len(todo))
    report.reasons = dict(reasons.most_common())
    if report.failed and report.failed == len(todo):
        raise ModelError(f"every request failed ({report.failed}): {last_failure}")
    return report


def _count(report: EnrichReport, outcome: Outcome, reasons: Counter[str]) -> None:
    if outcome.status == "ok":
        report.accepted += 1
    elif outcome.status == "cached":
        report.skipped += 1
    elif outcome.status == "rejected":
        report.rejected += 1
        if any(r.startswith(("cites", "names", "turns", "citation")) for r in outcome.reasons):
            report.rejected_for_citations += 1
        for reason in outcome.reasons:
            reasons[reason.split(" ")[0]] += 1


class ExplainedError(msgspec.Struct, kw_only=True):
    """One error explained: what became of the model's answer, and the page with it."""

    outcome: Outcome
    page: Page


def explain_error(
    store: Store, error_id: str, chat: Chat, version: str | None = None, *, refresh: bool = False
) -> ExplainedError:
    """Ask for one error's explanation (`enrich_error`) and build its page with it."""
    outcome = enrich_error(store, error_id, chat, version, refresh=refresh)
    return ExplainedError(
        outcome=outcome, page=build_page(store, error_id, version, model=chat.model)
    )
