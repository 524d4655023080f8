"""Where a pasted name points in the store: the project a qualified class name or a
logger's name starts with, and that logger's own log calls."""

from __future__ import annotations

from collections.abc import Sequence

from errdex.facts import MessageTemplate
from errdex.match.evidence import ErrorEvidence
from errdex.match.pattern import TemplateMatch, compile_template
from errdex.store.base import Store, StoredSite

__all__ = ["logged_by", "project_named", "spanning"]


def logged_by(
    store: Store, item: ErrorEvidence, project: str | None, version: str | None
) -> list[StoredSite]:
    """The log calls at the pasted level of the project the logger's name starts with
    (`babel`, `vllm.engine`): loggers are named for their package or module."""
    if not item.logger or not item.level:
        return []
    home = project or project_named([p.name for p in store.projects()], item.logger)
    if home is None:
        return []
    level = (item.level or "").lower()[:4]
    return [
        s for s in store.sites_of_kind("log", home, version) if (s.site.level or "")[:4] == level
    ]


def spanning(template: MessageTemplate | None, message: str) -> TemplateMatch | None:
    """The template read over the whole line, however little of it is literal text: enough
    among the pasted logger's own calls at the pasted level (` * %s` for ` * <as : >`)."""
    found = compile_template(template).match(message) if template is not None else None
    return found if found is not None and found.whole and found.literal else None


def project_named(projects: Sequence[str], qualified: str) -> str | None:
    """The project whose name is the top package of a qualified class name."""
    top = without_separators(qualified.split(".", 1)[0])
    return next((name for name in projects if without_separators(name) == top), None)


def without_separators(name: str) -> str:
    """The name lower-cased without `-`, `_` and `.`, so that a top module (`huggingface_hub`)
    and its project (`huggingface-hub`) compare equal: looser than a project's canonical name
    (PEP 503), which keeps one `-` where the separators were."""
    return name.lower().replace("-", "").replace("_", "").replace(".", "")
