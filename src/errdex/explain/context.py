"""What the explainer reads (the site and the linker's facts around it) and what it makes."""

from __future__ import annotations

import ast
import bisect
import contextlib
import functools
import itertools
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from errdex.ast_walk import walk
from errdex.explain.name_scan import margin_class
from errdex.explain.outline import Keep, top_statements
from errdex.explain.page import (
    BindingView,
    Caller,
    ConditionView,
    ExampleFix,
    Knob,
    Solution,
    TestView,
    VariantView,
    WhenItHappens,
    WhyQuote,
)
from errdex.explain.parse_cache import kept_parse
from errdex.explain.plain import code, listed
from errdex.extract.class_source import class_at, class_span
from errdex.extract.source_text import block_span, parsed_block
from errdex.facts import ConditionKind
from errdex.reading_facts import SourceRead
from errdex.store.base import StoredSite

if TYPE_CHECKING:
    from errdex.explain.class_made import ClassHooks
    from errdex.explain.failed_try import TriedInput
    from errdex.explain.handed_facts import HandedCallback
    from errdex.explain.picked_value import Taken, ValuePicked
    from errdex.explain.unreached import FilledDefault, PassedCall

# Conditions that say where the code is rather than what went wrong. A loop that ran out
# (`NO_MATCH`) is said in its own sentence (`ran_out.py`), not negated into a way out.
CONTEXT_KINDS = frozenset(
    {ConditionKind.LOOP, ConditionKind.NO_MATCH, ConditionKind.EXCEPT, ConditionKind.WITH}
)
Made = TypeVar("Made")  # what a rule works out once a page (`Facts.once`)


# `Entry.how` of a named group of a compiled pattern's match on the argument: "part:host"
# (`entry_flow._matched_part`), "part:host=host" with a keyword given in its place
PART = "part:"


class Entry(NamedTuple):
    """The public call a user hands an internal function's argument through: its path (or
    the paths of a few calls taking the argument alike: `httpx.Client`, `httpx.AsyncClient`)
    and the argument's name there (`explain/entry_args.py`)."""

    calls: tuple[str, ...]
    argument: str
    # how the argument reaches the check: as it is (""), as a "key", "value" or
    # "element" of it, or a `PART` of it (`explain/entry_flow.py`)
    how: str = ""
    # the containers (`tuple`, `list`) whose items reach the check alike, where the argument
    # (or its part) is one of them (`for item in value` beside the value itself)
    kinds: tuple[str, ...] = ()
    # other arguments that reach the check alike, each with the calls taking it, where a
    # helper hands it on from several of its own (`encode_content(data)`, then
    # `encode_content(content)`): `data` of `httpx.Request` beside `content`
    also: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def named(self) -> str:
        """The calls as a page writes them: "`httpx.AsyncClient` or `httpx.Client`"."""
        return listed([code(c) for c in self.calls], "or")


class InnerRaise(NamedTuple):
    """A raise of the caught class inside a function the `try` calls (`inner_raises`)."""

    called: str  # the call as written in the `try` (`_get_schema`)
    line: int  # the raise's line in the callee's file
    file: str
    exception: str
    message: str | None
    through: bool = False  # raised in a function the callee calls (the linker's depth 2)


@dataclass(frozen=True)
class FailingCall:
    """The call the other branch of a guard makes, and the raise it meets
    (`explain/failing_branch.py`)."""

    line: int  # the guard's
    holds: bool  # the guard's truth on the path
    called: str  # as the branch writes it: `eval_expression`
    passed: str | None  # the site's input it hands on: `name` (None: none)
    file: str  # of the callee's raise
    raise_line: int
    exception: str
    always: bool  # the raise is at the top of the callee's body: it always fails


@dataclass(frozen=True)
class RefusedMode:
    """A held test on a config's field whose other side the config itself refuses
    (`explain/refused_modes.py`)."""

    condition: str  # the held condition's text, as the solutions name it
    owner: str  # the config class
    field: str  # the field the test reads
    given: str  # the other field, read on the path, that the config ties to it
    file: str  # the config's refusing raise
    line: int


class Exempted(NamedTuple):
    """The check a permission switch lets the user past, which turning it off leads into
    (`explain/exempting_settings.py`)."""

    condition: str  # the held condition the way out would make false
    setting: str  # as the page names it: `use_heterogeneous_vocab` of `--speculative-config`
    caller: str  # the function that calls the check only with the setting off
    function: str  # the check's function
    file: str
    line: int  # the check's raise


@dataclass(frozen=True)
class SiblingAdvice:
    """Another check's advice on a test this one holds too (`explain/sibling_advice.py`)."""

    clause: str  # the advice's clause that names the other member: "Use READ mode"
    line: int  # the sibling's line
    shared: ConditionView  # the test both hold: `self.mode == MoRIIOMode.WRITE`
    # how to take it, when a flag's key picks the member (`explain/member_setting.py`)
    setting: str | None = None
    fix: ExampleFix | None = None

    def solution(self, opposite: str) -> Solution:
        """The way out, given the shared test's opposite in words: it keeps the feature on."""
        how = f": {self.setting}" if self.setting else ""
        text = (
            f"{self.clause}{how}, as the check at line {self.line} of the same function "
            f"advises on the same test (so that {opposite})."
        )
        return Solution(text=text, condition=self.shared.text, kind="setting", fix=self.fix)


@dataclass
class Explanation:
    what_it_means: str
    when_it_happens: WhenItHappens
    solutions: list[Solution] = field(default_factory=list)
    example_fix: ExampleFix | None = None
    why: list[WhyQuote] = field(default_factory=list)


@dataclass
class Facts:
    """The site and what the linker found around it, as the page shows them."""

    stored: StoredSite
    conditions: list[ConditionView]
    variants: list[VariantView] = field(default_factory=list)
    callers: list[Caller] = field(default_factory=list)
    # The branch conditions of each direct caller's call, as condition views.
    caller_guards: list[tuple[Caller, list[ConditionView]]] = field(default_factory=list)
    # The calls, up to three callers away, whose guards test a setting true on every path
    # into the function (`link.path_gates`), each with the names its guard holds true.
    gate_guards: list[tuple[Caller, list[ConditionView]]] = field(default_factory=list)
    knobs: list[Knob] = field(default_factory=list)
    bindings: list[BindingView] = field(default_factory=list)
    tests: list[TestView] = field(default_factory=list)
    # What the source says around the site, read at extraction (empty when an older errdex
    # indexed the version).
    read: SourceRead = field(default_factory=SourceRead)
    solved: list[Solution] | None = None  # `solutions(facts)`, once worked out
    # ways out a comment beside the check warns against (set with `solved`), each with it
    refused: list[tuple[Solution, str]] = field(default_factory=list)
    # switches that only hide the error, held out when nothing else is a way out (set with
    # `solved`): "What it means" says them
    hidden: list[Solution] = field(default_factory=list)
    # settings that would make true a guard whose other branch fails, each with the guard's
    # line (set with `solved`, `explain/refused_ways.py`): "What it means" says them
    tripped: list[tuple[Solution, int]] = field(default_factory=list)
    # the ways out of a warning that take the fallback it announces by another branch (set
    # with `solved`, `explain/same_fallback.py`): "What it means" says them
    fallen: list[Solution] = field(default_factory=list)
    # a variable's name → when setting it is the way out, for a variable the code falls
    # back from on its own when unset (`explain/fallbacks.py`; needs the store)
    fallbacks: dict[str, str] = field(default_factory=dict)
    # a setting's name → the check its value meets when raised, and the way past it
    # (`explain/caps.py`; needs the store)
    caps: dict[str, str] = field(default_factory=dict)
    # a condition of the site → the warning its function logs where it is false, and that
    # warning's line: what a setting that lets the value past brings (`explain/
    # override_warning.py`; needs the store)
    warned: dict[str, tuple[str, int]] = field(default_factory=dict)
    source_text: str | None = None  # the site's file, for rules that read its function
    # (the call the `try` made, the message it logs before re-raising): `callee_advice`
    callee_messages: list[tuple[str, str]] = field(default_factory=list)
    # the raises of the caught class inside the functions the `try` calls (`inner_raises`)
    inner_raises: list[InnerRaise] = field(default_factory=list)
    # the call of the `try` that failed on a value the user gave a public call
    # (`explain/tried_input.py`; needs the store)
    tried: TriedInput | None = None
    # the code Python runs at the user's `class` statement that the site is in or only
    # reached from (`explain/class_hooks.py`; needs the store for a caller's file)
    class_hook: ClassHooks | None = None
    # the guards whose other branch hands the input to a call raising the same error
    # (`explain/failing_branch.py`; needs the store)
    failing: list[FailingCall] = field(default_factory=list)
    # the held tests on a config's field whose other side the config's own check refuses
    # beside a field the path reads (`explain/refused_modes.py`; needs the store)
    refused_modes: list[RefusedMode] = field(default_factory=list)
    # the tests on the paths of the function's other raises of the same error: `same_error`
    same_error_paths: list[frozenset[tuple[int, str, bool]]] = field(default_factory=list)
    # a module table a lookup under `except KeyError` reads → its literal keys, in order
    # (`explain/table_lookup.py`; needs the store)
    table_keys: dict[str, list[str]] = field(default_factory=dict)
    # `get_args(X)`, `X.__args__`, `X.__members__` of the conditions → the values the type
    # declares, as Python source (`explain/literal_members.py`; needs the store)
    members: dict[str, list[str]] = field(default_factory=dict)
    # the way out through a public call's argument that reaches an internal check
    # (`explain/entry_input.py`; needs the store)
    entry_input: Solution | None = None
    # the class of the site's file a setting's value picks, supporting only values its base
    # does not (`explain/value_picked.py`; needs the store)
    value_picked: ValuePicked | None = None
    # a selection's setting → the members standing in whose class runs where the site's
    # member's class runs and takes its values, each with the values it takes where it
    # takes only some (`explain/stand_ins.py`; needs the store)
    stand_ins: dict[str, dict[str, tuple[Taken, ...]]] | None = None
    # an argument of a function no public path reaches, or a `self.x` the constructor of a
    # class no user makes kept from its argument (keyed "self.x") → (the public call, its
    # argument) that hands it on as it is (`explain/entry_args.py`; needs the store)
    entry_args: dict[str, Entry] = field(default_factory=dict)
    # an argument the raise's own test reads → (the public call, its argument) that hands it
    # on as it is, for a message stating what a value must be (`explain/entry_args.py`;
    # needs the store)
    stated_entries: dict[str, Entry] = field(default_factory=dict)
    # a check on what the user's callable did with a function a method hands it
    # (`explain/handed_callback.py`; needs the store)
    handed: HandedCallback | None = None
    # the paths (line, tests) of the function's other sites of the same kind and exception
    # (`explain/twins.py`; needs the store), and the conditions whose way out leads to one
    twin_paths: list[tuple[int, frozenset[tuple[str, bool]]]] = field(default_factory=list)
    twinned: list[ConditionView] = field(default_factory=list)
    # the direct callers, when each catches the error (`explain/no_action.py`; needs the store)
    caught_by: list[Caller] = field(default_factory=list)
    # each direct caller with the check it makes first that rules the site's condition out
    # (`explain/checked_before.py`): the site is never reached failing
    checked_by: list[tuple[Caller, str, int]] = field(default_factory=list)
    # each call of the site's function, when every one passes a value that rules a
    # condition of the site out (`explain/passed_before.py`): never reached failing
    passed_by: list[PassedCall] = field(default_factory=list)
    # a tested `x is None` whose local was filled in with a value never None before it
    # (`explain/never_none.py`): the check cannot fail
    filled: FilledDefault | None = None
    # the public paths of the names a deprecation's message calls in the replacement it
    # names (`WSGITransport` → `httpx.WSGITransport`), or the class a message says the
    # object is not bound to (`Session`: `not_associated.holder_names`), read from the store
    # by the page
    public_names: dict[str, str] = field(default_factory=dict)
    # `config.method()` of a condition → the expression on the object's fields it returns,
    # for an object behind a JSON-valued flag (`explain/returned_fields.py`; needs the store)
    returned: dict[str, str] = field(default_factory=dict)
    # a documented constant the conditions test → the line that assigns it in its file
    # (the page reads that file; `why.py` quotes the doc with where it is written)
    constant_lines: dict[str, int] = field(default_factory=dict)
    # the text of the file a helper site's raise is in, when not the site's own (read from
    # the store by the page; `why.py` quotes the helper's `Raises` entry of the error)
    helper_text: str | None = None
    # the advice of the function's other checks on a member test this one holds too
    # (`explain/sibling_advice.py`; needs the store)
    sibling_advice: list[SiblingAdvice] = field(default_factory=list)
    # the project's issue tracker from its metadata (None when the index holds none)
    tracker: str | None = None
    # the commands the version installs (its console scripts), and the text of its top
    # package's `__init__.py`, read when a rule asks (`explain/own_code.py`)
    scripts: tuple[str, ...] = ()
    top_init: Callable[[], str | None] | None = field(default=None, repr=False)
    # a class the file imports from another module of the package by name → that class
    # parsed from its kept file (`explain/imported_class.py`; needs the store)
    imported_class: Callable[[str], ast.ClassDef | None] | None = field(default=None, repr=False)
    # a file of the version → its kept text (a caller's of another file; needs the store)
    file_text: Callable[[str], str | None] | None = field(default=None, repr=False)
    # a setting's name (or a key's) → the sites of the version whose facts name it, read
    # when a rule asks (`explain/exempting_settings.py`; needs the store)
    sites_naming: Callable[[str], list[StoredSite]] | None = field(default=None, repr=False)
    # a setting a way out would turn off, whose being on spares the user another check of
    # the version (set with `solved`, `explain/exempting_settings.py`): "What it means"
    exempted: list[Exempted] = field(default_factory=list)
    # a class's name → the files of the version whose sites are in its methods, read when
    # a rule asks (`explain/filled_flags.py`)
    class_files: Callable[[str], tuple[str, ...]] | None = field(default=None, repr=False)
    # an exception class's name → whether the version raises it, and only with no
    # message at all (`raise Abort()`), read when a rule asks (`explain/failed_call.py`)
    raised_bare: Callable[[str], bool] | None = field(default=None, repr=False)
    # the kept files of the version in the site's own folder (its sibling modules; needs
    # the store)
    folder_paths: Callable[[], Sequence[str]] | None = field(default=None, repr=False)
    # the kept files of the whole version (needs the store)
    version_paths: Callable[[], Sequence[str]] | None = field(default=None, repr=False)
    # (these facts, a parameter's name) → whether every call the index holds of the
    # function gives it a literal: the package names that value itself (`explain/
    # caller_literals.py`; needs the store, asked only by the rules that need it)
    literal_calls: Callable[[Facts, str], bool] | None = field(default=None, repr=False)
    # what a rule worked out from these facts, by its own key, for the rules asking again
    # (the facts do not change while the page is built)
    memo: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)
    # reads the lines that start the file's top-level statements from the store (None:
    # not kept), asked once a rule wants a few of them (`top_module`)
    outline_of: Callable[[], Sequence[int] | None] | None = field(default=None, repr=False)
    _outline: Sequence[int] | bool | None = field(default=False, repr=False)  # False: unread
    _tree: ast.Module | None = field(default=None, repr=False)
    _function: ast.FunctionDef | bool | None = field(default=False, repr=False)  # False: unread
    _classes: dict[str, ast.ClassDef | None] = field(default_factory=dict, repr=False)

    def source_tree(self) -> ast.Module | None:
        """The site's file parsed, once per page (None when unknown or unparsable)."""
        text = self.source_text
        if self._tree is None and text is not None:
            self._tree = kept_module(text)
            if self._tree is None:
                self.source_text = None  # unparsable: not tried again
        return self._tree

    def top_module(self, keep: Keep) -> ast.Module | None:
        """The site file's top-level statements that `keep` takes (`explain/outline.py`),
        parsed alone when the store keeps the file's outline; else, or once a rule parsed
        the whole file, `source_tree()` (whose body holds them, with the others)."""
        if self._tree is None and self.source_text is not None and self.outline_of is not None:
            body = top_statements(self.source_text, self.top_starts(), keep)
            if body is not None:
                return ast.Module(body=body, type_ignores=[])
        return self.source_tree()

    def innermost_except(self) -> ConditionView | None:
        """The `except` clause nearest the site: the one whose `try` made the failing call."""
        return next((c for c in reversed(self.conditions) if c.kind is ConditionKind.EXCEPT), None)

    def once(self, key: str, make: Callable[[], Made]) -> Made:
        """`make()`, worked out once a page: kept in the page's memo under `key`."""
        if key not in self.memo:
            self.memo[key] = make()
        found: Made = self.memo[key]
        return found

    def site_function(self) -> ast.FunctionDef | None:
        """The site's own function parsed alone, once per page (None when it is not a
        `def` of the kept file: module level, a lambda, an unparsable text)."""
        if self._function is False:
            site = self.stored.site
            name = site.function.rpartition(".")[2]
            self._function = function_at(self.source_text, name, site.line)
        return self._function if isinstance(self._function, ast.FunctionDef) else None

    def own_class(self) -> ast.ClassDef | None:
        """The top-level class the site's function is a method of (`Class.method`, or a
        closure in it: `Class.method.<locals>.inner` sees its `self`), parsed alone; None
        for a plain function, or a method of a nested class (whose `self` is not the outer
        class's)."""
        owner = self.stored.site.function.partition(".<locals>.")[0].rpartition(".")[0]
        return self.top_class(owner) if owner and "." not in owner else None

    def top_class(self, name: str) -> ast.ClassDef | None:
        """The class `name` defined at the top level of the site's file, parsed alone (the
        whole file only when the class's lines cannot be told apart from the rest)."""
        if name not in self._classes:
            text = self.source_text
            found = top_class_in(text, name)
            if found is None and text is not None and _has_class_header(text, name):
                tree = self.source_tree()
                top = tree.body if tree is not None else []
                found = next(
                    (n for n in top if isinstance(n, ast.ClassDef) and n.name == name), None
                )
            self._classes[name] = found
        return self._classes[name]

    def top_starts(self) -> Sequence[int] | None:
        """The lines the file's top-level statements start on, as the store keeps them
        (`extract.module.top_starts`); None when not kept. Read once per page."""
        if self._outline is False:
            self._outline = self.outline_of() if self.outline_of is not None else None
        return self._outline if not isinstance(self._outline, bool) else None

    def class_text(self, name: str) -> str | None:
        """A text holding every line of `top_class(name)`, read before parsing it: a rule may
        see there that the class cannot hold what it looks for (`may_name`). The class's own
        lines when the stored outline says they are one top-level statement, else the whole
        file; None when the file has no class `name` at its margin (`top_class` finds none)."""
        return self.once(f"class_text:{name}", lambda: self._class_text(name))

    def _class_text(self, name: str) -> str | None:
        text = self.source_text
        found = class_header_at(text, name) if text is not None else None
        if text is None or found is None:
            return None
        line, offset = found
        top, end, first = class_span(text, offset + (1 if line else 0))
        starts = self.top_starts()
        if not starts or "\r" in text:
            return text
        # one whole statement: it starts on the class's first line, the next one (or the
        # file's end) where its cut ends
        after = first + 2 + text.count("\n", top, end) if end >= 0 else None  # its next line
        at = bisect.bisect_left(starts, first + 1)
        if at == len(starts) or starts[at] != first + 1:
            return text
        following = starts[at + 1] if at + 1 < len(starts) else None
        if following != after:
            return text
        return text[top:end] if end >= 0 else text[top:]

    def lines_may_name(self, node: ast.AST, word: str) -> bool:
        """Whether the lines of the site's file that `node` (of a tree parsed from it, at its
        line numbers) spans, its decorators too, may hold the name or attribute `word`: a
        walk of a node whose lines do not finds no `Name` or `Attribute` of it."""
        text = self.source_text
        start = getattr(node, "lineno", None)
        end = getattr(node, "end_lineno", None)
        if text is None or start is None or end is None:
            return True
        for decorator in getattr(node, "decorator_list", ()):
            start = min(start, decorator.lineno)
        return may_name(_line_span(text, start, end), word)

    def subclass_names(self, name: str) -> list[str]:
        """The top-level classes of the site's file whose bases name `name`, in file order."""
        if self.source_text is None:
            return []
        return [
            match.group(1)
            for _, match in at_margin(_CLASS_BASES, self.source_text)
            if name in re.findall(r"[A-Za-z_][\w]*", match.group(2))
        ]

    @property
    def held(self) -> list[ConditionView]:
        """The site's own conditions that a user may change."""
        return [c for c in self.conditions if c.kind not in CONTEXT_KINDS]


def may_name(text: str, word: str) -> bool:
    """Whether source `text` may hold the identifier `word` (a name, an attribute, a
    keyword argument): it holds the word, or it is not ASCII (the parser reads a name
    written in compatibility forms of letters as their NFKC normal form)."""
    return word in text or not text.isascii()


@functools.lru_cache(maxsize=4)
def _line_starts(text: str) -> tuple[int, ...]:
    """The offset each line of `text` starts at, lines ended by `\n` alone."""
    return (0, *(m.end() for m in re.finditer("\n", text)))


def _line_span(text: str, start: int, end: int) -> str:
    """Lines `start` to `end` (1-based, inclusive) of `text` as the parser numbers them (the
    whole text when a lone `\r`, which ends a line for the parser, may be in it)."""
    if "\r" in text:
        return text
    starts = _line_starts(text)
    if not 1 <= start <= end <= len(starts):
        return text
    return text[starts[start - 1] : starts[end] if end < len(starts) else len(text)]


@functools.lru_cache(maxsize=4)
def lines_of(text: str) -> tuple[str, ...]:
    """A file's lines, split once: a page's rules read the same file's text again and again
    (a string keeps its hash, so asking again costs no second pass over it)."""
    return tuple(text.splitlines())


def parse_module(text: str | None) -> ast.Module | None:
    """A file's text parsed for a rule that reads code around the site; None when it does
    not parse (newer syntax, a huge file)."""
    if text is None:
        return None
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def kept_module(text: str) -> ast.Module | None:
    """`parse_module(text)`, one tree for every rule and page reading the same text
    (`parse_cache`): read it, never change it."""
    return kept_parse(text, "module", lambda: (parse_module(text), len(text)))


def function_at(text: str | None, name: str, line: int) -> ast.FunctionDef | None:
    """The function `name` whose body holds `line` (or that starts there), parsed alone: a
    rule reading one function of a 3,000-line file need not parse all of it."""
    return _block_at(text, function_span(text, name, line), line, ast.FunctionDef)


def async_function_at(text: str | None, name: str, line: int) -> ast.AsyncFunctionDef | None:
    """`function_at` for an `async def`."""
    return _block_at(text, function_span(text, name, line), line, ast.AsyncFunctionDef)


def class_around(text: str | None, name: str, line: int) -> ast.ClassDef | None:
    """The class `name` whose body holds `line`, parsed alone as `function_at` parses a
    function: at any depth (a class defined under `if TYPE_CHECKING: ... else:`)."""
    return _block_at(text, _text_span(text, name, line, "class"), line, ast.ClassDef)


@functools.lru_cache(maxsize=64)
def function_span(text: str | None, name: str, line: int) -> tuple[int, int] | None:
    """The lines (0-based, end excluded) of the `def name` that holds `line`, found in the
    text alone: a rule may look at them before parsing anything. (Asked by several rules
    of a page: kept.)"""
    return _text_span(text, name, line, "def")


def decorators_above(text: str, line: int) -> list[ast.expr]:
    """The one-line decorators right above the `def` at `line` (the function is parsed
    alone, without them)."""
    lines = lines_of(text)
    found: list[ast.expr] = []
    index = line - 2
    while 0 <= index < len(lines) and lines[index].strip().startswith("@"):
        with contextlib.suppress(SyntaxError, ValueError, RecursionError):
            found.append(ast.parse(lines[index].strip()[1:], mode="eval").body)
        index -= 1
    return found


def decorator_names(text: str | None, name: str, line: int) -> set[str]:
    """The last names of the decorators of the `def name` that holds `line` (`classmethod`,
    `property`, the `setter` of `@x.setter`; a called one, `@validator("x")`, is none)."""
    span = function_span(text, name, line)
    if text is None or span is None:
        return set()
    found: set[str] = set()
    for decorator in decorators_above(text, span[0] + 1):
        if isinstance(decorator, ast.Name):
            found.add(decorator.id)
        elif isinstance(decorator, ast.Attribute):
            found.add(decorator.attr)
    return found


def _text_span(text: str | None, name: str, line: int, keyword: str) -> tuple[int, int] | None:
    return None if text is None else block_span(lines_of(text), name, line, keyword)


Block = TypeVar("Block", bound=ast.stmt)


def _block_at(
    text: str | None,
    span: tuple[int, int] | None,
    line: int,
    kind: type[Block],
    keep: bool = True,
) -> Block | None:
    """The statement of `kind` on the lines `span` that holds `line`, parsed alone (and kept
    for the next reader, unless not to `keep`)."""
    if text is None or span is None:
        return None
    start, end = span

    def parse() -> tuple[ast.Module | None, int]:
        return parsed_block(lines_of(text), start, end)

    tree = kept_parse(text, ("lines", start, end), parse) if keep else parse()[0]
    if tree is None or not tree.body or not isinstance(tree.body[0], kind):
        return None
    found = tree.body[0]
    return found if found.lineno <= line <= (found.end_lineno or found.lineno) else None


_TOP_HEADER = re.compile(r"(?:async\s+def|def|class)\s")


def top_block_at(text: str | None, line: int, keep: bool = True) -> ast.stmt | None:
    """The top-level `def` or `class` holding `line`, parsed alone: from the nearest such
    header at the margin above it to the next line at the margin that is not a comment or
    a closing bracket. None when that cannot be told from the text (another line at the
    margin between them, lines split where `\n` does not) or the lines do not parse alone
    (they end inside a string or a bracket): the caller reads the whole file then."""
    if text is None:
        return None
    lines = lines_of(text)
    if len(lines) != text.count("\n") + (1 if text and not text.endswith("\n") else 0):
        return None
    index = min(line, len(lines)) - 1
    while index >= 0 and not _TOP_HEADER.match(lines[index]):
        if lines[index][:1] not in _INSIDE:
            return None  # a margin line between: a statement of its own, or in a string
        index -= 1
    if index < 0:
        return None
    end = index + 1
    while end < len(lines) and lines[end][:1] in _INSIDE:
        end += 1
    return _block_at(text, (index, end), line, ast.stmt, keep)


# how a line of a block's body starts: indented, blank, a comment or a closing bracket
_INSIDE = frozenset(" \t#)]}") | {""}


def statement_pairs(tree: ast.AST) -> Iterator[tuple[ast.stmt, ast.stmt]]:
    """Each statement with the one after it in the same block, in every block of `tree`."""
    for node in walk(tree):
        for field_name in ("body", "orelse", "finalbody"):
            block = getattr(node, field_name, None)
            if isinstance(block, list):
                yield from itertools.pairwise(block)


def statements_after(function: ast.FunctionDef, line: int) -> list[ast.stmt] | None:
    """The statements after the expression statement holding `line` (a call that logs or
    warns), in the same block of `function`; None when no expression statement holds it."""
    path = holding_path(function.body, line)
    if not path or not isinstance(path[-1][0], ast.Expr):
        return None
    _, block, index = path[-1]
    return block[index + 1 :]


def holding_path(body: list[ast.stmt], line: int) -> list[tuple[ast.stmt, list[ast.stmt], int]]:
    """Each statement holding `line`, from the one of `body` down to the innermost (a simple
    statement, or a compound one none of whose blocks holds it), with the block it sits in
    and its index there."""
    path: list[tuple[ast.stmt, list[ast.stmt], int]] = []
    block: list[ast.stmt] | None = body
    while block is not None:
        holding = next(
            (
                (index, statement)
                for index, statement in enumerate(block)
                if statement.lineno <= line <= (statement.end_lineno or statement.lineno)
            ),
            None,
        )
        if holding is None:
            break
        index, statement = holding
        path.append((statement, block, index))
        block = inner_block(statement, line)
    return path


def inner_block(statement: ast.stmt, line: int) -> list[ast.stmt] | None:
    """The block of compound `statement` (a body, an `else`, a handler's or a case's body)
    that holds `line`."""
    blocks: list[list[ast.stmt]] = [
        getattr(statement, name)
        for name in ("body", "orelse", "finalbody")
        if isinstance(getattr(statement, name, None), list)
    ]
    blocks += [h.body for h in getattr(statement, "handlers", [])]
    blocks += [c.body for c in getattr(statement, "cases", [])]
    for block in blocks:
        if block and block[0].lineno <= line <= (block[-1].end_lineno or block[-1].lineno):
            return block
    return None


def class_in_file(facts: Facts, name: str) -> ast.ClassDef | None:
    """The class `name` defined at the top level of the site's file (None when absent)."""
    return facts.top_class(name)


_CLASS_BASES = r"class\s+(\w+)\s*\(([^)]*)\)"


def at_margin(pattern: str, text: str) -> Iterator[tuple[int, re.Match[str]]]:
    """Each line (0-based) that starts with a match of `pattern`, with the match. (Searched
    as a line break and the pattern: the regex engine finds a leading literal fast, and
    tries a pattern that starts with `^` at every character, 20 times slower.)"""
    first = re.match(pattern, text)
    if first is not None:
        yield 0, first
    offset, counted = 0, 0
    for found in re.finditer(rf"\n(?:{pattern})", text):
        counted += text.count("\n", offset, found.start()) + 1
        offset = found.start() + 1
        yield counted, found


def class_header(name: str) -> str:
    """The pattern of a class `name`'s header (for `at_margin`)."""
    return rf"class\s+{re.escape(name)}\b"


def _has_class_header(text: str, name: str) -> bool:
    return class_header_at(text, name) is not None


@functools.lru_cache(maxsize=16)
def class_header_at(text: str, name: str) -> tuple[int, int] | None:
    """(line, offset) of the first header of a class `name` at the margin of `text`, as
    `at_margin(class_header(name), text)` finds it first (its line, where its match
    starts), found once for the rules of a page that ask; None when there is none."""
    return margin_class(text, name)


def top_class_in(text: str | None, name: str) -> ast.ClassDef | None:
    """The top-level class `name` of a file's text, with its decorators, parsed alone
    (`extract.class_source.class_at`); None when absent or when its lines cannot be cut."""
    found = class_header_at(text, name) if text is not None else None
    if text is None or found is None:
        return None
    line, offset = found
    start = offset + (1 if line else 0)  # after the line break

    def parse() -> tuple[ast.ClassDef | None, int]:
        top, end, _ = class_span(text, start)
        return class_at(text, start), (end if end >= 0 else len(text)) - top

    return kept_parse(text, ("class", start), parse)
