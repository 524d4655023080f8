"""Candidate sites for a paste: the sites worth scoring against one pasted error.

They come from the full-text index (words of the message), traceback frames (a frame at an
indexed file and a site's line pins it), log or warning hints (`[file.py:123]`), and the
raises of the pasted class where the class tells something.
"""

from __future__ import annotations

from collections.abc import Sequence

from errdex.facts import BUILTIN_EXCEPTIONS
from errdex.lazy_re import lazy_compile
from errdex.match.evidence import ErrorEvidence
from errdex.match.logged import project_named
from errdex.match.pattern import literal_runs
from errdex.match.readings import OLD_NAMES
from errdex.settable import settable_key
from errdex.store.base import Store, StoredSite
from errdex.store.rows import key_word, term_tokens

__all__ = ["candidates", "frame_paths", "key_terms", "one_value", "search_terms"]

_WORD = lazy_compile(r"[A-Za-z_][A-Za-z0-9_]{2,}")
_MAX_TERMS = 40
_FTS_LIMIT = 60
_KEYED = 12  # texts found by their key words: short texts of rare keys first


def frame_paths(path: str) -> list[str]:
    """Relative paths a frame's path may be indexed under: its suffixes, longest last."""
    parts = [p for p in path.replace("\\", "/").split("/") if p and p not in (".", "~")]
    parts = parts[-8:]
    return ["/".join(parts[i:]) for i in range(len(parts) - 1, -1, -1)]


_VALUE_START = lazy_compile(r"""['"<({\[=]""")


def _before_values(message: str) -> str:
    """The message up to where a value seems to start: a quote, a bracket, `=` or `<`."""
    found = _VALUE_START.search(message)
    return message[: found.start()] if found else message


# One value as `repr()` prints it: a quoted text, a number, a constant.
_ONE_VALUE = lazy_compile(r"""'[^'\n]*'|"[^"\n]*"|-?\d[\d.]*|None|True|False""")


def one_value(evidence: ErrorEvidence) -> bool:
    """The message is one value alone, as `str()` of a `KeyError(key)` prints it (or was,
    before the paste parser took its quotes off)."""
    text = evidence.message.strip()
    return len(text) < 300 and (evidence.quoted or _ONE_VALUE.fullmatch(text) is not None)


def key_terms(message: str) -> list[str]:
    """The message's words as the keys of texts (`key_word`), longest first."""
    keys = {key for token in term_tokens(message[:20_000]) if (key := key_word([token]))}
    return sorted(keys, key=len, reverse=True)[:_MAX_TERMS]


def _keyed(
    store: Store, message: str, project: str | None, version: str | None
) -> list[StoredSite]:
    """Sites with a text whose every written word the message holds, whatever its values
    add: the words a placeholder stands for (`Missing {param_type}{hint}.` for `Missing
    argument 'name'.`) are in no text, and may be the rarest of the message. Found by the
    texts' keys (`key_word`). Ranking the texts of the keys costs more than the rest of most
    lookups: asked for where the narrow round found no strong answer, and for printed
    output, whose texts are composed."""
    keyed = store.search_candidates(key_terms(message), project, version, limit=_KEYED)
    words = set(term_tokens(message[:20_000])) if keyed else set()
    return [site for site in keyed if _written_within(site, words)]


def _written_within(stored: StoredSite, words: set[str]) -> bool:
    """Every written word of one of the site's texts is among `words` (the key found a
    text; only one the message holds whole can explain it)."""
    site = stored.site
    texts = [site.message, *(v.reason for v in site.variants), *(f.text for f in stored.shown)]
    for text in texts:
        tokens = set(term_tokens(text.literal_text)) if text is not None else set()
        if tokens and tokens <= words:
            return True
    return False


def search_terms(message: str) -> list[str]:
    """Words of a message worth sending to full-text search, most telling first."""
    words: list[str] = []
    for run in literal_runs(message) or [message]:
        words.extend(_WORD.findall(run))
    unique = list(dict.fromkeys(words))
    unique.sort(key=len, reverse=True)  # long words are rarer: keep them if we must cut
    return unique[:_MAX_TERMS]


def run_phrases(message: str) -> list[str]:
    """The message's runs of two words or more (short words too), each searched as one
    phrase: `by must be` of `by must be 'value' or 'name', got 'bogus'`, where the words
    long enough to search for alone (`must`, `got`) are in hundreds of texts."""
    return [run for run in literal_runs(message) if len(term_tokens(run)) >= 2]


def candidates(
    store: Store,
    evidence: ErrorEvidence,
    project: str | None,
    version: str | None,
    *,
    wide: bool = False,
    projects: Sequence[str] = (),
) -> list[StoredSite]:
    """Sites worth scoring: by the message's words, and at the frames' and hints' places.

    The first, narrow round asks for texts holding all of the message's three rarest words
    (few, and nearly always the answer); the `wide` round, for texts holding any of them,
    and the texts whose written words the message holds whole (`_keyed`).
    `projects` are the store's project names, where a qualified class name may point.
    """
    terms = search_terms(evidence.message)
    if wide:
        keyed = _keyed(store, evidence.message, project, version)
        keyed += store.search_candidates(terms, project, version, limit=_FTS_LIMIT)
        short = (evidence.exception or "").rsplit(".", 1)[-1]
        if short and evidence.message.strip():
            # The raises of the class whose text a user may set (`self.message or "..."`):
            # a message no written text explains may be one a user set.
            keyed += store.sites_raising(settable_key(short), project, version, limit=40)
        return keyed
    found: list[StoredSite] = []
    if terms:
        narrow = store.search_candidates(terms, project, version, limit=_FTS_LIMIT, rarest=3)
        head = search_terms(_before_values(evidence.message))
        if not narrow and head and head != terms:
            # The rarest words may be a value's (`Attribute(name='y', converter=None, ...)`)
            # that no site's text holds: the words before the first value are the message's.
            narrow = store.search_candidates(head, project, version, limit=_FTS_LIMIT, rarest=3)
        if len(narrow) >= _FTS_LIMIT and (phrases := run_phrases(evidence.message)):
            # The rarest words are common: the limit filled with the texts ranked first by
            # them, not by the rest of the message. Its runs of words, each a phrase, pick
            # the texts that hold them in that order.
            found.extend(
                store.search_candidates(
                    [*phrases, *terms], project, version, limit=_FTS_LIMIT, rarest=3
                )
            )
        found.extend(narrow)
        if evidence.boxed or evidence.exception == "Error":
            # What a framework printed (`Error: ...`, a panel): composed away from the raise,
            # where placeholders stand for what the framework fills in.
            found.extend(_keyed(store, evidence.message, project, version))
    pasted = evidence.exception or ""
    short = pasted.rsplit(".", 1)[-1]
    qualified = "." in pasted and not pasted.startswith("builtins.")
    if short and (qualified or short not in BUILTIN_EXCEPTIONS or not evidence.message.strip()):
        # The project's own classes are few and telling; a bare builtin class is neither.
        # A class named with its package (`requests.exceptions.SSLError`) is looked for in
        # that project first: other projects may raise many classes of that name.
        home = project_named(projects, pasted) if qualified and project is None else None
        if home is not None:
            found.extend(store.sites_raising(short, home, version, limit=40))
        for name in (short, *OLD_NAMES.get(short, ())):
            found.extend(store.sites_raising(name, project, version, limit=40))
            if not evidence.message.strip():
                # The class alone: its raises without a message, where the newest texts
                # of a common class (`NotImplementedError`) all have one.
                found.extend(store.sites_raising(name, project, version, limit=40, bare=True))
    if short in BUILTIN_EXCEPTIONS and one_value(evidence):
        # `KeyError: 'k'`: no word to search for, and the builtin class alone is no clue;
        # the raises of the class whose message is one computed value (`KeyError(key)`).
        found.extend(store.sites_raising(short, project, version, limit=40, computed=True))
    for frame in evidence.frames[-12:]:
        if frame.line is not None:
            found.extend(
                store.sites_in_files(frame_paths(frame.path), frame.line, project, version)
            )
    if evidence.hint_file and evidence.hint_line:
        found.extend(
            store.sites_in_files(
                frame_paths(evidence.hint_file), evidence.hint_line, project, version
            )
        )
    return found
