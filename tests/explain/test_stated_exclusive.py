"""A message that refuses two things given together is read as "give only one of them":
the user gave both, and either alone passes ("keep_existing and extend_existing are
mutually exclusive", "cannot specify both default and default_factory")."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.explain import build_page
from errdex.explain.stated_exclusive import exclusive_instruction
from errdex.store import Store

LIB = {
    "lib/__init__.py": "from lib.schema import Table, Field, query\n",
    "lib/schema.py": """
        class Table:
            def __init__(self, name, *, keep_existing=False, extend_existing=False):
                if keep_existing and extend_existing:
                    raise ValueError(
                        "keep_existing and extend_existing are mutually exclusive."
                    )
                self.name = name


        class Field:
            def __init__(self, default=None, default_factory=None):
                if default is not None and default_factory is not None:
                    raise TypeError("cannot specify both default and default_factory")
                self.default = default


        def _decode(q, out=None, out_q=None):
            assert out is None or out_q is None, "out and out_q are mutually exclusive"
            return q


        def decode(q, out=None, out_q=None):
            assert out is None or out_q is None, "out and out_q are mutually exclusive"
            return _decode(q)


        def query(rows, *, yield_per=None, unique=False):
            if yield_per is not None and unique:
                raise ValueError(
                    "Can't use the ORM yield_per feature in conjunction with unique()"
                )
            return rows
        """,
}


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("lib"), "lib", LIB)


def texts(store: Store, message: str) -> list[str]:
    return [s.text for s in page_with_message(store, "lib", message).solutions]


def test_two_arguments_said_to_exclude_each_other_give_one_of_them(lib: Store) -> None:
    assert (
        "Give only one of keep_existing and extend_existing, as the message says: "
        "“keep_existing and extend_existing are mutually exclusive.”"
    ) in texts(lib, "keep_existing and extend_existing")


def test_cannot_specify_both_names_the_verb_and_the_two(lib: Store) -> None:
    assert (
        "Specify only one of default and default_factory, as the message says: "
        "“cannot specify both default and default_factory”"
    ) in texts(lib, "cannot specify both default")


def test_one_thing_refused_with_another_is_not_used_with_it(lib: Store) -> None:
    assert (
        "Do not use the ORM yield_per feature together with unique(), as the message says: "
        "“Can't use the ORM yield_per feature in conjunction with unique()”"
    ) in texts(lib, "Can't use the ORM yield_per")


def test_an_assert_of_a_function_no_user_calls_offers_no_choice(lib: Store) -> None:
    # the code's own two values, asserted apart: no user passes them
    pages = {
        s.site.function: build_page(lib, s.id)
        for s in lib.list_sites("lib")
        if s.site.function in ("_decode", "decode")
    }
    said = "Give only one of out and out_q, as the message says"
    assert not any(said in s.text for s in pages["_decode"].solutions)
    assert any(s.text.startswith(said) for s in pages["decode"].solutions)


def test_the_phrasings_read() -> None:
    said = exclusive_instruction
    assert said("bounds gt and ge cannot be specified at the same time") == (
        "Specify only one of bounds gt and ge",
        "input",
    )
    assert said(
        "the 'flat' and 'selectable' arguments cannot be passed simultaneously to "
        "with_polymorphic()"
    ) == ("Pass only one of 'flat' and 'selectable' to with_polymorphic()", "input")
    assert said("An column cannot specify both Identity and Sequence.") == (
        "Specify only one of Identity and Sequence",
        "input",
    )
    assert said("On {self}, can't set passive_deletes='all' in conjunction with 'delete'") == (
        "Do not set passive_deletes='all' together with 'delete'",
        "input",
    )
    assert said("to avoid confusion __config__ and __base__ cannot be used together") == (
        "Use only one of __config__ and __base__",
        "input",
    )
    assert said("Mixing raw image and embedding inputs is not allowed") == (
        "Do not mix raw image and embedding inputs",
        "input",
    )
    assert said("X does not support mixing more than one of bounds, constraints and defaults") == (
        "Use only one of bounds, constraints and defaults",
        "input",
    )
    assert said("Cannot mix named and unnamed arguments.") == (
        "Do not mix named and unnamed arguments",
        "input",
    )
    assert said("Rotary and alibi are mutually exclusive.") == (
        "Give only one of rotary and alibi",
        "input",
    )
    assert said("Error: --multi-port cannot be combined with --external-lb or --hybrid-lb") == (
        "Do not combine --multi-port with --external-lb or --hybrid-lb",
        "input",
    )


def test_a_feature_refused_on_its_own_is_no_choice_between_two() -> None:
    # giving up a feature is no way out the message offers (stated_limits says nothing)
    assert exclusive_instruction("LoRA is not supported with moe_backend={x!r}.") is None
    assert exclusive_instruction("Chunked prefill and prefix caching are not supported") is None
    assert exclusive_instruction("LoRA cannot be used with FP8.") is None
    # "these": the two are named in another clause
    assert (
        exclusive_instruction("init=False and init_var=True, but these are mutually exclusive")
        is None
    )


def test_a_thing_set_while_also_setting_another_that_voids_it() -> None:
    # a warning's wording: the first is pointless beside the second (either alone is meant)
    assert exclusive_instruction(
        "Setting {k} on relationship() while also setting viewonly=True does not make sense, "
        "as a viewonly=True relationship does not perform persistence operations."
    ) == ("Do not set {k} on relationship() together with viewonly=True", "input")
    assert exclusive_instruction("Passing limit while also passing offset is not supported") == (
        "Do not pass limit together with offset",
        "input",
    )
    # a cause, not a refusal
    assert exclusive_instruction("Setting x while also setting y is done in place") is None
