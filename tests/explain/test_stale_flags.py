"""A flag the message names that the version does not declare: when one declared flag sets
the attribute of that name, the advice is offered with the declared flag, and "What it
means" says the message's flag is not declared. A declared flag, one a generator makes of
an arguments class's fields, and another program's flag are quoted as they are."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.explain.stale_flags import stale_flag
from errdex.store import Store

BENCH = {
    "bench/__init__.py": "",
    "bench/traces.py": """
        import argparse
        from dataclasses import dataclass


        class TraceDataset:
            def __init__(self, **kwargs):
                self.label_output_length = str(kwargs.get("trace_label_output_length"))
                self.label_input_length = kwargs.get("trace_label_input_length")
                self.window = kwargs.get("trace_window")
                self.label_ts = kwargs.get("trace_label_timestamp")

            def sample(self, entries):
                for entry in entries:
                    if self.label_output_length not in entry:
                        raise ValueError(
                            f"Output field '{self.label_output_length}' not found. "
                            "Use --label-output-length to specify the correct field name."
                        )
                    if self.label_input_length not in entry:
                        raise ValueError(
                            "Input field not found. "
                            "Use --trace-label-input-length to specify the field name."
                        )
                    if self.label_ts not in entry:
                        raise ValueError(
                            f"Timestamp field '{self.label_ts}' not found. "
                            "Use --label-timestamp to specify the field name."
                        )
                    if len(entry) > 4:
                        raise ValueError("Entry too large. Increase /dev/shm (e.g. --shm-size).")


        @dataclass
        class FrontendArgs:
            chat_template: str | None = None

            @classmethod
            def add_cli_args(cls, parser):
                for key in ("chat_template",):
                    parser.add_argument(f"--{key.replace('_', '-')}")
                return parser


        class Server:
            def __init__(self, args):
                self.chat_template = args.trace_window

            def render(self, messages):
                if not messages:
                    raise ValueError("No template. Pass a --chat-template that accepts it.")


        def main():
            parser = argparse.ArgumentParser()
            parser.add_argument("--trace-label-output-length", default="output_length")
            parser.add_argument("--trace-label-input-length", default="input_length")
            parser.add_argument("--trace-window", type=int)
            parser.add_argument("--trace-label-timestamp", default="timestamp")
            FrontendArgs.add_cli_args(parser)
            args = parser.parse_args()
            TraceDataset(**vars(args)).sample([])
        """,
}


@pytest.fixture(scope="module")
def bench(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("bench"), "bench", BENCH)


def test_the_declared_flag_takes_the_place_of_the_one_the_message_names(bench: Store) -> None:
    page = page_with_message(bench, "bench", "Output field")
    texts = [s.text for s in page.solutions]
    assert texts[0] == (
        "Do what the message says, with the flag this version declares in place of "
        "`--label-output-length`: “Use --trace-label-output-length to specify the correct "
        "field name.” (`--trace-label-output-length` sets `self.label_output_length` at "
        "line 8.)"
    )
    assert not any(t.startswith("Do what the message says: ") for t in texts)
    assert "this version of bench declares no `--label-output-length`" in page.what_it_means


def test_the_attribute_the_message_shows_names_the_declared_flag(bench: Store) -> None:
    # no `self.label_timestamp`: the message shows `self.label_ts`, set from the declared
    # flag whose name ends with the one the message names
    page = page_with_message(bench, "bench", "Timestamp field")
    assert page.solutions[0].text.startswith(
        "Do what the message says, with the flag this version declares in place of "
        "`--label-timestamp`: “Use --trace-label-timestamp to specify the field name.”"
    )


def test_a_declared_flag_is_quoted_as_it_is(bench: Store) -> None:
    page = page_with_message(bench, "bench", "Input field not found")
    texts = [s.text for s in page.solutions]
    assert (
        "Do what the message says: “Use --trace-label-input-length to specify the field name.”"
        in texts
    )
    assert "declares no" not in page.what_it_means


def test_another_programs_flag_is_quoted_as_it_is(bench: Store) -> None:
    page = page_with_message(bench, "bench", "Entry too large")
    assert any("--shm-size" in s.text for s in page.solutions)
    assert "declares no" not in page.what_it_means


def test_a_generated_flag_is_declared(bench: Store) -> None:
    # `--chat-template` is made of `FrontendArgs.chat_template` by `add_cli_args`; the
    # attribute of its name is set from `--trace-window`, which would read as a stale flag
    page = page_with_message(bench, "bench", "No template")
    assert "declares no" not in page.what_it_means
    assert not any("--trace-window" in s.text for s in page.solutions)


FLAGS = frozenset({"--timed-label-ts", "--timed-label-out", "--other"})


def test_a_declared_flag_read_through_args_sets_the_attribute() -> None:
    text = (
        "class T:\n    def __init__(self, args):\n        self.label_out = args.timed_label_out\n"
    )
    found = stale_flag("--label-out", text, FLAGS)
    assert found is not None
    assert (found.declared, found.attribute, found.line) == (
        "--timed-label-out",
        "self.label_out",
        3,
    )
    assert found.swapped("Use --label-out or --label-outer.") == (
        "Use --timed-label-out or --label-outer."
    )


def test_two_declared_flags_setting_the_attribute_name_none() -> None:
    text = "self.label_out = args.timed_label_out or args.other\n"
    assert stale_flag("--label-out", text, FLAGS) is None


def test_an_attribute_set_from_no_flag_names_none() -> None:
    assert stale_flag("--label-out", "self.label_out = 'x'\n", FLAGS) is None
    assert stale_flag("--label-out", "self.label_outer = args.other\n", FLAGS) is None


def test_a_shown_attribute_needs_the_named_flags_words() -> None:
    text = "self.label_ts = args.timed_label_ts\n"
    found = stale_flag("--label-ts", text, FLAGS, "label_ts")
    assert found is not None and found.declared == "--timed-label-ts"
    assert stale_flag("--stamp", text, FLAGS, "label_ts") is None


def test_a_value_over_several_lines_is_read() -> None:
    text = "self.label_out = str(\n    kwargs.get(\n        'timed_label_out'\n    )\n)  # c\n"
    found = stale_flag("--label-out", text, FLAGS)
    assert found is not None and found.declared == "--timed-label-out"
