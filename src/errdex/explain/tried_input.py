"""A site under `except`: what the `try` did that failed, with which input, and the way out.

vllm's `LLM.__init__` converts the `kv_transfer_config` dict it was given with
`KVTransferConfig(**raw_config_dict)` (`raw_config_dict` is `kwargs["kv_transfer_config"]`)
and, when pydantic refuses it, logs the dict and raises `ValueError`. The error is the
value given: the way out is one the call accepts, given where the user gives it (the
keyword of the public call), and a dict unpacked into a class of the version takes that
class's fields. A `try` is read as failing on that one input only when every call it makes
reads nothing else the program holds: the input (a parameter of a public function, a key
of its `**kwargs`, a local assigned once from either, or a piece of one argument cut by
string methods alone: `word` of `iter(style.split())` in rich's `Style.parse`), literals,
builtins, constants, classes and functions of pure modules. `self.method(url)` may fail
on the object's own state (a connection, a cache), so it is no such `try`.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from errdex.ast_walk import walk
from errdex.explain.context import CONTEXT_KINDS, Facts, top_class_in
from errdex.explain.entry_input import names_read
from errdex.explain.failed_try import TriedInput
from errdex.explain.imported_class import module_file_text
from errdex.explain.input_nodes import kwargs_key
from errdex.explain.inputs import private_argument
from errdex.explain.name_scan import free_starts
from errdex.explain.page import ConditionView, Knob, Solution
from errdex.explain.parse_formats import REGEX, format_named
from errdex.explain.parsed_value import try_of, user_try
from errdex.explain.plain import caught_names, caught_text, code
from errdex.explain.private_names import private_name
from errdex.explain.user_data import (
    fixed_name,
    local_sources,
    module_constants,
    quoted_message,
)
from errdex.explain.validators import validated
from errdex.extract.module import module_name
from errdex.extract.shapes import and_parts
from errdex.facts import KnobKind, Placeholder, SiteKind
from errdex.store.base import Store, StoredSite

__all__ = [
    "SettingInput",
    "failed_input_solutions",
    "failing_calls",
    "presence_of_tried",
    "setting_input",
    "tried_input",
]

# Calls of a `try` that say nothing of what failed: a record logged, a value looked up with
# a default, a builtin that only counts or tests (`range`, `len`), a clock read.
_QUIET = re.compile(
    r"^(?:(?:self\.)?_?(?:logger|logging|log)\.\w+|print|warnings\.warn|range|len|isinstance|"
    r"issubclass|hasattr|callable|str|repr|bool|id|type|enumerate|zip|time\.\w+)\("
    r"|\.(?:items|keys|values|copy)\(\)$"
)
# `d.get(key, default)`: a lookup with a default, which does not raise
_DEFAULTED = re.compile(r"^[\w.\[\]'\"]+\.get\([^,()]+,[^,()]+\)$")
# What a bad value raises: a clause catching only these is about the value given.
_VALUE_ERRORS = frozenset(
    {"KeyError", "ValueError", "TypeError", "IndexError", "LookupError", "UnicodeError"}
    | {"UnicodeDecodeError", "UnicodeEncodeError", "JSONDecodeError", "ValidationError"}
    | {"SyntaxError"}  # what `literal_eval` raises on a text that is no literal
)
# Names that read the program's state, never a value given.
_STATE = frozenset({"self", "cls", "os", "sys", "envs", "environ"})
# Builtins that test a value rather than convert it: no call that fails on it.
_TESTS = frozenset({"isinstance", "issubclass", "hasattr", "callable", "len", "type", "super"})
_Def = ast.FunctionDef | ast.AsyncFunctionDef
# String methods that cut or fold a text given into pieces of it (`_pieces_of`).
_PIECES = frozenset(
    {"split", "rsplit", "splitlines", "strip", "lstrip", "rstrip", "lower", "upper"}
    | {"casefold", "removeprefix", "removesuffix"}
)
# Builtins that walk or copy a sequence given, adding nothing of the program's.
_TAKERS = frozenset({"iter", "next", "list", "tuple", "reversed", "sorted", "str"})
# A call that parses its first argument: its name says so (`json.loads`, `literal_eval`,
# `load_str_bytes`, `parse_json`, `urlsafe_b64decode`). Not a name that only starts so: a
# `load_*` loads weights or a model by name, a `*_json` may write JSON (`to_json`), and
# `struct.unpack` takes its format first.
_PARSE_NAME = re.compile(
    r"^(?:(?:safe_|full_)?loads?|parse|literal_eval|fromisoformat|strptime)$"
    r"|(?:^|_)(?:load|loads|parse|read|decode|from|validate)_(?:json|yaml|toml)$"
    r"|^(?:load|loads|parse|decode)_(?:str|bytes|str_bytes|string|text)$"
    r"|^(?:urlsafe_|standard_)?(?:b64|b32|b16|b85|a85)decode$"
)
_MAX_STEPS = 4  # locals between a piece and the argument it is cut from


def tried_input(store: Store, chosen: StoredSite, facts: Facts) -> TriedInput | None:
    """The `try` around the site when it failed on one input the user gave, or None."""
    site = chosen.site
    if site.kind not in (SiteKind.RAISE, SiteKind.RERAISE, SiteKind.LOG):
        return None
    found = user_try(facts)
    if found is None:
        return None
    function, statement, handler, clause = found
    constants = module_constants(facts)
    read = {n for n in _read_in(statement.body) if not fixed_name(n, constants)}
    # the class's own say in how to parse the value (`json_loads=cls.__config__.json_loads`
    # of pydantic v1's `parse_raw`) is no state the parse fails on: the data given is
    read -= _telling_how_to_parse(statement.body)
    if not read or read & _STATE:
        return None  # nothing given, or the object's own state (most `try`s): no walk
    if not _entry_point(store, chosen):
        return None  # the package's own machinery, called with what the package computed
    params = {p for p in facts.read.params if p not in ("self", "cls")}
    packed = {a.arg for a in (function.args.vararg, function.args.kwarg) if a is not None}
    keywords = function.args.kwarg.arg if function.args.kwarg is not None else None
    sources = local_sources(function)
    # a fresh container the `try` fills (`bits = []`) holds nothing given
    read = {n for n in read if not _fresh(sources.get(n))}
    helpers: set[str] = set()
    if _value_errors(clause.text):
        # the clause catches what a bad value raises: a function of the module called on
        # it (`_interpret_color(fg)`) fails on the value, not on the machine's state
        helpers = _helpers(statement.body) | _imported_callees(
            store, chosen, function, statement.body
        )
        helpers -= params | set(sources)
        read -= helpers
    assigned = {
        id(n.value)
        for n in walk(function)
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name)
    }
    origins: dict[str, tuple[str, str]] = {}  # a name the `try` reads → (argument, via)
    for name in read:
        origin = _origin(name, params - packed, keywords, sources, assigned)
        if origin is None:
            return None  # state, a computed value, or what `*args` hands on
        origins[name] = origin
    arguments = {argument for argument, _ in origins.values()}
    taking = _taking(statement.body, set(origins), constants | helpers)
    if not arguments or not taking:
        return None  # nothing given; or only methods of the value itself: its state
    options: tuple[str, ...] = ()
    if len(arguments) > 1:
        # several values: the one a parse reads as its data failed, the others only say
        # how to read it (`load_str_bytes(b, proto=proto, content_type=...)`)
        parsed = _parsed(taking, origins)
        if parsed is None:
            return None  # which one failed is unknown
        reading_at, data = parsed
        told = _told_by(reading_at, origins)
        # a value the parse does not read, read by another call: that call may have failed
        others = {n for n, (argument, _) in origins.items() if argument not in told | {data}}
        if any(names_read(c) & others for c in taking if c is not reading_at):
            return None
        taking = [reading_at]
        options = _in_order(function, told - {data})
        origins = {n: o for n, o in origins.items() if o[0] == data}
        arguments = {data}
    if validated(facts) is not None:
        return None  # a validator the framework runs on the data: `validators.py` says it
    argument = arguments.pop()
    if (
        private_argument(argument, facts.read.params, {}, facts)
        if argument in params
        else private_name(argument)
    ):
        return None  # the package's own keyword (`_value`, `kwargs["_x"]`): none a user gives
    reading = taking[0]
    via = "; ".join(v for _, v in origins.values() if v)
    builds, fields = _unpacked_into(store, chosen, facts, function, reading)
    caught = caught_text(clause.text) or "an exception"
    message = site.message
    quoted = bool(
        handler.name
        and message is not None
        and any(
            isinstance(p, Placeholder) and re.search(rf"\b{handler.name}\b", p.expr)
            for p in message.parts
        )
    )
    return TriedInput(
        calls=tuple(" ".join(ast.unparse(c).split())[:120] for c in taking[:2]),
        caught=caught,
        try_line=statement.body[0].lineno,
        argument=argument,
        entry=site.function.removesuffix(".__init__").removesuffix(".__new__"),
        via=via,
        fields=fields,
        builds=builds,
        quoted=quoted,
        parses=_format_of(reading),
        options=options,
        logged=site.kind == SiteKind.LOG,
        message=quoted_message(site.message),
    )


def _telling_how_to_parse(body: list[ast.stmt]) -> set[str]:
    """`self` and `cls` where the statements read them only in the keywords of a parse call
    that takes its data first (`load_str_bytes(b, json_loads=cls.__config__.json_loads)`):
    the object's own say in how to read the data, not what the parse fails on."""
    told: set[int] = set()
    for statement in body:
        for node in walk(statement):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            if not _PARSE_NAME.search(_called_name(node)):
                continue
            for keyword in node.keywords:
                if keyword.arg is not None:
                    told |= {id(n) for n in walk(keyword.value) if isinstance(n, ast.Name)}
    uses = [
        n
        for statement in body
        for n in walk(statement)
        if isinstance(n, ast.Name) and n.id in ("self", "cls")
    ]
    return {n.id for n in uses} - {n.id for n in uses if id(n) not in told}


def _entry_point(store: Store, chosen: StoredSite) -> bool:
    """Whether users call the site's function (or its class) themselves: it sits in a
    module right under the package (`rich.console`, `pydantic.networks`), the package
    re-exports it there (`httpx.URL`), or the package's own `__init__` names it (`vllm.LLM`,
    which a lazy `__getattr__` imports); deeper modules' functions are the package's own
    machinery, called with what the package computed."""
    module = chosen.module.split(".")
    path = chosen.public_path() or ""
    exported = path.removesuffix("." + chosen.site.function).split(".")
    if len(module) <= 2 or (path.endswith("." + chosen.site.function) and len(exported) <= 2):
        return True  # a module right under the package, or re-exported near its top
    text = store.file_text(chosen.version_id, f"{module[0]}/__init__.py")
    name = chosen.site.function.split(".")[0]
    return text is not None and re.search(rf"\b{re.escape(name)}\b", text) is not None


def _read_in(body: list[ast.stmt]) -> set[str]:
    """The bare names the statements read, not those they assign (`d[k] = v` reads `v`)."""
    read: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            if node.value is not None:
                visit(node.value)
            return
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            read.add(node.id)
        for child in ast.iter_child_nodes(node):
            visit(child)

    for statement in body:
        visit(statement)
    return read


def _taking(body: list[ast.stmt], inputs: set[str], constants: frozenset[str]) -> list[ast.Call]:
    """The calls of a function or class of fixed code (`float(v)`, `json.loads(s)`,
    `Config(**d)`) that take one of `inputs` as an argument, outermost first; tests of its
    type (`isinstance`) are none."""
    out: list[ast.Call] = []
    for statement in body:
        for node in walk(statement):
            if not isinstance(node, ast.Call):
                continue
            root: ast.expr = node.func
            while isinstance(root, ast.Attribute):
                root = root.value
            if not isinstance(root, ast.Name) or not fixed_name(root.id, constants):
                continue
            if isinstance(node.func, ast.Name) and node.func.id in _TESTS:
                continue
            given = [*node.args, *(k.value for k in node.keywords)]
            if any(names_read(a) & inputs for a in given) and not any(
                node is not c and _inside(node, c) for c in out
            ):
                out.append(node)
    return out


def _imported_callees(
    store: Store, chosen: StoredSite, function: _Def, body: list[ast.stmt]
) -> set[str]:
    """The modules the function imports itself (`from .deprecated import parse`) that the
    statements read only to call a function of (`parse.load_str_bytes(b)`): code of the
    package, called on the value, as `_helpers`' functions are."""
    imported = _imported_modules(store, chosen, function)
    nodes = [n for s in body for n in walk(s)]
    roots = {
        id(n.func.value)
        for n in nodes
        if isinstance(n, ast.Call)
        and isinstance(n.func, ast.Attribute)
        and isinstance(n.func.value, ast.Name)
    }
    names = [n for n in nodes if isinstance(n, ast.Name) and n.id in imported]
    return {n.id for n in names} - {n.id for n in names if id(n) not in roots}


def _imported_modules(store: Store, chosen: StoredSite, function: _Def) -> set[str]:
    """The names the function's own imports bind to a module: `import x[.y]`, and `from P
    import m` where `P.m` is a module of the version. An object imported by name (`from
    forms.state import registry`) holds state, which its methods read: not counted."""
    module, is_package = module_name(chosen.file)
    package = module if is_package else module.rpartition(".")[0]
    names: set[str] = set()
    for node in walk(function):
        if isinstance(node, ast.Import):
            names |= {a.asname or a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            source = node.module or ""
            if node.level:
                parts = package.split(".")
                base = parts[: len(parts) - node.level + 1]
                source = ".".join([*base, source] if source else base)
            for alias in node.names:
                if module_file_text(store, chosen, f"{source}.{alias.name}") is not None:
                    names.add(alias.asname or alias.name)
    return names


def _parsed(
    taking: list[ast.Call], origins: dict[str, tuple[str, str]]
) -> tuple[ast.Call, str] | None:
    """(the parse call, the argument it parses) among the calls that take several values
    given: a call whose name says it parses (`loads`, `literal_eval`, `load_str_bytes`,
    `fromisoformat`) and whose first argument comes from one value given alone."""
    for call in taking:
        if not _PARSE_NAME.search(_called_name(call)) or not call.args:
            continue
        read = names_read(call.args[0]) & set(origins)
        given = {origins[n][0] for n in read}
        if len(given) == 1:
            return call, given.pop()
    return None


def _told_by(call: ast.Call, origins: dict[str, tuple[str, str]]) -> set[str]:
    """The values given that the parse call reads beside its data (its other arguments
    and keywords: `proto=proto, content_type=content_type`), as the user gives them."""
    rest = [*call.args[1:], *(k.value for k in call.keywords)]
    return {origins[n][0] for a in rest for n in names_read(a) & set(origins)}


def _in_order(function: _Def, names: set[str]) -> tuple[str, ...]:
    """`names` in the order the function declares them; keys of `**kwargs` last, sorted."""
    args = function.args
    order = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]
    return (*(a for a in order if a in names), *sorted(names - set(order)))


def _called_name(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _format_of(call: ast.Call) -> str | None:
    """The format the parse call takes, by its name (`json.loads`: JSON); None for a call
    whose name says no parse (`to_json`, `JSONResponse(content)`)."""
    name = _called_name(call)
    if ast.unparse(call.func) == "re.compile":
        return REGEX  # a pattern compiled: no parse by its name, but one all the same
    if not _PARSE_NAME.search(name):
        return None
    return format_named(name, ast.unparse(call.func).lower())


def _fresh(values: list[ast.AST] | None) -> bool:
    """A local assigned once, from a literal that reads no name (`[]`, `{}`, `0`)."""
    if values is None or len(values) != 1:
        return False
    value = values[0]
    literal = isinstance(value, ast.List | ast.Dict | ast.Tuple | ast.Set | ast.Constant)
    return literal and not any(isinstance(n, ast.Name) for n in walk(value))


def _value_errors(clause: str) -> bool:
    """Whether the clause catches only what a bad value raises (`KeyError`, `ValueError`)."""
    names = caught_names(clause)
    return bool(names) and names <= _VALUE_ERRORS


def _helpers(body: list[ast.stmt]) -> set[str]:
    """The bare names the statements call as functions (`_interpret_color(fg)`) and read
    no other way."""
    nodes = [n for s in body for n in walk(s)]
    funcs = [n.func for n in nodes if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)]
    called = {id(f) for f in funcs}
    other = {n.id for n in nodes if isinstance(n, ast.Name) and id(n) not in called}
    return {f.id for f in funcs} - other


def _inside(node: ast.AST, outer: ast.AST) -> bool:
    return any(n is node for n in walk(outer))


def _origin(
    name: str,
    params: set[str],
    keywords: str | None,
    sources: dict[str, list[ast.AST]],
    assigned: set[int],
) -> tuple[str, str] | None:
    """(the argument as the user gives it, how `name` comes from it), or None when `name`
    is no value given as it is: a parameter never rebound, a key of `**kwargs`, or a local
    assigned once from either (`assigned`: the ids of the values of plain `name = value`
    statements)."""
    if name in params:
        return (name, "") if name not in sources else None
    values = sources.get(name)
    if not values or len(values) != 1 or id(values[0]) not in assigned:
        # bound more than once, or by a loop, a `with`, a walrus: a value given only when
        # every binding takes a piece of one argument (`word` of `style.split()`)
        taken = _pieces_of(name, params, sources, ())
        return (taken, f"{code(name)} is a piece of {code(taken)}") if taken else None
    value = values[0]
    assert isinstance(value, ast.expr)
    via = f"{code(name)} is {code(ast.unparse(value))}, line {value.lineno}"
    if isinstance(value, ast.Name) and value.id in params and value.id not in sources:
        return value.id, via
    key = kwargs_key(value, keywords)
    return (key, via) if key is not None else None


def _pieces_of(
    name: str, params: set[str], sources: dict[str, list[ast.AST]], seen: tuple[str, ...]
) -> str | None:
    """The one parameter every binding of the local `name` takes a piece of by simple steps
    only (`words = iter(style.split())`, `for w in words`, `word = next(words, "")`,
    `w.lower()`): string methods that cut or fold a text (`_PIECES`), `iter`, `next` and
    copies of a sequence, subscripts and literals; None when a binding reads anything else
    (the object's state, another argument, a call of the package's code)."""
    if name in params:
        return name if name not in sources else None
    values = sources.get(name)
    if not values or name in seen or len(seen) >= _MAX_STEPS:
        return None
    found: set[str] = set()
    for value in values:
        if not isinstance(value, ast.expr) or not all(_piece_step(n) for n in walk(value)):
            return None
        for read in names_read(value) - _TAKERS:
            taken = _pieces_of(read, params, sources, (*seen, name))
            if taken is None:
                return None
            found.add(taken)
    return found.pop() if len(found) == 1 else None


def _piece_step(node: ast.AST) -> bool:
    """Whether a node of a binding's value is a simple step of `_pieces_of`."""
    if isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Name):
            return func.id in _TAKERS
        return isinstance(func, ast.Attribute) and func.attr in _PIECES
    if isinstance(node, ast.Attribute):
        # `text.split` of `text.split()`, whose call is checked on its own; a method of
        # those names left uncalled passes too
        return node.attr in _PIECES
    simple = ast.Name | ast.Constant | ast.Subscript | ast.Slice | ast.UnaryOp | ast.unaryop
    return isinstance(node, simple | ast.expr_context)


def _unpacked_into(
    store: Store, chosen: StoredSite, facts: Facts, function: _Def, call: ast.Call
) -> tuple[str | None, tuple[str, ...]]:
    """(the class, its declared fields) when the call unpacks a dict into a class
    (`Config(**d)`) defined in the version; (None, ()) otherwise."""
    if not isinstance(call.func, ast.Name) or not any(k.arg is None for k in call.keywords):
        return None, ()
    name = call.func.id
    module = _imported_from(function, name) or _imported_from_text(facts.source_text, name)
    if module is None:
        return None, ()
    node = top_class_in(module_file_text(store, chosen, module), name)
    if node is None:
        return None, ()
    fields = tuple(
        s.target.id
        for s in node.body
        if isinstance(s, ast.AnnAssign)
        and isinstance(s.target, ast.Name)
        and not s.target.id.startswith("_")
        and "ClassVar" not in ast.unparse(s.annotation)
    )
    return (name, fields) if fields else (None, ())


def _imported_from(function: _Def, name: str) -> str | None:
    """The module a `from M import name` inside the function imports it from."""
    for node in walk(function):
        if not isinstance(node, ast.ImportFrom) or not node.module or node.level:
            continue
        if any((a.asname or a.name) == name and a.name == name for a in node.names):
            return node.module
    return None


def _imported_from_text(text: str | None, name: str) -> str | None:
    """The module a top-level `from M import ..., name, ...` of the file imports it from
    (one line, or a parenthesised list)."""
    if text is None:
        return None
    word = rf"\b{re.escape(name)}\b(?!\s+as)"
    pattern = rf"^from\s+([\w.]+)\s+import\s+(?:\([^)]*?{word}[^)]*\)|[^\n(]*{word})"
    found = re.search(pattern, text, re.M)
    return found.group(1) if found else None


def failing_calls(calls: tuple[str, ...]) -> list[str]:
    """The calls of a `try` (as `TryRead` keeps them) that may be what failed: not a logging
    call, a lookup with a default, a counting builtin, nor a call that is part of another
    one kept (`hf_api()` of `hf_api().hf_hub_download(...)`; `n()` of `range(n())` stays);
    all of them when that leaves none."""
    told = [c for c in calls if not _QUIET.search(c) and not _DEFAULTED.match(c)]
    kept = [c for c in told if not any(c != other and _part_of(c, other) for other in told)]
    return kept or list(calls)


def _part_of(call: str, other: str) -> bool:
    """`call` written inside `other` as a call of its own (`hf_api()` in
    `hf_api().download(...)`), not the tail of another name (`run()` in `self.run()`)."""
    return next(free_starts(other, call, dotted=True), None) is not None


def presence_of_tried(condition: ConditionView, facts: Facts) -> bool:
    """Whether `condition`, a test before the `try` around the site, only asks whether values
    the `try`'s calls read are given (`v is not None` before `json_loads(v)`; `so_params.regex
    is None` and `so_params.structural_tag` before `json.loads(so_params.structural_tag)`):
    it picks what the user asked for (whether there is a value at all, which kind of
    constraint), and the `try` failed on that value. Not giving it, or asking for another
    kind, gives up what was asked and often meets the next check (pydantic v1's
    `validate_json` passes None on to the field, which refuses it): the way out is a value
    the call accepts. A test a setting decides, or one of the object's own state (`self`),
    is left to the other rules."""
    clause = facts.innermost_except()
    if clause is None or condition.kind in CONTEXT_KINDS:
        return False
    tried = facts.read.tries.get(clause.line)
    if tried is None or tried.imports or not tried.calls or condition.line >= tried.line:
        return False
    try:
        node = ast.parse(condition.text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return False
    parts = and_parts(node)
    if not all(_whether_given(p) for p in parts):
        return False  # a test of what the value is (`host.isascii()`): another value may pass
    read = names_read(node)
    if not read or read & _STATE:
        return False
    behind = [k.behind or k.name for k in facts.knobs]
    values = [condition.text, *(b.value for b in facts.bindings if b.name in read)]
    if any(k in v for k in behind for v in values):
        return False  # a setting decides it (through a local, too): the setting rules say it
    called = {w for c in tried.calls for w in re.findall(r"\w+", c)}
    return read <= called


def _whether_given(node: ast.expr) -> bool:
    """A test of whether a value is given at all: `x is None`, `x is not None`, `x`, `not x`."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        node = node.operand
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        right = node.comparators[0]
        if not isinstance(node.ops[0], ast.Is | ast.IsNot):
            return False
        if not (isinstance(right, ast.Constant) and right.value is None):
            return False
        node = node.left
    return isinstance(node, ast.Name | ast.Attribute)


@dataclass(frozen=True)
class SettingInput:
    """The `try` around the site converts the value of a setting, and failed on it."""

    calls: tuple[str, ...]
    caught: str
    try_line: int
    knob: Knob
    name: str  # the name the `try` reads it by: `partition_list_str`

    def sentence(self) -> str:
        kind = "environment variable" if self.knob.kind is KnobKind.ENV else "flag"
        called = " or ".join(code(c) for c in self.calls)
        here = f" ({code(self.name)} here)" if self.name != self.knob.name else ""
        return (
            f"It runs when {called} (the `try` at line {self.try_line}) raised "
            f"{code(self.caught)}: that call failed on the value of the {kind} "
            f"{code(self.knob.name)}{here}."
        )

    def solution(self) -> Solution:
        verb = "Set" if self.knob.kind is KnobKind.ENV else "Pass"
        called = " or ".join(code(c) for c in self.calls)
        return Solution(
            text=(
                f"{verb} {code(self.knob.name)} to a value that {called} accepts: the `try` "
                f"at line {self.try_line} fails on the value set."
            ),
            knob=self.knob.name,
            kind="setting",
        )


def setting_input(facts: Facts) -> SettingInput | None:
    """The setting whose value the `try` around the site converts, when its clause catches
    only what a bad value raises and the `try` reads nothing else the program holds
    (`int(layer) for layer in partition_list_str.split(",")`, the local holding
    `VLLM_PP_LAYER_PARTITION`; `int(os.environ["OMP_NUM_THREADS"])`)."""
    clause = facts.innermost_except()
    if clause is None or not _value_errors(clause.text):
        return None
    tried = facts.read.tries.get(clause.line)
    settings = [k for k in facts.knobs if k.kind in (KnobKind.ENV, KnobKind.FLAG)]
    if tried is None or tried.imports or not tried.calls or not settings:
        return None
    function = facts.site_function()
    found = try_of(function, clause.line) if function is not None else None
    if found is None:
        return None
    body = found[0].body
    bound = {
        n.id
        for s in body
        for c in walk(s)
        if isinstance(c, ast.comprehension)
        for n in walk(c.target)
        if isinstance(n, ast.Name)
    }
    constants = module_constants(facts)
    read = {n for n in _read_in(body) - bound if not fixed_name(n, constants)}
    words = {w for c in tried.calls for w in re.findall(r"\w+", c)}
    for knob in settings:
        name = knob.behind or knob.name
        if read == {name}:
            pass  # the local (or name) holding the setting's value, and nothing else
        elif knob.kind is KnobKind.ENV and knob.name in words and read in ({"os"}, {"envs"}):
            name = knob.name  # `os.environ["X"]`, `envs.X` read in the `try` itself
        else:
            continue
        return SettingInput(
            calls=tuple(failing_calls(tried.calls)[:2]),
            caught=caught_text(clause.text),
            try_line=tried.line,
            knob=knob,
            name=name,
        )
    return None


def failed_input_solutions(facts: Facts) -> list[Solution]:
    """The value given (or the setting) that the `try`'s call failed on, changed."""
    failed = facts.tried or setting_input(facts)
    return [failed.solution()] if failed is not None else []
