"""Each name a solution tells the user to set or pass, checked against the version's index.

A solution names things: a flag (`--mamba-config '{...}'`), an environment variable
(`VLLM_X=1`), a parameter the message advises (“Use the `overwrite`-parameter instead”).
Before the page is written each is looked up in what the version defines (the flags its
parsers declare, the variables it reads, its classes' fields, functions and methods, the
raising function's parameters):

- a flag is registered when a parser declares it, or when it is the field of an arguments
  class whose fields a generator turns into flags; a field of a class whose module builds
  a parser declaring most of the class's fields one by one, but not this one, is no flag;
- a variable of the version's own namespace (its project's, or that of a variable the page
  already links) is one it reads; another program's (a C library's) is not checked;
- a parameter the message names is one the version defines or the site's file passes.

A way out whose branch calls the raising function again is none (`loops_back`).

A solution naming something not found is dropped; the message's own advice is kept as
context in "What it means", said with what the version lacks. A flag the message names
that the version does not declare, where one flag it declares sets the attribute of that
name (`stale_flags`), is the message's old name for it: the advice is offered with the
declared flag in its place, and "What it means" says which the message names. Lookups are
one set test a name, the version's names read once per store generation.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field, replace

import msgspec

from errdex.explain.advised_keyword import with_needed_keyword
from errdex.explain.context import Explanation, Facts
from errdex.explain.defaulted_flags import left_out_value, never_none_flag
from errdex.explain.handler_notes import INTERPRETER_VARIABLES
from errdex.explain.loops_back import leads_back
from errdex.explain.page import Knob, Solution
from errdex.explain.retired_flags import carries_retired, retired_flag
from errdex.explain.stale_flags import StaleFlag, stale_flag
from errdex.extract.class_source import class_at
from errdex.facts import KnobKind
from errdex.link.parsed_classes import field_flag
from errdex.store.base import Store, StoredSite

__all__ = ["unknown_names", "verified_explanation"]

MESSAGE_SAYS = "Do what the message says: "
_FLAG = re.compile(r"(?<![\w-])--[a-z][a-z0-9]*(?:-[a-z0-9]+)*(?![\w-])")
_ENV = re.compile(r"(?<![\w-])([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)=")
# What the message calls a parameter: "the `info` parameter", "`overwrite`-parameter",
# "the 'typecolname' argument" (not "set `x=False` in the config": a key of a file the
# index does not hold).
_PARAM = re.compile(
    r"[`'\"](?P<a>[a-z_][a-z0-9_]*)[`'\"][\s-]*(?:\w+\s+)?(?:parameter|argument|keyword|kwarg)s?\b"
    r"|\b(?:parameter|argument|keyword|kwarg)s?\s+[`'\"](?P<b>[a-z_][a-z0-9_]*)[`'\"]",
    re.I,
)
# A command of another program given in a span: `wsl --update`, `pip install --upgrade x`.
_SPAN = re.compile(r"`([^`]+)`")
_INSTALL = re.compile(r"\b(?:pip3?|uv|conda|apt(?:-get)?|poetry)\b")
_QUOTED = re.compile(r"“[^”]*”")
_PARSER = re.compile(r"add_argument\(|ArgumentParser\b")
_SWITCH_WORD = re.compile(r"^(?:no|enable|disable|use|with|without|skip)-")
# Flags every parser has.
_ALWAYS = frozenset({"--help", "--version"})


@dataclass
class _Answers:
    """What was worked out of one version's names, kept while the store's generation holds
    (its `defined` set is then the same object)."""

    defined: frozenset[str]
    declares_flags: bool | None = None
    kin: frozenset[str] | None = None  # the stems of the declared flags
    # an arguments class (`file:line`) and field → whether a generator makes it a flag
    generated: dict[tuple[str, str], bool] = field(default_factory=dict)


_last: list[_Answers] = []  # the answers for the version last read


def _answers(defined: frozenset[str]) -> _Answers:
    if not _last or _last[0].defined is not defined:
        _last[:] = [_Answers(defined)]
    return _last[0]


def verified_explanation(
    store: Store, stored: StoredSite, facts: Facts, out: Explanation
) -> Explanation:
    """The explanation with every solution whose named setting or parameter the version
    does not hold dropped (the message's own advice kept as context), and the example fix
    dropped with it when it is that solution's or names such a thing itself."""
    if not out.solutions and out.example_fix is None:
        return out
    out = _without_retired_kept(store, stored, facts, out)
    check = _Check(store, stored, facts)
    kept: list[Solution] = []
    said: list[str] = []
    for solution in out.solutions:
        if leads_back(solution, facts) or never_none_flag(store, stored, facts, solution):
            continue
        worded = left_out_value(facts, solution)
        if worded is None:
            continue  # left out, the flag gives a value that may fail the check too
        solution = worded
        retired = retired_flag(store, stored, facts, solution)
        if retired is not None:
            if retired.note() not in said:
                said.append(retired.note())
            instead = retired.solution(solution)
            if instead is not None and not any(f"`{retired.instead}`" in s.text for s in kept):
                kept.append(instead)
            continue
        stale = check.stale(solution)
        if stale:
            note, instead = _stale_advice(solution, stale, stored)
            said.append(note)
            kept.append(instead)
            continue
        missing = check.missing(solution)
        if not missing:
            if solution.text.startswith(MESSAGE_SAYS):
                solution = (
                    with_needed_keyword(facts, solution, solution.text[len(MESSAGE_SAYS) :])
                    or solution
                )
            kept.append(solution)
            continue
        if solution.text.startswith(MESSAGE_SAYS):
            quoted = solution.text[len(MESSAGE_SAYS) :]
            names = ", ".join(f"`{n}`" for n in missing)
            said.append(
                f"The message says {quoted.rstrip('.')}; this version of {stored.project} has "
                f"no {names} (no flag, variable or parameter of that name), so it is no way "
                "out offered here."
            )
    if kept == out.solutions and not said:
        fix = out.example_fix
        if fix is not None and check.fix_missing(fix.after):
            return replace(out, example_fix=None)
        return out
    fix = out.example_fix
    if fix is not None and (
        (not any(s.fix is fix for s in kept) and any(s.fix is fix for s in out.solutions))
        or check.fix_missing(fix.after)
    ):
        fix = next((s.fix for s in kept if s.fix is not None), None)
    meaning = " ".join([out.what_it_means, *said]) if said else out.what_it_means
    return replace(out, solutions=kept, example_fix=fix, what_it_means=meaning)


def _without_retired_kept(
    store: Store, stored: StoredSite, facts: Facts, out: Explanation
) -> Explanation:
    """The explanation with no fix that keeps a retired flag in both lines (a switch wired
    to nothing shown as what the check needs): the solution stays, its fix goes."""
    fixes = [s.fix for s in out.solutions if s.fix is not None and "--" in s.fix.before]
    if out.example_fix is not None and "--" in out.example_fix.before:
        fixes.append(out.example_fix)
    gone = [f for f in fixes if carries_retired(store, stored, facts, f)]
    if not gone:
        return out
    solutions = [
        msgspec.structs.replace(s, fix=None) if any(s.fix is f for f in gone) else s
        for s in out.solutions
    ]
    fix = out.example_fix
    if fix is not None and any(fix is f for f in gone):
        fix = next((s.fix for s in solutions if s.fix is not None), None)
    return replace(out, solutions=solutions, example_fix=fix)


def _stale_advice(
    solution: Solution, stale: list[StaleFlag], stored: StoredSite
) -> tuple[str, Solution]:
    """What "What it means" says of advice naming undeclared flags, and the advice with the
    declared flags in their place."""
    quoted = solution.text[len(MESSAGE_SAYS) :]
    swapped = quoted
    for flag in stale:
        swapped = flag.swapped(swapped)
    named = ", ".join(f"`{f.named}`" for f in stale)
    sets = "; ".join(f"`{f.declared}` sets `{f.attribute}` at line {f.line}" for f in stale)
    note = (
        f"The message says {quoted.rstrip('.')}; this version of {stored.project} declares "
        f"no {named}: {sets}."
    )
    text = (
        f"Do what the message says, with the flag this version declares in place of {named}: "
        f"{swapped} ({sets}.)"
    )
    return note, Solution(text=text, knob=stale[0].declared, kind="setting")


def unknown_names(store: Store, stored: StoredSite, facts: Facts, solution: Solution) -> list[str]:
    """The flags, variables and parameters `solution` names that the version does not hold."""
    return _Check(store, stored, facts).missing(solution)


class _Check:
    def __init__(self, store: Store, stored: StoredSite, facts: Facts) -> None:
        self._store = store
        self._stored = stored
        self._facts = facts
        self._defined: frozenset[str] | None = None

    @property
    def defined(self) -> frozenset[str]:
        if self._defined is None:
            self._defined = self._store.defined_names(self._stored.version_id)
        return self._defined

    def missing(self, solution: Solution) -> list[str]:
        if solution.kind == "environment" or (
            solution.change is not None and solution.change.form == "install"
        ):
            return []
        message = solution.text.startswith(MESSAGE_SAYS)
        # the message quoted beside a way out is its evidence, not what it tells to pass
        texts = [solution.text if message else _QUOTED.sub("", solution.text)]
        if solution.fix is not None:
            texts.append(solution.fix.after)
        out: list[str] = []
        for text in texts:
            for flag in _flags(text):
                if flag not in out and not self._flag_known(flag, lenient=message):
                    out.append(flag)
            for name in _ENV.findall(text):
                if name not in out and not self._env_known(name):
                    out.append(name)
        if solution.change is not None and solution.change.form == "env":
            name = solution.change.target
            if name not in out and not self._env_known(name):
                out.append(name)
        if message:
            for match in _PARAM.finditer(solution.text):
                name = match.group("a") or match.group("b")
                if name not in out and not self._param_known(name):
                    out.append(name)
        return out

    def stale(self, solution: Solution) -> list[StaleFlag]:
        """The flags the message's advice names that the version does not declare, each
        with the declared flag that sets the attribute of its name; empty unless every
        undeclared flag it names has one."""
        if not solution.text.startswith(MESSAGE_SAYS) or not self._declares_flags():
            return []
        text = self._facts.source_text or ""
        out: list[StaleFlag] = []
        for flag in _flags(solution.text):
            if self._declared(flag, text):
                continue
            found = stale_flag(flag, text, self.defined) or next(
                (
                    f
                    for a in self._shown_attributes()
                    if (f := stale_flag(flag, text, self.defined, a)) is not None
                ),
                None,
            )
            if found is None:
                return []
            out.append(found)
        return out

    def _shown_attributes(self) -> list[str]:
        """The attributes of `self` the message's placeholders show (`{self.label_ts}`)."""
        message = self._stored.site.message
        if message is None:
            return []
        return list(dict.fromkeys(re.findall(r"\{self\.([A-Za-z_]\w*)[^}]*\}", message.text)))

    def _declared(self, flag: str, text: str) -> bool:
        """Whether the version declares the flag (by name, through a generator, or as a
        literal of the site's own file), or its `--no-` form's flag."""
        bare = flag[5:] if flag.startswith("--no-") else None
        if flag in _ALWAYS or flag in self.defined:
            return True
        if bare is not None and f"--{bare}" in self.defined:
            return True
        return f'"{flag}"' in text or f"'{flag}'" in text

    def fix_missing(self, text: str) -> bool:
        text = "\n".join(line for line in text.splitlines() if not _INSTALL.search(line))
        return any(not self._flag_known(f, lenient=False) for f in _flags(text)) or any(
            not self._env_known(n) for n in _ENV.findall(text)
        )

    # -- flags -----------------------------------------------------------------------------

    def _flag_known(self, flag: str, *, lenient: bool) -> bool:
        if flag in _ALWAYS or not self._declares_flags():
            return True  # a version whose parsers the index does not see: nothing to tell
        bare = flag[5:] if flag.startswith("--no-") else None
        if flag in self.defined or (bare is not None and f"--{bare}" in self.defined):
            return True
        text = self._facts.source_text or ""
        if f'"{flag}"' in text or f"'{flag}'" in text:
            return True  # the site's own file declares it (a plugin's option)
        field = (bare or flag[2:]).replace("-", "_")
        knob = next(
            (k for k in self._facts.knobs if k.kind == KnobKind.FLAG and k.name == flag), None
        )
        if knob is None:
            # the message's own word: a field a generator may turn into a flag, or a flag of
            # another program (`docker run --shm-size`) unless the version declares its kin
            # (`--enable-prefix-caching` for `--disable-prefix-caching`)
            return lenient and (field in self.defined or not self._kin_declared(flag))
        return self._generated(knob, field)

    def _kin_declared(self, flag: str) -> bool:
        stem = _stem(flag)
        answers = _answers(self.defined)
        if answers.kin is None:
            answers.kin = frozenset(_stem(n) for n in self.defined if n.startswith("--"))
        return bool(stem) and stem in answers.kin

    def _declares_flags(self) -> bool:
        answers = _answers(self.defined)
        if answers.declares_flags is None:
            answers.declares_flags = any(n.startswith("--") for n in self.defined)
        return answers.declares_flags

    def _generated(self, knob: Knob, field: str) -> bool:
        """Whether the class whose field the knob is (declared at its file and line) has
        its fields made flags by a generator: its file builds a parser and declares fewer
        than half of the class's fields by hand."""
        if knob.file is None or knob.line is None:
            return False
        cache = _answers(self.defined).generated
        key = (f"{knob.file}:{knob.line}", field)
        if key not in cache:
            text = self._store.file_text(self._stored.version_id, knob.file)
            # a file the index keeps no text of (no site in it): nothing to tell
            cache[key] = text is None or _generator_made(text, knob.line, field, self.defined)
        return cache[key]

    # -- variables and parameters ----------------------------------------------------------

    def _env_known(self, name: str) -> bool:
        if name in INTERPRETER_VARIABLES or name in self.defined:
            return True
        if any(k.kind == KnobKind.ENV and k.name == name for k in self._facts.knobs):
            return True
        own = {_namespace(k.name) for k in self._facts.knobs if k.kind == KnobKind.ENV}
        own.add(re.sub(r"\W", "", self._stored.project).upper())
        return _namespace(name) not in own  # another program's variable: not checked

    def _param_known(self, name: str) -> bool:
        if name in self._facts.read.params or name in self.defined:
            return True
        if any(name in (k.name, (k.behind or "").rsplit(".", 1)[-1]) for k in self._facts.knobs):
            return True
        # a name the site's file uses beyond the message itself (a config key it reads)
        text = self._facts.source_text or ""
        message = self._stored.site.message
        said = message.text.count(name) if message is not None else 0
        return len(re.findall(rf"(?<![\w]){re.escape(name)}(?![\w])", text)) > said


def _flags(text: str) -> list[str]:
    """The flags a text gives the program, not those of another program's command."""
    others = [
        span
        for span in _SPAN.findall(text)
        if not span.lstrip().startswith("-") and "--" in span and " " in span.strip()
    ]
    found = _FLAG.findall(text)
    return [f for f in dict.fromkeys(found) if not any(f in span for span in others)]


def _stem(flag: str) -> str:
    """A flag's name without the word that turns it on or off: `prefix-caching`."""
    return _SWITCH_WORD.sub("", flag[2:])


def _namespace(name: str) -> str:
    return name.split("_", 1)[0]


def _generator_made(text: str, line: int, field: str, defined: frozenset[str]) -> bool:
    """Whether the class declared at `line`, when `field` is its own, has its fields made
    flags by a generator (True when no top-level class is there, or it parses not: nothing
    to tell)."""
    node = _class_from(text, line)
    if node is None:
        return True
    fields = [
        s.target.id
        for s in node.body
        if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)
    ]
    if field not in fields or _PARSER.search(text) is None:
        return True  # a parser elsewhere may make its fields flags: unsure
    by_hand = sum(field_flag(f) in defined for f in fields)
    return by_hand * 2 < len(fields)


def _class_from(text: str, line: int) -> ast.ClassDef | None:
    """The top-level class whose `class` line or one of whose decorators' is `line`,
    parsed alone (`class_at`): the file may be a large one, read for one class."""
    lines = text.split("\n")
    index = line - 1
    while 0 <= index < len(lines) and lines[index].startswith("@"):
        index += 1
    if not 0 <= index < len(lines) or not lines[index].startswith("class "):
        return None
    return class_at(text, sum(len(row) + 1 for row in lines[:index]))
