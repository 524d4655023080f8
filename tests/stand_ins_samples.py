"""A package whose attention backends declare the device, cache values and head sizes they
run on (the shape of vllm's `supports_compute_capability`, `supported_kv_cache_dtypes`,
`get_supported_head_sizes`): a member offered in place of another must take all it takes.
Each file holds a check: the index keeps the files that do."""

from selection_samples import _CLI
from value_picked_samples import backend_registry

DEVICES = {
    **_CLI,
    "serve/args.py": """
        from dataclasses import dataclass

        from serve.backends.registry import AttentionBackendEnum

        @dataclass
        class EngineArgs:
            attention_backend: AttentionBackendEnum | None = None

            @staticmethod
            def add_cli_args(parser):
                parser.add_argument("--attention-backend")
                return parser
        """,
    **backend_registry(
        {
            "HOPPER": "hopper.HopperBackend",
            "BLACK": "black.BlackBackend",
            "PORTABLE": "portable.PortableBackend",
            "HUGE": "huge.HugeBackend",
        },
        ["HOPPER", "BLACK", "PORTABLE", "HUGE"],
    ),
    "serve/backends/base.py": """
        from typing import ClassVar

        class AttentionBackend:
            supported_kv_cache_dtypes: ClassVar[list[str]] = ["auto", "float16", "bfloat16"]

            @classmethod
            def get_supported_head_sizes(cls):
                return []

            @classmethod
            def supports_compute_capability(cls, capability):
                return True

        def check_output(output):
            if output is None:
                raise ValueError("an output buffer is required")
        """,
    "serve/backends/hopper.py": """
        from serve.backends.base import AttentionBackend

        class HopperBackend(AttentionBackend):
            supported_kv_cache_dtypes = ["auto", "float16", "bfloat16", "fp8"]

            @classmethod
            def supports_compute_capability(cls, capability):
                return capability.major == 9

        def hopper_blocks(count):
            if count < 1:
                raise ValueError("hopper attention needs a block")
        """,
    "serve/backends/black.py": """
        from serve.backends.base import AttentionBackend

        class BlackBackend(AttentionBackend):
            supported_kv_cache_dtypes = ["auto", "float16", "bfloat16", "fp8"]

            @staticmethod
            def get_impl_cls():
                return BlackImpl

            @classmethod
            def supports_compute_capability(cls, capability):
                return capability.major == 10

        class BlackImpl:
            def forward(self, sinks):
                if sinks is not None:
                    raise NotImplementedError("Black attention does not support sinks")
        """,
    "serve/backends/portable.py": """
        from serve.backends.base import AttentionBackend

        class PortableBackend(AttentionBackend):
            supported_kv_cache_dtypes = ["auto", "float16", "bfloat16", "fp8"]

            @classmethod
            def get_supported_head_sizes(cls):
                return [64, 128]

        def portable_blocks(count):
            if count < 1:
                raise ValueError("portable attention needs a block")
        """,
    "serve/backends/huge.py": """
        from serve.backends.base import AttentionBackend

        class HugeBackend(AttentionBackend):
            @classmethod
            def get_supported_head_sizes(cls):
                return [80]

            @classmethod
            def supports_compute_capability(cls, capability):
                return capability.major >= 12

            @staticmethod
            def get_impl_cls():
                return HugeImpl

        class HugeImpl:
            def forward(self, sinks):
                if sinks is not None:
                    raise NotImplementedError("Huge attention does not support sinks")
        """,
}

# Backends declaring the model and cache dtypes they take (`supported_dtypes`,
# `supported_kv_cache_dtypes`), both set with a flag: a member taking some of the site's
# values stands in for those; one deciding the cache by calls is not known to take the
# value a check of the cache fails on; one whose own code makes the same check is none.
VALUES = {
    **_CLI,
    "serve/args.py": """
        from dataclasses import dataclass

        from serve.backends.registry import AttentionBackendEnum

        @dataclass
        class EngineArgs:
            attention_backend: AttentionBackendEnum | None = None
            dtype: str = "auto"
            kv_cache_dtype: str = "auto"

            @staticmethod
            def add_cli_args(parser):
                parser.add_argument("--attention-backend")
                parser.add_argument("--dtype")
                parser.add_argument("--kv-cache-dtype")
                return parser
        """,
    **backend_registry(
        {
            "WIDE": "wide.WideBackend",
            "NARROW": "narrow.NarrowBackend",
            "CALLED": "called.CalledBackend",
            "MIRROR": "mirror.MirrorBackend",
        },
        ["WIDE", "NARROW", "CALLED", "MIRROR"],
    ),
    "serve/backends/base.py": """
        from typing import ClassVar

        class AttentionBackend:
            supported_dtypes: ClassVar[list[str]] = ["float16", "bfloat16"]
            supported_kv_cache_dtypes: ClassVar[list[str]] = ["auto", "float16", "bfloat16"]

        def check_output(output):
            if output is None:
                raise ValueError("an output buffer is required")
        """,
    "serve/backends/wide.py": """
        from serve.backends.base import AttentionBackend

        class WideBackend(AttentionBackend):
            supported_dtypes = ["float16", "bfloat16", "float32"]
            supported_kv_cache_dtypes = ["auto", "float16", "bfloat16", "fp8"]

            @staticmethod
            def get_impl_cls():
                return WideImpl

        class WideImpl:
            def __init__(self, kv_cache_dtype, sinks):
                if sinks is not None:
                    raise NotImplementedError("Wide attention does not support sinks")
                if kv_cache_dtype.startswith("fp8"):
                    raise ValueError("Wide attention needs a newer device for an fp8 cache")

            def forward(self, output_scale):
                if output_scale is not None:
                    raise NotImplementedError("Wide attention does not fuse output quantization")
        """,
    "serve/backends/narrow.py": """
        from serve.backends.base import AttentionBackend

        class NarrowBackend(AttentionBackend):
            supported_dtypes = ["bfloat16"]

        def narrow_blocks(count):
            if count < 1:
                raise ValueError("narrow attention needs a block")
        """,
    "serve/backends/called.py": """
        from serve.backends.base import AttentionBackend
        from serve.devices import device_takes

        class CalledBackend(AttentionBackend):
            supported_dtypes = ["float16", "bfloat16", "float32"]
            supported_kv_cache_dtypes = ["auto", "float16", "bfloat16", "fp8"]

            @classmethod
            def supports_kv_cache_dtype(cls, kv_cache_dtype):
                if kv_cache_dtype not in cls.supported_kv_cache_dtypes:
                    return False
                return device_takes(kv_cache_dtype)

        def called_blocks(count):
            if count < 1:
                raise ValueError("called attention needs a block")
        """,
    "serve/backends/mirror.py": """
        from serve.backends.base import AttentionBackend

        class MirrorBackend(AttentionBackend):
            supported_dtypes = ["float16", "bfloat16", "float32"]
            supported_kv_cache_dtypes = ["auto", "float16", "bfloat16", "fp8"]

            @staticmethod
            def get_impl_cls():
                return MirrorImpl

        class MirrorImpl:
            def forward(self, output_scale, output_block_scale):
                if output_scale is not None or output_block_scale is not None:
                    raise NotImplementedError("Mirror attention does not fuse output quantization")
        """,
}

# The same backends beside one whose class decides the cache dtype by calls among those it
# lists (a packed cache on some devices only): a backend is offered for those of them it
# lists, and, where it decides by calls within its own list too (CALLED), not with those
# outside its list.
PACKED = {
    **VALUES,
    **backend_registry(
        {
            "PACKED": "packed.PackedBackend",
            "WIDE": "wide.WideBackend",
            "CALLED": "called.CalledBackend",
        },
        ["PACKED", "CALLED", "WIDE"],
    ),
    "serve/backends/packed.py": """
        from serve.backends.base import AttentionBackend
        from serve.devices import device_takes

        class PackedBackend(AttentionBackend):
            supported_kv_cache_dtypes = ["auto", "float16", "bfloat16", "packed"]

            @classmethod
            def supports_kv_cache_dtype(cls, kv_cache_dtype):
                if kv_cache_dtype.startswith("packed"):
                    return device_takes(kv_cache_dtype)
                return kv_cache_dtype in cls.supported_kv_cache_dtypes

            @staticmethod
            def get_impl_cls():
                return PackedImpl

        class PackedImpl:
            def __init__(self, packed_here, head_size):
                if packed_here and head_size == 64:
                    raise NotImplementedError("Packed attention misreads a small head")
        """,
}
