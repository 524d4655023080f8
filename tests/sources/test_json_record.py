"""A record beside the downloads is written whole or not at all."""

from __future__ import annotations

import json
from pathlib import Path

from errdex.sources.json_record import write_record


def test_writes_the_record_and_leaves_no_scratch(tmp_path: Path) -> None:
    path = tmp_path / "records" / "x.json"
    write_record(path, {"size": 3})
    assert json.loads(path.read_text()) == {"size": 3}
    assert sorted(p.name for p in path.parent.iterdir()) == ["x.json"]


def test_a_folder_it_cannot_write_is_no_error(tmp_path: Path) -> None:
    blocker = tmp_path / "records"
    blocker.write_text("a file where the folder should be")
    write_record(blocker / "x.json", {"size": 3})  # must not raise
    assert blocker.read_text() == "a file where the folder should be"


def test_a_failed_rename_leaves_no_scratch(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    (path / "inside").mkdir(parents=True)  # a folder in the record's place: the rename fails
    write_record(path, {"size": 1})
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.json"]
