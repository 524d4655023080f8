"""How exception classes write the text a user sees, read one class at a time.

`str(exc)` is often not the message given at the raise: werkzeug's `HTTPException.__str__`
returns `f"{code} {self.name}: {self.description}"`, each subclass overriding `code` and
`description` with a class attribute; click's `BadParameter.format_message()` wraps the
message in `Invalid value for {param_hint}: ...` and `show()` prints `Error: ...` around
that. Here each class's own pieces are read in terms of `self`: its literal class
attributes, what `__init__` stores on `self`, and what `__str__`, `format_message()`,
`show()` and its properties return. Bases and subclasses may be in other files, so the
linker composes the pieces per raise (`link.compose`).
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Iterable, Iterator, Mapping

import msgspec

from errdex.extract.conditions import dotted_name, walk
from errdex.extract.shapes import (
    MESSAGE_MEMBER,
    own_attributes_set,
    single_binding,
    statements_under,
    tested_absent,
)
from errdex.extract.source_text import source_of
from errdex.extract.templates import TemplateBuilder
from errdex.facts import Append, ClassText, ErrorSite, MessageTemplate, Placeholder, TextMethod
from errdex.lazy_re import lazy_compile

# A class header naming an exception: its own name or a base's. A class of the same file
# deriving from one so read is read too (`class NotFound(HTTPException)`, then
# `class ClientDisconnected(BadRequest)`).
EXCEPTION_HEADER = lazy_compile(r"Error|Exception|Warning|Exc\b|Abort|Exit|Failure|Fault")
# Methods whose return (or, for `show`, whose printed text) is the text a user sees, or a
# part of it; properties are read too.
_TEXT_METHODS = frozenset({"__str__", "format_message", "show", "get_message"})
_GETTEXT = frozenset({"_", "gettext", "ngettext", "lazy_gettext", "gettext_lazy", "N_"})
# A member of the object read as a message: `self._undefined_message`, `self.describe()`.
MEMBER = lazy_compile(r"self\.(\w+)(?:\(\))?")
# Class attributes that exception classes combine into their text.
_TEXT_ATTRS = frozenset(
    {
        "code",
        "name",
        "description",
        "message",
        "msg",
        "status",
        "status_code",
        "title",
        "detail",
        "reason",
        "errno",
    }
)
_MAX_VALUE = 2000  # longer literals are not messages
_MAX_SOURCE = 300  # a local's or an attribute's expression longer than this is not read
_MAX_RETURNS = 4
_MAX_APPENDS = 6  # texts a method adds to the local it returns
_MAX_METHODS = 16


def class_texts(
    tree: ast.Module,
    text: str,
    constants: Mapping[str, object],
    sites: Iterable[ErrorSite] = (),
) -> tuple[ClassText, ...]:
    """The `ClassText` of every exception class of a file that has anything to say, and of
    each class whose method or property builds the message of one of `sites`
    (`raise UndefinedError(self._undefined_message)`)."""
    raised = members_raised(sites)
    given: set[str] | None = None  # `_given_values(tree)`, walked once a class is read
    found: list[ClassText] = []
    read: set[str] = set()  # names of the classes read, for their subclasses in the file
    builder = TemplateBuilder(text, constants=constants)
    # The classes in the file's order, each before those nested in it: a stack, not a
    # recursive closure, which would be a reference cycle holding the tree.
    stack = [(stmt, "") for stmt in reversed(tree.body)]
    while stack:
        stmt, prefix = stack.pop()
        if not isinstance(stmt, ast.ClassDef):
            continue
        qualname = prefix + stmt.name
        bases = [dotted_name(base) or "" for base in stmt.bases]
        members: Collection[str] | None = None
        if EXCEPTION_HEADER.search(" ".join((stmt.name, *bases))) or any(
            base.rsplit(".", 1)[-1] in read for base in bases
        ):
            read.add(stmt.name)
            members = raised.get(qualname, ())
        elif qualname in raised:
            # The object's own members make the message (a validator's `self.message`,
            # kept by `__init__` with a default): read as an exception class is.
            members = raised[qualname]
        elif any(bases):
            # A subclass of another file's exception may say so in no name
            # (`class NotFound(BadRequest)`): its texts are kept, not its code.
            attrs = _text_attrs(stmt)
            if attrs:
                found.append(ClassText(qualname=qualname, attrs=attrs))
        if members is not None:
            if given is None:
                given = _given_values(tree)
            fact = _class_text(stmt, qualname, text, builder, members, given)
            if fact.attrs or fact.sets or fact.methods or fact.fallbacks:
                found.append(fact)
        stack.extend((inner, qualname + ".") for inner in reversed(stmt.body))
    return tuple(found)


def members_raised(sites: Iterable[ErrorSite]) -> dict[str, set[str]]:
    """Class → the members whose value a raise in it takes as its message, or in it:
    `self._undefined_message`, `self.describe()`; and the classes whose raise reads a member
    otherwise (`self.message % dict(max=self.max)`, or a local that holds one)."""
    raised: dict[str, set[str]] = {}
    for site in sites:
        if site.class_name is None or site.message is None:
            continue
        if any(b.origin == "local" and MESSAGE_MEMBER.search(b.value) for b in site.bindings):
            raised.setdefault(site.class_name, set())
        for placeholder in site.message.placeholders:
            member = MEMBER.fullmatch(placeholder.expr)
            if member is not None:
                raised.setdefault(site.class_name, set()).add(member.group(1))
            elif MESSAGE_MEMBER.search(placeholder.expr):
                raised.setdefault(site.class_name, set())
    return raised


def _members(
    stmt: ast.ClassDef, names: Collection[str], text: str, builder: TemplateBuilder
) -> dict[str, TextMethod]:
    """What the methods (without parameters) or properties named `names` return."""
    methods: dict[str, TextMethod] = {}
    for item in stmt.body:
        if (
            isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)
            and item.name in names
            and len(item.args.args) == 1
        ):
            method = _text_method(item, text, builder)
            if method.returns:
                methods[item.name] = method
    return methods


def _class_text(
    stmt: ast.ClassDef,
    qualname: str,
    text: str,
    builder: TemplateBuilder,
    raised: Collection[str] = (),
    given: Collection[str] = (),
) -> ClassText:
    attrs = dict(_literal_attributes(stmt))
    sets: dict[str, str] = {}
    defaults: dict[str, str] = {}
    fallbacks: dict[str, str] = {}
    methods = _members(stmt, raised, text, builder)
    for item in stmt.body:
        if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
            if item.name == "__init__":
                defaults = _defaults(item, text)
                sets = _stored(item, text)
                fallbacks = _fallbacks(item, text)
            elif len(methods) < _MAX_METHODS and reads_as_text(item):
                method = _text_method(item, text, builder)
                if method.returns:
                    methods[item.name] = method
            elif len(methods) < _MAX_METHODS and item.name in given and takes_values(item):
                method = _text_method(item, text, builder)
                if method.returns and all(map(_worded, method.returns)):
                    params = tuple(a.arg for a in item.args.args[1:])
                    methods[item.name] = msgspec.structs.replace(method, params=params)
    return ClassText(
        qualname=qualname,
        attrs=attrs,
        sets=sets,
        defaults=defaults,
        fallbacks=fallbacks,
        methods=methods,
    )


def _text_attrs(stmt: ast.ClassDef) -> dict[str, str]:
    """The class attributes that read as texts (words with a space, or a name such as
    `code`), not as enumerations' values."""
    return {
        name: value
        for name, value in _literal_attributes(stmt)
        if " " in value or name in _TEXT_ATTRS
    }


def _literal_attributes(stmt: ast.ClassDef) -> Iterator[tuple[str, str]]:
    """(name, repr of the value) of each class attribute bound to a literal."""
    for item in stmt.body:
        if (bound := single_binding(item)) is None:
            continue
        target, node = bound
        value = _literal(node)
        if value is not None and isinstance(target, ast.Name):
            yield target.id, value


def _literal(node: ast.expr) -> str | None:
    """The repr of a literal class attribute (a string maybe marked for translation, a
    number), or None."""
    if isinstance(node, ast.Call) and len(node.args) == 1 and dotted_name(node.func) in _GETTEXT:
        node = node.args[0]
    if not isinstance(node, ast.Constant) or isinstance(node.value, bytes | complex):
        return None
    if node.value is not None and not isinstance(node.value, str | int | float):
        return None
    value = repr(node.value)
    return value if len(value) <= _MAX_VALUE else None


def reads_as_text(func: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """A method that makes text: one of `_TEXT_METHODS`, or a property (not its setter)."""
    if func.name in _TEXT_METHODS:
        return True
    for decorator in func.decorator_list:
        name = dotted_name(decorator) or ""
        if name.endswith("property"):
            return len(func.args.args) == 1
    return False


def _given_values(tree: ast.Module) -> set[str]:
    """The methods a text method of the file's classes calls with values
    (`self._format_expected(self.allowed)` in `__str__`): a base's, or the class's own."""
    called: set[str] = set()
    classes = [s for s in tree.body if isinstance(s, ast.ClassDef)]
    for cls in classes:
        classes.extend(s for s in cls.body if isinstance(s, ast.ClassDef))
        for node in cls.body:
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            if not reads_as_text(node):
                continue
            for inner in walk(node):
                if (
                    isinstance(inner, ast.Call)
                    and (inner.args or inner.keywords)
                    and isinstance(inner.func, ast.Attribute)
                    and isinstance(inner.func.value, ast.Name)
                    and inner.func.value.id == "self"
                ):
                    called.add(inner.func.attr)
    return called


def takes_values(func: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """A plain method given values by position or name (`self._format_expected(allowed)`),
    which `__str__` may call to format part of its text."""
    args = func.args
    return (
        len(args.args) > 1
        and not (args.posonlyargs or args.vararg or args.kwonlyargs or args.kwarg)
        and not func.decorator_list
        and not (func.name.startswith("__") and func.name.endswith("__"))
    )


def _worded(template: MessageTemplate) -> bool:
    """A returned text with written words in it, not a value passed through."""
    return any(isinstance(part, str) and " " in part.strip() for part in template.parts)


def _defaults(func: ast.FunctionDef | ast.AsyncFunctionDef, text: str) -> dict[str, str]:
    args = func.args
    positional = [*args.posonlyargs, *args.args][1:]
    found = {
        param.arg: source_of(text, default)
        for param, default in zip(positional[::-1], args.defaults[::-1], strict=False)
    }
    found.update(
        (param.arg, source_of(text, default))
        for param, default in zip(args.kwonlyargs, args.kw_defaults, strict=True)
        if default is not None
    )
    return {name: source for name, source in found.items() if len(source) <= _MAX_SOURCE}


def _fallbacks(func: ast.FunctionDef | ast.AsyncFunctionDef, text: str) -> dict[str, str]:
    """What a parameter holds when not given, set in the body's first statements:
    `if message is None: message = f"No such option: {name}"`, `if not hint: hint = ...`,
    `message = message or DEFAULT`."""
    args = func.args
    params = {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)}
    found: dict[str, str] = {}
    for stmt in func.body:
        name, value = _fallback(stmt)
        if name is None or value is None:
            if isinstance(stmt, ast.Expr | ast.Assign | ast.AnnAssign | ast.If):
                continue  # a docstring, another assignment, another test
            break  # a loop, a `with`, a `try`: what follows is no longer the defaults
        if name in params and name not in found:
            source = source_of(text, value)
            if len(source) <= _MAX_SOURCE:
                found[name] = source
    return found


def _fallback(stmt: ast.stmt) -> tuple[str | None, ast.expr | None]:
    """(parameter, value) of `if p is None: p = value` / `if not p: p = value` /
    `p = p or value`."""
    if isinstance(stmt, ast.If) and not stmt.orelse and len(stmt.body) == 1:
        body = stmt.body[0]
        tested = tested_absent(stmt.test)
        if (
            isinstance(tested, ast.Name)
            and isinstance(body, ast.Assign)
            and len(body.targets) == 1
            and isinstance(body.targets[0], ast.Name)
            and body.targets[0].id == tested.id
        ):
            return tested.id, body.value
    if (
        isinstance(stmt, ast.Assign)
        and len(stmt.targets) == 1
        and isinstance(stmt.targets[0], ast.Name)
        and isinstance(stmt.value, ast.BoolOp)
        and isinstance(stmt.value.op, ast.Or)
        and len(stmt.value.values) == 2
        and isinstance(stmt.value.values[0], ast.Name)
        and stmt.value.values[0].id == stmt.targets[0].id
    ):
        return stmt.targets[0].id, stmt.value.values[1]
    return None, None


def _stored(func: ast.FunctionDef | ast.AsyncFunctionDef, text: str) -> dict[str, str]:
    """`self.X = <expr>` in `__init__`: the first expression stored in each attribute."""
    sets: dict[str, str] = {}
    for node in statements_under(func):
        if not isinstance(node, ast.stmt):
            continue
        for attr, value in own_attributes_set(node):
            if attr not in sets:
                source = source_of(text, value)
                if len(source) <= _MAX_SOURCE:
                    sets[attr] = source
    return sets


def _text_method(
    func: ast.FunctionDef | ast.AsyncFunctionDef, text: str, builder: TemplateBuilder
) -> TextMethod:
    """What a method returns (what `show` prints: the texts it passes that read `self`),
    and the first value of each of its locals."""
    returns: list[MessageTemplate] = []
    local_values: dict[str, str] = {}
    for node in walk(func):
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name) and target.id not in local_values:
                source = source_of(text, node.value)
                if len(source) <= _MAX_SOURCE:
                    local_values[target.id] = source
        value: ast.expr | None = None
        if func.name == "show":
            if isinstance(node, ast.Call) and node.args:
                value = node.args[0]
        elif isinstance(node, ast.Return):
            value = node.value
        if value is None or (isinstance(value, ast.Constant) and value.value is None):
            continue
        template = builder.build(value)
        if template is None or (func.name == "show" and not _reads_self(template)):
            continue
        if template not in returns and len(returns) < _MAX_RETURNS:
            returns.append(template)
    appends: dict[str, tuple[Append, ...]] = {}
    if func.name != "show":
        for returned in returns:
            only = returned.parts[0] if len(returned.parts) == 1 else None
            if isinstance(only, Placeholder) and only.expr in local_values:
                added = _appends(func.body, only.expr, builder)
                if added:
                    appends[only.expr] = added
    return TextMethod(returns=tuple(returns), locals=local_values, appends=appends)


def _appends(body: list[ast.stmt], local: str, builder: TemplateBuilder) -> tuple[Append, ...]:
    """What the method body adds to `local` after its first value: `local += ...` at its top
    level, or alone under `if self.attr:`; none when it assigns it again or adds otherwise."""
    found: list[Append] = []
    assigned = False
    for stmt in body:
        if _assigns(stmt, local) and not assigned:
            assigned = True
            continue
        if not assigned:
            continue
        added = _added(stmt, local, builder)
        if added is not None:
            found.append(Append(added))
        elif (
            isinstance(stmt, ast.If)
            and not stmt.orelse
            and isinstance(stmt.test, ast.Attribute)
            and isinstance(stmt.test.value, ast.Name)
            and stmt.test.value.id == "self"
            and all(_added(s, local, builder) is not None for s in stmt.body)
        ):
            when = f"self.{stmt.test.attr}"
            found.extend(Append(t, when) for s in stmt.body if (t := _added(s, local, builder)))
        elif any(_assigns(node, local) for node in ast.walk(stmt)):
            return ()  # changed some other way: what it ends as is not read
        if len(found) > _MAX_APPENDS:
            return ()
    return tuple(found)


def _assigns(node: ast.AST, local: str) -> bool:
    targets = (
        node.targets
        if isinstance(node, ast.Assign)
        else [node.target]
        if isinstance(node, ast.AugAssign | ast.AnnAssign)
        else []
    )
    return any(isinstance(t, ast.Name) and t.id == local for t in targets)


def _added(stmt: ast.stmt, local: str, builder: TemplateBuilder) -> MessageTemplate | None:
    """The text of `local += <text>`, else None."""
    if not (
        isinstance(stmt, ast.AugAssign)
        and isinstance(stmt.op, ast.Add)
        and isinstance(stmt.target, ast.Name)
        and stmt.target.id == local
    ):
        return None
    return builder.build(stmt.value)


def _reads_self(template: MessageTemplate) -> bool:
    return any("self" in p.expr for p in template.placeholders)
