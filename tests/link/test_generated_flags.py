"""A field of an arguments class is a flag only when a generator reads the class: a method
of it (or of a base) declaring flags of computed names."""

from __future__ import annotations

import textwrap

from errdex.extract import extract_file
from errdex.facts import KnobKind
from errdex.link import link_version
from errdex.linked_facts import IndexedSite

CHECKS = """
    class Server:
        def check_root(self, args):
            if args.root_path is None:
                raise ValueError("root path needed")

        def check_batch(self, args):
            if args.batch_size > 8:
                raise ValueError("batch too big")

        def check_hidden(self, args):
            if args.hidden_size > 4096:
                raise ValueError("hidden too big")
    """

FRONTEND = """
    from dataclasses import dataclass, fields

    @dataclass
    class FrontendArgs:
        root_path: str | None = None

        @classmethod
        def add_cli_args(cls, parser):
            for field in fields(cls):
                parser.add_argument(f"--{field.name.replace('_', '-')}")
            return parser

    @dataclass
    class BatchArgs(FrontendArgs):
        batch_size: int = 1
    """

# a model's own settings, read by no parser
MODEL = """
    from dataclasses import dataclass

    @dataclass
    class VisionEncoderArgs:
        hidden_size: int
        num_layers: int
    """


def flags(files: dict[str, str]) -> dict[str, list[str]]:
    facts = [extract_file(path, textwrap.dedent(text).encode()) for path, text in files.items()]
    sites: list[IndexedSite] = link_version("eng", facts, ())
    return {
        s.site.message.text: [k.name for k in s.knobs if k.kind == KnobKind.FLAG]
        for s in sites
        if s.site.message is not None
    }


def test_fields_of_a_class_no_generator_reads_are_no_flags() -> None:
    found = flags({"eng/server.py": CHECKS, "eng/args.py": FRONTEND, "eng/model.py": MODEL})
    assert found["root path needed"] == ["--root-path"]
    assert found["batch too big"] == ["--batch-size"]  # a subclass: `cls` is it
    assert found["hidden too big"] == []


def test_a_version_showing_no_generator_keeps_field_flags() -> None:
    found = flags({"eng/server.py": CHECKS, "eng/model.py": MODEL})
    assert found["hidden too big"] == ["--hidden-size"]
