"""The messages a local holds when it is assigned a lookup or a choice of texts.

`msg = msgs.get(name, "Method %s() has already been invoked" % ...)` holds the default (and
each of a table's few texts, when the table is known: a dict literal, a local or a module
constant bound to one); `msg = {OPENED: "...", CLOSED: "..."}[state]` holds each value;
`msg = "a" if test else "b"` holds each, with the test that picks it; so does a name an
`if` test binds (`if (msg := MESSAGES.get(task)):`) in its body. A raise of such a
local (`raise X(msg)`, `raise X(msg % name)`) then has a site per text (see
`SiteRecorder._chosen`), where it had the local's name alone.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping
from typing import Any

from errdex.extract.scope import Scope, Step
from errdex.extract.shapes import is_stringy
from errdex.extract.templates import TemplateBuilder
from errdex.facts import ConditionKind, MessageTemplate

# A table of more texts is a registry of values more than a message's wordings.
MAX_HELD = 4

Held = tuple[tuple[MessageTemplate, Step | None], ...]


def held_messages(
    value: ast.expr,
    scope: Scope,
    builder_of: Callable[[Scope], TemplateBuilder],
    constants: Mapping[str, Any],
) -> Held:
    """The texts a local assigned `value` may hold, each with the step that picks it (None:
    a key only the run knows); empty unless every one is worded text. `builder_of` makes the
    scope's template builder, asked only for text (most values hold none)."""
    is_get = (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Attribute)
        and value.func.attr == "get"
        and len(value.args) in (1, 2)
        and not value.keywords
    )
    if not is_get and not isinstance(value, ast.IfExp | ast.Subscript):
        return ()  # (most values: asked first, before anything is made)
    texts = _Texts(scope, builder_of, constants)
    if isinstance(value, ast.IfExp):
        body = texts.worded(value.body)
        orelse = texts.worded(value.orelse) if body is not None else None
        if body is None or orelse is None:
            return ()
        return (
            (body, Step(value.test, ConditionKind.IF)),
            (orelse, Step(value.test, ConditionKind.ELSE, holds=False)),
        )
    if isinstance(value, ast.Subscript):
        return tuple((text, None) for text in texts.table(value.value))
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute):  # `is_get`
        if len(value.args) == 1:  # (None for another key: no message)
            return tuple((text, None) for text in texts.table(value.func.value))
        default = texts.worded(value.args[1])
        if default is None:
            return ()
        table = texts.table(value.func.value)
        return (*((text, None) for text in table if text != default), (default, None))
    return ()


class _Texts:
    """Reads the texts of one assignment's value, the scope's builder made on first need."""

    def __init__(
        self,
        scope: Scope,
        builder_of: Callable[[Scope], TemplateBuilder],
        constants: Mapping[str, Any],
    ) -> None:
        self.scope = scope
        self.builder_of = builder_of
        self.constants = constants
        self._builder: TemplateBuilder | None = None

    def worded(self, node: ast.expr) -> MessageTemplate | None:
        """`node`'s template when it is text that reads as a message (words apart, not a
        value a message would show: `"auto"`)."""
        if not is_stringy(node, self.constants):
            return None
        if self._builder is None:
            self._builder = self.builder_of(self.scope)
        template = self._builder.build(node)
        return template if template is not None and prose(template) else None

    def table(self, node: ast.expr) -> tuple[MessageTemplate, ...]:
        """The texts of a table of few worded values: a dict literal, or a name bound to one
        (the local's one assignment, else a module constant); empty when any is no text."""
        if isinstance(node, ast.Name):
            assigned = self.scope.assigns.get(node.id, ())
            if len(assigned) == 1 and isinstance(assigned[0].value, ast.Dict):
                node = assigned[0].value
            elif not assigned and isinstance(table := self.constants.get(node.id), dict):
                values = list(table.values())
                if 0 < len(values) <= MAX_HELD and all(_prose_text(t) for t in values):
                    return tuple(dict.fromkeys(MessageTemplate.of(t) for t in values))
                return ()
        if not isinstance(node, ast.Dict) or not 0 < len(node.values) <= MAX_HELD:
            return ()
        if any(key is None for key in node.keys):
            return ()  # `{**other, ...}`: texts this one does not show
        worded = []
        for value in node.values:
            text = self.worded(value)
            if text is None:
                return ()
            worded.append(text)
        return tuple(dict.fromkeys(worded))


def prose(template: MessageTemplate) -> bool:
    """Whether a text reads as a message (`"%r is undefined"`), not as a value a message
    shows (`provider = "auto"`): some literal part of it holds words apart."""
    return any(isinstance(part, str) and _prose_text(part) for part in template.parts)


def _prose_text(value: object) -> bool:
    return isinstance(value, str) and " " in value.strip()
