"""A bare message into an installed package never indexed: answered first from the files
holding its text (the raises of its class elsewhere left for later), from those raises too
when that answer is unsure; either way the whole package's answer."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from errdex.match.answer import answer_paste
from errdex.match.partial import first_subset
from errdex.match.paste import parse_paste
from errdex.sources import open_source
from errdex.store import open_store
from errdex.store.base import Store
from samples import indexed_releases

SOURCE = "installed:pygments"  # 343 files, installed wherever errdex is
# Its own text, raised with `ClassNotFound` in one file; the class is raised in others.
SURE = "pygments.util.ClassNotFound: Could not find style class 'Nope' in style module."
# A text pygments raises as a ValueError, pasted as its ClassNotFound: the files holding
# the text raise no ClassNotFound, so its raises elsewhere are needed after all.
UNSURE = "pygments.util.ClassNotFound: No variable end found"


@pytest.fixture(scope="module")
def whole(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    store = indexed_releases(tmp_path_factory.mktemp("whole"), [SOURCE])
    yield store
    store.close()


def top(store: Store, paste: str, **options: object) -> tuple[str, int] | None:
    answer = answer_paste(store, paste, project="pygments", **options)  # type: ignore[arg-type]
    matches = answer.result.matches
    return (matches[0].file, matches[0].line) if matches else None


@pytest.mark.parametrize(("paste", "settled"), [(SURE, True), (UNSURE, False)])
def test_the_quick_answer_stands_only_when_sure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, whole: Store, paste: str, settled: bool
) -> None:
    monkeypatch.setenv("ERRDEX_CACHE", str(tmp_path / "cache"))
    evidence = parse_paste(paste)
    source = open_source(SOURCE)
    quick = first_subset(source, evidence, quick=True)
    fuller = first_subset(source, evidence)
    assert quick is not None and fuller is not None and quick.fuller is not None
    # The raises of ClassNotFound in other modules wait, unless the answer is unsure.
    assert len(quick.files_kept) < len(fuller.files_kept) or settled
    with open_store(tmp_path / "first.db") as store:
        answer = answer_paste(store, paste, project="pygments", first=True)
        (report,) = answer.partial
        assert report.files == len((quick if settled else fuller).files_kept)
        best = answer.result.matches[0]
        assert (best.file, best.line) == top(whole, paste, auto_index=False)


def test_the_fuller_subset_extracts_only_what_the_quick_one_lacks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from errdex.indexing.on_demand import index_subset

    monkeypatch.setenv("ERRDEX_CACHE", str(tmp_path / "cache"))
    quick = first_subset(open_source(SOURCE), parse_paste(UNSURE), quick=True)
    assert quick is not None and quick.fuller is not None
    with open_store(tmp_path / "first.db") as store:
        first = index_subset(store, quick)
        fuller = quick.fuller()
        assert fuller is not None and not fuller.same_files(quick)
        report = index_subset(store, fuller)
    both = {(f.path, f.data) for f in quick.files_kept} & {
        (f.path, f.data) for f in fuller.files_kept
    }
    assert first.parsed == len(quick.files_kept) and both
    # The files both hold, cut alike, were extracted once: their facts are the quick one's.
    assert report.cached == len(both)
    assert report.parsed == len(fuller.files_kept) - len(both)


def test_a_fuller_subset_holding_the_same_files_is_not_indexed_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import errdex.indexing.on_demand as on_demand
    from errdex.match.answer import _index_fuller

    monkeypatch.setenv("ERRDEX_CACHE", str(tmp_path / "cache"))
    source, evidence = open_source(SOURCE), parse_paste(UNSURE)
    quick = first_subset(source, evidence, quick=True)
    assert quick is not None
    # A fuller subset whose raises left for later were in the quick one's files already.
    quick.fuller = lambda: first_subset(source, evidence, quick=True)
    indexed: list[object] = []
    monkeypatch.setattr(on_demand, "index_subset", lambda *a, **k: indexed.append(a))
    with open_store(tmp_path / "first.db") as store:
        assert _index_fuller(store, [quick], []) is None
    assert not indexed
