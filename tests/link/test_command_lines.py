"""The command line behind a setting: console script, subcommand and positionals, found by
following the flag's declaration up its callers (the shape of vllm's CLI)."""

from __future__ import annotations

import textwrap

from errdex.extract import extract_file
from errdex.link import link_version
from errdex.linked_facts import IndexedSite, KnobLink
from errdex.sources.base import EntryPoint
from samples import FLAG_CONFIG_READER

SCRIPTS = (EntryPoint("console_scripts", "eng", "eng.cli.main:main"),)

CLI = {
    "eng/envs.py": """
        import os

        ENG_USE_V2 = os.getenv("ENG_USE_V2", "0") == "1"
        """,
    "eng/config.py": """
        from eng import envs

        class Config:
            def check(self):
                if self.model_config.enforce_eager:
                    raise ValueError("eager mode is not supported here")
                if not envs.ENG_USE_V2:
                    raise ValueError("needs the V2 runner")
        """,
    "eng/args.py": """
        from dataclasses import dataclass

        @dataclass
        class EngineArgs:
            enforce_eager: bool = False

            @staticmethod
            def add_cli_args(parser):
                parser.add_argument("--enforce-eager", action="store_true")
                return parser

        @dataclass
        class AsyncEngineArgs(EngineArgs):
            @staticmethod
            def add_cli_args(parser):
                parser = EngineArgs.add_cli_args(parser)
                parser.add_argument("--log-requests", action="store_true")
                return parser
        """,
    "eng/cli/common.py": """
        from dataclasses import dataclass

        from eng.args import AsyncEngineArgs

        @dataclass
        class FrontendArgs:
            host: str | None = None
            port: int = 8000
            root_path: str | None = None

            @classmethod
            def add_cli_args(cls, parser):
                for name in ("host", "port", "root_path"):
                    parser.add_argument(f"--{name.replace('_', '-')}")
                return parser

        def make_arg_parser(parser):
            parser.add_argument("model_tag", nargs="?")
            parser = FrontendArgs.add_cli_args(parser)
            return AsyncEngineArgs.add_cli_args(parser)
        """,
    "eng/cli/serve.py": """
        from eng.cli.common import make_arg_parser

        class ServeSubcommand:
            name = "serve"

            def subparser_init(self, subparsers):
                serve_parser = subparsers.add_parser(self.name)
                return make_arg_parser(serve_parser)
        """,
    "eng/cli/preload.py": """
        from eng.args import EngineArgs

        class PreloadSubcommand:
            name = "preload"

            def subparser_init(self, subparsers):
                parser = subparsers.add_parser(self.name)
                parser.add_argument("--gpus", type=int)
                return EngineArgs.add_cli_args(parser)
        """,
    "eng/cli/main.py": """
        import argparse

        def main():
            parser = argparse.ArgumentParser(prog="eng")
            parser.add_subparsers()
        """,
}


def link(files: dict[str, str], scripts: tuple[EntryPoint, ...] = SCRIPTS) -> list[IndexedSite]:
    facts = [extract_file(path, textwrap.dedent(text).encode()) for path, text in files.items()]
    return link_version("eng", facts, scripts)


def knobs_by_name(sites: list[IndexedSite], message: str) -> dict[str, str | None]:
    (site,) = [s for s in sites if s.site.message and s.site.message.text == message]
    return {k.name: k.command for k in site.knobs}


def test_a_flag_gets_the_subcommand_reaching_the_most_flags_with_its_positionals() -> None:
    # both subcommands parse --enforce-eager; `serve` reaches more flags (the frontend's
    # fields among them) and takes the model as a positional
    knobs = knobs_by_name(link(CLI), "eager mode is not supported here")
    assert knobs == {"--enforce-eager": "eng serve MODEL_TAG"}


def test_an_environment_variable_is_set_for_the_main_command() -> None:
    knobs = knobs_by_name(link(CLI), "needs the V2 runner")
    assert knobs["ENG_USE_V2"] == "eng serve MODEL_TAG"


# vllm's `preload`: its own class runs the check, after parsing the engine's flags on its
# own line; `eng serve` reaches more flags but never runs `PreloadSubcommand.cmd`.
PRELOAD = """
    from eng import envs
    from eng.args import EngineArgs

    def validate(args):
        if args.enforce_eager:
            raise ValueError("the daemons do not load eagerly")

    def check_config(config):
        if config.enforce_eager:
            raise ValueError("eager mode is not supported here either")

    class PreloadSubcommand:
        name = "preload"

        @staticmethod
        def cmd(args):
            validate(args)
            if args.enforce_eager:
                raise ValueError("the daemon does not load eagerly")
            if args.log_requests:
                raise ValueError("the daemon logs no requests")
            if not envs.ENG_USE_V2:
                raise ValueError("the daemon needs the V2 runner")

        def subparser_init(self, subparsers):
            parser = subparsers.add_parser(self.name)
            parser.add_argument("--gpus", type=int)
            return EngineArgs.add_cli_args(parser)
    """


def test_a_check_in_a_subcommand_s_own_class_gets_that_subcommand_s_line() -> None:
    sites = link({**CLI, "eng/cli/preload.py": PRELOAD})
    assert knobs_by_name(sites, "the daemon does not load eagerly") == {
        "--enforce-eager": "eng preload"
    }
    # a flag no path of the class declares: no line gives it to the check
    assert knobs_by_name(sites, "the daemon logs no requests")["--log-requests"] is None
    # a variable read there is set for that line, not the main command's
    assert knobs_by_name(sites, "the daemon needs the V2 runner")["ENG_USE_V2"] == "eng preload"
    # a function only the class calls: the same line
    assert knobs_by_name(sites, "the daemons do not load eagerly") == {
        "--enforce-eager": "eng preload"
    }
    # elsewhere, or in a function nothing found calls, the main command stays
    assert knobs_by_name(sites, "eager mode is not supported here") == {
        "--enforce-eager": "eng serve MODEL_TAG"
    }
    assert knobs_by_name(sites, "eager mode is not supported here either") == {
        "--enforce-eager": "eng serve MODEL_TAG"
    }


def test_without_console_scripts_there_is_no_command() -> None:
    knobs = knobs_by_name(link(CLI, scripts=()), "eager mode is not supported here")
    assert knobs == {"--enforce-eager": None}


def test_a_script_without_subcommands_is_the_command_of_the_flags_it_parses() -> None:
    files = {
        "tool/config.py": CLI["eng/config.py"].replace("from eng import envs", "envs = None"),
        "tool/main.py": """
            import argparse

            def build_parser():
                parser = argparse.ArgumentParser()
                parser.add_argument("path")
                parser.add_argument("--enforce-eager", action="store_true")
                return parser

            def main():
                parser = build_parser()
                return parser.parse_args()
            """,
    }
    scripts = (EntryPoint("console_scripts", "tool", "tool.main:main"),)
    knobs = knobs_by_name(link(files, scripts), "eager mode is not supported here")
    assert knobs == {"--enforce-eager": "tool PATH"}


# vllm's `snapshot`: its parser adds subcommands of its own, one of which takes every flag
# through a function's own import and adds more; `eng snapshot MODEL_TAG` runs nothing.
SNAPSHOT = """
    class SnapshotSubcommand:
        name = "snapshot"

        def subparser_init(self, subparsers):
            parser = subparsers.add_parser(self.name)
            actions = parser.add_subparsers(required=True)
            create_parser = actions.add_parser("create")
            from eng.cli.common import make_arg_parser

            create_parser = make_arg_parser(create_parser)
            create_parser.add_argument("--snapshot-dir", required=True)
            create_parser.add_argument("--snapshot-name")
            restore_parser = actions.add_parser("restore")
            restore_parser.add_argument("--host", default=None)
            return parser
    """


def test_a_subcommand_with_subcommands_of_its_own_is_not_the_command_line() -> None:
    sites = link({**CLI, "eng/cli/snapshot.py": SNAPSHOT})
    assert knobs_by_name(sites, "eager mode is not supported here") == {
        "--enforce-eager": "eng serve MODEL_TAG"
    }
    assert knobs_by_name(sites, "needs the V2 runner")["ENG_USE_V2"] == "eng serve MODEL_TAG"


# a vendored tool run by itself (`python tool.py benchmark ...`): its `main()` builds its
# own parser, and no console script calls it. Its subcommand is no command of `eng`, even
# when it parses more of the same flags than `serve` does.
VENDORED_TOOL = """
    import argparse

    def main():
        parser = argparse.ArgumentParser(description=__doc__)
        subparsers = parser.add_subparsers(dest="command", required=True)
        bench = subparsers.add_parser("benchmark")
        bench.add_argument("--enforce-eager", action="store_true")
        for flag in ("--paged", "--warmup", "--iters", "--seqlen", "--heads", "--dim"):
            bench.add_argument(flag)
        bench.add_argument("--paged-kv", action="store_true")
        bench.add_argument("--repeats", type=int)
        bench.add_argument("--out")
        bench.add_argument("--dtype")
        bench.add_argument("--seed", type=int)
        return parser.parse_args()

    if __name__ == "__main__":
        main()
    """


def test_a_subcommand_of_a_tool_that_builds_its_own_parser_is_not_the_scripts() -> None:
    sites = link({**CLI, "eng/third_party/tool.py": VENDORED_TOOL})
    assert knobs_by_name(sites, "eager mode is not supported here") == {
        "--enforce-eager": "eng serve MODEL_TAG"
    }


def test_a_script_function_that_builds_its_parser_and_adds_subcommands_keeps_them() -> None:
    files = {
        "tool/config.py": CLI["eng/config.py"].replace("from eng import envs", "envs = None"),
        "tool/main.py": """
            import argparse

            def main():
                parser = argparse.ArgumentParser()
                subparsers = parser.add_subparsers()
                run = subparsers.add_parser("run")
                run.add_argument("--enforce-eager", action="store_true")
                return parser.parse_args()

            def cli():
                return main()
            """,
    }
    for target in ("tool.main:main", "tool.main:cli"):  # the script's function, or called by it
        scripts = (EntryPoint("console_scripts", "tool", target),)
        knobs = knobs_by_name(link(files, scripts), "eager mode is not supported here")
        assert knobs == {"--enforce-eager": "tool run"}


# `--dry-run` of two programs: a subcommand of the console script (`eng tools`), and a
# sweep whose arguments class declares it in its own file and reads it there; the sweep is
# started by no console script this index follows.
SWEEP = """
    from dataclasses import dataclass

    @dataclass
    class SweepArgs:
        dry_run: bool = False

        @classmethod
        def add_cli_args(cls, parser):
            parser.add_argument("--dry-run", action="store_true")
            return parser

        def run(self):
            if not self.dry_run:
                raise ValueError("the sweep would overwrite its results")
    """

TOOLS = """
    class ToolsSubcommand:
        name = "tools"

        def subparser_init(self, subparsers):
            parser = subparsers.add_parser(self.name)
            parser.add_argument("--dry-run", action="store_true")
            return parser
    """


def test_a_flag_the_reading_file_declares_is_that_program_s_not_another_s() -> None:
    # the tools subcommand comes first: its declaration was the one linked before
    files = {**CLI, "eng/cli/tools.py": TOOLS, "eng/sweep.py": SWEEP}
    (site,) = [
        s
        for s in link(files)
        if s.site.message and s.site.message.text.startswith("the sweep would")
    ]
    (knob,) = [k for k in site.knobs if k.name == "--dry-run"]
    assert (knob.file, knob.command) == ("eng/sweep.py", None)
    assert (knob.bare, knob.negated, knob.default) == (True, False, "False")


def _bench_command(word: str, name: str) -> str:
    """A `bench` subcommand's class: its word, and the module function adding its flags."""
    return f"""
        from eng.bench.{word} import add_cli_args
        from eng.cli.bench.base import BenchBase

        class {name}(BenchBase):
            name = "{word}"

            @classmethod
            def add_cli_args(cls, parser):
                add_cli_args(parser)
        """


# vllm's `bench`: the subcommand adds one subcommand per subclass of a base in a loop, each
# named by its class's `name` and handed its parser through `add_cli_args`; one of them
# (`sweep`) adds its own in a loop over a tuple of classes named by `parser_name`.
BENCH = {
    "eng/cli/bench/base.py": """
        class BenchBase:
            name: str

            @classmethod
            def add_cli_args(cls, parser):
                raise NotImplementedError
        """,
    "eng/cli/bench/main.py": """
        from eng.cli.bench.base import BenchBase

        class BenchSubcommand:
            name = "bench"

            def subparser_init(self, subparsers):
                bench_parser = subparsers.add_parser(self.name)
                bench_subparsers = bench_parser.add_subparsers(required=True)
                for cmd_cls in BenchBase.__subclasses__():
                    cmd_subparser = bench_subparsers.add_parser(
                        cmd_cls.name, help=cmd_cls.help
                    )
                    cmd_subparser.set_defaults(dispatch_function=cmd_cls.cmd)
                    cmd_cls.add_cli_args(cmd_subparser)
                return bench_parser
        """,
    "eng/cli/bench/latency.py": _bench_command("latency", "BenchLatency"),
    "eng/bench/latency.py": """
        def add_cli_args(parser):
            parser.add_argument("--num-iters", type=int, default=30)

        def main(args):
            if args.num_iters < 1:
                raise ValueError("needs one iteration or more")
        """,
    "eng/cli/bench/sweep.py": _bench_command("sweep", "BenchSweep"),
    "eng/bench/sweep.py": """
        from typing import ClassVar

        class SweepServeArgs:
            parser_name: ClassVar[str] = "serve"

            @classmethod
            def add_cli_args(cls, parser):
                parser.add_argument("--serve-cmd", type=str, required=True)
                parser.add_argument("--num-runs", type=int, default=1)

        def serve_main(args):
            if args.num_runs < 1:
                raise ValueError("needs one run or more")

        SUBCOMMANDS = (
            (SweepServeArgs, serve_main),
        )

        def add_cli_args(parser):
            subparsers = parser.add_subparsers(required=True)
            for cmd, entrypoint in SUBCOMMANDS:
                cmd_subparser = subparsers.add_parser(cmd.parser_name)
                cmd.add_cli_args(cmd_subparser)
        """,
}


def test_subcommands_a_loop_adds_over_command_classes_compose_their_words() -> None:
    sites = link({**CLI, **BENCH})
    assert knobs_by_name(sites, "needs one iteration or more") == {
        "--num-iters": "eng bench latency"
    }
    # a flag argparse requires of that subcommand is in its line, with the user's value
    assert knobs_by_name(sites, "needs one run or more") == {
        "--num-runs": "eng bench sweep serve --serve-cmd SERVE_CMD"
    }
    # the program's main command is still the one reaching the most flags
    assert knobs_by_name(sites, "needs the V2 runner")["ENG_USE_V2"] == "eng serve MODEL_TAG"


def _engine_bench(word: str, name: str) -> dict[str, str]:
    """A `bench` subcommand parsing the engine's flags, whose class runs its module's
    `main`, and that module."""
    return {
        f"eng/cli/bench/{word}.py": f"""
            from eng.bench.{word} import add_cli_args, main
            from eng.cli.bench.base import BenchBase

            class {name}(BenchBase):
                name = "{word}"

                @classmethod
                def add_cli_args(cls, parser):
                    add_cli_args(parser)

                @staticmethod
                def cmd(args):
                    main(args)
            """,
        f"eng/bench/{word}.py": f"""
            from eng.args import EngineArgs

            def add_cli_args(parser):
                parser.add_argument("--{word}-iters", type=int, default=30)
                EngineArgs.add_cli_args(parser)

            def main(args):
                if args.enforce_eager:
                    raise ValueError("the {word} bench does not run eagerly")
            """,
    }


def test_a_check_only_a_looped_subcommand_s_class_runs_gets_its_line() -> None:
    # the walk up from `--enforce-eager` passes the loop once, for one class only: the
    # other's check still gets its own line
    files = {**CLI, **BENCH, **_engine_bench("latency", "BenchLatency")}
    files.update(_engine_bench("sweep", "BenchSweep"))
    sites = link(files)
    for word in ("latency", "sweep"):
        assert knobs_by_name(sites, f"the {word} bench does not run eagerly") == {
            "--enforce-eager": f"eng bench {word}"
        }


def test_a_nested_subcommand_s_flag_is_not_offered_through_the_config_file() -> None:
    sites = link({**CLI, **BENCH, "eng/utils/argparse_utils.py": FLAG_CONFIG_READER})

    def knob(message: str, name: str) -> KnobLink:
        (site,) = [s for s in sites if s.site.message and s.site.message.text == message]
        return next(k for k in site.knobs if k.name == name)

    assert knob("eager mode is not supported here", "--enforce-eager").config == (
        "--config",
        "yaml",
    )
    nested = knob("needs one iteration or more", "--num-iters")
    assert (nested.command, nested.config) == ("eng bench latency", None)


def test_a_flag_the_message_names_is_the_program_s_whose_file_raises() -> None:
    # both sweeps declare `--resume`; the message of the startup sweep names its own
    startup = """
        from typing import ClassVar

        class SweepStartupArgs:
            parser_name: ClassVar[str] = "startup"

            @classmethod
            def add_cli_args(cls, parser):
                parser.add_argument("--resume", action="store_true")

            def run(self):
                raise RuntimeError("The sweep stopped early. Use `--resume` to continue it.")
        """
    sweep = BENCH["eng/bench/sweep.py"].replace(
        'parser.add_argument("--num-runs", type=int, default=1)',
        'parser.add_argument("--num-runs", type=int, default=1)\n'
        '                parser.add_argument("--resume", action="store_true")',
    )
    sweep = sweep.replace(
        "(SweepServeArgs, serve_main),",
        "(SweepServeArgs, serve_main),\n            (SweepStartupArgs, serve_main),",
    )
    sweep = "from eng.bench.startup import SweepStartupArgs\n" + textwrap.dedent(sweep)
    files = {**CLI, **BENCH, "eng/bench/sweep.py": sweep, "eng/bench/startup.py": startup}
    knobs = knobs_by_name(link(files), "The sweep stopped early. Use `--resume` to continue it.")
    assert knobs["--resume"] == "eng bench sweep startup"


def test_a_check_in_a_class_a_subcommand_s_process_target_builds_gets_its_line() -> None:
    # vllm's weight cache daemon: `PreloadSubcommand.cmd` imports `_run_daemon` itself and
    # hands it to a process (`ctx.Process(target=_run_daemon)`), which builds the daemon;
    # the check in its constructor runs on `eng preload`'s line only
    daemon = """
        class Daemon:
            def __init__(self, config, rank):
                if config.enforce_eager:
                    raise ValueError("the daemon process does not load eagerly")
                self.rank = rank

        def _run_daemon(config, rank):
            daemon = Daemon(config, rank)
            daemon.serve()
        """
    preload = """
        import multiprocessing

        from eng.args import EngineArgs

        class PreloadSubcommand:
            name = "preload"

            @staticmethod
            def cmd(args):
                from eng.daemon import _run_daemon

                ctx = multiprocessing.get_context("spawn")
                proc = ctx.Process(target=_run_daemon, args=(args, 0))
                proc.start()

            def subparser_init(self, subparsers):
                parser = subparsers.add_parser(self.name)
                parser.add_argument("--gpus", type=int)
                return EngineArgs.add_cli_args(parser)
        """
    sites = link({**CLI, "eng/cli/preload.py": preload, "eng/daemon.py": daemon})
    assert knobs_by_name(sites, "the daemon process does not load eagerly") == {
        "--enforce-eager": "eng preload"
    }
