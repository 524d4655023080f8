"""`raise make_error(x)`: the exception a function of the version makes and returns.

The class and the text are written at the function's `return` (`return ValueError(f"{reason}:
...")`), its parameters bound to the raise's arguments (what the raise does not give stays
a wildcard). A function returning several texts gives a site per text; one whose returns
make different classes, or a class that is no exception, leaves the raise as it was.
"""

from __future__ import annotations

import msgspec

from errdex.extract.shapes import OWN_OBJECT, formatted_name, looks_like_exception_class
from errdex.facts import Arg, ErrorSite, Factory, FileFacts, MessageTemplate, SiteKind
from errdex.link.guards import bind_expression
from errdex.link.messages import argument_sources, bind_arguments, format_given, substitute
from errdex.link.resolve import BUILTIN_EXCEPTIONS, Namespace

__all__ = ["Factories"]


class Factories:
    """The version's functions that return the exceptions they make, by (module, qualname)."""

    def __init__(self, files: list[FileFacts], names: Namespace) -> None:
        self._names = names
        self._by_key = {
            (facts.module, qualname): (facts, factory)
            for facts in files
            for qualname, factory in facts.factories.items()
        }

    def raise_sites(self, site: ErrorSite, facts: FileFacts) -> list[ErrorSite]:
        """The site as the exception the function it calls returns, one per text; the
        site itself when it calls none."""
        written = site.exception
        if not self._by_key or site.kind is not SiteKind.RAISE or not written:
            return [site]
        if not written.rpartition(".")[2].lstrip("_")[:1].islower():
            return [site]  # a class, or a class's alternative constructor
        found = self._callee(site, written, facts)
        if found is None:
            return [site]
        where, factory = found
        exception = factory.made[0].exception
        if any(m.exception != exception for m in factory.made):
            return [site]  # which class is raised depends on the way through it
        if not self._is_exception(where, exception):
            return [site]
        if where is not facts and exception not in BUILTIN_EXCEPTIONS:
            exception = self._names.qualify(where, exception)
        params = factory.params
        bound = bind_arguments(params, site.args)
        given = _first_given(params, site)
        if given is not None and site.message is not None:
            bound[given] = site.message  # the text a branch chose for it (a site per text)
        sources = argument_sources(params, site.args)
        return [
            msgspec.structs.replace(
                site,
                exception=exception,
                message=_bound(made.message, params, site.args, bound, sources),
                args=tuple(
                    Arg(
                        _bound(a.template, params, site.args, bound, sources),
                        bind_expression(a.source, sources),
                        a.name,
                    )
                    for a in made.args
                ),
            )
            for made in factory.made
        ]

    def _callee(
        self, site: ErrorSite, written: str, facts: FileFacts
    ) -> tuple[FileFacts, Factory] | None:
        """The function a raise's call calls: a method of the raising class (or a base) on
        `self`/`cls`, else a function (or a class's static method) the name resolves to."""
        head, _, method = written.partition(".")
        if head in OWN_OBJECT and method and "." not in method:
            if site.class_name is None:
                return None
            key = self._names.method_owner(facts, site.class_name, method)
        else:
            looked = self._names.lookup(self._names.qualify(facts, written))
            key = (looked[0].module, looked[1]) if looked is not None else None
        return self._by_key.get(key) if key is not None else None

    def _is_exception(self, facts: FileFacts, written: str) -> bool:
        """Whether the class a function returns is an exception: a builtin one, one of the
        version deriving from one (or named as one), or one from outside named as one."""
        if written in BUILTIN_EXCEPTIONS:
            return True
        resolved = self._names.resolve_class(facts, written)
        if resolved is None:
            return looks_like_exception_class(written)
        return looks_like_exception_class(resolved.fact.name) or any(
            base.startswith("builtins.") or looks_like_exception_class(base)
            for base in self._names.bases(resolved)
        )


def _first_given(params: tuple[str, ...], site: ErrorSite) -> str | None:
    """The parameter the raise's message (its first positional argument) is given for."""
    positional = [a for a in site.args if a.name is None]
    if not positional or not params or positional[0].source == "None":
        return None
    return params[0]


def _bound(
    template: MessageTemplate | None,
    params: tuple[str, ...],
    args: tuple[Arg, ...],
    bound: dict[str, MessageTemplate],
    sources: dict[str, str],
) -> MessageTemplate | None:
    """A text of the function in the raise's terms: its parameters given the arguments'
    texts (one it formats, `{msg.format_map(...)}`, formatted with them)."""
    if template is None:
        return None
    for placeholder in template.placeholders:
        param = formatted_name(placeholder.expr)
        if param in params:
            template = format_given(template, param, params, args)
    return substitute(template, bound, sources)
