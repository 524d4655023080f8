"""What the message itself tells the user to do, and the user's own values put into it."""

from __future__ import annotations

from pathlib import Path

import pytest

from errdex.explain import build_page
from errdex.explain.advice import Advice, fill_values, message_advice, sentences
from errdex.indexing import index_source
from errdex.sources import open_source
from errdex.store import open_store
from samples import write_package


def test_a_suggested_input_is_a_change_of_the_input() -> None:
    (advice,) = message_advice(
        "Invalid URL {url!r}: No scheme supplied. Perhaps you meant http://{url}?"
    )
    assert (advice.kind, advice.suggested) == ("input", "http://{url}")
    assert advice.solution == (
        "Pass `http://{url}` instead of `{url}`, as the message suggests: "
        "“Perhaps you meant http://{url}?”"
    )


def test_did_you_mean_with_one_value() -> None:
    (advice,) = message_advice("Unknown encoding {name!r}. Did you mean 'utf-8'?")
    assert advice.suggested == "utf-8"
    # a question that is no single value suggests no value
    (advice,) = message_advice("Did you mean to call the function with the right arguments?")
    assert advice.suggested is None


def test_did_you_mean_to_do_something_proposes_an_action_not_a_value() -> None:
    # click's Option._parse_decls (core.py): two questions, each an action with its verb
    declare, dashes = message_advice(
        "No options defined but a name was passed ({name}). Did you mean to declare an "
        "argument instead? Did you mean to pass '--{name}'?"
    )
    assert (declare.suggested, declare.proposed) == (None, "Declare an argument instead")
    assert (dashes.suggested, dashes.proposed) == (None, "Pass '--{name}'")
    assert dashes.solution == (
        "Pass '--{name}', as the message proposes: “Did you mean to pass '--{name}'?”"
    )
    # SQLAlchemy's "perhaps you meant to": the verb and what follows, without the question
    (convert,) = message_advice(
        "Can't find any foreign key relationships between '{a}' and '{b}'. Perhaps you meant "
        "to convert the right side to a subquery using alias()?"
    )
    assert convert.proposed == "Convert the right side to a subquery using alias()"
    # a value after "did you mean" is still the value suggested
    (value,) = message_advice("Unknown encoding {name!r}. Did you mean 'utf-8'?")
    assert (value.suggested, value.proposed) == ("utf-8", None)


def test_a_stated_requirement_is_a_change_of_the_environment() -> None:
    # vllm's check of a quantization method against the GPU (vllm/config/vllm.py)
    (advice,) = message_advice(
        "The quantization method {model_config.quantization} is not supported for the "
        "current GPU. Minimum capability: {quant_config.get_min_capability()}. "
        "Current capability: {capability}."
    )
    assert (advice.kind, advice.requires) == (
        "environment",
        ("capability", "{quant_config.get_min_capability()}"),
    )
    assert advice.solution == (
        "Run it where the capability is at least `{quant_config.get_min_capability()}`, as "
        "the message says: “Minimum capability: {quant_config.get_min_capability()}.”"
    )


def test_what_the_message_says_is_missing_is_what_to_give() -> None:
    # pydantic's check of a Discriminator's choices (pydantic/types.py)
    (advice,) = message_advice("`Tag` not provided for choice {choice} used with `Discriminator`")
    assert (advice.kind, advice.solution) == (
        "input",
        "Provide `Tag` for choice {choice} used with `Discriminator`, as the message says: "
        "“`Tag` not provided for choice {choice} used with `Discriminator`”",
    )
    (advice,) = message_advice("page_size must be provided when paged_kv=True")
    assert advice.missing == ("Provide", "page_size when paged_kv=True")
    (advice,) = message_advice(
        "The 'tasks' parameter was not provided to build_app and will be required later."
    )
    assert advice.missing == ("Provide", "the 'tasks' parameter to build_app")
    (advice,) = message_advice("Either x or y must be specified.")
    assert advice.missing == ("Specify", "either x or y")
    # what follows says how it is missing, or who lacks it: no instruction
    assert message_advice("The value is not set correctly because of x") == []
    assert message_advice("Model is not provided by this plugin") == []


def test_an_install_command_and_an_instruction_keep_their_forms() -> None:
    advice = message_advice("h2 is missing. Make sure to install it using `pip install x[h2]`.")
    assert [a.kind for a in advice] == ["environment"]
    assert advice[0].solution.startswith("Run `pip install x[h2]`, as the message says")
    assert Advice("Set X=1", "setting").solution == "Do what the message says: “Set X=1”"


def test_the_users_values_fill_the_pages_solutions(tmp_path: Path) -> None:
    write_package(
        tmp_path / "src",
        {
            "web/__init__.py": "",
            "web/models.py": """
                def prepare_url(url):
                    scheme = url.partition("://")[0] if "://" in url else None
                    if not scheme:
                        raise ValueError(
                            f"Invalid URL {url!r}: No scheme supplied. "
                            f"Perhaps you meant http://{url}?"
                        )
                """,
        },
    )
    with open_store(tmp_path / "errdex.db") as store:
        index_source(open_source(str(tmp_path / "src"), project="web", version="1"), store)
        (site,) = store.list_sites("web")
        page = build_page(store, site.id)
    assert [s.kind for s in page.solutions][:1] == ["input"]
    filled = fill_values(page, {"url": "example.org/a"})
    assert filled.solutions[0].text == (
        "Pass `http://example.org/a` instead of `example.org/a`, as the message suggests: "
        "“Perhaps you meant http://example.org/a?”"
    )
    # a placeholder the message gave no value for stays as it is
    assert fill_values(page, {"other": "x"}).solutions == page.solutions


def test_verbs_that_are_also_names_of_the_code_instruct_before_a_word() -> None:
    # SQLAlchemy's declarative base (decl_base.py) and mapper (mapper.py)
    (advice,) = message_advice(
        "Cannot use 'Base' directly as a declarative base class. Create a Base by creating "
        "a subclass of it."
    )
    assert advice.solution == (
        "Do what the message says: “Create a Base by creating a subclass of it.”"
    )
    (advice,) = message_advice(
        "Configure a primary mapper first before setting up a non primary Mapper."
    )
    assert advice.kind == "input"
    (advice,) = message_advice("Try converting the model using `--convert embed`.")
    assert advice.kind == "setting"
    # the same words as the name of a call or a step that failed: no instruction
    assert (
        message_advice("configure() can not affect sessions that have already been created.") == []
    )
    assert message_advice("check failed for x") == []
    assert message_advice("apply step failed") == []


def test_an_instruction_after_the_case_it_is_for_is_advice() -> None:
    (advice,) = message_advice(
        "If you use `@root_validator` with pre=False (the default) you MUST specify "
        "`skip_on_failure=True`. Note that `@root_validator` is deprecated."
    )
    assert advice.kind == "input"
    assert advice.text.endswith("you MUST specify `skip_on_failure=True`.")
    # a case with nothing the user is told to do is no advice
    assert message_advice("If you use a pool, you will see this once.") == []


def test_a_quoted_requirement_is_a_word_of_the_install_command() -> None:
    # a requirement in quotes ends neither the command nor the quote that holds it
    (run,) = message_advice("Found {current}. Run `pip install -U 'ray>={required}'`.")
    assert run.command == "pip install -U 'ray>={required}'"
    (given,) = message_advice("It requires the `gguf` package (pip install 'gguf>=0.19.0').")
    assert given.command == "pip install 'gguf>=0.19.0'"
    assert given.change is not None
    assert given.change.target == "pip install 'gguf>=0.19.0'"


def test_the_words_that_introduce_a_command_are_left_to_it() -> None:
    (run,) = message_advice(
        "The parser requires the `melody` package. Install it with:\n    pip install 'melody>=0.14'"
    )
    assert run.command == "pip install 'melody>=0.14'"


@pytest.mark.parametrize(
    "message",
    [
        "Can't reconnect until the transaction is rolled back.  Please rollback() fully first",
        "Inspection is not supported. Please obtain a connection then use run_sync.",
        "The plugin does not work with stubs installed.  Please uninstall all stubs packages.",
        "Passing raw prompts is deprecated. You should instead pass the rendered outputs.",
        # a sentence glued to the one before it
        "x is enabled, but y is None.Please either set y to [] or set z to True.",
    ],
)
def test_a_sentence_that_asks_the_user_please_is_advice(message: str) -> None:
    (advice,) = message_advice(message)
    assert advice.text.lower().startswith(("please", "you should"))


@pytest.mark.parametrize(
    "message",
    [
        "Kernel was not initialized. Please open an issue on GitHub.",
        "this is a bug! please report it",
        "No config file specified! Please check your command-line arguments.",
        "Please refer to the documentation for additional information.",
        "Unknown format. Please consider contributing support for it.",
        "Please implement this function in sub classes",
        "Clues follow (please search for the usage of the function `update`): src",
    ],
)
def test_please_report_look_or_implement_is_no_way_out(message: str) -> None:
    assert message_advice(message) == []


@pytest.mark.parametrize(
    ("message", "said"),
    [
        (
            "Named tool choice requires strict tool calling. Otherwise use `tool_choice` 'auto'.",
            "Otherwise use `tool_choice` 'auto'.",
        ),
        (
            "Capture is skipped. To turn on graph capture, ensure `mode` was not set to `NONE`",
            "To turn on graph capture, ensure `mode` was not set to `NONE`",
        ),
        (
            "Headers are missing. optionally set NCCL_INCLUDE_PATH to the headers' directory.",
            "optionally set NCCL_INCLUDE_PATH to the headers' directory.",
        ),
        (
            "json_object must be True if set; omit outputs to disable them",
            "omit outputs to disable them",
        ),
        # the goal this error itself, with no comma
        (
            "Communicator is not available. To suppress this warning set X_USE_MEM=0",
            "To suppress this warning set X_USE_MEM=0",
        ),
        # what the check lost, to restore; a keyword's value to apply
        (
            "Can't sort tables; a cycle exists.  To restore at least a partial sort, apply "
            "use_alter=True to the keys involved in the cycle.",
            "To restore at least a partial sort, apply use_alter=True to the keys involved in "
            "the cycle.",
        ),
    ],
)
def test_an_instruction_after_its_goal_or_otherwise_is_advice(message: str, said: str) -> None:
    assert [a.text for a in message_advice(message)] == [said]


@pytest.mark.parametrize(
    ("message", "said"),
    [
        # a goal of any verb, then the instruction (its capital kept as written)
        (
            "Value was None; this will raise later. To skip the value entirely, Set the "
            '"skip_missing=True" parameter on the factory.',
            'To skip the value entirely, Set the "skip_missing=True" parameter on the factory.',
        ),
        # "consider"/"try" with any gerund, after a statement or a comma
        ("Timing is unstable; capture axes multiply, consider pruning axis keys.", None),
        ("The pattern needs context. Try rewriting the pattern without anchors.", None),
        ("Loading is slow here. Consider manually setting mode to FULL.", None),
        # ... or with the thing to take instead
        ("Scales differ across layers. Consider a checkpoint with one scale per layer.", None),
        ("Can't use eager loaders here.  Consider the lazy() strategy for this.", None),
        ("No backend returns LSE. Try a different backend by setting --backend.", None),
        # after the case it is for, which it keeps
        (
            "Loading failed. If the model is a custom model that is not yet available in the "
            "upstream modelling library, consider setting `trust_code=True`.",
            "If the model is a custom model that is not yet available in the upstream modelling "
            "library, consider setting `trust_code=True`.",
        ),
        (
            "Needs capability 9.0. For older GPUs, consider using a non-FP8 config.",
            "For older GPUs, consider using a non-FP8 config.",
        ),
    ],
)
def test_consider_or_try_and_a_goal_of_any_verb_are_advice(message: str, said: str | None) -> None:
    expected = said if said is not None else message.split(". ", 1)[-1].split(", ")[-1].strip()
    assert [a.text for a in message_advice(message)] == [expected]


@pytest.mark.parametrize(
    "message",
    [
        "The format is unknown. Please consider opening an issue so we can add it.",
        "The result differs. Consider reporting it upstream.",
        "The tool call failed; consider checking the logs.",
        # a goal beside the check's own, not its way out: the warning stays
        "Pinned memory is capped. To raise the memory ceiling, increase the `memory` setting.",
        # another goal with no comma is no goal this error's way out
        "Pinned memory is capped. To raise the ceiling increase the `memory` setting.",
        # "apply" as a name of the code
        "Sorting failed. To restore the order, apply failed on the keys.",
    ],
)
def test_telling_the_authors_looking_or_another_goal_is_no_way_out(message: str) -> None:
    assert message_advice(message) == []


def test_a_goal_with_no_words_before_a_colon_is_not_read() -> None:
    # the clause after "add:" is cut at the JSON's own ": " (the splitter's): not an instruction
    assert message_advice("FP8 prefill is off. To enable, add: --cfg '{\"q\": true}'") == []


def test_a_value_only_applicable_in_one_case_is_set_only_then() -> None:
    (advice,) = message_advice("torch_dir is only applicable when profiler is set to 'torch'")
    assert advice.solution.startswith(
        "Set torch_dir only when profiler is set to 'torch' (or leave it out), as the message says"
    )
    # an expression of the code is no name to set
    assert message_advice("{', '.join(opts)} only applicable when profiler is set to 'x'") == []


def test_you_must_create_a_new_object_is_advice() -> None:
    # pydantic's GenerateJsonSchema, used once (json_schema.py)
    (advice,) = message_advice(
        "This generator has already been used. You must create a new instance of {name} to "
        "generate a new schema."
    )
    assert advice.text.startswith("You must create a new instance of {name}")
    # a sentence about what the program creates is none
    assert message_advice("The engine will create a new pool for each worker.") == []


def test_you_might_need_to_after_a_comma_and_migrate_to_are_advice() -> None:
    # pydantic.v1 ModelField.validate, and its deprecated `@validator`
    (advice,) = message_advice(
        "field not yet prepared so type is still a ForwardRef, you might need to call "
        "{cls.__name__}.update_forward_refs()."
    )
    assert advice.text == "you might need to call {cls.__name__}.update_forward_refs()."
    (advice,) = message_advice(
        "V1 style `@validator` validators are deprecated. You should migrate to V2 style "
        "`@field_validator` validators."
    )
    assert advice.text.startswith("You should migrate to V2 style `@field_validator`")
    # what the program might need is no instruction to the user
    assert message_advice("The cache is cold, it might need to be warmed.") == []


def test_an_instruction_after_a_comma_and_its_case_is_advice() -> None:
    # SQLAlchemy 2.0.30 orm/writeonly.py, vllm 0.33.0's fmha_sm100 build helper
    (advice,) = message_advice(
        "Attribute {attr} can't load the existing state from the database for this operation; "
        "full iteration is not permitted.  If this is a delete operation, configure "
        "passive_deletes=True on the {attr} relationship in order to resolve this error."
    )
    assert advice.text.startswith("If this is a delete operation, configure passive_deletes")
    (advice,) = message_advice(
        "CUTLASS headers were not found. Initialize the cutlass submodule or set CUTLASS_ROOT."
    )
    assert advice.kind == "setting"
    assert advice.text == "Initialize the cutlass submodule or set CUTLASS_ROOT."
    # a case with no instruction after it, or one word that introduces the command after it
    assert message_advice("If the file is missing, the loader returns None.") == []
    (run,) = message_advice("If not installed, run: pip install kit[grpc]. If installed, see x.")
    assert run.command == "pip install kit[grpc]"
    # a step the program took and failed
    assert message_advice("Initialize MooncakeDistributedStore failed.") == []


def test_a_keyword_in_capitals_before_a_noun_is_named_not_an_instruction() -> None:
    # SQLAlchemy's StaleDataError reports what an UPDATE statement did: no advice in it
    report = "UPDATE statement on table '{t}' expected to update {n} row(s); Only {m} were matched."
    assert message_advice(report) == []
    # a verb in capitals that is followed by what to give still instructs
    assert [a.text for a in message_advice("SET VLLM_X=1 to enable it.")] == [
        "SET VLLM_X=1 to enable it."
    ]


def test_a_verb_that_is_the_subject_of_a_report_is_no_instruction() -> None:
    # "Select statement ... returned": the statement is what the report is about; the half
    # after the `;` is the advice, and the only one
    report = (
        "Select statement '{s!r}' returned no rows due to filtering; "
        "specify keep(<rows>) to keep them."
    )
    assert [a.text for a in message_advice(report)] == ["specify keep(<rows>) to keep them."]
    assert message_advice("set objects are unhashable") == []
    assert message_advice("select #1 has {n} columns, select #{i} has {m}") == []
    # a verb that takes a clause, or a relative clause after the object, still instructs
    for said in ("Ensure the flag is on.", "Pass one that is valid.", "Make sure it is set."):
        assert [a.text for a in message_advice(said)] == [said]


@pytest.mark.parametrize(
    "message",
    [
        "HiSparse requires its compiled kernels. Rebuild vLLM from source so x.cu is included.",
        "Sharded RDT requires a group-contiguous order. Reorder the source so all names "
        "sharing a layer index are adjacent.",
        "This checkpoint has no MoE. Drop --kernel-config moe_backend=x for this checkpoint.",
        "No kernel for this GPU. Try --moe-backend emulation.",
    ],
)
def test_rebuild_reorder_drop_and_try_a_flag_after_a_statement_are_advice(message: str) -> None:
    (advice,) = message_advice(message)
    said = message.split(". ", 1)[1]
    assert advice.solution == f"Do what the message says: “{said}”"


def test_a_sql_keyword_in_capitals_is_no_instruction_to_drop() -> None:
    assert message_advice("DROP TABLE failed for {name}") == []


def test_the_setting_a_clause_announces_after_its_colon_is_part_of_it() -> None:
    # vllm MPClient.__init__: the variable is no sentence of its own
    (advice,) = message_advice(
        "Timed out. To increase the timeout, set the environment variable: "
        "VLLM_ENGINE_READY_TIMEOUT_S=<seconds>"
    )
    assert advice.solution == (
        "Do what the message says: “set the environment variable: "
        "VLLM_ENGINE_READY_TIMEOUT_S=<seconds>”"
    )
    # a list of them after a label stays as it was
    assert message_advice("Unknown backend {b}. Supported options: a, b") == []


def test_a_sentence_goes_on_after_an_abbreviation() -> None:
    (advice,) = message_advice(
        'Attributes "{name}" must not be field names; Use sunder or dunder names, '
        'e. g. "_{name}" or "__{name}__"'
    )
    assert advice.text.endswith('e. g. "_{name}" or "__{name}__"')
    assert sentences("Pass a list, i.e. one value each. Use x, cf. y. Use a vs. b now.") == [
        "Pass a list, i.e. one value each.",
        "Use x, cf. y.",
        "Use a vs. b now.",
    ]
    # "etc." ends a sentence only before a capital
    assert sentences("Give a, b, etc. and c. Use z, etc. Then go.") == [
        "Give a, b, etc. and c.",
        "Use z, etc.",
        "Then go.",
    ]


@pytest.mark.parametrize(
    ("message", "said"),
    [
        # the launch the user runs, and what to start it with
        (
            "Per-call overrides are off by default. Start the server with --trust-overrides "
            "only when clients are trusted.",
            "Start the server with --trust-overrides only when clients are trusted.",
        ),
        # a flag to raise
        (
            "item {key} too large to cache; raise --cache-max-object-mb.",
            "raise --cache-max-object-mb.",
        ),
        # the goal said without its object
        (
            "Only a and b work here. To fix use one of --backend=a, --backend=b.",
            "To fix use one of --backend=a, --backend=b.",
        ),
        # a setting's name to raise
        (
            "Queue full past the timeout; dropping it. Raise queue_pairs if frequent.",
            "Raise queue_pairs if frequent.",
        ),
        # two ways, the first one's verb
        (
            "max_items ({m}) must be <= the smallest budget ({b}). Either increase the "
            "smallest budget or decrease max_items.",
            "Either increase the smallest budget or decrease max_items.",
        ),
        # the order after what happened, joined by "and"
        (
            "The cache is not available. Caching is disabled and please upgrade the engine "
            "to use it.",
            "please upgrade the engine to use it.",
        ),
        # the case first, then the verb
        (
            "The default was changed. If you want the legacy `{v}`, edit the config JSON "
            "to set `x={v}`.",
            "If you want the legacy `{v}`, edit the config JSON to set `x={v}`.",
        ),
        # the user's own class, and an adverb of the order
        (
            "All parameters must be present on the base; you should inherit from Base[{p}].",
            "you should inherit from Base[{p}].",
        ),
        (
            "{cls} misses {p}. You should parametrize Root directly, e.g., "
            "`class {cls}(Root[{p}])`.",
            "You should parametrize Root directly, e.g., `class {cls}(Root[{p}])`.",
        ),
        (
            "Found conflicts between 'kind={a}' and 'type={b}'. You should only specify "
            "one of them.",
            "You should only specify one of them.",
        ),
    ],
)
def test_start_with_raise_a_flag_inherit_and_an_adverb_of_the_order_are_advice(
    message: str, said: str
) -> None:
    (advice,) = message_advice(message)
    assert advice.solution == f"Do what the message says: “{said}”"


@pytest.mark.parametrize(
    "message",
    [
        "Start index {i} is out of range.",
        "Cannot raise ValueError here.",
        "raise the error again after {n} tries",
        "Start of the stream with no header.",
        "Either all or none of the requests must be pooling requests",
        "Raise ValueError when {name} is unset.",
    ],
)
def test_start_or_raise_of_no_flag_or_launch_is_no_advice(message: str) -> None:
    assert message_advice(message) == []


@pytest.mark.parametrize(
    ("message", "said"),
    [
        # what the user may do to resolve this very warning, said with a gerund
        (
            'Field "{name}" clashes with the prefix "{prefix}".\n\nYou may be able to resolve '
            "this warning by setting `config['prefixes'] = {kept}`.",
            "You may be able to resolve this warning by setting `config['prefixes'] = {kept}`.",
        ),
    ],
)
def test_a_way_to_resolve_this_very_warning_is_advice(message: str, said: str) -> None:
    assert [a.text for a in message_advice(message)] == [said]


@pytest.mark.parametrize(
    "message",
    [
        # a gerund that is no way out of it, and another goal than this warning's
        "The rows were kept. You may be able to resolve this warning by reading the log.",
        "The cache is cold. You may be able to resolve this delay by setting `warm=True`.",
    ],
)
def test_a_look_or_another_goal_is_no_way_out_of_this_warning(message: str) -> None:
    assert message_advice(message) == []
