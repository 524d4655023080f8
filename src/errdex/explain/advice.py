"""What the error's own message tells the user to do: its authors' word on the way out.

A message often says it: "Make sure to install httpx using `pip install httpx[http2]`",
"use --quantization fp8_per_tensor", "set VLLM_USE_V2_MODEL_RUNNER=1". Each sentence of
the template that gives an instruction is a solution, classed by what it changes: the
environment (install, upgrade), a setting (a flag, an environment variable), or else the
input. Placeholders stay as they are: the user's message holds their values.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# A sentence that instructs: an imperative verb first (after "please"/"you can"/"try to"),
# or an install command anywhere.
_INSTRUCTS = re.compile(
    r"^(?:please\s+|you\s+(?:can|should|must|may\s+need\s+to|need\s+to)\s+|try\s+(?:to\s+)?|"
    r"consider\s+|instead,?\s+|alternatively,?\s+|or\s+|to\s+fix\s+this,?\s+)?"
    r"(?:use|using|set|setting|pass|passing|install|installing|upgrade|upgrading|update|"
    r"downgrade|enable|enabling|disable|disabling|remove|removing|specify|provide|add|"
    r"increase|increasing|decrease|decreasing|reduce|reducing|lower|switch|run|call|choose|"
    r"select|make\s+sure|ensure|export|unset|turn\s+(?:on|off)|rerun|re-run|restart|"
    r"define|declare|replace|rename|change)\b",
    re.I,
)
_INSTALL = re.compile(
    r"(?:\b(?:uv\s+)?pip3?\s+install|\bconda\s+install|\bapt(?:-get)?\s+install|"
    r"\bpoetry\s+add|\buv\s+add)\s+[^\s`'\"]+(?:\s+[^\s`'\".,;]+)*",
    re.I,
)
_ENVIRONMENT = re.compile(
    r"\b(?:install|upgrade|downgrade|update|version|pip|conda|package|driver|cuda|platform|"
    r"gpu|python\s+\d)",
    re.I,
)
_SETTING = re.compile(
    r"(?:^|[\s`'\"(])--?[a-z][\w-]*|\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b|\benv(?:ironment)?\b"
)
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+(?=[A-Za-z`'\"(])|\n+")
_MAX_ADVICE = 3
_MAX_CHARS = 300


@dataclass(frozen=True)
class Advice:
    text: str  # the sentence, as the message says it
    kind: str  # "environment", "setting" or "input"
    command: str | None = None  # a command it quotes: `pip install httpx[http2]`


def message_advice(message: str | None) -> list[Advice]:
    """The instructions in a message template, in order, at most a few."""
    if not message:
        return []
    found: list[Advice] = []
    for sentence in _sentences(message):
        install = _INSTALL.search(sentence)
        command = install.group(0).strip().rstrip("`'\".,;") if install else None
        if command is None and not _instructs(sentence):
            continue
        text = sentence.strip().strip("`'\" ")[:_MAX_CHARS]
        if len(text.split()) < 2 or _only_placeholder(text):
            continue
        found.append(Advice(text=text, kind=_kind(text, command), command=command))
        if len(found) >= _MAX_ADVICE:
            break
    return found


def _sentences(message: str) -> list[str]:
    out: list[str] = []
    for part in _SENTENCE_END.split(message):
        # a clause after ";" or ", " that instructs is a sentence of its own:
        # "requires Model Runner V2; set VLLM_USE_V2_MODEL_RUNNER=1."
        for clause in re.split(
            r";\s+|,\s+(?=(?:please|try|use|set|or)\b)|\s+-\s+|:\s+(?=\w)", part
        ):
            if clause.strip():
                out.append(clause.strip())
    return out


def _instructs(sentence: str) -> bool:
    return _INSTRUCTS.match(sentence.strip().lstrip("(`'\"")) is not None


def _only_placeholder(text: str) -> bool:
    return not re.sub(r"\{[^{}]*\}", "", text).strip(" .,:;!?`'\"")


def _kind(text: str, command: str | None) -> str:
    if command is not None or _ENVIRONMENT.search(text):
        return "environment"
    if _SETTING.search(text):
        return "setting"
    return "input"
