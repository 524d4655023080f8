"""Why the check is there, in the code's own words, each quote with where it is written.

The candidates: the comments above the check and above each of its guards (read at index
time), the paragraphs and section entries of its function's docstring (a `Raises` entry
naming its exception, an `Args` entry of a parameter it tests), the docs of the constants
and settings its conditions test, the messages logged beside it or where a setting takes
effect (vllm logs "This is equivalent to setting -cc.mode=none -cc.cudagraph_mode=none" where
`enforce_eager` does). Each is ranked by how directly it speaks of the check: the names it
shares with the conditions, the message and the exception, and where it sits. At most three
are kept, none that says nothing of the check, none that "What it means" already says.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import pairwise

from errdex.explain.context import CONTEXT_KINDS, Facts, at_margin, function_span, lines_of
from errdex.explain.loaded_plugin import loaded_texts
from errdex.explain.name_scan import reads_name, whole_word
from errdex.explain.page import BindingView, ConditionView, Knob, Solution, WhyQuote
from errdex.explain.plain import code
from errdex.explain.solutions import solutions
from errdex.explain.why_fields import field_docs, self_reads
from errdex.explain.why_outer import helper_def, outer_defs
from errdex.explain.why_reasons import states_reason, whole_sentences
from errdex.explain.why_texts import (
    RAISES_SECTIONS,
    DocUnit,
    comment_before,
    docstring_units,
    has_placeholder,
    header_comments,
    logged_beside,
    raised_names,
    run_spans,
    statements_between,
    trailing_comments,
)
from errdex.extract.docs import MAX_DOC
from errdex.facts import BRANCH_KINDS, ConditionKind, KnobKind
from errdex.linked_facts import NAMED_IN_MESSAGE, own_key
from errdex.store.base import Store, StoredSite

MAX_QUOTES = 3
_MAX_QUOTE = 400
# the least score a quote needs: two names of the check, or one and its place (at 1.0,
# one read of 600 random pages found most quotes spoke of something else)
_KEEP = 1.25
_FURTHER = 1.5  # the least score of a quote after the first
_LOOSE = 2.0  # that of a further docstring paragraph or comment a few lines up: looser ties
_MIN_WORDS = 4  # "error case", "Type checking": no words on why
_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_FAILS = re.compile(r"\b(?:raise[sd]?|raising|errors?|fail(?:s|ed)?|refused?)\b", re.I)
# a sentence that says a method is left to subclasses, or not written yet
_TO_OVERRIDE = re.compile(
    r"\b(?:(?:must|should|needs?\s+to)\s+(?:be\s+)?(?:implemented|overridden)"
    r"|not\s+(?:yet\s+)?implemented|implemented\s+by\s+(?:a\s+)?subclass(?:es)?"
    r"|subclass(?:es)?\s+(?:must|should)"
    # "Custom subclasses of :class:`TypeDecorator` should override this method"
    r"|subclass(?:es)?\b(?:[^.]|\.(?=\S)){0,80}?\b(?:must|should)\s+override)\b",
    re.I,
)
_RAISES = re.compile(r"(?:Raise|Raises|Raised|Throws?)\b")
_RULE_RUN = re.compile(r"[-=*#~_]{4,}")  # a comment's drawn rule (`# ------`)
_MARKED = re.compile(r"`+([A-Za-z_][A-Za-z0-9_]*)")  # a name written as code
# a plan ("TODO: add error handling here": no reason unless it names the check), and a
# file's license header
_PLAN = re.compile(r"^(?:TODO|FIXME|XXX|HACK)\b", re.I)
_HEADER = re.compile(r"\b(?:SPDX-License|Copyright\b|Licensed under)", re.I)
# a tool's directive at a comment's end: no words on the check
_DIRECTIVE = re.compile(
    r"#?\s*\b(?:noqa(?::\s*[A-Z]+\d+(?:,\s*[A-Z]+\d+)*)?|type:\s*ignore(?:\[[^\]]*\])?"
    r"|pragma:\s*no\s*cover|fmt:\s*(?:on|off|skip))(?!\w)"
)
# words every check and comment shares: no sign a text speaks of this one
_COMMON = frozenset(
    """self cls the and for not none true false this that with from into have has was were
    will can could must should would when where which what than then else elif return
    returns get set value values error errors exception raise raises raised warning type
    len isinstance str int float bool list dict tuple object args kwargs any all use used
    using one two only also its new are but may might here there other some such more
    given config data need needs needed if in is of to be by on or an as at it no do""".split()
)
# conditions that are no part of this check: an early exit (another check), and where it
# sits (a loop, a `with`, an `except`: context, not the test)
_OTHER_KINDS = CONTEXT_KINDS | {ConditionKind.EARLY_EXIT}
_NESTING = (BRANCH_KINDS - {ConditionKind.EARLY_EXIT}) | {ConditionKind.MATCH}
_CODE = (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Return, ast.Raise, ast.Import)
# expressions no sentence parses as (words parse as names joined by `and`/`or`/`not`)
_EXPRESSIONS = (ast.Call, ast.Compare, ast.Attribute, ast.Subscript)
# sections whose entries are each of a parameter
_ENTRIES = {"args", "arguments", "parameters", "params", "param", "keyword arguments", "kwargs"}
# where a sentence ends: at `.`, `!` or `?` before a space and what starts one (a list's
# `- ` item too)
_SENTENCE_END = re.compile(r"(?<=[a-z0-9)`'\"\]][.!?])\s+(?=[A-Z`:*\"'(\[]|[-\u2022]\s)")
_ABBREVIATION = re.compile(r"\b(?:e\.g|i\.e|etc|vs|cf)\.$", re.I)
# a list numbered from one: a sentence that ends on a number ("num_heads must be 1.")
# elsewhere keeps it
_FIRST_ITEM = re.compile(r"(?:^|\s)1\.\s")
_SECOND_ITEM = re.compile(r"\s2\.\s")
_LEADING_NUMBER = re.compile(r"^\d+\.\s+")
_TRAILING_NUMBER = re.compile(r"\s+\d+\.$")
# a test of a name for None (`out is None`, `out is not None`), and a call's callee
_NONE_TEST = re.compile(r"^([A-Za-z_]\w*) is (?:not )?None$")
_ASSERTS = re.compile(r"\bassert(?:s|ed|ions?)?\b", re.I)
_BRANCH = re.compile(r"(?:if|elif|else|for|while|with|try|except|finally|case)\b")
_WHEN_NONE = re.compile(r"\bNone\b`*,?\s+(?:if|when|unless)\b")  # "or None if not captured"
_ORDER = re.compile(r"\s(?:<|>|<=|>=)\s")
_AND = re.compile(r"\s+and\s+")
_RAISE_WORD = re.compile(r"\braise\b")
_CALLED = re.compile(r"^(?:self\.)?([A-Za-z_]\w*)\(")
_QUOTED = re.compile(r"“([^”]+)”")  # what a way out quotes
# a summary that says what the function checks: "Fail unless the runner built the requested
# batch", "Reject booleans before pydantic coerces them", "Validate that a name matches the
# pattern": a condition in its first clause, not "Validate command-line arguments."
_CHECKING = re.compile(
    r"^(?:Validates?|Verif(?:y|ies)|Asserts?|Fails?|Raises?|Rejects?|Refuses?|Checks?)\b"
)
_EXCEPTION_NAME = re.compile(r"\b[A-Z]\w*(?:Error|Exception|Warning)\b")
_CONDITION = re.compile(r"\b(?:if|unless|that|whether|when|before|only|not|but)\b")
_CLAUSE_END = re.compile(r"[,;:(]|\.(?:\s|$)")
_QUOTED_VALUE = re.compile(r'"[^"\n]{1,40}"')
_ROLE = re.compile(r":[a-z]+(?::[a-z]+)?:`")  # a Sphinx role (":class:`", ":meth:`")
_SECTIONS = {"raises": "Raises", "raise": "Raises", "note": "Note", "notes": "Notes"}


@dataclass
class _Names:
    """What the check is about: the word parts of its own conditions, those of its message
    and exception, and the whole names its own conditions test."""

    tested: set[str]
    said: set[str]
    whole: set[str]
    # the exception's name and its bases' last names: a docstring may name a base
    # ("Raise `ValueError` if ..." over `raise VLLMValidationError(...)`)
    raised: set[str]


@dataclass
class _Candidate:
    quote: WhyQuote
    score: float
    order: int
    # False for a text that gives no reason (what an argument is) or that cannot be quoted
    # whole: not shown, yet it holds its rank, so a weaker text does not take its place
    shown: bool = True


def why_quotes(facts: Facts, meaning: str, ways: Sequence[str] = ()) -> list[WhyQuote]:
    """At most `MAX_QUOTES` quotes of the code on the check, most direct first; none that
    `meaning` (the page's "What it means") already says, nor a docstring's holding a text
    other than the message that a way out (`ways`: their texts) quotes already (“...”: the
    docstring's condition of `documented_raises`, not quoted again below it). A log line or
    a comment a way out quotes stays: its place in the code is said only here."""
    names = _names(facts)
    found: list[_Candidate] = []
    # the site's function as lines of its file: nothing is parsed but a log call's lines
    lines = lines_of(facts.source_text) if facts.source_text is not None else ()
    site = facts.stored.site
    span = function_span(facts.source_text, site.function.rpartition(".")[2], site.line)
    start = span[0] if span is not None else None
    found += _comments(facts, lines, start, names)
    if start is not None:
        found += _docstring(facts, lines, start, names)
        found += _logged(facts, lines, start, names)
    # the helper the raise is in, and the functions a closure is defined in
    helper = helper_def(facts)
    if helper is not None:
        file, helper_lines, at, name = helper
        found += _docstring(facts, helper_lines, at, names, (name, file))
    for at, name in outer_defs(facts):
        found += _docstring(facts, lines, at, names, (name, facts.stored.file))
    found += _constants(facts, names)
    found += _fields(facts, names)
    if lines:
        found += _returned_none(facts, lines)
    found += _settings(facts, names)
    said = _plain(meaning)
    # not the message's own words a way out quotes: a text of the code saying them says
    # more, why they hold ("... must be called before X and Y after all chunks are sent")
    message = _plain(site.message.text) if site.message is not None else ""
    quoted = [
        q
        for w in ways
        for q in map(_plain, _QUOTED.findall(w))
        if len(q.split()) >= _MIN_WORDS and q not in message
    ]
    kept: list[WhyQuote] = []
    seen: list[str] = []
    taken = 0  # the candidates that passed, shown or not
    least = _KEEP
    paragraph = False  # one plain paragraph of the docstring at most: its best
    for candidate in sorted(found, key=lambda c: (-c.score, c.order)):
        if candidate.score < least:
            break
        text = _plain(candidate.quote.text)
        if len(text.split()) < _MIN_WORDS or text in said:
            continue
        if candidate.quote.of.startswith("docstring") and any(q in text for q in quoted):
            continue  # the docstring's sentence a way out quotes
        if any(text in s or s in text for s in seen):
            continue
        plain = candidate.quote.of.startswith("docstring") and "," not in candidate.quote.of
        if plain and paragraph:
            continue
        loose = plain or candidate.quote.of.startswith("comment before")
        if taken and loose and candidate.score < _LOOSE:
            continue
        paragraph = paragraph or plain
        seen.append(text)
        taken += 1
        if candidate.shown:
            kept.append(candidate.quote)
        least = _FURTHER  # a further quote speaks of the check more than by one word
        if taken == MAX_QUOTES:
            break
    return kept


def own_conditions(facts: Facts) -> list[ConditionView]:
    """The conditions of this check, not of another one before it: an early exit, an earlier
    `assert`, a guard whose other branch fails as well. An `assert (` whose test starts on
    a further line of its statement tests it there: that test is its own."""
    site = facts.stored.site
    return [
        c
        for c in facts.conditions
        if c.kind not in _OTHER_KINDS
        and not (
            c.kind == ConditionKind.ASSERT
            and not site.line <= c.line <= max(site.end_line, site.line)
        )
        and not facts.read.other_branch_fails(c.line, c.holds)
    ]


def _names(facts: Facts) -> _Names:
    tested, whole = _tested(own_conditions(facts))
    site = facts.stored.site
    exception = site.exception.rpartition(".")[2] if site.exception else None
    parts = site.message.parts if site.message else ()
    said = [p if isinstance(p, str) else p.expr for p in parts]
    return _Names(
        tested=tested,
        said={p for t in [*said, exception or ""] for p in _parts(t)},
        whole=whole,
        raised=raised_names(facts, exception),
    )


def _tested(conditions: list[ConditionView]) -> tuple[set[str], set[str]]:
    """The word parts and the whole names the conditions write."""
    texts = [t for c in conditions for t in (c.text, c.test)]
    return {p for t in texts for p in _parts(t)}, {w for t in texts for w in _idents(t)}


def _parts(text: str) -> set[str]:
    """The words of a text, names split at `_` and at capitals, lower case, plurals cut."""
    out: set[str] = set()
    for word in _WORD.findall(text):
        word = word.lower()
        if len(word) < 3 or word in _COMMON:
            continue
        out.add(word[:-1] if len(word) > 4 and word.endswith("s") and word[-2] != "s" else word)
    return out


def _idents(text: str) -> set[str]:
    """The whole names of a text (each part of a dotted one) that are no common word."""
    return {w for w in _IDENT.findall(text) if len(w) >= 3 and w.lower() not in _COMMON}


def _score(text: str, names: _Names) -> float:
    """Half a point per word part shared with the check's own conditions, a quarter per one
    shared with its message or exception only, and a point per whole name of its conditions
    the text writes as a name (`enforce_eager`, `maxBatch`, a backticked `url`)."""
    parts = _parts(text)
    tested = parts & names.tested
    said = (parts & names.said) - tested
    marked = set(_MARKED.findall(text))
    whole = {
        w
        for w in _idents(text)
        if w in names.whole and ("_" in w or not (w.islower() or w.isupper()) or w in marked)
    }
    return 0.5 * len(tested) + 0.25 * len(said) + len(whole)


def _comments(
    facts: Facts, text_lines: Sequence[str], start: int | None, names: _Names
) -> list[_Candidate]:
    """The comment blocks above (and on) the check's line and each guard's line: one above
    the check, or above the guard nearest it, speaks of it by its place."""
    site = facts.stored.site
    guards = [c.line for c in facts.conditions if c.kind != ConditionKind.CALL]
    # the loops and `with` blocks it sits in, and its own guard nearest it
    around = {
        c.line for c in facts.conditions if c.kind in (ConditionKind.LOOP, ConditionKind.WITH)
    }
    own = {c.line for c in own_conditions(facts)}
    nearest = max((n for n in own | around if n < site.line), default=None)
    # the guards that are checks of their own: an early exit, one whose other branch fails
    own_checks = {
        c.line
        for c in facts.conditions
        if c.kind == ConditionKind.EARLY_EXIT or facts.read.other_branch_fails(c.line, c.holds)
    } - own
    lines = sorted({*guards, site.line})
    own_stems, own_names = _own_test(facts)
    # the line of the check's own test: its `assert`, or the guard it is the body of
    tested = max((n for n in own if n <= max(site.line, site.end_line)), default=None)
    # the tests of branches (not a `try` or loop the check sits in) between a guard and it
    branches = [c.line for c in facts.conditions if c.kind in _NESTING]
    low = start + 1 if start is not None else 0  # the function's first line
    out: list[_Candidate] = []
    for line in lines:
        # a comment above another guard shares that guard's names by its place: only the
        # names it shares with the rest of the check count
        names_here = names if line in (site.line, nearest) else _without(names, facts, line)
        block, top = facts.read.comment_block(line, lines)
        head = line  # the guard's header: the `if (` a test under an opening bracket is in
        over = header_comments(text_lines, line, low) if not block and text_lines else None
        if over is not None:
            (block, top), head = over, line - 1
        text = _words(" ".join(block), names_here)
        if not text:
            continue
        far = line not in (site.line, nearest) and line not in around
        # above a check of its own, a comment is that check's ("skip a part with no
        # content") unless it says this error is raised; above a further guard of this
        # check, a label of the branch ("Unified handler for the weights") unless it
        # gives a reason
        # (each holds its rank, not shown: a weaker text does not take its place)
        # (one that speaks of failing, or of the assertions, is kept)
        of_check = _FAILS.search(text) is not None or _ASSERTS.search(text) is not None
        other = far and line in own_checks and not of_check
        label = far and line not in own_checks and not states_reason(text) and not of_check
        # above an outer guard, a comment that shares no word with the check's own test
        # nor its message heads the block the check is deep inside ("Use pre-computed
        # lengths if available, otherwise fall back to audio_embeds" over the `if` whose
        # `else` holds `assert isinstance(embed, torch.Tensor)`): not of the check
        # (so does one over the guard nearest it, when a further branch sits between them;
        # a name of another guard it writes, `audio_embeds`, is no word of the check's)
        outer = far or (line == nearest and any(line < g < site.line for g in branches))
        shares = bool(_stems(_prose_parts(text, own_names)) & own_stems)
        label = label or (outer and not of_check and not shares)
        if head != line:
            # read above an `if (` (no index rule weighed these): over another check's
            # guard, that check's, whatever it says of failing ("... so a misaligned caller
            # fails loudly" over the strides' `if (`, not over a later test of the lengths);
            # over a guard whose branch holds a test of its own (an `assert`), a label of the
            # branch unless it shares with that test or the message a word the guard does
            # not test ("w8a8 per-channel quantization" over the `assert topk_weights.dim()
            # == 2` in it; "Indexer layers may rewrite their buffer, so always remap" over
            # the `if` testing `self.topk_indices_buffer` that `assert self.topk_indices_
            # buffer is not None` tests again)
            other = other or (far and line in own_checks)
            guard = _stems(_tested([c for c in facts.conditions if c.line == line])[0])
            below = bool(_stems(_prose_parts(text, own_names)) & (own_stems - guard))
            label = label or (line not in (site.line, tested) and not of_check and not below)
            # an aside on one test of it ("Note: model_config may be None during testing"
            # over a guard that tests more), or on a check not made ("We do NOT check here
            # the regex on emptiness")
            label = label or _aside(text, facts, tested)
        # right above the check, a comment over a run of statements that goes on past
        # the check may label that run
        if line == site.line and top < line:
            label = label or _labels_a_run(facts, text_lines, top, line, text, names)
        # above the guard nearest the check, when the check sits further down its body, a
        # comment that gives no reason labels the branch
        if line == nearest and line != site.line and not states_reason(text):
            label = label or statements_between(text_lines, head, site.line)
        at = "the check" if line == site.line else f"the guard at line {line}"
        where = f"comment {'on' if top == line else 'above'} {at}"
        # above the check, or the guard nearest it, a comment speaks of it by its place;
        # above a loop or `with` it is in, a little; above another guard, not at all
        place = 2.0 if line == site.line else 1.0 if line == nearest else 0.5 * (line in around)
        score = _comment_score(text, names_here) + place
        out += _candidate(text, where, facts.stored.file, top, score, 0)
        out[-1].shown = out[-1].shown and not (label or other)
    # a comment a few statements above the check or a guard, over what leads to it
    # (over the check or the guard nearest it: over another guard, it is that guard's)
    for line in sorted(n for n in (site.line, nearest) if n is not None):
        found = comment_before(text_lines, line, set(lines), low) if text_lines else None
        text = _words(found[0], names) if found is not None else None
        if found is None or not text:
            continue
        top = found[1]
        place = 0.5
        label = False
        first = _first_code(text_lines, top)
        # over a run of checks the check is in (`assert a`, `assert b`, the check): the
        # comment heads each of them, as if right above it; unless it labels more
        if line == site.line and _in_checks(text_lines, first, site.line, text, names):
            place = 2.0
            label = _labels_a_run(facts, text_lines, top, first, text, names)
        at = "the check" if line == site.line else f"the guard at line {line}"
        score = _comment_score(text, names) + place
        out += _candidate(text, f"comment before {at}", facts.stored.file, top, score, 0)
        out[-1].shown = out[-1].shown and not label
    out += _trailing(facts, text_lines, site.line, nearest, names)
    return out


_MAY_BE_NONE = re.compile(r"\b(?:may|might|can|could)\s+be\s+None\b")
_NOT_CHECKED = re.compile(r"\b(?:do|does|did)\s+not\s+(?:check|validate)\b", re.I)


def _aside(text: str, facts: Facts, tested: int | None) -> bool:
    """Whether a comment is an aside on the check's test rather than its reason: it says a
    name may be None over a test that holds more than a None test, or it says what is not
    checked."""
    if _NOT_CHECKED.search(text):
        return True
    if not _MAY_BE_NONE.search(text):
        return False
    parts = [p for c in own_conditions(facts) if c.line == tested for p in _AND.split(c.text)]
    return not all(_NONE_TEST.match(p.strip()) for p in parts)


def _own_test(facts: Facts) -> tuple[set[str], set[str]]:
    """The stems of the check's own test (the `assert`'s condition, or the guard nearest
    it) and of its message, and the whole names that test writes."""
    site = facts.stored.site
    own = [c for c in own_conditions(facts) if c.line <= max(site.line, site.end_line)]
    last = max((c.line for c in own), default=None)
    tested, whole = _tested([c for c in own if c.line == last])
    parts = site.message.parts if site.message else ()
    said = {w for p in parts for w in _parts(p if isinstance(p, str) else p.expr)}
    return _stems(tested | said), whole


def _prose_parts(text: str, keep: set[str]) -> set[str]:
    """The word parts of a text less those of the code names it writes (`audio_embeds`,
    `maxBatch`) other than `keep`: what its words say, not the names it mentions."""
    words = [
        w
        for w in _IDENT.findall(text)
        if w in keep or ("_" not in w.strip("_") and (w.islower() or w.isupper() or w.istitle()))
    ]
    return _parts(" ".join(words))


def _stems(words: set[str]) -> set[str]:
    """Words cut to their first five letters: "supported" and "support" meet."""
    return {w[:5] for w in words}


def _names_other(text: str, names: _Names, own: str) -> bool:
    """Whether the text writes a name of several words (`head_dim`) that the check's
    conditions do not test and that is not the exception's."""
    known = {w.lower() for w in (*names.whole, *names.raised, own)}
    return any("_" in w.strip("_") and w.lower() not in known for w in _idents(text))


def _names_whole(text: str, names: _Names) -> bool:
    """Whether the text writes a whole name the check's conditions test, as a name
    (`spec_indices`, `maxBatch`): it speaks of the check, wherever it sits."""
    return any(
        w in names.whole and ("_" in w or not (w.islower() or w.isupper())) for w in _idents(text)
    )


def _labels_a_run(
    facts: Facts, lines: Sequence[str], top: int, first: int, comment: str, names: _Names
) -> bool:
    """Whether the comment block from line `top`, over the run of statements from line
    `first` that starts with `assert`s, the check among them, labels that run rather than
    speaks of the check: the run goes on past the asserts, and the comment gives no reason
    and writes no whole name the check tests. Right under a branch's header (`if ...:`,
    `else:`), that is a label of the branch ("Non-last rank: return the tensors for
    sending" over `assert tensors is not None` and the `return`); elsewhere only one that
    shares no word with the check's conditions is ("Setup static attributes before
    smem/grid/tma computation" over three asserts and the assignments after them). (Over
    an `if` that raises, a comment most often says why it raises, whatever follows.)"""
    site = facts.stored.site
    if site.line in facts.read.comments or top < 2:
        return False  # a comment on the check's own line speaks of it
    marked = set(_MARKED.findall(comment)) & names.whole  # "`fused` already implies"
    if states_reason(comment) or _names_whole(comment, names) or marked:
        return False
    spans = run_spans(lines, first)
    checks = 0
    while checks < len(spans) and spans[checks][2].startswith("assert "):
        checks += 1
    if checks == len(spans) or not any(a <= site.line <= b for a, b, _ in spans[:checks]):
        return False
    above = lines[top - 2].split("#", 1)[0].strip() if top - 2 < len(lines) else ""
    if above.endswith(":") and _BRANCH.match(above):
        return True
    # ("strided" meets `stride`, "reduction" `reduce_results`)
    return not _stems(_parts(comment)) & _stems(names.tested)


def _is_check(statement: str) -> bool:
    """Whether a statement (on one line, as `run_spans` gives it) is a check: an `assert`,
    a `raise`, or an `if` whose body raises."""
    if statement.startswith(("assert ", "raise ")) or statement == "raise":
        return True
    return statement.startswith("if ") and _RAISE_WORD.search(statement) is not None


def _in_checks(lines: Sequence[str], first: int, line: int, comment: str, names: _Names) -> bool:
    """Whether the statements from line `first` up to the one on `line` are all checks,
    and the comment writes no name that one of the others tests and this one does not
    (it is that one's: "hash_block_size validation is skipped" over its own assert and
    one of the groups' count)."""
    others: set[str] = set()
    for a, _, text in run_spans(lines, first):
        if not _is_check(text):
            return False
        if a == line:
            written = {w for w in _idents(comment) if "_" in w} | set(_MARKED.findall(comment))
            return not written & (others - names.whole)
        others |= _idents(text)
    return False


def _first_code(lines: Sequence[str], top: int) -> int:
    """The first line (1-based) after the comment block that starts on line `top`."""
    at = top
    while at <= len(lines) and lines[at - 1].strip().startswith("#"):
        at += 1
    return at


def _trailing(
    facts: Facts, lines: Sequence[str], at: int, nearest: int | None, names: _Names
) -> list[_Candidate]:
    """The comments at the ends of the further lines of the check's statement (a `raise`
    or `assert` over several lines) and of its nearest guard's `if`, each run of them as
    one text: they speak of the check by their place."""
    out: list[_Candidate] = []
    for line, place in ((at, 2.0), (nearest, 1.0)):
        if line is None or not lines:
            continue
        found = trailing_comments(lines, line)
        if not found:
            continue
        text = _words(" ".join(t for t, _ in found), names)
        if not text:
            continue
        where = "the check" if line == at else f"the guard at line {line}"
        score = _comment_score(text, names) + place
        out += _candidate(text, f"comment in {where}", facts.stored.file, found[0][1], score, 0)
    return out


def _words(comment: str, names: _Names) -> str | None:
    """A comment's words on one line, less a tool's directive (`# noqa`); None for no
    words on why: a line of code commented out or a branch's label (`self.x == Y`), a
    plan that names nothing of the check (`TODO: add error handling here`), a license
    header."""
    text = " ".join(_DIRECTIVE.sub("", comment).split())
    if not text or _is_code(text) or _HEADER.search(text):
        return None
    return None if _PLAN.match(text) and not _score(text, names) else text


def _comment_score(text: str, names: _Names) -> float:
    """A comment's score; one that speaks of failing ("we ... raise the no option error")
    and shares a name with the check speaks of why it fails."""
    score = _score(text, names)
    return score + 0.75 if score and _FAILS.search(text) else score


def _without(names: _Names, facts: Facts, line: int) -> _Names:
    """The check's names less those only the conditions on `line` write."""
    tested, whole = _tested([c for c in own_conditions(facts) if c.line != line])
    return _Names(tested=tested, said=names.said, whole=whole, raised=names.raised)


def _docstring(
    facts: Facts,
    lines: Sequence[str],
    start: int,
    names: _Names,
    of: tuple[str, str] | None = None,
) -> list[_Candidate]:
    """The docstring's units that speak of the check: a `Raises` entry naming its
    exception first, an `Args` entry of a name its conditions test, any paragraph by the
    names it shares. The docstring of another function than the site's (`of`: its name
    and file, a helper the raise is in or the function a closure is defined in) is read
    for its `Raises` entries only: its other units speak of that function."""
    site = facts.stored.site
    units = docstring_units(lines, start)
    label = f"docstring of {code(of[0] if of else site.function)}"
    file = of[1] if of else facts.stored.file
    out: list[_Candidate] = []
    for index, unit in enumerate(units):
        if of is not None and unit.section not in RAISES_SECTIONS:
            continue
        elsewhere = named = False
        # a paragraph is quoted by the sentence or two of it that speak of the check
        text = _focus(unit.text, names) if unit.name is None else unit.text
        score = _score(text, names)
        raises = unit.section in RAISES_SECTIONS
        if raises:
            if unit.name is None or unit.name.rpartition(".")[2] not in names.raised:
                continue
            if score == 0:
                continue  # the same exception raised for another reason
            score += 3.0
        elif unit.section in _ENTRIES and unit.name is not None:
            if unit.name not in names.whole:
                continue  # an argument this check does not test
            score += 1.0
            # an entry that shares nothing with the check but its argument's name, and
            # whose every reason ties the argument to a name the check does not test,
            # speaks of another check of it ("must be even and <= head_dim" over a sum's)
            others = _stems(_parts(text) - _parts(unit.name))
            reasons = [x for x in _sentences(text) if states_reason(x)]
            elsewhere = not others & _stems(names.tested | names.said) and all(
                _names_other(x, names, unit.name) for x in reasons
            )
        elif any(whole_word(text, n) for n in names.raised):
            score += 1.0  # a paragraph that says when the function raises this exception
            # (a failure it states in whatever words, "... will throw a ValueError", when
            # the quote, cut to its length, still names it)
            named = any(whole_word(_cut(text) or "", n) for n in names.raised)
        elif _RAISES.match(text):
            score += 0.5  # one that says when it raises (an exception it no longer raises)
        elif "NotImplementedError" in names.raised and _TO_OVERRIDE.search(text):
            # a method left for subclasses to write: "This must be implemented by subclasses";
            # over a raise that nothing guards (the whole body of a method left to them),
            # that is its why by itself, whatever words it shares with the check
            score += 1.0 if names.tested else _KEEP
        where = _unit_label(label, unit)
        summary = of is None and index == 0 and unit.section is None
        if summary and score < _KEEP and _states_check(unit.text, names):
            # of a function of several checks, one that shares no word with this one's
            # test (a word of the message alone is not enough), or only words another check
            # tests too, speaks of another ("Reject rank counts or destination meshes that
            # cannot form a group" shares "rank" with `if self.rank != 0`, and with
            # `if not 0 <= self.rank < self.num_trainer_ranks` as much)
            shared = _parts(text) & names.tested
            if _checks_in(facts, lines) > 1 and not shared - _others_tested(facts, lines):
                continue
            # the function is a check, and its summary says what it holds the input to:
            # every check of it is that one's; shown when nothing speaks of it more directly
            out += _candidate(text, where, file, unit.line, _KEEP, 5)
            continue
        # what a thing is or does ("The input tensor to quantize") is no reason
        out += _candidate(text, where, file, unit.line, score, 1, not (raises or named))
        out[-1].shown = out[-1].shown and not elsewhere  # it holds its rank
    return out


_CHECK_LINE = re.compile(r"^\s*(?:raise|assert)\b")


def _site_span(facts: Facts) -> tuple[int, int] | None:
    """The lines of the site's function (`function_span`'s)."""
    site = facts.stored.site
    return function_span(facts.source_text, site.function.rpartition(".")[2], site.line)


def _checks_in(facts: Facts, lines: Sequence[str]) -> int:
    """The `raise` and `assert` statements of the site's function, by its lines."""
    span = _site_span(facts)
    if span is None:
        return 0
    return sum(1 for x in lines[span[0] : span[1]] if _CHECK_LINE.match(x))


_TEST_LINE = re.compile(r"^\s*(?:if|elif|assert|while)\b")


def _others_tested(facts: Facts, lines: Sequence[str]) -> set[str]:
    """The word parts the site function's other conditions test: each `if`, `elif`,
    `assert` or `while` of it but the check's own, to the line that ends it."""
    site = facts.stored.site
    span = _site_span(facts)
    if span is None:
        return set()
    own = {c.line for c in own_conditions(facts)} | set(range(site.line, site.end_line + 1))
    out: set[str] = set()
    at = span[0]
    while at < min(span[1], len(lines)):
        if not _TEST_LINE.match(lines[at]):
            at += 1
            continue
        first, text = at, [lines[at]]
        # an `if` to its colon (an `assert`: its first line)
        read_on = not lines[first].lstrip().startswith("assert")
        while read_on and at - first < 8 and at + 1 < span[1]:
            if lines[at].rstrip().endswith(":"):
                break
            at += 1
            text.append(lines[at])
        if not own & set(range(first + 1, at + 2)):
            out |= _parts(" ".join(text))
        at += 1
    return out


def _states_check(summary: str, names: _Names) -> bool:
    """Whether a docstring's summary says what its function checks: it starts with the
    verb of a check and says on what condition in its first clause ("Reject a host pool
    that cannot fit in RAM", "Fail unless ..."). A "Check if/whether" summary is most often
    a predicate's (it returns what it finds): only one that says the function raises. One
    that names an exception names this check's ("Raise the `HTTPStatusError` if one
    occurred" is not why `RuntimeError` is raised when no request is set). ("Ensure that
    all workers are terminated" is most often what the function does, not a check.)"""
    found = _CHECKING.match(summary)
    if found is None or "NotImplementedError" in names.raised:
        return False  # a method left to subclasses: the summary is of what they do
    if any(e not in names.raised for e in _EXCEPTION_NAME.findall(summary)):
        return False
    if found.group(0).startswith("Check") and _FAILS.search(summary) is None:
        return False
    clause = _CLAUSE_END.split(summary[found.end() :], 1)[0]
    return _CONDITION.search(clause) is not None


def _returned_none(facts: Facts, lines: Sequence[str]) -> list[_Candidate]:
    """When a condition of the check tests a local for `None` and the local holds what a
    function of the same file returns (`out = self._run_graph(...)` over `assert out is
    not None`), the sentence of that function's `Returns` section that says when it returns
    None ("Encoder outputs, or None if graph not captured.")."""
    out: list[_Candidate] = []
    locals_ = {b.name: b for b in facts.bindings if b.origin == "local"}
    seen: set[str] = set()
    site = facts.stored.site
    for condition in own_conditions(facts):
        # the check's own test: on its line, or the `if` right above it
        if condition.line != site.line and statements_between(lines, condition.line, site.line, 0):
            continue
        tested = _NONE_TEST.match(condition.text)
        binding = locals_.get(tested.group(1)) if tested else None
        called = _CALLED.match(binding.value) if binding is not None else None
        if called is None or called.group(1) in seen:
            continue
        name = called.group(1)
        seen.add(name)
        header = rf"[ \t]*(?:async[ \t]+)?def[ \t]+{re.escape(name)}\("
        defs = list(at_margin(header, facts.source_text or ""))
        if len(defs) != 1:
            continue  # none in the file, or one of several: not surely the one called
        for unit in docstring_units(lines, defs[0][0], returns=True):
            if unit.section not in ("returns", "return"):
                continue
            said = [x for x in _sentences(unit.text) if _WHEN_NONE.search(x)]
            if len(said) == 1:
                # the least score a quote needs: it shows when nothing speaks of the check
                # more directly, never after another quote
                of = f"docstring of {code(name)}, Returns"
                out += _candidate(said[0], of, facts.stored.file, unit.line, _KEEP, 1)
    return out


def _focus(text: str, names: _Names) -> str:
    """A paragraph of more than two sentences cut to the (at most two) that share the most
    names with the check, as written, a gap between two of them marked `…`; the paragraph
    itself when none shares any."""
    # a list's numbers ("1. If ... 2.") are no words of a sentence
    # a numbered list's numbers ("1. If ... 2. If ...") are no words of a sentence
    numbered = _FIRST_ITEM.search(text) is not None and _SECOND_ITEM.search(text) is not None
    split = (_unnumbered(x) if numbered else x for x in _sentences(text))
    sentences = [x for x in split if re.search(r"[A-Za-z]{2}", x)]
    if len(sentences) <= 2:
        return text
    scores = [_score(x, names) for x in sentences]
    best = sorted(range(len(sentences)), key=lambda i: (-scores[i], i))[:2]
    chosen = sorted(i for i in best if scores[i] > 0)
    if not chosen:
        return text
    out = sentences[chosen[0]]
    for before, at in pairwise(chosen):
        out += (" " if at == before + 1 else " … ") + sentences[at]
    # two that do not fit in a quote: the one that speaks of the check the most, whole
    return out if len(out) <= _MAX_QUOTE else sentences[best[0]]


def _unnumbered(sentence: str) -> str:
    """A sentence of a numbered list less its own number ("1. If ...") and the next item's
    glued to its end ("... 2.")."""
    return _TRAILING_NUMBER.sub("", _LEADING_NUMBER.sub("", sentence))


def _sentences(text: str) -> list[str]:
    """A text's sentences; an abbreviation's dot (`e.g.`, `i.e.`) ends none."""
    out: list[str] = []
    for piece in _SENTENCE_END.split(text):
        if out and _ABBREVIATION.search(out[-1]):
            out[-1] += " " + piece
        else:
            out.append(piece)
    return out


def _unit_label(label: str, unit: DocUnit) -> str:
    if unit.section is None:
        return label
    section = _SECTIONS.get(unit.section, unit.section.title())
    named = f" {code(unit.name)}" if unit.name else ""
    return f"{label}, {section}{named}"


def _logged(facts: Facts, lines: Sequence[str], start: int, names: _Names) -> list[_Candidate]:
    """The messages logged or warned on the way to the check, in its own block."""
    out: list[_Candidate] = []
    for text, line in logged_beside(lines, facts.stored.site.line, start + 1):
        # logged on the way to the check, in its own block: what happens instead, or before
        # (not the message itself logged first)
        parts = _parts(text)
        if len(parts & names.said) < 0.7 * len(parts):
            score = _score(text, names) + 1.0
            out += _candidate(text, "logged beside the check", facts.stored.file, line, score, 2)
    return out


def _constants(facts: Facts, names: _Names) -> list[_Candidate]:
    """The docs of the constants the conditions test: what the tested values are for; and
    the comment over a local the function sets to a literal (`max_retries = 5` under "We
    retry max_retries times before giving up"), a constant of its own."""
    out: list[_Candidate] = []
    for binding in facts.bindings:
        if binding.origin == "local":
            out += _local_constant(facts, binding, names)
            continue
        if binding.origin != "constant":
            continue
        line = facts.constant_lines.get(binding.name, binding.line or 0)
        doc = _whole(binding.doc) or _comment_of(facts, binding, line, names)
        if not doc:
            continue
        # a constant this check tests says what the value it is held to is for
        tested = 1.0 if binding.name.rpartition(".")[2] in names.whole else 0.0
        score = _score(doc, names) + tested
        out += _candidate(doc, f"doc of {code(binding.name)}", binding.file, line, score, 3)
    return out


def _fields(facts: Facts, names: _Names) -> list[_Candidate]:
    """The docstrings of the fields of `self` the check's own conditions test, where one
    speaks of the check beyond the field's own name (a word of another name it tests, or
    two of its message) and states a reason; none a setting's doc already is (a flag
    declared by that field)."""
    texts = [t for c in own_conditions(facts) for t in (c.text, c.test)]
    docs = [d for d in (_plain(k.doc or "") for k in facts.knobs) if d]
    out: list[_Candidate] = []
    attrs = self_reads(texts)
    # the words of every field the conditions test: a message that lists the fields it
    # refuses ("logit_bias, bad_words, and allowed_token_ids ...") shares them with each
    # field's doc, which says what that field does, not why it is refused
    own = {p for a in attrs for p in _parts(a)}
    for attr, doc, line in field_docs(facts, attrs):
        less = replace(
            names, tested=names.tested - own, said=names.said - own, whole=names.whole - {attr}
        )
        # the paragraph whole when it fits: a field's doc is short, and its limit is often
        # a sentence of a few words ("Must be <= max_pattern_size.")
        text = doc if len(doc) <= _MAX_QUOTE else _focus(doc, less)
        plain = _plain(text)
        whole = _plain(doc)
        if any(d[:80] in whole or plain[:80] in d for d in docs) or not _ties(text, less):
            continue
        # a field this check tests says what the value it is held to is for
        score = _score(text, names) + 1.0
        of = f"doc of the field {code(attr)}"
        found = _candidate(text, of, facts.stored.file, line, score, 3, True)
        out += [c for c in found if c.shown]  # one not shown holds no rank here
    return out


def _ties(text: str, less: _Names) -> bool:
    """Whether a field's doc speaks of this check, not only of its field: it writes as a
    name another name the conditions test ("Mutually exclusive with `features`"), or
    shares two words with the message ("rank-zero TCPStore" over "only trainer rank zero
    may reserve the TCPStore"), neither in a quoted value. One shared word is most often
    another use of the field ("logits processor" beside `logit_bias`), and a Sphinx role
    (":class:`Mapper`") no word of it."""
    text = _ROLE.sub("`", text)
    marked = set(_MARKED.findall(text))
    named = {
        w
        for w in _idents(text)
        if w in less.whole and ("_" in w or not (w.islower() or w.isupper()) or w in marked)
    }
    # a value written in quotes ("Use "auto", "xgrammar", or "guidance" instead.") is one
    # of the choices, not a word on why: a message listing them too shares no reason
    words = _parts(_QUOTED_VALUE.sub(" ", text))
    return bool(named) or len(words & less.said) >= 2


def _local_constant(facts: Facts, binding: BindingView, names: _Names) -> list[_Candidate]:
    """The comment block right above (or at the end of) the line that sets a local the
    conditions test to a literal."""
    line = binding.line or 0
    if binding.name not in names.whole or not _literal(binding.value):
        return []
    if binding.file != facts.stored.file or facts.source_text is None:
        return []
    lines = lines_of(facts.source_text)
    if not 1 <= line <= len(lines):
        return []
    top = line
    while top > 1 and lines[top - 2].strip().startswith("#"):
        top -= 1
    words = " ".join(x.strip().lstrip("#").strip() for x in lines[top - 1 : line - 1])
    text = _words(words, names) if words.strip() else _comment_of(facts, binding, line, names)
    if not text:
        return []
    score = _score(text, names) + 1.0  # the value the check holds the input to
    return _candidate(text, f"comment on {code(binding.name)}", binding.file, top, score, 3)


def _literal(value: str) -> bool:
    """Whether a local's value is a number, a text or a tuple of them (`5`, `"utf-8"`,
    `(1, 2)`): a constant of the function. An empty container or `None` is a start the
    function fills in, and a comment over it tells what it collects."""
    try:
        found = ast.literal_eval(value)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False
    items = found if isinstance(found, tuple) else (found,)
    kinds = (int, float, str)
    return bool(items) and all(isinstance(x, kinds) and not isinstance(x, bool) for x in items)


def _comment_of(facts: Facts, binding: BindingView, line: int, names: _Names) -> str | None:
    """The comment at the end of the line that assigns a constant of the site's own file
    (`MAX_LANES = 8  # the kernel reads eight lanes at once`)."""
    if binding.file != facts.stored.file or facts.source_text is None or line < 1:
        return None
    lines = lines_of(facts.source_text)
    if line > len(lines) or "#" not in lines[line - 1]:
        return None
    # its own line only: a comment inside a tuple over several lines is of one member
    found = trailing_comments([lines[line - 1]], 1, first=True)
    return _words(" ".join(t for t, _ in found), names) if found else None


def _settings(facts: Facts, names: _Names) -> list[_Candidate]:
    """What the settings the solutions turn (or else those the site's own conditions name)
    are documented as, and what the code logs where one takes effect."""
    # a way out that turns off the code the check is in says nothing of why it is there
    off = loaded_texts(facts.stored)
    turning = [s for s in solutions(facts) if s.knob and s.text not in off]
    turned = [s.knob for s in turning if s.knob]
    settings = [k for k in facts.knobs if k.kind in (KnobKind.ENV, KnobKind.FLAG)]
    # the settings a solution turns, when any of them says something; else those that
    # decide a condition of the site itself: a setting only a caller's guard reads says
    # nothing of why this check is here
    chosen = [k for k in settings if k.name in turned and (k.doc or k.note)]
    if chosen:
        # the keys of one JSON flag are knobs of one name: the key a solution's condition
        # tests is the one it turns, and its doc goes before another key's (the method the
        # fix keeps is no reason for the check)
        settings = sorted(
            chosen,
            key=lambda k: (turned.index(k.name), not any(_turns_key(s, k) for s in turning)),
        )
    else:
        settings = [k for k in settings if _decides_site(k, facts)]
    out: list[_Candidate] = []
    seen: set[str] = set()
    for knob in settings:
        if knob.name in seen or not (knob.doc or knob.note):
            continue
        seen.add(knob.name)
        doc = _whole(knob.doc)
        # a setting a solution turns says what the user will change
        bonus = 1.25 if knob.name in turned else 0.5
        if doc and knob.file:
            # a variable's doc is the comment above its read; a flag's is its config
            # field's, written elsewhere: the page points at where the flag is declared
            at = "" if knob.kind == KnobKind.ENV else ", as the flag declared here takes it"
            of = f"doc of {_setting_label(knob)}{at}"
            # it shares the setting's own names with the check by being that setting:
            # those do not count
            less = _less(names, knob)
            # a check of the setting together with a test of something else (a backend
            # it does not work with) is explained by a doc that speaks of that, not by one
            # of the setting alone ("Async scheduling helps to avoid gaps" over the
            # backend it corrupts): that one holds its rank
            alone = _with_other(knob, facts) and not _score(doc, replace(less, said=set()))
            # a help that only says what the setting is ("The format of the weights to
            # load") gives no reason for this check
            score = _score(doc, names if knob.name in turned else less) + bonus
            out += _candidate(doc, of, knob.file, knob.line or 0, score, 4, True)
            out[-1].shown = out[-1].shown and not alone
        where = _assignment(knob)
        if (
            knob.note
            and knob.name in turned
            and where is not None
            and not has_placeholder(knob.note)
        ):
            of = f"logged where {code(knob.name)} takes effect"
            score = _score(knob.note, names) + 2.0
            out += _candidate(knob.note, of, where[0], where[1], score, 4)
    return out


def _turns_key(solution: Solution, knob: Knob) -> bool:
    """Whether the solution turns the key behind `knob` (a JSON flag's key): its condition
    tests what the key sets (`not self.use_heterogeneous_vocab`)."""
    if solution.knob != knob.name or not knob.json_key or not knob.behind:
        return False
    return (
        re.search(rf"(?<![\w.]){re.escape(knob.behind)}(?!\w)", solution.condition or "")
        is not None
    )


def _whole(doc: str | None) -> str | None:
    """A doc read at extraction, less the sentence its cut at `MAX_DOC` characters ends
    inside ("... requires FlashInfer. With pref"); None when its first sentence is cut."""
    if doc is None or len(doc) < MAX_DOC:
        return doc
    return whole_sentences(doc, len(doc) - 1)


def _less(names: _Names, knob: Knob) -> _Names:
    """The check's names less the setting's own (its flag's or variable's, the field's)."""
    own = _parts(knob.name) | _parts(knob.behind or "") | _parts(knob.json_key or "")
    return _Names(
        tested=names.tested - own,
        said=names.said - own,
        whole={w for w in names.whole if not _parts(w) <= own},
        raised=names.raised,
    )


def _setting_label(knob: Knob) -> str:
    # a field the message names is documented as that field, not as its flag
    label = knob.behind if knob.via == NAMED_IN_MESSAGE and knob.behind else knob.name
    # a configuration class's own key is documented as that key
    own = knob.json_key if own_key(knob.json_key, knob.via) else None
    return f"{code(own)} in {code(label)}" if own else code(label)


def _assignment(knob: Knob) -> tuple[str, int] | None:
    """Where a setting's assignment elsewhere is (`path:line sets ...` of its `via`)."""
    match = re.match(r"(\S+\.py):(\d+) sets ", knob.via or "") if knob.sets else None
    return (match.group(1), int(match.group(2))) if match else None


def _with_other(knob: Knob, facts: Facts) -> bool:
    """Whether the check's own conditions test something besides the setting: a condition,
    or a part of one joined by `and`, that reads neither the setting nor a local that holds
    it (`uses_deepep_dbo` beside `async_scheduling`). Not when a value is held to the
    setting as a bound (`num > max_logprobs`): the setting is the limit the check is of.
    Nor for a setting the message names ("x requires the fast top-k extension"): the check
    is of what it asks for, which its doc may say."""
    if knob.behind is None or knob.via == NAMED_IN_MESSAGE:
        return False
    carriers = [knob.behind]
    carriers += [
        b.name for b in facts.bindings if b.origin == "local" and _reads(b.value, knob.behind)
    ]
    parts = [p for c in own_conditions(facts) for p in _AND.split(c.text)]
    reading = [any(_reads(p, name) for name in carriers) for p in parts]
    # a value held to the setting as a bound (`num > max_logprobs`): its doc is the limit's
    if any(r and _ORDER.search(p) for p, r in zip(parts, reading, strict=True)):
        return False
    return not all(reading)


def _reads(text: str, name: str) -> bool:
    """Whether `text` reads `name` as a whole: `self.x` is not in `self.x_size`, nor `x`
    in `self.x`."""
    return reads_name(text, name)


def _decides_site(knob: Knob, facts: Facts) -> bool:
    """Whether the setting decides a condition of the site itself (or of a variant of it,
    the same error raised elsewhere, or a local the conditions test), or the site's
    message names it."""
    if knob.via == NAMED_IN_MESSAGE:
        return True
    if knob.behind is None:
        return False
    # a guard that is a check of its own (an early exit, one whose other branch fails too)
    # is no part of why this one is here
    texts = [
        c.text
        for c in facts.conditions
        if c.kind != ConditionKind.EARLY_EXIT and not facts.read.other_branch_fails(c.line, c.holds)
    ]
    texts.extend(c.text for v in facts.variants for c in v.conditions)
    # a local the conditions test holds what it reads (`kv_dtype = config.attention_config
    # .resolve(...)`)
    texts.extend(b.value for b in facts.bindings if b.origin == "local")
    return any(_reads(t, knob.behind) for t in texts)


def _is_code(text: str) -> bool:
    """A commented-out line of code rather than words (`x = f(y)`, `return None`), or a
    branch's label written as code (`self.system == ColorSystem.EIGHT_BIT`)."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return False
    return any(
        isinstance(s, _CODE) or (isinstance(s, ast.Expr) and isinstance(s.value, _EXPRESSIONS))
        for s in tree.body
    )


def constant_lines(
    store: Store, stored: StoredSite, bindings: list[BindingView], text: str | None
) -> dict[str, int]:
    """A documented constant the conditions test → the line of its file that assigns it
    (the site's file is `text`; another is read from the store)."""
    out: dict[str, int] = {}
    texts: dict[str, str | None] = {stored.file: text}
    for binding in bindings:
        if binding.origin != "constant" or binding.line:
            continue
        if not binding.doc and binding.file != stored.file:
            continue  # an undocumented constant's own comment is read in the site's file only
        if binding.file not in texts:
            texts[binding.file] = store.file_text(stored.version_id, binding.file)
        name = binding.name.rpartition(".")[2]
        assigned = rf"{re.escape(name)}\s*(?::[^=\n]*)?=(?!=)"
        found = next(at_margin(assigned, texts[binding.file] or ""), None)
        if found is not None:
            out[binding.name] = found[0] + 1
    return out


def _plain(text: str) -> str:
    """A text's words, lower case, one space apart: what two texts share is compared so."""
    return " ".join(re.findall(r"\w+", text.lower()))


def _candidate(
    text: str, of: str, file: str, line: int, score: float, order: int, reason: bool = False
) -> list[_Candidate]:
    """The quote of `text` as a candidate; not shown when it cannot be quoted whole, or,
    when it must give a `reason`, its quoted sentences give none."""
    cut = _cut(text)
    shown = cut is not None and (not reason or states_reason(cut))
    quote = WhyQuote(text=cut or text, of=of, file=file, line=line)
    return [_Candidate(quote, score, order, shown=shown)]


def _cut(text: str) -> str | None:
    """At most `_MAX_QUOTE` characters, cut after a sentence; None when the first sentence
    does not end in time or the text ends on a `:` that introduces what it leaves out."""
    return whole_sentences(" ".join(_RULE_RUN.sub(" ", text).split()), _MAX_QUOTE)
