"""A check that runs while Python creates the user's own class.

At the end of a `class` statement Python runs two kinds of code of the package: the
`__new__` and `__init__` of the class's metaclass, called with the class's name, its
bases and the namespace its body filled (`__new__(mcs, name, bases, namespace,
**kwargs)`), and the `__init_subclass__` of its bases, called with the new class. A check
there, or in a function that only they call (within the linker's three callers), tests
the definition being made: the names its body assigns, their annotations, its bases, the
keywords of the `class` line. The package's own classes pass it (the package imports), so
a class that trips it is the user's (a model, a schema, a mapped class).

The page then says so, in place of "the program's own state" or "what the code was
handed": the way out is a change to that class. What the hook is handed (its `bases`,
its `namespace`) is no argument a user passes: a way out phrased on it is none. One shape
of check gets the change itself: a loop over the names the body assigns that fails on a
name without an annotation (`for name, value in namespace.items(): ... if name not in
namespace.get("__annotations__", {})`) asks for an annotation on that name.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable

from errdex.ast_walk import walk
from errdex.explain.class_made import ATTRIBUTES, BODY, ClassHook, ClassHooks
from errdex.explain.context import Facts, function_at
from errdex.explain.linked import gate_view
from errdex.explain.page import Caller, ConditionView, Solution
from errdex.explain.plain import code, listed
from errdex.explain.refused_use import INVARIANTS
from errdex.explain.user_values import loop_header
from errdex.extract.module import module_name
from errdex.extract.shapes import single_binding
from errdex.facts import ConditionKind, SiteKind
from errdex.link.callers import METACLASS_HOOKS, METACLASSES, SUBCLASS_HOOK
from errdex.link.expression_texts import parse_expression

__all__ = [
    "annotation_solution",
    "checks_users_class",
    "class_hook",
    "class_hook_sentence",
    "declaration_hook",
    "names_hook_argument",
]

_MAX_HOOKS = 3  # hooks named on the page at most
_MAX_BASES_DEPTH = 3  # a metaclass's base defined in the same file, and its base
_HEADER = re.compile(r"[ \t]*class\s+(?P<name>\w+)\s*\((?P<bases>[^)]*)\)\s*:")
# The positional parameters Python fills for a metaclass's `__new__`: the metaclass (or
# the class, for `__init__`), the name, the bases, the namespace.
_BODY_AT = 3
_ANNOTATIONS = "__annotations__"


_KEYWORDS = "the keywords of its `class` line"


def class_hook(facts: Facts, text_of: Callable[[str], str | None]) -> ClassHooks | None:
    """The class-creation hooks the site's function is, or that every chain of callers the
    linker found up from it ends at (at most `_MAX_HOOKS`), else None. `text_of` reads a
    file of the version (the site's own is `facts.source_text`)."""
    site = facts.stored.site
    own = _hook_of(site.function, facts.stored.file, site.line, facts, text_of, 0)
    if own is not None:
        hook, node = own
        return ClassHooks((hook,), tuple(_hook_roles(hook, node).items()))
    hooks_calling = [c for c in facts.callers if _hook_name(c.function)]
    # a subclass's hook handing on to its base's (`super().__init_subclass__(**kw)`) runs
    # the base's: the chain has ended at that one already
    named = {f"{module_name(c.file)[0]}.{c.function}" for c in hooks_calling}
    callers = [c for c in hooks_calling if c.calls not in named]
    if not callers or len(callers) > _MAX_HOOKS:
        return None
    if not _only_from(facts.callers, _qualified(facts), callers, 0):
        return None
    hooks: list[ClassHook] = []
    roles: dict[str, str] | None = None
    for caller in callers:
        found = _hook_of(caller.function, caller.file, caller.line, facts, text_of, caller.depth)
        if found is None:
            return None
        hooks.append(found[0])
        passed = _roles_down(facts, text_of, caller, *found)
        # a name holds the same part of the class on every way in, or none
        roles = passed if roles is None else {k: v for k, v in roles.items() if passed.get(k) == v}
    return ClassHooks(tuple(hooks), tuple((roles or {}).items()))


def _roles_down(
    facts: Facts,
    text_of: Callable[[str], str | None],
    caller: Caller,
    hook: ClassHook,
    node: ast.FunctionDef,
) -> dict[str, str]:
    """The hook's roles as the site's function names them, along the chain of calls from
    `caller` (empty when the chain forks or a function cannot be read)."""
    roles = _hook_roles(hook, node)
    chain = _chain(facts.callers, caller, _qualified(facts))
    if chain is None:
        return {}
    for upper, lower in zip(chain, [*chain[1:], None], strict=True):
        upper_node = node if upper is caller else _def_of(upper, facts, text_of)
        lower_node = facts.site_function() if lower is None else _def_of(lower, facts, text_of)
        if upper_node is None or lower_node is None:
            return {}
        function = facts.stored.site.function if lower is None else lower.function
        method = "." in function and not function.endswith(">")
        roles = _passed_down(upper_node, upper.line, lower_node, roles, method)
    return roles


def _chain(callers: list[Caller], hook: Caller, target: str) -> list[Caller] | None:
    """The callers from `hook` down to the one that calls `target` (the site's function),
    each calling the next, when there is one such chain."""
    chain = [hook]
    while chain[-1].depth > 1:
        calls = chain[-1].calls
        below = [
            c
            for c in callers
            if c.depth == chain[-1].depth - 1 and f"{module_name(c.file)[0]}.{c.function}" == calls
        ]
        if len(below) != 1:
            return None
        chain.append(below[0])
    return chain if chain[-1].calls == target else None


def _def_of(
    caller: Caller, facts: Facts, text_of: Callable[[str], str | None]
) -> ast.FunctionDef | None:
    text = facts.source_text if caller.file == facts.stored.file else text_of(caller.file)
    return function_at(text, caller.function.rpartition(".")[2], caller.line)


def _hook_roles(hook: ClassHook, node: ast.FunctionDef) -> dict[str, str]:
    """The hook's names for what Python hands it, each with what of the class it is: a
    metaclass's name, bases, namespace and `**kwargs` (and the class `super().__new__`
    makes of them, or the class itself for its `__init__`); `__init_subclass__`'s class
    and `**kwargs`."""
    args = node.args
    params = [a.arg for a in (*args.posonlyargs, *args.args)]
    own = {0: ATTRIBUTES} if hook.kind == "subclass" else {2: "its bases", _BODY_AT: BODY}
    if hook.kind == "metaclass" and hook.function.endswith(".__init__"):
        own[0] = ATTRIBUTES
    roles = {params[i]: what for i, what in own.items() if i < len(params)}
    if args.kwarg is not None:
        roles[args.kwarg.arg] = _KEYWORDS
    if hook.kind == "metaclass":
        for statement in walk(node):
            if (bound := single_binding(statement)) is None:
                continue
            target, value = bound
            if isinstance(target, ast.Name) and _makes_class(value):
                roles[target.id] = ATTRIBUTES
    return roles


def _makes_class(value: ast.expr) -> bool:
    """`super().__new__(...)` (or that in `cast(T, ...)`): the class a metaclass's `__new__`
    makes."""
    if isinstance(value, ast.Call) and len(value.args) == 2:
        func = value.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
        if name == "cast":
            value = value.args[1]
    return (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Attribute)
        and value.func.attr == "__new__"
        and isinstance(value.func.value, ast.Call)
        and isinstance(value.func.value.func, ast.Name)
        and value.func.value.func.id == "super"
    )


def _passed_down(
    upper: ast.FunctionDef, line: int, lower: ast.FunctionDef, roles: dict[str, str], method: bool
) -> dict[str, str]:
    """`roles` as `lower` names them, from `upper`'s call of it at `line`: each argument
    (and the receiver of a call of `lower` as a method, its first parameter) that is one of
    those names as it is."""
    args = lower.args
    decorators = {ast.unparse(d) for d in lower.decorator_list}
    method = method and "staticmethod" not in decorators
    params = [a.arg for a in (*args.posonlyargs, *args.args)]
    for call in walk(upper):
        if not isinstance(call, ast.Call) or not call.lineno <= line <= (
            call.end_lineno or call.lineno
        ):
            continue
        func = call.func
        called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
        if called != lower.name:
            continue
        given = list(call.args)
        if method and isinstance(func, ast.Attribute):
            given.insert(0, func.value)  # `cls.method(...)`: its receiver is the first
        elif method:
            return {}
        named = [(p, a) for p, a in zip(params, given, strict=False)]
        named += [(k.arg, k.value) for k in call.keywords if k.arg in params]
        return {p: roles[a.id] for p, a in named if isinstance(a, ast.Name) and a.id in roles}
    return {}


def _hook_name(function: str) -> bool:
    method = function.rpartition(".")[2]
    return "." in function and (method == SUBCLASS_HOOK or method in METACLASS_HOOKS)


def _hook_of(
    function: str,
    file: str,
    line: int,
    facts: Facts,
    text_of: Callable[[str], str | None],
    depth: int,
) -> tuple[ClassHook, ast.FunctionDef] | None:
    if not _hook_name(function):
        return None
    owner, _, method = function.rpartition(".")
    owner = owner.rpartition(".")[2]
    text = facts.source_text if file == facts.stored.file else text_of(file)
    if text is None or owner == "<locals>":
        return None
    if method == SUBCLASS_HOOK:
        kind = "subclass"
    elif _is_metaclass(text, owner, _MAX_BASES_DEPTH):
        kind = "metaclass"
    else:
        return None
    node = function_at(text, method, line)
    if node is None:
        return None
    return ClassHook(function, owner, kind, depth, file, line), node


def _is_metaclass(text: str, name: str, depth: int) -> bool:
    """Whether the class `name` of `text` derives from a metaclass of the standard library
    (itself, or through a base of the same file)."""
    bases = _bases(text, name)
    if any(b in METACLASSES for b in bases):
        return True
    return depth > 1 and any(
        b.isidentifier() and b != name and _is_metaclass(text, b, depth - 1) for b in bases
    )


def _bases(text: str, name: str) -> list[str]:
    """The bases the `class name(...)` line of `text` lists (keywords left out), found with
    `str.find` (a pattern tried at every line of a long file costs more)."""
    at = text.find(f"class {name}")
    while at >= 0:
        header = _HEADER.match(text, text.rfind("\n", 0, at) + 1)
        if header is not None and header["name"] == name:
            return [b.strip() for b in header["bases"].split(",") if b.strip() and "=" not in b]
        at = text.find(f"class {name}", at + 1)
    return []


def _qualified(facts: Facts) -> str:
    return f"{facts.stored.module}.{facts.stored.site.function}"


def _only_from(callers: list[Caller], target: str, hooks: list[Caller], depth: int) -> bool:
    """Whether every chain of callers up from `target` (at `depth`) reaches one of `hooks`."""
    above = [c for c in callers if c.depth == depth + 1 and c.calls == target]
    if not above:
        return False
    for caller in above:
        if any(caller is h for h in hooks):
            continue
        qualified = f"{module_name(caller.file)[0]}.{caller.function}"
        if not _only_from(callers, qualified, hooks, caller.depth):
            return False
    return True


def class_hook_sentence(facts: Facts) -> str | None:
    """ "So no solution is offered here, but the check is of a class you define ...", or
    None."""
    hooks = facts.class_hook
    if hooks is None or not checks_users_class(facts):
        return None
    parts = _parts_read(facts, hooks)
    if not parts:
        return None  # the conditions read nothing the class statement gave the hook
    own = hooks.own()
    made = " or ".join(dict.fromkeys(h.made() for h in hooks.hooks))
    when = f"when Python creates {made}, at the end of its `class` statement"
    if own is not None:
        how = f"{code(own.function)} runs {when}"
    else:
        named = [f"{code(h.function)} ({h.file}:{h.line})" for h in hooks.hooks]
        which = listed(named)
        runs = "runs" if len(hooks.hooks) == 1 else "run"
        how = f"{code(facts.stored.site.function)} is reached from {which}, which {runs} {when}"
    what = "; ".join(parts)
    said = "; the message names what in it is at fault" if facts.stored.site.message else ""
    return (
        "So no solution is offered here, but the check is of a class you define, not of the "
        f"program's own state: {how}. What it tests is that class's definition ({what}){said}, "
        "and the way out is a change there."
    )


def checks_users_class(facts: Facts) -> bool:
    """Whether the site is a check of the class being made (under a hook): no invariant of
    the authors, no raise its own `try` catches."""
    return facts.class_hook is not None and not _invariant(facts) and not _caught_here(facts)


def _invariant(facts: Facts) -> bool:
    """An `assert`, or a raise of a class its authors raise where the program cannot get
    (`AssertionError` and the like): their own state, not the user's class. A helper's
    raise is the helper's own check of what the code hands it."""
    site = facts.stored.site
    if site.kind not in (SiteKind.RAISE, SiteKind.WARN, SiteKind.LOG):
        return True
    info = facts.stored.exception
    names = {info.name, *(b.rpartition(".")[2] for b in info.bases)} if info is not None else set()
    names.add((site.exception or "").rpartition(".")[2])
    return bool(names & INVARIANTS)


def _caught_here(facts: Facts) -> bool:
    """Whether the raise is in the body of a `try` of its own function that catches it (a
    jump to the handler, not an error that leaves)."""
    function = facts.site_function()
    raised = (facts.stored.site.exception or "").rpartition(".")[2]
    if function is None or not raised:
        return False
    line = facts.stored.site.line
    for node in walk(function):
        if not isinstance(node, ast.Try) or not node.body:
            continue
        if not node.body[0].lineno <= line <= (node.body[-1].end_lineno or line):
            continue
        for handler in node.handlers:
            caught = handler.type
            names = (
                {ast.unparse(e).rpartition(".")[2] for e in caught.elts}
                if isinstance(caught, ast.Tuple)
                else {ast.unparse(caught).rpartition(".")[2]}
                if caught is not None
                else {raised}
            )
            if raised in names or names & {"Exception", "BaseException"}:
                return True
    return False


def declaration_hook(facts: Facts) -> ClassHook | None:
    """The class-creation hook nearest the site on some chain of its callers (within the
    linker's three, else the one the linker found at any depth in the site's folder), when
    the site is a raise of a private function (no call a user writes: only the package's
    code, the hook's among it, reaches it) that is no invariant of the authors and that its
    own `try` does not catch; else None. Other chains may reach the function too: what it
    checks is still what the user declared, read on the way."""
    site = facts.stored.site
    if site.kind != SiteKind.RAISE or _invariant(facts) or not _private(facts):
        return None
    if facts.class_hook is not None:
        return None if _caught_here(facts) else facts.class_hook.hooks[0]
    reader = facts.file_text
    if reader is None:
        return None

    def nearest() -> ClassHook | None:
        # the callers on the page, then the hook the linker found further up (any depth)
        # when it is in the site's own folder: a function of another package that class
        # creation reaches on the way is general code (`Table(...)`'s own checks), whose
        # users mostly call it with no class of theirs made
        further = facts.stored.class_hook
        callers = sorted(facts.callers, key=lambda c: c.depth)
        folder = facts.stored.file.rpartition("/")[0]
        if further is not None and further.file.rpartition("/")[0] == folder:
            callers.append(gate_view(further))
        for caller in callers:
            found = _hook_of(caller.function, caller.file, caller.line, facts, reader, caller.depth)
            if found is not None:
                return found[0]
        return None

    hook = facts.once("declaration_hook", nearest)
    return None if hook is None or _caught_here(facts) else hook


def _private(facts: Facts) -> bool:
    """Whether the site's module or function path has a private part (`_internal`,
    `_setup_base`, `_Config.check`; a special name is none)."""
    parts = [*facts.stored.module.split("."), *facts.stored.site.function.split(".")]
    return any(p.startswith("_") and not p.endswith("__") for p in parts)


def _parts_read(facts: Facts, hooks: ClassHooks) -> list[str]:
    """What of the user's class the conditions read, through the hook's names for it (and
    the locals read from those), each said once."""
    roles = dict(hooks.roles)
    local = {b.name: b.value for b in facts.bindings if b.origin == "local"}
    read: set[str] = set()
    texts = [c.text for c in facts.held]
    texts += [i for c in facts.conditions if (i := _iterated(c)) is not None]
    seen: set[str] = set()
    while texts:
        text = texts.pop()
        node = parse_expression(text)
        if node is None:
            return []
        for name in {n.id for n in walk(node) if isinstance(n, ast.Name)} - seen:
            seen.add(name)
            if name in roles:
                read.add(name)
            elif name in local:
                texts.append(local[name])
    return list(dict.fromkeys(roles[n] for n in sorted(read, key=list(roles).index)))


def _iterated(condition: ConditionView) -> str | None:
    """What a loop condition iterates (`dict_.items()` of `for k, v in dict_.items()`)."""
    if condition.kind != ConditionKind.LOOP:
        return None
    node = loop_header(condition.text)
    return ast.unparse(node.iter) if node is not None else None


def names_hook_argument(solution: Solution, facts: Facts) -> bool:
    """Whether `solution` is phrased on an argument of the hook itself ("Pass an empty
    value for the argument `bases` of `ModelMetaclass.__new__`"): Python passes those from
    the `class` statement, no call a user writes."""
    hooks = facts.class_hook
    own = hooks.own() if hooks is not None else None
    if own is None:
        return False
    called = re.escape(code(own.function))
    return re.search(rf"the argument `[^`]+` of {called}", solution.text) is not None


def annotation_solution(facts: Facts) -> Solution | None:
    """ "Give the name of your class's body that the message names a type annotation": a
    loop over the names the body assigns, and a test that the name is not among the body's
    annotations."""
    hooks = facts.class_hook
    body = hooks.body() if hooks is not None else None
    if body is None:
        return None
    loop = next(
        (
            names
            for c in reversed(facts.conditions)
            if c.kind == ConditionKind.LOOP and (names := _body_loop(c.text, body)) is not None
        ),
        None,
    )
    if loop is None:
        return None
    key = loop
    annotations = {
        b.name for b in facts.bindings if b.origin == "local" and _reads_annotations(b.value, body)
    }
    for condition in facts.held:
        if _not_annotated(condition.text, key, annotations, body):
            message = facts.stored.site.message
            said = message.text if message is not None else ""
            placeholder = re.search(rf"\{{{re.escape(key)}\b", said)
            which = "the name the message names" if placeholder else f"each name (`{key}`)"
            return Solution(
                text=(
                    f"Give {which} a type annotation in the body of your class "
                    f"(`name: SomeType = value` in place of `name = value`): the check at "
                    f"line {condition.line} runs on each name the body assigns and fails on "
                    "one that has no annotation there."
                ),
                condition=condition.text,
                kind="input",
            )
    return None


def _body_loop(text: str, body: str) -> str | None:
    """The name a loop header binds to each name of the namespace `body` (`for k, v in
    body.items()`, `for k in list(body)`), or None."""
    node = loop_header(text)
    if node is None:
        return None
    source = node.iter
    if (
        isinstance(source, ast.Call)
        and isinstance(source.func, ast.Name)
        and source.func.id in ("list", "tuple", "sorted")
        and len(source.args) == 1
    ):
        source = source.args[0]
    items = False
    if isinstance(source, ast.Call) and isinstance(source.func, ast.Attribute):
        if source.func.attr not in ("items", "keys") or source.args:
            return None
        items = source.func.attr == "items"
        source = source.func.value
    if not (isinstance(source, ast.Name) and source.id == body):
        return None
    target = node.target
    if items and isinstance(target, ast.Tuple) and len(target.elts) == 2:
        target = target.elts[0]
    elif items:
        return None
    return target.id if isinstance(target, ast.Name) else None


def _reads_annotations(value: str, body: str) -> bool:
    """`body.get("__annotations__", {})` or `body["__annotations__"]`."""
    node = parse_expression(value)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        receiver, key = node.func.value, node.args[0] if node.args else None
        if node.func.attr != "get":
            return False
    elif isinstance(node, ast.Subscript):
        receiver, key = node.value, node.slice
    else:
        return False
    return (
        isinstance(receiver, ast.Name)
        and receiver.id == body
        and isinstance(key, ast.Constant)
        and key.value == _ANNOTATIONS
    )


def _not_annotated(text: str, key: str, annotations: set[str], body: str) -> bool:
    """`key not in annotations` (a local read from the body's annotations, or that read)."""
    node = parse_expression(text)
    if not (
        isinstance(node, ast.Compare)
        and len(node.ops) == 1
        and isinstance(node.ops[0], ast.NotIn)
        and isinstance(node.left, ast.Name)
        and node.left.id == key
    ):
        return False
    right = node.comparators[0]
    if isinstance(right, ast.Name):
        return right.id in annotations
    return _reads_annotations(ast.unparse(right), body)
