"""The words of a version's files counted: a name named only where it is defined, unless a
name built at run time could be it."""

from __future__ import annotations

from errdex.store.mentions import count_mentions

_DEFINED = "def _orphan():\n    pass\n\ndef used():\n    pass\n"


def test_a_name_only_defined_is_named_only_where_defined() -> None:
    mentions = count_mentions([_DEFINED, "x = 1  # unrelated\n"])
    assert mentions.named_only_where_defined("_orphan")
    assert mentions.named_only_where_defined("used")


def test_a_mention_anywhere_counts() -> None:
    for other in ("callbacks = [used]\n", "getattr(obj, 'used')\n", "# see used\n"):
        assert not count_mentions([_DEFINED, other]).named_only_where_defined("used")


def test_a_name_not_defined_is_not_one() -> None:
    assert not count_mentions(["print(1)\n"]).named_only_where_defined("print")


def test_a_name_built_at_run_time_could_be_it() -> None:
    for built in (
        'getattr(self, f"_orph{kind}")\n',
        'getattr(self, "_orph%s" % kind)\n',
        'getattr(self, "_orph" + kind)\n',
        'getattr(self, "_{}".format(kind))\n',
    ):
        assert not count_mentions([_DEFINED, built]).named_only_where_defined("_orphan"), built


def test_a_suffix_added_could_end_it() -> None:
    text = "def load_impl():\n    pass\n"
    assert not count_mentions([text, 'f = getattr(m, kind + "_impl")\n']).named_only_where_defined(
        "load_impl"
    )


def test_a_literal_added_to_something_before_it_starts_no_name() -> None:
    # `stem + "_" + key` starts with `stem`: "_" is no start of a name there
    found = count_mentions([_DEFINED, 'weight = stem + "_" + key\n'])
    assert found.named_only_where_defined("_orphan")


def test_a_word_starting_it_up_to_an_underscore() -> None:
    text = "def _check_one():\n    pass\n"
    picked = '[m for m in dir(self) if m.startswith("_check_")]\n'
    assert count_mentions([text]).named_only_where_defined("_check_one")
    assert not count_mentions([text, picked]).named_only_where_defined("_check_one")
