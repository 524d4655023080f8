"""A flag the program still accepts but that decides nothing: never a way out.

vllm declares `--mamba-cache-mode` with the help “--mamba-cache-mode is deprecated and will
be removed in v0.33.0. It has no effect: Mamba prefix caching follows
--enable-prefix-caching.”, and only logs that when it is given: the config field of the same
name is derived from `--enable-prefix-caching`. A page that says “Pass `--mamba-cache-mode
none`” sends the user to a switch wired to nothing. A flag is retired when its declaration
says so: `add_argument(..., deprecated=True)`, or a help text (a literal, a module constant,
or the `help` of a `**{...}` spread) that calls it deprecated, without effect or ignored; or
when the config field behind it is documented “Deprecated: ...”. A solution that sets a
retired flag is dropped and the deprecation said in “What it means”; when that text names
another flag the version declares, that flag is offered instead. At the warning the
deprecation itself raises, leaving the flag out stays the way out.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize

from errdex.explain.context import Facts
from errdex.explain.deprecation import deprecation
from errdex.explain.page import ExampleFix, Solution
from errdex.extract.shapes import single_binding
from errdex.facts import KnobKind
from errdex.store.base import Store, StoredSite

__all__ = ["Retired", "carries_retired", "kept_flags", "retired_flag"]

_FLAG = re.compile(r"(?<![\w-])--[a-z][a-z0-9]*(?:-[a-z0-9]+)*(?![\w-])")
# “Deprecated: ...”, “This parameter is deprecated” (not “allow deprecated quantization
# methods”: a flag about deprecated things; not “The X backend is deprecated”: one value)
_DEPRECATED = re.compile(
    r"^\W*deprecated\b|\b(?:this|the)\s+(?:option|flag|argument|parameter|field|setting)\s+"
    r"(?:is|has\s+been)\s+(?:now\s+)?deprecated\b",
    re.I,
)
# “It has no effect.”, “is ignored since ...”, in a sentence with no condition (not “has no
# effect with Ray executors”, “If the model does not support it, this is ignored.”)
_NO_EFFECT = re.compile(
    r"\b(?:has\s+no\s+effect|(?:is|are)\s+(?:now\s+)?ignored)"
    r"(?:\s*(?:$|[.:;,)])|\s+(?:since|because|anymore|now)\b)",
    re.I,
)
_CONDITION = re.compile(r"\b(?:if|when|unless|only|with|without|for|on)\b", re.I)
_SENTENCE = re.compile(r"(?<=[.!?])\s+")


def _retired(text: str, flag: str) -> bool:
    """Whether a flag's help or field doc says the flag (`--x is deprecated`, `x (--x) is
    deprecated`) is deprecated or decides nothing."""
    own = rf"(?:{re.escape(flag)}|{re.escape(flag[2:].replace('-', '_'))})\)?"
    if _DEPRECATED.search(text) or re.search(rf"{own}\s+(?:is|has\s+been)\s+deprecated", text):
        return True
    return any(
        (m := _NO_EFFECT.search(s)) is not None and not _CONDITION.search(s[: m.start()])
        for s in _SENTENCE.split(text)
    )


# (version id, file, flag) → the store's names object then (its generation), and what the
# flag's declaration says when it retires the flag
_flags: dict[tuple[int, str, str], tuple[object, str | None]] = {}


class Retired:
    """A retired flag a solution sets, what its declaration says, and the flag the text
    names instead (one the version declares), if any."""

    def __init__(self, flag: str, text: str, instead: str | None) -> None:
        self.flag = flag
        self.text = text
        self.instead = instead

    def note(self) -> str:
        said = f" (“{self.text}”)" if self.text else ""
        return (
            f"`{self.flag}` is deprecated in this version and decides nothing here{said}, "
            "so setting it is no way out offered here."
        )

    def solution(self, dropped: Solution) -> Solution | None:
        if self.instead is None:
            return None
        return Solution(
            text=(
                f"Change `{self.instead}` instead, as the check needs: `{self.flag}` has no "
                f"effect in this version, and its deprecation names `{self.instead}` (see "
                "What it means)."
            ),
            condition=dropped.condition,
        )


def retired_flag(
    store: Store, stored: StoredSite, facts: Facts, solution: Solution
) -> Retired | None:
    """The retired flag `solution` sets, or None (also at the deprecation's own warning,
    where leaving the flag out is the way out)."""
    named = set(_FLAG.findall(solution.text))
    if solution.fix is not None:
        # the flags the fix sets: not those it keeps in both lines for the check to be met
        named.update(set(_FLAG.findall(solution.fix.after)) - kept_flags(solution.fix))
    wanted = named | {solution.knob} if solution.knob is not None else named
    return _retired_among(store, stored, facts, wanted, named)


def _retired_among(
    store: Store, stored: StoredSite, facts: Facts, wanted: set[str], named: set[str]
) -> Retired | None:
    """The first flag of the page among `wanted` that its declaration retires; the flag
    it names instead is one of the version's, not among `named` (those the page sets)."""
    flags = [k for k in facts.knobs if k.kind == KnobKind.FLAG and k.file]
    if not flags or deprecation(stored):
        return None
    for knob in flags:
        if knob.name not in wanted:
            continue
        text = _declared(store, stored.version_id, knob.file or "", knob.name)
        if text is None and knob.doc and _retired(knob.doc, knob.name):
            text = knob.doc
        if text is None:
            continue
        defined = store.defined_names(stored.version_id)
        others = [
            f
            for f in dict.fromkeys(_FLAG.findall(text))
            if f != knob.name and f in defined and f not in named
        ]
        return Retired(knob.name, " ".join(text.split()), others[0] if others else None)
    return None


def kept_flags(fix: ExampleFix) -> set[str]:
    """The flags a fix gives alike before and after (the settings the check needs)."""
    before, after = fix.before.split(), fix.after.split()
    return {
        word
        for i, word in enumerate(after)
        if _FLAG.fullmatch(word)
        and word in before
        and _next(after, i) == _next(before, before.index(word))
    }


def _next(words: list[str], at: int) -> str:
    return words[at + 1] if at + 1 < len(words) else ""


def carries_retired(store: Store, stored: StoredSite, facts: Facts, fix: ExampleFix) -> bool:
    """Whether the fix keeps a retired flag in both lines: it would show a switch wired to
    nothing as what the check needs."""
    return _retired_among(store, stored, facts, kept_flags(fix), set()) is not None


def _declared(store: Store, version_id: int, file: str, flag: str) -> str | None:
    """What `file`'s declaration of `flag` says, when it retires the flag."""
    defined = store.defined_names(version_id)
    cached = _flags.get((version_id, file, flag))
    if cached is not None and cached[0] is defined:
        return cached[1]
    text = store.file_text(version_id, file)
    found = _declaration(text, flag) if text and "add_argument" in text else None
    _flags[(version_id, file, flag)] = (defined, found)
    return found


def _declaration(text: str, flag: str) -> str | None:
    """The help of the `add_argument` call declaring `flag` when it retires the flag. Only
    that call is parsed, with the module constants it names: a large program's argument
    module runs to thousands of lines, and parsing it whole cost a cold page ~4 ms."""
    for quote in "\"'":
        at = text.find(f"{quote}{flag}{quote}")
        while at != -1:
            start = text.rfind("add_argument(", 0, at)
            call = _bracketed(text, start) if start != -1 else None
            if call is not None and start + len(call) > at:
                said = _retired_in(_with_constants(text, f"_.{call}")).get(flag)
                if said is not None:
                    return said
            at = text.find(f"{quote}{flag}{quote}", at + 1)
    return None


def _with_constants(text: str, call: str) -> str:
    """`call` after the module-level assignments of the names it reads (a help constant)."""
    try:
        tree = ast.parse(call)
    except (SyntaxError, ValueError):
        return call
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} - {"_"}
    if not names:
        return call
    heads = re.finditer(
        rf"^(?:{'|'.join(sorted(names))})[ \t]*(?::[^=\n]*)?=(?!=)", text, re.MULTILINE
    )
    found = [_bracketed(text, m.start(), logical_line=True) for m in heads]
    return "\n".join([*(f for f in found if f), call])


def _bracketed(text: str, start: int, *, logical_line: bool = False) -> str | None:
    """The text from `start` to the bracket that closes the first one opened (or to the end
    of the logical line), read by Python's tokenizer; None when it does not close."""
    source = io.StringIO(text)
    source.seek(start)
    read: list[str] = []

    def readline() -> str:
        read.append(source.readline())
        return read[-1]

    depth = 0
    try:
        for token in tokenize.generate_tokens(readline):
            if token.type == tokenize.OP and token.string in "([{":
                depth += 1
            elif token.type == tokenize.OP and token.string in ")]}":
                depth -= 1
                if depth == 0 and not logical_line:
                    return _upto(read, token.end)
            elif token.type == tokenize.NEWLINE and logical_line:
                return _upto(read, token.start)
    except (tokenize.TokenError, SyntaxError):
        return None
    return None


def _upto(lines: list[str], end: tuple[int, int]) -> str:
    row, column = end
    return "".join(lines[: row - 1]) + lines[row - 1][:column]


def _retired_in(text: str) -> dict[str, str]:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return {}
    constants = _string_constants(tree)
    out: dict[str, str] = {}
    for node in ast.walk(tree):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "add_argument"
        ):
            continue
        names = [
            a.value
            for a in node.args
            if isinstance(a, ast.Constant) and isinstance(a.value, str) and a.value[:2] == "--"
        ]
        if not names:
            continue
        help_text = ""
        marked = False
        for keyword in node.keywords:
            if keyword.arg == "deprecated":
                marked = not (isinstance(keyword.value, ast.Constant) and not keyword.value.value)
            elif keyword.arg == "help":
                help_text = _string(keyword.value, constants) or ""
            elif keyword.arg is None and isinstance(keyword.value, ast.Dict):
                for key, value in zip(keyword.value.keys, keyword.value.values, strict=True):
                    if isinstance(key, ast.Constant) and key.value == "help":
                        help_text = _string(value, constants) or ""
        for name in names:
            if marked or _retired(help_text, name):
                out[name] = help_text
    return out


def _string_constants(tree: ast.Module) -> dict[str, str]:
    out: dict[str, str] = {}
    for stmt in tree.body:
        if (bound := single_binding(stmt)) is None:
            continue
        target, value = bound
        if isinstance(target, ast.Name):
            text = _string(value, {})
            if text is not None:
                out[target.id] = text
    return out


def _string(node: ast.expr, constants: dict[str, str]) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name):
        return constants.get(node.id)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _string(node.left, constants), _string(node.right, constants)
        return left + right if left is not None and right is not None else None
    return None
