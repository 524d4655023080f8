"""Which package indexes the user's pip is configured with, read from pip's own settings."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import NamedTuple

from errdex.lazy_re import lazy_compile

# pip's default when nothing is configured.
DEFAULT_INDEX_URL = "https://pypi.org/simple/"
_CONFIG_TIMEOUT_SECONDS = 60

# `pip config list` prints `section.key='value'`; env variables come as `:env:.key`.
_LINE = lazy_compile(r"^(?P<section>[^.]*)\.(?P<key>[a-z-]+)=(?P<value>.*)$")
# A command's own section overrides [global], and the environment overrides both, as in pip.
_SECTION_RANK = {"global": 0, "download": 1, "install": 1, ":env:": 2}


class IndexSettings(NamedTuple):
    """The index URLs to ask, in pip's order, and the CA bundle to trust (None: the default)."""

    urls: tuple[str, ...]
    cert: str | None = None
    no_index: bool = False


def _unquote(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value


def _pip_config_lines() -> list[str]:
    """`pip config list` as lines; only the environment's PIP_* variables when pip cannot run.

    pip is asked (rather than its files read here) so that every place it looks, in the
    order it looks, counts the same for errdex as for the user's `pip install`.
    """
    try:
        done = subprocess.run(
            [sys.executable, "-m", "pip", "config", "list"],
            capture_output=True,
            text=True,
            errors="replace",
            stdin=subprocess.DEVNULL,
            timeout=_CONFIG_TIMEOUT_SECONDS,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        done = None
    if done is not None and done.returncode == 0:
        return done.stdout.splitlines()
    return [
        f":env:.{name[4:].lower().replace('_', '-')}={value!r}"
        for name, value in os.environ.items()
        if name.startswith("PIP_")
    ]


def parse_config_lines(lines: list[str]) -> IndexSettings:
    """The index settings in `pip config list` output (later lines win within a rank)."""
    best: dict[str, tuple[int, str]] = {}
    for line in lines:
        match = _LINE.match(line.strip())
        if match is None:
            continue
        rank = _SECTION_RANK.get(match["section"])
        if rank is None:
            continue
        key = match["key"]
        if key not in best or rank >= best[key][0]:
            best[key] = (rank, _unquote(match["value"]))

    def value(key: str) -> str | None:
        return best[key][1] if key in best else None

    index = (value("index-url") or DEFAULT_INDEX_URL).split()
    extra = (value("extra-index-url") or "").split()
    no_index = (value("no-index") or "").lower() in {"1", "true", "yes", "on"}
    urls = tuple(dict.fromkeys(u if u.endswith("/") else u + "/" for u in index[:1] + extra))
    return IndexSettings(urls=urls, cert=value("cert"), no_index=no_index)


def index_settings() -> IndexSettings:
    """The indexes the user's pip would download from."""
    return parse_config_lines(_pip_config_lines())
