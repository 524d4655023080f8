"""Registries: the tables that pick which code runs, by a setting's value.

- an `Enum` whose members name classes (`CUTLASS = "pkg.backends.cutlass.CutlassBackend"`,
  or `CUTLASS = CutlassBackend`): a setting typed with the enum picks the class by member;
- a list of candidates written one per line (`Backend.FLASH,` / `FastKernel,`): what the
  code tries in turn (a platform's priority list), so what stands in for each other;
- a filter by class name (`if kernel.__name__ in envs.DISABLED: continue`): a setting that
  takes a class out of the candidates.

Scans of the text, as the attribute settings are: the skeleton the extractor parses has
blanked the bodies that hold the lists. Only an enum's own body is parsed, and only when
its class line says it is an enum.
"""

from __future__ import annotations

import ast
import re
import textwrap
import warnings

from errdex.extract.textscan import occurrences
from errdex.facts import ChoiceList, NameFilter

_ENUM_CLASS = re.compile(r"^([ \t]*)class[ \t]+(\w+)[ \t]*\(([^)]*\b\w*Enum\b[^)]*)\)[ \t]*:", re.M)
# `Backend.FLASH,` (an enum member) or `FastKernel,` (a class), alone on its line.
_ITEM = re.compile(r"[ \t]*(\*?[A-Za-z_]\w*(?:\.[A-Z][A-Z0-9_]*)?),?[ \t]*(?:#.*)?")
_MEMBER = re.compile(r"[A-Za-z_]\w*\.[A-Z][A-Z0-9_]*")
_CLASS_NAME = re.compile(r"_?[A-Z][a-z0-9]+[A-Za-z0-9]*")
# a one-line list of members: `[Backend.FLASH, Backend.TRITON]`
_INLINE = re.compile(
    r"[\[(]((?:[ \t]*[A-Za-z_]\w*\.[A-Z][A-Z0-9_]*[ \t]*,)+[ \t]*"
    r"[A-Za-z_]\w*\.[A-Z][A-Z0-9_]*[ \t]*,?[ \t]*)[\])]"
)
_BY_NAME = re.compile(r"[\w.\]\[()]+\.__name__[ \t]+(not[ \t]+)?in[ \t]+([A-Za-z_][\w.]*)")
_ONE_NAME = re.compile(r"""["']([A-Za-z_]\w*)["'][ \t]+not[ \t]+in[ \t]+([A-Za-z_][\w.]*)""")
_SKIP = re.compile(r"(?:continue|return)\b(?![ \t]*[\w(\[{\"'])|return[ \t]+(?:False|None)\b")
_MAX_MEMBERS = 300
_MAX_LISTS = 400
_MAX_ITEMS = 40
_MAX_FILTERS = 50


def enum_registries(text: str) -> dict[str, dict[str, str]]:
    """Enum classes whose members name classes: enum → member → the class, as written."""
    if "Enum" not in text:
        return {}
    found: dict[str, dict[str, str]] = {}
    for head in _ENUM_CLASS.finditer(text):
        members = _members(_body(text, head.end(), len(head.group(1))))
        if members:
            found[head.group(2)] = members
    return found


def _body(text: str, start: int, indent: int) -> str:
    """The indented block after a class line, up to the first line indented no deeper."""
    lines: list[str] = []
    for line in text[start:].split("\n")[1:]:
        stripped = line.lstrip()
        if stripped and len(line) - len(stripped) <= indent and not stripped.startswith("#"):
            break
        lines.append(line)
        if len(lines) > 4 * _MAX_MEMBERS:
            break
    return "\n".join(lines)


def _members(body: str) -> dict[str, str]:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(textwrap.dedent(body))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return {}
    members: dict[str, str] = {}
    for stmt in tree.body:
        if not (
            isinstance(stmt, ast.Assign)
            and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)
            and not stmt.targets[0].id.startswith("_")
        ):
            continue
        value = stmt.value
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            named = value.value
            # a dotted path ending in a class: `pkg.mod.Class`
            parts = named.split(".")
            if len(parts) < 2 or not all(p.isidentifier() for p in parts):
                continue
            if not parts[-1][:1].isupper():
                continue
        elif isinstance(value, ast.Name) and value.id[:1].isupper():
            named = value.id
        else:
            continue
        members[stmt.targets[0].id] = named[:200]
        if len(members) >= _MAX_MEMBERS:
            break
    return members


def choice_lists(text: str) -> list[ChoiceList]:
    """Lists of candidates: enum members of one enum, or classes, one per line (two at
    least) after an opening bracket that is no call, subscript or import; and one-line
    lists of enum members."""
    found: list[ChoiceList] = []
    lines = text.split("\n")
    run: list[str] = []
    start = 0
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        match = _ITEM.fullmatch(line)
        if match is not None:
            if not run:
                start = number
            run.append(match.group(1))
            continue
        if run:
            _keep(found, run, lines, start)
            run = []
        if "[" in line and "." in line:
            for inline in _INLINE.finditer(line):
                if re.search(r"\bin[ \t]*$", line[: inline.start()]) and not stripped.startswith(
                    "for "
                ):
                    continue  # a membership test
                items = [i.strip() for i in inline.group(1).split(",") if i.strip()]
                _add_list(found, items, number)
        if len(found) >= _MAX_LISTS:
            break
    if run:
        _keep(found, run, lines, start)
    return found[:_MAX_LISTS]


def _keep(found: list[ChoiceList], run: list[str], lines: list[str], start: int) -> None:
    """`run` (the items from line `start`) when an opening bracket of a list leads it."""
    opener = ""
    depth = 0  # brackets closed below and not yet opened: inside an entry spread over lines
    for above in range(start - 2, -1, -1):
        candidate = lines[above].split("#", 1)[0].rstrip()
        if not candidate.strip():
            continue
        was = depth
        depth += sum(candidate.count(c) for c in ")]}") - sum(candidate.count(c) for c in "([{")
        if depth > 0 or (was > 0 and depth == 0):
            continue  # an entry of the same list spread over lines (`*(\n [X] if y else []\n),`)
        if depth == 0 and candidate.lstrip().startswith("*") and candidate.endswith(","):
            continue  # an entry spliced in (`*extra,`) of the same list
        opener = candidate
        break
    if not opener or "import" in opener.split() or opener[-1] not in "[(":
        return
    before = opener[:-1].rstrip()
    # `call(` and `Type[` open arguments, not a list; `x in (A, B)` tests membership (what
    # is supported), it tries nothing in turn
    if before and (before[-1].isalnum() or before[-1] in "_])"):
        tries = before.endswith(("return", "yield")) or (
            before.endswith(" in") and opener.lstrip().startswith(("for ", "async for "))
        )
        if not tries:
            return
    _add_list(found, run, start)


def _add_list(found: list[ChoiceList], items: list[str], line: int) -> None:
    items = [i for i in items if not i.startswith("*")]  # a list spliced in is not a name
    if len(items) < 2:
        return
    if all(_MEMBER.fullmatch(i) for i in items):
        if len({i.split(".")[0] for i in items}) != 1:
            return  # members of one enum
    elif not all(_CLASS_NAME.fullmatch(i) for i in items):
        return
    found.append(ChoiceList(items=tuple(dict.fromkeys(items))[:_MAX_ITEMS], line=line))


def name_filters(text: str) -> list[NameFilter]:
    """Settings that take classes out by name: an `if` testing `X.__name__ in SETTING` whose
    body skips (`continue`, `return False`), and `"Name" not in SETTING`."""
    if "__name__" not in text and " not in " not in text:
        return []
    found: list[NameFilter] = []
    lines = text.split("\n")
    for at in occurrences(text, ".__name__"):
        number = text.count("\n", 0, at) + 1
        line = lines[number - 1]
        match = _BY_NAME.search(line)
        if match is None or match.group(1) or not line.lstrip().startswith(("if ", "elif ")):
            continue
        if _skips(lines, number):
            found.append(NameFilter(setting=match.group(2), line=number))
        if len(found) >= _MAX_FILTERS:
            return found
    for number, line in enumerate(lines, 1):
        if " not in " not in line or ('"' not in line and "'" not in line):
            continue
        for match in _ONE_NAME.finditer(line):
            if _CLASS_NAME.fullmatch(match.group(1)) and "." in match.group(2):
                found.append(NameFilter(setting=match.group(2), line=number, name=match.group(1)))
        if len(found) >= _MAX_FILTERS:
            break
    return found


def _skips(lines: list[str], number: int) -> bool:
    """Whether the block under the `if` at line `number` skips the item within a few lines."""
    head = lines[number - 1]
    indent = len(head) - len(head.lstrip())
    for line in lines[number : number + 6]:
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if len(line) - len(line.lstrip()) <= indent:
            return False
        if _SKIP.match(stripped):
            return True
    return False
