"""Templates compiled to matchers: values, tolerance, prefixes, substrings, scores."""

from __future__ import annotations

from errdex.facts import MessageTemplate, Placeholder
from errdex.match.pattern import CompiledTemplate, compile_template, literal_runs


def tpl(*parts: str | Placeholder) -> CompiledTemplate:
    return compile_template(MessageTemplate.of(*parts))


P = Placeholder
# vllm/config/model.py-style messages used throughout.
NOT_SUPPORTED = tpl("Model ", P("model_id"), " is not supported on ", P("platform"), ".")
REASONS = tpl("Model Runner V1 does not support: ", P("', '.join(unsupported)"))


def test_values_extracted() -> None:
    m = NOT_SUPPORTED.match("Model meta-llama/Llama-3-8B is not supported on cpu.")
    assert m is not None
    assert m.values == {"model_id": "meta-llama/Llama-3-8B", "platform": "cpu"}
    assert 0 < m.covered < 1 and 0 < m.score < 1
    m = REASONS.match("Model Runner V1 does not support: dual batch overlap with LoRA")
    assert m is not None and m.values == {"', '.join(unsupported)": "dual batch overlap with LoRA"}


def test_exact_match_scores_one() -> None:
    m = tpl("CUDA out of memory.").match("CUDA out of memory.")
    assert m is not None and (m.score, m.covered, m.values) == (1.0, 1.0, {})
    tail = tpl("CUDA out of memory.").match("CUDA out of memory. Tried to allocate 20 MiB")
    assert tail is not None and tail.score < 0.6  # only as a substring


def test_a_dropped_final_full_stop_is_forgiven() -> None:
    m = NOT_SUPPORTED.match("Model x is not supported on cpu")
    assert m is not None and m.values == {"model_id": "x", "platform": "cpu"}
    m = tpl("CUDA out of memory.").match("CUDA out of memory")
    assert m is not None and 0.85 < m.score < 1.0


def test_repr_placeholder_absorbs_quotes() -> None:
    t = tpl("Unsupported task: ", P("task", conversion="r"))
    for message in ["Unsupported task: 'reward'", 'Unsupported task: "reward"']:
        m = t.match(message)
        assert m is not None and m.values == {"task": "reward"}
    m = t.match("Unsupported task: ['a', 'b']")
    assert m is not None and m.values == {"task": "['a', 'b']"}  # not a string: kept as printed


def test_whitespace_insensitive() -> None:
    m = NOT_SUPPORTED.match("Model  meta-llama/Llama-3-8B\n   is not\nsupported on\tcpu.")
    assert m is not None and m.values == {"model_id": "meta-llama/Llama-3-8B", "platform": "cpu"}
    t = tpl("expected one of:\n  - a\n  - b\ngot ", P("x"))
    m = t.match("expected one of: - a - b got c")
    assert m is not None and m.values == {"x": "c"}


def test_quote_styles_tolerated_but_case_is_not() -> None:
    t = tpl("Please set `trust_remote_code=True` for '", P("name"), "'")
    for message in [
        "Please set `trust_remote_code=True` for 'x/y'",
        "Please set 'trust_remote_code=True' for \"x/y\"",
        "Please set ‘trust_remote_code=True’ for “x/y”",
    ]:
        m = t.match(message)
        assert m is not None and m.values == {"name": "x/y"}, message
    assert t.match("please set `trust_remote_code=True` for 'x/y'") is None


def test_multiline_message_and_values_spanning_lines() -> None:
    t = tpl("1 validation error for ", P("title"), "\n", P("loc"), "\n  Field required")
    m = t.match("1 validation error for ModelConfig\nmodel\n  Field required")
    assert m is not None and m.values == {"title": "ModelConfig", "loc": "model"}
    t = tpl("Error(s) in loading state_dict for ", P("name"), ":\n\t", P("errors"))
    m = t.match(
        "Error(s) in loading state_dict for OPT:\n\tsize mismatch for a\n\tsize mismatch for b"
    )
    assert m is not None and m.values["errors"] == "size mismatch for a\n\tsize mismatch for b"


def test_truncated_message_matches_a_prefix() -> None:
    cut = "Model meta-llama/Llama-3-8B is not supp"
    assert NOT_SUPPORTED.match(cut) is None
    m = NOT_SUPPORTED.match(cut, truncated=True)
    assert m is not None and m.values == {"model_id": "meta-llama/Llama-3-8B", "platform": ""}
    full = NOT_SUPPORTED.match("Model meta-llama/Llama-3-8B is not supported on cpu.")
    assert full is not None and m.score < full.score
    # Cut inside a value, and inside the first literal.
    m = NOT_SUPPORTED.match("Model meta-lla", truncated=True)
    assert m is not None and m.values["model_id"] == "meta-lla"
    assert NOT_SUPPORTED.match("Mod", truncated=True) is not None
    assert NOT_SUPPORTED.match("Modal x", truncated=True) is None
    # More text after the whole template is not a prefix of it: only a substring.
    t = tpl("abc ", P("x"), " def")
    after = t.match("abc 1 def ghi", truncated=True)
    prefix = t.match("abc 1 de", truncated=True)
    assert after is not None and prefix is not None and after.score < prefix.score


def test_wrapped_message_matches_as_substring_with_lower_score() -> None:
    message = "Error generating audio: Model x is not supported on cpu. Retrying later"
    m = NOT_SUPPORTED.match(message)
    assert m is not None and m.values == {"model_id": "x", "platform": "cpu"}
    direct = NOT_SUPPORTED.match("Model x is not supported on cpu.")
    assert direct is not None and m.score < direct.score
    assert m.covered < direct.covered


def test_mid_word_wrap_matches_without_blanks() -> None:
    m = NOT_SUPPORTED.match("Model x is not supp\norted on cpu.")
    assert m is not None and m.values == {"model_id": "x", "platform": "cpu"}
    clean = NOT_SUPPORTED.match("Model x is not supported on cpu.")
    assert clean is not None and m.score < clean.score


def test_word_boundaries_keep_lazy_placeholders_honest() -> None:
    t = tpl("Invalid ", P("a"), " in ", P("b"))
    m = t.match("Invalid einstein in berlin")
    assert m is not None and m.values == {"a": "einstein", "b": "berlin"}


def test_placeholders_at_the_edges_and_adjacent() -> None:
    m = tpl(P("name"), " not found").match("a not found b not found")
    assert m is not None and m.values == {"name": "a not found b"}
    m = tpl(P("a"), " ", P("b"), " failed").match("x y failed")
    assert m is not None and m.values == {"a": "x", "b": "y"}
    m = tpl(P("msg")).match("anything at all")
    assert m is not None and m.values == {"msg": "anything at all"} and m.covered == 0
    assert m.score < 0.1


def test_right_template_outranks_its_neighbours() -> None:
    message = "The decoder prompt (length 9000) is longer than the maximum model length of 8192."
    candidates = {
        "right": tpl(
            "The decoder prompt (length ",
            P("prompt_len"),
            ") is longer than the maximum model length of ",
            P("max_model_len"),
            ".",
        ),
        "generic": tpl(P("prefix"), " is longer than the maximum model length of ", P("n"), "."),
        "other": tpl("The encoder prompt (length ", P("n"), ") is longer than ", P("m"), "."),
        "catch-all": tpl(P("e")),
    }
    scores = {k: (m.score if (m := t.match(message)) else 0.0) for k, t in candidates.items()}
    assert max(scores, key=lambda k: scores[k]) == "right"
    assert scores["other"] == 0.0
    assert scores["right"] > scores["generic"] > scores["catch-all"]


def test_compile_template_is_cached() -> None:
    t = MessageTemplate.of("a ", P("x"))
    assert compile_template(t) is compile_template(MessageTemplate.of("a ", P("x")))


def test_literal_runs_drop_values() -> None:
    runs = literal_runs(
        "Model 'meta-llama/Llama-3-8B' is not supported on cpu: got 1234 tokens from "
        "/tmp/cache/x.py (request 3f2a9c1e-1111-2222-3333-444455556666, 0x7f3a2b, 1.5e-3)"
    )
    assert runs == ["Model", "is not supported on cpu", "got", "tokens from", "request"]
    assert literal_runs("Model Runner V2 does not yet support: dual batch overlap with LoRA") == [
        "Model Runner V2 does not yet support",
        "dual batch overlap with LoRA",
    ]
    assert literal_runs("Object of type <class 'Foo'> is not `JSON` serializable") == [
        "Object of type",
        "is not",
        "serializable",
    ]
    assert literal_runs("12345 0xdeadbeef /a/b") == []


def test_literal_runs_are_the_callers_own() -> None:
    # The runs of a message are worked out once per lookup; each caller gets its own list.
    runs = literal_runs("Model Runner V2 does not yet support: dual batch overlap")
    runs.append("changed")
    assert literal_runs("Model Runner V2 does not yet support: dual batch overlap") == [
        "Model Runner V2 does not yet support",
        "dual batch overlap",
    ]


def test_a_placeholder_that_held_nothing_is_not_exact() -> None:
    # `Unknown model` pasted: the template that is exactly it beats the longer one whose
    # placeholder would have to hold nothing.
    exact = tpl("Unknown model").match("Unknown model")
    longer = tpl("Unknown model", P("name")).match("Unknown model")
    assert exact is not None and exact.score == 1.0
    assert longer is not None and longer.score < 0.9


INVALID_URL = tpl(
    "Invalid URL ", P("url", conversion="r"), ": No scheme supplied. Perhaps you meant https://",
    P("url"), "?",
)  # fmt: skip


def test_a_piece_from_inside_a_template() -> None:
    inside = INVALID_URL.fragment("No scheme supplied")
    assert inside is not None and inside.fragment and inside.values == {}
    across = INVALID_URL.fragment("No scheme supplied. Perhaps you meant https://local?")
    assert across is not None and across.values == {"url": "local"}
    # Cut short again at its end, mid-word.
    assert INVALID_URL.fragment("scheme supplied. Perhaps you me") is not None
    # A piece ranks below the whole message.
    whole = INVALID_URL.match(
        "Invalid URL 'local': No scheme supplied. Perhaps you meant https://local?"
    )
    assert whole is not None and whole.score > across.score > inside.score


def test_a_piece_starting_inside_a_value_or_a_word() -> None:
    # Copied from the middle of a printed message: the first word is a value's end or a
    # word's end; the rest is the template's text.
    after_value = INVALID_URL.fragment("'local': No scheme supplied. Perhaps you meant")
    assert after_value is not None and after_value.fragment
    mid_word = INVALID_URL.fragment("heme supplied. Perhaps you meant")
    assert mid_word is not None
    whole_words = INVALID_URL.fragment("No scheme supplied. Perhaps you meant")
    assert whole_words is not None and whole_words.score > mid_word.score
    # Two words left unread at most.
    assert INVALID_URL.fragment("a b c supplied. Perhaps you meant") is None


def test_what_is_not_a_piece() -> None:
    assert INVALID_URL.fragment("scheme supplied") is None  # two words tell too little
    assert INVALID_URL.fragment("No scheme supplied at all today") is None
    assert INVALID_URL.fragment("cheme supplied. Perhaps") is None  # starts mid-word
    # The template's start is a prefix, read by `match(..., truncated=True)`, not a piece.
    assert INVALID_URL.fragment("Invalid URL 'x': No scheme") is None


def test_a_value_its_format_cannot_print_reads_less_likely() -> None:
    # babel's two `incompatible format for placeholder ...`: by position (`{idx + 1:d}`)
    # and by name (`{name!r}`); a quoted name is no integer.
    by_position = tpl("incompatible format for placeholder ", P("idx + 1", spec="d"), ": bad")
    by_name = tpl("incompatible format for placeholder ", P("name", "r"), ": bad")
    quoted = "incompatible format for placeholder 'foo': bad"
    position, name = by_position.match(quoted), by_name.match(quoted)
    assert position is not None and name is not None and position.score < name.score
    numbered = "incompatible format for placeholder 12: bad"
    position, name = by_position.match(numbered), by_name.match(numbered)
    assert position is not None and name is not None and position.score == name.score


def test_the_shapes_of_printf_and_float_formats() -> None:
    ratio = tpl("ratio ", P("r", spec=".2f"), " of ", P("n", spec=",d"), " at ", P("a", spec="x"))
    fits = ratio.match("ratio 0.25 of 1,024 at 7f3a")
    misfits = ratio.match("ratio high of 1,024 at 7f3a")
    assert fits is not None and misfits is not None and misfits.score < fits.score
    assert fits.values == {"r": "0.25", "n": "1,024", "a": "7f3a"}


def test_a_reading_that_leaves_a_placeholder_empty_scores_below_one_that_fills_each() -> None:
    # marshmallow's DateTime and NaiveDateTime: one word cannot fill two blank-separated
    # values; the template with one value explains the message better.
    two = MessageTemplate.of(
        "Not a valid ", Placeholder("awareness"), " ", Placeholder("kind"), "."
    )
    one = MessageTemplate.of("Not a valid ", Placeholder("kind"), ".")
    short = "Not a valid datetime."
    read_two, read_one = compile_template(two).match(short), compile_template(one).match(short)
    assert read_two is not None and read_one is not None
    assert read_two.score < read_one.score
    # Two words fill both, and no value is left empty.
    both = compile_template(two).match("Not a valid naive datetime.")
    assert both is not None and both.values == {"awareness": "naive", "kind": "datetime"}
