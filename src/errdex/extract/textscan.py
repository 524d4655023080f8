"""Finding words in source text with `str.find`, which scans far faster than a regex."""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Iterable, Iterator

from errdex.lazy_re import lazy_compile

# A comment or a string literal, read left to right as the tokenizer reads them: whichever
# starts first wins, so a quote in a comment or a `#` in a string starts nothing. Each
# body's alternatives begin with different characters and take runs possessively, so a
# scan is linear, and a few times faster than a character a step (an unterminated
# literal fails once, at the end of the text).
_TOKENS = lazy_compile(
    r"#[^\n]*"
    r'|"""(?:[^"\\]++|\\.|"(?!""))*+"""'
    r"|'''(?:[^'\\]++|\\.|'(?!''))*+'''"
    r'|"(?:[^"\\\n]++|\\.)*+"'
    r"|'(?:[^'\\\n]++|\\.)*+'",
    re.DOTALL,
)


# The text last reversed and its reversal (`reversed_text`).
_REVERSED: tuple[str, str] = ("", "\n")


def reversed_text(text: str) -> str:
    """`text[::-1] + "\n"`, for the scans that read a file backwards (a pattern that starts
    with a literal there, where read forwards it would be tried at every character): made
    once per file for all of them. The newline ends the reversed text's last line (the
    text's first). The last text is known by identity, which costs nothing."""
    global _REVERSED
    last = _REVERSED
    if last[0] is text:
        return last[1]
    made = text[::-1] + "\n"
    _REVERSED = (text, made)
    return made


def occurrences(text: str, word: str) -> Iterator[int]:
    """The offset of every occurrence of `word` in `text`, in order (overlaps included)."""
    at = text.find(word)
    while at != -1:
        yield at
        at = text.find(word, at + 1)


@functools.lru_cache(maxsize=4)
def offsets_of(text: str, word: str) -> tuple[int, ...]:
    """`tuple(occurrences(text, word))`, found once for the scans of one file that start
    from the same word (`return`: the skeleton's, the platform tests', the accessors')."""
    return tuple(occurrences(text, word))


def starting(text: str, word: str, offsets: Iterable[int]) -> list[int]:
    """Those of `offsets` where `word` starts in `text`: the occurrences of `word`, when
    `offsets` are those of a word it starts with."""
    return [at for at in offsets if text.startswith(word, at)]


def matches_from(
    pattern: re.Pattern[str], text: str, starts: Iterable[int]
) -> Iterator[re.Match[str]]:
    """What `pattern.finditer(text)` yields, for a pattern whose every match starts at one
    of the sorted offsets `starts` (one that begins with a word, at that word's offsets):
    tried only there, as `finditer` goes on from the end of each match."""
    end = 0
    for at in starts:
        if at >= end:
            found = pattern.match(text, at)
            if found is not None:
                end = found.end()
                yield found


def words_after(text: str, lead: str, words: Iterable[str]) -> dict[str, list[int]]:
    """`{word: list(occurrences(text, word))}` for words that each start with the character
    `lead` and hold it nowhere else: one regex pass, which the engine runs by jumping from
    one `lead` to the next, in place of a `str.find` pass per word (8 passes of a large
    codebase's text cost 6 times what one such regex pass does). A match holds no `lead`
    past its first character, so no occurrence starts inside another."""
    found: dict[str, list[int]] = {word: [] for word in words}
    pattern = _LEAD_PATTERNS.get((lead, *found))
    if pattern is None:
        if len(lead) != 1 or any(w[:1] != lead or lead in w[1:] for w in found):
            raise ValueError(f"each word must start with {lead!r} and hold it nowhere else")
        # every word that starts at a match: a word that begins another is found too
        longest = sorted(found, key=len, reverse=True)
        pattern = re.compile(
            re.escape(lead) + "(?:" + "|".join(re.escape(w[1:]) for w in longest) + ")"
        )
        _LEAD_PATTERNS[(lead, *found)] = pattern
    for match in pattern.finditer(text):
        at = match.start()
        for word, offsets in found.items():
            if text.startswith(word, at):
                offsets.append(at)
    return found


_LEAD_PATTERNS: dict[tuple[str, ...], re.Pattern[str]] = {}


def line_heads(text: str, word: str, offsets: Iterable[int] | None = None) -> tuple[int, ...]:
    """The offset of each occurrence of `word` that is the first thing on its line (only
    whitespace before it), in order; `offsets`: those occurrences, found already."""
    found: list[int] = []
    for at in occurrences(text, word) if offsets is None else offsets:
        if not text[text.rfind("\n", 0, at) + 1 : at].strip():
            found.append(at)
    return tuple(found)


def find_all(text: str, words: Iterable[str]) -> list[int]:
    """Sorted offsets of every occurrence of each of `words`."""
    return sorted(at for word in words for at in occurrences(text, word))


def after_word_boundary(text: str, at: int) -> bool:
    """Whether no identifier character comes right before `at`."""
    return at == 0 or not (text[at - 1].isalnum() or text[at - 1] == "_")


def name_start(text: str, end: int, start: int = 0, dotted: bool = False) -> int:
    """Where the identifier characters (and dots, with `dotted`) that end at `end` begin,
    not before `start`."""
    extra = "_." if dotted else "_"
    at = end
    while at > start and (text[at - 1].isalnum() or text[at - 1] in extra):
        at -= 1
    return at


def triple_quoted_bounds(text: str) -> list[int]:
    """Start and end offsets of the triple-quoted strings, flattened: `[s0, e0, s1, e1, ...]`.

    Pairs each opening triple quote with the next closing one of the same kind. Quotes
    inside one-line strings or comments can throw the pairing off; callers use it only to
    avoid work, never to decide a fact.
    """
    bounds: list[int] = []
    quotes = sorted(
        [(at, '"""') for at in occurrences(text, '"""')]
        + [(at, "'''") for at in occurrences(text, "'''")]
    )
    open_quote = ""
    after = 0  # quotes before this offset belong to a pair already made
    for at, quote in quotes:
        if at < after or (open_quote and quote != open_quote):
            continue
        bounds.append(at)
        open_quote = "" if open_quote else quote
        after = at + 3
    return bounds


def string_bounds(text: str) -> list[int]:
    """Start and end offsets of the string literals that span lines, flattened as
    `triple_quoted_bounds`'s, each from its opening quote to just past its closing one.

    Read as the tokenizer reads them (a quote in a comment or in a one-line string opens
    nothing), in one regex pass (`tokenize` takes longer than `ast.parse`); a line that
    begins with a closing quote (`\"\"\" % values`) is inside its string. An f-string whose
    braces hold its own kind of quote (Python 3.12) may read wrong: callers check what
    they build with it."""
    bounds: list[int] = []
    for token in _TOKENS.finditer(text):
        if token[0][0] != "#" and "\n" in token[0]:
            bounds += token.span()
    return bounds


def inside_bounds(bounds: list[int], at: int) -> bool:
    """Whether `at` lies inside one of the spans of `triple_quoted_bounds` or `string_bounds`."""
    return bisect.bisect_right(bounds, at) % 2 == 1


class LineNumbers:
    """The line number (1-based) of offsets of one text, asked in increasing order: the
    newlines are counted from the offset asked before (`str.count`, in C), which costs
    far less than `line_starts` when a few offsets of a large text are asked. An offset
    before the last one asked counts again from the start."""

    __slots__ = ("_at", "_newlines", "_text")

    def __init__(self, text: str) -> None:
        self._text = text
        self._at = self._newlines = 0

    def __call__(self, at: int) -> int:
        if at < self._at:
            self._at = self._newlines = 0
        self._newlines += self._text.count("\n", self._at, at)
        self._at = at
        return self._newlines + 1


def line_matches(pattern: re.Pattern[str], text: str) -> Iterator[tuple[int, int, re.Match[str]]]:
    """Each match of `pattern` (written after a newline) at the start of a line of `text`:
    (where it starts, where it ends, the match). Searched in "\n" + text, so a match starts
    at the newline before its line, which is where the line starts in the text (a pattern
    anchored by `^` under re.MULTILINE is tried at every character)."""
    for found in pattern.finditer("\n" + text):
        yield found.start(), found.end() - 1, found


_SHALLOW: dict[int, re.Pattern[str]] = {}  # `shallow_line`'s pattern per indent


def shallow_line(indent: int) -> re.Pattern[str]:
    """A newline followed by a code line indented no deeper than `indent`: not blank, not a
    comment, not a closing bracket (a signature over several lines ends `) -> T:`). The
    match is the newline; the line begins after it.

    Indentation is read as Python's tokenizer reads it: spaces and tabs, and a form feed is
    whitespace that starts the count again, so a line of form feeds (a page break) is blank.
    The indentation is taken possessively: the engine passes over deeper lines (a large
    class's thousands) without giving any of it back.
    """
    pattern = _SHALLOW.get(indent)
    if pattern is None:
        pattern = re.compile(rf"\n(?=(?:[ \t]*+\f)*+[ \t]{{0,{indent}}}+[^ \t\f\r\n#)\]}}])")
        _SHALLOW[indent] = pattern
    return pattern
