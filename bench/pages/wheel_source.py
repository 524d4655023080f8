"""The Python files of a wheel, as the cost scripts of this folder read them."""

from __future__ import annotations

import ast
import warnings
import zipfile


def python_files(wheel: str) -> dict[str, bytes]:
    """Each `.py` member of the wheel by its path inside it."""
    with zipfile.ZipFile(wheel) as archive:
        return {n: archive.read(n) for n in archive.namelist() if n.endswith(".py")}


def python_texts(wheel: str) -> list[str]:
    """The text of each `.py` member, undecodable bytes replaced."""
    return [data.decode("utf-8", "replace") for data in python_files(wheel).values()]


def parse_quietly(text: str) -> ast.Module | None:
    """The tree of `text`, without its syntax warnings; None when it does not parse."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ast.parse(text)
    except (SyntaxError, ValueError):
        return None
