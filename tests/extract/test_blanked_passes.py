"""What a call in a blanked body gives by keyword (`extract.blanked_passes`)."""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterator

from errdex.extract import blanked_passes, extract_file
from errdex.extract.skeleton import build_skeleton
from samples import QUIET_FUNCTIONS

# A constructor that raises nothing (so the skeleton blanks it) building a part from the
# user's settings: one keyword given a local, one a chain, one a call.
MODEL = QUIET_FUNCTIONS + textwrap.dedent(
    """
    from pkg.encoder import AudioEncoder


    class OmniModel:
        def __init__(self, *, vllm_config, prefix=""):
            config = vllm_config.model_config.hf_config
            model_path = vllm_config.model_config.model
            if config.audio is not None:
                with self.marked(vllm_config):
                    self.audio = AudioEncoder(
                        config.audio,
                        model_path=model_path,
                        quant_config=vllm_config.quant_config,
                        prefix=join(prefix, "audio"),
                    )
    """
)


def _passes(source: str) -> tuple[tuple[str, str, int], ...]:
    assert build_skeleton(source) is not None
    facts = extract_file("pkg/model.py", source.encode())
    (call,) = [c for c in facts.call_sites if c.callee == "AudioEncoder"]
    return call.passes


def test_a_blanked_calls_keywords_give_the_chains_they_hold() -> None:
    # the local is followed to the chain it is assigned; the call's value is not read
    assert _passes(MODEL) == (
        ("model_path", "vllm_config.model_config.model", -1),
        ("quant_config", "vllm_config.quant_config", -1),
    )


def test_a_local_bound_again_or_under_a_branch_gives_nothing() -> None:
    assert "        if config.audio" in MODEL
    again = MODEL.replace(
        "        if config.audio",
        "        if prefix:\n            model_path = prefix\n        if config.audio",
    )
    assert _passes(again) == (("quant_config", "vllm_config.quant_config", -1),)
    branched = MODEL.replace(
        "        model_path = vllm_config.model_config.model\n",
        "        if prefix:\n            model_path = vllm_config.model_config.model\n",
    )
    assert _passes(branched) == (("quant_config", "vllm_config.quant_config", -1),)


def test_a_keyword_of_a_nested_call_or_in_a_string_is_not_the_calls() -> None:
    nested = MODEL.replace(
        'prefix=join(prefix, "audio")',
        'prefix=join(prefix, part=vllm_config.part), note="a, b=vllm_config.b, c"',
    )
    assert _passes(nested) == _passes(MODEL) != ()


def test_a_keyword_right_after_the_parenthesis_is_read() -> None:
    first = MODEL.replace("                    config.audio,\n", "")
    assert _passes(first) == _passes(MODEL)


def _tail_passes(tail: str) -> tuple[tuple[str, str, int], ...]:
    """The keywords of `AudioEncoder(...)` in a blanked body that binds `model_path` once to
    a chain and then runs `tail`."""
    head = textwrap.dedent(
        """
        from pkg.encoder import AudioEncoder


        class OmniModel:
            def __init__(self, *, vllm_config):
                model_path = vllm_config.model_config.model
        """
    )
    return _passes(QUIET_FUNCTIONS + head + textwrap.indent(textwrap.dedent(tail), " " * 8))


def test_a_local_bound_again_anywhere_in_the_body_gives_nothing() -> None:
    plain = "self.enc = AudioEncoder(model_path=model_path)\n"
    assert _tail_passes(plain) == (("model_path", "vllm_config.model_config.model", -1),)
    rebound = [
        # after the call, in the loop around it: the next turn passes the other value
        """
        for part in vllm_config.parts:
            self.enc = AudioEncoder(model_path=model_path)
            model_path = part.path
        """,
        # a comprehension's target, on the call's own line or the next
        "encs = [AudioEncoder(model_path=model_path) for model_path in vllm_config.paths]\n",
        """
        encs = [
            AudioEncoder(model_path=model_path)
            for model_path in vllm_config.paths
        ]
        """,
        # a parameter of the nested function the call is in
        """
        def make(model_path):
            return AudioEncoder(model_path=model_path)
        """,
        # bound after the closure that calls is made
        """
        def make():
            return AudioEncoder(model_path=model_path)
        model_path = vllm_config.other_path
        """,
        # an import binds it too
        "from pkg.paths import model_path\n" + plain,
    ]
    for tail in rebound:
        assert _tail_passes(tail) == (), tail


def test_a_keyword_in_a_comment_or_given_twice_is_not_read() -> None:
    commented = """
        self.enc = AudioEncoder(
            # was: a, dtype=vllm_config.old_dtype,
            vllm_config,
        )
        """
    assert _tail_passes(commented) == ()
    twice = "self.enc = AudioEncoder(dtype=vllm_config.a, dtype=vllm_config.b)\n"
    assert _tail_passes(twice) == ()


def test_a_local_given_to_several_calls_is_given_to_each() -> None:
    # another call's keywords (`model_path=model_path, prefix=...`) bind nothing
    source = QUIET_FUNCTIONS + textwrap.dedent(
        """
        from pkg.encoder import AudioEncoder


        class OmniModel:
            def __init__(self, *, vllm_config):
                model_path = vllm_config.model_config.model
                self.enc = AudioEncoder(model_path=model_path, prefix="a")
                self.dec = AudioEncoder(model_path=model_path, prefix="b")
        """
    )
    facts = extract_file("pkg/model.py", source.encode())
    given = [c.passes for c in facts.call_sites if c.callee == "AudioEncoder"]
    assert given == [(("model_path", "vllm_config.model_config.model", -1),)] * 2


def test_a_bodys_names_are_read_once_for_all_its_calls(monkeypatch) -> None:
    # a long body with a call per line costs one pass over it, not one per call
    made: list[int] = []
    real = blanked_passes.BodyNames.__init__

    def counted(self: blanked_passes.BodyNames, text: str, body: int, end: int) -> None:
        made.append(body)
        real(self, text, body, end)

    monkeypatch.setattr(blanked_passes.BodyNames, "__init__", counted)
    tail = "".join(f"self.enc{i} = AudioEncoder(model_path=model_path)\n" for i in range(50))
    source = (
        QUIET_FUNCTIONS
        + "from pkg.encoder import AudioEncoder\n\n\ndef build(vllm_config):\n"
        + "    model_path = vllm_config.model_config.model\n"
        + textwrap.indent(tail, "    ")
    )
    facts = extract_file("pkg/model.py", source.encode())
    given = [c.passes for c in facts.call_sites if c.callee == "AudioEncoder"]
    assert given == [(("model_path", "vllm_config.model_config.model", -1),)] * 50
    assert len(made) == 1


class _CountedNames:
    """`blanked_passes._NAME`, counting the names it reads out of a body."""

    def __init__(self, real: re.Pattern[str]) -> None:
        self.real = real
        self.read = 0

    def finditer(self, *args: object) -> Iterator[re.Match[str]]:
        for match in self.real.finditer(*args):  # type: ignore[call-overload]
            self.read += 1
            yield match

    def match(self, *args: object) -> re.Match[str] | None:
        self.read += 1
        return self.real.match(*args)  # type: ignore[call-overload]


def test_a_long_body_is_read_for_the_names_given_not_for_every_name(monkeypatch) -> None:
    # a kernel's body of thousands of names, one local given by keyword: its occurrences
    # are found, not every name of the body read for them
    counted = _CountedNames(blanked_passes._NAME)
    monkeypatch.setattr(blanked_passes, "_NAME", counted)
    work = "".join(f"acc_{i} = scale_{i} * weight_{i} + bias_{i}\n" for i in range(500))
    tail = work + "self.enc = AudioEncoder(model_path=model_path)\n"
    assert _tail_passes(tail) == (("model_path", "vllm_config.model_config.model", -1),)
    assert counted.read < 20


def test_a_body_given_many_locals_reads_each_as_one_pass_over_all_does() -> None:
    # past a few names the body's names are indexed at once: the same bindings either way
    names = [f"part_{i}" for i in range(12)]
    bound = "".join(f"{n} = vllm_config.{n}_config\n" for n in names)
    calls = "".join(f"self.{n}_enc = AudioEncoder(model_path={n})\n" for n in names)
    again = "part_3 = None\n"  # bound twice: gives nothing
    head = "from pkg.encoder import AudioEncoder\n\n\ndef build(vllm_config):\n"
    source = QUIET_FUNCTIONS + head + textwrap.indent(bound + calls + again, "    ")
    facts = extract_file("pkg/model.py", source.encode())
    given = [c.passes for c in facts.call_sites if c.callee == "AudioEncoder"]
    assert given == [
        () if n == "part_3" else (("model_path", f"vllm_config.{n}_config", -1),) for n in names
    ]


def test_a_name_found_alone_is_where_the_scan_of_every_name_finds_it() -> None:
    text = (
        "x = a.x + x_y + _x(x) + x\nxx = x.xx; y.x = x  # x\nf(x=x, xx=xx)\né_x = xé + x2 + 1x + x"
    )
    every: dict[str, list[int]] = {}
    for match in blanked_passes._NAME.finditer(text, 2, len(text) - 1):
        every.setdefault(match.group(), []).append(match.start())
    for name in ("x", "xx", "x_y", "_x", "a", "y", "f", "x2", "xé", "absent"):
        alone = blanked_passes._whole_names(text, name, 2, len(text) - 1)
        assert alone == every.get(name, []), name
