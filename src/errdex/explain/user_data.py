"""Ways out of a check on the user's own data: a value a public function was given.

A validator computes something from its argument and raises when that fails (pydantic's
Luhn check: `valid = sum_ % 10 == 0` from `card_number`; `IPv4Network(value)` raising
`ValueError` for a network with host bits set). The condition reads locals, so the input
rules (which want the argument itself) find nothing to put in words, and the page used to
call it the program's own state "worth reporting to the project". When every name the check
reads comes, through the function's own assignments, from its parameters (and constants,
builtins, module names), nothing but the value given decides it: the way out is another
value. The sentence says which argument, what the check computes from it, and the message.
"""

from __future__ import annotations

import ast
import builtins
import copy
from typing import NamedTuple, TypeVar

from errdex.ast_walk import walk
from errdex.explain.context import CONTEXT_KINDS, Facts
from errdex.explain.entry_input import names_read
from errdex.explain.input_shapes import module_patterns
from errdex.explain.inputs import private_argument, public_name
from errdex.explain.page import ConditionView, Solution
from errdex.explain.plain import code, listed
from errdex.facts import ConditionKind, MessageTemplate, SiteKind

_MAX_SHOWN = 2
_MAX_KEYS = 10
# Errors raised for what the program got wrong, not for the value it was given.
_INVARIANTS = frozenset({"AssertionError", "RuntimeError", "NotImplementedError", "SystemError"})
_BUILTINS = frozenset(dir(builtins))
# modules whose functions compute from their arguments alone
_PURE_MODULES = frozenset(
    {"math", "re", "string", "ipaddress", "operator", "itertools", "functools", "json"}
    | {"unicodedata", "decimal", "fractions", "base64", "binascii", "urllib", "posixpath"}
)
# Names that read state rather than the value given.
STATE_NAMES = frozenset({"self", "cls", "os", "sys", "envs", "environ", "time", "random"})


class FieldValue(NamedTuple):
    """A validator's parameter that holds the value of the user's data, said as the data's
    field: what the framework runs the validator on, no argument a user passes."""

    value: str  # the parameter (`v`)
    field: str  # "the field `x` of `Model`", "a field declared as `Decimal`"
    where: str  # "In the data you validate"
    # the type a field is declared as, whose validator this is: its class attributes
    # (`cls.max_digits`) are the constraints the declaration sets (`condecimal(max_digits=2)`)
    owner: str | None = None


def user_data_solution(
    facts: Facts, open_conditions: list[ConditionView], data: FieldValue | None = None
) -> Solution | None:
    """ "Give `F` another `card_number`: ...", or None. For a validator (`data`), the value
    is the field's in the user's data: "In the data you validate, give the field another
    value: ..."."""
    site = facts.stored.site
    # a validator's value is the user's data whoever may call the function: the framework
    # runs it on the field's value (a private `_import_string_logic`, a type's `_validate`)
    if site.kind != SiteKind.RAISE or not (data is not None or callable_by_user(facts)):
        return None
    if (site.exception or "").rpartition(".")[2] in _INVARIANTS:
        return None  # raised as a broken invariant, whatever value reached it
    function = facts.site_function()
    if function is None:
        return None
    # `*args`/`**kwargs` hold what other code hands on, no one value a user gives
    packed = {a.arg for a in (function.args.vararg, function.args.kwarg) if a is not None}
    params = [p for p in facts.read.params if p not in ("self", "cls") and p not in packed]
    if not params:
        return None
    callee = code(site.function.removesuffix(".__init__").removesuffix(".__new__"))
    said = quoted_message(site.message)
    failed = failed_call(facts, function, params)
    if failed is not None:
        call, param = failed
        if data is not None or private_argument(param, facts.read.params, {}, facts):
            # the validator rules say a call failing on the field's value; the package's
            # own keyword (`_check`) is no value a user gives
            return None
        return Solution(
            text=(
                f"Give {callee} another {code(param)}: the value given makes {code(call)} "
                f"fail, and this error is raised in its place{said}. The check is of the "
                "value given, not of the program's state."
            ),
            kind="input",
        )
    if any(c.kind == ConditionKind.EXCEPT for c in facts.conditions):
        return None  # what decides it is what the `try` did, not the tests above it
    checks = [c for c in open_conditions if c.kind not in CONTEXT_KINDS]
    if not checks or checks[-1].kind == ConditionKind.EARLY_EXIT:
        return None
    check = checks[-1]  # the raise's own test
    sources = with_class_constants(local_sources(function), facts)
    try:
        tested = ast.parse(check.text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return None
    declared = _declared_constraints(facts, data, function)
    if declared:  # each `cls.attr` a declaration sets walked as one name
        tested = _constraints_named(tested, declared)
        sources = {n: [_constraints_named(v, declared) for v in vs] for n, vs in sources.items()}
    read = names_read(tested)
    fixed = module_constants(facts) | frozenset(declared.values())
    walked = _reached(read, sources, {*params, *packed}, fixed)
    if walked is None and data is not None and "re.compile(" in (facts.source_text or ""):
        # a pattern the module compiles from its own text (`date_re = re.compile(r"...")`)
        # is as fixed as a constant: matching the field's value against it reads nothing else
        fixed |= frozenset(module_patterns(facts.source_tree()))
        walked = _reached(read, sources, {*params, *packed}, fixed)
    if walked is None or walked[0] & packed:
        return None  # none, or what `*args` handed in as well (`fields = field, *fields`)
    reached, seen = walked
    used = [p for p in params if p in reached]
    if any(private_argument(p, facts.read.params, {}, facts) for p in used):
        return None  # the package's own keyword (`_check`): no value a user gives
    if len(used) != 1:
        # none; or several, where an earlier bound may hold one of them fixed (`1 <=
        # skinny` before `skinny and dim % 64`): which to change is not known
        return None
    values = [tested, *(v for n in seen if n in sources for v in sources[n])]
    if any(_state_read(v, {*params, *sources}) for v in values):
        # `args.grpc_port`, `vllm_config.model_config`, `x.shape`: an attribute of an
        # object handed in (a namespace, a config, a tensor) is its state, not a value the
        # user gives as such (the setting behind it is another rule's)
        return None
    via = [n for n in sorted(read) if n in sources and n not in params]
    names = " and ".join(code(p) for p in used)
    computed = (
        f" and what the function computes from it ({', '.join(code(n) for n in via[:_MAX_SHOWN])})"
        if via
        else ""
    )
    bounds = sorted({n for v in values for n in names_read(v) if n in declared.values()})
    if bounds:
        said = listed([code(_declared_name(b)) for b in bounds])
        computed = f"{computed.replace(' and what', ', what')} and the field's {said}"
    if data is not None:
        if used != [data.value]:
            return None  # another of the validator's parameters: the framework's objects
        return Solution(
            text=(
                f"{data.where}, give {data.field} another value: {callee} holds it as "
                f"{names}, and the check at line {check.line} "
                f"({check.plain or code(check.text)}) reads only {names}{computed}"
                f"{quoted_message(site.message)}{mapping_keys(tested, sources)}. {callee} is "
                "a validator the framework runs on that value: the check is of your data, not "
                "of a call in your code."
            ),
            condition=check.text,
            kind="input",
        )
    return Solution(
        text=(
            f"Give {callee} another {names}: the check at line {check.line} "
            f"({check.plain or code(check.text)}) reads only {names}{computed}"
            f"{quoted_message(site.message)}{mapping_keys(tested, sources)}. The check is of "
            "the value given, not of the program's state."
        ),
        condition=check.text,
        kind="input",
    )


# a declared constraint `cls.max_digits` stands as one name while the check is walked
_CONSTRAINT = "__constraint_"
Node = TypeVar("Node", bound=ast.AST)


def _declared_constraints(
    facts: Facts, data: FieldValue | None, function: ast.FunctionDef
) -> dict[str, str]:
    """For a validator a field's declared type hands the framework (`data.owner`), the
    class attributes it reads off `cls` that the class body declares and no method
    reassigns (`max_digits: int = None`): the constraints the field's declaration sets
    (`condecimal(max_digits=2)` makes a subclass with `max_digits = 2`), not the program's
    state. Each `cls.attr` → the name it stands as while the check is walked."""
    if data is None or data.owner is None or "." in data.owner:
        return {}
    read = {
        n.attr
        for n in walk(function)
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "cls"
    }
    found = facts.top_class(data.owner) if read else None
    if found is None:
        return {}
    # a constraint is declared with a plain default the declaration overrides (`max_digits:
    # int = None`); not a constant of the class's own (`PATTERN = ...`, a compiled pattern)
    body: set[str] = set()
    for node in found.body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            if node.value is None or isinstance(node.value, ast.Constant):
                body.add(node.target.id)
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
            body |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    body = {n for n in body if not n.isupper()}
    changed = _reassigned_attributes(found)
    return {a: _CONSTRAINT + a for a in sorted(read & body - changed) if not a.startswith("_")}


def _declared_name(name: str) -> str:
    """The attribute a constraint's stand-in name is of (`max_digits`)."""
    return name.removeprefix(_CONSTRAINT)


def _constraints_named(node: Node, declared: dict[str, str]) -> Node:
    """`node` with each `cls.attr` of `declared` as a plain name (a copy)."""
    named: Node = _Named(declared).visit(copy.deepcopy(node))
    return named


class _Named(ast.NodeTransformer):
    def __init__(self, declared: dict[str, str]) -> None:
        self.declared = declared

    def visit_Attribute(self, attribute: ast.Attribute) -> ast.AST:
        value, name = attribute.value, attribute.attr
        if isinstance(value, ast.Name) and value.id == "cls" and name in self.declared:
            return ast.copy_location(ast.Name(id=self.declared[name]), attribute)
        return self.generic_visit(attribute)


def with_class_constants(
    sources: dict[str, list[ast.AST]], facts: Facts
) -> dict[str, list[ast.AST]]:
    """The locals read from a constant of the site's own class (`STYLE_ATTRIBUTES =
    cls.STYLE_ATTRIBUTES`, an all-capitals name its body assigns once and no method
    reassigns) given that value in place of `cls.X`: a table fixed in the code, not state."""
    owner = facts.stored.site.class_name
    wanted = {
        name: values[0].attr
        for name, values in sources.items()
        if owner
        and len(values) == 1
        and isinstance(values[0], ast.Attribute)
        and isinstance(values[0].value, ast.Name)
        and values[0].value.id in ("cls", "self", owner)
        and values[0].attr.isupper()
    }
    if not wanted or owner is None or "." in owner:
        return sources
    found = facts.top_class(owner)
    if found is None:
        return sources
    body: dict[str, list[ast.expr]] = {}
    for node in found.body:
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name):
                    body.setdefault(target.id, []).append(node.value)
    # reassigned on an instance or the class (`self.X = ...`): state after all
    changed = _reassigned_attributes(found)
    out = dict(sources)
    for name, attr in wanted.items():
        values = body.get(attr, [])
        if len(values) == 1 and attr not in changed and _literal_table(values[0]):
            out[name] = [values[0]]
    return out


def _reassigned_attributes(found: ast.ClassDef) -> set[str]:
    """The attributes the class's code assigns on an object (`self.X = ...`, `cls.X += 1`)."""
    return {
        t.attr
        for node in walk(found)
        if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign)
        for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(t, ast.Attribute)
    }


def _literal_table(node: ast.expr) -> bool:
    """A literal, or a dict, list, tuple or set of literals."""
    try:
        ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
        return False
    return True


def mapping_keys(tested: ast.expr, sources: dict[str, list[ast.AST]]) -> str:
    """ "; `word` must be one of the keys of `STYLE_ATTRIBUTES`: ..." for a test `x is None`
    of `x = TABLE.get(word)` where the table is a literal dict; else ""."""
    if not (
        isinstance(tested, ast.Compare)
        and isinstance(tested.ops[0], ast.Is)
        and isinstance(tested.left, ast.Name)
        and isinstance(tested.comparators[0], ast.Constant)
        and tested.comparators[0].value is None
    ):
        return ""
    values = sources.get(tested.left.id, [])
    got = values[0] if len(values) == 1 else None
    if not (
        isinstance(got, ast.Call)
        and isinstance(got.func, ast.Attribute)
        and got.func.attr == "get"
        and isinstance(got.func.value, ast.Name)
        and len(got.args) == 1
        and isinstance(got.args[0], ast.Name)
    ):
        return ""
    table = got.func.value.id
    found = sources.get(table, [])
    if len(found) != 1 or not isinstance(found[0], ast.Dict):
        return ""
    keys = [k.value for k in found[0].keys if isinstance(k, ast.Constant)]
    if not keys or len(keys) != len(found[0].keys) or not all(isinstance(k, str) for k in keys):
        return ""
    shown = ", ".join(code(repr(k)) for k in keys[:_MAX_KEYS])
    more = f" and {len(keys) - _MAX_KEYS} more" if len(keys) > _MAX_KEYS else ""
    return f"; {code(got.args[0].id)} must be one of the keys of {code(table)} ({shown}{more})"


def quoted_message(message: MessageTemplate | None) -> str:
    """The message quoted after a sentence; not an error code (`payment_card_number_luhn`,
    a validation error's type, which its class shows with another text), nor a message with
    no words of its own (`{[ErrorWrapper(e, loc=ROOT_KEY)]}`: quoted, it reads “VALUE”)."""
    if message is None or " " not in message.text.strip():
        return ""
    if not any(isinstance(p, str) and any(c.isalpha() for c in p) for p in message.parts):
        return ""
    return f" (“{message.text}”)"


def module_constants(facts: Facts) -> frozenset[str]:
    """The module constants the index read for the site, less any a setting decides."""
    behind = {k.behind or k.name for k in facts.knobs}
    return frozenset(
        b.name for b in facts.bindings if b.origin == "constant" and b.name not in behind
    )


def callable_by_user(facts: Facts) -> bool:
    """A public function of a public module (or one the package re-exports)."""
    stored = facts.stored
    if not public_name(stored.site.function):
        return False
    private = any(p.startswith("_") for p in stored.module.split("."))
    return not private or stored.public_path() is not None


def failed_call(
    facts: Facts,
    function: ast.FunctionDef,
    params: list[str],
    handed: frozenset[str] = frozenset(),
) -> tuple[str, str] | None:
    """(the call, the parameter) of the `try` whose `except` holds the site, when that call
    reads one parameter as it is and nothing else the function computed; `handed` are
    parameters the call may read besides, whose value the caller fixes (the model's
    `config` a framework hands a validator: `config.json_loads(v)`)."""
    excepts = [c for c in facts.conditions if c.kind == ConditionKind.EXCEPT]
    if not excepts or len(excepts) != len([c for c in facts.conditions if c.kind in CONTEXT_KINDS]):
        return None
    tried = facts.read.tries.get(excepts[-1].line)
    if tried is None or tried.imports or len(tried.calls) != 1:
        return None
    call = tried.calls[0]
    read = _roots(call)
    used = [p for p in params if p in read]
    sources = local_sources(function)
    # the call's other names: a class or function of the module, no local it computed
    constants = module_constants(facts)
    if len(used) != 1 or any(
        n in sources or not (n in handed or fixed_name(n, constants)) for n in read - set(used)
    ):
        return None
    try:
        if _state_read(ast.parse(call, mode="eval").body, {used[0]}):
            return None
    except (SyntaxError, ValueError, RecursionError):
        return None
    return call, used[0]


def local_sources(function: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, list[ast.AST]]:
    """Each local the function assigns → the values assigned to it (every assignment, those
    after the site too: a loop carries them back to it)."""
    out: dict[str, list[ast.AST]] = {}

    def bind(target: ast.expr, value: ast.AST) -> None:
        if isinstance(target, ast.Subscript):
            # `table[key] = value` changes the table, not the key
            bind(target.value, value)
            return
        if isinstance(target, ast.Tuple | ast.List):
            for element in target.elts:
                bind(element, value)
            return
        for node in walk(target):
            if isinstance(node, ast.Name):
                out.setdefault(node.id, []).append(value)

    for node in walk(function):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                bind(target, node.value)
        elif isinstance(node, ast.AugAssign | ast.AnnAssign) and node.value is not None:
            bind(node.target, node.value)
        elif isinstance(node, ast.For | ast.AsyncFor | ast.comprehension):
            bind(node.target, node.iter)
        elif isinstance(node, ast.NamedExpr):
            bind(node.target, node.value)
        elif isinstance(node, ast.With | ast.AsyncWith):
            for item in node.items:
                if item.optional_vars is not None:
                    bind(item.optional_vars, item.context_expr)
        elif isinstance(node, ast.Try):
            for handler in node.handlers:
                if handler.name:
                    out.setdefault(handler.name, []).append(ast.Name(id="<caught>"))
    return out


def _state_read(node: ast.AST, names: set[str]) -> bool:
    """Whether an expression reads an attribute of one of the names (a parameter or a local,
    however deep: `args.port`, `layers[0].conv.ndim`) other than to call a method of it
    (`url.startswith(...)`)."""
    called = {id(n.func) for n in walk(node) if isinstance(n, ast.Call)}
    for n in walk(node):
        if (
            isinstance(n, ast.Call)
            and isinstance(n.func, ast.Name)
            and n.func.id in ("getattr", "hasattr")
            and n.args
            and isinstance(n.args[0], ast.Name)
            and n.args[0].id in names
        ):
            return True  # `getattr(args, name, None)`: an attribute all the same
        if not isinstance(n, ast.Attribute) or id(n) in called:
            continue
        root: ast.expr = n.value
        while isinstance(root, ast.Attribute | ast.Subscript | ast.Call):
            root = root.func if isinstance(root, ast.Call) else root.value
        if isinstance(root, ast.Name) and root.id in names:
            return True
    return False


def _reached(
    read: set[str], sources: dict[str, list[ast.AST]], params: set[str], constants: frozenset[str]
) -> tuple[set[str], set[str]] | None:
    """The parameters the names reach through the locals' assignments, and every name met
    on the way; None when one of them reaches state (`self`, a module's mutable names) or
    a name of unknown origin."""
    reached: set[str] = set()
    seen: set[str] = set()
    todo = list(read)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        if name in params:
            reached.add(name)
            if name in sources:  # rebound: what it is rebound to counts too
                todo.extend(_read_by(sources[name]) - seen)
            continue
        if name in STATE_NAMES or name == "<caught>":
            return None
        if name in sources:
            todo.extend(_read_by(sources[name]) - seen)
        elif not fixed_name(name, constants):
            return None  # a module's function or object: it may read the machine's state
    return reached, seen


def _read_by(values: list[ast.AST]) -> set[str]:
    return {n for v in values for n in names_read(v)}


def fixed_name(name: str, constants: frozenset[str]) -> bool:
    """A name outside the function whose value does not depend on the program's state: a
    builtin, a constant the index read as one, a class (capitalised, not all capitals: a
    `HAS_TURBO` may be what an optional import left), a module of pure functions."""
    if name in _BUILTINS or name in constants or name in _PURE_MODULES:
        return True
    bare = name.lstrip("_")
    return bare[:1].isupper() and not bare.isupper()


def _roots(text: str) -> set[str]:
    try:
        return names_read(ast.parse(text, mode="eval").body)
    except (SyntaxError, ValueError, RecursionError):
        return set()


def arguments_read(facts: Facts) -> list[str]:
    """The parameters of a function a user calls that the raise's own test names: the page
    must not call such a check the program's own state. An `assert` (an invariant by
    intent) and a test that reaches them only through locals (`entry = self._entries[key]`)
    are left out: what they test is as often the program's bookkeeping; but not an assert in
    a function of a private module that the package re-exports (`httpx.Timeout` from
    `httpx._config`): the only way to it is the name handed to users, whose arguments are
    theirs (a public module's helper re-exported, vendored code's, is as often internal)."""
    kind = facts.stored.site.kind
    private = any(p.startswith("_") for p in facts.stored.module.split("."))
    exported = private and bool(facts.stored.public)
    if not (kind == SiteKind.RAISE or (kind == SiteKind.ASSERT and exported)) or not facts.held:
        return []
    if not callable_by_user(facts):
        return []
    read = _roots(facts.held[-1].text)
    return [p for p in facts.read.params if p not in ("self", "cls") and p in read]
