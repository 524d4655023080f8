"""A package whose attention backends declare the values of `--kv-cache-dtype` they serve
(the shape of vllm's `supported_kv_cache_dtypes` and `supports_kv_cache_dtype`): a base
declaring the values every backend takes, backends made only for other values, and ones
that share theirs or their file."""

from selection_samples import _CLI


def backend_registry(classes: dict[str, str], priority: list[str]) -> dict[str, str]:
    """The enum naming each backend's class (member: "module.Class" under `serve.backends`)
    and the platform's order of trying them, as `serve/backends/registry.py` and
    `serve/platforms.py`."""
    members = "".join(f'    {name} = "serve.backends.{path}"\n' for name, path in classes.items())
    order = "".join(f"        AttentionBackendEnum.{name},\n" for name in priority)
    return {
        "serve/backends/__init__.py": "",
        "serve/backends/registry.py": "\nfrom enum import Enum\n\n"
        "class AttentionBackendEnum(Enum):\n" + members + "\n    def get_path(self):\n"
        "        if not self.value:\n"
        '            raise ValueError(f"{self.name} names no class")\n'
        "        return self.value\n",
        "serve/platforms.py": "\nfrom serve.backends.registry import AttentionBackendEnum\n\n"
        "def priorities():\n"
        "    return [\n" + order + "    ]\n",
    }


CACHED = {
    **_CLI,
    "serve/args.py": """
        from dataclasses import dataclass

        from serve.backends.registry import AttentionBackendEnum

        @dataclass
        class EngineArgs:
            attention_backend: AttentionBackendEnum | None = None
            kv_cache_dtype: str = "auto"

            @staticmethod
            def add_cli_args(parser):
                parser.add_argument("--attention-backend")
                parser.add_argument("--kv-cache-dtype")
                return parser
        """,
    **backend_registry(
        {
            "FLASH": "flash.FlashBackend",
            "PACKED": "packed.PackedBackend",
            "TRITON": "triton.TritonBackend",
            "QUANT": "quant.QuantBackend",
            "WIDE": "wide.WideBackend",
        },
        ["FLASH", "WIDE", "TRITON", "PACKED", "QUANT"],
    ),
    "serve/backends/base.py": """
        from typing import ClassVar

        class AttentionBackend:
            supported_kv_cache_dtypes: ClassVar[list[str]] = ["auto", "float16", "bfloat16"]

            @classmethod
            def supports_kv_cache_dtype(cls, kv_cache_dtype):
                return kv_cache_dtype in cls.supported_kv_cache_dtypes

        class AttentionImpl:
            def forward(self, output):
                if output is None:
                    raise ValueError("an output buffer is required")
        """,
    "serve/backends/flash.py": """
        from serve.backends.base import AttentionBackend

        class FlashBackend(AttentionBackend):
            supported_kv_cache_dtypes = ["auto", "float16", "bfloat16", "fp8"]

        class FlashImpl:
            def __init__(self, sinks):
                if sinks is not None:
                    raise NotImplementedError("Flash attention does not support sinks")
        """,
    "serve/backends/triton.py": """
        class TritonBackend:
            pass
        """,
    "serve/backends/packed.py": """
        from typing import ClassVar

        from serve.backends.base import (
            AttentionBackend,
            AttentionImpl,
        )

        class PackedBackend(AttentionBackend):
            supported_kv_cache_dtypes: ClassVar[list[str]] = ["packed_4bit", "packed_3bit"]

            @staticmethod
            def get_impl_cls():
                return PackedImpl

        def _packed_rows(rows):
            if rows % 2:
                raise ValueError("packed rows come in pairs")

        # a helper of the file the backend does not name: other backends import it
        def pack_heads(head_size):
            if head_size % 8:
                raise ValueError("heads are packed in eights")

        class PackedStats:
            def record(self, count):
                if count < 0:
                    raise ValueError("packed stats count down")

        class PackedImpl(AttentionImpl):
            def __init__(self, sinks, head_size):
                if sinks is not None:
                    raise NotImplementedError("Packed attention does not support sinks")
                assert head_size > 0, "packed head size must be positive"
                _packed_rows(head_size)

            def check(self, kv_cache_dtype):
                if kv_cache_dtype == "packed_3bit":
                    raise NotImplementedError(f"no kernel for kv_cache_dtype={kv_cache_dtype}")
        """,
    "serve/backends/quant.py": """
        from serve.backends.base import AttentionBackend

        class QuantBackend(AttentionBackend):
            supported_kv_cache_dtypes = ["quant_k8", "quant_k4"]

            @classmethod
            def supports_kv_cache_dtype(cls, kv_cache_dtype):
                if kv_cache_dtype is None:
                    return False
                return kv_cache_dtype.startswith("quant_")

            @classmethod
            def supports_head_size(cls, head_size):
                return head_size > 0

            @staticmethod
            def get_impl_cls():
                return QuantImpl

        class QuantImpl:
            def decode(self, dropped):
                if dropped:
                    raise NotImplementedError(f"quant decode drops {dropped}")
        """,
    # a backend that takes the packed values besides the base's: it stands in (the index
    # keeps the files that hold a check)
    "serve/backends/wide.py": """
        from serve.backends.base import AttentionBackend

        class WideBackend(AttentionBackend):
            supported_kv_cache_dtypes = ["auto", "packed_4bit", "packed_3bit"]

            def blocks(self, count):
                if count < 1:
                    raise ValueError("wide attention needs a block")
        """,
    # one backend of the file made for other values, its siblings not: the file's code
    # is theirs too
    "serve/backends/shared.py": """
        from serve.backends.base import AttentionBackend

        class SharedBackend(AttentionBackend):
            pass

        class SharedNarrowBackend(SharedBackend):
            supported_kv_cache_dtypes = ["narrow_4bit"]

        class SharedImpl:
            def __init__(self, sinks):
                if sinks is not None:
                    raise NotImplementedError("Shared attention does not support sinks")
        """,
    # values of a name no flag of the version takes
    "serve/backends/styled.py": """
        from serve.backends.base import AttentionBackend

        class StyledBackend(AttentionBackend):
            supported_styles = ["bold"]

        class StyledImpl:
            def __init__(self, sinks):
                if sinks is not None:
                    raise NotImplementedError("Styled attention does not support sinks")
        """,
}
