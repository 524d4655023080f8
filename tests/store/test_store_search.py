"""Full-text search for candidate sites: words, reasons, exception names, hostile input."""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from store_checks import assert_sound
from store_samples import FILES, PIECEWISE, PROJECT, SITES, TOO_LONG, UNSUPPORTED, version_info

from errdex.errors import NotFoundError
from errdex.facts import MessageTemplate
from errdex.linked_facts import IndexedSite
from errdex.store import Store, open_store
from errdex.store.rows import informative_terms, match_expression


def ids(found: list) -> list[str]:  # type: ignore[type-arg]
    return [s.id for s in found]


def test_words_of_a_message_find_its_site(filled: Store) -> None:
    pasted = "Model deepseek-v4 does not support PIECEWISE CUDA graphs"
    found = filled.search_candidates(pasted.split())

    assert found[0].id == PIECEWISE.id
    assert found[0].version == "1.0"


def test_words_of_a_reason_find_the_site_that_collects_it(filled: Store) -> None:
    found = filled.search_candidates(["dual", "batch", "overlap", "LoRA"])

    assert ids(found) == [UNSUPPORTED.id]


def test_the_exception_name_is_searchable(filled: Store) -> None:
    assert ids(filled.search_candidates(["NotImplementedError"])) == [UNSUPPORTED.id]


def test_raises_of_a_class_without_a_message_come_from_every_version(store: Store) -> None:
    # `raise NotImplementedError` in a version indexed before one whose raises of it all
    # have a message: a paste of the class alone reaches it, and only it.
    bare = msgspec.structs.replace(
        UNSUPPORTED,
        id="0" * 16,
        site=msgspec.structs.replace(UNSUPPORTED.site, message=None, variants=(), line=20),
    )
    store.write_version(version_info("0.9", "c" * 40), [bare], FILES)
    store.write_version(version_info("1.1", "b" * 40), SITES, FILES)

    assert ids(store.sites_raising("NotImplementedError", limit=1)) == [UNSUPPORTED.id]
    found = store.sites_raising("NotImplementedError", limit=1, bare=True)
    assert [(s.id, s.version) for s in found] == [(bare.id, "0.9")]
    assert store.sites_raising("NotImplementedError", version="1.1", bare=True) == []

    # A newer version with two such raises: the first of each version comes first.
    again = [msgspec.structs.replace(bare, id=f"{n}" * 16) for n in (1, 2)]
    store.write_version(version_info("1.2", "d" * 40), again, FILES)
    found = store.sites_raising("NotImplementedError", limit=2, bare=True)
    assert [s.version for s in found] == ["1.2", "0.9"]


def test_identifiers_stay_whole(filled: Store) -> None:
    assert ids(filled.search_candidates(["max_model_len"])) == [TOO_LONG.id]
    assert filled.search_candidates(["max"]) == []


def test_case_and_accents_do_not_matter(filled: Store) -> None:
    assert ids(filled.search_candidates(["piecewise", "GRÁPHS"]))[0] == PIECEWISE.id


def test_search_is_scoped_by_project_and_version(filled: Store) -> None:
    filled.write_version(version_info("2.0", "b" * 40), [TOO_LONG], FILES)

    assert {s.version for s in filled.search_candidates(["larger"])} == {"1.0", "2.0"}
    assert [s.version for s in filled.search_candidates(["larger"], PROJECT, "2.0")] == ["2.0"]
    assert filled.search_candidates(["PIECEWISE"], version="2.0") == []
    assert len(filled.search_candidates(["does", "larger"], limit=1)) == 1
    with pytest.raises(NotFoundError):
        filled.search_candidates(["larger"], "no-such-project")
    with pytest.raises(NotFoundError):
        filled.search_candidates(["larger"], PROJECT, "9.9")


def test_no_usable_terms_find_nothing(filled: Store) -> None:
    assert filled.search_candidates([]) == []
    assert filled.search_candidates(["", "   ", "!!!", "😀"]) == []


HOSTILE = [
    '"',
    '""',
    '"unterminated',
    "NEAR(Model support, 2)",
    "NEAR",
    "*",
    "Model*",
    "^Model",
    "(",
    ")",
    "Model) OR (graphs",
    "AND",
    "OR",
    "NOT",
    "message:PIECEWISE",
    "{message reasons}: LoRA",
    "-",
    "+",
    "\x00",
    "a\x00b",
    "'; DROP TABLE sites; --",
    "\ud800",
    "日本語のエラー",
    "Ünïcödé",
    "x" * 10_000,
]


@pytest.mark.parametrize("term", HOSTILE)
def test_hostile_terms_are_only_words(filled: Store, term: str) -> None:
    filled.search_candidates([term])  # an FTS syntax error would raise here
    assert PIECEWISE.id in ids(filled.search_candidates([term, "PIECEWISE"]))


def test_operators_in_terms_are_searched_as_words(filled: Store) -> None:
    assert ids(filled.search_candidates(["Model) OR (graphs"])) == []
    assert ids(filled.search_candidates(["message:PIECEWISE"])) == []
    assert ids(filled.search_candidates([*HOSTILE, "PIECEWISE"]))[0] == PIECEWISE.id
    assert match_expression(['say "hi"', "NEAR"]) == '"say ""hi""" OR "NEAR"'


@settings(max_examples=200, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(terms=st.lists(st.text(), max_size=8))
def test_any_text_searches_without_error(filled: Store, terms: list[str]) -> None:
    for site in filled.search_candidates(terms):
        assert site.id in {s.id for s in SITES}


def test_versions_share_the_search_text_of_an_unchanged_site(filled: Store) -> None:
    conn = filled._conn  # type: ignore[attr-defined]
    filled.write_version(version_info("1.1", "b" * 40), SITES, FILES)
    assert conn.execute("SELECT count(*) FROM search_docs").fetchone() == (3,)
    assert [s.version for s in filled.search_candidates(["PIECEWISE"])] == ["1.1", "1.0"]

    filled.delete_version(PROJECT, "1.0")
    assert [s.version for s in filled.search_candidates(["PIECEWISE"])] == ["1.1"]

    filled.delete_version(PROJECT, "1.1")
    assert conn.execute("SELECT count(*) FROM search_docs").fetchone() == (0,)
    assert_sound(filled)  # no FTS5 row (SQLite) nor word count (PostgreSQL) is left over


def test_terms_most_texts_hold_are_left_out_unless_all_are_common() -> None:
    counts = {"does": 60, "not": 90, "support": 20, "max_model_len": 80}

    assert informative_terms(["does", "not", "support"], counts, 100) == ["support"]
    assert informative_terms(["does not", "Max_Model_Len"], counts, 100) == [
        "does not",
        "Max_Model_Len",
    ]
    assert informative_terms(["does", "unknown"], counts, 100) == ["unknown"]
    assert informative_terms(["does", "not support"], counts, 100) == ["not support"]


def test_in_a_store_of_a_few_texts_a_common_term_present_beats_one_absent() -> None:
    counts = {"render_option": 1, "signature": 1}  # one text of two holds the message
    terms = ["render_option", "signature", "StrictLegacySelect"]
    assert informative_terms(terms, counts, 2) == ["render_option", "signature"]
    many = {"render_option": 600, "signature": 700}  # common in a large store: left out
    assert informative_terms(terms, many, 1000) == ["StrictLegacySelect"]


def test_sites_of_one_text_past_the_limit_come_plainest_first(store: Store) -> None:
    """A text raised at more sites than a search takes: which come first depends on where
    they are, not on the order their files were written (a first answer's subset and the
    whole version then hold the same first sites)."""
    files = ["pkg/_impl/a.py", "pkg/models/b/deep.py", "pkg/models/a.py", "pkg/__init__.py",
             "pkg/_private.py", "pkg/z.py"]  # fmt: skip
    sites = [
        msgspec.structs.replace(
            TOO_LONG, id=f"{n:016x}", file=file, module=file.removesuffix(".py").replace("/", ".")
        )
        for n, file in enumerate(files)
    ]
    store.write_version(version_info("1.0"), sites, {})

    found = store.search_candidates(["larger", "allows"], limit=4)

    assert [s.file for s in found] == ["pkg/__init__.py", "pkg/z.py", "pkg/models/a.py",
                                       "pkg/models/b/deep.py"]  # fmt: skip


def test_a_site_read_again_is_the_record_read_before_until_its_row_changes(
    filled: Store,
) -> None:
    # Lookups read one row many times (its text's hits, its class's raises, its error's
    # releases): each read of an unchanged row gives the record decoded the first time.
    found = filled.search_candidates(["PIECEWISE"])[0]
    assert filled.get_error(PIECEWISE.id)[0] is found
    assert filled.sites_in_files([PIECEWISE.file], line=6)[0] is found

    # The version indexed again with the raise moved: the row's content is new, so is the record.
    moved = msgspec.structs.replace(
        PIECEWISE, site=msgspec.structs.replace(PIECEWISE.site, line=7, end_line=7)
    )
    filled.delete_version(PROJECT, "1.0")
    filled.write_version(version_info("1.0"), [moved, *SITES[1:]], FILES)
    again = filled.get_error(PIECEWISE.id)[0]
    assert again is not found
    assert (again.site.line, again.url) == (7, str(found.url).replace("L6-L6", "L7-L7"))


def test_words_written_since_the_last_search_count_whoever_wrote_them(
    filled: Store, db_url: str
) -> None:
    # Which words a search keeps depends on how many texts hold each: a word no text held
    # at the last search is held now, written by this store or by another process's.
    assert ids(filled.search_candidates(["PIECEWISE", "quantized"])) == [PIECEWISE.id]
    assert ids(filled.search_candidates(["PIECEWISE", "sharded"])) == [PIECEWISE.id]

    def with_word(word: str) -> IndexedSite:
        message = MessageTemplate.of(f"the {word} checkpoint is missing")
        site = msgspec.structs.replace(TOO_LONG.site, message=message)
        return msgspec.structs.replace(TOO_LONG, id=f"{word:>16}"[:16], site=site)

    with open_store(db_url) as other:
        other.write_version(version_info("2.0", "b" * 40), [with_word("quantized")], FILES)
    assert len(filled.search_candidates(["PIECEWISE", "quantized"])) == 2

    filled.write_version(version_info("3.0", "c" * 40), [with_word("sharded")], FILES)
    assert len(filled.search_candidates(["PIECEWISE", "sharded"])) == 2


def test_the_sites_whose_facts_name_a_word(filled: Store) -> None:
    # a rule asks for the sites that read a setting anywhere in their facts, then reads them
    version_id = filled.get_error(PIECEWISE.id)[0].version_id
    assert ids(filled.sites_naming(version_id, "use_v2")) == [PIECEWISE.id]
    assert ids(filled.sites_naming(version_id, "lora")) == [UNSUPPORTED.id]
    assert filled.sites_naming(version_id, "no_such_name") == []
    assert filled.sites_naming(version_id, "a'; --") == []  # no name: not asked at all
