"""A message that states a precondition or a requirement gives the instruction it implies."""

from __future__ import annotations

from errdex.explain.advice import message_advice
from errdex.explain.advice_phrasings import implied_instruction


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


def test_only_works_with_and_an_example_is_the_form_to_use() -> None:
    # the example after "e.g." is the sentence's own, not a sentence of its own
    (advice,) = message_advice(
        "The cast operator Doc.as_float() only works with an index expression "
        "e.g. col['q'].as_float()"
    )
    assert advice.kind == "input"
    assert advice.solution.startswith(
        "Use the cast operator Doc.as_float() only with an index expression, e.g. "
        "`col['q'].as_float()`, as the message says"
    )
    # with no example, the sentence states what the thing is for: no form to take from it
    assert message_advice("this method only works for ORMSelectCompileState") == []


def test_an_order_to_a_party_outside_the_program_is_advice() -> None:
    (advice,) = message_advice(
        "The notify did not pin the rank; defaulting to rank 0. The router must set "
        "remote_rank so both legs agree."
    )
    assert advice.text == "The router must set remote_rank so both legs agree."
    (advice,) = message_advice(
        "Items are not in the cache; the request should be retried with the data attached."
    )
    assert advice.text == "the request should be retried with the data attached."
    # a part of the program told what to do speaks to its authors
    assert message_advice("The sink must use the same head layout as the query.") == []


def test_an_example_in_parentheses_stays_in_its_sentence() -> None:
    # neither "e.g." nor a ", set" inside the parentheses ends the instruction
    (advice,) = message_advice(
        "Splitting requires contiguous heads. Use a layout (e.g. LBHNC) here."
    )
    assert advice.text == "Use a layout (e.g. LBHNC) here."
    (advice,) = message_advice(
        "Type {t} cannot be made; please provide an explicit 'cls' parameter "
        "(e.g. list, set, etc.) to the build() function"
    )
    assert advice.text == (
        "please provide an explicit 'cls' parameter (e.g. list, set, etc.) to the build() function"
    )


def test_a_requirement_set_using_a_form_is_that_form_to_write() -> None:
    # pydantic's defaultdict schema (_std_types_schema.py): the form the user declares
    (advice,) = message_advice(
        "Only int, str are supported, other types require an explicit default factory set "
        "using `DefaultDict[..., Annotated[..., Field(default_factory=...)]]`"
    )
    assert advice.kind == "input"
    assert advice.solution.startswith(
        "Set an explicit default factory using `DefaultDict[..., Annotated[..., "
        "Field(default_factory=...)]]`, as the message says"
    )
    # no form in code to write, or no verb of giving: a configuration check, nothing implied
    assert message_advice("Sliding windows require a kernel set using the flash backend") == []
    assert message_advice("This model requires a cache made using `CacheConfig`") == []


def test_a_change_refused_after_a_step_is_made_before_it() -> None:
    # httpx Response.encoding's setter (_models.py)
    (advice,) = message_advice("Setting encoding after `text` has been accessed is not allowed.")
    assert advice.solution.startswith("Set encoding before `text` is accessed, as the message says")
    assert message_advice("Setting encoding after text is read is slow.") == []


def test_a_class_required_in_place_of_another_is_the_one_to_use() -> None:
    # httpx FileField (_multipart.py)
    (advice,) = message_advice("Multipart file uploads require 'io.BytesIO', not 'io.StringIO'.")
    assert advice.solution.startswith("Use 'io.BytesIO', not 'io.StringIO', as the message says")
    # values, not classes: a kernel's own dtype
    assert message_advice("The kernel requires 'float16', not 'bfloat16'.") == []


def test_an_environment_value_a_case_requires_is_to_be_set() -> None:
    # vllm config/vllm.py, v1/engine/input_processor.py, models/qwen3_dflash.py
    (advice,) = message_advice("RecoverSSM with prefix caching requires VLLM_USE_V2_MODEL_RUNNER=1")
    assert advice.kind == "setting"
    assert advice.solution.startswith("Set `VLLM_USE_V2_MODEL_RUNNER=1`, as the message says")
    assert advice.change is not None
    assert (advice.change.form, advice.change.target) == ("env", "VLLM_USE_V2_MODEL_RUNNER")
    assert advice.change.after == "1"
    (advice,) = message_advice(
        "prompt_logprob_token_ids requires the V2 model runner (VLLM_USE_V2_MODEL_RUNNER=1)."
    )
    assert advice.solution.startswith("Set `VLLM_USE_V2_MODEL_RUNNER=1`, as")
    (advice,) = message_advice(
        "DFlash drafters require the V2 model runner; relaunch with VLLM_USE_V2_MODEL_RUNNER=1."
    )
    assert advice.solution.startswith("Set `VLLM_USE_V2_MODEL_RUNNER=1`, as")
    (advice,) = message_advice("Mori does not support it. Turn it off by setting X_SHARED=0")
    assert advice.solution.startswith("Set `X_SHARED=0`, as")


def test_the_value_required_is_set_not_the_one_that_names_the_case() -> None:
    (advice,) = message_advice("X_MEGA_AOT=1 requires X_STANDALONE=1")
    assert advice.solution.startswith("Set `X_STANDALONE=1`, as")
    assert advice.change is not None and advice.change.target == "X_STANDALONE"
    # two to set: said, but no one change to draw a fix from
    (advice,) = message_advice("--moe-backend mega requires X_AITER=1  and X_AITER_MOE=1.")
    assert advice.solution.startswith("Set `X_AITER=1` and `X_AITER_MOE=1`, as")
    assert advice.change is None
    # the variable as the case, or a default the program picks: no value to set
    assert message_advice("X_BACKEND=w4a8 requires the int4_gemm_w4a8 op") == []
    assert message_advice("It is selected automatically unless X_RUNNER=0 is set.") == []


def test_how_a_thing_must_be_applied_or_passed_is_the_instruction() -> None:
    # pydantic 2.7.1 _decorators.py, deprecated/class_validators.py, main.py
    (advice,) = message_advice("`@model_serializer` must be applied to instance methods")
    assert advice.kind == "input"
    assert advice.solution.startswith("Apply `@model_serializer` to instance methods, as the")
    (advice,) = message_advice(
        "`@validator` fields should be passed as separate string args. E.g. usage should be "
        "`@validator('<field_name_1>', '<field_name_2>', ...)`"
    )
    assert advice.solution.startswith("Pass `@validator` fields as separate string args, as")
    (advice,) = message_advice("Type parameters should be placed on typing.Generic, not BaseModel")
    assert advice.solution.startswith("Place type parameters on typing.Generic, not BaseModel,")
    # what the program's own code must do: "this", a placeholder, a private name, a class's
    # own part (verbs and places the sentence is read with, so the guard is what leaves it out)
    assert message_advice("This function must be used inside another function") == []
    assert message_advice("{{i}} should be passed outside of the NeMo dictionary") == []
    assert message_advice("Values should be passed to {{i}} as a dict") == []
    assert message_advice("_fc2_input_scale must be passed to process_weights_after_loading") == []
    assert message_advice("The _fc2_input_scale must be passed to process_weights") == []
    assert message_advice("LMHead's weights should be used with the sampler.") == []


def test_a_name_that_cannot_be_imported_is_checked_against_the_module() -> None:
    # pydantic 2.7.1 _validators.py (ImportString)
    (advice,) = message_advice("cannot import name {attribute!r} from {module_path!r}")
    assert advice.kind == "environment"
    assert advice.solution.startswith(
        "Check that {module_path!r} has {attribute!r}: correct the name, or install a version "
        "of {module_path!r} that defines it, as the message says"
    )


def test_the_gpu_architectures_a_message_requires_are_where_to_run() -> None:
    # vllm 0.33.0 models/step5/nvidia/model.py
    (advice,) = message_advice("Step5 DSA requires SM90, SM100 or SM103; got {capability}.")
    assert advice.kind == "environment"
    assert advice.solution.startswith(
        "Run it on a GPU of the architecture it requires (SM90, SM100 or SM103), as the"
    )
    # tensors on a device, or a build: no GPU to run on
    assert message_advice("DCP sparse-indexer merge requires CUDA tensors.") == []


def test_a_module_that_does_not_define_the_name_is_checked_for_it() -> None:
    # pydantic.v1.utils.import_string
    (advice,) = message_advice('Module "{module_path}" does not define a "{class_name}" attribute')
    assert advice.solution.startswith(
        "Check that `{module_path}` has `{class_name}`: correct the name, or install a version "
        "of `{module_path}` that defines it, as the message says"
    )


def test_several_refused_is_one_to_give() -> None:
    # pydantic.v1.fields.ModelField._get_field_info
    (advice,) = message_advice("cannot specify multiple `Annotated` `Field`s for {field_name!r}")
    assert advice.kind == "input"
    assert advice.solution.startswith(
        "Specify only one of the `Annotated` `Field`s for {field_name!r}, as the message says"
    )
    # an -es plural keeps its letters: no singular cut from it ("processe")
    assert implied_instruction("cannot use multiple processes in a notebook") == (
        "Use only one of the processes in a notebook",
        "input",
    )


def test_the_form_a_declaration_should_have_is_given_it() -> None:
    # pydantic.v1.class_validators: the signature of the user's own validator
    (advice,) = message_advice(
        'Invalid signature for root validator {name}: {sig}, "self" not permitted as first '
        "argument, should be: (cls, values)."
    )
    assert advice.kind == "input"
    assert advice.solution.startswith(
        "Give the root validator {name} the signature `(cls, values)`, as the message says"
    )
    (advice,) = message_advice(
        "Invalid signature for validator {validator}: {sig}, should be: (cls, value, values, "
        'config, field), "values", "config" and "field" are all optional.'
    )
    assert advice.solution.startswith(
        "Give the validator {validator} the signature `(cls, value, values, config, field)` "
        '("values", "config" and "field" are all optional), as the message says'
    )


def test_a_single_word_after_should_be_is_no_form_to_give() -> None:
    # a type or a quality, not a signature: the message says it as it is
    assert implied_instruction("Invalid type for argument x: {t}, should be `int`") is None
    assert implied_instruction("Invalid value for argument x: {v}, should be positive") is None


def test_a_name_keeps_its_capital_after_the_verb() -> None:
    # what a thing does not support: a name stays as written, a determiner is lowered
    assert implied_instruction("Python 3.8 does not support this feature flag") == (
        "Use Python 3.8 without this feature flag",
        "input",
    )
    # a word with a digit in it is a name, whatever follows it
    assert implied_instruction("Gemma3 does not support image_embeds") == (
        "Use Gemma3 without image_embeds",
        "input",
    )
    # a plain word alone is a word ("Decorator can only be applied to classes")
    assert implied_instruction("Decorator does not support functions") == (
        "Use decorator without functions",
        "input",
    )
    assert implied_instruction("The MLA backend does not support FP8 KV cache") == (
        "Use the MLA backend without FP8 KV cache",
        "input",
    )
    (advice,) = message_advice("Stream options can only be defined when `stream=True`.")
    assert advice.solution.startswith("Define stream options only when `stream=True`")


def test_a_module_lacking_an_attribute_or_class_is_checked_for_it() -> None:
    # "attribute/class" (Django-style `import_string`)
    said = implied_instruction('Module "m" does not define a "C" attribute/class')
    assert said is not None and said[0].startswith("Check that `m` has `C`")


def test_a_named_field_required_but_none_found_is_the_field_to_provide() -> None:
    (advice,) = message_advice(
        "This encoder requires a 'mode' field in its config (one of 'a', 'b'), but none was "
        "found. No default is assumed here."
    )
    assert advice.kind == "input"
    assert advice.solution.startswith(
        "Provide a 'mode' field in its config (one of 'a', 'b'), as the message says: “This "
        "encoder requires"
    )
    # a part of the program the message names unquoted is no field the user gives
    assert implied_instruction("Resolving x requires a processor but none is available.") is None


def test_a_name_moved_or_renamed_is_the_name_to_use() -> None:
    (advice,) = message_advice("`{module}:{name}` has been moved to `{new_location}`.")
    assert advice.solution.startswith("Import `{new_location}` in place of `{module}:{name}`")
    (advice,) = message_advice("'old_mode' is deprecated and has been renamed to 'new_mode'.")
    assert advice.solution.startswith("Use 'new_mode' in place of 'old_mode'")
    (advice,) = message_advice(
        "`{path}` has been removed. We are importing from `{new_location}` instead."
    )
    assert advice.solution.startswith("Import `{new_location}` yourself")
    # what the program did with its own data, no name the user wrote
    assert implied_instruction("The request has been moved to the waiting queue.") is None
