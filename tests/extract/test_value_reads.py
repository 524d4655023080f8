"""What the values of the locals a file's sites and calls test read is given with the
file's facts (`extract.value_reads`): the same answers the linker gets from the texts,
which it then neither scans nor parses."""

from __future__ import annotations

import textwrap

import pytest

from errdex.extract import extract_file
from errdex.facts import FileFacts, ValueRead
from errdex.link import expression_texts, link_version

SOURCE = """
import os


def start(config, items):
    workers = os.getenv("APP_WORKERS")
    size = config.parallel.size
    total = max(config.limit, len(items)) + 1
    bounded = (last := items[-1])
    spread = (config.low +  # the lower bound
              config.high)
    if workers is None or size > 8 or total > 9:
        raise RuntimeError("set the number of workers")
    if bounded or spread:
        raise RuntimeError("the items are out of bounds")
"""


def _facts(source: str) -> FileFacts:
    return extract_file("app/run.py", textwrap.dedent(source).encode())


def test_the_reads_of_the_locals_a_site_tests_are_given_by_their_source() -> None:
    reads = _facts(SOURCE).value_reads
    assert reads == {
        'os.getenv("APP_WORKERS")': ValueRead("APP_WORKERS", None, ()),
        "config.parallel.size": ValueRead(None, "config.parallel.size", ()),
        "max(config.limit, len(items)) + 1": ValueRead(
            None, None, ("max", "config.limit", "len", "items")
        ),
        # recorded on one line, its comment dropped
        "config.low + config.high": ValueRead(None, None, ("config.low", "config.high")),
    }
    # each as the linker reads the text itself
    for text, read in reads.items():
        assert expression_texts.local_value(text) == read


def test_a_value_whose_source_parses_otherwise_alone_is_left_to_the_linker() -> None:
    facts = _facts(SOURCE)
    (bounded,) = [b for s in facts.sites for b in s.bindings if b.name == "bounded"]
    # `last := items[-1]` does not parse without its brackets: the linker reads no name
    assert bounded.value == "last := items[-1]"
    assert bounded.value not in facts.value_reads
    assert expression_texts.local_value(bounded.value) is None


def test_the_linker_takes_a_local_s_read_from_the_facts(monkeypatch: pytest.MonkeyPatch) -> None:
    facts = _facts(SOURCE)

    def unread(text: str) -> None:
        raise AssertionError(f"read from the text: {text}")

    monkeypatch.setattr(expression_texts, "local_value", unread)
    (site, _) = sorted(link_version("demo", [facts]), key=lambda s: s.site.line)
    knobs = [(k.name, k.behind) for k in site.knobs]
    assert ("APP_WORKERS", "workers") in knobs
