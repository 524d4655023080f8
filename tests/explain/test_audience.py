"""A command-line framework's usage error: the way out of whoever ran the program (their
command line) comes first, the author's ways out through the code are said to be theirs."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package

from errdex.explain import build_page
from errdex.explain.page import Page
from errdex.store import Store

FILES = {
    "cli/__init__.py": "",
    "cli/exceptions.py": """
        class ClickException(Exception):
            pass


        class UsageError(ClickException):
            pass


        class MissingParameter(UsageError):
            pass
        """,
    "cli/core.py": """
        from cli.exceptions import ClickException, MissingParameter


        class Parameter:
            def __init__(self, name, required=False):
                self.name = name
                self.required = required

            def process_value(self, value):
                if self.required and value is None:
                    raise MissingParameter(f"Missing parameter: {self.name}")
                return value

            def parse(self, args):
                try:
                    return self.process_value(args)
                except MissingParameter:
                    if self.name != "quiet":
                        raise
                    return None

            def parse_any(self, args):
                try:
                    return self.process_value(args)
                except Exception:
                    if self.name != "quiet":
                        raise
                    return None

            def convert(self, value):
                if not isinstance(value, str):
                    raise ClickException(f"Cannot convert {value!r}")
                return value
        """,
    "cli/flags.py": """
        import argparse
        import sys


        class ArgumentTypeError(Exception):
            pass


        def port(value):
            if not value.isdigit():
                raise argparse.ArgumentTypeError(f"Port must be an integer, not {value}")
            return int(value)


        def main(argv):
            parser = argparse.ArgumentParser()
            parser.add_argument("--port", type=port)
            args = parser.parse_args(argv)
            if args.port is None and not argv:
                parser.error("Pass a port, or a config file that names one.")
            return args


        def connect(url):
            if not isinstance(url, str):
                raise ArgumentTypeError(f"Not a database URL: {url}")
            return url
        """,
}


@pytest.fixture(scope="module")
def cli(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("cli"), "cli", FILES)


def page_of(store: Store, function: str) -> Page:
    (site,) = [s for s in store.list_sites("cli") if s.site.function == function]
    return build_page(store, site.id)


def test_a_usage_error_speaks_to_whoever_ran_the_command_then_to_its_author(cli: Store) -> None:
    texts = [s.text for s in page_of(cli, "Parameter.process_value").solutions]
    assert texts[0] == (
        "If you ran a command and it printed this: change your command line as the message "
        "says (“Missing parameter: NAME”); the command's `--help` lists the options "
        "and arguments it takes and how many values each wants."
    )
    assert texts[1].startswith("If you wrote the command: pass ")
    assert "`required`" in texts[1]


def test_an_error_that_is_no_usage_error_keeps_its_solutions_as_they_are(cli: Store) -> None:
    texts = [s.text for s in page_of(cli, "Parameter.convert").solutions]
    assert texts and not any(t.startswith("If you") for t in texts)


def test_a_usage_error_caught_by_its_class_and_raised_again_is_the_command_lines(
    cli: Store,
) -> None:
    # `except MissingParameter:` ... `raise`: what was typed is still what went wrong
    texts = [s.text for s in page_of(cli, "Parameter.parse").solutions]
    assert texts and texts[0].startswith("If you ran a command and it printed this: ")


def test_a_bare_raise_of_whatever_a_broad_handler_caught_is_no_command_line(
    cli: Store,
) -> None:
    texts = [s.text for s in page_of(cli, "Parameter.parse_any").solutions]
    assert not any(t.startswith("If you ran a command") for t in texts)


def test_argparse_errors_are_usage_errors_of_whoever_ran_the_command(cli: Store) -> None:
    for function in ("port", "main"):
        texts = [s.text for s in page_of(cli, function).solutions]
        assert texts and texts[0].startswith("If you ran a command and it printed this: ")


def test_an_argument_error_of_another_package_is_no_usage_error(cli: Store) -> None:
    texts = [s.text for s in page_of(cli, "connect").solutions]
    assert texts and not any(t.startswith("If you") for t in texts)


TOOL = {
    "tool/__init__.py": "",
    "tool/main.py": """
        import json

        import click


        def validate_json(ctx, param, value):
            if value is None:
                return None
            try:
                return json.loads(value)
            except json.JSONDecodeError:
                raise click.BadParameter("Not valid JSON")


        def validate_name(ctx, param, value):
            if not value.isidentifier():
                raise click.exceptions.UsageError(f"Not a name: {value}")
            return value


        @click.command()
        @click.option("--json", "-j", "json", type=str, callback=validate_json)
        @click.argument("name", callback=validate_name)
        def main(json, name):
            print(json, name)
        """,
}


@pytest.fixture(scope="module")
def tool(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("tool"), "tool", TOOL)


def test_a_click_error_raised_in_another_packages_callback_names_the_option(
    tool: Store,
) -> None:
    (site,) = [s for s in tool.list_sites("tool") if s.site.function == "validate_json"]
    texts = [s.text for s in build_page(tool, site.id).solutions]
    assert texts == [
        "Give `--json` a value it accepts on your command line (“Not valid JSON”), or leave "
        "`--json` out: the program checks that value in `validate_json`, the callback of "
        "`--json`."
    ]  # and no "pass None for `value`": only click calls the callback


def test_a_required_argument_checked_by_its_callback_is_not_to_be_left_out(tool: Store) -> None:
    (site,) = [s for s in tool.list_sites("tool") if s.site.function == "validate_name"]
    texts = [s.text for s in build_page(tool, site.id).solutions]
    assert texts[0].startswith("Give `NAME` a value it accepts on your command line (“Not a")
    assert "leave" not in texts[0]
