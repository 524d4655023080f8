"""Tables keyed by a setting's values: `Literal` aliases and dicts of classes by string.

A setting typed with a `Literal` alias (`linear_backend: LinearBackend`, where
`LinearBackend = Literal["auto", "cutlass", ...]`) names the code it picks through a
module-level dict keyed by those strings (`_LINEAR_BACKEND_KERNEL_MAP = {"cutlass":
{CutlassFP8Kernel, ...}, ...}`). A plain `str` setting names a plugin through a dict of
lazily imported (module file, class) pairs by name (`_REASONING_PARSERS_TO_REGISTER =
{"deepseek_r1": ("deepseek_r1_reasoning_parser", "DeepSeekR1ReasoningParser"), ...}`),
the files in the dict's own package. All are read here
from the text (the skeleton the extractor parses blanks module-level values): each
statement that starts at a line's first column is cut at its closing bracket, which stands
at the first column too (or ends the opening line), and parsed alone.
"""

from __future__ import annotations

import ast
import re
import warnings

from errdex.extract.textscan import line_matches
from errdex.lazy_re import lazy_compile

# Written after a newline and searched by `line_matches` (a `^` under re.MULTILINE is tried
# at every character: 0.24 s of vllm's 0.29 s here). Runs are possessive: what follows
# each cannot be a character it took, so giving one back (each shorter name of every
# top-level line, each shorter annotation) never matches.
_ALIAS = lazy_compile(
    r"\n([A-Za-z_]\w*+)(?:[ \t]*+:[ \t]*+(?:typing\.)?TypeAlias)?[ \t]*+=[ \t]*+"
    r"(?:typing\.)?Literal\["
)
_TABLE = lazy_compile(r"\n([A-Za-z_]\w*+)(?:[ \t]*+:[^=\n]*+)?[ \t]*+=[ \t]*+\{")
# a tuple opening on a string: what a registry's `("module_file", "ClassName")` pair starts
# with, looked for once the module's class tables are all read
_PAIR = lazy_compile(r"\(\s*[\"']")
_MAX_TABLES = 50
_MAX_KEYS = 80
_MAX_PAIRS = 200  # a registry of plugins by name: vllm's tool parsers are 58
_MAX_PAIR_TABLES = 20  # registries of plugins by name in one module (capped apart)
_MAX_VALUES = 200


def literal_aliases(text: str) -> dict[str, tuple[str, ...]]:
    """Module-level `Name = Literal["a", "b", ...]`: the alias → its string values."""
    if "Literal[" not in text:
        return {}
    found: dict[str, tuple[str, ...]] = {}
    for start, end, head in line_matches(_ALIAS, text):
        node = _statement(text, start, end - 1, "]")
        if not isinstance(node, ast.Assign) or not isinstance(node.value, ast.Subscript):
            continue
        inner = node.value.slice
        items = inner.elts if isinstance(inner, ast.Tuple) else [inner]
        values = [
            i.value for i in items if isinstance(i, ast.Constant) and isinstance(i.value, str)
        ]
        if values and len(values) == len(items):
            found[head.group(1)] = tuple(values[:_MAX_VALUES])
        if len(found) >= _MAX_TABLES:
            break
    return found


def module_tables(
    text: str,
) -> tuple[dict[str, dict[str, tuple[str, ...]]], dict[str, dict[str, tuple[str, str]]]]:
    """The module-level dicts keyed by strings, read in one pass: those whose values are
    each a set, list or tuple of classes (a backend's family of implementations, as
    written: the dict → key → the classes), and those of (module file, class name) pairs, a
    plugin registered by name and imported when it is asked for (the dict → key → the
    pair). A dict of one class a key (a loader per format) picks a mode that reads other
    input, no stand-in: not kept."""
    classes: dict[str, dict[str, tuple[str, ...]]] = {}
    pairs: dict[str, dict[str, tuple[str, str]]] = {}
    for start, end, head in line_matches(_TABLE, text):
        # a value that is a set, list or tuple opens a bracket: a dict with none (of strings,
        # names, numbers) is not parsed
        full = len(classes) >= _MAX_TABLES  # only a registry's pairs are still wanted
        node = _statement(text, start, end - 1, "}", opening="[({", needs=_PAIR if full else None)
        if node is None or not isinstance(node.value, ast.Dict):
            continue
        # each kind capped apart: a module of many class tables keeps its registries
        if len(classes) < _MAX_TABLES and (table := _table(node.value)):
            classes[head.group(1)] = table
        elif len(pairs) < _MAX_PAIR_TABLES and (named := _pairs(node.value)):
            pairs[head.group(1)] = named
        if len(classes) >= _MAX_TABLES and len(pairs) >= _MAX_PAIR_TABLES:
            break
    return classes, pairs


def _pairs(node: ast.Dict) -> dict[str, tuple[str, str]]:
    """`{"name": ("module_file", "ClassName"), ...}`: two entries at least, every key a
    string and every value a module's name and a class's, both as strings."""
    if len(node.keys) < 2 or len(node.keys) > _MAX_PAIRS:
        return {}
    out: dict[str, tuple[str, str]] = {}
    for key, value in zip(node.keys, node.values, strict=True):
        if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
            return {}
        if not (isinstance(value, ast.Tuple) and len(value.elts) == 2):
            return {}
        module, name = (e.value if isinstance(e, ast.Constant) else None for e in value.elts)
        if not (
            isinstance(module, str)
            and isinstance(name, str)
            and all(p.isidentifier() for p in module.split("."))
            and name.isidentifier()
            and not name.islower()  # a class's CamelCase name (`xLAMToolParser` too)
        ):
            return {}
        out[key.value] = (module, name)
    return out


def _statement(
    text: str,
    start: int,
    bracket: int,
    closing: str,
    opening: str = "",
    needs: re.Pattern[str] | None = None,
) -> ast.Assign | ast.AnnAssign | None:
    """The statement from `start` whose bracket opens at `bracket`: it ends on its own line
    when that line ends with `closing`, else at the next line that starts with it. With
    `opening`, None unless one of its characters comes after that bracket; with `needs`,
    None unless that pattern is found after it (tried before anything is parsed)."""
    line_end = text.find("\n", bracket)
    line_end = len(text) if line_end < 0 else line_end
    if text[bracket:line_end].rstrip().endswith(closing):
        end = line_end
    else:
        at = text.find("\n" + closing, bracket)
        if at < 0:
            return None
        end = at + 2
    if opening and not any(text.find(c, bracket + 1, end) >= 0 for c in opening):
        return None
    if needs is not None and needs.search(text, bracket + 1, end) is None:
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(text[start:end])
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    if len(tree.body) != 1 or not isinstance(tree.body[0], ast.Assign | ast.AnnAssign):
        return None
    return tree.body[0]


def _table(node: ast.Dict) -> dict[str, tuple[str, ...]]:
    if len(node.keys) < 2 or len(node.keys) > _MAX_KEYS:
        return {}
    out: dict[str, tuple[str, ...]] = {}
    for key, value in zip(node.keys, node.values, strict=True):
        if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
            return {}
        if not isinstance(value, ast.Set | ast.List | ast.Tuple):
            return {}
        named = [_class_name(i) for i in value.elts]
        if not named or any(n is None for n in named):
            return {}
        out[key.value] = tuple(n for n in named if n is not None)
    return out


def _class_name(node: ast.expr) -> str | None:
    """`Cls` or `module.Cls`, a name whose last part is written as a class's."""
    try:
        dotted = ast.unparse(node)
    except (ValueError, RecursionError):
        return None
    parts = dotted.split(".")
    if not all(p.isidentifier() for p in parts) or not parts[-1].lstrip("_")[:1].isupper():
        return None
    return dotted
