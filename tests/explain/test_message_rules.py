"""The rule a message states in the forms no other phrasing reads, offered as the way out:
the values listed after a refused one ("unsupported role {role!r}; expected one of ..."),
the one of two places a thing may be in ("... matches both a and b; a layer may not be
referenced by both"), how what the user gives must be formed ("fields may not start with an
underscore", "must inherit from typing.Generic") and a file the checkpoint lacks."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.explain.advice import message_advice
from errdex.store import Store


def _solutions(message: str) -> list[str]:
    return [a.solution for a in message_advice(message)]


def test_expected_one_of_after_a_refused_value_names_what_takes_them() -> None:
    (said,) = _solutions(
        "unsupported Inkling message role {role!r}; expected one of {sorted(ROLE_TOKENS)}"
    )
    assert said.startswith(
        "Use one of the values the message lists as the Inkling message role, as the message "
        "says: “expected one of {sorted(ROLE_TOKENS)}”"
    )
    (said,) = _solutions(
        "moe_backend='{runner_backend}' is not supported for FP8 MoE. Expected one of {names}."
    )
    assert said.startswith("Use one of the values the message lists as the `moe_backend`,")
    (said,) = _solutions(
        "Unsupported message role for the cohere renderer: {role!r}. Expected one of: system, user."
    )
    assert said.startswith("Use one of the values the message lists as the message role for")
    # said as what the value must be, in a sentence or a clause of its own
    (said,) = _solutions("Unknown quantization method: {q}. Must be one of {supported}.")
    assert said.startswith("Use one of the values the message lists as the quantization method")
    (said,) = _solutions("Unknown strategy {self.strategy}: should be one of {list(Strategy)}")
    assert said.startswith("Use one of the values the message lists as the strategy,")
    assert _solutions("D rank {r} is not paired with P rank {t}; must be one of {ranks}.") == []
    # without a value named by what it is: a shape, a rank the program pairs, its own values
    assert _solutions("max_score must have shape [H,K]; got {s}, expected one of {shapes}") == []
    assert _solutions("D rank {r} is not paired with P rank {t}; expected one of {ranks}.") == []
    assert _solutions("backend: {name}={dt} is unsupported; expected one of {codes}") == []


def test_a_class_named_beside_a_builtin_type_is_a_type_the_value_may_have() -> None:
    (said,) = _solutions("attn_backend must be a string or an AttentionBackendEnum.")
    assert said.startswith("Make `attn_backend` a string or an AttentionBackendEnum, as the")
    # a class alone, or a word in capitals, is no type of this rule
    assert _solutions("attn_backend must be an AttentionBackendEnum.") == []
    assert _solutions("attn_backend must be a string or an ENUM.") == []


def test_a_base_the_users_class_lacks_is_the_base_to_give_it() -> None:
    (said,) = _solutions("{cls} cannot be parametrized because it does not inherit from Generic")
    assert said.startswith("Make your class {cls} inherit from Generic, as the message says")
    (said,) = _solutions("`Model` cannot be subscripted because it does not subclass Base.")
    assert said.startswith("Make `Model` subclass Base, as the message says")
    # a reason that is no base: nothing to give
    assert _solutions("{cls} cannot be parametrized because it does not define __init__") == []


def test_one_of_two_places_only() -> None:
    (said,) = _solutions(
        "Layer {prefix} matches both quantization_config.ignore and quantization_config.targets "
        "({matches}); a layer may not be referenced by both."
    )
    assert said.startswith(
        "Keep the layer in only one of `quantization_config.ignore` and "
        "`quantization_config.targets`, as the message says"
    )


def test_what_a_value_must_not_hold() -> None:
    (said,) = _solutions("bad_words cannot contain an empty string. Got bad_words={x}")
    assert said.startswith("Make sure bad_words does not contain an empty string, as the")
    # "may not include" says what may be so, not a rule
    assert _solutions("The checkpoint may not include the MTP layer weights.") == []


def test_a_file_the_checkpoint_lacks_is_to_be_supplied() -> None:
    (said,) = _solutions("NOTE vision checkpoint is missing preprocessor_config.json")
    assert said.startswith(
        "Supply `preprocessor_config.json` in the NOTE vision checkpoint you load"
    )
    assert _solutions("{path} is missing config.json") == []


PKG = {
    "pkg/__init__.py": "from pkg.models import create_model, GenericModel, Proxy\n",
    "pkg/models.py": """
        import warnings


        def create_model(name, **fields):
            for f_name in fields:
                if f_name.startswith("_"):
                    warnings.warn(f'fields may not start with an underscore, ignoring "{f_name}"')
            return name


        class GenericModel:
            def __class_getitem__(cls, params):
                if not hasattr(cls, "__parameters__"):
                    raise TypeError(
                        f"Type {cls.__name__} must inherit from typing.Generic "
                        "before being parameterized"
                    )
                return cls


        class ModelMeta(type):
            def __new__(mcs, name, bases, namespace):
                if "Config" in namespace and "model_config" in namespace:
                    raise TypeError(
                        "'Config' and 'model_config' cannot be used together. "
                        "Please use `model_config` only."
                    )
                return super().__new__(mcs, name, bases, namespace)


        class Proxy:
            def __clause_element__(self):
                raise NotImplementedError(
                    "The association proxy can't be used as a plain column expression; "
                    "it only works inside of a comparison expression"
                )


        class _Slot:
            def __clause_element__(self):
                raise NotImplementedError(
                    "The slot can't be used as a plain column expression; "
                    "it only works inside of a comparison expression"
                )


        MODES = ("fast", "exact")


        def run(mode, modes):
            if mode not in MODES:
                raise ValueError(f"Unsupported mode {mode!r}: should be one of {MODES}.")
            if mode not in modes:
                raise ValueError(f"Unknown run mode: {mode}. Must be one of {modes}.")
            return mode


        def _fill(block):
            if block.startswith("_"):
                raise ValueError("block names must not start with an underscore")
            return block
        """,
}


@pytest.fixture(scope="module")
def pkg(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("pkg"), "pkg", PKG)


def test_how_a_users_name_must_be_formed(pkg: Store) -> None:
    page = page_with_message(pkg, "pkg", "fields may not start")
    assert page.solutions[0].text.startswith(
        "Make sure fields do not start with an underscore, as the message says"
    )
    # the same rule of the package's own private helper is none of the user's
    page = page_with_message(pkg, "pkg", "block names must")
    assert not any("Make sure block names" in s.text for s in page.solutions)


def test_the_one_use_a_thing_works_in_after_the_use_refused(pkg: Store) -> None:
    page = page_with_message(pkg, "pkg", "The association proxy can't")
    assert page.solutions[0].text.startswith(
        "Use the association proxy inside of a comparison expression, not as a plain column "
        "expression, as the message says"
    )
    # the same of a private class no user is handed: none
    assert not page_with_message(pkg, "pkg", "The slot can't").solutions


def test_the_values_a_message_lists_give_way_to_those_the_check_lists(pkg: Store) -> None:
    page = page_with_message(pkg, "pkg", "Unsupported mode")
    texts = [s.text for s in page.solutions]
    assert texts[0].startswith("Pass the argument `mode` of `run` as one of `'fast'`"), texts
    assert not any(t.startswith("Use one of the values the message lists") for t in texts), texts
    # where the check's own way out names the argument and its values, the list is not said
    page = page_with_message(pkg, "pkg", "Unknown run mode")
    texts = [s.text for s in page.solutions]
    assert texts, page
    assert not any(t.startswith("Use one of the values the message lists") for t in texts), texts


def test_what_the_users_class_must_inherit_from(pkg: Store) -> None:
    page = page_with_message(pkg, "pkg", "Type {cls.__name__} must inherit")
    assert page.solutions[0].text.startswith(
        "Make your class `CLASS_NAME` inherit from typing.Generic before being parameterized"
    )


def test_a_class_hooks_message_keeps_its_advice(pkg: Store) -> None:
    # an advice that is no rule of a form is the way out of a class-creation hook's check too
    page = page_with_message(pkg, "pkg", "'Config' and 'model_config'")
    assert "Do what the message says: \u201cPlease use `model_config` only.\u201d" in [
        s.text for s in page.solutions
    ]


def test_the_flags_the_message_calls_equivalent_take_the_place_of_the_setting() -> None:
    (advice,) = message_advice(
        "TORCH_COMPILE_DISABLE is set, disabling torch.compile. This is equivalent to setting "
        "-cc.mode=none"
    )
    assert advice.kind == "setting"
    assert advice.solution.startswith(
        "Pass `-cc.mode=none` in place of setting `TORCH_COMPILE_DISABLE`, as the message says"
    )
    (advice,) = message_advice(
        "Enforce eager set, disabling torch.compile. This is equivalent to setting "
        "-cc.mode=none -cc.cudagraph_mode=none and --kernel_config.jit=False"
    )
    assert advice.solution.startswith(
        "Pass `-cc.mode=none -cc.cudagraph_mode=none --kernel_config.jit=False` in place of "
        "setting enforce eager,"
    )


def test_a_final_full_stop_is_no_part_of_the_flags_value() -> None:
    (advice,) = message_advice(
        "TORCH_COMPILE_DISABLE is set, disabling torch.compile. This is equivalent to setting "
        "-cc.mode=none -cc.gpu_memory=0.9."
    )
    assert advice.solution.startswith(
        "Pass `-cc.mode=none -cc.gpu_memory=0.9` in place of setting `TORCH_COMPILE_DISABLE`"
    )


def test_a_check_the_message_asks_for_is_what_to_make_hold() -> None:
    (said,) = _solutions(
        "While loading {lora_dir}, expected target modules in {expected} but received "
        "{unexpected}. Please verify that the loaded LoRA module is correct"
    )
    assert said.startswith(
        "Make sure that the loaded LoRA module is correct, as the message says: “Please verify"
    )
    (said,) = _solutions("{uri} is not a valid URI. Please check that the URI is correct.")
    assert said.startswith("Make sure that the URI is correct,")
    # where to look, or a question, is no rule
    assert _solutions("Please check the logs for details.") == []
    assert _solutions("Please check whether your parser has implemented `start`.") == []
