"""A plugin a flag names in a registry of names (`--reasoning-parser think`): the page says
to leave the flag out, or give the name of the one made for the user's model, from the
command that reaches the check (with the flags it needs beside it) to the one without."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store
from selection_samples import NAMED


@pytest.fixture(scope="module")
def named(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("named"), "serve", NAMED)


def test_a_tokenizer_check_of_a_parser_offers_to_leave_its_flag_out(named: Store) -> None:
    page = page_with_message(named, "serve", "ThinkReasoningParser could not locate")
    solution = page.solutions[0]
    assert solution.kind == "setting"
    assert solution.text == (
        "Leave `--reasoning-parser think` out, or give `--reasoning-parser` the name of the "
        "reasoning parser made for your model instead. `--reasoning-parser` picks this class "
        "by name (`_REASONING_PARSERS_TO_REGISTER['think']` in serve/reasoning/__init__.py, "
        "also for `shared`), and its constructor, where this check is, runs only for those "
        "names. The other names this version registers: `derived`, `effort`, `kept` and `plain`."
    )
    assert (
        "it runs only when `--reasoning-parser` is `think` or `shared`, which names this "
        "class in `_REASONING_PARSERS_TO_REGISTER`"
    ) in page.what_it_means
    # the token is looked up in the served model's tokenizer: it is the model's that lacks it
    assert "that tokenizer does not have them" in page.what_it_means
    assert page.example_fix is not None
    assert (page.example_fix.before, page.example_fix.after) == (
        "serve run MODEL_TAG --reasoning-parser think",
        "serve run MODEL_TAG",
    )


def test_the_fix_carries_the_flag_that_needs_the_parser_flag(named: Store) -> None:
    page = page_with_message(named, "serve", "JsonToolParser could not locate")
    assert page.solutions[0].text.startswith(
        "Leave `--enable-auto-tool-choice --tool-call-parser json` out "
        "(`--enable-auto-tool-choice` is refused without `--tool-call-parser`, so both go)"
    )
    assert page.example_fix is not None
    assert (page.example_fix.before, page.example_fix.after) == (
        "serve run MODEL_TAG --enable-auto-tool-choice --tool-call-parser json",
        "serve run MODEL_TAG",
    )

    # a check that the parser was handed a tokenizer at all is the caller's invariant: a
    # command giving the flag does not reach it
    for message in ("The tokenizer must be given", "KeptReasoningParser was handed no"):
        # the attribute the constructor, or its base's, keeps the tokenizer in
        page = page_with_message(named, "serve", message)
        assert not any("--reasoning-parser" in s.text for s in page.solutions), message
        assert "--reasoning-parser" not in page.what_it_means
    # a check of the options a call hands the parser keeps to them: no other parser
    page = page_with_message(named, "serve", "Unsupported effort")
    assert not any("--reasoning-parser" in s.text for s in page.solutions)
    assert "--reasoning-parser" not in page.what_it_means


def test_a_check_of_the_kept_tokenizer_leaves_the_flag_out(named: Store) -> None:
    # `self.tokenizer.eos_token_id is None` tests a token of the tokenizer the constructor
    # keeps, not that it was handed one: the flag is the way out
    page = page_with_message(named, "serve", "XmlToolParser needs the end-of-text token")
    assert page.solutions[0].text.startswith(
        "Leave `--enable-auto-tool-choice --tool-call-parser xml` out "
    )


def test_a_check_of_no_token_offers_another_registered_name(named: Store) -> None:
    # `self.vocab_size` looks no token up: no word of the model the user serves
    page = page_with_message(named, "serve", "SizeToolParser needs a vocabulary")
    text = page.solutions[0].text
    assert text.startswith(
        "Leave `--enable-auto-tool-choice --tool-call-parser size` out "
        "(`--enable-auto-tool-choice` is refused without `--tool-call-parser`, so both go), "
        "or give `--tool-call-parser` another of its registered names instead."
    ), text
    assert "model" not in text
    assert "tokenizer" not in page.what_it_means
    assert page.example_fix is not None
    assert "made for your model" not in page.example_fix.note


def test_a_token_looked_up_in_the_vocabulary_call_asks_for_the_model_s_parser(
    named: Store,
) -> None:
    # `"<call>" not in tokenizer.get_vocab()`: the served model's tokenizer lacks the token
    page = page_with_message(named, "serve", "VocabToolParser could not find")
    assert "give `--tool-call-parser` the name of the tool call parser made for your model" in (
        page.solutions[0].text
    ), page.solutions[0].text
    assert "that tokenizer does not have them" in page.what_it_means
