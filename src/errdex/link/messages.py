"""Complete a site's message with what other places know: constants, classes, helpers."""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping

from errdex.extract.shapes import formatted_name
from errdex.extract.templates import TemplateBuilder
from errdex.facts import Arg, FileFacts, MessageTemplate, Part, Placeholder
from errdex.lazy_re import lazy_compile
from errdex.link.guards import bind_expression
from errdex.link.resolve import Namespace, ResolvedClass

SUBSCRIPT = lazy_compile(r"^([A-Za-z_][\w.]*)\[\s*(['\"])(.*?)\2\s*\]$")


def inline_constants(
    template: MessageTemplate,
    facts: FileFacts,
    names: Namespace,
    class_entry: Callable[[str, str], MessageTemplate | None] | None = None,
) -> MessageTemplate:
    """Replace placeholders that name string constants (or a constant dict's entry), and,
    with `class_entry` (table, key → the entry of the site's class), the entries of the
    class's message tables (`self.error_messages["invalid"]`)."""
    if not template.placeholders:
        return template
    parts: list[Part] = []
    changed = False
    for part in template.parts:
        found: tuple[Part, ...] | None = None
        if isinstance(part, Placeholder):
            found = _table_entry(part, class_entry) or _constant_text(part, facts, names)
        if found is None:
            parts.append(part)
        else:
            parts.extend(found)
            changed = True
    return MessageTemplate.of(*parts) if changed else template


def _table_entry(
    placeholder: Placeholder, class_entry: Callable[[str, str], MessageTemplate | None] | None
) -> tuple[Part, ...] | None:
    match = SUBSCRIPT.match(placeholder.expr) if class_entry is not None else None
    if class_entry is None or match is None or not match.group(1).startswith("self."):
        return None
    table = match.group(1).removeprefix("self.")
    entry = class_entry(table, match.group(3)) if "." not in table else None
    return entry.parts if entry is not None else None


def _constant_text(
    placeholder: Placeholder, facts: FileFacts, names: Namespace
) -> tuple[str] | None:
    if placeholder.expr == "__name__" and facts.module and not placeholder.spec:
        # The module's own name, as imported (a module's `__getattr__`: `module
        # {__name__!r} has no attribute {name!r}`).
        conversion = placeholder.conversion
        if conversion in (None, "s", "r"):
            return (repr(facts.module) if conversion == "r" else facts.module,)
        return None
    if placeholder.conversion or placeholder.spec:
        return None
    expr = placeholder.expr
    key: str | None = None
    match = SUBSCRIPT.match(expr)
    if match:
        expr, key = match.group(1), match.group(3)
    if not expr.replace(".", "").replace("_", "").isalnum():
        return None
    found = names.resolve_constant(facts, expr)
    if found is None:
        return None
    value = found[0]
    if key is not None:
        value = value.get(key) if isinstance(value, dict) else None
    return (value,) if isinstance(value, str) else None


def substitute(
    template: MessageTemplate,
    values: dict[str, MessageTemplate],
    sources: Mapping[str, str] | None = None,
) -> MessageTemplate:
    """Replace `{param}` placeholders with the templates of the arguments passed for them.

    With the arguments' `sources`, a placeholder that only uses a parameter, such as
    `{len(shape)}`, is written in the caller's terms too: `{len(meta.shape)}`.
    """
    parts: list[Part] = []
    for part in template.parts:
        if isinstance(part, Placeholder) and part.expr in values:
            given = values[part.expr]
            only = given.parts[0] if len(given.parts) == 1 else None
            if isinstance(only, Placeholder):
                # `{name!r}` fed by `model_id` is `{model_id!r}` at the raise
                parts.append(
                    Placeholder(
                        only.expr, part.conversion or only.conversion, part.spec or only.spec
                    )
                )
            elif isinstance(only, str) and part.conversion == "r":
                parts.append(repr(only))
            elif part.conversion or part.spec:
                parts.append(part)
            else:
                parts.extend(given.parts)
        elif isinstance(part, Placeholder) and sources:
            expr = bind_expression(part.expr, sources)
            parts.append(
                part if expr == part.expr else Placeholder(expr, part.conversion, part.spec)
            )
        else:
            parts.append(part)
    return MessageTemplate.of(*parts)


def format_given(
    template: MessageTemplate, param: str, params: tuple[str, ...], args: tuple[Arg, ...]
) -> MessageTemplate:
    """A helper's message that formats the text given for `param` (`{msg.format(*args)}`,
    `{msg.format(**fields)}`, `{msg % values}`) as one call formats it: with the call's text
    for the parameter and its sources for the other parameters; a `*args` parameter takes
    the positional arguments past the named ones."""
    positional = [a for a in args if a.name is None]
    given = dict(zip(params, positional, strict=False))
    given.update((a.name, a) for a in args if a.name is not None and a.name in params)
    text = given.get(param)
    if text is None or text.template is None:
        return template
    extra = positional[len(params) :]
    parts: list[Part] = []
    for part in template.parts:
        built = None
        if isinstance(part, Placeholder) and formatted_name(part.expr) == param:
            built = _formatted(part.expr, param, text.template, given, extra)
        parts.extend(built.parts if built is not None else (part,))
    return MessageTemplate.of(*parts)


_GIVEN = "__given_text"  # the parameter's text, while it is formatted


class _Spread(ast.NodeTransformer):
    """A helper's expression in a call's terms: the parameter named `_GIVEN`, the others
    replaced by the arguments' sources, a `*args` by the positional arguments past them."""

    def __init__(self, param: str, sources: dict[str, ast.expr], extra: list[ast.expr]) -> None:
        self.param = param
        self.sources = sources
        self.extra = extra

    def visit_Name(self, node: ast.Name) -> ast.expr:
        if node.id == self.param:
            return ast.Name(_GIVEN, ast.Load())
        return self.sources.get(node.id, node)

    def visit_Call(self, node: ast.Call) -> ast.expr:
        self.generic_visit(node)
        spread: list[ast.expr] = []
        for arg in node.args:
            if isinstance(arg, ast.Starred) and isinstance(arg.value, ast.Name):
                spread.extend(self.extra)
            else:
                spread.append(arg)
        node.args = spread
        return node


def formatted_receiver(node: ast.expr) -> ast.expr | None:
    """What `node` formats, when it formats text (`message % dict(max=self.max)`,
    `msg.format(x)`): the receiver, else None."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        return node.left
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("format", "format_map")
    ):
        return node.func.value
    return None


def format_text(node: ast.expr, text: MessageTemplate) -> MessageTemplate | None:
    """`node`, which formats its receiver (`formatted_receiver`), built with `text` for the
    receiver's value; None when it cannot be."""
    given = ast.Name(_GIVEN, ast.Load())
    if isinstance(node, ast.BinOp):
        rebuilt: ast.expr = ast.BinOp(given, node.op, node.right)
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        rebuilt = ast.Call(
            ast.Attribute(given, node.func.attr, ast.Load()), node.args, node.keywords
        )
    else:
        return None
    try:
        source = ast.unparse(rebuilt)
        bound = ast.parse(source, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    built = TemplateBuilder(source, locals={_GIVEN: text}).build(bound)
    if built is None or any(_GIVEN in p.expr for p in built.placeholders):
        return None
    return built


def _formatted(
    expr: str, param: str, text: MessageTemplate, given: dict[str, Arg], extra: list[Arg]
) -> MessageTemplate | None:
    """`expr` built with `text` for `param` and the call's arguments for the rest."""
    try:
        node = ast.parse(expr, mode="eval").body
        sources = {
            name: ast.parse(arg.source, mode="eval").body
            for name, arg in given.items()
            if name != param
        }
        spread = [ast.parse(arg.source, mode="eval").body for arg in extra]
        source = ast.unparse(_Spread(param, sources, spread).visit(node))
        bound = ast.parse(source, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    built = TemplateBuilder(source, locals={_GIVEN: text}).build(bound)
    if built is None or any(_GIVEN in p.expr for p in built.placeholders):
        return None  # a shape the builder could not format
    return built


def argument_sources(params: tuple[str, ...], args: tuple[Arg, ...]) -> dict[str, str]:
    """Map a call's arguments onto parameter names, as the source text passed."""
    positional = [a for a in args if a.name is None]
    sources = {name: arg.source for name, arg in zip(params, positional, strict=False)}
    sources.update({a.name: a.source for a in args if a.name is not None and a.name in params})
    return sources


def bind_arguments(params: tuple[str, ...], args: tuple[Arg, ...]) -> dict[str, MessageTemplate]:
    """Map a call's arguments onto parameter names, as templates (values become placeholders)."""
    bound: dict[str, MessageTemplate] = {}
    positional = [a for a in args if a.name is None]
    for name, arg in zip(params, positional, strict=False):
        bound[name] = arg.template or MessageTemplate.of(Placeholder(arg.source))
    for arg in args:
        if arg.name is not None and arg.name in params:
            bound[arg.name] = arg.template or MessageTemplate.of(Placeholder(arg.source))
    return bound


def class_message(
    cls: ResolvedClass, names: Namespace
) -> tuple[MessageTemplate, tuple[str, ...]] | None:
    """The message a codebase exception class builds in `__init__`/`__str__`, with its params.

    Inherited from the nearest base that builds one when the class has no `__init__` of its
    own; when its `__init__` passes arguments to a base that builds its message from them
    (`super().__init__(line, col, message=f"Bad {char!r}")` into `f"{message} at line
    {line}"`), the base's message with those arguments put in.
    """
    return _class_message(cls, names, depth=6)


def _class_message(
    cls: ResolvedClass, names: Namespace, depth: int
) -> tuple[MessageTemplate, tuple[str, ...]] | None:
    fact = cls.fact
    base = _first_base(cls, names) if depth > 0 else None
    if fact.super_args and base is not None:
        above = _class_message(base, names, depth - 1)
        if above is not None:
            template, params = above
            bound = bind_arguments(params, fact.super_args)
            if bound:
                return substitute(template, bound), fact.init_params
    if fact.message is not None:
        return fact.message, fact.init_params
    if fact.init_params or base is None:  # its own __init__, building no message we can see
        return None
    return _class_message(base, names, depth - 1)


def _first_base(cls: ResolvedClass, names: Namespace) -> ResolvedClass | None:
    """The first base of the class that the version defines."""
    bases = (names.resolve_class(cls.file, b) for b in cls.fact.bases)
    return next((b for b in bases if b is not None), None)


def put_text(template: MessageTemplate, expr: str, text: MessageTemplate) -> MessageTemplate:
    """The template with its placeholders of `expr` replaced by `text`."""
    parts: list[Part] = []
    for part in template.parts:
        if isinstance(part, Placeholder) and part.expr == expr:
            parts.extend(text.parts)
        else:
            parts.append(part)
    return MessageTemplate.of(*parts)
