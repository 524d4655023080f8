"""A path looked for in the folder a setting names: the way out supplies it there
(`explain.path_tests`)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store
from samples import MODEL_FOLDER


@pytest.fixture(scope="module")
def eng(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("paths"), "eng", MODEL_FOLDER)


def test_a_missing_path_in_the_flags_folder_is_supplied_there(eng: Store) -> None:
    page = page_with_message(eng, "eng", "Audio tokenizer not found")
    texts = [s.text for s in page.solutions]
    assert texts[0].startswith("Pass `--model` a local folder that holds `audio_tokenizer`")
    # the truth test of a flag that is never empty is no way out: no "Do not pass `--model`"
    assert not any("--model" in t for t in texts[1:])
