"""A file whose facts cannot be stored as they are never stops a version: big ints are kept
as their decimal text, and anything else that will not encode skips that file with a reason."""

from __future__ import annotations

from pathlib import Path

import msgspec

from errdex.facts import FileFacts
from errdex.indexing import index_source
from errdex.indexing.cache import FactsCache
from errdex.indexing.parallel import encode_facts
from errdex.sources import open_source
from errdex.store import open_store
from samples import write_package


def test_a_constant_past_64_bits_is_kept_as_its_text_and_the_version_is_indexed(
    tmp_path: Path,
) -> None:
    # numpy 1.23.2 stopped the whole run on such a constant (msgpack holds 64-bit ints).
    root = write_package(
        tmp_path / "pkg",
        {
            "big/limits.py": f"""
                HUGE = {2**70}
                NEGATIVE = {-(2**70)}
                TABLE = ({2**70}, 1, 2)

                def check(x):
                    if x > HUGE:
                        raise OverflowError(f"{{x}} is over {{HUGE}}")
                """,
            "big/use.py": """
                from big.limits import HUGE

                def also(x):
                    raise ValueError(f"{x} is not below {HUGE}")
                """,
        },
    )
    store = open_store(str(tmp_path / "index.db"))
    try:
        report = index_source(
            open_source(str(root)), store, cache=FactsCache(tmp_path / "facts.sqlite3"), workers=1
        )
        messages = sorted(
            s.site.message.text for s in store.list_sites(project=report.project) if s.site.message
        )
    finally:
        store.close()
    assert report.skipped == []
    assert messages == [
        f"{{x}} is not below {2**70}",
        f"{{x}} is over {2**70}",
    ]


def test_facts_that_cannot_be_encoded_make_an_error_for_that_file_alone() -> None:
    # No extraction produces such a value today: this pins what the last resort does.
    facts = FileFacts(path="pkg/odd.py", module="pkg.odd", constants={"ODD": object()})
    decoded = msgspec.msgpack.decode(encode_facts(facts), type=FileFacts)
    assert decoded.path == "pkg/odd.py"
    assert decoded.error is not None
    assert decoded.error.startswith("facts cannot be stored (")
    assert decoded.constants == {}
