"""Registries: the tables that pick which code runs, by a setting's value.

- an `Enum` whose members name classes (`CUTLASS = "pkg.backends.cutlass.CutlassBackend"`,
  or `CUTLASS = CutlassBackend`): a setting typed with the enum picks the class by member;
- a list of candidates written one per line (`Backend.FLASH,` / `FastKernel,`): what the
  code tries in turn (a platform's priority list), so what stands in for each other;
- a filter by class name (`if kernel.__name__ in envs.DISABLED: continue`): a setting that
  takes a class out of the candidates;
- a member written as a value (`return Backend.CPU.get_path()`, `append(Backend.ROCM)`):
  code that picks it, where a member no code picks runs only when the user names it.

Scans of the text, as the attribute settings are: the skeleton the extractor parses has
blanked the bodies that hold the lists. Only an enum's own body is parsed, and only when
its class line says it is an enum.
"""

from __future__ import annotations

import ast
import re
import textwrap
import warnings

from errdex.extract.textscan import name_start, occurrences, reversed_text
from errdex.facts import ChoiceList, NameFilter
from errdex.lazy_re import lazy_compile

_ENUM_CLASS = lazy_compile(r"class[ \t]+(\w+)[ \t]*\(([^)]*\b\w*Enum\b[^)]*)\)[ \t]*:")
_MEMBER = lazy_compile(r"[A-Za-z_]\w*\.[A-Z][A-Z0-9_]*")
_CLASS_NAME = lazy_compile(r"_?[A-Z][a-z0-9]+[A-Za-z0-9]*")
# a one-line list of members: `[Backend.FLASH, Backend.TRITON]` (each run possessive: the
# character after it is never one it takes; the items' repeat is not, as the last item is
# read again without its comma when a comma ends the list)
_INLINE = lazy_compile(
    r"\[((?:[ \t]*+[A-Za-z_]\w*+\.[A-Z][A-Z0-9_]*+[ \t]*+,)+[ \t]*+"
    r"[A-Za-z_]\w*+\.[A-Z][A-Z0-9_]*+[ \t]*+,?[ \t]*+)\]"
)
_BY_NAME = lazy_compile(r"[\w.\]\[()]+\.__name__[ \t]+(not[ \t]+)?in[ \t]+([A-Za-z_][\w.]*)")
_ONE_NAME = lazy_compile(r"""["']([A-Za-z_]\w*)["'][ \t]+not[ \t]+in[ \t]+([A-Za-z_][\w.]*)""")
_SKIP = lazy_compile(r"(?:continue|return)\b(?![ \t]*[\w(\[{\"'])|return[ \t]+(?:False|None)\b")
# A line that may hold one item and its comma (`    Backend.FLASH,`), matched in the text
# reversed: the newline and the comma that end the line come first, a fixed start the
# engine skips to, instead of trying every line; then blanks, the item (no character an
# identifier, a member or `*name` cannot hold), blanks, up to the line's start. Most lines
# ending in a comma (`f(a,`, `"a",`, `x=1,`) fail at once; each that matches is read
# exactly by `_is_item`. An item that starts with a small letter or a digit and holds no `.`
# (an argument spread over lines, `x,`: nearly nine lines in ten) is no item: the look-ahead
# leaves it out (its first character is the last of the reversed run), and `choice_lists`
# skips a line that is no item, so nothing it finds changes.
_ITEM = r"[^\s!-)+-\-/:-@\[-^`{-~]"
_ITEM_NO_DOT = r"[^\s!-)+-\-./:-@\[-^`{-~]"
_ITEM_LINE_REVERSED = lazy_compile(
    rf"\n,[^\S\n]*+(?={_ITEM_NO_DOT}*+\.|{_ITEM}*+(?<![a-z0-9])){_ITEM}++[^\S\n]*+(?=\n)"
)
_MAX_MEMBERS = 300
_MAX_LISTS = 400
_MAX_ITEMS = 40
_MAX_FILTERS = 50
_MAX_PICKS = 300
# `.CPU_ATTN`: a member, searched from its literal dot (which the engine skips to); the name
# before it is read back by hand (a pattern anchored at the end is tried at every character)
_MEMBER_TAIL = lazy_compile(r"\.([A-Z][A-Z0-9_]*+)\b")
# the words that end a test of what follows: `x is A.B`, `x in A.B`, `x is not A.B`
_TEST_WORDS = ("in", "is", "not")


def enum_registries(text: str) -> dict[str, dict[str, str]]:
    """Enum classes whose members name classes: enum → member → the class, as written."""
    if "Enum" not in text:
        return {}
    found: dict[str, dict[str, str]] = {}
    for head in _ENUM_CLASS.finditer(text):
        lead = text[text.rfind("\n", 0, head.start()) + 1 : head.start()]
        if lead.strip():
            continue  # `class` inside a line: no class statement
        members = _members(_body(text, head.end(), len(lead)))
        if members:
            found[head.group(1)] = members
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
    least, each with its comma) after an opening bracket that is no call, subscript or
    import; and one-line lists of enum members. Only the lines that may hold an item are
    read (`_item_lines`): a test of every line ending in a comma costs a second over a
    large codebase, where one such line in twenty holds an item."""
    found: list[ChoiceList] = []
    run: list[str] = []
    run_start = after = 0  # where the run's first line starts; where its last line ends
    for begin, comma in _item_lines(text):
        token = text[begin:comma].strip()
        if not _is_item(token):
            continue  # a line such as `x,` breaks no run: a run's lines are checked below
        if run and not _only_comments(text, after, begin):
            _flush(found, run, text, run_start)
            run = []
        if not run:
            run_start = begin
        run.append(token)
        after = comma + 2
        if len(found) >= _MAX_LISTS:
            return found
    if run:
        _flush(found, run, text, run_start)
    if "[" in text:
        for inline in _INLINE.finditer(text):
            head = text[text.rfind("\n", 0, inline.start()) + 1 : inline.start()]
            if re.search(r"\bin[ \t]*$", head) and not head.lstrip().startswith("for "):
                continue  # a membership test
            items = [i.strip() for i in inline.group(1).split(",") if i.strip()]
            _add_list(found, items, text.count("\n", 0, inline.start()) + 1)
    return found[:_MAX_LISTS]


def _item_lines(text: str) -> list[tuple[int, int]]:
    """(where the line starts, where its comma is) of each line `_ITEM_LINE_REVERSED`
    matches, first to last."""
    size = len(text)  # the reversed text's offset `at` is the text's `size - 1 - at`
    found = _ITEM_LINE_REVERSED.finditer(reversed_text(text))
    return [(size - match.end(), size - 2 - match.start()) for match in found][::-1]


def _flush(found: list[ChoiceList], run: list[str], text: str, begin: int) -> None:
    """Keep the run of items whose first line starts at `begin`, when it may be a list."""
    if len(run) >= 2:
        _keep(found, run, text, begin)


def _only_comments(text: str, start: int, stop: int) -> bool:
    """Whether `text[start:stop]`, between two item lines, holds nothing but blank lines
    and comments: read a line at a time, since it is most often code from its first line
    (not split whole, which is the rest of the file between one run and the next)."""
    while start < stop:
        end = text.find("\n", start, stop)
        end = stop if end == -1 else end
        line = text[start:end].lstrip()
        if line and line[0] != "#":
            return False
        start = end + 1
    return True


def _is_item(token: str) -> bool:
    """`Backend.FLASH`, `FastKernel` or `*extra`: a member or a class, nothing more (the
    arguments of a call spread over lines, `x,`, are neither)."""
    if token[:1] == "*":
        return token[1:].isidentifier()
    if "." in token:
        return _MEMBER.fullmatch(token) is not None
    bare = token.lstrip("_")
    return (
        bare[:1].isupper()
        and not bare.isupper()
        and token.isidentifier()
        and token not in ("None", "True", "False")
    )


def _keep(found: list[ChoiceList], run: list[str], text: str, begin: int) -> None:
    """`run` (the items whose first line starts at `begin`) when an opening bracket of a
    list leads it."""
    opener = ""
    depth = 0  # brackets closed below and not yet opened: inside an entry spread over lines
    stop = begin - 1  # the end of the line above, read upwards
    while stop >= 0:
        start = text.rfind("\n", 0, stop) + 1
        candidate = text[start:stop].split("#", 1)[0].rstrip()
        stop = start - 1
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
    _add_list(found, run, text.count("\n", 0, begin) + 1)


def _add_list(found: list[ChoiceList], items: list[str], line: int) -> None:
    # a list spliced in is not a name; an item twice is one candidate
    items = list(dict.fromkeys(i for i in items if not i.startswith("*")))
    if len(items) < 2:
        return
    if all(_MEMBER.fullmatch(i) for i in items):
        if len({i.split(".")[0] for i in items}) != 1:
            return  # members of one enum
    elif not all(_CLASS_NAME.fullmatch(i) for i in items):
        return
    found.append(ChoiceList(items=tuple(items[:_MAX_ITEMS]), line=line))


def member_picks(text: str) -> tuple[str, ...]:
    """The members (`Backend.CPU`) the file writes as a value, not as the right side of a
    comparison or a membership test on its line: what picks the member's code there. A
    test written over several lines counts as a pick: taken for code that picks the
    member, it only keeps a way out from being offered."""
    found: dict[str, None] = {}
    for match in _MEMBER_TAIL.finditer(text):
        dot = match.start()
        begin = name_start(text, dot, 0)
        if begin == dot or not "A" <= text[begin] <= "Z":
            continue  # `x.T`, `self.X`: no class's member
        line = text.rfind("\n", 0, begin) + 1
        looped = text[line:begin].lstrip().startswith(("for ", "async for "))  # tried in turn
        if not looped and _tested(text, line, begin):
            continue
        found[f"{text[begin:dot]}.{match.group(1)}"] = None
        if len(found) >= _MAX_PICKS:
            break
    return tuple(found)


def _tested(text: str, start: int, end: int) -> bool:
    """Whether `text[start:end]`, a line up to a member, ends in what tests it: `==`, `!=`,
    `in`, `is`, `not`, or `in (` with items and no closing bracket after."""
    end = len(text[start:end].rstrip()) + start
    if text.endswith(("==", "!="), start, end) or text[name_start(text, end, start) : end] in (
        _TEST_WORDS
    ):
        return True
    opened = max(text.rfind(b, start, end) for b in "([{")
    if opened < 0 or any(text.find(b, opened, end) >= 0 for b in ")]}"):
        return False
    before = len(text[start:opened].rstrip()) + start
    return text[name_start(text, before, start) : before] == "in"


def name_filters(text: str) -> list[NameFilter]:
    """Settings that take classes out by name: an `if` testing `X.__name__ in SETTING` whose
    body skips (`continue`, `return False`), and `"Name" not in SETTING`."""
    found: list[NameFilter] = []
    lines: list[str] | None = None
    for at in occurrences(text, ".__name__"):
        begin = text.rfind("\n", 0, at) + 1
        stop = text.find("\n", at)
        line = text[begin : stop if stop != -1 else len(text)]
        if not line.lstrip().startswith(("if ", "elif ")):
            continue
        match = _BY_NAME.search(line)
        if match is None or match.group(1):
            continue
        lines = lines or text.split("\n")
        number = text.count("\n", 0, at) + 1
        if _skips(lines, number):
            found.append(NameFilter(setting=match.group(2), line=number))
        if len(found) >= _MAX_FILTERS:
            return found
    # `"Name" not in`, `'Name' not in`: one pass for " not in ", then the quote before it
    quoted = (at - 1 for at in occurrences(text, " not in ") if at and text[at - 1] in "\"'")
    for at in quoted:
        begin = text.rfind("\n", 0, at) + 1
        stop = text.find("\n", at)
        match = _ONE_NAME.search(text, begin, stop if stop != -1 else len(text))
        if match is None or not _CLASS_NAME.fullmatch(match.group(1)) or "." not in match.group(2):
            continue
        number = text.count("\n", 0, at) + 1
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
