"""Helpers that read like the spec: a few lines of source in, the facts out."""

from __future__ import annotations

import textwrap

from errdex.extract import extract_file
from errdex.extract.skeleton import build_skeleton
from errdex.facts import ErrorSite, FileFacts
from samples import QUIET_FUNCTIONS


def facts_of(source: str, path: str = "pkg/mod.py") -> FileFacts:
    facts = extract_file(path, textwrap.dedent(source).encode())
    assert facts.error is None, facts.error
    return facts


def blanked_facts(source: str, path: str = "pkg/mod.py") -> FileFacts:
    """The facts of `source` behind functions that raise nothing, so that the skeleton
    blanks the bodies that raise nothing either: their facts come from the text."""
    text = QUIET_FUNCTIONS + textwrap.dedent(source)
    assert build_skeleton(text) is not None
    return extract_file(path, text.encode())


def sites_of(source: str, path: str = "pkg/mod.py") -> list[ErrorSite]:
    return list(facts_of(source, path).sites)


def only_site(source: str) -> ErrorSite:
    sites = sites_of(source)
    assert len(sites) == 1, [s.message for s in sites]
    return sites[0]


def messages(source: str) -> list[str | None]:
    return [s.message.text if s.message else None for s in sites_of(source)]
