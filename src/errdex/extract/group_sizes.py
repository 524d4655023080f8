"""Module globals built from a function's parameter, the accessors that hand them back,
and the names a call passes: how a size read through an accessor reaches its setting.

`tp = get_tensor_model_parallel_world_size()` reads `get_tp_group().world_size`;
`get_tp_group()` asserts and returns the global `_TP`; `initialize_model_parallel(
tensor_model_parallel_size, ...)` sets `_TP` (under `global _TP`) from a value built from
that parameter; a worker calls `ensure_model_parallel_initialized(parallel_config.
tensor_parallel_size, ...)`, which passes it on. Each link is read from the text of its own
file here; the linker (`link.group_sizes`) joins them across files.
"""

from __future__ import annotations

import ast
import re
import textwrap
from collections.abc import Callable, Collection, Iterator

from errdex.extract.shapes import statements_under, without_docstring
from errdex.extract.textscan import name_start
from errdex.lazy_re import lazy_compile

# a module-level function that takes no argument: `def get_tp_group() -> X:`, after its
# line's start; tried only where `str.find` sees "\ndef" (`_matches`)
_NO_ARG_DEF = lazy_compile(r"\ndef[ \t]+(\w+)[ \t]*\([ \t]*\)[^\n]*:[ \t]*\n")
_MAX_ACCESSOR_LINES = 8
# the one return such a body may have, checked before the body is parsed
_RETURNED = lazy_compile(r"^[ \t]+return[ \t]+\w+(?:\(\)\.\w+)?[ \t]*(?:#.*)?$", re.MULTILINE)
# `global _TP` (or `global _TP, _ETP`) in a function body, from its line's start: tried
# only at the start of a line holding "global" (`_matches`), not at every line
_GLOBAL = lazy_compile(r"\n[ \t]+global[ \t]+\w")
_MAX_GLOBAL_FUNCTION_LINES = 600
# a function of no parameter builds nothing from one: not parsed
_NO_PARAMETER = lazy_compile(r"def[ \t]+\w+[ \t]*\([ \t]*\)")
# a call whose arguments are all names or dotted names, one at least an attribute read:
# `ensure_model_parallel_initialized(parallel_config.tensor_parallel_size, ...)`
# (the arguments; the name called is read back from the `(`: a pattern starting with the
# literal is tried at each `(` only). A dot must come before anything else than a name, a
# comma or a space (the lookahead fails at most calls at once), and no part gives back
# what it took (possessive: what follows each part cannot start with what it takes).
# That lookahead runs at every `(` of the file, and `\w` and `\s` cost a Unicode lookup
# per character. `_ASCII_RUN` is exactly the ASCII part of `[\w\s,]` (a test pins it):
# where the exact lookahead passes, this one reaches the dot or a non-ASCII character
# first, so it only fails calls the exact one fails, at one bit test per character; the
# exact one decides.
_ASCII_RUN = r"[A-Za-z0-9_,\t-\r\x1c-\x20]*+"
_NAME_ARGS = lazy_compile(
    rf"\((?={_ASCII_RUN}(?:\.|[^\x00-\x7f]))(?=[\w\s,]*+\.)"
    r"\s*+((?:[A-Za-z_][\w.]*+\s*+,\s*+)*[A-Za-z_][\w.]*+)\s*+,?\s*+\)"
)
_MAX_NAME_CALLS = 400


def _matches(
    pattern: re.Pattern[str], text: str, literal: str, anchor: Callable[[str, int], int]
) -> Iterator[re.Match[str]]:
    """What `pattern.finditer(text)` finds, for a pattern that can match only at
    `anchor(text, i)` of an occurrence `i` of `literal`: `str.find` skips the text between
    at memory speed, where the pattern's own scan steps through it character by character."""
    end = at = -1
    while (at := text.find(literal, at + 1)) != -1:
        start = anchor(text, at)
        if start < end:
            continue
        if (found := pattern.match(text, start)) is not None:
            end = found.end()
            yield found
        else:
            end = start + 1


def _line_start(text: str, at: int) -> int:
    return text.rfind("\n", 0, at)


def _function_text(text: str, start: int) -> str:
    """The text of the module-level `def` starting at `start`: up to the next line that
    starts at column 0 (a closing bracket or a comment aside)."""
    end = start
    while True:
        end = text.find("\n", end)
        if end == -1:
            return text[start:]
        end += 1
        if end < len(text) and text[end] not in " \t\n\r)]#":
            return text[start:end]


def _parsed(source: str) -> ast.FunctionDef | None:
    try:
        tree = ast.parse(textwrap.dedent(source))
    except (SyntaxError, ValueError, RecursionError):
        return None
    first = tree.body[0] if tree.body else None
    return first if isinstance(first, ast.FunctionDef) else None


def group_accessors(text: str) -> dict[str, str]:
    """Function name → what it returns, for module-level functions of no argument whose
    body (a docstring and `assert`s aside) is one `return` of a module-level name
    (`return _TP`) or of an attribute of a call of no argument (`return
    get_tp_group().world_size`)."""
    out: dict[str, str] = {}
    if "return" not in text:
        return out
    for found in _matches(_NO_ARG_DEF, text, "\ndef", lambda _, at: at):
        source = _function_text(text, found.start() + 1)
        if source.count("\n") > _MAX_ACCESSOR_LINES or _RETURNED.search(source) is None:
            continue
        function = _parsed(source)
        if function is None:
            continue
        body = [s for s in without_docstring(function.body) if not isinstance(s, ast.Assert)]
        if len(body) != 1 or not isinstance(body[0], ast.Return) or body[0].value is None:
            continue
        value = body[0].value
        if isinstance(value, ast.Name):
            out[found[1]] = value.id
        elif (
            isinstance(value, ast.Attribute)
            and isinstance(value.value, ast.Call)
            and isinstance(value.value.func, ast.Name)
            and not value.value.args
            and not value.value.keywords
        ):
            out[found[1]] = f"{value.value.func.id}().{value.attr}"
    return out


def global_sets(text: str) -> dict[str, tuple[str, str, int]]:
    """Module global → (the function setting it under `global`, the one parameter of that
    function its value is built from, the parameter's position), when exactly one is:
    read in the value itself, or in the last assignment before it of a local the value
    reads (followed back while that assignment reads the local itself:
    `group_ranks = [x.tolist() for x in group_ranks]`)."""
    out: dict[str, tuple[str, str, int]] = {}
    if "global" not in text:
        return out
    seen: set[int] = set()
    for found in _matches(_GLOBAL, text, "global", _line_start):
        start = text.rfind("\ndef ", 0, found.start()) + 1
        if start == 0 and not text.startswith("def "):
            continue
        if start in seen:
            continue
        seen.add(start)
        if _NO_PARAMETER.match(text, start) is not None:
            continue
        source = _function_text(text, start)
        if source.count("\n") > _MAX_GLOBAL_FUNCTION_LINES:
            continue
        function = _parsed(source)
        if function is not None:
            for name, set_from in _sets_of(function).items():
                out.setdefault(name, set_from)
    return out


def _sets_of(function: ast.FunctionDef) -> dict[str, tuple[str, str, int]]:
    given = [a.arg for a in (*function.args.posonlyargs, *function.args.args)]
    # `global` and assignments are statements: one walk of the statements finds both
    statements = list(statements_under(function))
    declared = {n for s in statements if isinstance(s, ast.Global) for n in s.names}
    # every assignment of a plain name, in the order of the text
    assigned: list[tuple[int, str, ast.expr]] = sorted(
        (
            (node.lineno, target.id, node.value)
            for node in statements
            if isinstance(node, ast.Assign)
            for target in node.targets
            if isinstance(target, ast.Name)
        ),
        key=lambda a: a[0],
    )
    # a parameter the function binds again is no longer what its caller passed
    params = [p for p in given if all(name != p for _, name, _ in assigned)]
    found: dict[str, set[str]] = {}
    for line, name, value in assigned:
        if name not in declared or (isinstance(value, ast.Constant) and value.value is None):
            continue
        reads = found.setdefault(name, set())
        for read in _names(value):
            if read in params:
                reads.add(read)
            elif read not in declared:
                reads.update(_local_params(read, line, assigned, params))
    out: dict[str, tuple[str, str, int]] = {}
    for name, reads in found.items():
        if len(reads) == 1:
            param = next(iter(reads))
            out[name] = (function.name, param, given.index(param))
    return out


def _local_params(
    local: str, before: int, assigned: list[tuple[int, str, ast.expr]], params: list[str]
) -> set[str]:
    """The parameters the last assignment of `local` before line `before` reads, and
    those of the one before it while each reads the local itself."""
    earlier = [v for line, name, v in assigned if name == local and line < before]
    reads: set[str] = set()
    while earlier:
        names = _names(earlier.pop())
        reads.update(n for n in names if n in params)
        if local not in names:
            break
    return reads


def _names(value: ast.expr) -> set[str]:
    return {n.id for n in ast.walk(value) if isinstance(n, ast.Name)}


def name_calls(
    text: str, imports: Collection[str], defined: Collection[str]
) -> tuple[tuple[str, int, tuple[str, ...]], ...]:
    """(the name called, line, the arguments) of each call whose arguments are all names
    given by position, one at least an attribute read; read from the text, so that calls
    in bodies the skeleton blanked are found too. Only a call the linker can follow to its
    function is kept: of a name the file imports (`imports`: at the module's top or in a
    function), or a dotted name under one, or of a function the module defines itself
    (`defined`, as the walker found them: under a module-level `if` too)."""
    out: list[tuple[str, int, tuple[str, ...]]] = []
    if not imports and not defined:
        return ()
    line, counted = 1, 0
    for found in _NAME_ARGS.finditer(text):
        at = found.start()
        name = text[name_start(text, at, dotted=True) : at]
        if not name or not (name[0].isalpha() or name[0] == "_"):
            continue
        if name.partition(".")[0] not in imports and name not in defined:
            continue
        line += text.count("\n", counted, at)
        counted = at
        out.append((name, line, tuple(a.strip() for a in found[1].split(","))))
        if len(out) >= _MAX_NAME_CALLS:
            break
    return tuple(out)
