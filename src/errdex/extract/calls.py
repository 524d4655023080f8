"""Facts for the linker's callers and knobs: calls of the codebase's functions, properties,
and tests that expect an error.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping

from errdex.extract.conditions import NAME_OR_ATTRIBUTE, dotted_name, dotted_names, walk
from errdex.extract.knobs import env_read_of
from errdex.extract.shapes import OWN_ATTRIBUTE, OWN_OBJECT, SUPER, without_docstring
from errdex.extract.shapes import receiver as receiver_of
from errdex.facts import CallSite, PropertyFact, TestRef

_PROPERTY_DECORATORS = frozenset(
    {"property", "cached_property", "functools.cached_property", "abc.abstractproperty"}
)
_RAISES = frozenset({"pytest.raises", "raises", "pytest.warns"})
_ASSERT_RAISES = frozenset({"assertRaisesRegex", "assertRaisesRegexp", "assertWarnsRegex"})
# Receivers whose calls are never of the codebase's own functions.
NOT_RECEIVERS = frozenset({"os", "sys", "re", "json", "math", "time", "logging", "logger"})
_MAX_READS = 40
_HOLDS_STATEMENTS = (ast.stmt, ast.excepthandler, ast.match_case)


def call_target(call: ast.Call) -> tuple[str, str | None] | None:
    """(callee, receiver) of `f()`, `self.f()`, `mod.f()`, `Class.f()`; None for other shapes."""
    func = call.func
    if isinstance(func, ast.Name):
        return func.id, None
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        receiver = func.value.id
        if receiver in NOT_RECEIVERS:
            return None
        return func.attr, receiver
    if (
        isinstance(func, ast.Attribute)
        and (call.args or call.keywords)
        and receiver_of(func) == SUPER
    ):
        # `super().__init__(auth=auth)`: a subclass's constructor hands its arguments to
        # the base's (a call passing nothing hands on no value: not kept)
        return func.attr, SUPER
    return None


class CallFilter:
    """Whether a call can reach a function of the codebase: its own defs and imports."""

    def __init__(
        self,
        defs: set[str],
        classes: set[str],
        methods: set[str],
        imports: Mapping[str, str],
        local_imports: Mapping[str, str] | None = None,
    ) -> None:
        self.defs = defs
        self.classes = classes
        self.methods = methods
        self.imports = imports
        # names imported inside a function (local name → "module.attr")
        self.local_imports = local_imports or {}

    def __call__(self, call: CallSite) -> bool:
        if call.passes and call.receiver in self.local_imports:
            return not call.callee.startswith("__")
        if call.receiver_type is not None or (call.receiver or "").startswith(OWN_ATTRIBUTE):
            # a method of an object the code says the class of, or of the object's own
            # attribute (`self.runner.prepare(...)`): the linker reads which class it is
            return not call.callee.startswith("__")
        return self.accepts(call.callee, call.receiver)

    def accepts(self, callee: str, receiver: str | None) -> bool:
        if receiver is None:
            return (
                callee in self.defs
                or callee in self.classes
                or callee in self.imports
                or callee in self.local_imports
                or callee == "cls"  # a classmethod building its own class
            )
        if receiver in OWN_OBJECT:
            return callee in self.methods or not callee.startswith("__")
        if receiver == SUPER:
            return True  # a base's method: the linker finds it, or nothing
        return (
            receiver in self.imports or receiver in self.classes or receiver in self.local_imports
        )


def is_property(stmt: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    for decorator in stmt.decorator_list:
        name = dotted_name(decorator) if isinstance(decorator, NAME_OR_ATTRIBUTE) else None
        if name in _PROPERTY_DECORATORS:
            return True
    return False


def property_fact(stmt: ast.FunctionDef | ast.AsyncFunctionDef, qualname: str) -> PropertyFact:
    """The names a property reads, and those it returns unchanged (directly or via a local)."""
    reads: list[str] = []
    assigned: dict[str, str] = {}
    returns: list[str] = []
    env: list[str] = []
    for node in walk(stmt):
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            value = node.value
            if not isinstance(target, ast.Name):
                continue
            if isinstance(value, NAME_OR_ATTRIBUTE):
                dotted = dotted_name(value)
                if dotted:
                    assigned[target.id] = dotted
            elif (read := env_read_of(value)) is not None:
                assigned[target.id] = f"${read}"
        elif isinstance(node, ast.Return) and node.value is not None:
            if isinstance(node.value, NAME_OR_ATTRIBUTE):
                dotted = dotted_name(node.value)
                if dotted:
                    returns.append(dotted)
            elif (read := env_read_of(node.value)) is not None:
                returns.append(f"${read}")
        elif isinstance(node, ast.Call | ast.Subscript) and (read := env_read_of(node)):
            env.append(read)
    for child in stmt.body:
        reads.extend(dotted_names(child))
    returned = [assigned.get(r, r) for r in returns]
    return PropertyFact(
        qualname=qualname,
        line=stmt.lineno,
        end_line=stmt.end_lineno or stmt.lineno,
        reads=tuple(dict.fromkeys(reads))[:_MAX_READS],
        returns=tuple(dict.fromkeys(r for r in returned if not r.startswith("$"))),
        env_reads=tuple(dict.fromkeys(env)),
        returns_env=tuple(dict.fromkeys(r[1:] for r in returned if r.startswith("$"))),
    )


def getter_fact(stmt: ast.FunctionDef | ast.AsyncFunctionDef, qualname: str) -> PropertyFact | None:
    """A method that returns one of its object's attributes as it is, or else one of its
    own parameters (`if self.x == "auto": return default` then `return self.x`): what a
    call of it gives is that attribute's value whenever the method does not substitute
    its argument. None for any other method: one returning anything computed (a call, a
    literal, an expression) says nothing of the value an attribute holds, for a class or
    static method (`cls.mode` is the class's default, not the user's key), and for one that
    assigns the attribute it returns (`if self.mode is None: self.mode = compute()`: its
    value is computed when the key is unset)."""
    args = stmt.args
    params = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]
    if not params or params[0] != "self" or _bound_elsewhere(stmt):
        return None
    returns: list[str] = []
    todo: list[ast.AST] = list(stmt.body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue  # a nested function's returns are not the method's
        if isinstance(node, ast.Return):
            value = node.value
            dotted = dotted_name(value) if isinstance(value, NAME_OR_ATTRIBUTE) else None
            if dotted is None:
                return None
            root, _, rest = dotted.partition(".")
            if rest and (root != "self" or "." in rest):
                return None  # an attribute of another object, or of one of its attributes
            if not rest and root not in params[1:]:
                return None  # a local, computed from something
            returns.append(dotted)
            continue
        # the statements nested in this one (a handler and a case hold statements too)
        todo.extend(c for c in ast.iter_child_nodes(node) if isinstance(c, _HOLDS_STATEMENTS))
    if not any("." in r for r in returns):
        return None
    stored = {
        f"self.{n.attr}"
        for n in ast.walk(stmt)
        if isinstance(n, ast.Attribute)
        and isinstance(n.ctx, ast.Store)
        and isinstance(n.value, ast.Name)
        and n.value.id == "self"
    }
    if stored.intersection(returns):
        return None  # the attribute it returns is computed here when unset
    return PropertyFact(
        qualname=qualname,
        line=stmt.lineno,
        end_line=stmt.end_lineno or stmt.lineno,
        returns=tuple(dict.fromkeys(returns)),
        method=True,
    )


def key_getter_fact(
    stmt: ast.FunctionDef | ast.AsyncFunctionDef, qualname: str
) -> PropertyFact | None:
    """A method whose whole body returns one key of a dict its object holds, the key and
    the default its own parameters (`def get_from_extra_config(self, key, default): return
    self.kv_connector_extra_config.get(key, default)`): a call of it with a literal key
    reads that key of the dict as `.get` would (`PropertyFact.gets_key`); None for any
    other method."""
    args = stmt.args
    params = [a.arg for a in (*args.posonlyargs, *args.args)]
    body = without_docstring(stmt.body)
    if len(params) not in (2, 3) or params[0] != "self" or _bound_elsewhere(stmt):
        return None
    if len(body) != 1 or not isinstance(body[0], ast.Return):
        return None
    call = body[0].value
    if not (
        isinstance(call, ast.Call)
        and isinstance(call.func, ast.Attribute)
        and call.func.attr == "get"
        and not call.keywords
        and [a.id if isinstance(a, ast.Name) else None for a in call.args] == params[1:]
    ):
        return None
    held = dotted_name(call.func.value) if isinstance(call.func.value, NAME_OR_ATTRIBUTE) else None
    root, _, attr = (held or "").partition(".")
    if root != "self" or not attr.isidentifier():
        return None  # a dict of another object, or of one of its attributes
    return PropertyFact(
        qualname=qualname,
        line=stmt.lineno,
        end_line=stmt.end_lineno or stmt.lineno,
        returns=(held or "",),
        method=True,
        gets_key=True,
    )


def _bound_elsewhere(stmt: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether the method is a class or static method (its first parameter no instance)."""
    return any(
        isinstance(d, NAME_OR_ATTRIBUTE)
        and (dotted_name(d) or "").rpartition(".")[2] in ("classmethod", "staticmethod")
        for d in stmt.decorator_list
    )


def expected_errors(stmt: ast.With | ast.AsyncWith, function: str) -> list[TestRef]:
    """`with pytest.raises(X, match="...")` and `self.assertRaisesRegex(X, "...")`."""
    out: list[TestRef] = []
    for item in stmt.items:
        call = item.context_expr
        if not isinstance(call, ast.Call) or not call.args:
            continue
        name = dotted_name(call.func) if isinstance(call.func, NAME_OR_ATTRIBUTE) else None
        if name is None:
            continue
        exception = call.args[0]
        written = dotted_name(exception) if isinstance(exception, NAME_OR_ATTRIBUTE) else None
        if written is None:
            continue
        match: ast.expr | None = None
        if name in _RAISES:
            match = next((k.value for k in call.keywords if k.arg == "match"), None)
        elif name.rsplit(".", 1)[-1] in _ASSERT_RAISES and len(call.args) > 1:
            match = call.args[1]
        else:
            continue
        pattern = match.value if isinstance(match, ast.Constant) else None
        out.append(
            TestRef(
                exception=written,
                match=pattern if isinstance(pattern, str) else None,
                line=stmt.lineno,
                function=function,
            )
        )
    return out
