"""An installed distribution is found and read as `importlib.metadata` finds and reads it,
without importing it (or the email parser) in the plain case."""

from __future__ import annotations

import email
import importlib.metadata
import sys
from importlib.machinery import PathFinder
from pathlib import Path

import pytest

from errdex.sources.dist_info import DistInfo, Headers, distribution


def test_every_distribution_here_is_the_one_importlib_finds_read_alike() -> None:
    names = {d.metadata["Name"] for d in importlib.metadata.distributions()}
    assert len(names) > 10
    for name in sorted(names):
        theirs = importlib.metadata.distribution(name)
        ours = distribution(name)
        assert ours is not None
        assert str(ours.locate_file("")) == str(theirs.locate_file(""))
        for field in ("Name", "Version", "Project-URL", "Home-page", "Summary", "Nothing"):
            assert ours.metadata.get_all(field) == theirs.metadata.get_all(field), (name, field)
        assert ours.metadata["Name"] == theirs.metadata["Name"]
        for filename in ("RECORD", "top_level.txt", "direct_url.json", "entry_points.txt"):
            assert ours.read_text(filename) == theirs.read_text(filename)


@pytest.mark.parametrize(
    "text",
    [
        "Name: a\nVersion: 1.0\n\nName: in the body\n",
        "Name: a\r\nVersion: 1.0\r\nProject-URL: Home, https://x\r\nProject-URL: Bugs, y\r\n",
        "Name: a\nSummary: one\n  two\n\tthree\nVersion:  2  \n",
        "From someone\nName: a\nVersion: 1\n",
        " leading continuation\nName: a\n",
        "Name: a\nno colon here\nVersion: 1\n",
        "Name: a\n: no name\n  continued\nVersion: 1",
        "Name: a\nName: b\nVersion:\n",
        "Name: a\rVersion: 1\r\rName: body\r",
        "",
    ],
)
def test_header_fields_read_as_the_email_parser_reads_them(text: str) -> None:
    theirs = email.message_from_string(text)
    ours = Headers(text)
    for field in ("Name", "Version", "Summary", "Project-URL", "Nothing"):
        assert ours.get_all(field) == theirs.get_all(field), field
        assert ours[field] == theirs[field]


class _OtherFinder:
    def find_distributions(self, *args: object, **kwargs: object) -> list[object]:
        return []


def _dist(folder: Path, name: str, version: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).mkdir()
    (folder / name / "METADATA").write_text(f"Name: {name.split('-')[0]}\nVersion: {version}\n")
    return folder / name


def test_the_first_folder_on_the_path_wins_and_an_egg_info_is_left_to_importlib(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _dist(tmp_path / "one", "Zz_Thing-1.0.dist-info", "1.0")
    _dist(tmp_path / "two", "zz.thing-2.0.dist-info", "2.0")
    _dist(tmp_path / "eggs", "zz_thing-3.0.egg-info", "3.0")
    missing = str(tmp_path / "missing")
    monkeypatch.setattr(sys, "path", [missing, str(tmp_path / "two"), str(tmp_path / "one")])
    # The standard finder alone (importlib_metadata, once imported, takes its place with
    # one of its own: then that one is asked instead, as the next lines check).
    finds = staticmethod(importlib.metadata.MetadataPathFinder.find_distributions)
    monkeypatch.setattr(PathFinder, "find_distributions", finds, raising=False)
    monkeypatch.setattr(sys, "meta_path", [_OtherFinder(), PathFinder])
    assert not isinstance(distribution("ZZ-thing"), DistInfo)
    monkeypatch.setattr(sys, "meta_path", [PathFinder])
    found = distribution("ZZ-thing")
    assert isinstance(found, DistInfo) and found.metadata["Version"] == "2.0"
    monkeypatch.setattr(sys, "path", [str(tmp_path / "eggs"), str(tmp_path / "two")])
    found = distribution("zz_thing")
    assert not isinstance(found, DistInfo)
    assert found is not None and found.metadata["Version"] == "3.0"
    assert distribution("zz-other") is None
    assert distribution("") is None
