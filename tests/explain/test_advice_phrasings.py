"""A message that states a precondition or a requirement gives the instruction it implies."""

from __future__ import annotations

from errdex.explain.advice import message_advice


def test_only_after_is_the_step_to_take_first() -> None:
    # httpx Response.elapsed (_models.py)
    (advice,) = message_advice(
        "'.elapsed' may only be accessed after the response has been read or closed."
    )
    assert advice.kind == "input"
    assert advice.solution == (
        "First make sure the response has been read or closed, then access '.elapsed', as the "
        "message says: “'.elapsed' may only be accessed after the response has been read or "
        "closed.”"
    )


def test_only_when_is_a_value_to_give_only_with_another() -> None:
    (advice,) = message_advice("Stream options can only be defined when `stream=True`.")
    assert advice.solution.startswith(
        "Define stream options only when `stream=True` (or leave it out), as the message says"
    )


def test_only_on_or_against_is_where_the_thing_goes() -> None:
    (advice,) = message_advice(
        "version_id_col should only be specified on the base-most mapper that includes versioning."
    )
    assert advice.kind == "input"
    assert advice.solution.startswith(
        "Specify version_id_col only on the base-most mapper that includes versioning (or "
        "leave it out), as the message says"
    )
    (advice,) = message_advice("get() can only be used against a single mapped class.")
    assert advice.solution.startswith("Use get() only against a single mapped class, as the")
    # a private name, "this", or a bare class name the program composes: the authors' note
    assert message_advice("The _SentinelDefault may only be applied to a nullable Column") == []
    assert message_advice("This should only be used for performance testing.") == []
    assert message_advice("MambaManager can only be used for mamba groups") == []


def test_a_note_on_calling_code_is_no_instruction_to_a_user() -> None:
    assert message_advice("load_all_ranges should only be called when runnables is set.") == []
    assert message_advice("VllmBackend can only be called once") == []


def test_a_token_expected_after_another_is_to_be_put_there() -> None:
    # rich Style.parse (style.py)
    (advice,) = message_advice("color expected after 'on'")
    assert (
        advice.solution == "Put color after 'on', as the message says: “color expected after 'on'”"
    )
    # a count that came out other than expected is no token to put anywhere
    assert message_advice("There were {n} more tokens than expected after decoding.") == []


def test_a_required_build_or_package_is_to_be_installed() -> None:
    (advice,) = message_advice("Rubin FP8 requires a CuTe DSL build with rubin_helpers")
    assert advice.kind == "environment"
    assert advice.solution.startswith(
        "Install what it requires (a CuTe DSL build with rubin_helpers), as the message says"
    )
    (advice,) = message_advice(
        "The profiler requires a Triton installation with triton.prof support."
    )
    assert "(a Triton installation with triton.prof support)" in advice.solution
    # a feature another setting requires is a configuration check, no install
    assert message_advice("AuxOutput Connector requires Model Runner V2.") == []


def test_the_one_flag_a_case_takes_is_to_be_passed() -> None:
    # vllm's sparse attention benchmark (third_party/fmha_sm100/cute/test_sparse_atten.py)
    (advice,) = message_advice("fp8 benchmark currently supports only --backend cute")
    assert advice.kind == "setting"
    assert advice.solution.startswith("Pass `--backend cute`, as the message says")
    (advice,) = message_advice("Piecewise capture requires --enforce-eager.")
    assert advice.solution.startswith("Pass `--enforce-eager`, as the message says")
    # two flags, or a choice of them: no one flag to pass
    assert message_advice("only supports --backend a or --backend b") == []
    assert message_advice("requires --tp 2 and --pp 2") == []
    # a constraint on the flag's value is no flag to pass as it is
    assert message_advice("KV compression requires --interleave-size to be a multiple of it;") == []
    (advice,) = message_advice("detailed traces require `--otlp-endpoint` to be set.")
    assert advice.solution.startswith("Pass `--otlp-endpoint`, as the message says")
    (advice,) = message_advice("Full capture requires --enforce-eager to be set.")
    assert advice.solution.startswith("Pass `--enforce-eager`, as the message says")


def test_only_works_with_is_what_the_thing_goes_with_and_keeps_its_example() -> None:
    # sqlalchemy JSON.Comparator.as_float (sql/sqltypes.py): the example after "e.g." is
    # part of the sentence, not one of its own
    (advice,) = message_advice(
        "The JSON cast operator JSON.as_float() only works with a JSON index expression "
        "e.g. col['q'].as_float()"
    )
    assert advice.kind == "input"
    assert advice.solution.startswith(
        "Use the JSON cast operator JSON.as_float() only with a JSON index expression e.g. "
        "col['q'].as_float(), as the message says"
    )
    # "this", a bare name the program composes (`MLA`): the authors' note, as above
    assert message_advice("this method only works for ORMSelectCompileState") == []
    assert message_advice("MLA only works with naive serde mode.") == []


def test_a_sentence_goes_on_after_e_g_and_i_e() -> None:
    (advice,) = message_advice("Use a block-contiguous layout (e.g. LBHNC) on the prefill side.")
    assert advice.text == "Use a block-contiguous layout (e.g. LBHNC) on the prefill side."
    (advice,) = message_advice("Pass the model first, i.e. `serve <model>`. It is required.")
    assert advice.text == "Pass the model first, i.e. `serve <model>`."
