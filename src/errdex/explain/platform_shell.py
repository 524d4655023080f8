"""Example fixes in the shell of the platform the site's path runs on.

An environment variable's fix is written for a POSIX shell (`export X=1`, `X=1 cmd`). A
site whose path holds a test of Windows (`if WINDOWS:` with `WINDOWS = platform.system() ==
"Windows"`, `sys.platform == "win32"`, `sys.platform.startswith("win")`, `os.name ==
"nt"`) is met only on Windows, where no POSIX shell reads those lines: its fixes are
written for PowerShell (`$env:X = "1"`), with the cmd.exe line in the note. A name is
known as a test of Windows when the site's file binds it at its top level (or the index
holds its value); one imported from another file is not followed.
"""

from __future__ import annotations

import ast
import re
import shlex

import msgspec

from errdex.explain.context import Facts
from errdex.explain.page import ExampleFix, Solution
from errdex.extract.conditions import dotted_name
from errdex.link.expression_texts import parse_expression

__all__ = ["on_windows_only", "powershell_form", "windows_fixes"]

# What names the operating system, and the value that is Windows.
_WINDOWS_VALUES = {"sys.platform": "win32", "os.name": "nt", "platform.system()": "Windows"}
_EXPORT = re.compile(r"export ([A-Za-z_][A-Za-z0-9_]*)=(.*)")
_UNSET = re.compile(r"unset ([A-Za-z_][A-Za-z0-9_]*)")
_PREFIXED = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)=(\S*) (.+)")
_ENV_U = re.compile(r"env -u ([A-Za-z_][A-Za-z0-9_]*) (.+)")


def on_windows_only(facts: Facts) -> bool:
    """Whether a test on the site's path holds only on Windows."""
    key = "on_windows_only"
    if key not in facts.memo:
        facts.memo[key] = any(
            _windows(node, facts, 0) is condition.holds
            for condition in facts.conditions
            if (node := parse_expression(condition.test)) is not None
        )
    return bool(facts.memo[key])


def _windows(node: ast.expr, facts: Facts, depth: int) -> bool | None:
    """True when the test holds exactly on Windows, False when exactly elsewhere, else None."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        inner = _windows(node.operand, facts, depth)
        return None if inner is None else not inner
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        left, right, op = node.left, node.comparators[0], node.ops[0]
        if isinstance(left, ast.Constant):
            left, right = right, left
        wanted = _WINDOWS_VALUES.get(ast.unparse(left))
        if wanted is None or not isinstance(right, ast.Constant):
            return None
        if isinstance(op, ast.Eq | ast.NotEq) and right.value == wanted:
            return isinstance(op, ast.Eq)
        return None  # another platform's name: not all but Windows
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        # `sys.platform.startswith("win")`
        if (
            node.func.attr == "startswith"
            and ast.unparse(node.func.value) == "sys.platform"
            and len(node.args) == 1
            and isinstance(node.args[0], ast.Constant)
            and node.args[0].value == "win"
        ):
            return True
        return None
    name = dotted_name(node)
    if name is not None and "." not in name and depth == 0:
        value = _bound(name, facts)
        return _windows(value, facts, depth + 1) if value is not None else None
    return None


def _bound(name: str, facts: Facts) -> ast.expr | None:
    """The expression a module-level name of the site's file is bound to."""
    for binding in facts.bindings:
        if binding.name == name and binding.origin == "constant":
            return parse_expression(binding.value)
    if facts.source_text is None:
        return None
    found = re.search(rf"^{re.escape(name)}\s*(?::[^=\n]+)?=\s*(.+)$", facts.source_text, re.M)
    return parse_expression(found.group(1).strip()) if found else None


def windows_fixes(
    facts: Facts, solutions: list[Solution], fix: ExampleFix | None
) -> tuple[list[Solution], ExampleFix | None]:
    """The solutions and the page's fix, each environment fix in PowerShell's form when the
    site's path runs only on Windows (one fix object shared by a solution and the page
    stays one). The path is read only when a fix has a POSIX environment line."""
    fixes = [f for f in (fix, *(s.fix for s in solutions)) if f is not None]
    if all(_lines(f.after)[0] == f.after for f in fixes) or not on_windows_only(facts):
        return solutions, fix
    done: dict[int, ExampleFix | None] = {}

    def converted(old: ExampleFix | None) -> ExampleFix | None:
        if old is None:
            return None
        if id(old) not in done:
            done[id(old)] = powershell_form(old)
        return done[id(old)]

    out = [
        msgspec.structs.replace(s, fix=converted(s.fix)) if s.fix is not None else s
        for s in solutions
    ]
    return out, converted(fix)


def powershell_form(fix: ExampleFix) -> ExampleFix:
    """The fix with each POSIX environment line in PowerShell's form; as it was when it has
    none, or one this does not read (half a fix in each shell runs in neither)."""
    before, _ = _lines(fix.before)
    after, cmd_after = _lines(fix.after)
    if before is None or after is None or (before == fix.before and after == fix.after):
        return fix
    cmd = "; ".join(cmd_after)
    note = "This check runs only on Windows: the lines are for PowerShell"
    note += f" (in cmd.exe: `{cmd}`)." if cmd else "."
    note = f"{fix.note} {note}" if fix.note else note
    return msgspec.structs.replace(fix, before=before, after=after, note=note)


def _lines(text: str) -> tuple[str | None, list[str]]:
    """The text with each POSIX environment line in PowerShell's form, and cmd.exe's lines;
    None when a line has a value this does not read."""
    out: list[str] = []
    cmd: list[str] = []
    for line in text.split("\n"):
        if found := _EXPORT.fullmatch(line):
            value = _unquoted(found.group(2))
            if value is None:
                return None, []
            out.append(f"$env:{found.group(1)} = {_quoted(value)}")
            cmd.append(f"set {found.group(1)}={value}")
        elif found := _UNSET.fullmatch(line):
            out.append(f"Remove-Item Env:{found.group(1)}")
            cmd.append(f"set {found.group(1)}=")
        elif found := _ENV_U.fullmatch(line):
            out.append(f"Remove-Item Env:{found.group(1)}; {found.group(2)}")
            cmd.append(f"set {found.group(1)}= && {found.group(2)}")
        elif (found := _PREFIXED.fullmatch(line)) and not line.startswith(("#", "$")):
            value = _unquoted(found.group(2))
            if value is None:
                return None, []
            out.append(f"$env:{found.group(1)} = {_quoted(value)}; {found.group(3)}")
            cmd.append(f"set {found.group(1)}={value} && {found.group(3)}")
        else:
            out.append(line)
    return "\n".join(out), cmd


def _unquoted(value: str) -> str | None:
    try:
        words = shlex.split(value)
    except ValueError:
        return None
    return words[0] if len(words) == 1 else ("" if not words else None)


def _quoted(value: str) -> str:
    """A PowerShell string that holds `value` as it is (single quotes expand nothing)."""
    return "'" + value.replace("'", "''") + "'"
