"""An sdist the index lists past the cap is asked about once, not on every index."""

from __future__ import annotations

from pathlib import Path

import pytest

from errdex.sources import pip_config, repo_layout, simple_index
from errdex.sources.repo_layout import fetch_sdist
from errdex.sources.simple_index import IndexFile


class _Index:
    """An index listing one wheel and one sdist of demo 1.0, counting the pages asked."""

    asked = 0
    sdist_size: int | None = 50_000_000

    def __init__(self, settings: object) -> None:
        pass

    def __enter__(self) -> _Index:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def project_files(self, name: str) -> list[IndexFile]:
        type(self).asked += 1
        return [
            IndexFile("demo-1.0-py3-none-any.whl", "https://i/w", {}, yanked=False, size=10),
            IndexFile("demo-1.0.tar.gz", "https://i/s", {}, yanked=False, size=self.sdist_size),
        ]

    def download(self, file: IndexFile, directory: Path, limit: int) -> Path:
        raise AssertionError("an sdist past the cap is never downloaded")


@pytest.fixture
def index(monkeypatch: pytest.MonkeyPatch) -> type[_Index]:
    monkeypatch.setattr(simple_index, "IndexClient", _Index)
    monkeypatch.setattr(pip_config, "index_settings", lambda: None)
    _Index.asked = 0
    _Index.sdist_size = 50_000_000
    return _Index


def test_an_sdist_past_the_cap_is_asked_about_once(tmp_path: Path, index: type[_Index]) -> None:
    assert fetch_sdist("demo", "1.0", tmp_path) is None
    assert index.asked == 1
    # the next index of the release, in this cache or one sharing its downloads
    assert fetch_sdist("Demo", "1.0", tmp_path) is None
    assert index.asked == 1
    # the record lists no archive of the downloads folder
    assert [p.name for p in tmp_path.iterdir()] == [".sdists"]
    # another release, or another folder of downloads, asks
    assert fetch_sdist("demo", "1.1", tmp_path) is None
    assert fetch_sdist("demo", "1.0", tmp_path / "other") is None
    assert index.asked == 3


def test_a_larger_cap_asks_again(
    tmp_path: Path, index: type[_Index], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert fetch_sdist("demo", "1.0", tmp_path) is None
    monkeypatch.setattr(repo_layout, "MAX_SDIST_BYTES", 60_000_000)
    with pytest.raises(AssertionError, match="never downloaded"):
        fetch_sdist("demo", "1.0", tmp_path)  # now within the cap: downloaded
    assert index.asked == 2


def test_an_unknown_size_or_an_unreadable_record_asks_again(
    tmp_path: Path, index: type[_Index]
) -> None:
    index.sdist_size = None  # a page without sizes: the download finds out
    with pytest.raises(AssertionError):
        fetch_sdist("demo", "1.0", tmp_path)
    assert not (tmp_path / ".sdists").exists()
    (tmp_path / ".sdists").mkdir()
    (tmp_path / ".sdists" / "demo-1.0.json").write_text("not json")
    index.sdist_size = 50_000_000
    assert fetch_sdist("demo", "1.0", tmp_path) is None
    assert index.asked == 2
