"""A `try` that failed on a value the user gave: what the page says of it and the way out.

Found by `explain/tried_input.py`; kept on the page's facts, read by "What it means" and the
solutions.
"""

from __future__ import annotations

from dataclasses import dataclass

from errdex.explain.page import Solution
from errdex.explain.plain import code, listed

_MAX_FIELDS = 10


@dataclass(frozen=True)
class TriedInput:
    """The call of the `try` that failed on a value the user gave, and where they gave it."""

    calls: tuple[str, ...]  # the calls that take it, as written: `KVTransferConfig(**d)`
    caught: str  # what the clause catches: `ValidationError`
    try_line: int
    argument: str  # the parameter, or the key of `**kwargs`, the user gives: `kv_transfer_config`
    entry: str  # the public callable: `LLM`
    via: str  # how the call's name comes from it: "`raw_config_dict` is `kwargs[...]` (line 241)"
    fields: tuple[str, ...] = ()  # the fields of the class a dict is unpacked into
    builds: str | None = None  # that class's name
    quoted: bool = False  # the site's message quotes the caught error
    logged: bool = False  # the site logs (and the clause may raise after it)
    message: str = ""  # the site's message, quoted after the sentence
    parses: str | None = None  # what the call parses the value as: "valid JSON"
    # the other values given that the call reads, which say how to read it: `content_type`
    options: tuple[str, ...] = ()

    def called(self, joined: str = " or ") -> str:
        return joined.join(code(c) for c in self.calls)

    def sentence(self) -> str:
        """What failed, with which input: said in "What it means"."""
        via = f" ({self.via})" if self.via else ""
        return (
            f"It runs when {self.called()} (the `try` at line {self.try_line}) raised "
            f"{code(self.caught)}: that call failed on the value given to {code(self.entry)} "
            f"as {code(self.argument)}{via}{self._read_as()}."
        )

    def _read_as(self) -> str:
        """How the other values given tell the call to read the value, when any do."""
        if not self.options:
            return ""
        return f", read as {self._options()} {'asks' if len(self.options) == 1 else 'ask'}"

    def _options(self) -> str:
        """The other values given that tell the call how to read the value, listed."""
        return listed([code(o) for o in self.options])

    def solution(self) -> Solution:
        takes = ""
        if self.builds and self.fields:
            shown = ", ".join(code(f) for f in self.fields[:_MAX_FIELDS])
            more = len(self.fields) - _MAX_FIELDS
            tail = f" and {more} more" if more > 0 else ""
            takes = (
                f" The dict is unpacked into {code(self.builds)}, whose fields are {shown}{tail}: "
                "only these keys, each with a value of its declared type."
            )
        said = (
            f" The message quotes the {code(self.caught)} of that call, which says what it refused."
            if self.quoted
            else ""
        )
        told = "this is logged" if self.logged else "this error is raised in its place"
        form = f" that is {self.parses}" if self.parses else ""
        options = ""
        if self.options:
            one = len(self.options) == 1
            options = (
                f" That call reads it as {self._options()} "
                f"{'says: check it' if one else 'say: check those'} too."
            )
        return Solution(
            text=(
                f"Give {code(self.entry)} another {code(self.argument)}{form}: the value given "
                f"makes {self.called()} fail, and {told}{self.message}. The check is of the "
                f"value given, not of the program's state.{takes}{said}{options}"
            ),
            kind="input",
        )
