"""The texts a user sees for a site, composed away from the raise by its exception class.

The class actually raised, along its bases, decides what `str(exc)` is: its `__init__`
binds the raise's arguments and stores them on `self`, and `__str__`, `format_message()`
and properties combine those with class attributes each subclass overrides (werkzeug's
`f"{code} {self.name}: {self.description}"` is `400 Bad Request: The browser ...` for
`BadRequest`). Without a `__str__` of the codebase, Python's own rules apply to what reached
`BaseException.__init__`: one argument is its `str()` (a `KeyError`'s is its `repr()`),
several are their tuple, an `OSError`'s `(errno, strerror)` read `[Errno 2] No such file`.

Everything is evaluated symbolically over the extracted source of expressions
(`link.symbolic`): a value that cannot be known stays a placeholder, so lookup still
extracts it from a paste.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from errdex.extract.exception_classes import MEMBER
from errdex.extract.shapes import MESSAGE_KEYWORDS, MESSAGE_MEMBER
from errdex.facts import (
    Arg,
    Binding,
    ClassText,
    ErrorSite,
    FileFacts,
    MessageTemplate,
    Placeholder,
    SiteKind,
    TextMethod,
)
from errdex.link.builtin_text import arg_template, builtin_str
from errdex.link.messages import bind_arguments, put_text, substitute
from errdex.link.resolve import Namespace, ResolvedClass
from errdex.link.symbolic import (
    DEPTH,
    Evaluator,
    Frame,
    Instance,
    builtin_root,
    literal,
    owned_frame,
    parsed,
)
from errdex.linked_facts import ShownText

__all__ = ["Composer"]


class Composer:
    """Composes `str(exc)` and `format_message()` of the version's exception classes."""

    def __init__(self, files: list[FileFacts], names: Namespace) -> None:
        self._names = names
        self._values = Evaluator(names)
        self._texts = {f"{facts.module}.{t.qualname}": t for facts in files for t in facts.texts}
        self._chains: dict[str, list[ResolvedClass]] = {}

    def forms(
        self, site: ErrorSite, cls: ResolvedClass, message: MessageTemplate | None
    ) -> Iterator[ShownText]:
        """`str(exc)` (and `format_message()`, and what `show()` prints) of the codebase
        class `cls` as the site raises it; `message` is the site's own, for a raise whose
        arguments the facts do not hold (a helper's call, a factory)."""
        instance = self._instance(cls.file, cls.fact.qualname)
        if instance is None:
            return
        self._construct(instance, site, message)
        chain = instance.chain
        found_str = False
        for name, how in (("__str__", "str(exc)"), ("format_message", "format_message()")):
            owner = self._values.method(instance, name)
            if owner is None:
                continue
            found_str = found_str or name == "__str__"
            for template in owner[1].returns:
                frame = owned_frame(instance, owner)
                for whole in self._appended(template, owner[1], frame, site.truthy):
                    yield ShownText(self._values.fill(whole, frame, 0), how)
        if not found_str and instance.args is not None:
            root = builtin_root(chain)
            if root is not None:
                text = builtin_str(root, instance.args)
                if text is None and _wrapped_given(site, message, instance.args):
                    # Made by a factory or a helper with a message, which `__init__` wraps
                    # (`super().__init__(f"{message} at line {self._line} ...")`): the
                    # one argument that reached `BaseException` is the text a user sees.
                    text = arg_template(instance.args[0])
                if text is not None:
                    yield ShownText(text, "str(exc)")
        show = self._values.method(instance, "show")
        if show is not None:
            for template in show[1].returns:
                for filled in self._printed(template, instance, show):
                    yield ShownText(filled, f"printed by {chain[0].fact.name}.show()")

    def _appended(
        self, template: MessageTemplate, method: TextMethod, frame: Frame, truthy: tuple[str, ...]
    ) -> list[MessageTemplate]:
        """A returned local with what the method adds to it: always, or when the attribute
        tested is set on this object to a value that is surely truthy (written so, or a
        local the raise passes that surely is: `truthy`); when the raise gave it a value
        that may be either, the texts with and without it (the shorter first)."""
        only = template.parts[0] if len(template.parts) == 1 else None
        added = method.appends.get(only.expr, ()) if isinstance(only, Placeholder) else ()
        texts = [template]
        for append in added:
            value = self._values.evaluate(append.when, frame, 0) if append.when else None
            if not append.when or _truthy(value, truthy):
                texts = [t + append.text for t in texts]
            elif _given(value) and len(texts) < _MAX_MAYBE:
                texts = [*texts, *(t + append.text for t in texts)]
        return texts

    def _instance(self, facts: FileFacts, class_name: str) -> Instance | None:
        """A new object of the class (of `facts`): nothing set on it yet. Its chain of
        classes is found once per class."""
        key = f"{facts.module}.{class_name}"
        chain = self._chains.get(key)
        if chain is None:
            if key not in self._names.classes:
                return None
            chain = self._chains[key] = list(self._names.class_and_bases(facts, class_name))
        return Instance(chain, [self._texts.get(c.qualname) for c in chain])

    def member_forms(
        self, facts: FileFacts, class_name: str, message: MessageTemplate
    ) -> Iterator[ShownText]:
        """A message that is a member of the raising object (`self._undefined_message`, a
        property of the class the raise is in), once per text that member returns."""
        members = [
            (placeholder, found.group(1))
            for placeholder in message.placeholders
            if (found := MEMBER.fullmatch(placeholder.expr))
        ]
        instance = self._instance(facts, class_name) if members else None
        if instance is None:
            return
        chain = instance.chain
        placeholder, name = members[0]
        owner = self._values.method(instance, name)
        if owner is None:
            return
        for template in owner[1].returns:
            if not any(isinstance(p, str) and " " in p.strip() for p in template.parts):
                continue  # a value (`return 0`, `return self._role`), not a message
            filled = self._values.fill(template, owned_frame(instance, owner), 0)
            yield ShownText(
                put_text(message, placeholder.expr, filled), f"{chain[0].fact.name}.{name}"
            )

    def own_forms(
        self,
        facts: FileFacts,
        class_name: str,
        message: MessageTemplate,
        bindings: tuple[Binding, ...],
    ) -> Iterator[ShownText]:
        """A message a method takes from its own object (a validator's `self.message`, kept
        by `__init__`, or its class's default), as an object made with no arguments holds
        it: the text a user sees who gave it no message of their own. Only texts are taken
        from the defaults; a value (`max=-1`) is the caller's, and stays a placeholder."""
        held = {b.name: b.value for b in bindings if b.origin == "local"}
        if not any(
            MESSAGE_MEMBER.search(p.expr) or MESSAGE_MEMBER.search(held.get(p.expr, ""))
            for p in message.placeholders
        ) and not any(MESSAGE_MEMBER.search(source) for source in held.values()):
            return
        instance = self._instance(facts, class_name)
        if instance is None:
            return
        self._construct(instance, None, None)
        instance.attrs = {k: v for k, v in instance.attrs.items() if v is None or _prose(v)}
        filled = self._values.fill(message, Frame(instance, facts, held), 0)
        if filled.literal_length > message.literal_length:
            yield ShownText(filled, f"{instance.chain[0].fact.name}()'s own message")

    def default_repr(self, facts: FileFacts, class_name: str) -> MessageTemplate | None:
        """`repr()` of an object of the class (of `facts`) as Python writes it when no
        class of its chain says otherwise: `<lark.lexer.BasicLexer object at 0x7f...>`;
        None when one may (it defines `__repr__` or `__str__`, or has a base the version
        does not hold)."""
        chain = list(self._names.class_and_bases(facts, class_name))
        if not chain:
            return None
        known = {c.fact.name for c in chain} | _PLAIN_BASES
        for cls in chain:
            if "__repr__" in cls.fact.methods or "__str__" in cls.fact.methods:
                return None
            if any(base.split("[")[0].rsplit(".", 1)[-1] not in known for base in cls.fact.bases):
                return None
        where = f"{chain[0].file.module}.{chain[0].fact.qualname}"
        return MessageTemplate.of(f"<{where} object at ", Placeholder("hex(id(self))"), ">")

    def _printed(
        self,
        template: MessageTemplate,
        instance: Instance,
        show: tuple[FileFacts, TextMethod, int],
    ) -> Iterator[MessageTemplate]:
        """`show()`'s text, once for each text `format_message()` may return."""
        formats = self._values.method(instance, "format_message")
        asks = any(p.expr == "self.format_message()" for p in template.placeholders)
        if formats is None or not asks:
            yield self._values.fill(template, owned_frame(instance, show), 0)
            return
        for text in formats[1].returns:
            filled = self._values.fill(text, owned_frame(instance, formats), 0)
            put = put_text(template, "self.format_message()", filled)
            yield self._values.fill(put, owned_frame(instance, show), 0)

    # -- building the instance ---------------------------------------------------------------

    def _construct(
        self, instance: Instance, site: ErrorSite | None, message: MessageTemplate | None
    ) -> None:
        """Run the `__init__`s symbolically: what each stores on `self`, and what reaches
        `BaseException`; with no site, made with no arguments."""
        chain = instance.chain
        at = _next_init(chain, 0)
        given = site.args if site and site.kind in (SiteKind.RAISE, SiteKind.HELPER) else ()
        if at is None:
            positional = [a for a in given if a.name is None]
            if positional:
                instance.args = tuple(positional)
            elif message is not None:
                instance.args = (Arg(message, ""),)
            return
        params = chain[at].fact.init_params
        bound: dict[str, MessageTemplate] = bind_arguments(params, given) if given else {}
        if not given and message is not None and params:
            # Made by a helper or a factory with this message: the message parameter gets it.
            bound = {next((p for p in params if p in MESSAGE_KEYWORDS), params[0]): message}
        for _ in range(DEPTH):
            text = instance.texts[at]
            frame = Frame(instance, chain[at].file, params=dict(bound))
            if text is not None:
                frame.params = self._params(params, bound, text)
                for name, source in text.fallbacks.items():
                    if frame.params.get(name) is None:  # not given, or given None
                        value = self._values.evaluate(source, frame, 0)
                        if isinstance(value, MessageTemplate):
                            bound[name] = frame.params[name] = value
                for attr, source in text.sets.items():
                    if attr in instance.attrs:
                        continue  # a subclass's `__init__` set it after its base's
                    value = self._values.evaluate(source, frame, 0)
                    if isinstance(value, MessageTemplate):
                        instance.attrs[attr] = value
            if not chain[at].fact.init_calls_base:
                # `BaseException.__init__` is never reached: `args` stay what `__new__` kept,
                # the raise's positional arguments (keywords are not among them). Unknown
                # for a helper's or a factory's raise, whose arguments the facts lack.
                if site is None or given:
                    instance.args = tuple(a for a in given if a.name is None)
                return
            passed = tuple(self._passed(a, bound, frame) for a in chain[at].fact.super_args)
            following = _next_init(chain, at + 1)
            if following is None:
                # (`*args` passed on is empty unless the raise gave more than the
                # parameters: it adds nothing to what `str()` shows)
                instance.args = tuple(
                    a for a in passed if a.name is None and not a.source.startswith("*")
                )
                return
            params = chain[following].fact.init_params
            bound = bind_arguments(params, passed)
            at = following

    def _passed(self, arg: Arg, bound: dict[str, MessageTemplate], frame: Frame) -> Arg:
        """An argument an `__init__` passes on, in terms of what it was given; one that
        chooses (`message or ""`) is evaluated."""
        node = parsed(arg.source)
        if isinstance(node, ast.BoolOp | ast.IfExp):
            value = self._values.evaluate(arg.source, frame, 0)
            if isinstance(value, MessageTemplate):
                return Arg(value, arg.source, arg.name)
        return Arg(substitute(arg_template(arg), bound), arg.source, arg.name)

    def _params(
        self, params: tuple[str, ...], bound: dict[str, MessageTemplate], text: ClassText
    ) -> dict[str, MessageTemplate | None]:
        """The parameters' values: as passed, else their literal defaults (a None default
        leaves the class attribute in place: `if description is not None: self.x = ...`)."""
        values: dict[str, MessageTemplate | None] = {}
        for name in params:
            if name in bound:
                values[name] = bound[name]
            elif name in text.defaults:
                value = literal(text.defaults[name])
                if value is None or isinstance(value, MessageTemplate):
                    values[name] = value
        return values


# Bases that write no `repr()` of their own.
_PLAIN_BASES = frozenset({"object", "ABC", "Generic", "Protocol"})


# Texts a `__str__` may make of parts it adds or not: the first two such parts, both ways.
_MAX_MAYBE = 4

# Texts of values that are false (`self.hint = False`, a default of `0`).
_FALSY = frozenset({"", "False", "None", "0", "0.0", "[]", "()", "{}", "''", '""'})


def _truthy(value: object, truthy: tuple[str, ...] = ()) -> bool:
    """A value surely truthy: text written out, a value given as a non-empty display
    (`[last_token]`, `"x"`, `(a, b)`), or a local of the raise's named in `truthy`."""
    if not isinstance(value, MessageTemplate) or not value.parts:
        return False
    if not value.placeholders:
        return value.text.strip() not in _FALSY
    only = value.parts[0] if len(value.parts) == 1 else None
    if isinstance(only, Placeholder) and only.expr in truthy:
        return True
    node = parsed(only.expr) if isinstance(only, Placeholder) else None
    if isinstance(node, ast.List | ast.Tuple | ast.Set):
        return bool(node.elts)
    if isinstance(node, ast.Dict):
        return bool(node.keys)
    return isinstance(node, ast.Constant) and bool(node.value)


def _given(value: object) -> bool:
    """A value the raise gave that may be true or false (`token_history=history`); not one
    left to its default, nor one written out (whose truth is known)."""
    return isinstance(value, MessageTemplate) and bool(value.placeholders)


def _prose(text: MessageTemplate) -> bool:
    """Text that reads as words (`"Invalid input."`), not a value (`-1`, `"utf-8"`)."""
    return any(isinstance(part, str) and " " in part.strip() for part in text.parts)


def _next_init(chain: list[ResolvedClass], start: int) -> int | None:
    """The index of the first class from `start` that defines `__init__`."""
    return next((i for i in range(start, len(chain)) if "__init__" in chain[i].fact.methods), None)


def _wrapped_given(site: ErrorSite, message: MessageTemplate | None, args: tuple[Arg, ...]) -> bool:
    """The site gave its class a message through a factory or helper (no arguments of its
    own are known), and the one argument `__init__` passed on holds more than it."""
    if message is None or site.args or len(args) != 1:
        return False
    passed = arg_template(args[0])
    return passed.literal_length > message.literal_length
