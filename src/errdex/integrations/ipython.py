"""The IPython and Jupyter extension: `%load_ext errdex` shows the matched error's summary
under a cell's traceback (`%unload_ext errdex` takes it away).

IPython's own traceback is printed first, as it would be; errdex's summary follows it in
the cell's output.
"""

from __future__ import annotations

import os
from types import TracebackType
from typing import Any


def _show_with_summary(
    shell: Any,
    kind: type[BaseException],
    error: BaseException,
    tb: TracebackType | None,
    tb_offset: int | None = None,
) -> None:
    shell.showtraceback((kind, error, tb), tb_offset=tb_offset)
    from errdex.hook import explain_exception

    text = explain_exception(error, os.environ.get("ERRDEX_DB") or None)
    if text is not None:
        print(text.plain)


def load(shell: Any) -> None:
    shell.set_custom_exc((Exception,), _show_with_summary)


def unload(shell: Any) -> None:
    shell.set_custom_exc((), None)
