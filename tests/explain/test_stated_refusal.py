"""A message refusing a value given gives "do not give it", in the message's own words."""

from __future__ import annotations

from errdex.explain.advice import message_advice
from errdex.explain.advice_phrasings import implied_instruction
from errdex.explain.stated_refusal import refused_value


def test_a_thing_that_cannot_specify_a_value_is_told_not_to() -> None:
    (advice,) = message_advice(
        "A column with an Identity object cannot specify autoincrement=False"
    )
    assert advice.kind == "input"
    assert advice.solution.startswith(
        "Do not specify autoincrement=False for a column with an Identity object, as the "
        "message says: “A column with an Identity object cannot specify autoincrement=False”"
    )
    # the reason it gives stays, after a comma; a plain first word is lowered
    assert refused_value(
        "Relationship {rel_b} cannot specify sync_backref=True since {rel_a} includes "
        "viewonly=True."
    ) == (
        "Do not specify sync_backref=True for relationship {rel_b}, since {rel_a} includes "
        "viewonly=True"
    )


def test_a_value_that_cannot_be_set_is_told_not_to_be() -> None:
    # the second clause of the sentence; reST's double backticks become code quotes
    (advice,) = message_advice(
        "The x dialect does not implement ipaddress type handling; native_inet_types cannot "
        "be set to ``True`` when using this dialect."
    )
    assert advice.solution.startswith(
        "Do not set native_inet_types to `True` when using this dialect, as the message says"
    )
    assert refused_value("`Field` default cannot be set in `Annotated` for {field_name!r}") == (
        "Do not set `Field` default in `Annotated` for {field_name!r}"
    )
    assert refused_value("Method {fn} may not be passed as a SQL expression") == (
        "Do not pass method {fn} as a SQL expression"
    )


def test_a_bare_refusal_is_read_only_with_its_case() -> None:
    assert implied_instruction(
        "Cannot set `continue_final_message` to True when the last message is not from the "
        "assistant."
    ) == (
        "Do not set `continue_final_message` to True when the last message is not from the "
        "assistant",
        "input",
    )
    assert refused_value("You cannot pass text prompts when `skip_tokenizer_init=True`") == (
        "Do not pass text prompts when `skip_tokenizer_init=True`"
    )
    # a failure reported, or a refusal with no case: no instruction
    assert refused_value("Cannot provide a placement group within 1800 seconds") is None
    assert refused_value("Cannot set item in a constant list") is None


def test_a_refusal_by_the_program_s_own_part_is_left_alone() -> None:
    # a placeholder alone, a bare class name, a private name, "this" as the subject
    assert refused_value("{type(self).__name__} cannot pass through a deferred output.") is None
    assert refused_value("NixlWrapper cannot specify a remote agent when closed") is None
    assert refused_value("The _Sentinel cannot specify a default") is None
    assert refused_value("This backend cannot set the flag when compiled") is None
    # two things refused together are `stated_exclusive`'s
    assert refused_value("cannot specify both default and default_factory") is None
    # a feature given up, not a value given: `stated_limits`' part
    assert refused_value("Pool class X cannot be used with asyncio engine") is None


def test_a_value_named_as_why_a_thing_is_refused_is_to_be_left_out() -> None:
    (advice,) = message_advice("'{self}' is not available due to lazy='raise_on_sql'")
    assert advice.kind == "input"
    assert advice.solution.startswith(
        "Leave out `lazy='raise_on_sql'`, or give `lazy` another value, as the message says"
    )
    assert refused_value("Unable to get tokenizer because `skip_tokenizer_init=True`") == (
        "Leave out `skip_tokenizer_init=True`, or give `skip_tokenizer_init` another value"
    )
    # a private attribute of the program's own, a cause that is no value given
    assert refused_value("'{x}' is not available due to _state=CLOSED") is None
    assert refused_value("'{x}' is not available due to a network error") is None
