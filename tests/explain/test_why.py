"""Why the check is there, in the code's own words (`Page.why`): the comments above it and
its guards, the paragraph or `Raises`/`Args` entry of its function's docstring that speaks
of it, the docstring of the config field behind a flag, the comment above an environment
variable's read, the comment on a constant it tests, the message logged beside it or where
a setting takes effect. Each quote says where it is written; none that speaks of something
else, none that "What it means" repeats."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_in_function, page_with_message
from rich.console import Console

from errdex.explain.model.prompt import facts_text
from errdex.extract import extract_file
from errdex.extract.docs import MAX_DOC
from errdex.render.page_terminal import page_view
from errdex.store import Store
from errdex.web.links import Links
from errdex.web.pages import page_context
from errdex.web.templating import render_page

ENG = {
    "eng/__init__.py": "",
    "eng/envs.py": """
        import os

        environment_variables = {
            # ================== Runtime ==================
            # Use the V2 runner, which replays
            # sampled traces (replay requires it).
            "ENG_USE_V2": lambda: bool(int(os.getenv("ENG_USE_V2", "0"))),
        }


        def __getattr__(name):
            return environment_variables[name]()
        """,
    "eng/args.py": """
        from dataclasses import dataclass


        from eng.config import ModelConfig


        @dataclass
        class EngineArgs:
            enforce_eager: bool = False
            num_workers: int = ModelConfig.num_workers

            def check_workers(self):
                if self.num_workers > 8:
                    raise ValueError("too many workers")
        """,
    "eng/config.py": """
        import logging
        from dataclasses import dataclass

        from eng import envs

        logger = logging.getLogger(__name__)

        # Architectures whose kernels only the V2 runner has.
        V2_ONLY = ("Deep4",)


        @dataclass
        class ModelConfig:
            enforce_eager: bool = False
            \"\"\"Whether to always run eagerly. If True, no graphs are captured (tracing fails).

            A second paragraph the page leaves out.\"\"\"
            num_workers: int = 1
            \"\"\"Processes that run the model; at most eight fit on one host.\"\"\"


        @dataclass
        class DraftConfig:
            num_workers: int = 1
            \"\"\"Processes that run the draft model.\"\"\"


        class EngineConfig:
            def __post_init__(self):
                if self.model_config.enforce_eager:
                    self.compile_config.graph_mode = GraphMode.NONE
                    logger.info("Eager mode is the same as setting graph_mode=none")

            def check_eager(self):
                if self.model_config.enforce_eager:
                    raise ValueError("tracing does not work in eager mode")

            def check_runner(self):
                if not envs.ENG_USE_V2:
                    raise ValueError("replay requires the V2 runner")

            def check_arch(self, arch):
                if arch in V2_ONLY:
                    raise ValueError("this architecture needs the V2 runner")

            def check_items(self, items):
                # An item of the wrong kind means a loader bug: name it rather than skip.
                for item in items:
                    if isinstance(item, bytes):
                        raise TypeError("raw bytes reached the loader")

            def check_graphs(self):
                if self.compile_config.graph_mode != GraphMode.NONE:
                    raise ValueError("profiling needs graphs off")


        class Runner:
            def __init__(self, model_config):
                self.model_config = model_config

            def warm_up(self, n):
                if self.model_config.enforce_eager and self.model_config.num_workers > 1:
                    self.dummy_run(n)

            def dummy_run(self, n):
                \"\"\"Run a dummy pass to warm up.\"\"\"
                counts = [1] * n
                assert sum(counts) == n, "the split lost tokens"


        def load_shards(paths, shard_size):
            \"\"\"Load the checkpoint.

            The shard size must divide the hidden size: a shard holds whole heads, so an
            uneven ``shard_size`` would split one across two ranks.
            \"\"\"
            # Remember where we started, for the progress bar.
            started = len(paths)
            # Nothing to load: an empty run is fine.
            if not paths:
                return started
            if 4096 % shard_size:
                raise ValueError("shard size does not divide the hidden size")


        def open_stream(url, timeout):
            \"\"\"Open a stream.

            Args:
                url: where to read from.
                timeout: seconds to wait; a negative timeout waits forever on some
                    platforms, which is why it is refused.

            Raises:
                KeyError: when the url is unknown.
                ValueError: if the url is empty.
                ValueError: if the timeout is negative.
            \"\"\"
            if timeout < 0:
                logger.warning("timeout must be at least 0, as the socket layer waits forever")
                raise ValueError("negative timeout")


        def pair_media(audios, videos, upstream):
            if upstream:
                # Reuse the audio items the caller gave: each must pair with one video.
                audios = list(audios)
                videos = list(videos)
                if len(audios) != len(videos):
                    raise ValueError("audio and video items must pair up")
                logger.info("Using %d audio items from upstream.", len(audios))


        class UnknownOption(Exception):
            pass


        def parse_opt(arg, prefixes, ignore):
            try:
                match_long(arg)
            except UnknownOption:
                # The long match failed: with a two-character prefix the short form is not
                # tried, and the unknown option error is raised instead.
                if arg[:2] not in prefixes:
                    return match_short(arg)
                if not ignore:
                    raise


        def check_batch(batch, limit):
            if batch > limit:
                raise ValueError(
                    "batch over the limit",  # the scheduler sizes each batch buffer by limit
                )


        class Color:
            def downgrade(self, system):
                if self.system == 1:
                    return self.triplet
                else:  # self.system == ColorSystem.EIGHT_BIT
                    assert self.number is not None
                    return self.number

            def drop(self, number):
                # TODO: add error handling here
                if number is None:
                    raise ValueError("no color number to drop")


        def pad_heads(heads, width):
            \"\"\"Pad the heads.

            The kernel reads eight lanes at once. Padding keeps each head's width a
            multiple of eight lanes so that no head straddles two reads. The padded heads are
            zeros. They are cut off after the launch.
            \"\"\"
            if width % 8:
                raise ValueError("head width is not a multiple of eight")


        MAX_LANES = 8  # the kernel reads at most eight lanes in one pass



        def check_lanes(lanes):
            if lanes > MAX_LANES:
                raise ValueError("too many lanes")


        def quantize(tensor, bits):
            \"\"\"Quantize a tensor to a number of bits.

            Args:
                tensor: the tensor to quantize.
                bits: how many bits each value keeps.
            \"\"\"
            if tensor.ndim != 2:
                raise ValueError("the tensor to quantize is not two-dimensional")


        class Launcher:
            def __init__(self, width):
                # Lanes a launch spans.
                self.width = width

            def launch(self):
                \"\"\"Launch the kernel on the width.

                Contract
                --------
                The kernel reads its lanes in pairs: an odd ``width`` would read one
                lane past the launch buffer, so the width must be even.
                \"\"\"
                if self.width % 2:
                    raise ValueError("odd launch width")


        def send_all(chunks, peer):
            # The peer drops a connection after this many chunks.
            max_chunks = 64
            # Nothing to send.
            started = None
            if len(chunks) > max_chunks:
                raise ValueError("too many chunks for one connection")


        class Completer:
            def format_item(self, item):
                \"\"\"Format an item for the shell.

                This must be implemented by subclasses.
                \"\"\"
                raise NotImplementedError


        def rope_gate(rotary_dim, head_dim, section):
            \"\"\"Apply the gate.

            Args:
                rotary_dim: rotary dimension; must be even and at most head_dim.
                section: frequency counts per axis.
            \"\"\"
            if rotary_dim % 2 or rotary_dim > head_dim:
                raise ValueError("rotary_dim must be even and at most head_dim")
            if sum(section) != rotary_dim // 2:
                raise ValueError("section must sum to half of rotary_dim")


        def parse_part(part, supported_kinds):
            part_kind, content = part
            # if part_kind is text or image but content is None, log and skip
            if content is None:
                return None
            if part_kind not in supported_kinds:
                raise ValueError("unsupported part kind")


        class Relay:
            def send(self, tensors):
                if not self.is_last_rank:
                    # Non-last rank: return the tensors for sending.
                    assert tensors is not None
                    return self.handler.relay(tensors)
                return None

            def load_direct(self, params, name, weight):
                # Copy the weight directly, as the loaders do not know the fused name.
                assert name is not None
                param = params[name]
                param.data.copy_(weight)

            def fuse(self, flag, out, mix):
                if flag:
                    # Restated for the type checker, which cannot narrow the optional
                    # arguments through the flag.
                    assert out is not None
                    total = out + mix
                    return total


        class Encoder:
            def _run_graph(self, batch):
                \"\"\"Run the captured graph.

                Returns:
                    The outputs, or None if no graph was captured for the batch. They
                    are the model's.
                \"\"\"
                return self.graphs.get(batch)

            def run(self, batch):
                output = self._run_graph(batch)
                assert output is not None
                return output


        LIMIT_BYTES = 512
        \"\"\"The transfer buffer holds at most this many bytes of one payload. The kernel
        copies the whole buffer in one pass, and a longer payload would write past its end
        into the next request's buffer, which corrupts that request without any error. The
        limit is therefore checked before each copy, and a payload over it is refused with
        an error that names its size, so the caller can split it.\"\"\"


        def check_bytes(size):
            if size > LIMIT_BYTES:
                raise ValueError("payload over the byte limit")


        def load_packed(names, method, fused_name):
            for name in names:
                # Unified handler for packed weights and scales
                if method == "packed" and name.endswith(".weight_scale"):
                    first = name.split(".")[0]
                    second = first.upper()
                    third = second.lower()
                    fourth = third.strip()
                    assert fused_name is not None
        """,
    "eng/kinds.py": """
        class TypeHook:
            def process(self, value):
                \"\"\"Receive a bound value to be converted.

                Custom subclasses of :class:`_hooks.TypeHook` should override this method to
                provide custom behaviors for incoming data values.
                \"\"\"
                raise NotImplementedError()


        def replacement(lengths, data, index):
            # Use pre-computed lengths if available, otherwise fall back to audio_embeds
            if lengths:
                return lengths[index]
            else:
                audio_embeds = data.get("audio_embeds")
                if audio_embeds is not None:
                    embed = audio_embeds[index]
                    assert isinstance(embed, list)
                    return len(embed)
            return 0


        def sized(lengths, width):
            # With lengths given, `width` must not be negative: the buffer is sized by it
            if lengths:
                if width < 0:
                    raise ValueError("a negative width")
            return width
        """,
}


@pytest.fixture(scope="module")
def eng(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("eng"), "eng", ENG)


def why(store: Store, message: str) -> str:
    """The page's quotes, each as `of (file:line): “text”`, one a line; none repeated in
    what it means."""
    page = page_with_message(store, "eng", message)
    assert page.why, page.what_it_means
    for quote in page.why:
        assert quote.text not in page.what_it_means, (quote, page.what_it_means)
    assert "In the code's own words" not in page.what_it_means
    return "\n".join(f"{q.of} ({q.file}:{q.line}): “{q.text}”" for q in page.why)


def test_the_docstring_of_the_config_field_behind_a_flag(eng: Store) -> None:
    assert (
        "doc of `--enforce-eager`, as the flag declared here takes it (eng/args.py:9): “Whether "
        "to always run eagerly. If True, no graphs are captured (tracing fails).”"
        in why(eng, "tracing does not work")
    )


def test_a_generated_flags_field_is_documented_where_its_default_is(eng: Store) -> None:
    assert "doc of `--num-workers`" in why(eng, "too many workers")
    assert "“Processes that run the model; at most eight fit on one host.”" in why(
        eng, "too many workers"
    )


def test_the_comment_above_an_environment_variables_read(eng: Store) -> None:
    said = why(eng, "replay requires the V2 runner")
    assert (
        "doc of `ENG_USE_V2` (eng/envs.py:8): “Use the V2 runner, which replays sampled "
        "traces (replay requires it).”" in said
    ), said


def test_the_comment_on_a_constant_the_check_tests(eng: Store) -> None:
    said = why(eng, "this architecture needs")
    assert (
        "doc of `V2_ONLY` (eng/config.py:10): “Architectures whose kernels only the V2 "
        "runner has.”" in said
    ), said


def test_the_comment_above_the_loop_the_check_is_in(eng: Store) -> None:
    assert (
        "comment above the guard at line 49 (eng/config.py:48): “An item of the wrong kind means "
        "a loader bug: name it rather than skip.”" in why(eng, "raw bytes reached")
    )


def test_the_message_logged_where_a_setting_takes_effect(eng: Store) -> None:
    assert (
        "logged where `--enforce-eager` takes effect (eng/config.py:32): “Eager mode is the same "
        "as setting graph_mode=none”" in why(eng, "profiling needs graphs off")
    )


def test_no_setting_only_a_callers_guard_reads(eng: Store) -> None:
    page = page_with_message(eng, "eng", "the split lost tokens")
    assert any(k.name == "--enforce-eager" for k in page.knobs), page.knobs
    # no solution turns it either; and the docstring speaks of something else
    assert not page.solutions, page.solutions
    assert page.why == [], page.why


def test_a_later_docstring_paragraph_that_explains_and_no_unrelated_comment(eng: Store) -> None:
    said = why(eng, "shard size does not divide")
    assert said == (
        "docstring of `load_shards` (eng/config.py:75): “The shard size must divide the hidden "
        "size: a shard holds whole heads, so an uneven ``shard_size`` would split one across "
        "two ranks.”"
    ), said
    # the summary says nothing of the check, nor the comment above another statement


def test_the_raises_entry_the_args_entry_and_the_message_logged_beside(eng: Store) -> None:
    said = why(eng, "negative timeout").split("\n")
    assert said == [
        "docstring of `open_stream`, Raises `ValueError` (eng/config.py:98): “if the timeout "
        "is negative.”",
        "docstring of `open_stream`, Args `timeout` (eng/config.py:92): “seconds to wait; a "
        "negative timeout waits forever on some platforms, which is why it is refused.”",
        "logged beside the check (eng/config.py:101): “timeout must be at least 0, as the "
        "socket layer waits forever”",
    ], said
    page = page_with_message(eng, "eng", "negative timeout")
    # another exception's entry, and the same exception's for another reason
    assert "when the url is unknown" not in str(page.why)
    assert "if the url is empty" not in str(page.why)


def test_docs_are_read_at_extraction_without_rules_or_later_paragraphs() -> None:
    facts = extract_file("eng/config.py", ENG["eng/config.py"].replace("\n        ", "\n").encode())
    assert facts.constant_docs["V2_ONLY"] == "Architectures whose kernels only the V2 runner has."
    assert len(facts.constant_docs["LIMIT_BYTES"]) == MAX_DOC  # cut
    (model,) = [c for c in facts.classes if c.name == "ModelConfig"]
    assert model.field_docs == {
        "enforce_eager": "Whether to always run eagerly. If True, no graphs are captured "
        "(tracing fails).",
        "num_workers": "Processes that run the model; at most eight fit on one host.",
    }
    envs = extract_file("eng/envs.py", ENG["eng/envs.py"].replace("\n        ", "\n").encode())
    docs = {r.doc for r in envs.env_reads if r.doc}
    assert docs == {"Use the V2 runner, which replays sampled traces (replay requires it)."}


def test_a_comment_a_few_statements_above_the_check_not_what_is_logged_after_it(
    eng: Store,
) -> None:
    said = why(eng, "audio and video items must pair up")
    assert said == (
        "comment before the guard at line 110 (eng/config.py:107): “Reuse the audio items the "
        "caller gave: each must pair with one video.”"
    ), said


def test_a_comment_above_an_earlier_guard_that_says_the_error_is_raised(eng: Store) -> None:
    page = page_in_function(eng, "eng", "parse_opt")
    assert [(q.of, q.line) for q in page.why] == [("comment above the guard at line 125", 123)]
    assert page.why[0].text.startswith("The long match failed:"), page.why


def test_the_terminal_and_the_html_page_draw_the_quotes(eng: Store) -> None:
    page = page_with_message(eng, "eng", "negative timeout")
    console = Console(record=True, width=200)
    console.print(page_view(page))
    shown = console.export_text()
    assert "Why, in the code's own words" in shown
    assert "“if the timeout is negative.”" in shown
    assert "docstring of open_stream, Raises ValueError, eng/config.py:98" in shown
    html = render_page("error.html", Links(), **page_context(eng, page))
    assert "Why, in the code&#39;s own words" in html or "Why, in the code's own words" in html
    assert '<blockquote class="doc">if the timeout is negative.</blockquote>' in html
    assert "eng/config.py:98</a>" in html


def test_the_model_is_given_the_quotes_with_where_they_are_written(eng: Store) -> None:
    page = page_with_message(eng, "eng", "negative timeout")
    facts = facts_text(page)
    assert "THE CODE'S OWN WORDS ON THE CHECK" in facts
    assert "- docstring of `open_stream`, Raises `ValueError` [eng/config.py:98]: if the " in facts


def test_a_comment_at_the_end_of_a_line_of_the_raise(eng: Store) -> None:
    assert why(eng, "batch over the limit") == (
        "comment in the check (eng/config.py:134): “the scheduler sizes each batch buffer by limit”"
    )


def test_no_branch_label_written_as_code_nor_a_plan(eng: Store) -> None:
    assert page_in_function(eng, "eng", "Color.downgrade").why == []
    assert page_with_message(eng, "eng", "no color number to drop").why == []


def test_a_long_docstring_paragraph_is_cut_to_its_sentences_on_the_check(eng: Store) -> None:
    assert why(eng, "head width is not a multiple") == (
        "docstring of `pad_heads` (eng/config.py:155): “The kernel reads eight lanes at once. "
        "Padding keeps each head's width a multiple of eight lanes so that no head straddles "
        "two reads.”"
    )


def test_the_comment_at_the_end_of_a_tested_constants_line(eng: Store) -> None:
    assert why(eng, "too many lanes") == (
        "doc of `MAX_LANES` (eng/config.py:163): “the kernel reads at most eight lanes in one pass”"
    )


def test_no_argument_entry_or_summary_that_only_says_what_a_thing_is(eng: Store) -> None:
    # "the tensor to quantize." names the tested argument, yet gives no reason for the check
    page = page_with_message(eng, "eng", "the tensor to quantize")
    assert page.why == [], page.why


def test_a_free_section_over_dashes_is_quoted_by_whole_sentences(eng: Store) -> None:
    # a section that is no list of entries: its sentence over two lines is one text
    assert why(eng, "odd launch width") == (
        "docstring of `Launcher.launch`, Contract (eng/config.py:193): “The kernel reads its "
        "lanes in pairs: an odd ``width`` would read one lane past the launch buffer, so the "
        "width must be even.”"
    )


def test_the_comment_over_a_local_the_function_sets_to_a_literal(eng: Store) -> None:
    # `max_chunks = 64` is a constant of the function; `started = None` is no constant
    assert why(eng, "too many chunks") == (
        "comment on `max_chunks` (eng/config.py:201): “The peer drops a connection after this "
        "many chunks.”"
    )


def test_the_docstring_that_leaves_a_method_to_subclasses(eng: Store) -> None:
    page = page_in_function(eng, "eng", "Completer.format_item")
    assert [(q.of, q.line, q.text) for q in page.why] == [
        ("docstring of `Completer.format_item`", 213, "This must be implemented by subclasses.")
    ], page.why


def test_no_argument_entry_that_speaks_of_another_check_of_the_argument(eng: Store) -> None:
    # "must be even and at most head_dim" is the first check's; the sum's check shares
    # nothing with it but the argument's name
    assert page_with_message(eng, "eng", "section must sum").why == []
    said = why(eng, "rotary_dim must be even")
    assert said.startswith("docstring of `rope_gate`, Args `rotary_dim`"), said


def test_no_comment_above_an_early_exit_of_its_own(eng: Store) -> None:
    # the comment says why the early exit skips, not why the kind is refused
    assert page_with_message(eng, "eng", "unsupported part kind").why == []


def test_no_label_of_the_branch_an_assert_starts(eng: Store) -> None:
    # a branch's label, right under its `if`
    assert page_in_function(eng, "eng", "Relay.send").why == []
    # one that says why the assert is there stays, and one not under a branch's header
    assert len(page_in_function(eng, "eng", "Relay.load_direct").why) == 1
    page = page_in_function(eng, "eng", "Relay.fuse")
    assert [q.text[:26] for q in page.why] == ["Restated for the type chec"], page.why


def test_the_returns_sentence_of_the_function_whose_none_the_check_tests(eng: Store) -> None:
    page = page_in_function(eng, "eng", "Encoder.run")
    assert [(q.of, q.line, q.text) for q in page.why] == [
        (
            "docstring of `_run_graph`, Returns",
            268,
            "The outputs, or None if no graph was captured for the batch.",
        )
    ], page.why


def test_a_doc_cut_at_extraction_is_quoted_by_its_whole_sentences(eng: Store) -> None:
    # the doc read at extraction ends inside its third sentence: that one is left out
    said = why(eng, "payload over the byte limit")
    assert said.endswith("without any error.”"), said


def test_no_label_of_the_branch_far_above_the_check(eng: Store) -> None:
    # the comment over the `if` labels its branch; the assert sits five lines down it
    assert page_in_function(eng, "eng", "load_packed").why == []


def test_the_docstring_that_has_subclasses_override_the_method(eng: Store) -> None:
    # "Custom subclasses of X should override this method": a method left to them
    page = page_in_function(eng, "eng", "TypeHook.process")
    assert [(q.of, q.line) for q in page.why] == [("docstring of `TypeHook.process`", 6)]
    assert page.why[0].text.startswith("Custom subclasses of :class:`_hooks.TypeHook` should")


def test_no_comment_over_an_outer_branch_the_check_is_deep_inside(eng: Store) -> None:
    # the comment heads the `if`/`else` choice; the assert tests `embed`, which it does not
    # name (nor does the assert's message)
    page = page_in_function(eng, "eng", "replacement")
    assert page.why == [], page.why
    # one that names what the nearest guard tests (`width`) stays
    page = page_in_function(eng, "eng", "sized")
    assert [q.text for q in page.why] == [
        "With lengths given, `width` must not be negative: the buffer is sized by it"
    ], page.why
