"""Helpers of helpers: a function passing its message parameter on to a raising or warning
helper is one itself, with that helper's message and exception in its own terms.

SQLAlchemy 2.0's `util.warn(msg)` calls `_warnings_warn(msg, exc.SAWarning)`, which calls
`warnings.warn(message, category)`; so each `util.warn("relationship '%s' will copy ...")`
is a warning of its own, as a direct `warnings.warn` would be.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from errdex.extract.shapes import looks_like_exception_class
from errdex.facts import (
    Arg,
    CallFact,
    Condition,
    ErrorSite,
    FileFacts,
    HelperFact,
    MessageTemplate,
    Placeholder,
    SiteKind,
)
from errdex.lazy_re import lazy_compile
from errdex.link.builtin_text import arg_template
from errdex.link.guards import bind_expression, bind_guard
from errdex.link.messages import argument_sources, bind_arguments, substitute
from errdex.link.resolve import BUILTIN_EXCEPTIONS, Namespace

Found = list[tuple[HelperFact, FileFacts]]  # helpers, each with the file defining it
Helpers = dict[str, Found]  # by name
# (call, its file, the helpers of its callee's name) → the helpers the call reaches
Pick = Callable[[CallFact, FileFacts, Found], Found]
_MAX_DEPTH = 4  # wrappers of wrappers of ...: each round adds one level
# An exception or warning made from a name first: `exc.SAWarning(msg, code=code)`.
_MADE_FROM = lazy_compile(r"([A-Za-z_][\w.]{0,200})\(\s*(\w+)\s*(?:,.*)?\)", re.DOTALL)


def add_forwarding_helpers(
    files: list[FileFacts], helpers: Helpers, pick: Pick, names: Namespace
) -> None:
    """Add to `helpers` the functions that pass a message parameter on to one of them."""
    forwarding = [(call, facts) for facts in files for call in facts.calls if call.params]
    done: set[tuple[str, int]] = set()  # (file, line) of the calls made into helpers
    for _ in range(_MAX_DEPTH):
        added = False
        for call, facts in forwarding:
            if (facts.path, call.line) in done or call.callee not in helpers:
                continue
            for helper, where in pick(call, facts, helpers[call.callee]):
                derived = _passed_on(call, helper, where, facts, names)
                if derived is not None:
                    # Each call passing the message on is a way the function raises or
                    # warns (`warn(msg, code)` has one per branch).
                    helpers.setdefault(derived.name, []).append((derived, facts))
                    done.add((facts.path, call.line))
                    added = True
                    break
        if not added:
            return


def site_at_call(
    call: CallFact,
    kind: SiteKind,
    exception: str | None,
    message: MessageTemplate,
    guard: tuple[Condition, ...] = (),
    args: tuple[Arg, ...] | None = None,
) -> ErrorSite:
    """The site a call of a helper makes: at the call, under its conditions and the
    helper's guard; `args` are the exception's (`args_at_call`), else the call's own."""
    return ErrorSite(
        kind=kind,
        exception=exception,
        message=message,
        line=call.line,
        end_line=call.end_line,
        function=call.function,
        class_name=call.class_name,
        conditions=call.conditions + guard,
        bindings=call.bindings,
        args=call.args if args is None else args,
    )


def args_at_call(
    helper: HelperFact,
    bound: dict[str, MessageTemplate],
    sources: dict[str, str],
    message: MessageTemplate | None = None,
) -> tuple[Arg, ...]:
    """The arguments the helper's raise gives its exception, in the caller's terms: what
    the class binds is those, not the helper's parameters in the order of the call. The
    message parameter passed as it is holds the call's `message` (formatted, when the
    helper formats it first)."""
    own = MessageTemplate.of(Placeholder(helper.param))
    return tuple(
        Arg(
            message
            if message is not None and arg.template == own
            else substitute(arg_template(arg), bound, sources),
            bind_expression(arg.source, sources),
            arg.name,
        )
        for arg in helper.args
    )


def bound_at_call(
    helper: HelperFact, args: tuple[Arg, ...]
) -> tuple[dict[str, MessageTemplate], dict[str, str]]:
    """A call's arguments on the helper's parameters, as templates and as their sources;
    a parameter the helper binds again (`helper.rebound`) takes none."""
    bound = bind_arguments(helper.params, args)
    sources = argument_sources(helper.params, args)
    for name in helper.rebound:
        bound.pop(name, None)
        sources.pop(name, None)
    return bound, sources


def bound_guard(helper: HelperFact, sources: dict[str, str]) -> tuple[Condition, ...] | None:
    """The helper's guard in the caller's terms (a parameter left out has its default);
    None when it is surely false."""
    given = {**helper.defaults, **sources}
    out: list[Condition] = []
    for condition in helper.conditions:
        bound, truth = bind_guard(condition, given)
        if truth is False:
            return None
        if truth is None:
            out.append(bound)
    return tuple(out)


def helper_exception(
    helper: HelperFact,
    where: FileFacts,
    facts: FileFacts,
    sources: dict[str, str],
    names: Namespace,
) -> str | None:
    """The exception (or warning category) a call of the helper makes, as `facts` names it:
    the argument given for it when the helper takes it as a parameter (`category`)."""
    exception = helper.exception
    if exception is not None and exception in helper.params:
        return sources.get(exception)
    if exception is not None and where is not facts and exception not in BUILTIN_EXCEPTIONS:
        exception = names.qualify(where, exception)
    return exception


def _passed_on(
    call: CallFact, helper: HelperFact, where: FileFacts, facts: FileFacts, names: Namespace
) -> HelperFact | None:
    """The helper the calling function is when `call` passes its parameter on as the
    helper's message; None when it passes something else."""
    bound, sources = bound_at_call(helper, call.args)
    given = bound.get(helper.param)
    only = given.parts[0] if given is not None and len(given.parts) == 1 else None
    if not isinstance(only, Placeholder) or only.conversion:
        return None
    exception = helper_exception(helper, where, facts, sources, names)
    param = only.expr
    # `_warnings_warn(exc.SAWarning(msg, code=code))`: the warning made from the message.
    made = _MADE_FROM.fullmatch(param)
    if made is not None and looks_like_exception_class(made[1]):
        param, exception = made[2], made[1]
        bound[helper.param] = MessageTemplate.of(Placeholder(param))
    if param not in call.params:
        return None
    guard = bound_guard(helper, sources)
    if guard is None:
        return None
    return HelperFact(
        name=call.function.rpartition(".")[2],
        qualname=call.function,
        line=call.line,
        params=call.params,
        param=param,
        exception=exception,
        message=substitute(helper.message, bound, sources),
        kind=helper.kind,
        conditions=call.conditions + guard,
        defaults=call.defaults,
        args=args_at_call(helper, bound, sources),
    )
