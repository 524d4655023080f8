"""A plugin a flag names in a registry of names: the flag, the names that pick the site's
class, the flags the version refuses without it; none where another module imports the
class (which names run it is unsaid)."""

from __future__ import annotations

import textwrap

from errdex.extract import extract_file
from errdex.link import link_version
from errdex.linked_facts import IndexedSite
from selection_samples import NAMED


def site_of(message: str) -> IndexedSite:
    facts = [
        extract_file(path, textwrap.dedent(text).encode())
        for path, text in NAMED.items()
        if path.endswith(".py")
    ]
    (site,) = [
        s
        for s in link_version("serve", facts)
        if s.site.message is not None and s.site.message.text.startswith(message)
    ]
    return site


def test_a_parser_check_is_picked_by_the_flag_of_the_registry_words() -> None:
    (link,) = site_of("ThinkReasoningParser could not locate").selections
    # `--reasoning-parser`, not `--reasoning-parser-plugin`: the field ends with the word
    # the registered classes end with
    assert (link.setting, link.how, link.value, link.aliases, link.given) == (
        "--reasoning-parser",
        "name",
        "think",
        ("shared",),
        True,
    )
    assert link.registered == ("think", "shared", "effort", "derived", "plain")
    assert link.registry == "_REASONING_PARSERS_TO_REGISTER['think']"
    assert link.file == "serve/reasoning/__init__.py"
    assert link.along == ()
    # a base class another module imports: which names run its constructor is unsaid
    assert site_of("The tokenizer must be passed").selections == ()


def test_a_tool_parser_carries_the_flag_the_version_refuses_without_it() -> None:
    (link,) = site_of("JsonToolParser could not locate").selections
    # `--tool-call-parser` shares two words with the dict, `--tool-parser-plugin` ends
    # with another
    assert (link.setting, link.value) == ("--tool-call-parser", "json")
    assert link.along == ("--enable-auto-tool-choice",)
