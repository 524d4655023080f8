"""A first answer's subset of a real release keeps every raise of the pasted text in the files
it keeps: transformers 4.54.0's `generation/logits_process.py` raises one text in three
classes, the text's longest piece held by many other raises of the file between them."""

from __future__ import annotations

from pathlib import Path

import pytest

from errdex.extract import extract_file
from errdex.match.partial import first_subset
from errdex.match.paste import parse_paste
from errdex.sources import open_source

RELEASE = "transformers==4.54.0"
FILE = "transformers/generation/logits_process.py"
PASTE = "ValueError: `min_tokens_to_keep` has to be a positive integer, but is 0"
TEXT = "`min_tokens_to_keep` has to be a positive integer, but is {min_tokens_to_keep}"


def raises_of_text(data: bytes) -> list[int]:
    facts = extract_file(FILE, data)
    return sorted(s.line for s in facts.sites if s.message is not None and s.message.text == TEXT)


@pytest.mark.parametrize("quick", [True, False])
def test_every_raise_of_the_text_in_a_kept_file_stays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, quick: bool
) -> None:
    monkeypatch.setenv("ERRDEX_CACHE", str(tmp_path / "cache"))
    source = open_source(RELEASE)
    subset = first_subset(source, parse_paste(PASTE), quick=quick)
    assert subset is not None
    kept = {f.path: f.data for f in subset.files_kept}
    assert len(kept) < 20 and FILE in kept
    written = subset.as_written.get(FILE, kept[FILE])
    assert kept[FILE] != written  # the file is cut: its other classes are stubs
    assert len(raises_of_text(written)) == 3
    assert raises_of_text(kept[FILE]) == raises_of_text(written)
