"""The second extraction round: calls of another file's raising helper in site-free functions."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from errdex.extract.skeleton import MIN_SKELETON_BYTES
from errdex.facts import FileFacts
from errdex.indexing import IndexReport, index_source
from errdex.indexing.cache import FactsCache, content_key
from errdex.indexing.helpercalls import again_key
from errdex.indexing.parallel import ExtractionPool
from errdex.sources import open_source
from errdex.store import open_store
from samples import QUIET_FUNCTIONS, write_package

# Enough site-free functions that a module is reduced to a skeleton before parsing.
QUIET = QUIET_FUNCTIONS

PACKAGE = {
    "pkg/__init__.py": "",
    # The raising helper: small, so parsed whole.
    "pkg/checks.py": """
        def require(ok, message):
            if not ok:
                raise ValueError(f"invalid: {message}")
        """,
    # Calls it in a function with no site word, which the skeleton blanks.
    "pkg/client.py": QUIET
    + """
from pkg.checks import require

def connect(url):
    require(url.startswith("http"), "the url must start with http")
    return url
""",
    # Names it only without a literal message: a second look finds nothing to keep.
    "pkg/mention.py": QUIET
    + """
from pkg.checks import require

def forward(ok, message):
    require(ok, message)
    return ok
""",
    # Never calls it.
    "pkg/other.py": QUIET,
}


def _index(root: Path, tmp_path: Path, *, force: bool = False) -> tuple[IndexReport, list[str]]:
    store = open_store(str(tmp_path / "errdex.db"))
    try:
        report = index_source(
            open_source(str(root)),
            store,
            cache=FactsCache(tmp_path / "cache" / "facts.sqlite3"),
            workers=1,
            force=force,
        )
        sites = store.list_sites(project=report.project)
        found = sorted(
            f"{s.file}:{s.site.function}:{s.site.kind}:{s.site.message.text}"
            for s in sites
            if s.site.message
        )
    finally:
        store.close()
    return report, found


@pytest.fixture
def package(tmp_path: Path) -> Path:
    root = write_package(tmp_path / "src", PACKAGE)
    assert (root / "pkg" / "client.py").stat().st_size > MIN_SKELETON_BYTES
    return root


def test_a_helper_call_in_a_site_free_function_of_another_file_is_a_site(
    package: Path, tmp_path: Path
) -> None:
    report, sites = _index(package, tmp_path)
    assert sites == [
        "pkg/checks.py:require:raise:invalid: {message}",
        "pkg/client.py:connect:helper:invalid: the url must start with http",
    ]
    assert report.kinds == {"raise": 1, "helper": 1}
    # client.py and mention.py name the helper (other.py does not); only client.py calls it
    # with a message in a body the skeleton blanks.
    assert (report.rechecked, report.reparsed) == (2, 1)


def test_the_second_round_is_cached(package: Path, tmp_path: Path) -> None:
    first, first_sites = _index(package, tmp_path)
    again, again_sites = _index(package, tmp_path, force=True)
    assert again_sites == first_sites
    assert (first.parsed, first.rechecked, first.reparsed) == (5, 2, 1)
    assert (again.parsed, again.rechecked, again.reparsed, again.cached) == (0, 0, 0, 5)


def test_the_names_a_file_calls_are_read_as_it_is_extracted(
    package: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Between the rounds, every worker waits: a file extracted in this run has the names it
    calls read by its extraction, and only a file whose facts were cached is read then."""
    import errdex.indexing.helpercalls as helpercalls

    real = helpercalls.called_reversed
    read_between: list[bytes] = []

    def reading(data: bytes) -> list[bytes]:
        read_between.append(data)
        return real(data)

    monkeypatch.setattr(helpercalls, "called_reversed", reading)
    cold, cold_sites = _index(package, tmp_path)
    assert read_between == []
    assert (cold.rechecked, cold.reparsed) == (2, 1)
    warm, warm_sites = _index(package, tmp_path, force=True)
    assert warm_sites == cold_sites and (warm.parsed, warm.rechecked) == (0, 0)
    # the three files large enough for a skeleton (a small one has every call already)
    assert len(read_between) == 3


def test_only_files_that_call_a_helper_are_looked_at_again(package: Path, tmp_path: Path) -> None:
    _index(package, tmp_path)
    cache = FactsCache(tmp_path / "cache" / "facts.sqlite3")
    keys = {
        name: again_key(content_key(name, (package / name).read_bytes()), ("require",))
        for name in ("pkg/client.py", "pkg/mention.py", "pkg/other.py")
    }
    held = cache.get_many(keys.values())
    assert held[keys["pkg/client.py"]]  # facts of its second extraction
    assert held[keys["pkg/mention.py"]] == b""  # its first extraction stands
    assert keys["pkg/other.py"] not in held


# Calls the helper only where the skeleton keeps the text: before the body's last site, and
# in a function that raises.
PARSED_CALLS = {
    "pkg/__init__.py": "",
    "pkg/checks.py": PACKAGE["pkg/checks.py"],
    "pkg/kept.py": QUIET
    + """
from pkg.checks import require

def connect(url):
    require(url.startswith("http"), "the url must start with http")
    if url.endswith("/"):
        raise ValueError("the url must not end with a slash")
    return url
""",
}


def test_a_file_whose_helper_calls_were_all_parsed_is_not_looked_at_again(
    tmp_path: Path,
) -> None:
    """The first round found the call already: a second look would find nothing more."""
    root = write_package(tmp_path / "src", PARSED_CALLS)
    assert (root / "pkg" / "kept.py").stat().st_size > MIN_SKELETON_BYTES
    report, sites = _index(root, tmp_path)
    assert "pkg/kept.py:connect:helper:invalid: the url must start with http" in sites
    assert (report.rechecked, report.reparsed) == (0, 0)


def test_workers_extract_again(package: Path) -> None:
    items = [
        (name, (package / name).read_bytes(), ("require",), None)
        for name in ("pkg/client.py", "pkg/mention.py")
    ]
    with ExtractionPool(2) as pool:
        pool.start()
        results = {path: blob for path, blob, *_ in pool.run_again(items)}
    assert results["pkg/mention.py"] == b""
    facts = msgspec.msgpack.decode(results["pkg/client.py"], type=FileFacts)
    assert [(c.callee, c.function) for c in facts.calls] == [("require", "connect")]


# Messages kept in module constants, this file's or imported, passed by position or name.
CONSTANTS = {
    "pkg/__init__.py": "",
    "pkg/messages.py": """
        NOT_FOUND = "the item was not found"
        GONE = "the item is gone"
        LIMIT = 3
        """,
    "pkg/checks.py": PACKAGE["pkg/checks.py"],
    "pkg/store.py": QUIET
    + """
import errno

from pkg import messages
from pkg.checks import require
from pkg.messages import LIMIT, NOT_FOUND

LOCAL = "a local message"


def find(item):
    require(item, NOT_FOUND)
    return item


def find_gone(item):
    require(item, messages.GONE)
    return item


def find_here(item):
    require(item, message=LOCAL)
    return item


def find_named(item):
    require(ok=item, message="a message passed by name")
    return item


def find_limit(item):
    require(item, LIMIT)  # not text: no site
    require(item, errno.ENOENT)  # the standard library's: not looked up
    return item


def fail_here(message):
    raise RuntimeError(message)


def find_or_fail(item):
    fail_here(NOT_FOUND)
    return item
""",
}


def test_a_helper_call_whose_message_is_a_module_constant_is_a_site(tmp_path: Path) -> None:
    root = write_package(tmp_path / "src", CONSTANTS)
    assert (root / "pkg" / "store.py").stat().st_size > MIN_SKELETON_BYTES
    _, sites = _index(root, tmp_path)
    assert [s for s in sites if s.startswith("pkg/store.py")] == [
        "pkg/store.py:fail_here:raise:{message}",
        "pkg/store.py:find:helper:invalid: the item was not found",
        "pkg/store.py:find_gone:helper:invalid: the item is gone",
        "pkg/store.py:find_here:helper:invalid: a local message",
        "pkg/store.py:find_named:helper:invalid: a message passed by name",
        "pkg/store.py:find_or_fail:helper:the item was not found",
    ]


def test_a_second_round_errdex_fails_on_leaves_the_first_and_is_tried_again(
    package: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fault is injected (no real input is known to make extraction raise)."""
    import errdex.indexing.parallel as parallel

    real = parallel.extract_again

    def fail(path: str, data: bytes, names: object, first: object) -> None:
        raise ValueError("injected fault")

    monkeypatch.setattr(parallel, "extract_again", fail)
    report, sites = _index(package, tmp_path)
    assert sites == ["pkg/checks.py:require:raise:invalid: {message}"]  # the first round's
    assert (report.rechecked, report.reparsed) == (2, 0) and report.skipped == []
    monkeypatch.setattr(parallel, "extract_again", real)
    report, sites = _index(package, tmp_path, force=True)
    assert "pkg/client.py:connect:helper:invalid: the url must start with http" in sites
    assert (report.rechecked, report.reparsed) == (2, 1)  # nothing of the failure was kept
