"""Settings every way into a site's function passes, up to three callers away.

vllm's ROCm autotuner raises in `warmup_segmented_attention`; its one caller is called only
by `rocm_segmented_attn_autotune_warmup`, which returns early unless
`worker.vllm_config.kernel_config.enable_rocm_segmented_attn_autotune` is true. The check
runs only with that opt-in field on: leaving it off is a way out. This module finds such
gates: a test of a name or attribute for truth (an `if` around the call, or an early exit
before it) that a setting decides, on every path from the callers the version knows into
the site's function, within `MAX_DEPTH` calls.

Precision over reach, so the walk gives up (no gate) where a path may exist that the index
does not see: a function with no known caller, more than `MAX_CALLS` calls of it, a call at
module level, a constructor (classes are built through registries and factories), a method
a base class of the version defines too (called through the base's `self.m()`) or of a
class with a base outside the version (a framework may call it), a function decorated
other than by the standard library's method and cache wrappers, and one its own file names
without calling it (handed on as a callback). A call whose guard the extraction did not
read (a body the skeleton blanked) is read here from its function's text alone.

Most walks find no gate (vllm: 46 of 12,845): before reading any guard's settings or any
file's text, `_may_gate` tells from the calls alone where no gate can be found (a chain of
calls under no branch up to a function that cannot be gated).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping

from msgspec.structs import replace

from errdex.extract import decode_source
from errdex.extract.source_text import block_span, parsed_block
from errdex.extract.textscan import occurrences
from errdex.facts import CallSite, Condition, ConditionKind, FileFacts, KnobKind
from errdex.link.callers import CallerIndex
from errdex.link.held_true import held_true, negative_parts, positive_parts, written
from errdex.link.knobs import KnobIndex
from errdex.link.permissions import permits
from errdex.link.resolve import Namespace
from errdex.linked_facts import NAMED_IN_MESSAGE, CallerLink, KnobLink

MAX_DEPTH = 3
MAX_CALLS = 6  # calls of one function followed; more and the walk gives up
_BRANCHES = frozenset(
    {ConditionKind.IF, ConditionKind.ELIF, ConditionKind.ELSE, ConditionKind.EARLY_EXIT}
)
# decorators that leave who calls the function as it is
_PLAIN_DECORATORS = frozenset(
    {
        "staticmethod",
        "classmethod",
        "functools.cache",
        "functools.lru_cache",
        "functools.wraps",
        "cache",
        "lru_cache",
    }
)
_EXITS = (ast.Return, ast.Raise, ast.Continue, ast.Break)
_INTO_BODY = (ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try)

Target = tuple[str, str]  # (module, qualname)
# a setting's key (its name, the name its guard tests) → the calls whose guard tests it
Gates = dict[tuple[str, str], list[CallerLink]]
# the settings a call's guard tests (name, the name tested), and the guard (None: unread)
Tested = tuple[list[tuple[str, str]], tuple[Condition, ...] | None]
Function = ast.FunctionDef | ast.AsyncFunctionDef


class PathGates:
    """The settings whose truth every known path into a function passes."""

    def __init__(
        self,
        callers: CallerIndex,
        knobs: KnobIndex,
        names: Namespace,
        texts: Mapping[str, bytes] | None = None,
    ) -> None:
        self._callers = callers
        self._knobs = knobs
        self._names = names
        self._data = texts or {}
        self._texts: dict[str, str | None] = {}
        self._lines: dict[str, list[str]] = {}
        # a call is tested again for each depth (and each site) the walk reaches it at
        self._tests: dict[int, tuple[CallSite, Tested]] = {}
        self._functions: dict[tuple[str, str, int], Function | None] = {}
        self._defs: dict[tuple[str, int], Function | None] = {}  # parsed, by `def` line
        # by the functions the walk came up through too: a caller among them ends the walk
        # (a cycle), so the same function at the same depth may have other gates
        self._memo: dict[tuple[Target, int, frozenset[Target]], Gates] = {}
        self._open: dict[Target, bool] = {}  # whether a function's callers can all be known
        self._handed: dict[tuple[str, str, bool], bool] = {}
        self._possible: dict[tuple[Target, int], bool] = {}
        self._knobs_of: dict[tuple[str, int, str], list[KnobLink]] = {}
        self._found: dict[Target, tuple[tuple[CallerLink, ...], list[KnobLink]]] = {}

    def gates(self, module: str, function: str) -> tuple[tuple[CallerLink, ...], list[KnobLink]]:
        """The calls that test a setting on every path into `module.function`, and the
        knobs of those settings (nothing when some path passes no such test)."""
        key = (module, function)
        known = self._found.get(key)
        if known is None:
            known = self._found[key] = self._gates_of(key)
        links, knobs = known
        return links, list(knobs)

    def _gates_of(self, target: Target) -> tuple[tuple[CallerLink, ...], list[KnobLink]]:
        """`gates`, once per function: its sites all share its callers."""
        found = self._gates(target, 1, frozenset())
        links: dict[tuple[str, str, int], CallerLink] = {}
        knobs: list[KnobLink] = []
        for (name, behind), calls in found.items():
            for call in calls:
                links.setdefault((call.module, call.function, call.line), call)
                for knob in self._knobs_of.get((call.file, call.line, behind), []):
                    if knob.name == name:
                        knobs.append(knob)
        return tuple(links.values()), knobs

    def _gates(self, target: Target, depth: int, stack: frozenset[Target]) -> Gates:
        key = (target, depth, stack)
        found = self._memo.get(key)
        if found is None:
            found = self._walk(target, depth, stack | {target})
            self._memo[key] = found
        return found

    def _walk(self, target: Target, depth: int, stack: frozenset[Target]) -> Gates:
        calls = self._callers.passing_calls(*target)
        if not self._may_gate(target, depth) or self._handed_on_at(target):
            return {}
        common: Gates | None = None
        for call, facts in calls:
            caller = (facts.module, call.function)
            if caller == target:
                continue  # a recursive call: the path came in through another call
            if call.function == "<module>" or caller in stack:
                return {}  # at import time, or a cycle of calls: no gate holds for sure
            tested, guard = self._tested(call, facts)
            link = _link(call, facts, target, guard, depth)
            here: Gates = {knob_key: [link] for knob_key in tested}
            if depth < MAX_DEPTH:
                for knob_key, deeper in self._gates(caller, depth + 1, stack).items():
                    here.setdefault(knob_key, deeper)  # the nearest test of it is enough
            if common is None:
                common = here
            else:
                common = {k: common[k] + here[k] for k in common if k in here}
            if not common:
                return {}
        return common or {}

    def _may_gate(self, target: Target, depth: int) -> bool:
        """False when no walk from `target` at `depth` can find a gate, told without
        reading a guard's settings or a file's text: a function `_closed` refuses, or
        with a call (not from itself) that is at module level, or whose guard as extracted
        holds no branch and whose caller in turn may not be gated (or is too far up). Most
        functions: the walk then asks no knob and parses no body."""
        key = (target, depth)
        known = self._possible.get(key)
        if known is None:
            known = self._possible[key] = self._may_gate_now(target, depth)
        return known

    def _may_gate_now(self, target: Target, depth: int) -> bool:
        calls = self._callers.passing_calls(*target)
        if not calls or len(calls) > MAX_CALLS or not self._closed(target):
            return False
        for call, facts in calls:
            caller = (facts.module, call.function)
            if caller == target:
                continue
            if call.function == "<module>":
                return False
            # a call under no branch passes on only what its caller's own callers test
            if not self._may_test(call) and (
                depth >= MAX_DEPTH or not self._may_gate(caller, depth + 1)
            ):
                return False
        return True

    def _may_test(self, call: CallSite) -> bool:
        """False when the call's guard surely tests no setting (`_tested_now` finds none):
        one extracted with no branch. A guard the skeleton blanked may: telling from the
        text costs more (the file's lines, vllm's 960 such calls nearly all under an `if`)
        than the few walks it would end."""
        return not call.guard_known or any(c.kind in _BRANCHES for c in call.conditions)

    def _tested(self, call: CallSite, facts: FileFacts) -> Tested:
        """`_tested_now`, once per call (the call is kept so its id stays its own)."""
        known = self._tests.get(id(call))
        if known is None:
            known = self._tests[id(call)] = (call, self._tested_now(call, facts))
        return known[1]

    def _tested_now(self, call: CallSite, facts: FileFacts) -> Tested:
        """The settings (name, the name tested) a guard of the call tests for truth, and
        the guard (read from the text when the extraction did not: None when unread). A
        permission switch held off is tested too, written `not name` (`link.permissions`)."""
        if call.guard_known:
            guard: tuple[Condition, ...] | None = call.conditions
        else:
            guard = self._read_guard(call, facts)
        tested: list[tuple[str, str]] = []
        owner = self._owner_class(facts.module, call.function)
        for condition in guard or ():
            if condition.kind not in _BRANCHES:
                continue
            parts = [(p, True) for p in positive_parts(condition.statement)]
            parts += [(p, False) for p in negative_parts(condition.statement)]
            for part, held in parts:
                kept = self._setting_knobs(facts, owner, call, _truth(part, condition), held)
                if kept:
                    key = part if held else f"not {part}"
                    self._knobs_of[(facts.path, call.line, key)] = kept
                    tested.extend((k.name, key) for k in kept)
        return tested, guard

    def _setting_knobs(
        self,
        facts: FileFacts,
        owner: str | None,
        call: CallSite,
        truth: Condition,
        held: bool,
    ) -> list[KnobLink]:
        """The settings behind a name a guard holds true (`held`), or the permission
        switches behind one it holds false: those a configuration class's own key too
        (`if not self.allow_x:` in its method), as turning one on is no pick among the
        values the user asked for (`KnobIndex.caller_knobs`' reason to leave them out)."""
        part = truth.statement
        if held:
            found = self._knobs.caller_knobs(facts, owner, [truth], call.bindings)
            return [k for k in found if _setting(k, part)]
        out: list[KnobLink] = []
        for knob in self._knobs.knobs(facts, owner, [truth], call.bindings):
            if not _setting(knob, part) or (knob.behind != part and knob.json_key is None):
                continue
            doc = knob.doc or self._knobs.flags.key_doc(knob)
            if permits(knob, doc):
                out.append(knob if knob.doc or doc is None else replace(knob, doc=doc))
        return out

    def _read_guard(self, call: CallSite, facts: FileFacts) -> tuple[Condition, ...] | None:
        function = self._function(facts.path, call.function.rpartition(".")[2], call.line)
        if function is None:
            return None
        return tuple(
            Condition(test=part, kind=ConditionKind.IF, holds=True, line=line, text=part)
            for part, line in guard_parts(function, call.line)
        )

    def _function(self, path: str, name: str, line: int) -> Function | None:
        """The `def name` whose body holds `line`, parsed alone: the file split into lines
        once, each function parsed once (the calls in it each ask for it)."""
        key = (path, name, line)
        if key in self._functions:
            return self._functions[key]
        lines = self._lines.get(path)
        if lines is None:
            text = self._text(path)
            if text is None:
                return None
            lines = self._lines[path] = text.splitlines()
        span = block_span(lines, name, line)
        node = None if span is None else self._parsed(path, lines, span)
        if node is not None and not node.lineno <= line <= (node.end_lineno or node.lineno):
            node = None
        self._functions[key] = node
        return node

    def _parsed(self, path: str, lines: list[str], span: tuple[int, int]) -> Function | None:
        key = (path, span[0])
        if key not in self._defs:
            tree, _ = parsed_block(lines, *span)
            node = tree.body[0] if tree is not None and tree.body else None
            self._defs[key] = (
                node if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) else None
            )
        return self._defs[key]

    def _closed(self, target: Target) -> bool:
        """Whether every call of the function may be one the index sees (see the
        docstring), but for the search of its file for the function handed on
        (`_handed_on_at`): that reads the text, asked only where `_may_gate` lets on."""
        known = self._open.get(target)
        if known is None:
            known = self._open[target] = self._is_closed(target)
        return known

    def _is_closed(self, target: Target) -> bool:
        module, function = target
        name = function.rpartition(".")[2]
        if name.startswith("__") or "<" in function:
            return False  # a constructor or another method Python calls itself; a closure
        facts = self._names.modules.get(module)
        if facts is None:
            return False
        owner = self._owner_class(module, function)
        if owner is not None:
            if "." in function.removesuffix(f".{name}").removeprefix(owner):
                return False
            if not self._within_version(facts, owner):
                return False  # a base outside the version (or not resolved) may call it
            if self._names.method_owner(facts, owner, name, bases_only=True) is not None:
                return False  # an override: the base's `self.name()` reaches it too
        elif "." in function:
            return False
        return True

    def _handed_on_at(self, target: Target) -> bool:
        """Whether the file of a function `_closed` lets through may hand it on
        (`_handed_on`), or has no text to tell: once per name of a file (methods of several
        classes share one)."""
        module, function = target
        facts = self._names.modules[module]  # `_closed` found it
        name = function.rpartition(".")[2]
        key = (facts.path, name, self._owner_class(module, function) is not None)
        found = self._handed.get(key)
        if found is None:
            text = self._text(facts.path)
            found = self._handed[key] = text is None or _handed_on(text, *key[1:])
        return found

    def _text(self, path: str) -> str | None:
        """The file's text, decoded once (None when the linker was given none)."""
        if path not in self._texts:
            data = self._data.get(path)
            try:
                self._texts[path] = decode_source(data) if data is not None else None
            except ValueError:
                self._texts[path] = None
        return self._texts[path]

    def _within_version(self, facts: FileFacts, owner: str) -> bool:
        """Whether the class and every base it has are classes of the version."""
        for cls in self._names.class_and_bases(facts, owner):
            for base in _written_bases(cls.fact.bases):
                if self._names.resolve_class(cls.file, base.split("[")[0]) is None:
                    return False
        return True

    def _owner_class(self, module: str, function: str) -> str | None:
        owner = function.rpartition(".")[0]
        return owner if owner and f"{module}.{owner}" in self._names.classes else None


def _link(
    call: CallSite,
    facts: FileFacts,
    target: Target,
    guard: tuple[Condition, ...] | None,
    depth: int,
) -> CallerLink:
    return CallerLink(
        function=call.function,
        module=facts.module,
        file=facts.path,
        line=call.line,
        calls=f"{target[0]}.{target[1]}",
        guard=guard or (),
        depth=depth,
        guard_known=guard is not None,
        bindings=call.bindings,
    )


def _truth(part: str, condition: Condition) -> Condition:
    return Condition(test=part, kind=ConditionKind.IF, holds=True, line=condition.line, text=part)


def _setting(knob: KnobLink, part: str) -> bool:
    """A variable or flag the user sets, whose value the tested name is or holds a field of."""
    if knob.kind not in (KnobKind.ENV, KnobKind.FLAG) or knob.via == NAMED_IN_MESSAGE:
        return False
    if knob.sets is not None or knob.when is not None:
        return False  # decided through an assignment elsewhere: not the setting's own value
    return knob.behind == part or part.startswith(f"{knob.behind}.")


def guard_parts(
    function: ast.FunctionDef | ast.AsyncFunctionDef, line: int
) -> list[tuple[str, int]]:
    """The names and attributes held true on the way to `line` in `function`: the tests of
    the `if`s around it (their `else` negated) and of the early exits before it."""
    out: list[tuple[str, int]] = []
    body: list[ast.stmt] = function.body
    while True:
        inner: list[ast.stmt] | None = None
        for stmt in body:
            end = stmt.end_lineno or stmt.lineno
            if end < line:
                if isinstance(stmt, ast.If) and not stmt.orelse and _exits(stmt.body):
                    out.extend((written(n), stmt.lineno) for n in held_true(stmt.test, False))
                continue
            if stmt.lineno > line:
                break
            if isinstance(stmt, ast.If):
                in_body = bool(stmt.body) and stmt.body[0].lineno <= line <= _end(stmt.body)
                held = held_true(stmt.test, in_body)
                out.extend((written(n), stmt.lineno) for n in held)
                inner = stmt.body if in_body else stmt.orelse
            elif isinstance(stmt, _INTO_BODY):
                # a loop's, a `with`'s or a `try`'s body; a call in a handler keeps the
                # tests read so far (those inside it are not read: only a gate is lost)
                inner = stmt.body if stmt.body[0].lineno <= line <= _end(stmt.body) else None
            break
        if not inner:
            return out
        body = inner


def _end(body: list[ast.stmt]) -> int:
    last = body[-1]
    return last.end_lineno or last.lineno


def _exits(body: list[ast.stmt]) -> bool:
    return bool(body) and isinstance(body[-1], _EXITS)


_DEF = re.compile(r"([ \t]*)(?:async[ \t]+)?def[ \t]+(\w+)[ \t]*\(")


def _written_bases(bases: tuple[str, ...]) -> list[str]:
    """The bases a class names that are classes of their own (not `object`, `Generic[T]`)."""
    skip = {"object", "ABC", "abc.ABC", "Generic", "typing.Generic", "Protocol"}
    return [b for b in bases if b.split("[")[0] not in skip and "metaclass" not in b]


def _handed_on(text: str, name: str, method: bool) -> bool:
    """Whether the file may hand the function `name` (a method: `method`) to code that
    calls it where the index does not look: a `def name` with such a decorator
    (`_decorated_def`), or the name written other than to call or define it
    (`_named_uncalled`). One pass over the hits of `str.find`: the file is long and the hits
    few, so the scan of the text is most of the cost. (Reading every `def` of the file
    once costs more than the few names of it the walk asks about; a pattern with a
    look-behind made for each name costs ten times more.)"""
    named_from = 0  # the hits read for naming do not overlap: each starts past the last
    for at in occurrences(text, name):
        before = text[at - 1] if at else "\n"
        if before in " \t" and _decorated_def(text, at, name):
            return True
        if at < named_from or (method and before != "."):
            continue  # a method is named after a dot (`self.name`): only those hits
        named_from = at + len(name)
        if _named_uncalled(text, at, named_from, before, method):
            return True
    return False


def _decorated_def(text: str, at: int, name: str) -> bool:
    """Whether the hit at `at` (after a blank) names a `def` with a decorator that may hand
    the function on: one given arguments (`@router.post("/x")`, `@register("name")`,
    written on one line or several) or a bare name (`@register_model`) other than the
    standard library's method and cache wrappers. A call with no arguments wraps the
    function where it is defined (`@torch.inference_mode()`): its callers stay those that
    call it by name."""
    begin = text.rfind("\n", 0, at) + 1
    found = _DEF.match(text, begin)
    is_def = found is not None and found.start(2) == at and found.group(2) == name
    return is_def and _hands_on(text, begin)


def _hands_on(text: str, start: int) -> bool:
    """Whether the lines above the `def` at `start` hold such a decorator. They are read
    back from it by position: most `def`s have none or one decorator, so splitting the
    whole file into lines would be most of the cost."""
    end = start - 1  # the newline that ends the line above
    while end >= 0:
        begin = text.rfind("\n", 0, end) + 1
        line = text[begin:end].strip()
        end = begin - 1
        if not line or line.startswith("#"):
            continue
        if line.startswith(")"):
            return True  # the end of a decorator written on several lines
        if not line.startswith("@"):
            return False
        decorator = line[1:].split("#")[0].strip()
        called = decorator.endswith("()") and decorator.count("(") == 1
        if not called and decorator not in _PLAIN_DECORATORS:
            return True
    return False


def _named_uncalled(text: str, at: int, start: int, before: str, method: bool) -> bool:
    """Whether the hit from `at` to `start`, after the character `before`, names the
    function other than to call or define it (`self.name` or `name` not followed by `(`):
    handed on (a callback, a table of handlers)."""
    end = len(text)
    if start < end and (text[start].isalnum() or text[start] == "_"):
        return False  # a longer name
    if (before != ".") if method else (before.isalnum() or before in "_."):
        return False
    following = start
    while following < end and text[following] in " \t":
        following += 1
    if following < end and text[following] == "(":
        return False  # called
    line = text[text.rfind("\n", 0, at) + 1 : at].lstrip()
    return not line.startswith(("def ", "async def ", "#"))
