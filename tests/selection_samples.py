"""A package whose code a setting picks: an attention backend named by an enum member that
a flag takes, a kernel class a variable takes out of a platform's list (the shapes of vllm's
backend registry and its linear kernel selection), with a console script."""

# the package, its console script `serve run MODEL_TAG` and the arguments class it reads
_CLI = {
    "pyproject.toml": """
        [project]
        name = "serve"
        version = "1.0"
        [project.scripts]
        serve = "serve.cli:main"
        """,
    "serve/__init__.py": "",
    "serve/cli.py": """
        import argparse

        from serve.args import EngineArgs


        def main():
            parser = argparse.ArgumentParser(prog="serve")
            sub = parser.add_subparsers().add_parser("run")
            sub.add_argument("model_tag")
            EngineArgs.add_cli_args(sub)
        """,
}

SERVE = {
    **_CLI,
    "serve/envs.py": """
        import os

        environment_variables = {
            "SERVE_DISABLED_KERNELS": lambda: (
                []
                if "SERVE_DISABLED_KERNELS" not in os.environ
                else os.environ["SERVE_DISABLED_KERNELS"].split(",")
            ),
        }

        def __getattr__(name):
            return environment_variables[name]()
        """,
    "serve/backends/registry.py": """
        from enum import Enum

        class AttentionBackendEnum(Enum):
            FLASH = "serve.backends.flash.FlashBackend"
            CUTLASS = (
                "serve.backends.cutlass."
                "CutlassBackend"
            )
            TRITON = "serve.backends.triton.TritonBackend"
            ROCM = "serve.backends.rocm.RocmBackend"
            FLASH_SPARSE = "serve.backends.flash_sparse.FlashSparseBackend"
            SDPA = ""  # only for the encoder
        """,
    "serve/backends/flash.py": """
        class FlashBackend:
            pass

        class FlashImpl:
            def _forward(self, heads):
                assert heads % 8 == 0, "heads must be a multiple of 8"
        """,
    "serve/backends/flash_sparse.py": """
        class FlashSparseBackend:
            def topk(self, k):
                if k > 2048:
                    raise ValueError(f"topk {k} is above 2048")
        """,
    "serve/backends/triton.py": """
        class TritonBackend:
            pass

        class TritonImpl:
            def __init__(self, alibi_slopes):
                if alibi_slopes is not None:
                    raise NotImplementedError("TritonImpl does not support alibi_slopes")
        """,
    "serve/backends/rocm.py": """
        class RocmBackend:
            pass
        """,
    "serve/backends/cutlass.py": """
        import logging

        logger = logging.getLogger(__name__)

        class CutlassBackend:
            pass

        class CutlassImpl:
            def __init__(self, alibi_slopes):
                if alibi_slopes is not None:
                    raise NotImplementedError("CutlassImpl does not support alibi_slopes")

            def _decode(self, blocks):
                assert blocks > 0, f"block num must be positive, got {blocks}"

            def _fused_output(self, nvfp4_cache):
                if nvfp4_cache:
                    logger.warning("the fused output is not registered with an NVFP4 cache")
        """,
    "serve/platforms.py": """
        from serve.backends.registry import AttentionBackendEnum

        def priorities(capability):
            if capability >= 100:
                return [
                    AttentionBackendEnum.CUTLASS,
                    AttentionBackendEnum.FLASH,
                    AttentionBackendEnum.TRITON,
                ]
            return [
                AttentionBackendEnum.FLASH,
                AttentionBackendEnum.TRITON,
            ]

        def newest_priorities():
            return [
                AttentionBackendEnum.TRITON,
                AttentionBackendEnum.FLASH_SPARSE,
            ]

        def rocm_priorities():
            return [
                AttentionBackendEnum.ROCM,
                AttentionBackendEnum.TRITON,
            ]

        def encoder_backends():
            return [
                AttentionBackendEnum.CUTLASS,
                AttentionBackendEnum.ROCM,
                AttentionBackendEnum.SDPA,
            ]

        def supported(backend):
            return backend in (
                AttentionBackendEnum.CUTLASS,
                AttentionBackendEnum.ROCM,
            )
        """,
    "serve/args.py": """
        from dataclasses import dataclass

        from serve.backends.registry import AttentionBackendEnum

        @dataclass
        class EngineArgs:
            attention_backend: AttentionBackendEnum | None = None
            encoder_attn_backend: AttentionBackendEnum | None = None

            @staticmethod
            def add_cli_args(parser):
                parser.add_argument("--attention-backend")
                parser.add_argument("--encoder-attn-backend")
                return parser
        """,
    "serve/kernels/__init__.py": """
        from serve import envs
        from serve.kernels.fast import FastKernel
        from serve.kernels.slow import SlowKernel, SafeKernel

        _POSSIBLE = {
            "cuda": [
                FastKernel,
                SlowKernel,
                SafeKernel,
            ],
        }

        def choose(platform, config):
            for kernel in _POSSIBLE[platform]:
                if kernel.__name__ in envs.SERVE_DISABLED_KERNELS:
                    continue
                if kernel.can_implement(config):
                    return kernel
            raise ValueError("no kernel")
        """,
    "serve/kernels/fast.py": """
        class FastKernel:
            def process(self, weight):
                if weight.ndim != 2:
                    raise ValueError(f"FastKernel expects a 2-D weight, got {weight.ndim}")

            def scales(self, weight, scale):
                if scale.shape != (weight.shape[0], 4):
                    raise ValueError("FastKernel expects four scales a row")

            def apply(self, x):
                assert x.is_contiguous(), "FastKernel needs a contiguous input"
        """,
    "serve/kernels/slow.py": """
        class SlowKernel:
            pass

        class SafeKernel:
            pass
        """,
}

# A dict keyed by a flag's `Literal` values naming kernel classes (vllm's
# `_LINEAR_BACKEND_KERNEL_MAP` for `--linear-backend`), and one whose flag may be None.
KERNELS = {
    **_CLI,
    "serve/config.py": """
        from typing import Literal

        LinearBackend = Literal[
            "auto",
            "fast",
            "slow",
            "int",
            "late",
        ]
        QuantMethods = Literal["a", "b"]
        """,
    "serve/args.py": """
        from dataclasses import dataclass

        from serve.config import LinearBackend, QuantMethods

        @dataclass
        class EngineArgs:
            linear_backend: LinearBackend = "auto"
            quant_method: QuantMethods | None = None

            @staticmethod
            def add_cli_args(parser):
                parser.add_argument("--linear-backend")
                parser.add_argument("--quant-method")
                return parser
        """,
    "serve/kernels/__init__.py": """
        from serve.kernels.mx import FastMxKernel, LateMxKernel, SlowMxKernel
        from serve.kernels.integer import IntKernel

        _LINEAR_BACKEND_KERNEL_MAP: dict[str, set[type]] = {
            "fast": {FastMxKernel},
            "slow": {
                SlowMxKernel,
            },
            "int": {IntKernel},
            "late": {LateMxKernel},
        }

        QUANT_METHOD_CONFIGS = {"a": [FastMxKernel], "b": [IntKernel]}

        # what a platform tries in turn: `int` is tried for another kind of layer
        _POSSIBLE_MX_KERNELS = {
            "cuda": [
                SlowMxKernel,
                FastMxKernel,
                LateMxKernel,
            ],
        }
        _POSSIBLE_INT_KERNELS = {
            "cuda": [
                IntKernel,
            ],
        }
        # FastMxKernel under two keys: which one the user gave is unsaid
        _LINEAR_BACKEND_FALLBACKS = {"fast": (FastMxKernel,), "slow": (FastMxKernel, IntKernel)}
        """,
    "serve/kernels/mx.py": """
        class MxKernel:
            pass

        class FastMxKernel(MxKernel):
            def apply(self, x):
                assert x.dtype == "bf16", f"FastMx requires bfloat16 activations, got {x.dtype}"

            def scales(self, layer):
                if layer.scale is None:
                    raise ValueError("FastMx scale was not loaded")

        class SlowMxKernel(MxKernel):
            pass

        class LateMxKernel(MxKernel):
            pass
        """,
    "serve/kernels/integer.py": """
        class BaseInt:
            pass

        class IntKernel(BaseInt):
            def apply(self, x):
                raise ValueError("IntKernel requires int8 weights")
        """,
}

# Members no list holds: one only the flag picks (HPC_ATTN), one a platform returns itself
# (CPU_ATTN), one whose class a model imports and hands out (MODEL_ATTN); FLASH_ATTN and
# TRITON_ATTN are of HPC_ATTN's kind and listed, TRITON_ATTN in more lists.
GIVEN = {
    **_CLI,
    "serve/args.py": SERVE["serve/args.py"],
    "serve/backends/registry.py": """
        from enum import Enum

        class AttentionBackendEnum(Enum):
            FLASH_ATTN = "serve.backends.flash.FlashBackend"
            TRITON_ATTN = "serve.backends.triton.TritonBackend"
            FLASH_MLA = "serve.backends.mla.FlashMlaBackend"
            HPC_ATTN = "serve.backends.hpc.HpcBackend"
            CPU_ATTN = "serve.backends.cpu.CpuBackend"
            MODEL_ATTN = "serve.models.own.OwnBackend"
        """,
    "serve/backends/flash.py": "class FlashBackend:\n    pass\n",
    "serve/backends/triton.py": "class TritonBackend:\n    pass\n",
    "serve/backends/mla.py": "class FlashMlaBackend:\n    pass\n",
    "serve/backends/hpc.py": """
        class HpcBackend:
            pass

        class HpcImpl:
            def __init__(self, alibi_slopes):
                if alibi_slopes is not None:
                    raise NotImplementedError("HPC attention does not support ALiBi")
        """,
    "serve/backends/cpu.py": """
        class CpuBackend:
            def __init__(self, head_size):
                if head_size > 256:
                    raise ValueError("CPU attention supports head sizes up to 256")
        """,
    "serve/models/own.py": """
        class OwnBackend:
            def __init__(self, topk):
                if topk > 64:
                    raise ValueError("own attention supports a top-k up to 64")
        """,
    "serve/models/model.py": """
        def get_attn_backend():
            from serve.models.own import OwnBackend

            return OwnBackend
        """,
    "serve/layers/rope.py": """
        from serve.backends.registry import AttentionBackendEnum

        def fused(config):
            return config.backend == AttentionBackendEnum.HPC_ATTN
        """,
    "serve/platforms.py": """
        from serve.backends.registry import AttentionBackendEnum

        def priorities(capability):
            if capability >= 100:
                return [
                    AttentionBackendEnum.FLASH_MLA,
                    AttentionBackendEnum.TRITON_ATTN,
                ]
            return [
                AttentionBackendEnum.FLASH_ATTN,
                AttentionBackendEnum.TRITON_ATTN,
            ]

        def cpu_backend():
            return AttentionBackendEnum.CPU_ATTN
        """,
}

# Plugins a flag names in a registry of (module file, class) pairs, imported when asked for:
# a reasoning parser (`think`, `shared` for the same class), a tool parser whose flag the
# version refuses `--enable-auto-tool-choice` without and whose arguments class adds its
# flags by computed names, a base class another module imports (which names run its
# constructor is unsaid), a check that the parser was handed a tokenizer at all, one of
# the options a call hands the constructor, one of a token of the tokenizer the constructor
# keeps, and one of no token at all; a base class keeps the tokenizer of one.
NAMED = {
    **_CLI,
    "serve/cli.py": _CLI["serve/cli.py"]
    .replace("import EngineArgs", "import EngineArgs, FrontendArgs")
    .replace("(sub)\n", "(sub)\n" + " " * 12 + "FrontendArgs.add_cli_args(sub)\n"),
    "serve/args.py": """
        from dataclasses import dataclass, fields


        @dataclass
        class EngineArgs:
            reasoning_parser: str = ""
            reasoning_parser_plugin: str = ""

            @staticmethod
            def add_cli_args(parser):
                parser.add_argument("--reasoning-parser")
                parser.add_argument("--reasoning-parser-plugin")
                return parser


        @dataclass
        class FrontendArgs:
            enable_auto_tool_choice: bool = False
            tool_call_parser: str | None = None
            tool_parser_plugin: str = ""

            @classmethod
            def add_cli_args(cls, parser):
                for field in fields(cls):
                    parser.add_argument(f"--{field.name.replace('_', '-')}")
                return parser


        def validate(args):
            if args.enable_auto_tool_choice and not args.tool_call_parser:
                raise TypeError("--enable-auto-tool-choice requires --tool-call-parser")
        """,
    "serve/reasoning/__init__.py": """
        _REASONING_PARSERS_TO_REGISTER = {
            "think": ("think_parser", "ThinkReasoningParser"),
            "shared": ("think_parser", "ThinkReasoningParser"),
            "effort": ("effort_parser", "EffortReasoningParser"),
            "derived": ("derived_parser", "DerivedReasoningParser"),
            "plain": ("plain_parser", "PlainReasoningParser"),
            "kept": ("kept_parser", "KeptReasoningParser"),
        }
        """,
    "serve/reasoning/think_parser.py": """
        class ThinkReasoningParser:
            def __init__(self, tokenizer):
                self.vocab = tokenizer.get_vocab()
                if self.vocab.get("<think>") is None:
                    raise RuntimeError("ThinkReasoningParser could not locate the think token")
        """,
    "serve/reasoning/plain_parser.py": """
        class PlainReasoningParser:
            def __init__(self, tokenizer):
                self.model_tokenizer = tokenizer
                if not self.model_tokenizer:
                    raise ValueError("The tokenizer must be given to PlainReasoningParser")
        """,
    "serve/reasoning/kept_parser.py": """
        class KeptBase:
            def __init__(self, tokenizer):
                self.model_tokenizer = tokenizer


        class KeptReasoningParser(KeptBase):
            def __init__(self, tokenizer):
                super().__init__(tokenizer)
                if not self.model_tokenizer:
                    raise ValueError("KeptReasoningParser was handed no tokenizer")
        """,
    "serve/reasoning/effort_parser.py": """
        class EffortReasoningParser:
            def __init__(self, tokenizer, **kwargs):
                effort = kwargs.get("effort", "high")
                if effort not in ("high", "low"):
                    raise ValueError("Unsupported effort: use high or low")
        """,
    "serve/reasoning/base_parser.py": """
        class BaseReasoningParser:
            def __init__(self, tokenizer):
                if not tokenizer:
                    raise ValueError("The tokenizer must be passed to the parser")
        """,
    "serve/reasoning/derived_parser.py": """
        from serve.reasoning.base_parser import BaseReasoningParser


        class DerivedReasoningParser(BaseReasoningParser):
            pass
        """,
    "serve/tools/__init__.py": """
        _TOOL_PARSERS_TO_REGISTER = {
            "json": ("json_parser", "JsonToolParser"),
            "xml": ("xml_parser", "XmlToolParser"),
            "size": ("size_parser", "SizeToolParser"),
            "vocab": ("vocab_parser", "VocabToolParser"),
        }
        """,
    "serve/tools/json_parser.py": """
        class JsonToolParser:
            def __init__(self, tokenizer):
                self.start_token_id = tokenizer.get_vocab().get("<tool_call>")
                if self.start_token_id is None:
                    raise RuntimeError("JsonToolParser could not locate the tool call token")
        """,
    "serve/tools/xml_parser.py": """
        class XmlToolParser:
            def __init__(self, tokenizer):
                self.tokenizer = tokenizer
                if self.tokenizer.eos_token_id is None:
                    raise RuntimeError("XmlToolParser needs the end-of-text token")
        """,
    "serve/tools/size_parser.py": """
        class SizeToolParser:
            def __init__(self, tokenizer):
                self.vocab_size = tokenizer.vocab_size
                if self.vocab_size < 1000:
                    raise ValueError("SizeToolParser needs a vocabulary of 1000 tokens")
        """,
    "serve/tools/vocab_parser.py": """
        class VocabToolParser:
            def __init__(self, tokenizer):
                if "<call>" not in tokenizer.get_vocab():
                    raise RuntimeError("VocabToolParser could not find the call token")
        """,
}

# A registry filled at import time with the text of each plugin's module, looked up by a
# key of a JSON-valued flag (`link.loaded_registry`)
LOADED = {
    **_CLI,
    "serve/args.py": """
        from dataclasses import dataclass

        from serve.config import TransferConfig


        @dataclass
        class EngineArgs:
            transfer_config: TransferConfig | None = None

            @staticmethod
            def add_cli_args(parser):
                parser.add_argument("--transfer-config")
                return parser
        """,
    "serve/config.py": """
        from dataclasses import dataclass


        @dataclass
        class TransferConfig:
            connector: str | None = None
            role: str = "both"
        """,
    "serve/transfer/__init__.py": "",
    "serve/transfer/factory.py": """
        import importlib

        from serve.config import TransferConfig


        class ConnectorFactory:
            _registry = {}

            @classmethod
            def register_connector(cls, name, module_path, class_name):
                def loader():
                    return getattr(importlib.import_module(module_path), class_name)

                cls._registry[name] = loader

            @classmethod
            def get_connector_class(cls, transfer_config: TransferConfig):
                connector_name = transfer_config.connector
                if connector_name not in cls._registry:
                    raise ValueError(f"Unsupported connector: {connector_name}")
                return cls._registry[connector_name]()


        ConnectorFactory.register_connector(
            "PipeConnector", "serve.transfer.pipe", "PipeConnector"
        )
        ConnectorFactory.register_connector(
            "PipePullConnector", "serve.transfer.pipe", "PipePullConnector"
        )
        ConnectorFactory.register_connector(
            "SharedConnector", "serve.transfer.shared", "SharedConnector"
        )
        ConnectorFactory.register_connector(
            "DiskConnector", "serve.transfer.disk", "DiskConnector"
        )
        """,
    "serve/transfer/pipe/__init__.py": """
        from serve.transfer.pipe.connector import PipeConnector, PipePullConnector
        """,
    "serve/transfer/pipe/connector.py": """
        from serve.transfer.pipe.worker import PipeWorker


        class PipeConnector:
            def __init__(self, config):
                self.worker = PipeWorker(config)


        class PipePullConnector(PipeConnector):
            pass
        """,
    "serve/transfer/pipe/worker.py": """
        from serve.transfer.common import block_size


        class PipeWorker:
            def __init__(self, config):
                if config.device not in ("cuda", "cpu"):
                    raise RuntimeError(f"Pipe transfers do not support {config.device}")
                self.engine = config.engine

            def register(self, tensor):
                try:
                    self.engine.register(tensor)
                except Exception as e:
                    raise RuntimeError(f"Failed to register the tensor: {e}") from e
        """,
    "serve/transfer/common.py": """
        def block_size(config):
            if config.block_size % 16:
                raise ValueError("The block size must be a multiple of 16")
            return config.block_size
        """,
    "serve/transfer/shared.py": """
        from serve.transfer.common import block_size


        class SharedConnector:
            def __init__(self, config):
                if config.peers > 8:
                    raise ValueError("Shared transfers take at most 8 peers")
        """,
    "serve/transfer/disk.py": """
        class DiskConnector:
            def __init__(self, config):
                if not config.path:
                    raise ValueError("Disk transfers need a path")
        """,
    "serve/offload.py": """
        def offload_config(config):
            config.transfer_config.connector = "DiskConnector"
        """,
}
