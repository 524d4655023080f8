"""Helpers every test folder shares: sample packages and real git repositories in tmp dirs,
and a real traceback of an installed package."""

from __future__ import annotations

import os
import subprocess
import textwrap
import traceback
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import click
import pytest

from errdex.indexing import index_source
from errdex.indexing.cache import FactsCache
from errdex.match import lookup_text
from errdex.match.results import Match
from errdex.sources import open_source
from errdex.store import AnalysisRecord, open_store
from errdex.store.base import Store

COMMIT_DATE = "2024-03-01T12:00:00+00:00"

# vllm's parser: a `--config` YAML file whose keys become flags (put after the line's first word)
FLAG_CONFIG_READER = """
    import yaml


    class FlexibleArgumentParser:
        def parse_args(self, args):
            if "--config" in args:
                args = self._pull_args_from_config(args)
            return args

        def load_config_file(self, file_path):
            with open(file_path) as config_file:
                config = yaml.safe_load(config_file)
            processed_args = []
            for key, value in config.items():
                processed_args.append("--" + key)
                processed_args.append(str(value))
            return processed_args
    """


def among(modules: list[str], names: tuple[str, ...]) -> list[str]:
    """The modules of `modules` that are one of `names` or inside one (a start-up's imports)."""
    return sorted(m for m in modules if any(m == n or m.startswith(n + ".") for n in names))


def write_package(root: Path, files: Mapping[str, str | bytes]) -> Path:
    """Write {relative path: source} under `root`; text is dedented, bytes written as is."""
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(textwrap.dedent(content))
    return root


def indexed_store(
    root: Path, project: str, releases: Mapping[str, Mapping[str, str | bytes]]
) -> Store:
    """A real SQLite store under `root` holding each release of `project` ({version: files}),
    written out and indexed with a facts cache of its own. The caller closes it."""
    store = open_store(root / "errdex.db")
    cache = FactsCache(root / "facts.sqlite3")
    for version, files in releases.items():
        tree = write_package(root / version, files)
        index_source(open_source(str(tree), project=project, version=version), store, cache=cache)
    return store


def indexed_releases(root: Path, specs: Sequence[str]) -> Store:
    """A real SQLite store under `root` holding each `NAME==VERSION` of `specs`, downloaded
    into a cache of its own (never installed). The caller closes it."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ERRDEX_CACHE", str(root / "cache"))
        store = open_store(root / "errdex.db")
        cache = FactsCache(root / "facts.sqlite3")
        for spec in specs:
            index_source(open_source(spec), store, cache=cache, workers=1)
    return store


def indexed_fixture(
    name: str, project: str, releases: Mapping[str, Mapping[str, str | bytes]]
) -> Any:
    """A module-scoped `store` fixture: `indexed_store` of the releases in a tmp folder named
    `name`, closed after the module's tests (assign it: `store = indexed_fixture(...)`)."""

    @pytest.fixture(scope="module")
    def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
        opened = indexed_store(tmp_path_factory.mktemp(name), project, releases)
        yield opened
        opened.close()

    return store


def first_match(store: Store, text: str) -> Match:
    """The first match of a lookup of `text` (dedented), failing the test when none."""
    result = lookup_text(store, textwrap.dedent(text).strip())
    assert result.matches, result.nearest
    return result.matches[0]


def git(repo: Path, *args: str) -> str:
    """Run git in `repo` with a fixed identity and date, ignoring the machine's config."""
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "Test",
        "GIT_AUTHOR_EMAIL": "test@example.invalid",
        "GIT_COMMITTER_NAME": "Test",
        "GIT_COMMITTER_EMAIL": "test@example.invalid",
        "GIT_AUTHOR_DATE": COMMIT_DATE,
        "GIT_COMMITTER_DATE": COMMIT_DATE,
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_CONFIG_NOSYSTEM": "1",
    }
    done = subprocess.run(
        ["git", "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false", *args],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


def commit(repo: Path, files: Mapping[str, str | bytes], message: str) -> str:
    """Write the files, commit everything, and return the new commit's sha."""
    write_package(repo, files)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)
    return git(repo, "rev-parse", "HEAD")


def rejected_analysis(error_id: str, revision: str, model: str = "tiny") -> AnalysisRecord:
    """A model's answer kept as rejected: a write to the store that no page shows."""
    return AnalysisRecord(
        error_id=error_id,
        revision=revision,
        model=model,
        prompt_version="1",
        status="rejected",
        reason="cites nothing",
        created_at="2024-05-02T00:00:00+00:00",
    )


def real_click_traceback() -> str:
    """A real traceback of a real click error, raised by click (errdex's own dependency)."""

    @click.command()
    @click.argument("name")
    def hello(name: str) -> None:
        raise AssertionError("not reached")

    try:
        hello.main(["a", "b"], standalone_mode=False)
    except click.UsageError:
        return traceback.format_exc()
    raise AssertionError("click accepted an extra argument")


# Site-free functions enough for a file to get a skeleton (`extract.skeleton`): a test puts
# its own code after them and sees what the skeleton does to it.
QUIET_FUNCTIONS = "\n".join(f"def quiet_{i}(x):\n    return x + {i}\n" for i in range(600))


# vllm's shape of a backend setting: `--attention-config` takes a JSON object of
# `AttentionConfig`'s fields, and `--attention-backend`, whose field defaults to
# `AttentionConfig.backend`, writes that field when given.
BACKEND_ARGS = """
    from dataclasses import dataclass


    @dataclass
    class AttentionConfig:
        backend: str | None = None
        \"\"\"The attention backend to use.\"\"\"


    @dataclass
    class SchedulerConfig:
        max_batch: int = 8
        \"\"\"The most items one batch holds.\"\"\"


    @dataclass
    class EngineArgs:
        attention_config: AttentionConfig | None = None
        attention_backend: str | None = AttentionConfig.backend
        max_batch: int = 8

        def add_cli_args(parser):
            parser.add_argument("--attention-config", type=str)
            parser.add_argument("--attention-backend", type=str)
            parser.add_argument("--max-batch", type=int)
    """


# configuration objects holding free dicts: a dict-valued key of a JSON-valued flag's object
# (`transfer_config.extra_config`) and a flag whose whole value is a dict (tests of dict keys)
DICT_ARGS = """
        from dataclasses import dataclass, field
        from typing import Any


        @dataclass
        class TransferConfig:
            connector: str | None = None
            extra_config: dict[str, Any] = field(default_factory=dict)


        @dataclass
        class LoadConfig:
            loader_extra_config: dict = field(default_factory=dict)


        @dataclass
        class EngineArgs:
            transfer_config: TransferConfig | None = None
            loader_extra_config: dict = LoadConfig.loader_extra_config
            prefill_backend: str | None = None

            @staticmethod
            def add_cli_args(parser):
                parser.add_argument("--transfer-config", type=str)
                parser.add_argument("--loader-extra-config", type=str)
                parser.add_argument("--prefill-backend", type=str)
                return parser
        """


# vllm's envs.py in small: the variables of a communicator (tests of caller guards)
COMM_ENVS = """
    import os
    from typing import TYPE_CHECKING

    if TYPE_CHECKING:
        COMM_USE_SYMM: bool = True
        COMM_DETERMINISTIC: bool = False

    environment_variables = {
        "COMM_USE_SYMM": lambda: bool(int(os.getenv("COMM_USE_SYMM", "1"))),
        "COMM_DETERMINISTIC": lambda: bool(int(os.getenv("COMM_DETERMINISTIC", "0"))),
    }

    def __getattr__(name):
        return environment_variables[name]()
    """


# What vllm's ROCm autotuner calls below the function that returns early unless its setting
# is on (`link.path_gates`): the check two calls down (at the margin: prefix the caller).
TUNED_BELOW = """
def _tune_layer(layer):
    assert layer is not None
    tune(layer.dim)

def tune(dim):
    if dim > 4:
        raise RuntimeError(f"tuning failed for {dim}")
"""


# A model folder the command line names (`--model`), handed by a constructor that raises
# nothing to a part that looks for a subfolder in it: vllm's `MimoAudioEncoder`.
MODEL_FOLDER = {
    "eng/__init__.py": "",
    "eng/args.py": """
        from dataclasses import dataclass


        @dataclass
        class ModelConfig:
            model: str = "org/small-model"
            \"\"\"Name or path of the model to use.\"\"\"


        @dataclass
        class EngineArgs:
            model: str = ModelConfig.model

            @staticmethod
            def add_cli_args(parser):
                parser.add_argument("--model", type=str)
                return parser
        """,
    "eng/encoder.py": """
        import logging
        import os

        logger = logging.getLogger(__name__)


        class AudioEncoder:
            def __init__(self, config, model_path: str = "") -> None:
                self.tokenizer = None
                if model_path:
                    tokenizer_path = os.path.join(model_path, "audio_tokenizer")
                    if os.path.exists(tokenizer_path):
                        self.tokenizer = tokenizer_path
                    else:
                        logger.warning("Audio tokenizer not found at %s", tokenizer_path)
        """,
    "eng/model.py": """
        from eng.encoder import AudioEncoder


        class OmniModel:
            def __init__(self, *, vllm_config, prefix: str = ""):
                audio_config = vllm_config.model_config.hf_config.audio_config
                model_path = vllm_config.model_config.model
                if audio_config is not None:
                    self.audio_encoder = AudioEncoder(audio_config, model_path=model_path)
        """,
}


# vllm's SpeculativeConfig: the vocabularies are checked, for one method, only while a key
# of the flag's JSON object that allows them to differ is off (`link.permissions`);
# `token_map` is another key, of a mode, off by default.
DRAFT_CONFIG = """
    from dataclasses import dataclass


    @dataclass
    class DraftConfig:
        method: str = "eagle"
        \"\"\"The speculative method.\"\"\"
        allow_mixed_vocab: bool = False
        \"\"\"Allow the draft and target models to use different vocabularies.\"\"\"
        token_map: bool = False
        \"\"\"Use a token map between the two vocabularies.\"\"\"

        def __post_init__(self):
            if not self.allow_mixed_vocab:
                self.check_vocab(1, 2)

        def check_vocab(self, target, draft):
            if self.method == "draft" and target != draft:
                raise ValueError("the draft and target vocabularies differ")
    """

DRAFT_ARGS = """
    from dataclasses import dataclass


    @dataclass
    class EngineArgs:
        draft_config: dict | None = None

        @staticmethod
        def add_cli_args(parser):
            parser.add_argument("--draft-config", type=str)
            return parser
    """
