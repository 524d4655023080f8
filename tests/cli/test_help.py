"""`errdex --help` lists every command with its summary, read without importing each one."""

from __future__ import annotations

import importlib
import subprocess
import sys

import click
import pytest

from errdex.cli import _COMMANDS


@pytest.mark.parametrize("name", sorted(_COMMANDS))
def test_each_listed_summary_is_its_commands_own_help(name: str) -> None:
    module, attribute, summary = _COMMANDS[name]
    command = getattr(importlib.import_module(module), attribute)
    listed = click.Command(name, help=summary)
    for limit in (30, 60, 10_000):
        assert listed.get_short_help_str(limit) == command.get_short_help_str(limit)


def test_help_lists_every_command_without_importing_them() -> None:
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "errdex", "--help"],
        capture_output=True,
        text=True,
        check=True,
    )
    listed = done.stdout.split("Commands:")[1].split()
    assert all(name in listed for name in _COMMANDS)
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines()}
    assert not {module for module in imported if module.startswith("errdex.cli.")}
