"""A name holding one key of a JSON-valued flag's object as it is: a local bound to it, or
`self.x` its class's constructor set to it (`KnobIndex._held_key`): the flag with that key,
after the plain flags that write the key."""

from __future__ import annotations

from test_passed_arguments import link

from errdex.linked_facts import SECTION_FIELDS
from samples import BACKEND_ARGS

# vllm's shapes: `mode = vllm_config.compilation_config.mode` in a function, and
# `self._backend = vllm_config.attention_config.backend` in a constructor.
HELD = {
    "eng/args.py": BACKEND_ARGS,
    "eng/wrapper.py": """
        def wrap(vllm_config):
            backend = vllm_config.attention_config.backend
            if backend == "flex":
                raise ValueError("flex attention cannot wrap")


        class Prefill:
            def __init__(self, vllm_config):
                self._backend = vllm_config.attention_config.backend

            def run(self):
                if self._backend == "cute":
                    raise ValueError("cute prefill refuses this head size")


        def other(vllm_config):
            batch = vllm_config.scheduler_config.max_batch
            if batch > 4:
                raise ValueError("too large a batch")
        """,
}


def test_a_local_holding_a_key_of_a_json_flag_is_that_key() -> None:
    site = link(HELD)["flex attention cannot wrap"]
    knobs = {k.name: k for k in site.knobs if k.behind == "backend"}
    # the plain flag defaulting to the key, and the JSON flag with the key (before: the
    # whole `--attention-config`, its value read as the key's)
    assert sorted(knobs) == ["--attention-backend", "--attention-config"]
    assert knobs["--attention-config"].json_key == "backend"
    assert knobs["--attention-backend"].json_key is None
    # a field of an object no JSON-valued flag takes is no key of one
    other = link(HELD)["too large a batch"]
    assert all(k.json_key is None for k in other.knobs)


def test_a_key_the_constructor_keeps_on_self_is_that_key() -> None:
    site = link(HELD)["cute prefill refuses this head size"]
    knobs = {k.name: k for k in site.knobs if k.behind == "self._backend"}
    assert sorted(knobs) == ["--attention-backend", "--attention-config"]
    assert knobs["--attention-config"].json_key == "backend"
    assert "Prefill.__init__" in (knobs["--attention-config"].via or "")


# a local holding a section of a JSON-valued flag's object (`hisparse_config` of
# `AttentionConfig`), whose own keys nest under it in the flag's JSON
SECTION = {
    "eng/args.py": """
        from dataclasses import dataclass


        @dataclass
        class SparseConfig:
            buffer_size: int | None = None


        @dataclass
        class AttentionConfig:
            sparse_config: SparseConfig | None = None


        @dataclass
        class EngineArgs:
            attention_config: AttentionConfig | None = None

            def add_cli_args(parser):
                parser.add_argument("--attention-config", type=str)
        """,
    "eng/sparse.py": """
        def resolve(vllm_config, block_size):
            config = vllm_config.attention_config.sparse_config
            if config is None:
                return None
            if config.buffer_size is not None and block_size % config.buffer_size:
                raise ValueError("the buffer is not aligned to the block")
        """,
}


def test_a_local_holding_a_section_of_a_json_flag_is_not_the_whole_object() -> None:
    # `config.buffer_size` is `{"sparse_config": {"buffer_size": ...}}` in the flag's JSON,
    # not a key at its top (the object forbids keys it does not declare)
    site = link(SECTION)["the buffer is not aligned to the block"]
    (knob,) = [k for k in site.knobs if k.name == "--attention-config" and k.behind == "config"]
    # still the flag (left out, the section is None), but no attribute is a top key
    assert knob.json_fields == (SECTION_FIELDS,)
