"""What every command shares: the consoles, the --db and --json options, and the turning of
errdex's errors into one line on stderr and an exit code."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar, cast

import click

from errdex.errors import ErrdexError
from errdex.render.json import encode_for_terminal
from errdex.render.safe_text import safe_line
from errdex.store import Store, open_store

if TYPE_CHECKING:
    from rich.progress import Progress

    from errdex.render.console import InertConsole

F = TypeVar("F", bound=Callable[..., Any])


class _Console:
    """A console made when first used: rich takes a good part of a command's start-up to
    import, and `lookup --json` draws nothing with it."""

    def __init__(self, *, stderr: bool = False) -> None:
        self._stderr = stderr
        self._made: InertConsole | None = None

    def made(self) -> InertConsole:
        if self._made is None:
            from errdex.render.console import InertConsole

            self._made = InertConsole(stderr=self._stderr)
        return self._made

    def __getattr__(self, name: str) -> Any:
        return getattr(self.made(), name)


out = cast("InertConsole", _Console())
err = cast("InertConsole", _Console(stderr=True))


def fail(message: str, code: int) -> None:
    from errdex.render.terminal import failure_line

    err.print(failure_line(message), soft_wrap=True)
    sys.exit(code)


def plain_note(message: str) -> None:
    """`errdex: message` on standard error as `render.terminal.note_line` draws it, written
    without rich: for commands printing JSON, whose start-up a program waits on."""
    sys.stderr.write(f"errdex: {safe_line(message)}\n")
    sys.stderr.flush()


def handle_errors(func: F) -> F:
    """Turn errdex's own errors, its bugs (any other exception) and Ctrl-C into one line
    on stderr and an exit code; `ERRDEX_DEBUG=1` shows a bug's traceback too."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except ErrdexError as error:
            fail(str(error), error.exit_code)
        except KeyboardInterrupt:  # a write under way is one transaction: all or nothing
            fail("interrupted; whatever was being written was not, what was written stays", 2)
        except BrokenPipeError:
            sys.stderr.close()  # `errdex list | head`: the reader left, nothing to say
        except (click.ClickException, click.exceptions.Exit, click.Abort):
            raise  # a usage error the command found: click says it, with the usage
        except Exception as error:
            from errdex.bugs import bug_line, show_traceback

            show_traceback(error)
            command = click.get_current_context(silent=True)
            what = f"`{command.command_path}`" if command is not None else "the command"
            fail(bug_line(error, what), 2)
        return None

    return wrapper  # type: ignore[return-value]


db_option = click.option(
    "--db",
    "db",
    envvar="ERRDEX_DB",
    metavar="PATH|URL",
    help="The database: a SQLite file path or a postgresql:// URL"
    " (default: $ERRDEX_DB, else a SQLite file in the user data folder).",
)
json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON for programs.")


@contextmanager
def open_db(db: str | None, *, create: bool = False) -> Iterator[Store]:
    """The store at `db`; only a command that writes versions (`create`) makes a new one."""
    store = open_store(db, create=create)
    try:
        yield store
    finally:
        store.close()


def print_json(record: Any) -> None:
    sys.stdout.write(encode_for_terminal(record) + "\n")


def progress_bar(label: str) -> Progress:
    """A progress bar on standard error: the label (rich markup), the bar, done of total,
    time spent; gone once finished."""
    # Imported here: only the commands that index draw one, and it takes a while to import.
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (TextColumn(f"[bold]{label}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    console = err.made() if isinstance(err, _Console) else err  # rich's own, not a stand-in
    return Progress(*columns, console=console, transient=True)
