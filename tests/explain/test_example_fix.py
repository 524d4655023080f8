"""The example fix is written the way the user runs the program: the package's own command
(from the console scripts its packaging files declare), the environment variable set for
it, or the Python call with the keyword; never a `<command>` placeholder."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from explain_samples import SERVE_CLI

from errdex.explain import build_page
from errdex.explain.fix_forms import command_fix
from errdex.explain.page import Knob, Page
from errdex.facts import KnobKind
from errdex.indexing import index_source
from errdex.sources import open_source
from errdex.store import Store, open_store
from samples import write_package

ENG = {
    **SERVE_CLI,
    "eng/envs.py": """
        import os
        from typing import TYPE_CHECKING

        if TYPE_CHECKING:
            ENG_USE_V2: bool = False

        environment_variables = {
            "ENG_USE_V2": lambda: bool(int(os.getenv("ENG_USE_V2", "0"))),
        }


        def __getattr__(name):
            return environment_variables[name]()
        """,
    "eng/args.py": """
        import json
        from dataclasses import dataclass


        @dataclass
        class EngineArgs:
            enforce_eager: bool = False
            pipeline_parallel_size: int = 1
            speculative_config: dict | None = None

            @staticmethod
            def add_cli_args(parser):
                parser.add_argument("--enforce-eager", action="store_true")
                parser.add_argument("--pipeline-parallel-size", type=int, default=1)
                parser.add_argument("--speculative-config", type=json.loads)
                return parser
        """,
    "eng/parser.py": """
        import json


        def expand_config(args):
            \"\"\"The flags of the JSON file `--config` names, put in its place.\"\"\"
            if "--config" not in args:
                return args
            index = args.index("--config")
            with open(args[index + 1]) as file:
                config = json.load(file)
            given = []
            for key, value in config.items():
                given += ["--" + key] if value is True else ["--" + key, str(value)]
            return args[:index] + given + args[index + 2 :]
        """,
    "eng/config.py": """
        from eng import envs


        class EngineConfig:
            def check_eager(self):
                if self.model_config.enforce_eager:
                    raise ValueError("tracing does not work in eager mode")

            def check_pipeline(self):
                if self.parallel_config.pipeline_parallel_size > 1:
                    raise ValueError("replay is incompatible with pipeline parallelism")

            def check_runner(self):
                if not envs.ENG_USE_V2:
                    raise ValueError("replay requires the V2 runner")
        """,
}


@pytest.fixture(scope="module")
def eng(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    root: Path = tmp_path_factory.mktemp("eng")
    write_package(root / "src", ENG)
    with open_store(root / "errdex.db") as store:
        index_source(open_source(str(root / "src")), store)
        yield store


def page_of(store: Store, message: str) -> Page:
    (site,) = [
        s
        for s in store.list_sites("eng")
        if s.site.message is not None and s.site.message.text.startswith(message)
    ]
    return build_page(store, site.id)


def fix_of(store: Store, message: str) -> tuple[str, str]:
    fix = page_of(store, message).example_fix
    assert fix is not None
    return fix.before, fix.after


def test_a_switch_is_turned_off_on_the_command_line(eng: Store) -> None:
    assert fix_of(eng, "tracing does not work") == (
        "eng serve MODEL_TAG --enforce-eager",
        "eng serve MODEL_TAG",
    )
    note = page_of(eng, "tracing does not work").example_fix
    assert note is not None and note.note is not None
    assert "`MODEL_TAG` stands for your own value." in note.note


def test_a_bound_is_passed_with_its_value(eng: Store) -> None:
    # the "before" gives a value the path's bound holds (`> 1`), so that it fails
    assert fix_of(eng, "replay is incompatible") == (
        "eng serve MODEL_TAG --pipeline-parallel-size 2",
        "eng serve MODEL_TAG --pipeline-parallel-size 1",
    )


def test_a_field_of_a_json_valued_flag_is_quoted_for_the_shell() -> None:
    knob = Knob(
        name="--speculative-config",
        kind=KnobKind.FLAG,
        behind="self.speculative_config",
        value_type="dict | None",
        command="eng serve MODEL_TAG",
    )
    fix = command_fix(knob, repr({"method": "eagle"}), "note.")
    assert fix is not None
    assert fix.after == """eng serve MODEL_TAG --speculative-config '{"method": "eagle"}'"""
    assert fix.before == """eng serve MODEL_TAG --speculative-config '{"method": "VALUE"}'"""


def test_a_config_file_of_flags_takes_the_setting_too(eng: Store, tmp_path: Path) -> None:
    """The program reads its flags from the JSON file `--config` names: the fix says the
    same setting as a line of that file, and the program's own code accepts it (run in a
    subprocess of its own)."""
    fix = page_of(eng, "replay is incompatible").example_fix
    assert fix is not None
    assert fix.config is not None
    assert fix.config == (
        '# config.json\n{"pipeline-parallel-size": 1}\n\neng serve MODEL_TAG --config config.json'
    )
    # a setting turned off by leaving its flag out has no line in the file to write
    off = page_of(eng, "tracing does not work").example_fix
    assert off is not None and off.config is None
    (tmp_path / "config.json").write_text(fix.config.split("\n")[1])
    assert "pipeline_parallel_size=1" in parsed(tmp_path, fix.config.split("\n")[-1])


def test_an_environment_variable_is_set_for_the_command(eng: Store) -> None:
    assert fix_of(eng, "replay requires the V2 runner") == (
        "ENG_USE_V2=0 eng serve MODEL_TAG",
        "ENG_USE_V2=1 eng serve MODEL_TAG",
    )


def test_the_command_line_after_the_fix_parses(eng: Store, tmp_path: Path) -> None:
    """What the page says to run is accepted by the program's own parser: the example's
    parser is built from the same sample source, here in a subprocess of its own (the
    indexed code itself is never run by errdex)."""
    _, after = fix_of(eng, "tracing does not work")
    out = parsed(tmp_path, after)
    assert "model_tag='my-model'" in out and "enforce_eager=False" in out


def parsed(folder: Path, line: str) -> str:
    """What the sample's own parser makes of a command line (its config file read as the
    sample reads it), run in a subprocess of its own: errdex never runs indexed code."""
    write_package(folder, {k: v for k, v in ENG.items() if k.startswith("eng/")})
    words = line.replace("MODEL_TAG", "my-model").split()[1:]
    script = (
        "import argparse, sys\n"
        "from eng.cli import ServeSubcommand\n"
        "from eng.parser import expand_config\n"
        "parser = argparse.ArgumentParser()\n"
        "ServeSubcommand().subparser_init(parser.add_subparsers(dest='cmd'))\n"
        "print(parser.parse_args(expand_config(sys.argv[1:])))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, *words],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout
