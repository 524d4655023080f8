"""Validators a module hands on by name: a table's items, a generator's `yield`.

A framework that picks a function for a field's type from a table (`(date, [parse_date])`,
`{bool: bool_validator}`) or yields it from its lookup (`yield none_validator`) runs it on
the user's data: no user calls it. Which type the table pairs it with says which fields
reach it ("a field declared as `date`"). A type's validator hook in another module that hands
the framework such a function by its module (`function=_validators.import_string`) says so
of its own type ("a field declared as `ImportString`").
"""

from __future__ import annotations

import ast
import contextlib
import re
from collections.abc import Callable, Sequence

from errdex.ast_walk import walk
from errdex.explain.across_pages import AcrossPages
from errdex.explain.context import Facts, lines_of
from errdex.explain.name_scan import whole_word
from errdex.explain.plain import code
from errdex.extract.conditions import dotted_name

# Words of a table's or a lookup's name (or the function's own) that say it validates data.
_VALIDATING = re.compile(r"valid|pars|conver|coerc", re.IGNORECASE)
MAX_TYPES = 3
# The modules of a folder read for a table of another module's function: those named for
# validating (`validators.py`, `_parsers.py`, `conversion.py`), not every sibling (a folder
# may hold hundreds of modules, and a page is built in milliseconds).
VALIDATING_MODULE = re.compile(r"_?(?:valid|pars|conver|coerc)", re.IGNORECASE)
# A table or lookup longer than this is read as no validating one.
_MAX_LINES = 150
# Lines that carry on a top-level statement at the left margin.
_GOES_ON = ("else", "elif", "except", "finally")


def handed_on(facts: Facts, name: str) -> str | None:
    """The words for the fields a module-level function validates ("a field declared as
    `date`", "the field") when its module, or a module of its folder that imports it by
    name (`from .datetime_parse import parse_date`), hands it on by name from a validating
    table or lookup, or None."""
    own = _VALIDATING.search(name) is not None
    found, types = _listed(facts.source_text or "", name, own)
    if not found and own and not name.startswith("_"):
        # read in the module's siblings only for a function named to validate: a table of
        # another module pairs it with a type as one of its own does
        for text in _importers(facts, name):
            more, listed = _listed(text, name, own)
            found = found or more
            types += [t for t in listed if t not in types]
    if not found:
        return None
    if not types or len(types) > MAX_TYPES:
        return "the field"  # yielded by a lookup, or paired with many types
    return "a field declared as " + " or ".join(code(t) for t in types)


def _importers(facts: Facts, name: str) -> list[str]:
    """The texts of the modules of the site's folder named for validating that import the
    function by name from its module (`from .module import a, name`)."""
    siblings = facts.once("validator_tables:siblings", lambda: _Siblings(facts))
    return [
        text
        for at, text in enumerate(siblings.texts)
        if name in text and any(whole_word(i, name) for i in siblings.imports(at))
    ]


class _Siblings:
    """The modules of the site's folder named for validating, read once a page whichever
    functions of the module are asked (the site's and its callers'), and each one's
    statements importing from the site's module, read once a function asked is in it."""

    def __init__(self, facts: Facts) -> None:
        self.texts: list[str] = []
        self._imports: dict[int, list[str]] = {}
        self._pattern: re.Pattern[str] | None = None
        if facts.folder_paths is None or facts.file_text is None:
            return
        own = facts.stored.file
        module = own.rpartition("/")[2].removesuffix(".py")
        if module == "__init__":
            return  # a package's own names are imported from its folder's name
        self._pattern = re.compile(
            rf"^from +[\w.]*?\b{re.escape(module)} +import +(?:\([^)]*\)|[^\n]*)",
            re.MULTILINE,
        )
        for path in facts.folder_paths():
            stem = path.rpartition("/")[2].removesuffix(".py")
            if path == own or not path.endswith(".py") or not VALIDATING_MODULE.match(stem):
                continue
            text = facts.file_text(path)
            if text is not None:
                self.texts.append(text)

    def imports(self, at: int) -> list[str]:
        """The statements of the `at`th text that import from the site's module."""
        if at not in self._imports and self._pattern is not None:
            self._imports[at] = [m.group(0) for m in self._pattern.finditer(self.texts[at])]
        return self._imports.get(at, [])


def _listed(text: str, name: str, own: bool) -> tuple[bool, list[str]]:
    """Whether a module's validating table or lookup (read in its text) hands the function
    on by name, and the types it pairs it with."""
    # read in the text first: most functions are never named outside a call or their `def`
    types: list[str] = []
    found = False
    for statement in _statements_at(text, name, None if own else _VALIDATING):
        holder = _holder(statement)
        if holder is None or not (own or _VALIDATING.search(holder)):
            continue
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
            yielded = [
                n
                for n in walk(statement)
                if isinstance(n, ast.Yield | ast.YieldFrom) and _names(n.value, name)
            ]
            found = found or bool(yielded)
            for declared in _identity_types(statement, yielded, text):
                if declared not in types:
                    types.append(declared)
            continue
        value = statement.value if isinstance(statement, ast.Assign | ast.AnnAssign) else None
        if value is None or not isinstance(value, ast.List | ast.Tuple | ast.Set | ast.Dict):
            continue
        for key, item in _pairs(value):
            # a type the table pairs it with: a registry by name (`{"json": _json}`) is
            # one of the program's own formats, not a field's
            kind = dotted_name(key) if isinstance(key, ast.Name | ast.Attribute) else None
            if kind is not None and _constant(kind.rpartition(".")[2]):
                kind = None  # a constant's name (`{JSON_FORMAT: _json}`), no type
            if kind is not None and _names(item, name):
                found = True
                if kind not in types:
                    types.append(kind)
    return found, types


def _statements_at(text: str, name: str, named: re.Pattern[str] | None) -> list[ast.stmt]:
    """The top-level tables and functions of the module that name the function as an item
    (`[f`, `, f)`, `yield f`; whose first line matches `named`, when given), each parsed
    alone: not the whole file, nor a class (a page is built in a few milliseconds)."""
    lines = lines_of(text)
    spans: dict[int, int] = {}
    at = text.find(name)
    while at != -1:  # a literal search: a pattern over a large file costs milliseconds
        found_at, at = at, text.find(name, at + len(name))
        if not _item_at(text, found_at, found_at + len(name)):
            continue
        start = text.count("\n", 0, found_at)
        while start > 0 and not _opens(lines[start]):
            start -= 1
        first = lines[start]
        if start in spans or first.startswith(("class ", "@")):
            continue
        if named is not None and named.search(first.partition("(")[0]) is None:
            spans[start] = start  # not read again
            continue
        end = start + 1
        while end < len(lines) and not _opens(lines[end]):
            end += 1
        while end < len(lines) and lines[end].startswith(_GOES_ON):
            end += 1  # `else:` and `except` of a top-level `if` or `try`
            while end < len(lines) and not _opens(lines[end]):
                end += 1
        spans[start] = end
    found: list[ast.stmt] = []
    for start, end in spans.items():
        if end - start > _MAX_LINES:
            continue  # a long function that merely passes the function on
        with contextlib.suppress(SyntaxError, ValueError, RecursionError):
            found.extend(ast.parse("\n".join(lines[start:end])).body)
    return found


def _item_at(text: str, start: int, end: int) -> bool:
    """Whether the name at `start:end` stands as an item: after `[`, `(`, `,`, `{`, `:` or
    `yield`, before `]`, `)`, `,`, `}` or the line's end."""
    if _word(text[start - 1 : start]) or _word(text[end : end + 1]):
        return False  # part of a longer name
    before = text[max(0, start - 40) : start].rstrip()
    after = text[end : end + 40].lstrip(" \t")
    return (before.endswith(tuple("[(,{:")) or re.search(r"\byield$", before) is not None) and (
        after[:1] in ("]", ")", ",", "}", "\n", "")
    )


def _word(char: str) -> bool:
    return char.isalnum() or char == "_"


def _opens(line: str) -> bool:
    """Whether a line starts a top-level statement (not an indented, blank, comment or
    closing-bracket line)."""
    return bool(line) and not line[0].isspace() and line[0] not in "#)]}"


def _constant(name: str) -> bool:
    """A constant's name, not a class's: upper case, and longer than an acronym (`UUID`)."""
    return name.isupper() and ("_" in name or len(name) > 4)


def _holder(statement: ast.stmt) -> str | None:
    """The name of a module-level table or function."""
    if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
        return statement.name
    if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
        return statement.target.id
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
        target = statement.targets[0]
        return target.id if isinstance(target, ast.Name) else None
    return None


def _pairs(table: ast.expr) -> list[tuple[ast.expr | None, ast.expr]]:
    """A table's (key, item) pairs: a dict's entries, a list's `(key, item)` tuples, or its
    plain items (no key)."""
    if isinstance(table, ast.Dict):
        return [(k, v) for k, v in zip(table.keys, table.values, strict=True)]
    pairs: list[tuple[ast.expr | None, ast.expr]] = []
    for element in table.elts if isinstance(table, ast.List | ast.Tuple | ast.Set) else []:
        if isinstance(element, ast.Tuple) and len(element.elts) == 2:
            pairs.append((element.elts[0], element.elts[1]))
        else:
            pairs.append((None, element))
    return pairs


def _names(node: ast.expr | None, name: str) -> bool:
    """Whether `node` is the function's name, or a list of items one of which is (or an
    item wrapping it: `IfConfig(f, ...)`), never a call of it."""
    if node is None:
        return False
    if isinstance(node, ast.Name):
        return node.id == name
    if isinstance(node, ast.List | ast.Tuple | ast.Set):
        return any(_names(e, name) for e in node.elts)
    if isinstance(node, ast.Call):
        return any(isinstance(a, ast.Name) and a.id == name for a in node.args)
    return False


def _identity_types(
    function: ast.AST, yielded: list[ast.Yield | ast.YieldFrom], text: str
) -> list[str]:
    """The types a lookup tests the field's type to be before it yields the function
    (`if type_ is Hashable or type_ is CollectionsHashable: yield hashable_validator`):
    a field declared as one of them; none when a yield sits under any other test. A name
    the module imports as another of them (`Hashable as CollectionsHashable`) is that one."""
    types: list[str] = []
    params = function.args.args if isinstance(function, ast.FunctionDef) else []
    # the lookup's type parameter (`find_validators(type_, config)`): a test of another
    # value (`field.shape is SHAPE_LIST`) says nothing of the type a field is declared as
    tested = params[0].arg if params else None
    for node in yielded:
        test = next(
            (
                n.test
                for n in walk(function)
                if isinstance(n, ast.If)
                and any(isinstance(s, ast.Expr) and s.value is node for s in n.body)
            ),
            None,
        )
        either = isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or)
        parts = test.values if isinstance(test, ast.BoolOp) and either else [test]
        for part in parts:
            if not (
                isinstance(part, ast.Compare)
                and len(part.ops) == 1
                and isinstance(part.ops[0], ast.Is)
                and isinstance(part.left, ast.Name)
                and part.left.id == tested
                and isinstance(part.comparators[0], ast.Name | ast.Attribute)
            ):
                return []
            kind = dotted_name(part.comparators[0])
            if kind is None or kind == "None" or _constant(kind.rpartition(".")[2]):
                return []
            if kind not in types:
                types.append(kind)
    return [t for t in types if not _alias_of(t, types, text)]


def _alias_of(name: str, others: list[str], text: str) -> bool:
    """Whether the module imports one of `others` under `name` (`import X as name`)."""
    return any(
        re.search(rf"\b{re.escape(o.rpartition('.')[2])} as {re.escape(name)}\b", text)
        for o in others
        if o != name
    )


# A type's hooks that hand the framework the functions validating a field declared as it.
_HOOK_DEF = re.compile(
    r"^([ \t]*)(?:async[ \t]+)?def[ \t]+(?:__get_pydantic_core_schema__|__get_validators__)\b",
    re.M,
)
# `module.name` named as a value (not called) in a hook's body
_MODULE_VALUE = re.compile(r"(?<![\w.])([A-Za-z_]\w*)\.([A-Za-z_]\w*)\b(?![ \t]*\()")
# (a version's revision, a folder) → (module, function) → the types whose hooks in that
# folder or the one above hand `module.function` on, each with the text of the file that
# does it (a few folders kept)
_HOOKED: AcrossPages[dict[tuple[str, str], tuple[tuple[str, str], ...]]] = AcrossPages(8)


def handed_by_hook(facts: Facts, name: str) -> str | None:
    """ "a field declared as `ImportString`": the types, in the site's folder or the one
    above, whose validator hooks (`__get_pydantic_core_schema__`, `__get_validators__`)
    hand the framework the site module's public function `name` by its module
    (`function=_validators.import_string`), as a value, not a call: the framework runs it on
    the data of a field declared as that type. Asked only of a module named for validating
    (`_validators.py`); None when no hook there names it so, or more than `MAX_TYPES` do."""
    file_text, version_paths = facts.file_text, facts.version_paths
    own = facts.stored.file
    folder, _, stem = own.removesuffix(".py").rpartition("/")
    if (
        file_text is None
        or version_paths is None
        or name.startswith("_")
        or not VALIDATING_MODULE.match(stem)
    ):
        return None
    parent, _, package = folder.rpartition("/")
    # the modules beside it and those of the package above (`pydantic/types.py` for
    # `pydantic/_internal/_validators.py`): where a type built on its validators is defined
    hooked = _HOOKED.kept(
        (facts.stored.revision, folder),
        lambda: _hooked(
            file_text, [p for p in version_paths() if p.rpartition("/")[0] in (folder, parent)]
        ),
    )
    # the file naming it imports the site's module by its folder (`from ._internal import
    # _validators`): not another module of that stem
    importing = re.compile(
        rf"^[ \t]*from[ \t]+[\w.]*\b{re.escape(package)}[ \t]+import[ \t]+(?:\([^)]*|[^\n]*)"
        rf"\b{re.escape(stem)}\b(?![ \t]+as\b)",
        re.M,
    )
    types = [kind for kind, text in hooked.get((stem, name), ()) if importing.search(text)]
    types = list(dict.fromkeys(types))
    if not types or len(types) > MAX_TYPES:
        return None
    return "a field declared as " + " or ".join(code(t) for t in types)


def _hooked(
    file_text: Callable[[str], str | None], paths: Sequence[str]
) -> dict[tuple[str, str], tuple[tuple[str, str], ...]]:
    """Each `module.function` a type's validator hook names as a value, in the kept files of
    the version (their text read once, a hook's lines only) → (the type, the file's text)."""
    found: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for path in paths:
        text = file_text(path) if path.endswith(".py") else None
        if text is None or "def __get_" not in text:
            continue
        lines = lines_of(text)
        for hook in _HOOK_DEF.finditer(text):
            start = text.count("\n", 0, hook.start())
            depth = len(hook.group(1))
            kind = _class_above(lines, start, depth)
            if kind is None:
                continue
            end = start + 1
            # the body, past the signature's closing line (`) -> CoreSchema:`)
            while end < len(lines) and (
                not lines[end].strip()
                or len(lines[end]) - len(lines[end].lstrip()) > depth
                or lines[end].lstrip().startswith(")")
            ):
                end += 1
            for named in _MODULE_VALUE.finditer("\n".join(lines[start + 1 : end])):
                if named.group(1) not in ("self", "cls"):
                    found.setdefault((named.group(1), named.group(2)), []).append((kind, text))
    return {key: tuple(value) for key, value in found.items()}


def _class_above(lines: Sequence[str], start: int, depth: int) -> str | None:
    """The class whose body holds the `def` at line `start` (0-based) indented `depth`, read
    from the first header above it indented less; None when that header is no class."""
    for above in range(start - 1, -1, -1):
        stripped = lines[above].lstrip()
        if not stripped or stripped.startswith(("#", "@", ")", "]", "}")):
            continue
        if len(lines[above]) - len(stripped) < depth:
            header = re.match(r"class[ \t]+(\w+)", stripped)
            return header.group(1) if header is not None else None
    return None
