"""A paste into a release that is not installed here, answered from an empty database: the
release is read from its archive (downloaded once, never installed), first only the members
the paste needs, marked partial, with the answer the whole release gives; then completed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from errdex.indexing import index_source
from errdex.match.answer import answer_paste, complete_answer
from errdex.sources import open_source
from errdex.store import open_store
from errdex.store.base import Store

pytestmark = pytest.mark.network

RELEASE = "pygments==2.17.2"  # 343 files; not the version installed where the tests run
# A real traceback of pygments, as its user pastes it with the version they run.
TRACEBACK = """\
Traceback (most recent call last):
  File "/home/me/render.py", line 3, in <module>
    lexer = get_lexer_by_name(language)
  File "/usr/lib/python3.11/site-packages/pygments/lexers/__init__.py", line 132, in get_lexer\
_by_name
    raise ClassNotFound(f'no lexer for alias {_alias!r} found')
pygments.util.ClassNotFound: no lexer for alias 'no-such-language' found

pygments==2.17.2"""
BARE = "no lexer for alias 'no-such-language' found"


@pytest.fixture(scope="module")
def whole(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    """The release indexed whole, the usual way."""
    root = tmp_path_factory.mktemp("whole")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ERRDEX_CACHE", str(root / "cache"))
        store = open_store(root / "whole.db")
        index_source(open_source(RELEASE), store, workers=1)
    yield store
    store.close()


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ERRDEX_CACHE", str(tmp_path / "cache"))


def best(store: Store, paste: str, **options: str) -> tuple[str, int]:
    match = answer_paste(store, paste, auto_index=False, **options).result.matches[0]
    return match.file, match.line


@pytest.mark.usefixtures("cache")
def test_a_release_the_paste_states_is_answered_from_its_members(
    tmp_path: Path, whole: Store
) -> None:
    said: list[str] = []
    with open_store(tmp_path / "first.db") as store:
        answer = answer_paste(store, TRACEBACK, first=True, announce=said.append)
        (partial,) = answer.partial
        assert (partial.project, partial.version) == ("Pygments", "2.17.2")
        assert partial.files < 30
        assert said == [
            f"indexing Pygments 2.17.2 (first the {partial.files} files this paste needs)"
        ]
        top = answer.result.matches[0]
        expected = best(whole, TRACEBACK)
        assert (top.file, top.line) == expected
        assert expected[0] == "pygments/lexers/__init__.py"

        (completed,) = complete_answer(store, answer)
        assert not completed.partial and completed.files > 300
        assert [v.stats.pipeline for v in store.versions("Pygments")] == [
            v.stats.pipeline for v in whole.versions("Pygments")
        ]


@pytest.mark.usefixtures("cache")
def test_a_bare_message_into_a_named_release(tmp_path: Path, whole: Store) -> None:
    with open_store(tmp_path / "first.db") as store:
        answer = answer_paste(store, BARE, release=RELEASE, first=True)
        (partial,) = answer.partial
        assert partial.files < 30
        top = answer.result.matches[0]
        assert (top.file, top.line) == best(whole, BARE, project="Pygments")
        assert top.file == "pygments/lexers/__init__.py"


@pytest.mark.usefixtures("cache")
def test_a_text_no_file_holds_is_answered_at_once_as_the_whole_answers_it(
    tmp_path: Path, whole: Store
) -> None:
    paste = "pygments.util.Whatever: the river rose above the old stone bridge"
    said: list[str] = []
    with open_store(tmp_path / "first.db") as store:
        answer = answer_paste(store, paste, release=RELEASE, first=True, announce=said.append)
        (partial,) = answer.partial
        assert partial.files == 0
        assert "no file of it holds this paste's text" in said[0]
        assert answer.result.matches == []
        assert answer_paste(whole, paste, auto_index=False).result.matches == []
        (completed,) = complete_answer(store, answer)
        assert not completed.partial and completed.files > 300
