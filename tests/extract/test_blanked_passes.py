"""What a call in a blanked body gives by keyword (`extract.blanked_passes`)."""

from __future__ import annotations

import textwrap

from errdex.extract import extract_file
from errdex.extract.skeleton import build_skeleton
from samples import QUIET_FUNCTIONS

# A constructor that raises nothing (so the skeleton blanks it) building a part from the
# user's settings: one keyword given a local, one a chain, one a call.
MODEL = QUIET_FUNCTIONS + textwrap.dedent(
    """
    from pkg.encoder import AudioEncoder


    class OmniModel:
        def __init__(self, *, vllm_config, prefix=""):
            config = vllm_config.model_config.hf_config
            model_path = vllm_config.model_config.model
            if config.audio is not None:
                with self.marked(vllm_config):
                    self.audio = AudioEncoder(
                        config.audio,
                        model_path=model_path,
                        quant_config=vllm_config.quant_config,
                        prefix=join(prefix, "audio"),
                    )
    """
)


def _passes(source: str) -> tuple[tuple[str, str, int], ...]:
    assert build_skeleton(source) is not None
    facts = extract_file("pkg/model.py", source.encode())
    (call,) = [c for c in facts.call_sites if c.callee == "AudioEncoder"]
    return call.passes


def test_a_blanked_calls_keywords_give_the_chains_they_hold() -> None:
    # the local is followed to the chain it is assigned; the call's value is not read
    assert _passes(MODEL) == (
        ("model_path", "vllm_config.model_config.model", -1),
        ("quant_config", "vllm_config.quant_config", -1),
    )


def test_a_local_bound_again_or_under_a_branch_gives_nothing() -> None:
    assert "        if config.audio" in MODEL
    again = MODEL.replace(
        "        if config.audio",
        "        if prefix:\n            model_path = prefix\n        if config.audio",
    )
    assert _passes(again) == (("quant_config", "vllm_config.quant_config", -1),)
    branched = MODEL.replace(
        "        model_path = vllm_config.model_config.model\n",
        "        if prefix:\n            model_path = vllm_config.model_config.model\n",
    )
    assert _passes(branched) == (("quant_config", "vllm_config.quant_config", -1),)


def test_a_keyword_of_a_nested_call_or_in_a_string_is_not_the_calls() -> None:
    nested = MODEL.replace(
        'prefix=join(prefix, "audio")',
        'prefix=join(prefix, part=vllm_config.part), note="a, b=vllm_config.b"',
    )
    assert _passes(nested) == _passes(MODEL) != ()


def test_a_keyword_right_after_the_parenthesis_is_read() -> None:
    first = MODEL.replace("                    config.audio,\n", "")
    assert _passes(first) == _passes(MODEL)
