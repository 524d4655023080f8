"""A validator's `try` that parses or looks up what it read from the field's value.

pydantic v1's `pattern_validator` compiles `str_value = str_validator(v)` with
`re.compile` and raises `PatternError` when it catches `re.error`; its `ByteSize.validate`
looks the unit it cut from the value up in `BYTE_SIZES` and raises `InvalidByteSizeUnit`
when it catches `KeyError`. Either `try` failed on the data: the way out is a value of the
form the call takes ("a valid regular expression"), or one whose piece is a key of the
table (a few of its keys named), said as the field's value in the data. A local counts as
read from the value when every assignment of it reads only the value, locals read from it
(a few steps at most), literals and names fixed at import (the module's functions and
constants, builtins, classes, `cls` of a classmethod); a `try` that calls anything else on
what it read (a method of the object's state, a function it was handed) may have failed
there, so it says nothing.
"""

from __future__ import annotations

import ast
from typing import NamedTuple

from errdex.ast_walk import walk
from errdex.explain.context import Facts
from errdex.explain.entry_input import names_read
from errdex.explain.page import ConditionView, Solution
from errdex.explain.parse_formats import parse_form
from errdex.explain.plain import caught_names, code
from errdex.explain.table_lookup import literal_keys, module_names
from errdex.explain.user_data import callable_by_user, fixed_name, module_constants

__all__ = ["UserTry", "parsed_value_solution", "try_of", "user_try"]

_KEY_ERRORS = frozenset({"KeyError", "LookupError"})
# Builtins that test a value rather than take it: no call that fails on it.
_TESTS = frozenset({"isinstance", "issubclass", "hasattr", "callable", "len", "type"})
# Methods of a text read from the value that cut or fold it, failing on nothing a user gives
# beside the parse they feed.
_TEXT_METHODS = frozenset(
    {"split", "rsplit", "strip", "lstrip", "rstrip", "lower", "upper", "casefold"}
    | {"removeprefix", "removesuffix", "decode", "encode", "replace"}
)
_MAX_STEPS = 4  # locals between what the `try` reads and the value
_SHOWN_KEYS = 4


def parsed_value_solution(
    facts: Facts,
    value: str,
    field: str,
    where: str,
    runs: str,
    helpers: frozenset[str] = frozenset(),
) -> Solution | None:
    """ "In the data you validate, give `field` a value that is a valid regular expression:
    `re.compile(v)` failed on it ...", or the keys of the table its lookup missed, or the
    one call of a helper of the module (`helpers`: a function it defines or imports) the
    `try` hands what it read from the value; None when the `try` around the site does
    anything else, or reads anything but the value."""
    clause = facts.innermost_except()
    function = facts.site_function()
    tree = facts.source_tree()
    if clause is None or function is None or tree is None:
        return None
    found = try_of(function, clause.line)
    if found is None:
        return None
    statement, handler = found
    if not handler.lineno <= facts.stored.site.line <= (handler.end_lineno or handler.lineno):
        return None
    caught = caught_names(clause.text) or {""}
    defined = {n.name for n in tree.body if isinstance(n, ast.FunctionDef | ast.ClassDef)}
    reading = _Reading(function, value, module_names(tree) | defined | module_constants(facts))
    imported = _imported(tree)
    nodes = _nodes(statement.body)
    calls = [n for n in nodes if isinstance(n, ast.Call)]
    lookups = [n for n in nodes if isinstance(n, ast.Subscript)]
    # each parse of what was read from the value → the form it takes
    parsed = {
        c: form
        for c in calls
        if (form := parse_form(c, caught, imported)) is not None and reading.of_value(c.args)
    }
    parses = list(parsed)
    if parses:
        forms = set(parsed.values())
        # the same parse called on the value in another way (`UUID(bytes=v)`) is that parse
        parsing = {ast.unparse(p.func) for p in parses}
        others = [
            c
            for c in calls
            if ast.unparse(c.func) not in parsing and not any(_inside(c, p) for p in parses)
        ]
        if len(forms) != 1 or not all(_quiet(c, reading) for c in others):
            return None  # another call may have failed, or two parses of two forms
        call = parses[0]
        argument = call.args[0]
        said = f"that is {forms.pop()}"
        given = ""
        if not (isinstance(argument, ast.Name) and argument.id == value):
            said = f"that makes {code(ast.unparse(argument))} {said.removeprefix('that is ')}"
            given = reading.given(argument)
        return Solution(
            text=(
                f"{where}, give {field} a value {said}: {code(ast.unparse(call))} failed on "
                f"it, and this error is raised in its place{given}. {runs}: the check is of "
                "your data, not of a call in your code."
            ),
            kind="input",
        )
    if not caught & _KEY_ERRORS:
        reading.fixed |= helpers  # the module's functions: fixed at import as its constants
        return _helper_solution(calls, helpers, reading, (where, field, runs))
    if not all(_quiet(c, reading) for c in calls):
        return None
    tables = [s for s in lookups if isinstance(s.ctx, ast.Load) and reading.of_value([s.slice])]
    if len(tables) != 1:
        return None
    lookup = tables[0]
    if isinstance(lookup.value, ast.Name) and (
        lookup.value.id in reading.assigned or lookup.value.id == value
    ):
        return None  # a table the function makes or was handed: not the module's
    keys = _table_keys(lookup.value, tree, facts)
    if keys is None:
        return None  # no literal table: its keys may be the program's own
    table = ast.unparse(lookup.value)
    key = lookup.slice
    root = _root(key)
    if root is None:
        return None
    shown = ", ".join(code(repr(k)) for k in keys[:_SHOWN_KEYS])
    more = ", …" if len(keys) > _SHOWN_KEYS else ""
    whose = "a value" if root == value else f"a value whose {code(root)}"
    given = "" if root == value else reading.given(ast.Name(id=root, ctx=ast.Load()))
    return Solution(
        text=(
            f"{where}, give {field} {whose} is one of the keys of {code(table)} ({shown}"
            f"{more}): the lookup {code(ast.unparse(lookup))} at line {lookup.lineno} found no "
            f"such key, and this error is raised in its place{given}. {runs}: the check is of "
            "your data, not of a call in your code."
        ),
        kind="input",
    )


def _helper_solution(
    calls: list[ast.Call], helpers: frozenset[str], reading: _Reading, words: tuple[str, str, str]
) -> Solution | None:
    """ "give `field` a value that `check_address(address, strict=True)` accepts once read
    into `address`": the `try`'s one call of a helper of the module (a function it defines
    or imports: `helpers`) whose arguments read only what the function read from the value
    (`address = value.strip()`); every other call of the `try` a test, a text method of it
    or inside that call. None otherwise."""
    handed = [
        c
        for c in calls
        if _helper_root(c.func) in helpers - {reading.value, *reading.assigned}
        and reading.of_value([*c.args, *(k.value for k in c.keywords)])
    ]
    if len(handed) != 1:
        return None
    call = handed[0]
    if not all(c is call or _inside(c, call) or _quiet(c, reading) for c in calls):
        return None  # another call may have failed
    where, field, runs = words
    # what it is handed by position or keyword (`date(**kw)`: the fields read from the value)
    handed_on = [*call.args, *(k.value for k in call.keywords)]
    read = sorted(n for a in handed_on for n in names_read(a) if n in reading.assigned)
    into = f" once read into {code(read[0])}" if len(read) == 1 else ""
    given = reading.given(ast.Name(id=read[0], ctx=ast.Load())) if len(read) == 1 else ""
    if not into and not any(isinstance(a, ast.Name) and a.id == reading.value for a in call.args):
        return None  # what it hands on is neither the value nor one local read from it
    return Solution(
        text=(
            f"{where}, give {field} a value that {code(ast.unparse(call))} accepts{into}: it "
            f"failed on the value given, and this error is raised in its place{given}. {runs}: "
            "the check is of your data, not of a call in your code."
        ),
        kind="input",
    )


def _helper_root(func: ast.expr) -> str | None:
    """The name a called function is reached from: `check` of `check(...)`, the module
    `email_check` of `email_check.validate(...)`; None for another call's result."""
    while isinstance(func, ast.Attribute):
        func = func.value
    return func.id if isinstance(func, ast.Name) else None


class UserTry(NamedTuple):
    """The `try` whose `except` holds the site, in a function a user calls."""

    function: ast.FunctionDef
    statement: ast.Try | ast.TryStar
    handler: ast.ExceptHandler
    clause: ConditionView


def user_try(facts: Facts) -> UserTry | None:
    """The site's own function, the `try` whose `except` holds the site, its handler and
    that clause's condition, when the function is one a user calls; else None. Once a page:
    several rules ask."""
    return facts.once("user_try", lambda: _user_try(facts))


def _user_try(facts: Facts) -> UserTry | None:
    clause = facts.innermost_except()
    if clause is None or not callable_by_user(facts):
        return None
    function = facts.site_function()
    found = try_of(function, clause.line) if function is not None else None
    if function is None or found is None:
        return None
    return UserTry(function, found[0], found[1], clause)


def try_of(
    function: ast.FunctionDef | ast.AsyncFunctionDef, line: int
) -> tuple[ast.Try | ast.TryStar, ast.ExceptHandler] | None:
    """The `try` whose `except` clause starts at `line`, and that clause."""
    for node in walk(function):
        if isinstance(node, ast.Try | ast.TryStar):
            for handler in node.handlers:
                if handler.lineno == line:
                    return node, handler
    return None


class _Reading:
    """Which names of the function are read from the validated value alone."""

    def __init__(
        self,
        function: ast.FunctionDef | ast.AsyncFunctionDef,
        value: str,
        fixed: set[str] | frozenset[str],
    ) -> None:
        self.value = value
        self.fixed = set(fixed)
        first = function.args.posonlyargs[:1] or function.args.args[:1]
        if first and first[0].arg == "cls" and value != "cls":
            self.fixed.add("cls")  # a classmethod's class: its attributes are fixed
        # each local → (what is assigned to it, the statement that does it)
        self.assigned: dict[str, list[tuple[ast.AST, ast.AST]]] = {}
        for node in walk(function):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    self._bind(target, node.value, node)
            elif isinstance(node, ast.AnnAssign | ast.AugAssign) and node.value is not None:
                self._bind(node.target, node, node)
            elif isinstance(node, ast.For | ast.AsyncFor):
                self._bind(node.target, node.iter, node)
            elif isinstance(node, ast.comprehension):
                self._bind(node.target, node.iter, function)  # no statement of its own
            elif isinstance(node, ast.NamedExpr):
                self._bind(node.target, node.value, function)
            elif isinstance(node, ast.With | ast.AsyncWith):
                for item in node.items:
                    if item.optional_vars is not None:
                        self._bind(item.optional_vars, item.context_expr, node)

    def _bind(self, target: ast.AST, value: ast.AST, statement: ast.AST) -> None:
        while isinstance(target, ast.Subscript | ast.Attribute):
            target = target.value  # `parts[k] = x` changes what `parts` holds: read it too
        for node in walk(target):
            if isinstance(node, ast.Name):
                self.assigned.setdefault(node.id, []).append((value, statement))

    def of_value(self, nodes: list[ast.expr]) -> bool:
        """Whether the expressions read the value, through locals read from it, and
        nothing else but fixed names."""
        read = set().union(*(names_read(n) for n in nodes)) if nodes else set()
        return bool(read) and self._from_value(read, 0, set()) is True

    def _from_value(self, names: set[str], steps: int, seen: set[str]) -> bool | None:
        """True: read from the value (and fixed names); None: fixed names only; False:
        something else."""
        reached = False
        for name in names:
            if name == self.value:
                reached = True
                continue
            if name in seen:
                continue  # a loop carrying a local back to itself
            values = self.assigned.get(name)
            if values is None:
                if name in self.fixed or fixed_name(name, frozenset()):
                    continue
                return False
            if steps >= _MAX_STEPS:
                return False
            for assigned, _ in values:
                found = self._from_value(names_read(assigned), steps + 1, seen | {name})
                if found is False:
                    return False
                reached = reached or found is True
        return True if reached else None

    def given(self, argument: ast.expr) -> str:
        """ " (`str_value` is read from the value: `str_value = str_validator(v)`, line
        585)" for the first local the argument reads, or ""."""
        for name in sorted(names_read(argument)):
            values = self.assigned.get(name)
            if name == self.value or not values:
                continue
            statement = values[0][1]
            if isinstance(statement, ast.For | ast.AsyncFor):
                target = statement.target
                names = target.elts if isinstance(target, ast.Tuple) else [target]
                shown = f"for {', '.join(ast.unparse(n) for n in names)} in "
                shown += ast.unparse(statement.iter)
            elif isinstance(statement, ast.Assign | ast.AnnAssign | ast.AugAssign):
                shown = ast.unparse(statement)
            else:
                return ""
            return f" ({code(name)} is read from the value: {code(shown)}, line {statement.lineno})"
        return ""


def _imported(tree: ast.Module) -> dict[str, str]:
    """Each name the module imports from another by name → its dotted path (`UUID` →
    `uuid.UUID`)."""
    return {
        alias.asname or alias.name: f"{statement.module}.{alias.name}"
        for statement in tree.body
        if isinstance(statement, ast.ImportFrom) and statement.module and not statement.level
        for alias in statement.names
    }


def _nodes(body: list[ast.stmt]) -> list[ast.AST]:
    """The nodes of the `try`'s body, not those of a function defined in it."""
    out: list[ast.AST] = []
    for statement in body:
        out.extend(
            n
            for n in walk(statement)
            if not isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
        )
    return out


def _inside(call: ast.Call, other: ast.Call) -> bool:
    return call is not other and any(n is call for n in walk(other))


def _quiet(call: ast.Call, reading: _Reading) -> bool:
    """A call of the `try` that fails on nothing a user gives beside the parse: a test
    (`isinstance(v, str)`), a text method of what was read from the value (`unit.lower()`)."""
    func = call.func
    if isinstance(func, ast.Name) and func.id in _TESTS:
        return True
    if isinstance(func, ast.Attribute) and func.attr in _TEXT_METHODS:
        return reading.of_value([func.value])
    return False


def _root(key: ast.expr) -> str | None:
    """The name a key is written from: `unit` of `unit.lower()`."""
    names = names_read(key)
    return next(iter(names)) if len(names) == 1 else None


def _table_keys(table: ast.expr, tree: ast.Module, facts: Facts) -> list[str] | None:
    """The literal keys of a table of the module (`BYTE_SIZES`) or of the site's class
    (`cls.byte_sizes`, assigned in the class body alone)."""
    if isinstance(table, ast.Name):
        return literal_keys(tree, table.id) or None
    if not (
        isinstance(table, ast.Attribute)
        and isinstance(table.value, ast.Name)
        and table.value.id in ("cls", "self")
    ):
        return None
    cls = facts.own_class()
    if cls is None:
        return None
    if any(
        isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store) and n.attr == table.attr
        for n in walk(cls)
    ):
        return None  # set on the class or an instance by its code: not a fixed table
    return literal_keys(ast.Module(body=cls.body, type_ignores=[]), table.attr) or None
