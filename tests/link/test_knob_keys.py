"""A name's knobs are worked out once for every file and class reading it alike
(`knobs._read_anywhere`), and apart where the file's imports or the class decide them."""

from __future__ import annotations

import textwrap

from errdex.extract import extract_file
from errdex.link import link_version
from errdex.linked_facts import IndexedSite

FILES = {
    "eng/envs.py": """
        import os

        ENG_USE_V2 = os.getenv("ENG_USE_V2")
        """,
    "eng/args.py": """
        import argparse

        def cli(parser):
            parser.add_argument("--max-model-len", type=int)
        """,
    "eng/a.py": """
        from eng import envs

        def first(model_config):
            if envs.ENG_USE_V2:
                raise ValueError("v2 is on in a")
            if model_config.max_model_len > 8:
                raise ValueError("too long in a")
        """,
    "eng/b.py": """
        class Runner:
            def second(self, envs, model_config):
                if envs.ENG_USE_V2:
                    raise ValueError("v2 is on in b")
                if model_config.max_model_len > 8:
                    raise ValueError("too long in b")
        """,
}


def _knobs() -> dict[str, list[str]]:
    facts = [extract_file(p, textwrap.dedent(t).encode()) for p, t in FILES.items()]
    sites: list[IndexedSite] = link_version("eng", facts)
    return {s.site.message.text: [k.name for k in s.knobs] for s in sites if s.site.message}


def test_an_attribute_of_an_object_no_file_imports_is_the_same_setting_everywhere() -> None:
    knobs = _knobs()
    assert "--max-model-len" in knobs["too long in a"]
    assert "--max-model-len" in knobs["too long in b"]


def test_an_imported_module_s_variable_is_not_a_parameter_of_the_same_name() -> None:
    knobs = _knobs()
    assert knobs["v2 is on in a"] == ["ENG_USE_V2"]
    # `envs` is a parameter in b: whatever a reads through its import, b's is not it
    assert "ENG_USE_V2" not in knobs["v2 is on in b"]
