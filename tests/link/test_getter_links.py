"""A local a configuration object's getter method gives (`KnobIndex._through_getter`): the
method returns one of the object's keys as it is (or its argument in place of a sentinel),
so the local is that key of the JSON-valued flag's object, as a local bound to the key is."""

from __future__ import annotations

from test_passed_arguments import link

# vllm's shape: `kv_dtype = vllm_config.attention_config.resolve_indexer_kv_dtype("fp8")`
GETTER = {
    "eng/args.py": """
        from dataclasses import dataclass


        @dataclass
        class AttentionConfig:
            indexer_kv_dtype: str = "auto"
            block: int = 16

            def resolve_indexer_kv_dtype(self, default):
                if self.indexer_kv_dtype == "auto":
                    return default
                return self.indexer_kv_dtype

            def scaled_block(self, factor):
                return self.block * factor

            def other_object(self):
                return self.helper.block


        @dataclass
        class EngineArgs:
            attention_config: AttentionConfig | None = None

            def add_cli_args(parser):
                parser.add_argument("--attention-config", type=str)
        """,
    "eng/indexer.py": """
        def uses_fp4(vllm_config):
            kv_dtype = vllm_config.attention_config.resolve_indexer_kv_dtype("fp8")
            if kv_dtype == "mxfp4":
                raise ValueError("mxfp4 needs another GPU")


        def scaled(vllm_config):
            size = vllm_config.attention_config.scaled_block(2)
            if size > 64:
                raise ValueError("the scaled block is too large")
        """,
}


def test_a_local_a_getter_gives_is_the_key_it_returns() -> None:
    site = link(GETTER)["mxfp4 needs another GPU"]
    (knob,) = [k for k in site.knobs if k.behind == "kv_dtype"]
    # before: only the whole `--attention-config`, behind `vllm_config.attention_config`
    assert knob.name == "--attention-config"
    assert knob.json_key == "indexer_kv_dtype"
    assert knob.key_default is None  # "auto" is not what the check reads
    assert "resolve_indexer_kv_dtype" in (knob.via or "")
    # a method computing its value is no getter: the value is not the key's
    scaled = link(GETTER)["the scaled block is too large"]
    assert not [k for k in scaled.knobs if k.behind == "size" and k.json_key is not None]
