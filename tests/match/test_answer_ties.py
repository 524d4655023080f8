"""A first answer from an empty database ranks the sites raising one text as the whole
release does: pygments 2.21.0 raises `no lexer for alias {_alias!r} found` at four lines
of `lexers/__init__.py` (two in `find_lexer_class_by_name`, two in `get_lexer_by_name`),
and the subset answering the bare message holds a few files of its 343, none of the
callers of those functions elsewhere."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from errdex.match.answer import answer_paste
from errdex.store import open_store
from errdex.store.base import Store
from samples import indexed_releases

RELEASE = "pygments==2.21.0"
PASTE = "ClassNotFound: no lexer for alias 'x' found"  # as `get_lexer_by_name('x')` raises it
TEXT = "no lexer for alias {_alias!r} found"


@pytest.fixture(scope="module")
def whole(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    with indexed_releases(tmp_path_factory.mktemp("whole"), [RELEASE]) as opened:
        yield opened


def ranked(store: Store, paste: str, **options: object) -> list[tuple[str, int]]:
    answer = answer_paste(store, paste, project="pygments", **options)  # type: ignore[arg-type]
    return [(match.file, match.line) for match in answer.result.matches]


def raising(store: Store, files: list[str]) -> set[tuple[str, int]]:
    """The raises of the text in these files, as the store holds them."""
    return {
        (stored.file, stored.site.line)
        for stored in store.sites_in_files(files, None, "Pygments", "2.21.0")
        if stored.site.message is not None and stored.site.message.text == TEXT
    }


def test_the_first_answer_ranks_a_text_raised_at_several_sites_as_the_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, whole: Store
) -> None:
    monkeypatch.setenv("ERRDEX_CACHE", str(tmp_path / "cache"))
    with open_store(tmp_path / "first.db") as store:
        answer = answer_paste(store, PASTE, release=RELEASE, first=True)
        (report,) = answer.partial
        assert report.files < 20  # a subset indeed, without the functions' callers
        first = [(match.file, match.line) for match in answer.result.matches]
        # Every raise of the text in the files the subset kept is among its sites.
        kept = sorted({file for file, _ in raising(whole, ["pygments/lexers/__init__.py"])})
        assert raising(store, kept) == raising(whole, kept)
        assert len(raising(whole, kept)) == 4
    everything = ranked(whole, PASTE, auto_index=False)
    # The same four sites in the same order: the first answer is the whole's.
    assert first[:4] == everything[:4]
    assert {line for _, line in everything[:4]} == {96, 107, 120, 132}
