"""`self.X` a constructor kept from its parameter, followed to its builders' settings
(`link.value_flow`, `link.passed`)."""

from __future__ import annotations

import textwrap

from errdex.extract import extract_file
from errdex.link import link_version
from errdex.linked_facts import IndexedSite, KnobLink

ARGS = """
    from dataclasses import dataclass


    @dataclass
    class EngineArgs:
        disable_log_stats: bool = False
        trust_request_kwargs: bool = False

        def add_cli_args(parser):
            parser.add_argument("--disable-log-stats", action="store_true")
            parser.add_argument("--trust-request-kwargs", action="store_true")
    """

# an engine that keeps `log_stats` from its constructor, built by a classmethod from the
# arguments with the flag negated, and a method that needs it on
ENGINE = """
    from eng.args import EngineArgs


    class Engine:
        def __init__(self, config, log_stats: bool, name=None):
            self.config = config
            self.log_stats = log_stats

        @classmethod
        def from_engine_args(cls, engine_args: EngineArgs):
            return cls(config=None, log_stats=not engine_args.disable_log_stats)

        def get_metrics(self):
            assert self.log_stats, "Stat logging disabled"
            return []
    """

# a check in a helper given the attribute a server object kept from its builder
RENDERER = """
    def validate_kwargs(*, kwargs, trusted: bool):
        if trusted:
            return
        if kwargs:
            raise ValueError("Per-request kwargs are disabled")


    class Renderer:
        def __init__(self, model, trust_request_kwargs: bool = False):
            self.model = model
            self.trust_request_kwargs = trust_request_kwargs

        def render(self, request):
            validate_kwargs(kwargs=request.kwargs, trusted=self.trust_request_kwargs)
    """

SERVER = """
    from eng.render import Renderer


    def init_state(args, model):
        state = object()
        state.renderer = Renderer(model, trust_request_kwargs=args.trust_request_kwargs)
        return state
    """


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


def test_a_field_of_arguments_only_a_public_constructor_builds_is_no_flag() -> None:
    files = {"eng/args.py": ARGS, "eng/engine.py": ENGINE, "eng/client.py": ENTRY}
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
