"""A setting some callers' paths give a parameter, where the other calls give a name the
link cannot follow: one way among others (`KnobLink.among_others`, `link.passed`)."""

from __future__ import annotations

import textwrap

from test_kept_attributes import ARGS, RENDERER, SERVER

from errdex.extract import extract_file
from errdex.link import link_version
from errdex.linked_facts import KnobLink

# the renderer of the kept-attribute tests (`Renderer` keeps `--trust-request-kwargs` from
# its builder and gives it to the helper `validate_kwargs` that checks it), and:
# another serving class calls the helper with a field of an object another function built
POOLING = """
    from eng.render import validate_kwargs


    class Pooling:
        def __init__(self, template_config):
            self.trusted = template_config.trusted

        def serve(self, request):
            validate_kwargs(kwargs=request.kwargs, trusted=self.trusted)
    """


def knobs_of(files: dict[str, str]) -> list[KnobLink]:
    facts = [extract_file(path, textwrap.dedent(text).encode()) for path, text in files.items()]
    sites = link_version("demo", facts)
    (site,) = [
        s
        for s in sites
        if s.site.message is not None and s.site.message.text == "Per-request kwargs are disabled"
    ]
    return [k for k in site.knobs if k.behind == "trusted"]


def test_a_setting_one_callers_path_gives_is_one_way_among_others() -> None:
    files = {
        "eng/args.py": ARGS,
        "eng/render.py": RENDERER,
        "eng/server.py": SERVER,
        "eng/pooling.py": POOLING,
    }
    (knob,) = knobs_of(files)
    assert knob.name == "--trust-request-kwargs"
    assert knob.among_others


def test_a_setting_every_caller_gives_is_not_one_among_others() -> None:
    files = {"eng/args.py": ARGS, "eng/render.py": RENDERER, "eng/server.py": SERVER}
    (knob,) = knobs_of(files)
    assert not knob.among_others


def test_a_caller_giving_a_constant_or_a_literal_links_nothing() -> None:
    for given in ("TRUSTED_DEFAULT", "False", "template_config.load()"):
        pooling = POOLING.replace("trusted=self.trusted", f"trusted={given}")
        files = {
            "eng/args.py": ARGS,
            "eng/render.py": RENDERER,
            "eng/server.py": SERVER,
            "eng/pooling.py": pooling,
        }
        assert knobs_of(files) == [], given
