"""Settings a file declares or reads: environment variables and command-line flags, and
the attributes it sets under a condition (what a setting decides elsewhere).

Environment reads (`os.environ[...]`, `os.environ.get`, `os.getenv`) and argparse flags
(`add_argument("--flag")`) are found by a scan of the text, which sees inside function
bodies the skeleton blanks; modules of getters (vllm's `envs.py`, a dict of lambdas keyed
by the variable's name) and module-level names bound to a read come from the tree.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Sequence

from errdex.extract.docs import comment_above
from errdex.extract.source_text import source_of
from errdex.extract.textscan import LineNumbers, find_all
from errdex.facts import AttrSet, EnvRead, FlagFact
from errdex.lazy_re import lazy_compile

ENV_READ = lazy_compile(
    r"""(?:\bos\.)?\b(?:environ\s*(?:\.get\s*\(|\.setdefault\s*\(|\[)|getenv\s*\()"""
    r"""\s*(?:key\s*=\s*)?["']([A-Za-z_][A-Za-z0-9_]{1,100})["']"""
)
_FLAG = lazy_compile(
    r"""add_argument\(\s*(?:["']-[A-Za-z0-9]["']\s*,\s*)?["'](--[A-Za-z0-9][\w-]{0,80})["']"""
)
_ENV_CALLS = frozenset({"os.getenv", "getenv", "os.environ.get", "environ.get"})
_MAX_READS = 2_000
_MAX_SOURCE = 160
_MAX_SETS = 500
_MAX_NOTE = 300


def scan_settings(text: str) -> tuple[list[EnvRead], list[FlagFact]]:
    """Every literal environment read and argparse flag of a file, with its line."""
    has_env = "environ" in text or "getenv" in text
    has_flag = "add_argument" in text
    if not has_env and not has_flag:
        return [], []
    line_of = LineNumbers(text)
    reads: list[EnvRead] = []
    flags: list[FlagFact] = []
    if has_env:
        for match in _env_matches(text):
            at = match.start()
            reads.append(EnvRead(name=match.group(1), line=line_of(at), source=_line(text, at)))
            if len(reads) >= _MAX_READS:
                break
    if has_flag:
        for match in _FLAG.finditer(text):
            flags.append(FlagFact(flag=match.group(1), line=line_of(match.start())))
    return reads, flags


def _env_matches(text: str) -> Iterator[re.Match[str]]:
    """What `ENV_READ.finditer(text)` yields, trying the pattern only where it can match.

    The pattern starts with an optional group, so the regex engine would try it at every
    offset of the text. A match starts at its keyword or at the `os.` right before it, and
    `finditer` tries the earlier offset first and goes on after a match's end: the same.
    """
    end = 0
    for at in find_all(text, ("environ", "getenv")):  # neither word holds the other
        if at < end:
            continue  # inside the previous match (a variable named `getenv_...`)
        match = ENV_READ.match(text, at - 3) if at - 3 >= end else None  # `os.environ`
        match = match or ENV_READ.match(text, at)
        if match is not None:
            end = match.end()
            yield match


def _line(text: str, at: int) -> str:
    """The line holding offset `at`, stripped."""
    end = text.find("\n", at)
    return text[text.rfind("\n", 0, at) + 1 : end if end != -1 else len(text)].strip()[:_MAX_SOURCE]


def env_getters(tree: ast.Module, text: str, lines: Sequence[str] = ()) -> list[EnvRead]:
    """Entries of module-level dicts keyed by a variable's name whose value reads it
    (`"VLLM_X": lambda: os.getenv("VLLM_X")`), and names assigned a read (`X = getenv("Y")`),
    each with the comment block above it (of `lines`, the text's), which says what it does.
    """
    found: list[EnvRead] = []
    for stmt in tree.body:
        value: ast.expr | None = None
        target: ast.expr | None = None
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target, value = stmt.targets[0], stmt.value
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            target, value = stmt.target, stmt.value
        if value is None:
            continue
        if isinstance(value, ast.Dict):
            for key, item in zip(value.keys, value.values, strict=False):
                if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
                    continue
                source = source_of(text, item)
                if f'"{key.value}"' in source or f"'{key.value}'" in source:
                    found.append(
                        EnvRead(
                            name=key.value,
                            line=item.lineno,
                            source=" ".join(source.split())[:_MAX_SOURCE],
                            binds=key.value,
                            doc=comment_above(lines, key.lineno) if lines else None,
                        )
                    )
        elif isinstance(target, ast.Name):
            source = source_of(text, value)
            read = ENV_READ.search(source)
            if read:
                found.append(
                    EnvRead(
                        name=read.group(1),
                        line=value.lineno,
                        source=" ".join(source.split())[:_MAX_SOURCE],
                        binds=target.id,
                        doc=comment_above(lines, stmt.lineno) if lines else None,
                    )
                )
    return found


def env_annotations(tree: ast.Module, names: set[str]) -> dict[str, str]:
    """Declared types of module-level names (e.g. under `if TYPE_CHECKING:`) among `names`."""
    out: dict[str, str] = {}
    stack: list[ast.stmt] = list(tree.body)
    while stack:
        stmt = stack.pop()
        if isinstance(stmt, ast.If):
            stack.extend(stmt.body)
            stack.extend(stmt.orelse)
        elif (
            isinstance(stmt, ast.AnnAssign)
            and isinstance(stmt.target, ast.Name)
            and stmt.target.id in names
        ):
            out[stmt.target.id] = ast.unparse(stmt.annotation)[:80]
    return out


def env_read_of(node: ast.expr) -> str | None:
    """The variable of `os.getenv("X")`, `os.environ.get("X")`, `os.environ["X"]`."""
    if isinstance(node, ast.Call) and node.args:
        func = ast.unparse(node.func)
        first = node.args[0]
        if func in _ENV_CALLS and isinstance(first, ast.Constant) and isinstance(first.value, str):
            return first.value
    if isinstance(node, ast.Subscript) and ast.unparse(node.value) in ("os.environ", "environ"):
        key = node.slice
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            return key.value
    return None


# A one-line `if TEST:` (or `elif`) whose block opens with an attribute assignment or a
# logged message, and the block's indentation; then `X.attr = VALUE` with a plain value (a
# literal, a name, an enum member) among the block's own lines. The test runs to the first
# `:` that ends the line (blanks and a comment may follow it): what comes after that line
# is the same for any later one, so no later one could match where it failed. Taken with
# possessive runs, not a lazy `[^\n]*?` that tries the rest at each character of each `if`.
_IF_BLOCK = lazy_compile(
    r"if[ \t]++((?:[^\n:]++|:(?![ \t]*+(?:#[^\n]*+)?\n))*+):[ \t]*+(?:#[^\n]*+)?\n"
    r"((?:[ \t]*+\n)*+)([ \t]++)"
    r"(?=(?:[A-Za-z_]\w*\.)+[A-Za-z_]\w*[ \t]*=[^=]|(?:logger|logging|log|warnings)\.)"
)
_SET_LINE = lazy_compile(
    r"((?:[A-Za-z_]\w*\.)+([A-Za-z_]\w*))[ \t]*=[ \t]*"
    r"(-?\d[\w.]*|[A-Za-z_][\w.]*|'[^'\\]{0,80}'|\"[^\"\\]{0,80}\")[ \t]*(?:#.*)?"
)
# A class statement's keyword and name; only those with nothing but blanks before them on
# their line count (`_class_lines`). Starting with the literal lets the engine jump from one
# `class` to the next, where a pattern anchored at each line's start tries every line.
_CLASS_WORD = lazy_compile(r"class[ \t]+([A-Za-z_]\w*)")
_BLANKS = frozenset(" \t")
_LOG_CALL = lazy_compile(r"\b(?:logger|logging|log|warnings)\.\w+\(")
_LITERAL = lazy_compile(r"""(?:[rbfu]{0,2})(["'])((?:\\.|(?!\1).){0,400})\1""")
_BLOCK_LINES = 40


def attribute_settings(text: str) -> list[AttrSet]:
    """What an `if` sets right under it: `if self.model_config.enforce_eager:` then
    `self.compilation_config.cudagraph_mode = CUDAGraphMode.NONE`; what a setting decides
    elsewhere for an attribute that conditions test, with the text of a message logged
    beside it (vllm's "This is equivalent to setting -cc.mode=none"). A scan of the text:
    the skeleton the extractor parses has blanked many function bodies."""
    found: list[AttrSet] = []
    classes: list[tuple[int, int, str]] | None = None
    line_of = LineNumbers(text)
    for head in _IF_BLOCK.finditer(text):
        line_start = text.rfind("\n", 0, head.start()) + 1
        lead = text[line_start : head.start()]
        if lead.strip() not in ("", "el") or head.group(1).count("(") != head.group(1).count(")"):
            continue
        indent = len(lead) - len(lead.lstrip())
        depth = len(head.group(3))
        if depth <= indent:
            continue
        # (split no further than the lines read)
        lines = text[head.end() - depth : head.end() + 2500].split("\n", _BLOCK_LINES)
        del lines[_BLOCK_LINES:]
        block: list[tuple[int, str]] = []
        for offset, line in enumerate(lines):
            stripped = line.lstrip()
            if not stripped or stripped.startswith("#"):
                continue
            if len(line) - len(stripped) < depth:
                break
            block.append((offset, line))
        sets = [
            (offset, match)
            for offset, line in block
            if len(line) - len(line.lstrip()) == depth
            and "=" in line
            and (match := _SET_LINE.fullmatch(line.strip())) is not None
        ]
        if not sets:
            continue
        if classes is None:
            classes = _class_lines(text)
        body_line = line_of(head.end() - 1)
        owner = next(
            (name for pos, level, name in reversed(classes) if pos < line_start and level < indent),
            None,
        )
        note = _logged_text([line for _, line in block])
        for offset, match in sets:
            found.append(
                AttrSet(
                    attr=match.group(2),
                    target=match.group(1),
                    value=match.group(3),
                    line=body_line + offset,
                    guard=" ".join(head.group(1).split())[:_MAX_SOURCE],
                    class_name=owner,
                    note=note,
                )
            )
        if len(found) >= _MAX_SETS:
            break
    return found[:_MAX_SETS]


def _class_lines(text: str) -> list[tuple[int, int, str]]:
    """(line start, indentation, name) of each line that starts a class statement: blanks,
    `class`, blanks, its name."""
    found: list[tuple[int, int, str]] = []
    for match in _CLASS_WORD.finditer(text):
        at = match.start()
        start = text.rfind("\n", 0, at) + 1
        if _BLANKS.issuperset(text[start:at]):
            found.append((start, at - start, match.group(1)))
    return found


def _logged_text(lines: list[str]) -> str | None:
    """The string literals of the first log or warning call among a block's lines."""
    for number, line in enumerate(lines):
        if _LOG_CALL.search(line) is None:
            continue
        parts: list[str] = []
        for part in lines[number : number + 8]:
            parts.extend(m.group(2) for m in _LITERAL.finditer(part))
            if part.rstrip().endswith((")", "),")) and parts:
                break
        words = " ".join("".join(parts).split())
        return words[:_MAX_NOTE] if words else None
    return None
