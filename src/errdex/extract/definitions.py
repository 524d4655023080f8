"""What a definition yields once walked: what a function is (its qualname by line, the class
it returns and its parameters are annotated with, a property's reads, the reasons list it
returns), a raising helper (a function whose raise takes its message from a parameter), and a
class's facts (bases, the message its `__init__` or `__str__` builds, the fields of an
arguments dataclass).
"""

from __future__ import annotations

import ast

from errdex.extract.attr_classes import attribute_classes
from errdex.extract.calls import getter_fact, is_property, key_getter_fact, property_fact
from errdex.extract.conditions import dotted_name, walk
from errdex.extract.config_sections import required_keys, section_keys
from errdex.extract.docs import DOC_OF, attribute_docs
from errdex.extract.entry_kwargs import kwargs_passing
from errdex.extract.field_defaults import field_defaults, optional_bools
from errdex.extract.init_attrs import ClassText, kept_attributes
from errdex.extract.param_defaults import rebound_names
from errdex.extract.scope import Scope, Step, literal_defaults
from errdex.extract.shapes import (
    KEYED_LOOKUP,
    annotated_class,
    annotation_in,
    formatted_name,
    is_name,
    is_none,
    keyed_lookups,
    looks_like_exception_class,
    single_binding,
    statements_under,
)
from errdex.extract.skeleton import looks_like_exception
from errdex.extract.source_text import line_span, source_lines
from errdex.extract.walk_state import WalkState
from errdex.facts import (
    BRANCH_KINDS,
    Arg,
    ClassFact,
    Condition,
    ConditionKind,
    HelperFact,
    KeyedHelper,
    MessageTemplate,
    PropertyFact,
    ReasonsList,
    SiteKind,
)
from errdex.lazy_re import lazy_compile

# Dataclasses whose fields are command-line flags (`EngineArgs`, `TrainingArguments`).
_ARGS_CLASS = lazy_compile(r"(?:Args|Arguments|CLIOptions)$")
# Configuration classes, whose fields may be the keys of a JSON-valued flag's object.
_CONFIG_CLASS = lazy_compile(r"Config$")
# Class attributes holding messages by key (`default_error_messages`, `ERRORS`).
_TABLE_NAME = lazy_compile(r"(?i)message|error|msg")
# a class-level name that names a command (`name`, `parser_name`, `command`) and its word
_COMMAND_ATTR = lazy_compile(r"^(?:[a-z]\w*_)?(?:name|command)$")
_COMMAND_WORD = lazy_compile(r"^[A-Za-z0-9][\w.-]{0,60}$")
# `self.error_messages[key]`: a lookup in such a table by a name.
# Calls that mark a string for translation and give it back: `_("Enter a number.")`.
_GETTEXT = frozenset(
    {"_", "gettext", "gettext_lazy", "ugettext", "ugettext_lazy", "lazy_gettext", "N_"}
)


_MAX_RETURNED = 4  # messages kept per function
# a field declared as one of these takes a dict (by its last name, alone or from a module)
_DICT_TYPES = frozenset({"dict", "Dict", "Mapping", "MutableMapping"})
_DICT_MODULES = ("typing", "collections", "typing_extensions")


class DefinitionRecorder:
    """Makes the facts of functions, raising helpers and classes."""

    def __init__(self, state: WalkState) -> None:
        self.state = state
        self.classes: list[ClassFact] = []
        self.helpers: list[HelperFact] = []
        self.keyed: list[KeyedHelper] = []
        self._keyed_lookups: bool | None = None  # whether the text has `self.messages[k]`
        self._walrus: bool | None = None  # whether the text has a `:=` (`rebound_names`)
        self.reason_builders: dict[str, ReasonsList] = {}
        self.properties: list[PropertyFact] = []
        self.defs: list[str] = []  # the module's own functions
        self.returns: dict[str, str] = {}  # function qualname → the class its return is
        self.params: dict[str, dict[str, str]] = {}  # method qualname → parameter → class
        self.validators: dict[str, tuple[str, ...]] = {}  # see `FileFacts.validators`
        # (qualname, class) of every function by its `def` line: whose the calls read from
        # a blanked body's text are.
        self.functions_at: dict[int, tuple[str, str | None]] = {}
        # each function's annotated parameters (qualname → name → class as written)
        self.param_types: dict[str, dict[str, str]] = {}
        # The path that holds after each function's body, by its `def` line: the guard of a
        # call in the straight code of a tail the skeleton blanked.
        self._after_body: dict[int, tuple[Step, ...]] = {}
        self.returned_texts: dict[str, list[MessageTemplate]] = {}

    def returned_text(self, value: ast.expr, scope: Scope) -> None:
        """A message the function returns (`return f"The key is {n} bytes long"`): the
        text of a site whose message is a local that a call of it gave."""
        if not self.state.stringy(value):
            return
        template = self.state.template(value, scope)
        if template is None or not any(
            isinstance(part, str) and " " in part.strip() for part in template.parts
        ):
            return  # a value (`return "utf-8"`), not a message
        found = self.returned_texts.setdefault(scope.qualname, [])
        if template not in found and len(found) < _MAX_RETURNED:
            found.append(template)

    def function_entered(
        self, stmt: ast.FunctionDef | ast.AsyncFunctionDef, scope: Scope, inner: Scope
    ) -> None:
        """A `def` in `scope`, about to be walked as `inner`."""
        qualname = inner.qualname
        returned = annotated_class(stmt.returns)
        if returned is not None:
            self.returns[qualname] = returned
        if inner.types and scope.class_name is not None and not scope.is_function:
            self.params[qualname] = inner.types  # what an override's parameters are
        if scope.class_name is not None and not scope.is_function:
            fields = validated_fields(stmt)
            if fields:
                self.validators[qualname] = fields
        self.functions_at[stmt.lineno] = (qualname, scope.class_name)
        if inner.types:
            self.param_types[qualname] = inner.types
        if scope.qualname == "<module>":
            self.defs.append(stmt.name)
        elif scope.class_name is not None and not scope.is_function:
            if is_property(stmt):
                self.properties.append(property_fact(stmt, qualname))
            elif scope.class_name.endswith("Config") and (
                getter := getter_fact(stmt, qualname) or key_getter_fact(stmt, qualname)
            ):
                self.properties.append(getter)

    def function_walked(
        self,
        stmt: ast.FunctionDef | ast.AsyncFunctionDef,
        scope: Scope,
        inner: Scope,
        after: tuple[Step, ...],
    ) -> None:
        """A `def` in `scope` walked as `inner`; `after` holds past its body."""
        self._after_body[stmt.lineno] = after
        if inner.returned is not None and (inner.returned.variants or inner.returned.calls):
            self.reason_builders[inner.qualname] = inner.returned.freeze()
        self._find_helper(stmt, inner)
        if scope.class_name is not None and not scope.is_function and inner.params:
            self._find_keyed(stmt, inner)

    def class_walked(self, stmt: ast.ClassDef, qualname: str) -> None:
        self.classes.append(self._class_fact(stmt, qualname))

    def guard_after(self, def_line: int) -> tuple[Condition, ...] | None:
        """What holds after the parsed body of the function whose `def` is on `def_line`
        (its early exits), or None when no function's is."""
        path = self._after_body.get(def_line)
        return None if path is None else self.state.conditions_of(path)

    def _find_helper(self, stmt: ast.FunctionDef | ast.AsyncFunctionDef, scope: Scope) -> None:
        """A function whose raise takes its message from a parameter is a raising helper;
        one whose warning does, a warning helper (`def warn(msg): warnings.warn(msg, ...)`)."""
        signals = [
            site
            for site in scope.signals
            if site.message is not None and site.kind in (SiteKind.RAISE, SiteKind.WARN)
        ]
        guards: dict[str, list[tuple[Condition, ...]]] = {}
        for site in signals:
            assert site.message is not None
            guards.setdefault(site.message.text, []).append(site.conditions)
        seen: set[str] = set()
        # the parameters its body binds again: always, and by the lines assigning them
        rebound: tuple[set[str], dict[str, list[int]]] | None = None
        for site in signals:
            assert site.message is not None
            for placeholder in site.message.placeholders:
                expr = placeholder.expr
                # `{msg}`, `{str(msg)}`, or the parameter formatted (`{msg.format(**args)}`:
                # the linker formats each caller's text with the caller's arguments).
                param = expr[4:-1] if expr.startswith("str(") else formatted_name(expr) or expr
                if param not in scope.params or site.message.text in seen:
                    continue
                seen.add(site.message.text)
                # One message under several guards (`warn(message, category)` if a category
                # was given, else `warn(message)`): it is made whichever holds.
                alternatives = guards[site.message.text]
                if rebound is None:
                    if self._walrus is None:  # once per file, for the few helpers that ask
                        self._walrus = ":=" in self.state.text
                    rebound = _rebound_params(stmt, scope.params, self._walrus)
                bound_before = rebound[0] | {
                    name for name, lines in rebound[1].items() if min(lines) < site.line
                }
                # A parameter the body binds again (`if isinstance(x, str): x = {x}`) no
                # longer holds what a call passed: its name stays in the message and guard.
                kept = bound_before - {param}
                self.helpers.append(
                    HelperFact(
                        name=stmt.name,
                        qualname=scope.qualname,
                        line=site.line,
                        params=scope.params,
                        param=param,
                        exception=site.exception,
                        message=site.message,
                        kind=site.kind,
                        conditions=_any_of(alternatives),
                        defaults={
                            k: v for k, v in literal_defaults(scope).items() if k not in kept
                        },
                        args=site.args,
                        varargs=_varargs(scope),
                        rebound=tuple(sorted(kept)),
                    )
                )
                break

    def _find_keyed(self, stmt: ast.FunctionDef | ast.AsyncFunctionDef, scope: Scope) -> None:
        """A method that makes its exception from `self.<table>[key]`, `key` a parameter."""
        if self._keyed_lookups is None:  # once per file: most files have none at all
            self._keyed_lookups = bool(keyed_lookups(self.state.text))
        if not self._keyed_lookups:
            return
        text = line_span(self.state.text, stmt.lineno, stmt.end_lineno or stmt.lineno)
        keys = {m[1] for m in KEYED_LOOKUP.finditer(text)} & set(scope.params)
        if not keys:
            return  # the cheap answer for nearly every method
        looked_up: tuple[str, str] | None = None  # (table, key's parameter)
        made: tuple[int, str, bool] | None = None  # the last exception made: (line, class, raised)
        for node in ast.walk(stmt):
            if (
                isinstance(node, ast.Subscript)
                and isinstance(node.slice, ast.Name)
                and node.slice.id in keys
                and isinstance(node.value, ast.Attribute)
                and isinstance(node.value.value, ast.Name)
                and node.value.value.id == "self"
                and _TABLE_NAME.search(node.value.attr)
            ):
                looked_up = (node.value.attr, node.slice.id)
            elif isinstance(node, ast.Return | ast.Raise):
                value = node.value if isinstance(node, ast.Return) else node.exc
                name = dotted_name(value.func) if isinstance(value, ast.Call) else None
                # The last one made is the one the method is for; those before it report
                # a key missing from the table.
                if (
                    name
                    and looks_like_exception_class(name)
                    and (made is None or node.lineno >= made[0])
                ):
                    made = (node.lineno, name, isinstance(node, ast.Raise))
        if looked_up is not None and made is not None:
            self.keyed.append(
                KeyedHelper(
                    name=stmt.name,
                    qualname=scope.qualname,
                    params=scope.params,
                    param=looked_up[1],
                    table=looked_up[0],
                    exception=made[1],
                    raises=made[2],
                )
            )

    def _class_fact(self, stmt: ast.ClassDef, qualname: str) -> ClassFact:
        lines = source_lines(self.state.text)
        init_params: tuple[str, ...] = ()
        message: MessageTemplate | None = None
        super_args: tuple[Arg, ...] = ()
        calls_base = True
        for item in stmt.body:
            if not isinstance(item, ast.FunctionDef) or item.name not in ("__init__", "__str__"):
                continue
            params = tuple(a.arg for a in (*item.args.args[1:], *item.args.kwonlyargs))
            if item.name == "__init__":
                init_params = params
                # Read from the body's text (every name in it is written there): no
                # `__init__` named in it, no base's `__init__` called. Only in a class that
                # looks like an exception, whose `__init__` the skeleton keeps whole.
                body = line_span(self.state.text, item.body[0].lineno, item.end_lineno or 0)
                header = lines[stmt.lineno - 1]
                calls_base = (
                    "__init__" in body or not body.isascii() or not looks_like_exception(header)
                )
            found, passed = self._message_in(item, init_params or params)
            if found is not None and (message is None or item.name == "__init__"):
                message = found
            if item.name == "__init__":
                super_args = passed
        methods = tuple(
            item.name
            for item in stmt.body
            if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)
        )
        tables = {
            item.targets[0].id: table
            for item in stmt.body
            if isinstance(item, ast.Assign)
            and len(item.targets) == 1
            and isinstance(item.targets[0], ast.Name)
            and _TABLE_NAME.search(item.targets[0].id)
            and isinstance(item.value, ast.Dict)
            and (table := _message_table(item.value))
        }
        fields: dict[str, str] = {}
        field_docs = attribute_docs(stmt.body, lines)
        if _ARGS_CLASS.search(stmt.name):
            for item in stmt.body:
                if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    fields[item.target.id] = self.state.source(item.annotation)[:80]
                    # `enable_mm_embeds: bool = MultiModalConfig.enable_mm_embeds`: the
                    # field documented where its default is (a dataclass-to-flags generator)
                    default = item.value
                    if (
                        item.target.id not in field_docs
                        and isinstance(default, ast.Attribute)
                        and isinstance(default.value, ast.Name)
                    ):
                        field_docs[item.target.id] = f"{DOC_OF}{default.value.id}.{default.attr}"
        configured = _ARGS_CLASS.search(stmt.name) or _CONFIG_CLASS.search(stmt.name)
        whole = ClassText(stmt, self.state.text)  # each part read once for all three
        kwargs_into, kwargs_defaults = kwargs_passing(whole) if methods else ({}, {})
        keys, dict_valued = _config_keys(stmt) if _CONFIG_CLASS.search(stmt.name) else ((), ())
        kept = kept_attributes(whole)
        return ClassFact(
            names=_command_names(stmt.body) if methods else {},
            keys=keys,
            dict_valued=dict_valued,
            optional_bools=optional_bools(stmt.body, keys),
            sections=section_keys(stmt.body, keys) if keys else {},
            required=required_keys(stmt.body, keys) if keys else (),
            defaults=field_defaults(stmt.body) if configured else {},
            name=stmt.name,
            qualname=qualname,
            line=stmt.lineno,
            bases=tuple(self.state.source(b) for b in stmt.bases),
            docstring=ast.get_docstring(stmt),
            init_params=init_params,
            message=message,
            super_args=super_args,
            init_calls_base=calls_base,
            tables=tables,
            methods=methods,
            fields=fields,
            field_docs=field_docs,
            attr_from=kept.params,
            attr_chains=kept.chains,
            kwargs_into=kwargs_into,
            kwargs_defaults=kwargs_defaults,
            attr_classes=attribute_classes(whole),
        )

    def _message_in(
        self, func: ast.FunctionDef, params: tuple[str, ...]
    ) -> tuple[MessageTemplate | None, tuple[Arg, ...]]:
        """The message `__init__` passes up (or stores, or `__str__` returns), over params;
        and the arguments `__init__` passes to its base's `__init__`.

        A base that builds its own message from what it is passed (`ParseError(line, col,
        message)` adding ` at line {line}`) decorates this class's, and only the linker
        knows the base: it gets the arguments.
        """
        scope = Scope(func.name, None, is_function=True, params=params)
        for stmt in func.body:
            # `message = f"Key {key!r} does not exist"` then `super().__init__(message)`. Only
            # unconditional assignments of names that are no parameter: `if message is None:
            # message = "default"` chooses a default, and is not the message.
            if (
                isinstance(stmt, ast.Assign)
                and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name)
                and stmt.targets[0].id not in params
                and self.state.stringy(stmt.value)
            ):
                template = self.state.template(stmt.value, scope)
                if template is not None:
                    scope.messages[stmt.targets[0].id] = [(template, ())]
        # In `__init__` only statements with the words looked for are walked (`__str__`
        # counts every `return`).
        keep = self._may_pass_message if func.name == "__init__" else None
        if keep is not None and not self._body_may_pass_message(func):
            keep = _no_statement  # no statement has the words: none is worth its own test
        passed: tuple[Arg, ...] = ()
        for node in walk(func, keep):
            value: ast.expr | None = None
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                if node.func.attr == "__init__" and (node.args or node.keywords):
                    # `super().__init__(x)`, or `Base.__init__(self, x)`
                    first = node.args[0] if node.args else None
                    is_self = isinstance(first, ast.Name) and first.id == "self"
                    positional = node.args[1:] if is_self else node.args
                    passed = self.state.args(node, scope)[1 if is_self else 0 :]
                    value = positional[0] if positional else None
            elif isinstance(node, ast.Assign) and len(node.targets) == 1:
                target = node.targets[0]
                if isinstance(target, ast.Attribute) and target.attr in ("message", "msg"):
                    value = node.value
            elif isinstance(node, ast.Return) and func.name == "__str__":
                value = node.value
            if value is not None and (
                self.state.stringy(value)
                or (isinstance(value, ast.Name) and value.id in scope.messages)
            ):
                return self.state.template(value, scope), passed
        return None, passed

    def _body_may_pass_message(self, func: ast.FunctionDef) -> bool:
        """Whether some statement of `func`'s body may pass `_may_pass_message`: its body's
        lines together hold what one statement's lines must, each statement's lines being
        some of them (asked once, not for each statement of a long `__init__`)."""
        if not func.body:
            return False
        first = func.body[0]
        decorators = getattr(first, "decorator_list", ())
        start = min((d.lineno for d in decorators), default=first.lineno)
        text = line_span(self.state.text, start, func.end_lineno or first.lineno)
        return not text.isascii() or "__init__" in text or "msg" in text or "message" in text

    def _may_pass_message(self, node: ast.AST) -> bool:
        """Whether `node` (in `__init__`) may hold what `_message_in` looks for.

        Walking a long `__init__` costs; the text of a statement is scanned far faster.
        Every name in a statement's tree is written on its lines (the skeleton only blanks
        lines), so a call of `.__init__` needs `__init__` there, and a `.message` or `.msg`
        target that word. Identifiers are NFKC-normalized: text not ASCII is walked anyway.
        """
        if not isinstance(node, ast.stmt):
            return True
        decorators = getattr(node, "decorator_list", ())  # they are above a `def`'s line
        first = min((d.lineno for d in decorators), default=node.lineno)
        text = line_span(self.state.text, first, node.end_lineno or node.lineno)
        return not text.isascii() or "__init__" in text or "msg" in text or "message" in text


def _no_statement(node: ast.AST) -> bool:
    """`DefinitionRecorder._may_pass_message` of a function none of whose statements may."""
    return not isinstance(node, ast.stmt)


def _message_table(node: ast.Dict) -> dict[str, str]:
    """The entries of a dict literal that map a string to a message (maybe marked for
    translation)."""
    table: dict[str, str] = {}
    for key, value in zip(node.keys, node.values, strict=True):
        if isinstance(value, ast.Call) and value.args and dotted_name(value.func) in _GETTEXT:
            value = value.args[0]
        if (
            isinstance(key, ast.Constant)
            and isinstance(key.value, str)
            and isinstance(value, ast.Constant)
            and isinstance(value.value, str)
        ):
            table[key.value] = value.value
    return table


def _any_of(alternatives: list[tuple[Condition, ...]]) -> tuple[Condition, ...]:
    """The guard of a message raised under any of several guards: the one guard, or all of
    them joined with `or` (`(a and b) or c`), which a call's arguments may decide. No guard
    when one is empty (it is raised whatever holds) or holds a loop or an except clause."""
    alternatives = _merged(alternatives)
    if len(alternatives) == 1:
        return alternatives[0]
    joined: list[ast.expr] = []
    for conditions in alternatives:
        if not conditions or any(c.kind not in BRANCH_KINDS for c in conditions):
            return ()
        try:
            tests = [ast.parse(c.statement, mode="eval").body for c in conditions]
        except (SyntaxError, ValueError, RecursionError):
            return ()
        joined.append(tests[0] if len(tests) == 1 else ast.BoolOp(op=ast.And(), values=tests))
    text = ast.unparse(ast.BoolOp(op=ast.Or(), values=joined))
    line = alternatives[0][0].line
    return (Condition(test=text, kind=ConditionKind.IF, holds=True, line=line, text=text),)


def _merged(alternatives: list[tuple[Condition, ...]]) -> list[tuple[Condition, ...]]:
    """The guards with each two that differ only in one test's polarity (`if x:` and its
    `else:`) made one without it, until no two do: `(a and x) or (a and not x)` is `a`."""
    merged = list(dict.fromkeys(alternatives))
    i = 0
    while i < len(merged):
        for j in range(i + 1, len(merged)):
            joined = _without_split(merged[i], merged[j])
            if joined is not None:
                merged[i] = joined
                del merged[j]
                i = -1  # look at every pair again
                break
        i += 1
    return merged


def _without_split(
    first: tuple[Condition, ...], second: tuple[Condition, ...]
) -> tuple[Condition, ...] | None:
    """`first` without its one condition that `second` has the other way round, when they
    are otherwise the same; else None."""
    if len(first) != len(second):
        return None
    split = None
    for at, (one, other) in enumerate(zip(first, second, strict=True)):
        if (one.test, one.holds) == (other.test, other.holds):
            continue
        if split is not None or one.test != other.test:
            return None
        split = at
    return None if split is None else first[:split] + first[split + 1 :]


def _rebound_params(
    func: ast.FunctionDef | ast.AsyncFunctionDef, params: tuple[str, ...], walrus: bool
) -> tuple[set[str], dict[str, list[int]]]:
    """The parameters the body binds again: those bound other than by an assignment (a
    loop's target, `with ... as`), and the lines of the assignments of the others. Not
    `x = x or default`, `x = default if x is None else x` nor an assignment under `if x is
    None:`, which keep what a call gave whenever it gave something (`category = category
    or _category`). `walrus`: whether the file's text holds a `:=` (`rebound_names`)."""
    found = rebound_names(func, walrus) & set(params)
    if not found:
        return found, {}
    assigned: set[str] = set()
    lines: dict[str, list[int]] = {}
    defaults: set[int] = set()  # the assignments under `if x is None:` (or `if not x:`)
    for node in statements_under(func):
        if isinstance(node, ast.If):
            unset = _unset_name(node.test)
            defaults.update(
                id(stmt) for stmt in node.body if unset is not None and _assigns(stmt, unset)
            )
        elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name) and target.id in found:
                    assigned.add(target.id)
                    if id(node) not in defaults and not _keeps(target.id, node):
                        lines.setdefault(target.id, []).append(node.lineno)
    return found - assigned, lines


def _unset_name(test: ast.expr) -> str | None:
    """The name `x` of a test `x is None` or `not x`."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return test.operand.id if isinstance(test.operand, ast.Name) else None
    if (
        isinstance(test, ast.Compare)
        and isinstance(test.left, ast.Name)
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.Is)
        and is_none(test.comparators[0])
    ):
        return test.left.id
    return None


def _assigns(stmt: ast.stmt, name: str) -> bool:
    targets = stmt.targets if isinstance(stmt, ast.Assign) else []
    if isinstance(stmt, ast.AnnAssign):
        targets = [stmt.target]
    return any(isinstance(t, ast.Name) and t.id == name for t in targets)


def _keeps(name: str, node: ast.Assign | ast.AnnAssign | ast.AugAssign) -> bool:
    """`name = name or ...`, `name = ... if name is None else name`: the value given stays
    unless it is empty (None)."""
    value = node.value
    if isinstance(node, ast.AugAssign):
        return False
    if isinstance(value, ast.IfExp):
        return is_name(value.body, name) != is_name(value.orelse, name)
    return (
        isinstance(value, ast.BoolOp)
        and isinstance(value.op, ast.Or)
        and is_name(value.values[0], name)
    )


def _varargs(scope: Scope) -> str | None:
    """The name of the function's `*args` parameter, if it has one."""
    vararg = scope.arguments.vararg if scope.arguments is not None else None
    return vararg.arg if vararg is not None else None


_VALIDATORS = ("field_validator", "validator")  # pydantic 2's and 1's


def validated_fields(stmt: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[str, ...]:
    """The fields a `@field_validator("a", "b")` (or `@validator`) method validates: its
    first parameter after `cls` is their value. `"*"` names no field."""
    for decorator in stmt.decorator_list:
        if not isinstance(decorator, ast.Call):
            continue
        func = decorator.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if name in _VALIDATORS:
            return tuple(
                a.value
                for a in decorator.args
                if isinstance(a, ast.Constant) and isinstance(a.value, str) and a.value != "*"
            )
    return ()


def _config_keys(stmt: ast.ClassDef) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The annotated fields of a configuration class that its constructor takes: not a
    `ClassVar`, not `field(init=False)` (state the class computes itself); and those of
    them declared as a dict (`dict[str, Any]`, `dict | None`)."""
    keys: list[str] = []
    dict_valued: list[str] = []
    for item in stmt.body:
        if not (isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)):
            continue
        annotation = item.annotation
        head = annotation.value if isinstance(annotation, ast.Subscript) else annotation
        if dotted_name(head) in ("ClassVar", "typing.ClassVar", "InitVar"):
            continue
        value = item.value
        if isinstance(value, ast.Call) and any(
            k.arg == "init" and isinstance(k.value, ast.Constant) and k.value.value is False
            for k in value.keywords
        ):
            continue
        keys.append(item.target.id)
        if _declared_dict(annotation):
            dict_valued.append(item.target.id)
    return tuple(keys), tuple(dict_valued)


def _declared_dict(annotation: ast.expr) -> bool:
    """Whether an annotation declares a dict, alone or as a member of a union: `dict[str,
    Any] | None`, `None | dict`, `Optional[Dict[str, Any]]`, `Union[dict, Config]`,
    `Mapping[str, int]` (a string annotation read as the expression it holds)."""
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        read = annotation_in(annotation.value)
        if read is None:
            return False
        annotation = read
    if isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr):
        return _declared_dict(annotation.left) or _declared_dict(annotation.right)
    head = annotation.value if isinstance(annotation, ast.Subscript) else annotation
    named = dotted_name(head)
    if named is None:
        return False
    last = named.rpartition(".")[2]
    if isinstance(annotation, ast.Subscript) and last in ("Optional", "Union"):
        inside = annotation.slice
        members = inside.elts if isinstance(inside, ast.Tuple) else [inside]
        return any(_declared_dict(m) for m in members)
    return last in _DICT_TYPES and named.partition(".")[0] in (last, *_DICT_MODULES)


def _command_names(body: list[ast.stmt]) -> dict[str, str]:
    """The class-level names of a command and their literal words (`name = "serve"`)."""
    found: dict[str, str] = {}
    for item in body:
        bound = single_binding(item)
        if bound is None:
            continue
        target, value = bound
        if (
            isinstance(target, ast.Name)
            and _COMMAND_ATTR.search(target.id)
            and isinstance(value, ast.Constant)
            and isinstance(value.value, str)
            and _COMMAND_WORD.search(value.value)
        ):
            found[target.id] = value.value
    return found
