"""A message that states a limit with the values that pass it is read as the way out it
implies: the least version to upgrade to, the valid values it lists, the argument's value
not to give together with another, what a thing must be used with, and what it says not to
do."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.explain.advice import forbids, message_advice
from errdex.explain.stated_limits import stated_limit
from errdex.store import Store

LIB = {
    "lib/__init__.py": "",
    "lib/checks.py": """
        from importlib.metadata import version

        from packaging.version import Version


        def check_fastio(min_version):
            installed = version("fastio")
            if Version(installed) < Version(min_version):
                raise RuntimeError(
                    f"FastIO >= {min_version} is required, but fastio=={installed} is installed"
                )


        class Argument:
            def __init__(self, name, default=None, nargs=1):
                if default is not None and nargs == -1:
                    raise TypeError("'default' is not supported for nargs=-1.")
                self.name = name


        class ARRAY:
            def __init__(self, item_type):
                if isinstance(item_type, ARRAY):
                    raise ValueError(
                        "Do not nest ARRAY types; ARRAY(basetype) handles "
                        "multi-dimensional arrays of basetype"
                    )
                self.item_type = item_type


        def synchronize(rows, strategy="auto"):
            if strategy not in ("auto", "fetch", False):
                raise ValueError(
                    "Valid strategies for synchronization are 'auto', 'fetch', False"
                )
            return rows


        class Discriminator:
            def schema(self, source_type, origin):
                if not origin:
                    raise TypeError(
                        f"{type(self).__name__} must be used with a Union type, not {source_type}"
                    )
                return origin


        class URL:
            def __init__(self, url="", **kwargs):
                if kwargs:
                    allowed = {"scheme": str, "port": int}
                    for key, value in kwargs.items():
                        if key not in allowed:
                            raise TypeError(f"{key!r} is an invalid keyword argument")
                        if value is not None and not isinstance(value, allowed[key]):
                            expected = allowed[key].__name__
                            seen = type(value).__name__
                            raise TypeError(f"Argument {key!r} must be {expected} but got {seen}")
                self.url = url


        def join(left, right):
            if right is None:
                raise ValueError(f"Don't know how to join to {right!r}.")
            return left
        """,
}


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("lib"), "lib", LIB)


def first(store: Store, message: str) -> str:
    page = page_with_message(store, "lib", message)
    assert page.solutions, message
    return page.solutions[0].text


def test_a_least_version_required_is_an_upgrade(lib: Store) -> None:
    page = page_with_message(lib, "lib", "FastIO >= ")
    upgrade = [s for s in page.solutions if s.text.startswith("Upgrade FastIO to")]
    assert upgrade and upgrade[0].kind == "environment"
    assert upgrade[0].text.startswith("Upgrade FastIO to `MIN_VERSION` or newer, as the message")


def test_a_value_not_supported_with_another_is_not_given_with_it(lib: Store) -> None:
    page = page_with_message(lib, "lib", "'default' is not supported")
    assert any(
        s.text.startswith("Do not give 'default' together with nargs=-1, as the message says")
        for s in page.solutions
    )


def test_what_the_message_says_not_to_do_is_a_way_out(lib: Store) -> None:
    assert first(lib, "Do not nest ARRAY types") == (
        "Do what the message says: “Do not nest ARRAY types”"
    )


def test_the_valid_values_it_lists_are_the_way_out(lib: Store) -> None:
    page = page_with_message(lib, "lib", "Valid strategies for synchronization")
    texts = [s.text for s in page.solutions]
    assert any(
        t.startswith("Use one of the strategies for synchronization it lists, as the message")
        for t in texts
    )


def test_what_a_thing_must_be_used_with_is_the_way_out(lib: Store) -> None:
    page = page_with_message(lib, "lib", "{type(self).__name__} must be used with")
    assert any(
        s.text.startswith("Use `CLASS_NAME` with a Union type, as the message says")
        for s in page.solutions
    )


def test_what_a_named_argument_must_be_is_the_value_to_give(lib: Store) -> None:
    page = page_with_message(lib, "lib", "Argument {key!r} must be")
    texts = [s.text for s in page.solutions]
    # the message's value first; passing no keyword at all gives up what was asked, last
    assert texts[0].startswith("Give argument `KEY` a value that is `EXPECTED`, as the message")
    assert texts[-1].startswith("Leave out the keyword arguments that `**kwargs` of `URL`")
    made = stated_limit("Field {k!r} of model {m!r} needs to be a `Literal`")
    assert made == ("Make field {k!r} of model {m!r} a `Literal`", "input")
    # more than one word before "must be": not one argument named
    assert stated_limit("parameter {name!r} owners must be distinct ranks, got {owners}") is None
    assert stated_limit("option names must be non-empty") is None


def test_what_not_to_do_is_told_apart_from_what_the_code_cannot_do() -> None:
    # a flag the message says not to pass gives no value of it first (advised.py)
    assert forbids("Please do not specify `--enable-rounding`.")
    assert forbids("don't combine --profile-dir with it.")
    assert not forbids("Don't know how to join to {right!r}.")
    assert not forbids("Do not support embedding data for vision_chunk right now")


def test_a_statement_of_what_the_code_cannot_do_is_no_advice() -> None:
    assert message_advice("Don't know how to join to {right!r}.") == []
    assert message_advice("Pooling models do not support full cudagraphs.") == []
    assert stated_limit("CUDAGraphMode.FULL is not supported with FLASH backend") is None
    assert stated_limit("fused qkv_proj is pre-sharded at 4 chunks") is None
    assert stated_limit("VLLM_ALLOW_LONG_MAX_MODEL_LEN must be used with extreme caution.") is None
    # a feature refused with a value: the way out would give the feature up
    assert stated_limit("LoRA is not supported with moe_backend={moe_backend!r}.") is None
    # the values listed are what the program itself set up
    assert stated_limit("Supported types are: {self.allowed_attn_types}") is None


def test_a_list_after_a_sentence_stating_its_own_requirement_is_no_way_out() -> None:
    # vllm's dispatch helper ends every message with the same list: it is the way out of
    # "Unsupported ... operator", not of "Dispatch must be a function definition".
    listed = "Supported dispatch expressions are names, constants, and calls without **kwargs."
    unsupported = message_advice(f"Unsupported dispatch binary operator: {{x}}. {listed}")
    assert [a.implied for a in unsupported] == ["Use one of the dispatch expressions it lists"]
    for first in (
        "Dispatch must be a function definition: {x}.",
        "Traced lambdas require positional args: {x}.",
        "AST-traced warmup cases support assignments, _when, and return: {x}.",
    ):
        assert [a.implied for a in message_advice(f"{first} {listed}")] == []


def test_a_list_in_a_clause_of_the_same_sentence_stays_the_way_out() -> None:
    for message in (
        "DCP must be disabled or span the PCP axis. Got DCP={dcp}; valid DCP sizes are {s}.",
        "IPC all-reduce does not support world_size={n}; supported sizes are {sizes}.",
    ):
        assert [a.implied for a in message_advice(message)][-1:] != [None]
        assert any(a.implied and a.implied.endswith("it lists") for a in message_advice(message))


def test_the_supported_values_listed_after_a_colon_are_to_be_used() -> None:
    # vllm's chat content part parser: "Supported types: {', '.join(supported)}."
    (advice,) = message_advice(
        "Unsupported chat content part type: {part_type!r}. "
        "Supported types: {', '.join(supported)}."
    )
    assert advice.solution.startswith("Use one of the types it lists, as the message says")
    assert stated_limit("Supported formats: json, yaml") == (
        "Use one of the formats it lists",
        "input",
    )
    # a placeholder with its conversion in what is listed (SQLAlchemy's isolation levels)
    assert stated_limit("Valid isolation levels for {self.name!r} are {levels}") == (
        "Use one of the isolation levels for {self.name!r} it lists",
        "input",
    )
    # the program's own state listed
    assert stated_limit("Supported backends: {self.backends}") is None
    # a label and its list after a requirement the message states, even after `;`: the
    # sets the requirement was checked against, not values to choose
    assert (
        message_advice(
            "Mixed page sizes require a block-outer layout; supported sets: {supported}."
        )
        == []
    )


def test_the_possible_values_listed_are_to_be_used_but_not_a_possible_cause() -> None:
    # SQLAlchemy's Enum lookup: "'{elem}' is not among the defined enum values. Enum name:
    # {self.name}. Possible values: {...}"
    (advice,) = message_advice(
        "'{elem}' is not among the defined enum values. Enum name: {self.name}. "
        "Possible values: {langhelpers.repr_tuple_names(self.enums)}"
    )
    assert advice.solution.startswith("Use one of the values it lists, as the message says")
    # a guess at the cause is nothing to choose from
    assert stated_limit("Possible cause: the key function reads a mutable property") is None
