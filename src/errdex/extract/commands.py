"""How a file builds a command line: the argparse subcommands it adds, the positional
arguments and required flags it declares, and the function each sits in.

The linker follows them from a flag up to the subcommand and console script that parse it,
so an example fix reads as the user types it (`vllm serve MODEL_TAG --enforce-eager`).
A text scan, gated on the words it needs: argparse calls hide in bodies the skeleton blanks.
"""

from __future__ import annotations

import ast
import bisect
import re

from errdex.extract.field_defaults import call_arguments, flag_form
from errdex.extract.textscan import LineNumbers, matches_from, occurrences
from errdex.facts import ClassFact, FlagFact, SubcommandFact
from errdex.lazy_re import lazy_compile

_ADD_PARSER = lazy_compile(
    r"""\.add_parser\(\s*(?:["']([A-Za-z0-9][\w.-]{0,60})["']|(?:self|cls)\.(name|command)\b)"""
)
# `sub = subparsers.add_parser(cmd_cls.name, ...)`: a subcommand named by a loop variable's
# class attribute. Tried at every character, so a name is taken whole from its first
# character only: a later start or a shorter run fails where the whole name does (what
# follows it is the same), and trying them made the scan quadratic in a name's length.
_LOOP_PARSER = lazy_compile(
    r"""(?<!\w)(\w++)\s*=\s*[\w.]+\.add_parser\(\s*(?!self\b|cls\b)([A-Za-z_]\w*)\.(\w+)\s*[,)]"""
)
# `for cmd, entrypoint in SUBCOMMANDS:` / `for cmd_cls in Base.__subclasses__():`
_FOR = lazy_compile(r"""^[ \t]*for\s+\(?([\w\s,]+?)\)?\s+in\s+(.+?):[ \t]*(?:#.*)?$""", re.M)
_SUBCLASSES = lazy_compile(r"""^([A-Za-z_][\w.]*)\.__subclasses__\(\)$""")
# The three `add_argument(` patterns start with `\b`, which keeps the engine from skipping
# to the literal: they are tried only at the call's occurrences (`matches_from`).
_ADD_ARGUMENT = "add_argument("
_POSITIONAL = lazy_compile(r"""\badd_argument\(\s*["']([A-Za-z_]\w{0,60})["']""")
# `group.add_argument(f"--{name}", **kwargs)`: flags made from names the code computes,
# such as an arguments dataclass's fields.
_COMPUTED = lazy_compile(r"""\badd_argument\(\s*(?![\s"'])""")
_FLAG_CALL = lazy_compile(r"""\badd_argument\(\s*(?:["']-[A-Za-z0-9]["']\s*,\s*)?["'](--[\w-]+)""")
_OPTIONAL_NARGS = lazy_compile(r"""\bnargs\s*=\s*["'][?*]["']|\bdefault\s*=""")
_REQUIRED = lazy_compile(r"\brequired\s*=\s*True\b")
_CLASS_NAME = r"""^[ \t]+{attr}\s*(?::[^=\n]+)?=\s*["']([A-Za-z0-9][\w.-]{{0,60}})["']"""
_NEXT_CALL_SPAN = 1200  # characters read past a loop's `add_parser(` for the call handed it
_TUPLE_SPAN = 4800  # characters a module-level tuple of subcommands may span
_MAX_FOUND = 200


class FunctionSpans:
    """Which function a line sits in, from the `def` lines and their indentation."""

    def __init__(self, text: str, defs: dict[int, tuple[str, str | None]]) -> None:
        self._lines = text.splitlines()
        self._starts = sorted(defs)
        self._defs = defs
        self._indent = {line: self._indent_of(line) for line in self._starts}

    def _indent_of(self, line: int) -> int:
        if not 0 < line <= len(self._lines):
            return 0
        raw = self._lines[line - 1]
        return len(raw) - len(raw.lstrip())

    def function_at(self, line: int) -> tuple[str, str | None] | None:
        """The innermost function whose body holds `line`: the nearest `def` above it that
        is indented less than the line."""
        start = self.start_of(line)
        return None if start is None else self._defs[start]

    def start_of(self, line: int) -> int | None:
        """The `def` line of the innermost function whose body holds `line`."""
        indent = self._indent_of(line)
        at = bisect.bisect_left(self._starts, line) - 1
        while at >= 0:
            start = self._starts[at]
            if self._indent[start] < indent:
                return start
            at -= 1
        return None

    def text_before(self, start: int, line: int) -> str:
        """The lines from `start` up to, not including, `line`."""
        return "\n".join(self._lines[start - 1 : line - 1])


def metavar(flag: str) -> str:
    """The word argparse shows for a flag's value by default, its destination in capitals
    (`KV_TRANSFER_CONFIG` for `--kv-transfer-config`): the user's own value named."""
    return flag.lstrip("-").replace("-", "_").upper()


def scan_commands(
    text: str,
    defs: dict[int, tuple[str, str | None]],
    classes: list[ClassFact],
    flags: list[FlagFact],
) -> tuple[list[SubcommandFact], list[FlagFact], list[FlagFact], list[str]]:
    """The subcommands and positional arguments of a file, its flags with the function
    that declares each (and whether argparse requires it), and the functions that declare
    flags of computed names."""
    has_parser = ".add_parser(" in text
    add_argument_at = tuple(occurrences(text, _ADD_ARGUMENT))
    if not has_parser and not add_argument_at:
        return [], [], flags, []
    spans = FunctionSpans(text, defs)
    line_of = LineNumbers(text)
    subcommands: list[SubcommandFact] = []
    if has_parser:
        for match in _ADD_PARSER.finditer(text):
            line = line_of(match.start())
            start = spans.start_of(line)
            if start is None:
                continue
            function, owner = defs[start]
            name = match.group(1) or _class_attribute(text, classes, owner, match.group(2))
            if name:
                own = "ArgumentParser(" in spans.text_before(start, line)
                subcommands.append(
                    SubcommandFact(name=name, line=line, function=function, own_parser=own)
                )
            if len(subcommands) >= _MAX_FOUND:
                break
        subcommands.extend(_loop_subcommands(text, spans, line_of, defs))
    positionals: list[FlagFact] = []
    declared: dict[int, tuple[str | None, bool]] = {}
    forms: dict[int, tuple[bool, bool, str | None]] = {}
    if add_argument_at:
        for match in matches_from(_POSITIONAL, text, add_argument_at):
            line = line_of(match.start())
            where = spans.function_at(line)
            # the call's own arguments: a later call's `nargs="?"` or `default=` is not its
            call = call_arguments(text, match.end())
            positionals.append(
                FlagFact(
                    flag=match.group(1),
                    line=line,
                    function=where[0] if where else None,
                    required=_OPTIONAL_NARGS.search(call) is None,
                )
            )
            if len(positionals) >= _MAX_FOUND:
                break
        for match in matches_from(_FLAG_CALL, text, add_argument_at):
            line = line_of(match.start())
            where = spans.function_at(line)
            # the call's own arguments: a later `add_subparsers(required=True)` is not its
            call = call_arguments(text, match.end() + 1)
            declared[line] = (where[0] if where else None, _REQUIRED.search(call) is not None)
            forms[line] = flag_form(text, match.end() + 1)  # past the closing quote
    computed: list[str] = []
    if add_argument_at:
        for match in matches_from(_COMPUTED, text, add_argument_at):
            where = spans.function_at(line_of(match.start()))
            if where is not None and where[0] not in computed:
                computed.append(where[0])
    placed = []
    for f in flags:
        declarer, required = declared.get(f.line, (None, False))
        bare, negated, default = forms.get(f.line, (False, False, None))
        placed.append(
            FlagFact(
                flag=f.flag,
                line=f.line,
                function=declarer,
                required=required,
                bare=bare,
                negated=negated,
                default=default,
            )
        )
    return subcommands, positionals, placed, computed


def _class_attribute(
    text: str, classes: list[ClassFact], class_name: str | None, attr: str | None
) -> str | None:
    """`name = "serve"` in the body of the class whose method adds the parser."""
    if class_name is None or attr is None:
        return None
    cls = next((c for c in classes if c.qualname == class_name), None)
    if cls is None:
        return None
    lines = text.splitlines()
    head = lines[cls.line - 1] if 0 < cls.line <= len(lines) else ""
    indent = len(head) - len(head.lstrip())
    pattern = re.compile(_CLASS_NAME.format(attr=attr))
    for raw in lines[cls.line :]:
        stripped = raw.strip()
        if stripped and len(raw) - len(raw.lstrip()) <= indent:
            break  # the class body ended
        found = pattern.match(raw)
        if found and len(raw) - len(raw.lstrip()) > indent:
            return found.group(1)
    return None


def _loop_subcommands(
    text: str, spans: FunctionSpans, line_of: LineNumbers, defs: dict[int, tuple[str, str | None]]
) -> list[SubcommandFact]:
    """The subcommands a loop over command classes adds: `for cmd_cls in ...:` above
    `sub = subparsers.add_parser(cmd_cls.name)` and `cmd_cls.add_cli_args(sub)` after it."""
    found: list[SubcommandFact] = []
    for match in _LOOP_PARSER.finditer(text):
        line = line_of(match.start())
        start = spans.start_of(line)
        if start is None:
            continue
        parser, variable, attr = match.groups()
        loop = _loop_over(spans.text_before(start, line), variable)
        if loop is None:
            continue
        index, iterable = loop
        handed = re.search(
            rf"\b{re.escape(variable)}\.(\w+)\(\s*{re.escape(parser)}\s*[,)]",
            text[match.end() : match.end() + _NEXT_CALL_SPAN],
        )
        if handed is None:
            continue
        base = _SUBCLASSES.match(iterable)
        classes = () if base else _tuple_names(text, iterable, index)
        if base is None and not classes:
            continue
        found.append(
            SubcommandFact(
                name="",
                line=line,
                function=defs[start][0],
                attr=attr,
                method=handed.group(1),
                classes=classes,
                base=base.group(1) if base else "",
            )
        )
    return found


def _loop_over(before: str, variable: str) -> tuple[int | None, str] | None:
    """The innermost `for` above that binds `variable`: its place among the loop's targets
    (None when it is the only one) and the iterable, as written."""
    for match in reversed(list(_FOR.finditer(before))):
        targets = [t.strip() for t in match.group(1).split(",") if t.strip()]
        if variable in targets:
            return (None if len(targets) == 1 else targets.index(variable)), match.group(2)
    return None


def _tuple_names(text: str, name: str, index: int | None) -> tuple[str, ...]:
    """The class names a module-level tuple or list `name` holds (at `index` of each inner
    tuple when the loop unpacks them): `SUBCOMMANDS = ((ServeArgs, serve_main), ...)`."""
    if not name.isidentifier():
        return ()
    head = re.search(rf"^{name}\s*(?::[^=\n]+)?=\s*(?=[(\[])", text, re.M)
    if head is None:
        return ()
    depth, end = 0, head.end()
    for end in range(head.end(), min(len(text), head.end() + _TUPLE_SPAN)):
        depth += {"(": 1, "[": 1, ")": -1, "]": -1}.get(text[end], 0)
        if depth == 0:
            break
    try:
        node = ast.parse(text[head.end() : end + 1], mode="eval").body
    except SyntaxError:
        return ()
    if not isinstance(node, ast.Tuple | ast.List):
        return ()
    names: list[str] = []
    for item in node.elts:
        if index is not None:
            if not isinstance(item, ast.Tuple | ast.List) or len(item.elts) <= index:
                return ()
            item = item.elts[index]
        if isinstance(item, ast.Name):
            names.append(item.id)
        elif isinstance(item, ast.Attribute):
            names.append(item.attr)
        else:
            return ()
    return tuple(names)
