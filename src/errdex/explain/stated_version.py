"""A least version of a package or library the message states: upgrading it is the way out.

"psycopg version 3.0.2 or higher is required", "Proton ... requires Triton >= {minimum}",
"ncclCommSuspend is not available ... (requires NCCL >= 2.29.7)", "To enable X please update
your NCCL version to >= 2.27.03", "cx_Oracle version 8 and above are supported": the sentence
names what must be newer and from which version. It is read only where the requirement is
the sentence's whole object (right after "requires"/"needs"/"update your", the subject of "is
required", or of "and above are supported"), so a list of needs ("requires an SM100-class GPU
and DeepGEMM >= 2.8", "cuDNN >= 9.17.1 on Blackwell") is left alone: upgrading one of them is
no way out on its own. A version is a dotted number or a placeholder (`{minimum}`), or a whole
number right after the word "version", never a bare count ("requires context length >= 1").

On the page: a name the site's file imports as it is written (`psycopg`, `transformers`) is
a Python distribution, upgraded with pip; any other name (NCCL, CUDA, PyTorch, Triton) is
said as written, with no command. A library the program loads may be chosen by an
environment variable the file reads (`VLLM_NCCL_SO_PATH`): pointing it at a newer build is
named beside the upgrade.
"""

from __future__ import annotations

import ast
import re
import shlex

from errdex.explain.fix_forms import change_fix
from errdex.explain.page import Change, Solution
from errdex.link.expression_texts import parse_expression

_NAME = r"[`'\"]?(?P<name>[A-Za-z][\w.+-]*(?-i:\s+[A-Z][\w.+-]*)?)[`'\"]?"
_VERSION = r"(?P<version>v?\d+(?:\.\d+)+|\{[^{}]+\}(?:\.\{[^{}]+\})*)"
# "NCCL >= 2.29.7", "transformers>={required}", "'fastokens' package (>= 0.2.0)", "NCCL
# version to >= 2.27.03", "psycopg version 3.0.2 or higher", "ROCm 7.1+"
_FORM = (
    rf"{_NAME}(?:\s+(?:version|package))?(?:\s+to)?\s*(?:\(\s*)?>=\s*{_VERSION}\)?"
    rf"|{_NAME.replace('name>', 'name2>')}(?:\s+version)?\s+"
    rf"{_VERSION.replace('version>', 'version2>')}"
    r"(?:\+|\s+or\s+(?:higher|newer|later|above|greater)\b)"
)
# the requirement right after the verb that asks for it, or the subject of "is required"
_AFTER_VERB = re.compile(
    r"\b(?:requires?|needs?|please\s+(?:use|install|upgrade|update)(?:\s+your)?|"
    r"(?:update|upgrade)\s+your)\s+(?:to\s+)?(?:the\s+|your\s+|an?\s+)?"
    rf"(?:{_FORM})",
    re.I,
)
_SUBJECT = re.compile(rf"^(?:the\s+)?(?:{_FORM})\s+(?:is|are)\s+required\b", re.I)
# "cx_Oracle version 8 and above are supported": the versions it supports, from the least
# on (after the word "version" a whole number is one too)
_SUPPORTED = re.compile(
    rf"^(?:only\s+)?{_NAME}\s+versions?\s+(?P<version>v?\d+(?:\.\d+)*|\{{[^{{}}]+\}})\s+"
    r"(?:and|or)\s+(?:above|higher|newer|later|greater)\s+(?:is|are)\s+supported\b",
    re.I,
)
# a need listed beside it: upgrading this one alone is no way out
_MORE = re.compile(r"^\s*(?:,\s*)?(?:and|or|on|with|plus|together)\b|^\s*,\s*\S+\s+(?:and|or)\b")
# "It needs NCCL 2.30.5 or newer" after "The backend requires the `nccl-extensions` package":
# the need of the thing the sentence before names, not of this check
_OF_ANOTHER = re.compile(r"^it\s+(?:also\s+)?(?:requires|needs)\b", re.I)
# words that name a property of the machine, not a thing to upgrade
_HARDWARE = frozenset(
    {"capability", "compute", "sm", "gpu", "arch", "architecture", "device", "python", "it"}
)
# an environment variable naming where a library is found: `VLLM_NCCL_SO_PATH`, `CUDA_HOME`
_PLACE = frozenset({"SO", "PATH", "HOME", "ROOT", "DIR", "LIB", "LIBRARY"})
_READ = re.compile(
    r"\benvs\.(?P<attr>[A-Z][A-Z0-9_]*)\b|"
    r"\b(?:environ\.get|getenv|environ)\s*[\[(]\s*['\"](?P<key>[A-Z][A-Z0-9_]*)['\"]"
)
_PLACEHOLDER = re.compile(r"\{([^{}]+)\}")


def stated_version(sentence: str) -> tuple[str, str] | None:
    """(the name, the least version) a sentence requires, as it writes them."""
    text = sentence.strip()
    if _OF_ANOTHER.match(text):
        return None
    for pattern in (_SUBJECT, _SUPPORTED, _AFTER_VERB):
        for match in pattern.finditer(text):
            found = match.groupdict()
            name = found["name"] or found.get("name2") or ""
            version = found["version"] or found.get("version2") or ""
            if name.lower() in _HARDWARE or name.endswith((".", "-")):
                continue
            if pattern is _AFTER_VERB and _MORE.match(text[match.end() :]):
                continue
            if re.fullmatch(r"[a-z_][a-z0-9_]*", name) and "_" in name and "{" in version:
                continue  # a value of the code's (`num_splits>={splits_needed}`)
            return name, _evaluated(version)
    return None


def _evaluated(version: str) -> str:
    """The version with each placeholder that indexes a literal tuple worked out:
    `{(12, 9)[0]}.{(12, 9)[1]}` is `12.9` (others stay: the user's message holds them)."""

    def value(match: re.Match[str]) -> str:
        node = parse_expression(match.group(1))
        if isinstance(node, ast.Subscript):
            try:
                return str(ast.literal_eval(node.value)[ast.literal_eval(node.slice)])
            except (ValueError, TypeError, IndexError, KeyError, SyntaxError, RecursionError):
                return match.group(0)
        return match.group(0)

    return _PLACEHOLDER.sub(value, version)


def version_solution(name: str, least: str, said: str, source: str | None) -> Solution:
    """The upgrade the message asks for: with pip when the site's file imports `name` as
    written, else by name, with the variable the file reads to find that library."""
    quote = f"as the message says: “{said}”"
    written = re.search(rf"(?<![\w.-]){re.escape(name)}>=", said) is not None
    distribution = re.fullmatch(r"[a-z][a-z0-9]*(?:[-_.][a-z0-9]+)*", name) is not None
    if distribution and (written or (source is not None and _imports(source, name))):
        # a floor the file keeps as a tuple (`_min_version = (1,)`) fills in as `(1,)`, which
        # no requirement takes: the upgrade is then asked for without one
        bare = source is not None and _tuple_floor(least, source)
        requirement = name if bare else f"{name}>={least}"
        command = shlex.join(["pip", "install", "--upgrade", requirement])
        text = f"Upgrade {name} to {least} or newer (`{command}`), {quote}"
        if "{" in least and not bare:
            return Solution(text=text, kind="environment", advice=True)
        change = Change(form="install", target=command)
        return Solution(
            text=text, kind="environment", change=change, fix=change_fix(change), advice=True
        )
    text = f"Upgrade {name} to {least} or newer, {quote}"
    found = _pointer(source, name) if source is not None else None
    if found is not None:
        variable, line = found
        text = (
            f"Upgrade {name} to {least} or newer, or point `{variable}` (read at line {line}) "
            f"at a build of {name} {least} or newer, {quote}"
        )
    return Solution(text=text, kind="environment", advice=True)


def _tuple_floor(least: str, source: str) -> bool:
    """Whether the version is one placeholder (`{self._min_version}`) naming an attribute
    the file assigns only tuples (`_min_version = (1,)`)."""
    match = re.fullmatch(r"\{(?:self\.|cls\.)?(?P<attr>[A-Za-z_]\w*)\}", least)
    if match is None:
        return False
    values = re.findall(rf"(?m)^[ \t]*{re.escape(match['attr'])}\s*(?::[^=\n]+)?=\s*(\S)", source)
    return bool(values) and all(value == "(" for value in values)


def _imports(source: str, name: str) -> bool:
    """Whether the file imports a top-level module spelt `name` exactly."""
    if not re.fullmatch(r"[a-z_][a-z0-9_]*", name) or name not in source:
        return False
    escaped = re.escape(name)
    return (
        re.search(rf"(?m)^[ \t]*(?:import|from)[ \t]+{escaped}\b", source) is not None
        or re.search(rf"\b(?:import_module|find_spec)\(\s*['\"]{escaped}['\"]", source) is not None
    )


def _pointer(source: str, name: str) -> tuple[str, int] | None:
    """An environment variable the file reads whose name says where `name` is found: the
    name's last word, then only words of a place (`VLLM_NCCL_SO_PATH` for NCCL), and the
    line of the read."""
    word = name.split()[-1].upper()
    if word not in source:
        return None
    for match in _READ.finditer(source):
        variable = match.group("attr") or match.group("key")
        parts = variable.split("_")
        if word not in parts:
            continue
        after = parts[len(parts) - 1 - parts[::-1].index(word) + 1 :]
        if after and all(p in _PLACE for p in after):
            return variable, source.count("\n", 0, match.start()) + 1
    return None
