"""Full-text search in PostgreSQL that answers as the SQLite store's FTS5 index does.

PostgreSQL's parser cuts `max_model_len` into three words, so errdex makes the `tsvector`
and `tsquery` values itself from the tokens FTS5 would make (`rows.term_tokens`: whole
identifiers, case and Latin accents folded) and casts them: no text search configuration
touches them. Matching (`@@`, phrases as `<->`), the GIN index and ranking (`ts_rank`) are
PostgreSQL's own. Ranking adds what FTS5's bm25 has and `ts_rank` lacks: each term's
rank is weighed by its inverse document frequency, so rare words count most.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from errdex.store.rows import MAX_TERM_CHARS, term_tokens

# ts_rank weights of {D, C, B, A}: message (A) and reasons (B) 1.0, exception names (C)
# 0.5, as the SQLite store's bm25(search_text, 1.0, 1.0, 0.5).
RANK_WEIGHTS = [0.1, 0.5, 1.0, 1.0]
FIELD_WEIGHTS = "ABC"  # message, reasons, exception
EXCEPTION_WEIGHT = "C"
# PostgreSQL's bounds: positions up to 16383, 256 positions a word, 1 MB a tsvector.
MAX_POSITION = 16_383
MAX_POSITIONS = 256
MAX_LEXEME_BYTES = 256 * 1024


def quote(token: str) -> str:
    """A token as a lexeme of a tsquery literal, taken as it is."""
    return "'" + token.replace("\\", "\\\\").replace("'", "''") + "'"


def document(fields: Sequence[str]) -> tuple[str, frozenset[str]]:
    """The tsvector literal of a search text's fields (message, reasons, exception), and
    its distinct words.

    Each field's words get its weight letter and positions of their own: a position is
    skipped between fields, so no phrase spans two, as in FTS5's columns. Tokens are runs
    of word characters, which a tsvector literal takes unquoted.
    """
    tokens = [
        (letter, term_tokens(text)) for letter, text in zip(FIELD_WEIGHTS, fields, strict=True)
    ]
    count = sum(len(found) for _, found in tokens)
    if count > MAX_POSITIONS or any(len(t) > MAX_TERM_CHARS for _, found in tokens for t in found):
        return _bounded_document(tokens)
    # The common case, a few dozen short words: no bound can be reached.
    lexemes: dict[str, str] = {}
    position = 0
    for letter, found in tokens:
        for token in found:
            position += 1
            at = lexemes.get(token)
            lexemes[token] = f"{at},{position}{letter}" if at else f"{token}:{position}{letter}"
        position += 1
    return " ".join(lexemes.values()), frozenset(lexemes)


def _bounded_document(tokens: list[tuple[str, list[str]]]) -> tuple[str, frozenset[str]]:
    """`document` of a long text, within PostgreSQL's bounds: words past the last position
    and, once the lexemes fill `MAX_LEXEME_BYTES`, new words are left out, and so are words
    longer than a search term may be (`MAX_TERM_CHARS`: no search could match them)."""
    positions: dict[str, list[str]] = {}
    position = 0
    size = 0
    for letter, found in tokens:
        for token in found:
            position += 1
            if position > MAX_POSITION:
                break
            if len(token) > MAX_TERM_CHARS:
                continue
            entries = positions.get(token)
            if entries is None:
                size += len(token.encode("utf-8"))
                if size > MAX_LEXEME_BYTES:
                    continue
                entries = positions[token] = []
            if len(entries) < MAX_POSITIONS:
                entries.append(f"{position}{letter}")
        position += 1
    literal = " ".join(f"{token}:{','.join(at)}" for token, at in positions.items())
    return literal, frozenset(positions)


def phrase_query(phrase: str) -> str | None:
    """A term as a tsquery phrase: its words in a row (None when it has no word)."""
    tokens = term_tokens(phrase)
    if not tokens:
        return None
    return "(" + " <-> ".join(quote(token) for token in tokens) + ")"


def exception_query(name: str) -> str:
    """A tsquery for texts whose exception names hold `name` (an identifier)."""
    return " <-> ".join(f"{quote(token)}:{EXCEPTION_WEIGHT}" for token in term_tokens(name))


def idf(phrase: str, doc_counts: Mapping[str, int], total: int) -> float:
    """bm25's inverse document frequency of a phrase, as FTS5 computes it (floored at 1e-6).

    A phrase is taken to be as frequent as its rarest word: an upper bound, and exact for
    the single words lookups send.
    """
    held = min((doc_counts.get(t, 0) for t in term_tokens(phrase)), default=0)
    return max(math.log((total - held + 0.5) / (held + 0.5)), 1e-6)
