"""Whether a check is decided by the function's own computation alone, with evidence.

A page with no way out may tell the user that the check's conditions are the program's own
state, and that hitting it is worth reporting to the project. That is false where the value
comes from a flag (`self.dcp_world_size > 1`, set from the parallel config), the request's
data, an argument of a method users call (`Console.log(_stack_offset=...)` walking `frame`
off the stack), the user's declaration or a model's metadata: the text would send the user
to the project for what they chose. So it needs positive evidence: every name the site's
own conditions read comes, through the function's assignments, from literals, builtins,
constants and classes, never from a parameter (`self` included: an attribute may hold what
a constructor or an earlier call was given, or the call order), a name of an enclosing
function, a module's other names (a registry, a function that reads the config or the
machine) or what a `try` caught. Then nothing a caller passes decides the check, and
hitting it is the program's own doing. Without that evidence the page says less.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Sequence

from errdex.ast_walk import walk
from errdex.explain.context import Facts
from errdex.explain.entry_input import names_read
from errdex.explain.own_attributes import binding_tests
from errdex.explain.user_data import fixed_name, module_constants
from errdex.facts import ConditionKind, SiteKind

__all__ = ["computed_alone", "held_tests", "own_computation", "own_constants"]

_MEMO = "own_state"
_TESTS = "own_state_tests"
# Builtins that read the interpreter's or the machine's state rather than their argument.
_STATEFUL_BUILTINS = frozenset(
    {"open", "input", "globals", "locals", "vars", "id", "hash", "__import__", "eval", "exec"}
)


def own_computation(facts: Facts) -> bool:
    """Whether every condition of the site's own (held) reads only what its function
    computes from literals, builtins, constants and classes (once per page)."""
    return facts.once(_MEMO, lambda: _own(facts))


def _own(facts: Facts) -> bool:
    site = facts.stored.site
    if site.kind not in (SiteKind.ASSERT, SiteKind.RAISE):
        return False  # a helper's conditions read the helper's names, not these
    if any(c.kind == ConditionKind.EXCEPT for c in facts.conditions):
        return False  # what the `try` met decides it
    tests = held_tests(facts)
    if not tests:
        return False
    function = facts.site_function()
    if function is None and site.function != "<module>":
        return False
    return computed_alone(function, tests, own_constants(facts))


def held_tests(facts: Facts) -> tuple[ast.expr, ...]:
    """The site's own conditions parsed (empty when there are none, or one does not parse),
    once per page: the bookkeeping hint reads them after `own_computation`."""
    return facts.once(_TESTS, lambda: _parsed(facts))


def _parsed(facts: Facts) -> tuple[ast.expr, ...]:
    tests: list[ast.expr] = []
    for condition in facts.held:
        try:
            tests.append(ast.parse(condition.text, mode="eval").body)
        except (SyntaxError, ValueError, RecursionError):
            return ()
    return tuple(tests)


def own_constants(facts: Facts) -> frozenset[str]:
    """The module constants the index read for the site, less a slot bound to None (`_OP =
    None`, then `_OP = op` under an `if` the index did not see as a second binding)."""
    empty = {b.name for b in facts.bindings if b.origin == "constant" and b.value == "null"}
    return module_constants(facts) - empty


# Decides whether `self.<attr>` holds only the class's own values (for which value is
# bound alone when the flag is true): `own_attributes.AttributeReader.own`.
Attributes = Callable[[str, bool], bool]


def computed_alone(
    function: ast.FunctionDef | ast.AsyncFunctionDef | None,
    tests: Sequence[ast.AST],
    constants: frozenset[str],
    attributes: Attributes | None = None,
) -> bool:
    """Whether every name `tests` read comes, through `function`'s assignments, from
    literals, builtins, `constants` and classes (and, with `attributes`, from attributes
    of `self` it holds its class's own): no parameter, outer name or caught value. (At
    module level, `function` None: a constant the index read, or nothing followed.)"""
    params: set[str] = set()
    sources: dict[str, list[ast.AST]] = {}
    if function is not None:
        arguments = function.args
        packed = [a for a in (arguments.vararg, arguments.kwarg) if a is not None]
        params = {
            a.arg for a in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, *packed)
        }
        reads = [_names(tested, attributes) for tested in tests]
        if any(names & params for names in reads):
            return False  # a parameter read as it is (`self.x` too): no need to walk the body
        if not any(reads) and not any(isinstance(n, ast.Attribute) for t in tests for n in walk(t)):
            return True  # literals alone (a value set, `self._x = []`): nothing to follow
        sources = _function_sources(function)
    todo: list[ast.AST] = []
    for tested in tests:
        if isinstance(tested, ast.expr) and _outer_test(tested, sources, params):
            return False
        todo.append(tested)
    seen: set[str] = set()
    read: set[int] = set()  # the nodes read already: an assignment's tests recur in each
    while todo:
        node = todo.pop()
        if id(node) in read:
            continue
        read.add(id(node))
        if (
            node is _UNFOLLOWED
            or not _fixed_attributes(node, sources, params)
            or _filled_slot(node, sources, params)
            or _class_tested(node, {*sources, *params, *constants})
        ):
            return False
        for name in _names(node, attributes) - seen:
            seen.add(name)
            if name in params or name in _STATEFUL_BUILTINS:
                return False
            if name in sources:
                if any(v is _UNFOLLOWED for v in sources[name]):
                    return False  # what a `try` caught, what a nested function sets
                todo.extend(sources[name])
            elif not fixed_name(name, constants):
                return False  # an enclosing function's name, a module's other names
    return True


def _names(node: ast.AST, attributes: Attributes | None) -> set[str]:
    """The names `node` reads; `self` left out when each use of it is an attribute
    `attributes` holds the class's own."""
    names = names_read(node)
    if attributes is None or "self" not in names:
        return names
    selves = [n for n in walk(node) if isinstance(n, ast.Name) and n.id == "self"]
    bound_only = binding_tests([node]) if isinstance(node, ast.expr) else set()
    owned = {
        id(n.value)
        for n in walk(node)
        if isinstance(n, ast.Attribute)
        and isinstance(n.value, ast.Name)
        and n.value.id == "self"
        and attributes(n.attr, id(n) in bound_only)
    }
    if all(id(s) in owned for s in selves):
        names.discard("self")
    return names


def _function_sources(
    function: ast.FunctionDef | ast.AsyncFunctionDef,
) -> dict[str, list[ast.AST]]:
    """`_sources` of a function, kept on its node: a class's methods are asked again for
    each attribute they set."""
    kept: dict[str, list[ast.AST]] | None = getattr(function, _KEPT, None)
    if kept is None:
        kept = _sources(function)
        setattr(function, _KEPT, kept)
    return kept


_KEPT = "_errdex_own_sources"


# what an `except ... as e` binds, a nested function sets (`nonlocal`): not followed
_UNFOLLOWED = ast.Constant(value=None)


def _sources(function: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, list[ast.AST]]:
    """Each local → every expression that may decide its value: what is assigned to it
    (a key of `table[key] = v` too), the tests of the `if`/`while`/`for`/`match` around
    each assignment (`name = "a"` under `if type == ...` is decided by `type`), and every
    call it is handed to or called on (`out.append(item)`, `fill(out, n)`)."""
    out: dict[str, list[ast.AST]] = {}
    handed: dict[str, list[ast.AST]] = {}  # the calls each name is handed to or called on

    def add(name: str, values: list[ast.AST]) -> None:
        out.setdefault(name, []).extend(values)

    def bind(target: ast.AST, values: list[ast.AST]) -> None:
        for node in walk(target):
            if isinstance(node, ast.Name):
                add(node.id, values)
            elif isinstance(node, ast.Subscript):
                values = [*values, node.slice]

    def visit(statements: list[ast.stmt], around: list[ast.AST]) -> None:
        for stmt in statements:
            for node in (n for e in _header(stmt) for n in walk(e)):
                if isinstance(node, ast.Call):
                    # a call may change what it is called on or handed
                    for arg in (node.func, *node.args, *(k.value for k in node.keywords)):
                        root = arg
                        while isinstance(root, ast.Attribute | ast.Subscript | ast.Call):
                            root = root.func if isinstance(root, ast.Call) else root.value
                        if isinstance(root, ast.Name):
                            handed.setdefault(root.id, []).extend([node, *around])
                elif isinstance(node, ast.NamedExpr):
                    bind(node.target, [node.value, *around])
                elif isinstance(node, ast.comprehension):
                    bind(node.target, [node.iter, *around])
            if isinstance(stmt, ast.Assign):
                for target in stmt.targets:
                    bind(target, [stmt.value, *around])
            elif isinstance(stmt, ast.AugAssign | ast.AnnAssign) and stmt.value is not None:
                bind(stmt.target, [stmt.value, *around])
            elif isinstance(stmt, ast.Delete):
                for target in stmt.targets:
                    bind(target, list(around))
            elif isinstance(stmt, ast.For | ast.AsyncFor):
                bind(stmt.target, [stmt.iter, *around])
                # how often the body runs: the iterable, and the tests of a `break`
                inner = [*around, stmt.iter, *_tests_inside(stmt)]
                visit(stmt.body, inner)
                visit(stmt.orelse, inner)
            elif isinstance(stmt, ast.While):
                inner = [*around, stmt.test, *_tests_inside(stmt)]
                visit(stmt.body, inner)
                visit(stmt.orelse, inner)
            elif isinstance(stmt, ast.If):
                inner = [*around, stmt.test]
                visit(stmt.body, inner)
                visit(stmt.orelse, inner)
            elif isinstance(stmt, ast.Global):
                for name in stmt.names:  # a module's name, set elsewhere too
                    add(name, [_UNFOLLOWED])
            elif isinstance(stmt, ast.With | ast.AsyncWith):
                for item in stmt.items:
                    if item.optional_vars is not None:
                        bind(item.optional_vars, [item.context_expr, *around])
                visit(stmt.body, [*around, *(i.context_expr for i in stmt.items)])
            elif isinstance(stmt, ast.Match):
                inner = [*around, stmt.subject]
                for case in stmt.cases:
                    for node in walk(case.pattern):
                        bound = getattr(node, "name", None)
                        if isinstance(bound, str):
                            add(bound, [stmt.subject, *around])
                    visit(case.body, inner)
            elif isinstance(stmt, ast.Try | ast.TryStar):
                visit(stmt.body, around)
                # a handler runs when the body raised: what it sets is the `try`'s doing
                for handler in stmt.handlers:
                    if handler.name:
                        add(handler.name, [_UNFOLLOWED])
                    visit(handler.body, [*around, _UNFOLLOWED])
                visit(stmt.orelse, around)
                visit(stmt.finalbody, around)
            elif isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                add(stmt.name, [_UNFOLLOWED])  # a nested definition: not followed
                for node in walk(stmt):
                    if isinstance(node, ast.Nonlocal):
                        for name in node.names:  # set when the nested function runs
                            add(name, [_UNFOLLOWED])

    visit(function.body, [])
    for name, calls in handed.items():
        if name in out:  # a local: what it is handed to may change it
            out[name].extend(calls)
    return out


def _tests_inside(loop: ast.For | ast.AsyncFor | ast.While) -> list[ast.AST]:
    """The tests of the `if`s and `while`s in a loop's body: one over a `break` or a
    `continue` decides what the later statements of the body see."""
    return [n.test for n in walk(loop) if isinstance(n, ast.If | ast.While) and n is not loop]


def _header(stmt: ast.stmt) -> list[ast.AST]:
    """The expressions of a statement itself: a compound statement's header (its nested
    statements are visited in turn), a simple statement whole."""
    if isinstance(stmt, ast.If | ast.While):
        return [stmt.test]
    if isinstance(stmt, ast.For | ast.AsyncFor):
        return [stmt.target, stmt.iter]
    if isinstance(stmt, ast.With | ast.AsyncWith):
        return list(stmt.items)
    if isinstance(stmt, ast.Match):
        return [stmt.subject]
    if isinstance(stmt, ast.Try | ast.TryStar):
        return [h.type for h in stmt.handlers if h.type is not None]
    if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return []  # a nested definition runs later, if at all
    return [stmt]


def _outer_test(node: ast.expr, sources: dict[str, list[ast.AST]], params: set[str]) -> bool:
    """Whether a condition tests a module's name for truth (`HAS_X`, `not _op`): a flag or
    a slot an import or a setup call sets."""
    while isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        node = node.operand
    if isinstance(node, ast.BoolOp):
        return any(_outer_test(v, sources, params) for v in node.values)
    return isinstance(node, ast.Name) and node.id not in sources and node.id not in params


def _filled_slot(node: ast.AST, sources: dict[str, list[ast.AST]], params: set[str]) -> bool:
    """Whether `node` compares a module's name with None (`Client is None`): the name is a
    slot an optional import or a setup call fills, not a fixed value."""
    for n in walk(node):
        if not isinstance(n, ast.Compare) or len(n.ops) != 1:
            continue
        pair = (n.left, n.comparators[0])
        if not any(isinstance(p, ast.Constant) and p.value is None for p in pair):
            continue
        if any(
            isinstance(p, ast.Name) and p.id not in sources and p.id not in params for p in pair
        ):
            return True
    return False


def _class_tested(node: ast.AST, known: set[str]) -> bool:
    """Whether `node` tests a capitalised outside name itself (`isinstance(Callable,
    type)`, `Client == other`) rather than using it as a class (called, the class of an
    `isinstance`, the owner of an all-capitals member): a name an import binds may be
    whatever the installed package gives."""
    used: set[int] = set()
    for n in walk(node):
        if isinstance(n, ast.Call):
            used.add(id(n.func))
            if isinstance(n.func, ast.Name) and n.func.id in ("isinstance", "issubclass"):
                used.update(id(c) for a in n.args[1:2] for c in walk(a))
        elif isinstance(n, ast.Attribute):
            used.add(id(n.value))
    return any(
        isinstance(n, ast.Name)
        and id(n) not in used
        and n.id not in known
        and n.id.lstrip("_")[:1].isupper()
        and not n.id.lstrip("_").isupper()
        for n in walk(node)
    )


def _fixed_attributes(node: ast.AST, sources: dict[str, list[ast.AST]], params: set[str]) -> bool:
    """Whether every attribute read of a class in `node` is an all-capitals member
    (`Mode.FAST`): a class's other attributes (`Registry.entries`, `Cls.lookup(name)`)
    may hold what the program was given."""
    for n in walk(node):
        if (
            isinstance(n, ast.Attribute)
            and isinstance(n.value, ast.Name)
            and n.value.id not in sources
            and n.value.id not in params
            and n.value.id.lstrip("_")[:1].isupper()
            and not n.attr.isupper()
        ):
            return False
    return True
