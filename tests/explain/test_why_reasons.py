"""Whether a text of the code gives a reason for a check, and a quote of it cut only at a
sentence's end."""

from __future__ import annotations

from errdex.explain.why_reasons import states_reason, whole_sentences


def test_a_requirement_a_limit_a_failure_or_a_cause_is_a_reason() -> None:
    assert states_reason("Must be a single character.")
    assert states_reason("Requires the Triton or FlashInfer mamba backend.")
    assert states_reason("Padding keeps each head a multiple of eight so that none straddles.")
    assert states_reason("Files larger than this will be rejected before decoding.")


def test_what_a_thing_is_or_what_a_value_means_is_none() -> None:
    assert not states_reason("The input tensor to be quantized to NVFP4")
    assert not states_reason("`torch.compile` and cudagraph capture configuration for the model.")
    assert not states_reason("If True, the batch is a uniform decode batch.")
    assert not states_reason("With PCP, DCP either spans the PCP axis or the full block.")


def test_a_quote_is_cut_after_a_sentence_or_dropped() -> None:
    text = "First sentence ends here. " + "word " * 30
    assert whole_sentences(text, 60) == "First sentence ends here."
    assert whole_sentences("word " * 30, 60) is None
    assert whole_sentences("Short one.", 60) == "Short one."
    # a line that introduces a list it does not hold
    assert whole_sentences("The cache strategy, one of:", 60) is None


def test_a_warning_or_the_values_allowed_is_a_reason() -> None:
    assert states_reason("If the name is not found, a warning is printed and None is returned.")
    assert states_reason('Either "chat" or "thinking".')
