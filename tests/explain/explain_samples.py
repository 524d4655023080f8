"""A small engine in the shape of vllm: a module of env getters (vllm/envs.py), a config
whose property reads one (VllmConfig.use_v2_model_runner) and whose `__post_init__` calls a
validator only under a guard, an args dataclass with argparse flags (EngineArgs), a test."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path

from errdex.explain import build_page
from errdex.explain.page import Page, Solution
from errdex.indexing import index_source
from errdex.indexing.cache import FactsCache
from errdex.sources import open_source
from errdex.store import open_store
from errdex.store.base import Store, StoredSite
from samples import write_package

PYPROJECT = """
    [project]
    name = "engine"
    version = "1.0"

    [project.urls]
    Issues = "https://github.com/acme/engine/issues"
    """

ENGINE = {
    "engine/__init__.py": "",
    "engine/envs.py": """
        import os
        from typing import TYPE_CHECKING

        if TYPE_CHECKING:
            ENGINE_USE_V2: bool | None = None

        environment_variables = {
            "ENGINE_USE_V2": lambda: maybe_convert_bool(os.getenv("ENGINE_USE_V2", None)),
        }

        def __getattr__(name):
            return environment_variables[name]()
        """,
    "engine/config.py": """
        from engine import envs

        class EngineConfig:
            def __post_init__(self):
                if self.use_v2:
                    self._validate_v2()
                else:
                    self._validate_v1()

            @property
            def use_v2(self) -> bool:
                if self.sparse_config is not None:
                    if envs.ENGINE_USE_V2 is False:
                        raise ValueError("Sparse requires runner V2; remove ENGINE_USE_V2=0.")
                    return True
                use_v2 = envs.ENGINE_USE_V2
                if use_v2 is not None:
                    return use_v2
                return False

            def _validate_v1(self):
                unsupported = []
                if self.model_config.enforce_eager:
                    unsupported.append("eager mode")
                if self.parallel_config.pipeline_size > 1:
                    unsupported.append("pipeline parallelism")
                if unsupported:
                    raise ValueError(f"Runner V1 does not support: {', '.join(unsupported)}")

            def _validate_v2(self):
                if self.model_config.max_len is None:
                    raise ValueError("Runner V2 needs a maximum length")

            def _validate_profiler(self):
                has_graphs = self.graph_mode != "none" and not self.model_config.enforce_eager
                if not has_graphs:
                    return
                if self.profiler == "pc":
                    raise ValueError("PC sampling needs CUDA graphs off. Use --enforce-eager.")
        """,
    "engine/args.py": """
        from dataclasses import dataclass

        from engine.config import EngineConfig

        @dataclass
        class EngineArgs:
            enforce_eager: bool = False
            pipeline_size: int = 1

            @staticmethod
            def add_cli_args(parser):
                parser.add_argument("--enforce-eager", action="store_true")
                parser.add_argument("--pipeline-size", type=int, default=1)
                return parser

            def create_config(self):
                return EngineConfig()
        """,
    "engine/llm.py": """
        from engine.args import EngineArgs

        class LLM:
            def __init__(self, model, enforce_eager=False, pipeline_size=1):
                self.args = EngineArgs(enforce_eager=enforce_eager, pipeline_size=pipeline_size)
        """,
    "tests/test_config.py": """
        import pytest

        def test_sparse_on_v1(monkeypatch):
            monkeypatch.setenv("ENGINE_USE_V2", "0")
            with pytest.raises(ValueError, match="Sparse requires runner V2"):
                make_sparse_config()
        """,
}

# A program `eng serve MODEL_TAG` whose flags come from `eng.args.EngineArgs` (the
# package's console script): the command line a setting's example fix is written on.
SERVE_CLI = {
    "pyproject.toml": """
        [project]
        name = "eng"
        version = "1.0"
        [project.scripts]
        eng = "eng.cli:main"
        """,
    "eng/__init__.py": "",
    "eng/cli.py": """
        import argparse

        from eng.args import EngineArgs


        class ServeSubcommand:
            name = "serve"

            def subparser_init(self, subparsers):
                parser = subparsers.add_parser(self.name)
                parser.add_argument("model_tag", nargs="?")
                return EngineArgs.add_cli_args(parser)


        def main():
            parser = argparse.ArgumentParser(prog="eng")
            ServeSubcommand().subparser_init(parser.add_subparsers())
        """,
}

HISPARSE = "Sparse requires runner V2; remove ENGINE_USE_V2=0."
V1 = "Runner V1 does not support: {', '.join(unsupported)}"
V2 = "Runner V2 needs a maximum length"
PROFILER = "PC sampling needs CUDA graphs off. Use --enforce-eager."


def site_with(store: Store, message: str) -> StoredSite:
    (found,) = [
        s for s in store.list_sites("engine") if s.site.message and s.site.message.text == message
    ]
    return found


def page_with_message(store: Store, project: str, message: str) -> Page:
    """The page of the one site of `project` whose message starts with `message`."""
    (site,) = [
        s
        for s in store.list_sites(project)
        if s.site.message is not None and s.site.message.text.startswith(message)
    ]
    return build_page(store, site.id)


def first_way_out(store: Store, project: str, message: str) -> str:
    """The first way out of `page_with_message`'s page, which must offer one."""
    page = page_with_message(store, project, message)
    assert page.solutions, message
    return page.solutions[0].text


def offered(page: Page) -> list[str]:
    """Each way out the page offers, to its first colon or sentence's end: what a test
    keeping one way out off a page says the page gives instead (a test of absence alone
    passes on a page that offers nothing, or is not built as it should be)."""
    return [s.text.split(":")[0].split(". ")[0] for s in page.solutions]


def checks(page: Page) -> bool:
    """Whether the page says what its check holds (its conditions were read): with
    `offered(page) == []`, a page that offers nothing for a reason, not one left empty."""
    return "when all of these hold: " in page.what_it_means


def body_ways(store: Store, project: str, message: str) -> list[Solution]:
    """The ways out through the body of a request the user sends, on the page of the site
    of `project` raising `message`."""
    page = page_with_message(store, project, message)
    return [s for s in page.solutions if "body of your request" in s.text]


def page_in_function(store: Store, project: str, function: str) -> Page:
    """The page of the one site of `project` in `function` (its qualname)."""
    (site,) = [s for s in store.list_sites(project) if s.site.function == function]
    return build_page(store, site.id)


def indexed_package(root: Path, project: str, files: Mapping[str, str]) -> Iterator[Store]:
    """`files` written under `root` and indexed as `project` 1.0 into a real SQLite file,
    with a facts cache of its own."""
    write_package(root / "src", files)
    with open_store(root / "errdex.db") as store:
        cache = FactsCache(root / "facts.sqlite3")
        index_source(
            open_source(str(root / "src"), project=project, version="1.0"), store, cache=cache
        )
        yield store
