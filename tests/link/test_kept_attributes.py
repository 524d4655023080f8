"""`self.X` a constructor kept from its parameter, followed to its builders' settings
(`link.value_flow`, `link.passed`)."""

from __future__ import annotations

import textwrap

from errdex.extract import extract_file
from errdex.link import link_version
from errdex.linked_facts import IndexedSite, KnobLink
from kept_attribute_samples import ARGS, ENGINE, RENDERER, SERVER


def link(files: dict[str, str]) -> dict[str, IndexedSite]:
    facts = [extract_file(path, textwrap.dedent(text).encode()) for path, text in files.items()]
    sites = link_version("demo", facts)
    return {s.site.message.text: s for s in sites if s.site.message is not None}


def knobs_of(files: dict[str, str], message: str, behind: str) -> list[KnobLink]:
    return [k for k in link(files)[message].knobs if k.behind == behind]


def test_an_attribute_kept_negated_from_a_flag_is_that_flag_turned() -> None:
    files = {"eng/args.py": ARGS, "eng/engine.py": ENGINE}
    (knob,) = knobs_of(files, "Stat logging disabled", "self.log_stats")
    assert knob.name == "--disable-log-stats"
    assert knob.inverted
    assert knob.passed_by[0] == "Engine.__init__"


def test_an_attribute_a_caller_passes_on_is_its_builders_flag() -> None:
    files = {"eng/args.py": ARGS, "eng/render.py": RENDERER, "eng/server.py": SERVER}
    (knob,) = knobs_of(files, "Per-request kwargs are disabled", "trusted")
    assert knob.name == "--trust-request-kwargs"
    assert not knob.inverted


def test_an_attribute_set_again_elsewhere_is_not_followed() -> None:
    quiet = "        def quiet(self):\n            self.log_stats = False\n\n"
    engine = ENGINE.replace(
        "        def get_metrics(self):", quiet + "        def get_metrics(self):"
    )
    files = {"eng/args.py": ARGS, "eng/engine.py": engine}
    assert knobs_of(files, "Stat logging disabled", "self.log_stats") == []


def test_an_attribute_kept_after_a_conversion_is_not_followed() -> None:
    engine = ENGINE.replace("self.log_stats = log_stats", "self.log_stats = log_stats or None")
    files = {"eng/args.py": ARGS, "eng/engine.py": engine}
    assert knobs_of(files, "Stat logging disabled", "self.log_stats") == []


def test_a_builder_passing_something_else_links_nothing() -> None:
    server = SERVER + "\n\ndef other(model, chosen):\n    return Renderer(model, chosen.strip())\n"
    files = {"eng/args.py": ARGS, "eng/render.py": RENDERER, "eng/server.py": server}
    assert knobs_of(files, "Per-request kwargs are disabled", "trusted") == []


# a public class building the arguments from its own keywords, defaulting the field itself
ENTRY = """
    from eng.args import EngineArgs
    from eng.engine import Engine


    class Client:
        def __init__(self, model: str, **kwargs):
            if "disable_log_stats" not in kwargs:
                kwargs["disable_log_stats"] = True
            engine_args = EngineArgs(model=model, **kwargs)
            self.engine = Engine.from_engine_args(engine_args=engine_args)
    """


def test_a_field_of_arguments_only_a_public_constructor_builds_is_its_keyword() -> None:
    # no command line builds the arguments: the flag is the constructor's keyword alone,
    # with the value the constructor gives it when left out
    files = {"eng/args.py": ARGS, "eng/engine.py": ENGINE, "eng/client.py": ENTRY}
    (knob,) = knobs_of(files, "Stat logging disabled", "self.log_stats")
    assert knob.entry_keyword == "disable_log_stats" and knob.inverted
    assert (knob.call, knob.command, knob.default) == ("eng.client.Client(model)", None, "True")


def test_a_field_the_constructor_gives_by_name_is_no_keyword_of_it() -> None:
    # `EngineArgs(model=model, disable_log_stats=True, **kwargs)`: a keyword of the
    # caller's own would be given twice
    entry = ENTRY.replace(
        "(model=model, **kwargs)", "(model=model, disable_log_stats=True, **kwargs)"
    )
    files = {"eng/args.py": ARGS, "eng/engine.py": ENGINE, "eng/client.py": entry}
    assert knobs_of(files, "Stat logging disabled", "self.log_stats") == []


def test_arguments_a_command_also_builds_keep_the_flag() -> None:
    command = (
        "\n\ndef main(args):\n"
        "    engine_args = EngineArgs.from_cli_args(args)\n"
        "    return Engine.from_engine_args(engine_args=engine_args)\n"
    )
    files = {"eng/args.py": ARGS, "eng/engine.py": ENGINE, "eng/client.py": ENTRY + command}
    (knob,) = knobs_of(files, "Stat logging disabled", "self.log_stats")
    assert knob.name == "--disable-log-stats"
