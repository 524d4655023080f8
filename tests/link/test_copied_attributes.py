"""`self.X` a constructor copied from a settings object's field, followed to the flag that
writes the field (`ClassFact.attr_chains`, `link.value_flow`, `link.passed`)."""

from __future__ import annotations

from test_kept_attributes import knobs_of

# a settings class whose field a flag of another name writes (`--kv-cache-dtype`)
CONFIG = """
    from dataclasses import dataclass


    @dataclass
    class CacheConfig:
        cache_dtype: str = "auto"
        \"\"\"Data type of the KV cache.\"\"\"
        block_size: int = 16


    @dataclass
    class EngineArgs:
        kv_cache_dtype: str = CacheConfig.cache_dtype
        block_size: int = CacheConfig.block_size

        def add_cli_args(parser):
            parser.add_argument("--kv-cache-dtype")
            parser.add_argument("--block-size")
    """

# a helper checking the dtype it is given, and a layer giving it the dtype it copied
LAYER = """
    from eng.config import CacheConfig


    def select_impl(*, kv_cache_dtype: str, heads: int):
        if kv_cache_dtype == "fp16":
            raise ValueError("fp16 KV cache is not supported by this backend")
        return heads


    class Layer:
        def __init__(self, heads: int, cache_config: CacheConfig | None = None):
            self.heads = heads
            self.kv_cache_dtype = (
                cache_config.cache_dtype if cache_config is not None else "auto"
            )
            self.impl = select_impl(heads=self.heads, kv_cache_dtype=self.kv_cache_dtype)

        def forward(self):
            if self.kv_cache_dtype == "fp8_e5m2":
                raise ValueError("fp8_e5m2 KV cache is not supported on this layer")
    """


def test_an_argument_a_caller_gives_from_a_copied_field_is_that_fields_flag() -> None:
    files = {"eng/config.py": CONFIG, "eng/layer.py": LAYER}
    message = "fp16 KV cache is not supported by this backend"
    (knob,) = knobs_of(files, message, "kv_cache_dtype")
    assert knob.name == "--kv-cache-dtype"
    assert knob.passed_by == ("Layer.__init__",)


def test_an_attribute_copied_from_a_field_is_that_fields_flag() -> None:
    files = {"eng/config.py": CONFIG, "eng/layer.py": LAYER}
    message = "fp8_e5m2 KV cache is not supported on this layer"
    (knob,) = knobs_of(files, message, "self.kv_cache_dtype")
    assert knob.name == "--kv-cache-dtype"


def test_a_converted_copy_links_nothing() -> None:
    layer = LAYER.replace(
        'cache_config.cache_dtype if cache_config is not None else "auto"',
        "cache_config.cache_dtype.lower()",
    )
    files = {"eng/config.py": CONFIG, "eng/layer.py": layer}
    assert knobs_of(files, "fp16 KV cache is not supported by this backend", "kv_cache_dtype") == []
    assert (
        knobs_of(files, "fp8_e5m2 KV cache is not supported on this layer", "self.kv_cache_dtype")
        == []
    )


def test_a_field_of_an_object_no_flag_writes_links_nothing() -> None:
    layer = LAYER.replace("cache_config.cache_dtype if", "cache_config.model_dtype if")
    files = {"eng/config.py": CONFIG, "eng/layer.py": layer}
    assert knobs_of(files, "fp16 KV cache is not supported by this backend", "kv_cache_dtype") == []


# a settings class a JSON-valued flag takes, held by a constructor under a name of its own
SPEC = """
    from dataclasses import dataclass


    @dataclass
    class SpeculativeConfig:
        method: str = "ngram"
        adaptive_verification: bool = False


    @dataclass
    class EngineArgs:
        speculative_config: dict | None = None

        def add_cli_args(parser):
            parser.add_argument("--speculative-config", type=json.loads)
    """

SAMPLER = """
    from eng.config import SpeculativeConfig


    class Sampler:
        def __init__(self, spec_config: SpeculativeConfig, steps: int):
            self.steps = steps
            self.adaptive = spec_config.adaptive_verification

        def sample(self):
            if self.adaptive:
                raise ValueError("adaptive verification is not supported by this sampler")
    """


def test_a_copy_from_an_annotated_settings_object_is_the_key_of_its_flag() -> None:
    files = {"eng/config.py": SPEC, "eng/sampler.py": SAMPLER}
    message = "adaptive verification is not supported by this sampler"
    (knob,) = knobs_of(files, message, "self.adaptive")
    assert knob.name == "--speculative-config"
    assert knob.json_key == "adaptive_verification"


def test_a_copy_from_another_kind_of_configuration_links_nothing() -> None:
    # held under the name of the flag's object, but annotated as a configuration no flag
    # writes (a kernel's): its fields are not the flag's keys
    sampler = SAMPLER.replace("spec_config", "speculative_config").replace(
        "speculative_config: SpeculativeConfig", "speculative_config: KernelConfig"
    )
    files = {"eng/config.py": SPEC, "eng/sampler.py": sampler}
    message = "adaptive verification is not supported by this sampler"
    assert knobs_of(files, message, "self.adaptive") == []


def test_a_local_holding_a_renamed_field_is_that_fields_flag() -> None:
    helper = """
    from eng.config import CacheConfig


    def check_dtype(cache_config: CacheConfig):
        dtype = cache_config.cache_dtype
        if dtype == "fp16":
            raise ValueError("fp16 KV cache is not supported by this helper")
    """
    files = {"eng/config.py": CONFIG, "eng/helper.py": helper}
    message = "fp16 KV cache is not supported by this helper"
    (knob,) = knobs_of(files, message, "dtype")
    assert knob.name == "--kv-cache-dtype"


def test_a_renamed_field_of_an_object_a_local_holds_is_that_fields_flag() -> None:
    helper = """
    def build(vllm_config):
        cache_config = vllm_config.cache_config
        if cache_config.cache_dtype not in ("auto", "bfloat16"):
            raise NotImplementedError("this layer needs a BF16 cache")
    """
    files = {"eng/config.py": CONFIG, "eng/helper.py": helper}
    (knob,) = knobs_of(files, "this layer needs a BF16 cache", "cache_config.cache_dtype")
    assert knob.name == "--kv-cache-dtype"


def test_a_renamed_field_the_object_reads_of_its_own_attribute_is_not_asked() -> None:
    # a configuration class's own checks of `self.x.field`: left to the names that match
    engine = """
    class VllmConfig:
        def __init__(self, cache_config):
            self.cache_config = cache_config

        def verify(self):
            if self.cache_config.cache_dtype == "fp16":
                raise ValueError("fp16 cache is not supported by this engine")
    """
    files = {"eng/config.py": CONFIG, "eng/engine.py": engine}
    message = "fp16 cache is not supported by this engine"
    assert knobs_of(files, message, "self.cache_config.cache_dtype") == []
