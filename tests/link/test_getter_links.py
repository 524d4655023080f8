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
            fast: bool = False

            def get_fast(self):
                return self.fast

            def get_block(self):
                return self.block

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
    "eng/legacy.py": """
        from dataclasses import dataclass


        @dataclass
        class AttentionConfig:
            block: int = 16

            def get_block(self):
                return self.block
        """,
    "eng/indexer.py": """
        def uses_fp4(vllm_config):
            kv_dtype = vllm_config.attention_config.resolve_indexer_kv_dtype("fp8")
            if kv_dtype == "mxfp4":
                raise ValueError("mxfp4 needs another GPU")


        def fast(vllm_config):
            fast = vllm_config.attention_config.get_fast()
            if fast:
                raise ValueError("fast attention is gone")


        def block(vllm_config):
            size = vllm_config.attention_config.get_block()
            if size > 64:
                raise ValueError("the block is too large")


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


def test_a_getter_returning_its_key_as_it_is_keeps_the_keys_default() -> None:
    site = link(GETTER)["fast attention is gone"]
    (knob,) = [k for k in site.knobs if k.behind == "fast"]
    assert (knob.json_key, knob.key_default) == ("fast", "False")


def test_a_getter_of_two_classes_of_one_name_links_nothing() -> None:
    site = link(GETTER)["the block is too large"]
    assert not [k for k in site.knobs if k.behind == "size"]
