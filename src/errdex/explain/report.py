""" "Report an issue": the project's tracker, prefilled with the error when it is known how."""

from __future__ import annotations

from urllib.parse import quote, urlencode, urlsplit

from errdex.sources._common import github_repo
from errdex.store.base import Store

_MAX_TITLE = 120


def report_url(store: Store, project: str, message: str | None, error_id: str) -> str | None:
    """A "new issue" link on the project's tracker (or its GitHub repository's issues),
    with the message as the title."""
    tracker = tracker_of(store, project)
    return prefilled(tracker, message, error_id) if tracker else None


def tracker_of(store: Store, project: str) -> str | None:
    """The project's issue tracker: its metadata's, else its GitHub repository's issues."""
    record = next((p for p in store.projects() if p.name == project), None)
    if record is None:
        return None
    if record.tracker_url is not None or not record.homepage:
        return record.tracker_url
    repository = github_repo(record.homepage)
    return f"{repository}/issues" if repository else None


def prefilled(tracker: str, message: str | None, error_id: str) -> str:
    """GitHub and GitLab issue lists get a prefilled "new issue" form; others stay as given."""
    parts = urlsplit(tracker)
    if parts.scheme not in ("http", "https"):
        return tracker
    path = parts.path.rstrip("/")
    title = " ".join((message or f"error {error_id}").split())[:_MAX_TITLE]
    body = f"errdex error id: {error_id}\n\nMessage:\n\n    {message or ''}\n"
    base = f"{parts.scheme}://{parts.netloc}"
    if parts.netloc in ("github.com", "www.github.com"):
        segments = [s for s in path.split("/") if s]
        if len(segments) >= 2:
            repo = "/".join(segments[:2])
            query = urlencode({"title": title, "body": body}, quote_via=quote)
            return f"{base}/{repo}/issues/new?{query}"
    if "gitlab" in parts.netloc:
        project = path.removesuffix("/-/issues").removesuffix("/issues")
        query = urlencode({"issue[title]": title, "issue[description]": body}, quote_via=quote)
        return f"{base}{project}/-/issues/new?{query}"
    return tracker
