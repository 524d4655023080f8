"""`errdex mcp`, driven by the MCP SDK's own client: it starts the server over stdio, lists
its tools and calls each, and each answer is the JSON its command prints with `--json`."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from integration_samples import isolated_env

from samples import write_package

mcp = pytest.importorskip("mcp")

SHOP = {
    "shop/cart.py": """\
        def add(item, count):
            if count < 1:
                raise ValueError(f"count must be at least 1, got {count}")
        """,
}


def shop(root: Path, version: str, extra: str = "") -> Path:
    folder = root / f"shop-{version}"
    files = {**SHOP, "pyproject.toml": f'[project]\nname = "shop"\nversion = "{version}"\n'}
    if extra:
        files["shop/extra.py"] = extra
    return write_package(folder, files)


async def session(
    tmp_path: Path, calls: list[tuple[str, dict[str, Any]]]
) -> tuple[set[str], list[Any]]:
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    server = StdioServerParameters(
        command=sys.executable, args=["-m", "errdex", "mcp"], env=isolated_env(tmp_path)
    )
    async with Client(server) as client:
        tools = {tool.name for tool in (await client.list_tools()).tools}
        results = [await client.call_tool(name, arguments) for name, arguments in calls]
    return tools, results


def text_of(result: Any) -> str:
    assert not result.is_error, result.content
    return str(result.content[0].text)


def cli_json(tmp_path: Path, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "errdex", *args, "--json"],
        env=isolated_env(tmp_path),
        capture_output=True,
        text=True,
    )
    return done.stdout.rstrip("\n")


def test_a_client_lists_the_tools_and_calls_each(tmp_path: Path) -> None:
    old = shop(tmp_path, "1.0")
    new = shop(tmp_path, "1.1", "def pay():\n    raise RuntimeError('card declined')\n")
    paste = "Traceback (most recent call last):\nValueError: count must be at least 1, got 0"
    tools, results = asyncio.run(
        session(
            tmp_path,
            [
                ("index", {"source": str(old)}),
                ("index", {"source": str(new)}),
                ("lookup", {"text": paste}),
                ("list", {"project": "shop", "version": "1.1"}),
                ("diff", {"project": "shop", "old": "1.0", "new": "1.1"}),
                ("lookup", {"text": "nothing like this was ever raised anywhere"}),
                ("show", {"id": "0000000000000000"}),
            ],
        )
    )
    assert tools == {"lookup", "show", "list", "diff", "index"}
    indexed = json.loads(text_of(results[0]))
    assert indexed[0]["project"] == "shop" and indexed[0]["sites"] == 1

    lookup = text_of(results[2])
    best = json.loads(lookup)["matches"][0]
    assert best["file"] == "shop/cart.py"
    # The same JSON as the command line prints.
    assert lookup == cli_json(tmp_path, "lookup", paste)
    assert text_of(results[3]) == cli_json(
        tmp_path, "list", "--project", "shop", "--version", "1.1"
    )
    diff = json.loads(text_of(results[4]))
    assert diff["counts"]["added"] == 1

    (show,) = asyncio.run(session(tmp_path, [("show", {"id": best["id"]})]))[1]
    assert text_of(show) == cli_json(tmp_path, "show", best["id"])
    assert json.loads(text_of(show))["id"] == best["id"]

    # errdex's own errors come back as tool errors with the one-line message.
    assert json.loads(text_of(results[5]))["matches"] == []
    assert results[6].is_error
    assert "0000000000000000" in results[6].content[0].text
