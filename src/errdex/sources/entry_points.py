"""The console scripts a version installs, read from its packaging files as text.

A page's example fix is written the way the user runs the program (`vllm serve MODEL
--enforce-eager`), so the index keeps the commands a distribution installs: the
`console_scripts` and `gui_scripts` of a wheel's or an installed copy's
`entry_points.txt`, `[project.scripts]` (and Poetry's `[tool.poetry.scripts]`) of
`pyproject.toml`, `[options.entry_points]` of `setup.cfg`, and the `entry_points=` literal
of a `setup.py`, parsed and never run.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable

from errdex.lazy_re import lazy_compile
from errdex.sources.base import EntryPoint

SCRIPT_GROUPS = ("console_scripts", "gui_scripts")
_PYPROJECT_TABLES = {"scripts": "console_scripts", "gui-scripts": "gui_scripts"}
# `name = package.module:function [extra]`: what `importlib.metadata` accepts as a value.
_TARGET = lazy_compile(r"^[A-Za-z_][\w.]*(?::[A-Za-z_][\w.]*)?$")
_NAME = lazy_compile(r"^[A-Za-z0-9][\w.+-]{0,100}$")
_MAX_ENTRY_POINTS = 200


def entry_points_txt(data: bytes) -> tuple[EntryPoint, ...]:
    """The scripts of an `entry_points.txt` (an INI file of groups)."""
    import configparser  # imported here: start-up of lookup (only a file to parse needs it)

    parser = configparser.ConfigParser(interpolation=None, delimiters=("=",))
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # names keep their case
    try:
        parser.read_string(data.decode("utf-8"))
    except (UnicodeDecodeError, configparser.Error):
        return ()
    found: list[tuple[str, str, object]] = []
    for group in SCRIPT_GROUPS:
        if parser.has_section(group):
            found.extend((group, name, value) for name, value in parser.items(group))
    return _clean(found)


def pyproject_scripts(data: bytes) -> tuple[EntryPoint, ...]:
    """`[project.scripts]`, `[project.gui-scripts]` and `[tool.poetry.scripts]`."""
    import tomllib  # here: what is installed, or a wheel, has no pyproject.toml to parse

    try:
        doc = tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        return ()
    found: list[tuple[str, str, object]] = []
    project = doc.get("project")
    if isinstance(project, dict):
        for table, group in _PYPROJECT_TABLES.items():
            scripts = project.get(table)
            if isinstance(scripts, dict):
                found.extend((group, str(k), v) for k, v in scripts.items())
    tool = doc.get("tool")
    poetry = tool.get("poetry") if isinstance(tool, dict) else None
    scripts = poetry.get("scripts") if isinstance(poetry, dict) else None
    if isinstance(scripts, dict):
        for name, value in scripts.items():
            # Poetry also takes `{reference = "...", type = "console"}`
            if isinstance(value, dict):
                value = (
                    value.get("reference") if value.get("type", "console") == "console" else None
                )
            found.append(("console_scripts", str(name), value))
    return _clean(found)


def setup_cfg_scripts(data: bytes) -> tuple[EntryPoint, ...]:
    """`[options.entry_points]`: each group holds `name = target` lines."""
    import configparser  # imported here: start-up of lookup (only a file to parse needs it)

    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(data.decode("utf-8"))
    except (UnicodeDecodeError, configparser.Error):
        return ()
    if not parser.has_section("options.entry_points"):
        return ()
    found = []
    for group in SCRIPT_GROUPS:
        lines = parser.get("options.entry_points", group, fallback="")
        found.extend(_ini_lines(group, lines.splitlines()))
    return _clean(found)


def setup_py_scripts(data: bytes) -> tuple[EntryPoint, ...]:
    """The `entry_points=` of a `setup(...)` call, when it is a literal (or a module-level
    name bound to one): a dict of groups, each a list of `"name = target"` strings or an
    INI text. The file is parsed, never run."""
    try:
        tree = ast.parse(data)
    except (SyntaxError, ValueError, RecursionError):
        return ()
    literals: dict[str, ast.expr] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name):
                literals[target.id] = node.value
    found: list[tuple[str, str, object]] = []
    for call in ast.walk(tree):
        if not isinstance(call, ast.Call) or _called(call.func) != "setup":
            continue
        for keyword in call.keywords:
            if keyword.arg != "entry_points":
                continue
            value = keyword.value
            if isinstance(value, ast.Name):
                value = literals.get(value.id, value)
            found.extend(_setup_groups(value))
    return _clean(found)


def tree_entry_points(read: Callable[[str], bytes | None]) -> tuple[EntryPoint, ...]:
    """A source tree's scripts, from the first of its packaging files that declares any."""
    readers = (
        ("pyproject.toml", pyproject_scripts),
        ("setup.cfg", setup_cfg_scripts),
        ("setup.py", setup_py_scripts),
    )
    for name, parse in readers:
        data = read(name)
        found = parse(data) if data is not None else ()
        if found:
            return found
    return ()


def _called(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _setup_groups(value: ast.expr) -> list[tuple[str, str, object]]:
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        return [(e.group, e.name, e.target) for e in entry_points_txt(value.value.encode())]
    if not isinstance(value, ast.Dict):
        return []
    found: list[tuple[str, str, object]] = []
    for key, items in zip(value.keys, value.values, strict=True):
        if not (isinstance(key, ast.Constant) and key.value in SCRIPT_GROUPS):
            continue
        try:
            literal = ast.literal_eval(items)
        except (ValueError, TypeError, SyntaxError, RecursionError):
            continue
        lines = literal.splitlines() if isinstance(literal, str) else literal
        if isinstance(lines, list | tuple):
            found.extend(_ini_lines(str(key.value), [x for x in lines if isinstance(x, str)]))
    return found


def _ini_lines(group: str, lines: Iterable[str]) -> list[tuple[str, str, object]]:
    found: list[tuple[str, str, object]] = []
    for line in lines:
        name, sep, target = line.partition("=")
        if sep:
            found.append((group, name.strip(), target))
    return found


def _clean(found: Iterable[tuple[str, str, object]]) -> tuple[EntryPoint, ...]:
    """Well-formed entries only, once each, at most a few hundred."""
    out: dict[tuple[str, str], EntryPoint] = {}
    for group, name, value in found:
        if not isinstance(value, str):
            continue
        target = value.split("[", 1)[0].strip()  # `mod:func [extra]`: the extra is no part
        name = name.strip()
        if _NAME.match(name) and _TARGET.match(target) and (group, name) not in out:
            out[(group, name)] = EntryPoint(group=group, name=name, target=target)
        if len(out) >= _MAX_ENTRY_POINTS:
            break
    return tuple(out.values())
