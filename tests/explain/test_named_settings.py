"""The settings a message names, resolved against the version (a declared flag, a field of
the class a JSON-valued flag takes, a variable the code reads) and offered as the message's
own advice: a value for the flag, the field that asks for more turned off."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

# Shapes of vllm 0.33.0 (entrypoints/common/cli_args.py, config/attention.py,
# v1/attention/backends/mla/sparse_indexer.py, engine/arg_utils.py), cut down.
ENG = {
    "eng/__init__.py": "",
    "eng/envs.py": """
        import os

        ENG_USE_FAST = os.getenv("ENG_USE_FAST")
        """,
    "eng/config.py": """
        from dataclasses import dataclass


        @dataclass
        class AttnConfig:
            backend: str | None = None
            '''The attention backend.'''

            sparse_logits: bool = False
            '''Score only the candidate blocks. Requires the fast top-k extension.'''

            block_size: int = 16
            '''The block size.'''
        """,
    "eng/args.py": """
        import argparse
        from dataclasses import dataclass, field

        from eng.config import AttnConfig


        @dataclass
        class EngineArgs:
            attn_config: AttnConfig = field(default_factory=AttnConfig)
            strict_mode: bool = False
            mono_mode: bool = False


        def make_parser():
            parser = argparse.ArgumentParser()
            parser.add_argument("--effort-map", type=str, default=None)
            return parser
        """,
    "eng/checks.py": """
        def validate_effort_map(effort_map):
            if effort_map is not None and not isinstance(effort_map, dict):
                raise ValueError(
                    "Error: --effort-map must be a JSON object mapping efforts to strings."
                )


        def validate_other(value):
            if value is not None and not isinstance(value, dict):
                raise ValueError("--unknown-flag must be a JSON object.")


        def build(prefix, has_ext, kind):
            prefix = "attn_config.sparse_logits"
            if not has_ext():
                raise ValueError(f"{prefix} requires the fast top-k extension for this GPU.")
            if kind == 2:
                raise ValueError("attn_config.block_size requires a multiple of 64.")
            if kind == 3:
                raise ValueError("attn_config.no_such_field requires a multiple of 64.")
            if kind == 4:
                raise ValueError("--strict-mode requires a validator.")


        def _require(condition, message):
            if not condition:
                raise ValueError(f"--mono-mode {message}.")


        def mono_scale(layer):
            _require(layer.scale == 2.0, "needs a routed scale of 2.0")


        def mono_layer(layer, warm):
            _require(layer.top_k == 4, "requires top-4 routing")
            mono_scale(layer)
            if not warm:
                raise RuntimeError("--mono-mode was first reached before a warm-up step.")
            if layer.scales:
                raise ValueError("--mono-mode layer scales are not shuffled.")
            if layer.off:
                raise ValueError("--mono-mode is not set for this layer.")
            if layer.grpc:
                raise ValueError("--mono-mode does not support --effort-map.")


        def fast_timeout(value):
            if value <= 0:
                raise ValueError("ENG_USE_FAST must be a positive number")


        def fast(kind):
            if kind == 1:
                raise ValueError("Fast mode is off; set ENG_USE_FAST=1.")
            if kind == 2:
                raise ValueError("Fast mode is off; set ENG_NOT_READ=1.")
        """,
}


@pytest.fixture(scope="module")
def eng(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("eng"), "eng", ENG)


def test_a_declared_flag_the_message_says_must_be_something_is_given_that(eng: Store) -> None:
    page = page_with_message(eng, "eng", "Error: --effort-map must be")
    assert page.solutions[0].text == (
        "Give `--effort-map` a JSON object mapping efforts to strings, as the message says: "
        "“Error: --effort-map must be a JSON object mapping efforts to strings.”"
    )
    assert page.solutions[0].kind == "setting"
    # a flag the version does not declare is no setting
    other = page_with_message(eng, "eng", "--unknown-flag must be")
    assert not any(s.text.startswith("Give `--unknown-flag`") for s in other.solutions)


def test_a_bool_field_that_requires_more_is_turned_off_through_its_json_flag(eng: Store) -> None:
    page = page_with_message(eng, "eng", "attn_config.sparse_logits requires")
    texts = [s.text for s in page.solutions]
    assert texts[0].startswith(
        "Turn `attn_config.sparse_logits` off: pass `--attn-config '{\"sparse_logits\": false}'`"
    )
    assert texts[0].endswith(
        "; it is what asks for more, as the message says: “attn_config.sparse_logits requires "
        "the fast top-k extension for this GPU.”"
    )
    # the field's docstring says why, as the field's
    (quote,) = [q for q in page.why if q.text.startswith("Score only the candidate blocks.")]
    assert quote.of.startswith("doc of `attn_config.sparse_logits`"), quote


def test_a_field_of_another_type_or_none_gets_no_value(eng: Store) -> None:
    for message in ("attn_config.block_size requires", "attn_config.no_such_field requires"):
        page = page_with_message(eng, "eng", message)
        assert not any("--attn-config '" in s.text for s in page.solutions)


def test_a_plain_bool_flag_that_requires_more_is_left_out(eng: Store) -> None:
    page = page_with_message(eng, "eng", "--strict-mode requires")
    assert page.solutions[0].text.startswith("Do not pass `--strict-mode`; it is what asks for")


def test_a_variable_is_set_only_when_the_version_reads_it(eng: Store) -> None:
    read = page_with_message(eng, "eng", "Fast mode is off; set ENG_USE_FAST=1.")
    assert any(s.change is not None and s.change.target == "ENG_USE_FAST" for s in read.solutions)
    unread = page_with_message(eng, "eng", "Fast mode is off; set ENG_NOT_READ=1.")
    assert all(s.change is None for s in unread.solutions)


def test_a_bool_flag_the_message_opens_with_is_left_out_when_it_says_what_is_lacking(
    eng: Store,
) -> None:
    # "--mono-mode {message}.": no condition reads the flag, yet the message says the check
    # is one the code it turns on makes
    page = page_with_message(eng, "eng", "--mono-mode {message}.")
    first = page.solutions[0]
    assert first.text == (
        "Do not pass `--mono-mode`; the message opens with it, so the check belongs to the "
        "code `--mono-mode` turns on: “--mono-mode MESSAGE.”"
    )
    assert first.kind == "setting" and first.drops
    # a sentence that says nothing is lacking or refused, or that names a second flag the
    # check is on together with it, gets no such way out
    shuffled = page_with_message(eng, "eng", "--mono-mode layer scales are not shuffled.")
    assert shuffled.solutions[0].text.startswith("Do not pass `--mono-mode`; the message opens")
    for message in (
        "--mono-mode was first reached",
        "--mono-mode does not support",
        "--mono-mode is not set",
    ):
        other = page_with_message(eng, "eng", message)
        assert not any(s.knob == "--mono-mode" for s in other.solutions), message


def test_a_variable_the_message_says_must_be_something_is_given_that(eng: Store) -> None:
    page = page_with_message(eng, "eng", "ENG_USE_FAST must be")
    assert page.solutions[0].text == (
        "Give `ENG_USE_FAST` a positive number, as the message says: "
        "“ENG_USE_FAST must be a positive number”"
    )
