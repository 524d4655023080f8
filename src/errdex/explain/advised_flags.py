"""The fix of a message's advice that names a flag to give: the program's command line.

"Re-run with --kv-cache-dtype float16.", "for example: --dtype=half", "Please set
`--disable-hybrid-kv-cache-manager`.", "... or use --enforce-eager.": when the flag is a
setting of the site with the command line that takes it (`vllm serve MODEL_TAG`), the
fix is that command with the flag as the message gives it: its value, or the flag alone
for a switch (a `bool` field). Only after a verb that gives the flag (use, set, pass,
add, with, via, specify, "for example:"), never after one that takes it away ("Disable
--enable-dbo", "do not specify --x") or changes it by an amount ("Try lowering
--gpu-memory-utilization"); a value flag needs its value written out (not "set
--ubatch-size to 0", "pass --numa-bind-nodes explicitly"), and advice that joins two flags
with "and" is no one flag.
"""

from __future__ import annotations

import re

from errdex.explain.fix_forms import command_fix
from errdex.explain.page import ExampleFix, Knob
from errdex.facts import KnobKind

_GIVES = re.compile(
    r"\b(?:use|set|pass|add|with|via|specify|example:?)\s+`?(?P<flag>--[a-z][\w-]*)"
    r"(?:(?:=|\s+)(?P<value>[\w:/-]+(?:\.[\w:/-]+)*))?`?",
    re.I,
)
# a verb said not to do: "do not specify", "don't pass", "never use"
_NEGATED = re.compile(r"(?:\bnot|n't|\bnever)\s+$", re.I)
# words after a flag that are no value of it
_NO_VALUE = frozenset(
    {"or", "and", "to", "instead", "in", "for", "if", "when", "with", "the", "a", "an", "flag"}
)


def advised_flag_fix(advice: str, knobs: list[Knob]) -> ExampleFix | None:
    """The command line with the flag the advice gives, or None."""
    flags = set(re.findall(r"--[a-z][\w-]*", advice))
    if len(flags) > 1 and re.search(r"\band\b", advice):
        return None  # "Disable --enable-dbo and set --ubatch-size 1": one flag is half of it
    for found in _GIVES.finditer(advice):
        if _NEGATED.search(advice[: found.start()]):
            continue  # "Please do not specify `--x`": takes the flag away
        knob = next((k for k in knobs if k.kind == KnobKind.FLAG and k.name == found["flag"]), None)
        if knob is None or not knob.command:
            continue
        value = found["value"]
        if value is not None and re.fullmatch(r"[a-z]+ly", value):
            value = None  # "pass --numa-bind-nodes explicitly": how, not what
        switch = "bool" in (knob.value_type or "").split(" | ")
        if switch:
            if value is not None and value.lower() not in _NO_VALUE:
                continue  # a switch given a value: not read so
            keyword = "True"
        elif value is None or value.lower() in _NO_VALUE:
            continue
        else:
            keyword = repr(value)
        return command_fix(knob, keyword, "The message's own advice, on the command line.")
    return None
