"""A constructor's `**kwargs` handed to another class (`ClassFact.kwargs_into`), the value
it gives a key the caller leaves out (`ClassFact.kwargs_defaults`), and a field's literal
default of any kind (`ClassFact.defaults`), read from a blanked body's text too."""

from __future__ import annotations

import textwrap

from errdex.extract import extract_file
from errdex.extract.skeleton import build_skeleton
from errdex.facts import ClassFact
from samples import QUIET_FUNCTIONS

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
    text = QUIET_FUNCTIONS + textwrap.dedent(source)
    assert build_skeleton(text) is not None
    facts = extract_file("pkg/client.py", text.encode())
    return next(c for c in facts.classes if c.name == name)


def test_kwargs_handed_to_a_class_and_their_own_defaults() -> None:
    client = class_of(CLIENT, "Client")
    # the keywords the call gives by name, and the one taken out, are not the caller's
    assert client.kwargs_into == {"EngineArgs": ("legacy", "model", "seed")}
    assert client.kwargs_defaults == {"disable_log_stats": "True", "max_len": "512"}


def test_kwargs_rebound_keep_no_fact() -> None:
    rebound = CLIENT.replace('kwargs.pop("legacy", None)', "kwargs = {}")
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
