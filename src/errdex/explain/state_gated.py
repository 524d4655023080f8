"""No argument way out of an `assert` in a function the package does not hand to users.

An `assert` states what the authors hold true of their own code. In a function the package
does not hand to users, the values its arguments get are its own callers' (traced or not):
a model runner's `intermediate_tensors` on a later pipeline rank, the `rotary_kwargs` a
model builds `BertWithRopeAttention` with from the checkpoint, a kernel's `vec_size`.
Offering "give the argument `intermediate_tensors` of `Qwen2MoeModel.forward` a value" then
names an internal call no user makes, and is no way out. Such solutions are left out;
"What it means" says the conditions are the program's own state. Settings, the message's
advice and a public call that hands the user's own value on (`(it reaches ...)`) stay. An
`assert` in a function the package hands to users (re-exported from a private module,
`httpx.Timeout`; near its top, `rich.console.Console`; or, in a library, the constructor
of a class, or a function, its module lists in `__all__` or another re-exports, at any
depth: `library_export`) tests the user's own arguments as a `raise` does: it is not
gated here.
"""

from __future__ import annotations

import ast
import re

from errdex.explain.context import Facts, async_function_at, function_at
from errdex.explain.hiding_flags import hides_only
from errdex.explain.library_export import library_export, module_all
from errdex.explain.page import Solution
from errdex.explain.plain import code
from errdex.extract.shapes import CONSTRUCTORS
from errdex.facts import SiteKind
from errdex.store.base import StoredSite

MAX_DOTS = 2  # `rich.console.Console`, `click.core.Option`: a user's own call
# Folders of code copied in from another project, which the package alone calls.
VENDORED = frozenset({"third_party", "vendor", "_vendor", "vendored", "extern", "externals"})
# Classes raised for what the program itself got wrong: such a raise states what the
# authors hold true, as an `assert` does.
INVARIANTS = frozenset({"AssertionError", "NotImplementedError", "SystemError"})


def raises_invariant(facts: Facts) -> bool:
    """Whether the site raises one of `INVARIANTS` (or a subclass): `raise
    NotImplementedError("CPUExperts does not support apply_router_weight_on_input=True")`
    says this implementation lacks what its caller asks, not that a user passed it."""
    site = facts.stored.site
    if site.kind is not SiteKind.RAISE:
        return False
    info = facts.stored.exception
    names = {info.name, *(b.rpartition(".")[2] for b in info.bases)} if info is not None else set()
    names.add((site.exception or "").rpartition(".")[2])
    return bool(names & INVARIANTS)


def users_call(facts: Facts) -> bool:
    """Whether the package hands the asserting function to users: exported from a private
    module (`httpx.Timeout` from `httpx._config`), by a path at most `MAX_DOTS` dots
    deep to its class (or itself), or, at any depth, as a library's export the user calls
    or makes (`library_export`: `sqlalchemy.ext.horizontal_shard.ShardedQuery(...)`)."""
    if users_class(facts):
        return True
    function = facts.stored.site.function
    # deeper, a library's export is the user's own call where the user makes it: its
    # constructor, or a function of its own. A method may be the package's to call (a
    # session's `get_bind`, a test suite's `test_*` its runner calls), and a deep class
    # shows no sign of which
    return function.partition(".")[2] in ("", "__init__") and library_export(facts)


def users_class(facts: Facts) -> bool:
    """Whether the package hands users the site's class (or function) itself, by the
    depth gates: exported from a private module, or a path at most `MAX_DOTS` dots deep to
    it (a library's deeper export is `library_export`'s)."""
    stored = facts.stored
    private = any(p.startswith("_") for p in stored.module.split("."))
    if private and stored.public:
        return True
    path, function = stored.public_path(), stored.site.function
    if path is None or not path.endswith(function):
        return False
    holder = path[: len(path) - len(function)] + function.partition(".")[0]
    return holder.count(".") <= MAX_DOTS


def own_argument(solution: Solution, facts: Facts) -> bool:
    """Whether `solution` changes an argument of the asserting function itself."""
    callee = facts.stored.site.function.removesuffix(".__init__")
    return (
        solution.kind == "input"
        and f" of {code(callee)}" in solution.text
        and "(it reaches " not in solution.text
    )


def named_argument(solution: Solution, facts: Facts) -> bool:
    """Whether `solution` names an argument of the site's function (`` `x` of `f` ``)."""
    callee = facts.stored.site.function.removesuffix(".__init__")
    return re.search(rf"`[\w.]+` of {re.escape(code(callee))}", solution.text) is not None


# "Leave `'--vector-disk-cache'` out of the argument `server_cmd`": an option of a command
# line, which the user wrote and the package passes on
_COMMAND_LINE = re.compile(r"^Leave `'--?\w[\w-]*'` out of the argument ")
# "with a `.cache_config.cache_dtype`", "whose `parallel_config.enable_eplb`": a field of one
# of the configurations the argument holds (not deeper: `model_config.hf_config.x` is what
# a configuration read from the model's files)
_HELD_SETTING = re.compile(r"(?:with a `\.|whose `)\w+\.\w+`")


def users_setting(solution: Solution) -> bool:
    """Whether `solution` changes what the user gave, only handed down to the argument: an
    option of a command line the argument holds, or a field of a configuration it holds
    (`vllm_config.cache_config.cache_dtype`, set by the user's flag or config file)."""
    if solution.kind != "input":
        return False
    return bool(_COMMAND_LINE.match(solution.text) or _HELD_SETTING.search(solution.text))


def owner_keyword(solution: Solution, facts: Facts) -> bool:
    """Whether `solution` changes a keyword of the constructor of the asserting method's
    own class, which set the attribute the assert tests (`self.sym_shape_indices`)."""
    owner, _, method = facts.stored.site.function.rpartition(".")
    if not owner or "." in owner or method in CONSTRUCTORS or solution.kind != "input":
        return False
    if "(it reaches " in solution.text:
        return False
    return re.search(rf"`\w+` of {re.escape(code(owner))}", solution.text) is not None


def top_exported(facts: Facts) -> bool:
    """Whether the top package's `__all__` lists the site's class by name: the package
    hands it to users however it gets there (`vllm.LLMEngine`, a lazy `__getattr__` over an
    alias module, while the class lives in `vllm.v1.engine.llm_engine`)."""
    name = facts.stored.site.function.partition(".")[0]
    listed = facts.once("top_all", lambda: module_all(facts.top_init() if facts.top_init else None))
    return listed is not None and name in listed


def request_handlers(facts: Facts) -> bool:
    """Whether every direct caller of the site's method handles a request a client sends:
    it takes a parameter annotated with a request class (`request: CompletionRequest`, not
    the server's own `Request`), so the arguments it hands on are made of what the client
    sent (beam search's `prompt`, rendered from the request's prompt or its
    `prompt_embeds`), not of what the package computes (a kernel's shapes)."""
    return facts.once("request_handlers", lambda: _request_handlers(facts))


def _request_handlers(facts: Facts) -> bool:
    callers = [c for c in facts.callers if c.depth == 1]
    if not callers or facts.file_text is None:
        return False
    for caller in callers:
        name = caller.function.rpartition(".")[2]
        text = facts.file_text(caller.file)
        found = function_at(text, name, caller.line) or async_function_at(text, name, caller.line)
        if found is None or not any(
            _request_class(a.annotation) for a in (*found.args.args, *found.args.kwonlyargs)
        ):
            return False
    return True


def _request_class(annotation: ast.expr | None) -> bool:
    """`CompletionRequest`, `proto.ChatRequest`, `ChatRequest | None`: a class named for a
    request, more than the bare `Request` a server hands every handler."""
    if annotation is None:
        return False
    names = (
        n.id if isinstance(n, ast.Name) else n.attr
        for n in ast.walk(annotation)
        if isinstance(n, ast.Name | ast.Attribute)
    )
    return any(n.endswith("Request") and n != "Request" for n in names)


def vendored(stored: StoredSite) -> bool:
    """Whether the site is in code copied in from another project (`third_party/`), which
    the package alone calls."""
    return any(part in VENDORED for part in stored.module.split("."))


def state_gated(kept: list[Solution], facts: Facts) -> list[Solution]:
    """`kept` without the asserting function's own arguments when the package does not hand
    the function to users, and without the keywords of its class's constructor when the
    package does not hand users the class: its objects are the package's own, made with the
    values its code computes. A raise of an invariant's class in a method
    (`NotImplementedError`: this implementation lacks what its caller asks) is an `assert`
    said another way, for the arguments it names; a raise in code the package copied in
    from another project (and hands to no user) is the same: only the package calls it
    (unchanged otherwise)."""
    kind = facts.stored.site.kind
    copied = kind is SiteKind.RAISE and vendored(facts.stored)
    # an invariant's raise in a method: no user holds an object of a class the package
    # does not hand out, so none calls its methods (a function of a module may be imported)
    stated = facts.stored.site.class_name is not None and raises_invariant(facts)
    if kind is not SiteKind.ASSERT and not copied and not stated:
        return kept
    widened = not copied and kind is not SiteKind.ASSERT  # gated only as an invariant's raise
    users = users_call(facts)
    if copied and users:
        return kept
    made = users or users_class(facts) or library_export(facts)
    # a class the package hands out in any way, or any class of a library (no command of
    # its own: its users hold its objects, `TypeEngine.as_generic(allow_nulltype=True)`,
    # re-exported where the link does not see it): its methods are the user's to call
    if widened and (made or top_exported(facts) or not facts.scripts):
        return kept

    # an invariant's raise on what the user gave, handed down unchanged: with no flag
    # offered for it, the argument's spelling is the page's only way out
    handed = widened and not any(s.kind == "setting" for s in kept)

    def internal(solution: Solution) -> bool:
        if handed and users_setting(solution):
            return False
        if widened and own_argument(solution, facts) and request_handlers(facts):
            return False  # what the client's request gave, handed down by its handlers
        if not users and own_argument(solution, facts):
            # an invariant's raise: only what names an argument, not "Define it in your
            # subclass of `Base`" (a base users may subclass: its way out)
            return not widened or named_argument(solution, facts)
        return not made and owner_keyword(solution, facts) and not top_exported(facts)

    # a switch that only hides the error stays: "What it means" says it (`hiding_flags`)
    return [s for s in kept if not internal(s) or hides_only(s)]
