"""A plugin a flag names in a registry of names: the flag, the names that pick the site's
class, the flags the version refuses without it; none where another module imports the
class (which names run it is unsaid)."""

from __future__ import annotations

import textwrap

import pytest

from errdex.extract import extract_file
from errdex.link import link_version
from errdex.linked_facts import IndexedSite
from selection_samples import NAMED


def site_of(message: str, package: dict[str, str] = NAMED) -> IndexedSite:
    facts = [
        extract_file(path, textwrap.dedent(text).encode())
        for path, text in package.items()
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
    assert link.registered == ("think", "shared", "effort", "derived", "plain", "kept")
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


_ARGS = NAMED["serve/args.py"]


@pytest.mark.parametrize(
    "args",
    [
        # a warning under the test lets the run go on: the switch alone is not refused
        _ARGS.replace("raise TypeError(", "logging.warning(").replace(
            "from dataclasses", "import logging\n        from dataclasses"
        ),
        # a switch on by default stays on when left out: leaving both out is no way out
        _ARGS.replace(
            "enable_auto_tool_choice: bool = False", "enable_auto_tool_choice: bool = True"
        ),
    ],
    ids=["warned", "on-by-default"],
)
def test_only_a_refusal_of_a_switch_left_off_carries_it(args: str) -> None:
    package = {**NAMED, "serve/args.py": args}
    (link,) = site_of("JsonToolParser could not locate", package).selections
    assert link.along == ()


def test_a_switch_off_by_a_none_default_is_carried() -> None:
    args = _ARGS.replace(
        "enable_auto_tool_choice: bool = False", "enable_auto_tool_choice: bool = None"
    )
    assert args != _ARGS
    package = {**NAMED, "serve/args.py": args}
    (link,) = site_of("JsonToolParser could not locate", package).selections
    assert link.along == ("--enable-auto-tool-choice",)


def test_a_dict_of_the_same_name_in_another_package_keeps_its_names() -> None:
    twin = {
        **NAMED,
        "serve/vision/__init__.py": """
            _REASONING_PARSERS_TO_REGISTER = {
                "other": ("other_parser", "OtherReasoningParser"),
                "more": ("other_parser", "MoreReasoningParser"),
            }
            """,
        "serve/vision/other_parser.py": """
            class OtherReasoningParser:
                pass


            class MoreReasoningParser:
                pass
            """,
    }
    (link,) = site_of("ThinkReasoningParser could not locate", twin).selections
    assert link.registered == ("think", "shared", "effort", "derived", "plain", "kept")
    assert link.file == "serve/reasoning/__init__.py"
