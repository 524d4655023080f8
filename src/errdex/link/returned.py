"""A message a function returns, raised (or warned) by the code that called it.

pyjwt's `key_length_msg = alg_obj.check_key_length(key)` then `raise
InvalidKeyError(key_length_msg)`: the text is written in each algorithm's
`check_key_length` (`return f"The HMAC key is {len(key)} bytes long, ..."`), not at the
raise. The call names the function: a method of the object's own class when called on
`self`, a function of the same module or one it imports when called by name, else any
method of that name the version defines (the object's class is not known), a few at most.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from collections.abc import Iterator

from errdex.extract.shapes import OWN_OBJECT
from errdex.facts import ErrorSite, FileFacts
from errdex.lazy_re import lazy_compile
from errdex.link.expression_texts import parse_expression
from errdex.link.messages import put_text
from errdex.link.resolve import Namespace
from errdex.linked_facts import ShownText

__all__ = ["ReturnedTexts"]

_MAX_FUNCTIONS = 6  # functions of one name whose texts a call of an unknown object shows
_MAX_TEXTS = 12
_WORD = lazy_compile(r"[A-Za-z_]\w*")  # the called name among them, in an ASCII source


class ReturnedTexts:
    """The messages the version's functions return, by function name."""

    def __init__(self, files: list[FileFacts], names: Namespace) -> None:
        self._names = names
        self._by_name: dict[str, list[tuple[FileFacts, str]]] = defaultdict(list)
        for facts in files:
            for qualname in facts.returned_texts:
                self._by_name[qualname.rpartition(".")[2]].append((facts, qualname))

    def forms(self, site: ErrorSite, facts: FileFacts) -> Iterator[ShownText]:
        """The site's message with each text the call that gave its local returns."""
        message = site.message
        if message is None or not self._by_name:
            return
        placeholders = message.placeholders
        if not placeholders or not site.bindings:
            return  # most sites: no placeholder a local fills
        held = {b.name: b.value for b in site.bindings if b.origin == "local"}
        count = 0
        for placeholder in placeholders:
            if placeholder.expr not in held or placeholder.conversion not in (None, "s"):
                continue
            for owner, qualname in self._callees(held[placeholder.expr], site, facts):
                for text in owner.returned_texts[qualname]:
                    if count >= _MAX_TEXTS:
                        return
                    count += 1
                    yield ShownText(put_text(message, placeholder.expr, text), f"{qualname}()")

    def _callees(
        self, source: str, site: ErrorSite, facts: FileFacts
    ) -> list[tuple[FileFacts, str]]:
        """The functions a call (its source) may be of, with their returned texts."""
        if source.isascii() and not any(w in self._by_name for w in _WORD.findall(source)):
            return []  # it names no function returning a text: nothing to parse
        call = parse_expression(source)  # the local's value, parsed once for the linker
        if not isinstance(call, ast.Call):
            return []
        func = call.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
        found = self._by_name.get(name or "", [])
        if not found:
            return []
        if isinstance(func, ast.Attribute):
            receiver = func.value
            if isinstance(receiver, ast.Name) and receiver.id in OWN_OBJECT:
                if site.class_name is None:
                    return []
                owner = self._names.method_owner(facts, site.class_name, func.attr)
                return [(f, q) for f, q in found if (f.module, q) == owner]
            methods = [(f, q) for f, q in found if "." in q]
            return methods[:_MAX_FUNCTIONS]
        if not isinstance(func, ast.Name):
            return []
        # A function by name: this module's, or the one it imports under that name.
        home = self._names.lookup(self._names.qualify(facts, func.id))
        if home is None:
            return []
        return [(f, q) for f, q in found if f is home[0] and q == home[1]]
