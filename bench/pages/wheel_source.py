"""The Python files of a wheel, as the cost scripts of this folder read them."""

from __future__ import annotations

import ast
import time
import warnings
import zipfile

from errdex.extract import extract_file
from errdex.facts import FileFacts


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


def extracted(wheel: str) -> list[FileFacts]:
    """The facts of every Python file of the wheel, extracted in this process as indexing
    does (no facts cache), with the time it took printed for scale."""
    members = python_files(wheel)
    start = time.perf_counter()
    files = [extract_file(n, data) for n, data in members.items()]
    print(f"{len(files)} files extracted in {time.perf_counter() - start:.1f} s (for scale)")
    return files
