"""Lookup of damaged and partial pastes from public issues, against real releases of
requests (`conftest.py`)."""
# ruff: noqa: E501  (pastes are kept as printed, long lines and all)

from __future__ import annotations

import pytest

from errdex.match import lookup_text
from errdex.store.base import Store

pytestmark = pytest.mark.network


@pytest.fixture
def store(releases: Store) -> Store:
    return releases


def top(store: Store, text: str) -> tuple[str, str, int, str]:
    result = lookup_text(store, text)
    assert result.matches, result.nearest
    best = result.matches[0]
    return best.version, best.file, best.line, best.function


MISSING_SCHEMA = ("requests/models.py", "PreparedRequest.prepare_url")


def test_a_fragment_from_the_middle_of_a_message(store: Store) -> None:
    # The words issue readers search for (mirabarukaso/ComfyUI_Mira#8's message, its middle).
    result = lookup_text(store, "No scheme supplied")
    best = result.matches[0]
    assert (best.file, best.function) == MISSING_SCHEMA
    assert best.exception == "MissingSchema"
    assert "the message is a piece of the template" in best.why
    # A piece ranks below the whole message read in full.
    whole = lookup_text(
        store, "Invalid URL 'local': No scheme supplied. Perhaps you meant https://local?"
    ).matches[0]
    assert (whole.file, whole.function) == MISSING_SCHEMA
    assert whole.score > best.score


def test_a_fragment_running_into_a_value(store: Store) -> None:
    best = lookup_text(store, "No scheme supplied. Perhaps you meant https://local?").matches[0]
    assert (best.file, best.function) == MISSING_SCHEMA
    assert best.values.get("url") == "local"


def test_two_words_are_not_a_fragment(store: Store) -> None:
    assert not any(
        m.function == MISSING_SCHEMA[1] for m in lookup_text(store, "scheme supplied").matches
    )


def test_a_frame_line_cut_at_its_start_pins_the_site(store: Store) -> None:
    # PaddlePaddle/PaddleNLP#3250, the paste starting inside the innermost frame line.
    paste = """\
Programs\\miniconda3\\envs\\ml\\lib\\site-packages\\requests\\models.py", line 440, in prepare_url
    f"Invalid URL {url!r}: No scheme supplied. "
requests.exceptions.MissingSchema: Invalid URL 'None/initialized': No scheme supplied. Perhaps you meant http://None/initialized?"""
    result = lookup_text(store, paste)
    best = result.matches[0]
    assert (best.file, best.function) == MISSING_SCHEMA
    assert any("innermost frame" in why for why in best.why)


def test_an_error_in_a_logfmt_record(store: Store) -> None:
    # ComfyUI_Mira#8's message as a logfmt record (no public logfmt paste was found).
    paste = """time=2024-05-01T10:00:00Z level=error msg="download failed" error="Invalid URL 'local': No scheme supplied. Perhaps you meant https://local?\""""
    version, file, _, function = top(store, paste)
    assert (version, file, function) == ("2.32.3", *MISSING_SCHEMA)  # `https://`: 2.32's words


def test_an_error_in_a_serverless_json_answer(store: Store) -> None:
    # The Lambda answer shape of aws/chalice#83, holding ComfyUI_Mira#8's error.
    paste = """{
  "errorMessage": "Invalid URL 'local': No scheme supplied. Perhaps you meant https://local?",
  "errorType": "MissingSchema",
  "stackTrace": ["  File \\"/var/task/requests/models.py\\", line 438, in prepare_url\\n    raise MissingSchema(\\n"]
}"""
    assert top(store, paste) == ("2.32.3", *MISSING_SCHEMA[:1], 438, MISSING_SCHEMA[1])
