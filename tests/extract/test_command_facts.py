"""How a file builds a command line: subcommands, positionals, and where flags are declared."""

from __future__ import annotations

import textwrap

from errdex.extract import extract_file
from errdex.facts import FileFacts, FlagFact, SubcommandFact


def facts_of(text: str, path: str = "demo/cli.py") -> FileFacts:
    return extract_file(path, textwrap.dedent(text).encode())


def test_a_subcommand_named_by_a_literal_or_by_its_class_name_attribute() -> None:
    facts = facts_of("""
        class Serve(Subcommand):
            name = "serve"

            def subparser_init(self, subparsers):
                parser = subparsers.add_parser(self.name, help="Serve a model.")
                return make_arg_parser(parser)

        def add_tools(subparsers):
            tools = subparsers.add_parser("tools")
            tools.add_argument("--verbose", action="store_true")
        """)
    assert facts.subcommands == (
        SubcommandFact(name="serve", line=6, function="Serve.subparser_init"),
        SubcommandFact(name="tools", line=10, function="add_tools"),
    )


def test_a_subcommand_added_to_a_parser_its_function_builds_is_marked() -> None:
    facts = facts_of("""
        import argparse

        def main():
            parser = argparse.ArgumentParser(description=__doc__)
            subparsers = parser.add_subparsers(dest="command")
            bench = subparsers.add_parser("benchmark")

        def add_tools(subparsers):
            tools = subparsers.add_parser("tools")
        """)
    assert facts.subcommands == (
        SubcommandFact(name="benchmark", line=7, function="main", own_parser=True),
        SubcommandFact(name="tools", line=10, function="add_tools"),
    )


def test_positionals_flags_and_the_functions_declaring_them() -> None:
    facts = facts_of("""
        def make_arg_parser(parser):
            parser.add_argument("model_tag", type=str, nargs="?")
            parser.add_argument("source")
            parser.add_argument("--config", required=True)
            parser.add_argument("-q", "--quiet", action="store_true")
            return parser
        """)
    assert facts.positionals == (
        FlagFact(flag="model_tag", line=3, function="make_arg_parser", required=False),
        FlagFact(flag="source", line=4, function="make_arg_parser", required=True),
    )
    assert facts.flags == (
        FlagFact(flag="--config", line=5, function="make_arg_parser", required=True),
        FlagFact(
            flag="--quiet",
            line=6,
            function="make_arg_parser",
            required=False,
            bare=True,
            default="False",
        ),
    )


def test_a_method_adding_flags_of_computed_names_is_noted() -> None:
    facts = facts_of("""
        from dataclasses import dataclass

        @dataclass
        class FrontendArgs:
            host: str | None = None
            port: int = 8000

            @classmethod
            def add_cli_args(cls, parser):
                for name, kwargs in get_kwargs(cls).items():
                    parser.add_argument(f"--{name.replace('_', '-')}", **kwargs)
                return parser
        """)
    assert facts.computed_flags == ("FrontendArgs.add_cli_args",)
    assert facts.flags == ()


def test_a_file_without_argparse_has_none() -> None:
    facts = facts_of("""
        def f(x):
            if x:
                raise ValueError("bad")
        """)
    assert (facts.subcommands, facts.positionals, facts.computed_flags) == ((), (), ())


def test_subcommands_a_loop_adds_over_command_classes() -> None:
    facts = facts_of("""
        from typing import ClassVar

        class ServeArgs:
            parser_name: ClassVar[str] = "serve"
            label = "not a command"

            @classmethod
            def add_cli_args(cls, parser):
                parser.add_argument("--port")

        SUBCOMMANDS = (
            (ServeArgs, serve_main),
            (plot.PlotArgs, plot_main),
        )

        def add_sweeps(parser):
            subparsers = parser.add_subparsers()
            for cmd, entrypoint in SUBCOMMANDS:
                cmd_subparser = subparsers.add_parser(cmd.parser_name, help=cmd.help)
                cmd.add_cli_args(cmd_subparser)

        class Bench:
            def subparser_init(self, subparsers):
                for cmd_cls in BenchBase.__subclasses__():
                    sub = subparsers.add_parser(cmd_cls.name)
                    cmd_cls.add_cli_args(sub)
        """)
    assert facts.subcommands == (
        SubcommandFact(
            name="",
            line=20,
            function="add_sweeps",
            attr="parser_name",
            method="add_cli_args",
            classes=("ServeArgs", "PlotArgs"),
        ),
        SubcommandFact(
            name="",
            line=26,
            function="Bench.subparser_init",
            attr="name",
            method="add_cli_args",
            base="BenchBase",
        ),
    )
    (serve,) = [c for c in facts.classes if c.name == "ServeArgs"]
    assert serve.names == {"parser_name": "serve"}


def test_a_flag_is_required_by_its_own_call_not_a_later_one() -> None:
    facts = facts_of("""
        def add_cli_args(parser):
            parser.add_argument("--serve-cmd", type=str, required=True)
            parser.add_argument("--num-runs", type=int, default=1)
            subparsers = parser.add_subparsers(required=True)
        """)
    assert {f.flag: f.required for f in facts.flags} == {"--serve-cmd": True, "--num-runs": False}


def test_a_positional_is_optional_by_its_own_call_not_a_later_one() -> None:
    facts = facts_of("""
        def add_cli_args(parser):
            parser.add_argument("model_tag", type=str)
            add_dataset_args(parser, nargs="?")
            parser.add_argument("revision", nargs="?")
        """)
    assert {f.flag: f.required for f in facts.positionals} == {
        "model_tag": True,
        "revision": False,
    }


def test_an_add_argument_call_is_one_whose_name_starts_a_word() -> None:
    facts = facts_of("""
        def add_cli_args(parser):
            parser.readd_argument("other")
            parser.add_argument("model_tag")
            parser.extra_add_argument(f"--{name}")
        """)
    assert [f.flag for f in facts.positionals] == ["model_tag"]
    assert facts.computed_flags == ()


def test_a_function_handed_a_process_or_thread_as_its_target_is_noted() -> None:
    # vllm's `preload`: the daemon's entry is the target of a process, never called here
    facts = facts_of("""
        import multiprocessing

        from demo.workers import warm

        def _helper(x):
            return x

        class Preload:
            @staticmethod
            def cmd(args):
                from demo.daemon import _run_daemon

                ctx = multiprocessing.get_context("spawn")
                proc = ctx.Process(
                    target=_run_daemon,
                    args=(args, 0),
                )
                threading.Thread(daemon=True, target=warm).start()
                self.target = _helper
                return _helper(args)

        RUN = ctx.Process(target=_helper)
        """)
    # a call (`_helper(args)`) is not a handing, nor an assignment, nor one at the
    # module's top level
    assert facts.handed == {"Preload.cmd": ("_run_daemon", "warm")}
