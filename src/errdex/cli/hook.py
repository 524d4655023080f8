"""`errdex hook` and `errdex run`: errdex's summary under uncaught tracebacks."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from errdex.cli.output import db_option, fail


@click.group()
def hook() -> None:
    """Turn errdex's summary under uncaught tracebacks on or off for this whole Python
    environment (every program it runs), without changing any code."""


@hook.command("enable")
def hook_enable() -> None:
    """Write a .pth file into this environment's site-packages that installs the hook at
    every start of Python (lazily: nothing is imported until an exception is uncaught).
    ERRDEX_HOOK=0 turns it off for one run; ERRDEX_DB names the database."""
    from errdex.integrations.startup import enable

    try:
        path = enable()
    except OSError as error:
        fail(f"cannot write the hook's .pth file: {error}", 2)
    else:
        sys.stdout.write(f"errdex hook enabled: {path}\n")


@hook.command("disable")
def hook_disable() -> None:
    """Remove the .pth file `errdex hook enable` wrote."""
    from errdex.integrations.startup import disable

    try:
        path = disable()
    except OSError as error:
        fail(f"cannot remove the hook's .pth file: {error}", 2)
    else:
        sys.stdout.write(f"errdex hook disabled: {path}\n" if path else "errdex hook was off\n")


@click.command(context_settings={"ignore_unknown_options": True, "allow_interspersed_args": False})
@click.argument("script", type=click.Path(exists=True, dir_okay=False))
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
@db_option
def run(script: str, args: tuple[str, ...], db: str | None) -> None:
    """Run a Python SCRIPT; if it dies of an uncaught exception, show where that was raised."""
    import runpy

    from errdex.hook import install

    install(db)
    sys.argv = [script, *args]
    try:
        runpy.run_path(str(Path(script).resolve()), run_name="__main__")
    except (SystemExit, KeyboardInterrupt):
        raise
    except BaseException as error:  # outside click's handling, as Python itself would
        tb = error.__traceback__
        target = str(Path(script).resolve())
        while tb is not None and tb.tb_frame.f_code.co_filename != target:
            tb = tb.tb_next  # drop errdex's and runpy's own frames
        # None when the script never ran (it does not compile): no frame is the user's
        error.__traceback__ = tb
        sys.excepthook(type(error), error, error.__traceback__)
        sys.exit(1)
