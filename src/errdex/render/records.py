"""The JSON records of sites and lookups: what `--json` prints, the MCP tools answer and the
pages build on."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from errdex.render.safe_text import safe_json

if TYPE_CHECKING:
    from errdex.indexing import IndexReport
    from errdex.match.results import LookupResult

from errdex.facts import Condition, Variant
from errdex.store.base import StoredSite


def condition_record(condition: Condition) -> dict[str, Any]:
    return {
        "text": condition.statement,
        "test": condition.test,
        "kind": str(condition.kind),
        "holds": condition.holds,
        "line": condition.line,
    }


def variant_record(variant: Variant, site_file: str) -> dict[str, Any]:
    return {
        "reason": variant.reason.text,
        "file": variant.file or site_file,
        "line": variant.line,
        "function": variant.function,
        "conditions": [condition_record(c) for c in variant.conditions],
    }


def site_record(stored: StoredSite) -> dict[str, Any]:
    """One site as JSON: its identity, message, place, conditions and variants."""
    site = stored.site
    exception = stored.exception
    return {
        "id": stored.id,
        "project": stored.project,
        "version": stored.version,
        "revision": stored.revision,
        "kind": str(site.kind),
        "exception": (
            {
                "name": exception.name,
                "qualname": exception.qualname,
                "bases": list(exception.bases),
                "defined_in": exception.defined_in,
            }
            if exception is not None
            else None
        ),
        "level": site.level,
        "message": site.message.text if site.message is not None else None,
        "file": stored.file,
        "line": site.line,
        "end_line": site.end_line,
        "module": stored.module,
        "function": site.function,
        "class": site.class_name,
        "url": stored.url,
        "cause": site.cause,
        "conditions": [condition_record(c) for c in site.conditions],
        "bindings": [
            {"name": b.name, "value": b.value, "line": b.line, "origin": b.origin, "file": b.file}
            for b in site.bindings
        ],
        "variants": [variant_record(v, stored.file) for v in site.variants],
    }


def lookup_record(result: LookupResult, partial: Sequence[IndexReport] = ()) -> dict[str, Any]:
    """A lookup as JSON: the matches, best first, the nearest sites when none matched, and
    the versions answered from only some of their files (a first answer's)."""
    return {
        "matches": [m.record() for m in result.matches],
        "nearest": [m.record() for m in result.nearest],
        "partial_index": [
            {"project": r.project, "version": r.version, "files": r.files} for r in partial
        ],
    }


def json_text(value: Any) -> str:
    """The JSON text every face emits: indented, UTF-8, nothing a terminal acts on."""
    return safe_json(json.dumps(value, indent=2, ensure_ascii=False))
