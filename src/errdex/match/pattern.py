"""Message templates compiled to linear-time matchers; the literal words of a pasted message."""

from __future__ import annotations

import bisect
import functools
import re
from itertools import accumulate

import msgspec

from errdex.facts import MessageTemplate, Placeholder
from errdex.lazy_re import lazy_compile

__all__ = ["CompiledTemplate", "TemplateMatch", "compile_template", "literal_runs", "text_score"]


class TemplateMatch(msgspec.Struct, frozen=True):
    """How a message matched a template."""

    score: float  # 0..1: 1.0 only for an exact full match
    values: dict[str, str]  # placeholder expression → the text it held
    covered: float  # share of the message's (non-blank) characters explained by literal text
    literal: int = 0  # how many (non-blank) characters of the message are literal text
    whole: bool = False  # the template spans the message from its start to its end
    fragment: bool = False  # the message is a piece from inside the template


# Quote styles a paste or a renderer may swap: all compare equal.
_QUOTES = str.maketrans({'"': "'", "`": "'", "‘": "'", "’": "'", "“": "'", "”": "'", "´": "'"})
_BLOCK = 4096  # `_Text.orig` counts non-blank characters block by block
_MAX_RETRIES = 256  # occurrences of one literal tried before giving up (bounds adversarial input)
_MAX_STARTS = 8  # where a wrapped message may begin: first-literal occurrences tried
_MIN_FRAGMENT_WORDS = 3
_FRAGMENT = 0.6  # a piece of a template: below any reading of the message from its start
_WORDS = lazy_compile(r"\w+")
_MAX_SKIPPED = 2  # leading words of a piece that may be left unread (a value, a cut word)
_SKIPPED = 0.9  # the score kept per word left unread
_EMPTY_VALUE = 0.97  # the score kept by a full reading that leaves a placeholder empty
# A value's shape by the type its format names (`{n:d}`, `%d`, `{x:.2f}`, `{h:x}`): a message
# shows such a value there in that shape, so a reading that puts other text there is less
# likely (`placeholder 'foo'` is no `{idx + 1:d}`), though a value read a word too wide is
# not impossible: a share of the score, enough to tell two texts otherwise alike apart.
_INTEGER = lazy_compile(r"[-+ ]?\d[\d,_]*")
_FLOAT = lazy_compile(
    r"[-+ ]?(?:\d[\d,_]*(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?%?|[-+]?(?:inf|nan)", re.IGNORECASE
)
_FORMATTED = {
    "d": _INTEGER,
    "n": _INTEGER,
    **dict.fromkeys("eEfFgG%", _FLOAT),
    **dict.fromkeys("xX", re.compile(r"[-+ ]?(?:0[xX])?[0-9a-fA-F_]+")),
    "o": re.compile(r"[-+ ]?(?:0o)?[0-7_]+"),
    "b": re.compile(r"[-+ ]?(?:0b)?[01_]+"),
}
_MISFIT = 0.97
# ... and the template's text the rest must hold: a short run (`is not a valid`, `does not
# exist`) is in too many messages to tell once the words before it are not read.
_MIN_UNREAD_LITERAL = 20


class _Text:
    """Text reduced for comparison (blank runs → one space, or none; quotes unified), with the
    way back to offsets in the original, worked out only when a match needs it."""

    __slots__ = ("_blocks", "compact", "norm", "original", "total")

    def __init__(self, original: str, compact: bool) -> None:
        self.original, self.compact = original, compact
        self.norm = ("" if compact else " ").join(original.split()).translate(_QUOTES)
        self._blocks: list[int] | None = None  # non-blank characters before each 4 KiB block
        self.total = self.solid(0, len(self.norm))

    def orig(self, k: int) -> int:
        """The original offset of the non-blank character at norm offset `k` (or after it)."""
        left = self.solid(0, k)
        if self._blocks is None:
            chunks = (self.original[i : i + _BLOCK] for i in range(0, len(self.original), _BLOCK))
            counts = (len("".join(chunk.split())) for chunk in chunks)
            self._blocks = list(accumulate(counts, initial=0))
        block = max(0, min(bisect.bisect_right(self._blocks, left), len(self._blocks) - 1) - 1)
        left -= self._blocks[block]
        for j in range(block * _BLOCK, len(self.original)):
            if not self.original[j].isspace():
                if not left:
                    return j
                left -= 1
        return len(self.original)

    def solid(self, k: int, e: int) -> int:
        """How many non-blank characters norm[k:e] holds."""
        return e - k if self.compact else e - k - self.norm.count(" ", k, e)


@functools.lru_cache(maxsize=64)
def _reduce(text: str, compact: bool) -> _Text:
    return _Text(text, compact)


class _Lit(msgspec.Struct, frozen=True):
    """One literal part: its reduced text and whether blanks surrounded it in the template."""

    core: str
    compact: str
    lead: bool  # blank before it: the message needs a word boundary there too
    trail: bool


class _Slot(msgspec.Struct, frozen=True):
    placeholder: Placeholder
    spaced: bool  # only blanks separate it from the placeholder before it


def _word(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


class CompiledTemplate:
    """A template as literal segments and the placeholders between them, matched without regex.

    Literals are found in order with `str.find` (leftmost, so placeholders are lazy; the last
    literal of a full match sits at the end): a few passes over the message, never the
    exponential backtracking a regex with many `.*?` groups can fall into.
    """

    def __init__(self, template: MessageTemplate) -> None:
        self.template = template
        self.lits: list[_Lit] = []
        self.gaps: list[list[_Slot]] = []  # gaps[i]: placeholders before lits[i]; one more after
        pending: list[_Slot] = []
        blank = False  # a blank-only literal since the last part
        for part in template.parts:
            if isinstance(part, Placeholder):
                pending.append(_Slot(part, blank))
                blank = False
                continue
            core = " ".join(part.split()).translate(_QUOTES)
            if not core:
                blank = blank or bool(part)
                continue
            lead, trail = part[:1].isspace() or blank, part[-1:].isspace()
            if self.lits and not pending:  # adjacent literals: one segment
                prev = self.lits.pop()
                core = prev.core + (" " if prev.trail or lead else "") + core
                lead = prev.lead
            else:
                self.gaps.append(pending)
            self.lits.append(_Lit(core, core.replace(" ", ""), lead, trail))
            pending, blank = [], False
        self.gaps.append(pending)
        self.literal_chars = sum(len(x.compact) for x in self.lits)
        # The placeholders whose format says the shape of their value (not of a repr).
        self.formats = tuple(
            (p.expr, shape)
            for p in template.placeholders
            if p.spec and p.conversion is None and (shape := _FORMATTED.get(p.spec[-1]))
        )
        # The words of its text: where a piece may start once the words before it are not read.
        self.words = frozenset(w for x in self.lits for w in _WORDS.findall(x.core))

    def match(self, message: str, *, truncated: bool = False) -> TemplateMatch | None:
        """Match `message` against the template; None when its literal text is not all there.

        A full match scores highest; `truncated` lets the message be a prefix of the template;
        a message an application wrapped (`Failed: <template> (retrying)`) matches as a
        substring, scored lower. When blanks break words apart (a terminal wrapped the paste
        mid-word) a second pass ignores blanks altogether, scored lower again.
        """
        for compact in (False, True):
            if compact and self.literal_chars < 8:
                break  # without blanks, short literals match almost anywhere
            text = _reduce(message, compact)
            if not text.norm:
                return None
            for mode in ("full", "prefix", "substring"):
                if mode == "prefix" and not truncated:
                    continue
                if mode == "substring" and not (self._edge_literal() and self.lits):
                    continue
                found = self._place(text, mode, truncated)
                if found is not None:
                    return self._result(text, message, found, mode, compact)
        return None

    def fragment(self, message: str) -> TemplateMatch | None:
        """Match `message` as a piece from inside the template: it starts within a literal
        (not at the template's start, which `match` reads) at a word's start, and runs on
        through the placeholders and literals after it, possibly ending mid-way.

        A piece of at least three words: fewer appear in too many messages to tell. Scored
        below any full reading of the same length, the more so the less of the template
        it holds. A piece copied from anywhere may begin inside a value (`4.26 GiB KV cache
        is needed`) or mid-word (`ger than the available`): up to two leading words that are
        no word of the template's text are left unread, each costing a share of the score.
        """
        found = self._fragment_from(message)
        if found is not None or self.literal_chars < _MIN_UNREAD_LITERAL:
            return found  # (too little text of its own to be read after unread words)
        rest = message
        for skipped in range(1, _MAX_SKIPPED + 1):
            if found is not None and (skipped == 1 or found.literal >= _MIN_UNREAD_LITERAL):
                return found if skipped == 1 else _unread(found, skipped - 1, message)
            words = rest.split(None, 1)
            # (Split no further than the count needs: a pasted log line may be long.)
            after = words[1].split(None, _MIN_FRAGMENT_WORDS - 1) if len(words) > 1 else []
            if len(after) < _MIN_FRAGMENT_WORDS:
                return None
            head = _reduce(words[0], False).norm
            if any(_word_starts(lit.core, head, skip_first=False) for lit in self.lits):
                return None  # a word of the template's own: read where it stands, or not at all
            rest = words[1]
            start = _WORDS.match(rest)
            if start is not None and start[0] not in self.words:
                continue  # the next word is no word of the template's either
            found = self._fragment_from(rest) or self._started(rest)
        if found is None or found.literal < _MIN_UNREAD_LITERAL:
            return None
        return _unread(found, _MAX_SKIPPED, message)

    def _started(self, message: str) -> TemplateMatch | None:
        """`message` as the template's start, possibly cut short, scored as a piece: what is
        left after words of other text (`Qwen3-VL-8B No available memory for the ...`)."""
        if self.gaps[0]:
            return None  # a template opening with a value reads any words before it
        head, first = _first_word(_reduce(message, False).norm), self.lits[0].core
        if not (first.startswith(head) or head.startswith(first)):
            return None
        found = self.match(message, truncated=True)
        if found is None:
            return None
        share = found.literal / max(self.literal_chars, 1)
        score = found.score * _FRAGMENT * (0.6 + 0.4 * min(1.0, share))
        return msgspec.structs.replace(found, score=round(score, 4), whole=False, fragment=True)

    def _fragment_from(self, message: str) -> TemplateMatch | None:
        """`fragment`, with the piece's first word starting a word of a literal."""
        text = _reduce(message, False)
        hay = text.norm
        if hay.count(" ") + 1 < _MIN_FRAGMENT_WORDS or not self.lits:  # (blanks are single)
            return None
        head = _first_word(hay)
        for i, lit in enumerate(self.lits):
            core = lit.core
            for start in _word_starts(core, head, skip_first=i == 0 and not self.gaps[0]):
                piece = core[start:]
                if len(hay) <= len(piece):  # wholly inside this literal (it may end mid-word)
                    if piece.startswith(hay):
                        return self._fragment_result(text, message, [(0, len(hay))], i, start)
                    continue
                if not self.gaps[i + 1] or not hay.startswith(piece):
                    continue  # (after the template's last literal, nothing may follow)
                tail = self._tail(i, piece)
                spans = tail._place(text, "prefix", True)
                if spans is not None:
                    return tail._fragment_result(text, message, spans, 0, 0, whole=self)
        return None

    def _tail(self, i: int, piece: str) -> CompiledTemplate:
        """The template from `piece` (the end of literal i) on."""
        tail = object.__new__(CompiledTemplate)
        tail.template = self.template
        tail.lits = [_Lit(piece, piece.replace(" ", ""), False, self.lits[i].trail)]
        tail.lits += self.lits[i + 1 :]
        tail.gaps = [[], *self.gaps[i + 1 :]]
        tail.literal_chars = sum(len(x.compact) for x in tail.lits)
        tail.words = self.words
        tail.formats = self.formats
        return tail

    def _fragment_result(
        self,
        text: _Text,
        message: str,
        spans: list[tuple[int, int]],
        i: int,
        start: int,
        whole: CompiledTemplate | None = None,
    ) -> TemplateMatch:
        found = self._result(text, message, spans, "prefix", False)
        if i or start:  # wholly inside literal i: no placeholder was read
            found = msgspec.structs.replace(found, values={})
        share = found.literal / max((whole or self).literal_chars, 1)
        score = found.score * _FRAGMENT * (0.6 + 0.4 * min(1.0, share))
        return msgspec.structs.replace(found, score=round(score, 4), whole=False, fragment=True)

    def _edge_literal(self) -> bool:
        """True when a literal starts or ends the template (else a substring is a full match)."""
        return not self.gaps[0] or not self.gaps[-1]

    def _find(self, text: _Text, lit: _Lit, lo: int) -> tuple[int, int] | None:
        """The leftmost occurrence of `lit` at or after `lo`, respecting word boundaries."""
        hay, core = text.norm, lit.compact if text.compact else lit.core
        for _ in range(_MAX_RETRIES):
            k = hay.find(core, lo)
            if k < 0:
                return None
            if text.compact or self._bounded(hay, k, k + len(core), lit):
                return k, k + len(core)
            lo = k + 1
        return None

    @staticmethod
    def _bounded(hay: str, k: int, e: int, lit: _Lit) -> bool:
        if lit.lead and 0 < k < len(hay) and _word(hay[k - 1]) and _word(hay[k]):
            return False
        return not (lit.trail and 0 < e < len(hay) and _word(hay[e]) and _word(hay[e - 1]))

    def _place(self, text: _Text, mode: str, truncated: bool) -> list[tuple[int, int]] | None:
        """Spans of the literals in `text.norm` (the last may be a partial one), or None."""
        hay, n = text.norm, len(text.norm)
        if not self.lits:
            return []
        cut = mode == "prefix" or (mode == "substring" and truncated)  # may end mid-template
        firsts: list[tuple[int, int] | None] = [None]  # None: placed like any other literal
        if mode == "substring":
            firsts, lo = [], 0
            while len(firsts) < _MAX_STARTS and (hit := self._find(text, self.lits[0], lo)):
                firsts.append(hit)
                lo = hit[0] + 1
        elif not self.gaps[0]:  # the template starts with literal text: so must the message
            lit = self.lits[0]
            core = lit.compact if text.compact else lit.core
            dropped = core[:-1] if mode == "full" and len(self.lits) == 1 else core
            want = core if hay.startswith(core) or core[-1] not in ".!" else dropped
            if hay.startswith(want) and (text.compact or self._bounded(hay, 0, len(want), lit)):
                firsts = [(0, len(want))]
            elif cut and core.startswith(hay):
                return [(0, n)]  # cut short inside the first literal
            else:
                return None
        for first in firsts:
            spans = self._follow(text, first, mode, cut)
            if spans is not None:
                return spans
        return None

    def _follow(
        self, text: _Text, first: tuple[int, int] | None, mode: str, cut: bool
    ) -> list[tuple[int, int]] | None:
        """Place the literals left to right after `first`; the last one of a full or prefix
        match must end the message."""
        hay, n = text.norm, len(text.norm)
        spans = [] if first is None else [first]
        last = len(self.lits) - 1
        for i in range(len(spans), len(self.lits)):
            lit, end, gap = self.lits[i], spans[-1][1] if spans else 0, bool(self.gaps[i])
            core = lit.compact if text.compact else lit.core
            hit: tuple[int, int] | None = None
            if i == last and not self.gaps[-1] and mode != "substring":
                # A final full stop the paste dropped is forgiven (and costs the exact bonus).
                for want in (core, core[:-1] if mode == "full" and core[-1] in ".!" else None):
                    k = n - len(want or "")
                    if (
                        want is not None and k >= end and hay.endswith(want)
                        and (text.compact or not want or self._bounded(hay, k, n, lit))
                    ):  # fmt: skip
                        hit = (k, n)
                        break
            else:
                hit = (self._find(text, lit, end + 1) if gap else None) or self._find(
                    text, lit, end
                )
            if hit is None:
                if not cut:
                    return None
                # The message was cut short before this literal was complete.
                k = _overlap(hay, end, core)
                if k == 0 and not gap:
                    return None
                return [*spans, (n - k, n)] if k else spans
            spans.append(hit)
        if mode != "substring" and not self.gaps[-1] and spans[-1][1] != n:
            return None  # text after the template's last literal: only a substring match
        return spans

    def _result(
        self, text: _Text, message: str, spans: list[tuple[int, int]], mode: str, compact: bool
    ) -> TemplateMatch:
        n = len(text.norm)
        total = max(text.total, 1)
        literal = sum(text.solid(k, e) for k, e in spans)
        values: dict[str, str] = {}
        explained_values = 0
        empty = False  # a placeholder held nothing: `Unknown model` read by `Unknown model{x}`
        for i, gap in enumerate(self.gaps):
            if not gap:
                continue
            k = spans[i - 1][1] if 0 < i <= len(spans) else 0
            e = spans[i][0] if i < len(spans) else n
            if i > len(spans) or e <= k:  # after the cut of a truncated message: held nothing
                empty = True
                _assign(gap, "", values)
                continue
            explained_values += text.solid(k, e)
            filled = _assign(gap, message[text.orig(k) : text.orig(e)].strip(), values)
            empty = empty or not filled
        covered = literal / total
        whole = literal >= self.literal_chars  # no final full stop forgiven
        if mode == "full" and literal == total and whole and not compact and not empty:
            score = 1.0  # exact: every character is literal text of the template
        else:
            score = text_score(literal, explained_values, total, mode)
            score *= (0.9 if compact else 1.0) * (1.0 if whole or mode != "full" else 0.97)
            # A value the reading leaves empty where the whole message was read: another
            # template with one value fewer explains it as well, and with nothing left over
            # (`Not a valid datetime.` by `Not a valid {obj_type}.`, not by `Not a valid
            # {awareness} {obj_type}.` with the second empty).
            score *= _EMPTY_VALUE if empty and mode == "full" else 1.0
        if not self._values_fit(values):
            score *= _MISFIT
        return TemplateMatch(
            round(score, 4), values, round(covered, 4), literal=literal, whole=mode == "full"
        )

    def _values_fit(self, values: dict[str, str]) -> bool:
        """Each value read has the shape its placeholder's format prints (see `_FORMATTED`)."""
        return all(
            shape.fullmatch(value)
            for expr, shape in self.formats
            if (value := values.get(expr, "")) and len(value) <= 200
        )


def _unread(found: TemplateMatch, words: int, message: str) -> TemplateMatch:
    """A piece read after `words` leading words of `message` left unread: a share of its
    score, and of the whole message's text, not only of what was read, explained."""
    total = max(len("".join(message.split())), 1)
    return msgspec.structs.replace(
        found,
        score=round(found.score * _SKIPPED**words, 4),
        covered=round(found.literal / total, 4),
    )


def text_score(literal: int, values: int, total: int, mode: str) -> float:
    """A reading's score from the message's non-blank characters: `literal` of them the
    template's text, `values` held by its placeholders, of `total`; a reading from the
    message's start to its end (`full`) counts most."""
    total = max(total, 1)
    explained = min(1.0, (literal + 0.1 * values) / total)
    confidence = min(1.0, literal / 16)
    return (0.5 * explained + 0.45 * confidence) * _MODE_SHARE[mode]


_MODE_SHARE = {"full": 1.0, "prefix": 0.9, "substring": 0.6}


def _word_starts(core: str, head: str, *, skip_first: bool) -> list[int]:
    """Where `head` (a pasted piece's first word) starts a word of a literal."""
    starts: list[int] = []
    k = core.find(head)
    while k >= 0 and len(starts) < _MAX_RETRIES:
        if k == 0 or not (_word(core[k - 1]) and _word(head[0])):
            starts.append(k)
        k = core.find(head, k + 1)
    return starts[1:] if skip_first and starts[:1] == [0] else starts


def _first_word(norm: str) -> str:
    """The first word of reduced text (`norm.split(" ", 1)[0]`, without copying the rest)."""
    end = norm.find(" ")
    return norm if end < 0 else norm[:end]


def _assign(gap: list[_Slot], raw: str, values: dict[str, str]) -> bool:
    """Share a gap's text among its placeholders, splitting at blanks only where the template
    has blanks between them; a repeated expression keeps its first non-empty value. False
    when a placeholder was left nothing (fewer words than blank-separated placeholders)."""
    pieces = [raw]
    spaced = len(gap) > 1 and all(slot.spaced for slot in gap[1:])
    if spaced:
        pieces = raw.split(None, len(gap) - 1)
    for idx, slot in enumerate(gap):
        value = pieces[idx] if idx < len(pieces) else ""
        quoted = len(value) >= 2 and value[0] == value[-1] and value[0] in "'\""
        if slot.placeholder.conversion == "r" and quoted:
            value = value[1:-1]  # `{name!r}` held a string's repr: its value is what matters
        if not values.get(slot.placeholder.expr):
            values[slot.placeholder.expr] = value
    return bool(raw) and (not spaced or len(pieces) >= len(gap))


def _overlap(hay: str, lo: int, core: str) -> int:
    """The longest k such that `hay` ends with `core[:k]`, within `hay[lo:]` (KMP, linear)."""
    tail = hay[max(lo, len(hay) - len(core)) :]
    if not tail:
        return 0
    joined = core + "\x00" + tail
    fail = [0] * len(joined)
    for i in range(1, len(joined)):
        k = fail[i - 1]
        while k and joined[i] != joined[k]:
            k = fail[k - 1]
        fail[i] = k + 1 if joined[i] == joined[k] else 0
    return fail[-1]


@functools.lru_cache(maxsize=8192)
def compile_template(template: MessageTemplate) -> CompiledTemplate:
    """The compiled matcher of a template, cached (templates are hashable frozen structs)."""
    return CompiledTemplate(template)


# Spans that hold values rather than the template's text: quoted strings, reprs, URLs.
_VALUE_SPANS = lazy_compile(
    r"(?<!\w)['\"`‘“][^'\"`‘’“”\n]{0,200}['\"`’”](?!\w)|<[^<>\n]{0,200}>|\b\w{2,10}://\S{1,2000}"
)
_NUMBER = lazy_compile(r"[-+]?(?:\d[\d_,]*(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?%?|0[xX][0-9a-fA-F]+")
_BREAKS = frozenset(":;,=()[]{}")
_STRIP = "()[]{}<>,;:.!?'\"`‘’“”"


def literal_runs(message: str) -> list[str]:
    """The runs of words in `message` that are likely template text, for full-text search.

    Drops what is most likely a value: numbers, hex and UUIDs, paths and URLs, quoted strings
    and identifiers, `<...>` reprs, long tokens with digits. Runs break at dropped values and
    at punctuation after which a value usually follows (`:`, `,`, `=`, brackets, a full stop).
    """
    return list(_literal_runs(message))


@functools.lru_cache(maxsize=256)
def _literal_runs(message: str) -> tuple[str, ...]:
    """`literal_runs`, kept: one lookup reads the runs of its messages in every round."""
    runs: list[str] = []
    current: list[str] = []

    def flush() -> None:
        run = " ".join(current)
        if run and run not in runs:
            runs.append(run)
        current.clear()

    # The start of a huge message is as good as all of it for a search query.
    for chunk in _VALUE_SPANS.sub(" \x00 ", message[:20_000]).split():
        core = chunk.strip(_STRIP)
        if (
            chunk == "\x00" or not core or "/" in core or "\\" in core or len(core) > 40
            or _NUMBER.fullmatch(core) is not None
            or (len(core) > 6 and any(c.isdigit() for c in core))
        ):  # fmt: skip
            flush()
            continue
        if chunk[0] in _BREAKS:
            flush()
        current.extend(re.findall(r"\w+", core))
        if chunk[-1] in _BREAKS or (chunk[-1] == "." and len(core) > 1):
            flush()
    flush()
    return tuple(runs)
