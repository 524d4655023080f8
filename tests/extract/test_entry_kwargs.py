"""A constructor's `**kwargs` handed to another class (`ClassFact.kwargs_into`), the value
it gives a key the caller leaves out (`ClassFact.kwargs_defaults`), and a field's literal
default of any kind (`ClassFact.defaults`), read from a blanked body's text too."""

from __future__ import annotations

import pytest
from extract_samples import blanked_facts

from errdex.facts import ClassFact

# the constructor raises nothing: the skeleton blanks it, and the facts come from its text
CLIENT = """
    class Client:
        def __init__(self, model, seed=0, **kwargs):
            \"\"\"Build it.\"\"\"
            if "disable_log_stats" not in kwargs:
                kwargs["disable_log_stats"] = True
            kwargs.setdefault("max_len", 512)
            if "worker" in kwargs:
                kwargs["worker"] = wrap(kwargs["worker"])
            kwargs.pop("legacy", None)
            engine_args = EngineArgs(model=model, seed=seed, **kwargs)
            self.engine = Engine.build(engine_args)
    """


def class_of(source: str, name: str) -> ClassFact:
    return next(c for c in blanked_facts(source).classes if c.name == name)


POP = 'kwargs.pop("legacy", None)'


def after_pop(*lines: str) -> str:
    """`CLIENT` with `lines` (at the constructor's indentation) after its `pop`."""
    return CLIENT.replace(POP, "\n            ".join((POP, *lines)))


def test_kwargs_handed_to_a_class_and_their_own_defaults() -> None:
    client = class_of(CLIENT, "Client")
    # the keywords the call gives by name, and the one taken out, are not the caller's
    assert client.kwargs_into == {"EngineArgs": ("legacy", "model", "seed")}
    assert client.kwargs_defaults == {"disable_log_stats": "True", "max_len": "512"}


@pytest.mark.parametrize("rebinding", ["kwargs = {}", "kwargs |= extra", "del kwargs"])
def test_kwargs_rebound_keep_no_fact(rebinding: str) -> None:
    rebound = CLIENT.replace(POP, rebinding)
    client = class_of(rebound, "Client")
    assert (client.kwargs_into, client.kwargs_defaults) == ({}, {})


def test_a_key_set_under_another_condition_is_no_default() -> None:
    guarded = CLIENT.replace(
        'kwargs.setdefault("max_len", 512)',
        'if seed:\n                kwargs.setdefault("max_len", 512)',
    )
    assert class_of(guarded, "Client").kwargs_defaults == {"disable_log_stats": "True"}


def test_a_field_default_of_any_literal_is_kept() -> None:
    args = """
        from dataclasses import dataclass, field


        @dataclass
        class CacheConfig:
            retention: int | None = 0
            block: int = -16
            dtype: str = "auto"
            ratio: float = field(default=0.5)
            enabled: bool = True
            name: str = "x" * 3
        """
    config = class_of(args, "CacheConfig")
    assert config.defaults == {
        "retention": "0",
        "block": "-16",
        "dtype": "'auto'",
        "ratio": "0.5",
        "enabled": "True",
    }


def test_a_key_set_over_the_callers_value_is_not_the_callers() -> None:
    # set after its default, or whatever the caller gave: the caller's keyword never reaches
    # `EngineArgs`, and the default is not what the key holds
    forced = after_pop('kwargs["disable_log_stats"] = False', "kwargs.update(max_len=1024)")
    client = class_of(forced, "Client")
    assert client.kwargs_into == {
        "EngineArgs": ("disable_log_stats", "legacy", "max_len", "model", "seed")
    }
    assert client.kwargs_defaults == {}


def test_a_key_set_under_a_test_of_something_else_is_not_the_callers() -> None:
    guarded = after_pop("if seed:", '    kwargs["disable_log_stats"] = False')
    client = class_of(guarded, "Client")
    assert "disable_log_stats" in client.kwargs_into["EngineArgs"]
    assert client.kwargs_defaults == {"max_len": "512"}


def test_the_first_default_given_holds_and_a_key_set_by_a_name_keeps_no_fact() -> None:
    twice = CLIENT.replace(
        'kwargs.setdefault("max_len", 512)',
        'kwargs.setdefault("max_len", 512)\n            kwargs.setdefault("max_len", 64)',
    )
    assert class_of(twice, "Client").kwargs_defaults["max_len"] == "512"
    by_name = CLIENT.replace(POP, "for key in names:\n                kwargs[key] = None")
    client = class_of(by_name, "Client")
    assert (client.kwargs_into, client.kwargs_defaults) == ({}, {})
