"""Blank out the bodies of functions that hold no error site, so parsing skips them.

Most of a codebase's text sits in functions that never raise, log or warn. Parsing them
only to throw their trees away dominates the cost of extraction, so before parsing we find
function bodies whose text holds none of the words a site needs and replace them with
`...`, keeping every line number. Finding them is a handful of regular-expression scans
over the whole text, no Python loop per line. The result must still parse; when it does not
(a layout fooled the scan, such as a docstring line at column 0), the caller parses the
whole file instead, so the scan can only cost time, never facts.

A body that is kept loses its tail: the statements that end it, after its last site word
and after its last compound statement that calls a name a page may read the callers of
(`_linked_names`), are blanked too. Nothing after a site changes what leads to it; the calls
of a tail are read from its text (`blanked_calls`), and those inside a compound statement of
the tail have an unknown guard, which pages read only for a call of a function that may
hold a site. A
body whose return the facts read (a reasons list built with `.append`, a property, an
exception's message method, a method that returns the exception it makes) is kept whole.

A call of a raising helper is a site of its own once linked, so a body that calls one is
kept. Helpers of the same file are found here; those of other files cannot be known from one
file, so the indexer names them (`keep_calls`) in a second round for the files that call them.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Collection, Iterator
from typing import NamedTuple

from errdex.extract.shapes import keyed_lookups
from errdex.extract.textscan import (
    after_word_boundary,
    find_all,
    inside_bounds,
    matches_from,
    occurrences,
    offsets_of,
    reversed_text,
    shallow_line,
    starting,
    triple_quoted_bounds,
    words_after,
)
from errdex.lazy_re import lazy_compile

# Text that may start a site, or a fact a site needs (a reasons list item, a raising
# helper's call): function bodies holding one are kept. Plain substrings, because `str.find`
# scans far faster than a regular expression with alternatives; a false hit only keeps a
# body that could have been blanked.
SITE_WORDS = (
    "raise",
    "assert",
    "warn",
    ".error",
    ".exception",
    ".critical",
    ".fatal",
    ".log(",
    "exit(",
    ".fail(",
    ".append(",
    ".extend(",
    "return [",
    # Facts the linker's knobs need: environment reads (callers and properties are kept
    # by the checks in `build_skeleton`).
    "environ",
    "getenv",
)
# Words whose function's facts depend on what it returns: such a body keeps its tail.
_RETURN_READ_WORDS = (".append(", ".extend(", "return [")
# So does a method that makes its exception from a message table, or returns one it made.
_RETURNS_EXCEPTION = lazy_compile(r"return[ \t]+[\w.]*(?:Error|Exception|Warning|Exc)\w*\(")
# `return f"The HMAC key is {n} bytes long, ..."`: a string of words returned.
_RETURNS_TEXT = lazy_compile(r"return[ \t]*\(?\s*[rRbBuUfF]{0,2}(?:\"[^\"\n]* |'[^'\n]* )")
# What a test expects to be raised (`pytest.raises(X)`, `assertRaisesRegex`): no reason to
# keep a body, but a tail that holds one is kept. Grouped by the part they share after
# their first character, which one `str.find` pass finds for both.
_TAIL_WORDS = {"aises": ("raises(", "Raises"), "arns": ("warns(", "Warns")}
_DECORATORS_READ = 4  # decorator and comment lines looked at above a `def`
_OTHER_SITE_WORDS = tuple(
    word for word in SITE_WORDS if word != "raise" and word not in _RETURN_READ_WORDS
)
# The site words that start with a dot, found in one pass (`words_after`).
_DOTTED_SITE_WORDS = tuple(w for w in SITE_WORDS if w[0] == ".")
# Patterns that start with a literal, so the regex engine jumps from one `def`/`class` to
# the next instead of trying every line; whether it starts a line is checked after.
_DEF = lazy_compile(r"def[ \t]+(\w+)")
_CLASS = lazy_compile(r"class[ \t]+\w+[^\n]*")
_CLASS_NAME = lazy_compile(r"class[ \t]+(\w+)")
_ASYNC = lazy_compile(r"[ \t]*async[ \t]+")
_EXCEPTION_CLASS = lazy_compile(r"Error|Exception|Warning|Exc\b")
# Possessive `*+`: the indentation is never given back (what follows cannot be a blank).
_FIRST_CODE = lazy_compile(r"^([ \t]*+)\S", re.MULTILINE)
_FIRST_STATEMENT = lazy_compile(r"^([ \t]*+)[^\s#]", re.MULTILINE)
# Lines that go on a compound statement rather than start one.
_CLAUSE = lazy_compile(r"[ \t]*(?:else|elif|except|finally)\b")
_DEF_OR_CLASS = lazy_compile(r"^[ \t]*+(?:async[ \t]+)?(?:def|class)[ \t]", re.MULTILINE)
_HEADER_END = lazy_compile(r":[ \t]*(?:#[^\n]*)?\n")
# Exception classes often build their message in these without any site word.
_MESSAGE_METHODS = frozenset(
    {"__init__", "__str__", "__repr__", "message", "format_message", "show", "get_message"}
)
# `self.message = ...` in a constructor: the object keeps a message its methods raise.
_KEEPS_MESSAGE = lazy_compile(r"self\.\w*(?:message|msg)\w*[ \t]*(?::[^=\n]*)?=[^=]")
# Methods whose parameters a class's facts record (what constructing it takes).
_SIGNATURE_READ = frozenset({"__init__", "__new__", "__post_init__", "__str__"})

# Files smaller than this are parsed whole: the scan would cost more than it saves.
MIN_SKELETON_BYTES = 12_000


_COMPOUND = "if|elif|else|for|while|with|try|except|finally|async|match|case|def|class"
_compound_lines: dict[int, re.Pattern[str]] = {}


def compound_line(indent: int) -> re.Pattern[str]:
    """A newline followed by a compound statement's line indented by exactly `indent`: a
    deeper line is inside a block, or continues a statement."""
    pattern = _compound_lines.get(indent)
    if pattern is None:
        pattern = re.compile(rf"\n[ \t]{{{indent}}}(?:{_COMPOUND})\b")
        _compound_lines[indent] = pattern
    return pattern


class Skeleton(NamedTuple):
    text: str  # the source with site-free function bodies blanked, lines kept
    blanked: list[tuple[int, int, int]]  # (`def` offset, body start, body end) of each
    # (`def` offset, tail start, body end) of each kept body whose tail was blanked
    trimmed: list[tuple[int, int, int]]
    strings: list[int]  # the bounds of the triple-quoted strings (`triple_quoted_bounds`)
    kept_for_calls: int  # bodies kept, or tails kept, only because they call `keep_calls`


def build_skeleton(
    text: str, keep_calls: Collection[str] = (), package: str = ""
) -> Skeleton | None:
    """`text` with the bodies of site-free functions blanked, or None when nothing is saved.

    A body that calls one of `keep_calls` with a message among its arguments (a string
    literal or a constant's name) is kept. `package`: the file's top-level package
    (`package_of`), whose imports may hold sites.
    """
    if len(text) < MIN_SKELETON_BYTES:
        return None
    return Skeletons(text, package).build(keep_calls)


def package_of(path: str) -> str:
    """The top-level package of a file's path (`vllm` of `vllm/config/model.py`)."""
    parts = [p for p in path.split("/") if p]
    if len(parts) > 1 and parts[0] in ("src", "lib"):
        parts = parts[1:]
    return parts[0].removesuffix(".pyi").removesuffix(".py") if parts else ""


def hidden_text(text: str, skeleton: Skeleton | None) -> str:
    """What `skeleton` blanked in `text`: its bodies and tails, one after the other (a
    newline between them), empty when there is no skeleton.

    A skeleton built with calls to keep differs from the one without only where a call of
    theirs lies in this text: a body is kept for them only when it would be blanked, and a
    tail only from such a call on, and what is nested in either lies inside it. A name not
    called here changes nothing `extract_again` makes.
    """
    if skeleton is None:
        return ""
    return "\n".join(text[start:end] for _, start, end in (*skeleton.blanked, *skeleton.trimmed))


class Skeletons:
    """The scans a text's skeletons are planned from, made once: the skeletons of one text
    keeping the calls of different names (a second extraction asks for two)."""

    def __init__(self, text: str, package: str = "") -> None:
        self.text = text
        self.package = package  # the top-level package of the file (`_linked_names`)
        self.words = _SiteWords.find(text)
        self.classes = _classes(text)
        self.functions = list(_functions(text))
        # A `def` in a docstring's example is text: blanking it would change the docstring.
        self.strings = triple_quoted_bounds(text)
        self.own_calls = _own_calls(text, self.functions, self.words.raises)
        self._linked: frozenset[str] | None = None

    def linked(self) -> frozenset[str]:
        """`_linked_names`, found once a tail is cut."""
        if self._linked is None:
            self._linked = _linked_names(self.text, self.functions, self.words.hits, self.package)
        return self._linked

    def build(self, keep_calls: Collection[str] = ()) -> Skeleton | None:
        """`build_skeleton(text, keep_calls)`."""
        if len(self.text) < MIN_SKELETON_BYTES:
            return None
        return _build(self, keep_calls)


def _build(scans: Skeletons, keep_calls: Collection[str]) -> Skeleton | None:
    """The skeleton of `scans.text` keeping the calls of `keep_calls`: what is blanked is
    decided function by function, in text order."""
    text, words, classes, strings = scans.text, scans.words, scans.classes, scans.strings
    class_starts = [c[0] for c in classes]
    own_calls, own_names = scans.own_calls
    named_calls = _named_calls(text, own_names, keep_calls)
    plan = _Plan(text)
    for function in scans.functions:
        start, indent, name, _, body, end = function
        if start < plan.done or plan.tails.holds(start):
            continue  # nested in a body or a tail already blanked
        if inside_bounds(strings, start):
            continue
        is_property = _is_property(text, start)
        if _any_within(words.hits, start, end) or _any_within(own_calls, body, end):
            # Kept (a call of a raising helper is a site of its own), and whole when the facts
            # read what it returns or passes on: a property's return is where a condition's
            # name comes from, and a constructor's `super().__init__(...)` is what a class
            # (an exception, even one whose name does not say so) gives its base.
            whole = is_property or name in _MESSAGE_METHODS or name in _SIGNATURE_READ
            if not whole and not _any_within(words.returns_read, body, end):
                hit_lists = (words.hits, own_calls, words.tests())
                tail = _tail(text, function, strings, hit_lists, named_calls, scans.linked())
                plan.blank_tail(function, tail)
            continue
        if name in _MESSAGE_METHODS and _in_exception_class(classes, class_starts, start, indent):
            continue  # exceptions often build their message there without any site word
        if name == "__init__" and _KEEPS_MESSAGE.search(text, body, end):
            continue  # a validator's message, kept for the raise of another method
        if is_property:
            continue
        if _any_within(named_calls, body, end):
            plan.kept_for_calls += 1  # last: only what would otherwise be blanked counts
            continue
        plan.blank_body(function)
    if plan.blanked < len(text) // 10:
        return None
    return Skeleton(plan.applied(), plan.spans, plan.tails.spans(), strings, plan.kept_for_calls)


class _SiteWords:
    """Where a file's text holds the words that keep a body, found once per file."""

    def __init__(self, text: str, raises: list[int], hits: list[int], returns_read: list[int]):
        self._text = text
        self.raises = raises
        self.hits = hits  # any site word
        self.returns_read = returns_read  # words whose function's return the facts read
        self._tests: list[int] | None = None

    @classmethod
    def find(cls, text: str) -> _SiteWords:
        # found in one pass each, the words that start with a dot and those with `return`
        found = words_after(text, ".", _DOTTED_SITE_WORDS)
        returns = offsets_of(text, "return")
        found["return ["] = starting(text, "return [", returns)
        raises = _find_all(text, ("raise",))
        returns_read = _find_all(text, _RETURN_READ_WORDS, found)
        hits = sorted(raises + returns_read + _find_all(text, _OTHER_SITE_WORDS, found))
        made = [m.start() for m in matches_from(_RETURNS_EXCEPTION, text, returns)]
        made += keyed_lookups(text)
        # A function returning a message: a site's local may take it from its call; one
        # returning an exception it makes: `raise make_error(...)` raises it.
        texts = [m.start() for m in matches_from(_RETURNS_TEXT, text, returns)]
        return cls(text, raises, sorted(hits + made + texts), sorted(returns_read + made + texts))

    def tests(self) -> list[int]:
        """`_TAIL_WORDS`, found once a body is kept."""
        if self._tests is None:
            self._tests = _tail_words(self._text)
        return self._tests


def _classes(text: str) -> list[tuple[int, int, bool]]:
    """(line start, indent, whether it looks like an exception) of each `class` line."""
    classes = []
    for match in _CLASS.finditer(text):
        line = _line_start(text, match.start())
        if line is not None:
            exceptional = looks_like_exception(match.group(0))
            classes.append((line, match.start() - line, exceptional))
    return classes


class _Plan:
    """What is blanked, decided function by function in text order."""

    def __init__(self, text: str, package: str = "") -> None:
        self.text = text
        self.package = package  # the top-level package of the file (`_linked_names`)
        self.edits: list[tuple[int, int, str]] = []  # (start, end, what replaces the text)
        self.done = 0  # the end of the last body blanked: functions before it are nested in one
        self.blanked = 0  # characters blanked
        self.spans: list[tuple[int, int, int]] = []  # (`def`, body start, end) of each body
        self.tails = _Tails()
        self.kept_for_calls = 0

    def blank_tail(self, function: _Function, tail: tuple[int | None, int]) -> None:
        """Blank a kept body's tail from its start (`_tail`), if it has one."""
        cut, for_calls = tail
        self.kept_for_calls += for_calls
        if cut is not None:
            end = function.end
            self.edits.append((cut, end, "\n" * self.text.count("\n", cut, end)))
            self.tails.add(function.head, cut, end)
            self.blanked += end - cut

    def blank_body(self, function: _Function) -> None:
        """Blank a function's body to `...`, and its signature unless its parameters are read."""
        text, indent, name, body, end = (
            self.text,
            function.indent,
            function.name,
            function.body,
            function.end,
        )
        body_text = text[body:end]
        if name in _SIGNATURE_READ:
            cut, header = body, ""
        else:
            # Nothing reads a blanked function's parameters, and annotated signatures
            # are a good part of what is left to parse. Its return's class is read: it
            # says what a method is called on (`get_config().check(...)`).
            cut = function.head
            returns = _returns(text[function.head : body])
            header = f"def {name}(){returns}:" + "\n" * text.count("\n", function.head, body)
        first_code = _FIRST_CODE.search(body_text)
        lead = first_code.group(1) if first_code else " " * (indent + 4)
        self.edits.append((cut, end, header + lead + "..." + "\n" * body_text.count("\n")))
        self.done = end
        self.blanked += len(body_text)
        self.spans.append((function.head, body, end))

    def applied(self) -> str:
        """The text with every edit made."""
        pieces: list[str] = []
        at = 0
        for cut, end, replacement in sorted(self.edits):
            pieces.append(self.text[at:cut])
            pieces.append(replacement)
            at = end
        pieces.append(self.text[at:])
        return "".join(pieces)


class _Tails:
    """The tails blanked so far, which never overlap: is an offset inside one?"""

    def __init__(self) -> None:
        self._starts: list[int] = []
        self._spans: dict[int, tuple[int, int, int]] = {}  # start → (`def`, start, end)

    def add(self, head: int, start: int, end: int) -> None:
        bisect.insort(self._starts, start)
        self._spans[start] = (head, start, end)

    def holds(self, at: int) -> bool:
        i = bisect.bisect_right(self._starts, at) - 1
        return i >= 0 and at < self._spans[self._starts[i]][2]

    def spans(self) -> list[tuple[int, int, int]]:
        """(`def` offset, tail start, body end) of each tail, in text order."""
        return [self._spans[start] for start in self._starts]


def _tail(
    text: str,
    function: _Function,
    strings: list[int],
    hit_lists: tuple[list[int], ...],
    named_calls: list[int],
    linked: frozenset[str],
) -> tuple[int | None, int]:
    """Where the tail of a kept body starts (None when it has none), and 1 when a call of
    `keep_calls` (`named_calls`) alone keeps part of it, else 0.

    The tail is the body's last run of statements, at its own level, after the one that
    holds the body's last hit. Its calls are read from the text (see `blanked_calls`): one
    in its straight code has the guard that holds after the parsed statements, one inside
    a compound statement an unknown guard. A compound statement after the hit that calls
    a function of `linked` (that may hold a site, whose callers' guards its pages read) is
    parsed, and the tail starts after it.
    """
    first = _FIRST_STATEMENT.search(text, function.body, function.end)
    if first is None:
        return None, 0
    indent = len(first.group(1))
    last = max(
        first.start(), *(_last_within(hits, function.start, function.end) for hits in hit_lists)
    )
    named = _last_within(named_calls, function.body, function.end)
    cut = _straight_tail(text, function.end, indent, strings, last, linked)
    if named < 0 or cut is None or named < cut:
        return cut, 0
    return _straight_tail(text, function.end, indent, strings, named, linked), 1


def _straight_tail(
    text: str, end: int, indent: int, strings: list[int], at: int, linked: frozenset[str]
) -> int | None:
    """The start of the statements, indented by `indent`, that end a block at `end` after
    the statement that holds offset `at` and after the last compound statement that uses
    one of `linked` (see `_linked_names`)."""
    for compound in compound_line(indent).finditer(text, at, end):
        start = compound.start() + 1
        if start > at and not inside_bounds(strings, start):
            stop = _statement_end(text, start, end, indent, strings)
            if _uses(text, start, stop, linked):
                at = start
    return _next_statement(text, end, indent, strings, at)


def _statement_end(text: str, start: int, end: int, indent: int, strings: list[int]) -> int:
    """Where the compound statement at `start`, indented by `indent`, ends (its clauses
    included), or `end`."""
    found = _next_statement(text, end, indent, strings, start)
    return end if found is None else found


def _uses(text: str, start: int, end: int, names: frozenset[str]) -> bool:
    """Whether a name of `names` is called in `text[start:end]` (`f(`, `f.g(`, `self.f(`)."""
    size = len(text)
    for match in _CALLED_REVERSED.finditer(reversed_text(text), size - end, size - start):
        called = match.group(1)[::-1]
        if called.partition(".")[0] in names or called.rpartition(".")[2] in names:
            return True
    return False


def _next_statement(text: str, end: int, indent: int, strings: list[int], at: int) -> int | None:
    """The start of the first statement indented by `indent` after the one holding `at`,
    before `end` (None when there is none)."""
    ender = shallow_line(indent)
    while True:
        found = ender.search(text, at, end)
        if found is None:
            return None
        line = found.start() + 1
        if inside_bounds(strings, line):
            at = line  # a line of a triple-quoted string: not a statement
        elif _CLAUSE.match(text, line):
            at = line  # goes on the compound statement before it
        else:
            return line


def _last_within(offsets: list[int], start: int, end: int) -> int:
    """The last of the sorted `offsets` in [start, end), or -1."""
    i = bisect.bisect_left(offsets, end) - 1
    return offsets[i] if i >= 0 and offsets[i] >= start else -1


# A header's return annotation: after the parameters' `)`, up to the header's last `:`. It
# holds no `:` nor `#`: a "header" that runs on through a comment to its colon (a one-line
# stub, `def f(x) -> T: ...`, then `# note:`) has none to give.
_RETURNS = lazy_compile(r"\)\s*->\s*([^:#]+?)\s*:[ \t]*(?:#[^\n]*)?\n?\Z")


def _returns(header: str) -> str:
    """` -> T` of a function's header, on one line; empty when it has none."""
    found = _RETURNS.search(header)
    return f" -> {' '.join(found.group(1).split())}" if found else ""


class _Function(NamedTuple):
    start: int  # the start of the `def` line
    indent: int
    name: str
    head: int  # where `def` starts
    body: int  # the start of the body's first line
    end: int  # the end of the body


def _functions(text: str) -> Iterator[_Function]:
    """Every function with a body of its own lines, nested ones included, in text order."""
    for match in _DEF.finditer(text):
        start = _line_start(text, match.start(), _ASYNC)
        if start is None:
            continue  # `def` inside a line: not a definition
        indent = _indent(text, start)
        header = _HEADER_END.search(text, match.end())
        if header is None:
            continue
        body = header.end()
        if "\n" in text[match.end() : header.start()] and _DEF_OR_CLASS.search(
            text, match.end(), header.start()
        ):
            continue  # a one-line stub (`) -> int: ...`): the `:` found is the next def's
        ender = shallow_line(indent).search(text, body)
        end = ender.start() if ender else len(text)
        if body >= end or text.count("\n", match.end(), body) > 30:
            continue  # a one-line function, or a header we did not understand
        yield _Function(start, indent, match.group(1), match.start(), body, end)


def _own_calls(
    text: str, functions: list[_Function], raises: list[int]
) -> tuple[list[int], set[str]]:
    """Sorted offsets of calls of this file's functions that raise, and those functions'
    names. A helper's calls are sites only when their bodies are parsed: a function of this
    file that raises may be a raising helper."""
    names = set()
    for function in functions:
        first = bisect.bisect_left(raises, function.body)
        if first < len(raises) and raises[first] < function.end:
            names.add(function.name)
    return _calls(text, names), names


# A name called or with an attribute read: `check(`, `self.check(`, `envs.FLAG`.
_CALLED_REVERSED = lazy_compile(r"\(([\w.]*[A-Za-z_])(?![\w.])")
# `from x import a, b as c` (parenthesised over lines or not), from its line's start.
_FROM_IMPORT = lazy_compile(r"[ \t]*from[ \t]+([\w.]+)[ \t]+import[ \t]+(\([^)]*\)|[^\n]*)")
# `import a.b as c, d`, from its `import`.
_IMPORT = lazy_compile(r"import[ \t]+([\w. \t,]+)")


def _linked_names(
    text: str, functions: list[_Function], hits: list[int], package: str
) -> frozenset[str]:
    """The names whose calls a page may read the guard of: this file's functions whose body
    holds a site word (a caller's guard says when the site is reached), its classes, and
    the names it imports from its own package (relatively, or from `package`; from any
    module when `package` is empty): a function of another file may hold a site."""
    names = {f.name for f in functions if _any_within(hits, f.body, f.end)}
    names.update(match.group(1) for match in _CLASS_NAME.finditer(text))
    for at in occurrences(text, "import"):
        if not after_word_boundary(text, at):
            continue
        found = _FROM_IMPORT.match(text, text.rfind("\n", 0, at) + 1)
        if found is not None:
            if _own_module(found.group(1), package):
                names.update(_bound_names(found.group(2).strip("() \t")))
        elif (found := _IMPORT.match(text, at)) is not None:
            names.update(
                name for name in _bound_names(found.group(1)) if _own_module(name, package)
            )
    return frozenset(names)


def _own_module(module: str, package: str) -> bool:
    return not package or module.startswith(".") or module.partition(".")[0] == package


def _bound_names(names: str) -> Iterator[str]:
    """The names `a, b as c` binds (`a`, `c`); of `a.b`, `a`."""
    for part in names.replace("\n", " ").split(","):
        words = part.split()
        if words:
            yield words[-1].partition(".")[0]


def _named_calls(text: str, own: set[str], keep_calls: Collection[str]) -> list[int]:
    """Sorted offsets of the calls of `keep_calls`, raising helpers of other files, kept
    only with message text among the arguments: a string literal, or the name of a module
    constant (in capitals) that may hold it; those of this file's own are counted already."""
    others = set(keep_calls) - own
    return [at for at in _calls(text, others) if _message_argument(text, at)] if others else []


def _any_within(offsets: list[int], start: int, end: int) -> bool:
    """Whether one of the sorted `offsets` lies in [start, end)."""
    first = bisect.bisect_left(offsets, start)
    return first < len(offsets) and offsets[first] < end


def has_message_call(text: str, names: Collection[str]) -> bool:
    """Whether `text` calls one of `names` with a message among the arguments (see
    `_message_argument`)."""
    return any(_message_argument(text, at) for at in _calls(text, names))


def _calls(text: str, names: Collection[str]) -> list[int]:
    """Sorted offsets of `name(` for each of `names`, where the name is a whole word."""
    calls = find_all(text, (name + "(" for name in names))
    return [at for at in calls if after_word_boundary(text, at)]


_PAREN_OR_QUOTE = lazy_compile(r"""[()"']""")
_ARGUMENTS_SCANNED = 2000  # characters; a longer argument list counts as having a message
# A name in capitals, as module constants are written (`NOT_FOUND`, `errors.NOT_FOUND`).
_CONSTANT_NAME = lazy_compile(r"\b_*[A-Z][A-Z0-9_]*\b")


def _message_argument(text: str, call: int) -> bool:
    """Whether a quote, or a name in capitals (a module constant holding the message, most
    likely), comes inside the parentheses of the call at `call` (a `name(`).

    A quote in a comment, or a constant that holds no text, fools it, which only keeps a
    body that could have been blanked: the linker says whether a constant is text.
    """
    opened = text.index("(", call)
    depth = 0
    for match in _PAREN_OR_QUOTE.finditer(text, opened, call + _ARGUMENTS_SCANNED):
        char = match.group()
        if char in "\"'":
            return True
        depth += 1 if char == "(" else -1
        if depth == 0:
            return _CONSTANT_NAME.search(text, opened, match.start()) is not None
    return True


def _line_start(text: str, at: int, prefix: re.Pattern[str] | None = None) -> int | None:
    """The start of `at`'s line when only indentation (or `prefix`) comes before `at`."""
    start = text.rfind("\n", 0, at) + 1
    before = text[start:at]
    if not before or before.isspace() or (prefix is not None and prefix.fullmatch(before)):
        return start
    return None


def _indent(text: str, start: int) -> int:
    """How many spaces and tabs begin the line at `start` (read up to the line's end at
    most: a `def` line holds its keyword after them)."""
    end = text.find("\n", start)
    line = text[start:] if end == -1 else text[start:end]
    return len(line) - len(line.lstrip(" \t"))


def _is_property(text: str, start: int) -> bool:
    """Whether one of the decorator (or comment) lines right above a `def` names a property."""
    end = start
    for _ in range(_DECORATORS_READ):
        above = text.rfind("\n", 0, max(0, end - 1)) + 1
        line = text[above:end].lstrip()
        if not line.startswith(("@", "#")):
            return False
        if "property" in line and line[0] == "@":
            return True
        end = above
    return False


def looks_like_exception(header: str) -> bool:
    """Whether a `class` line names an exception (its name or a base's): the skeleton keeps
    such a class's `__init__` and message methods whole."""
    return bool(_EXCEPTION_CLASS.search(header))


def _in_exception_class(
    classes: list[tuple[int, int, bool]], starts: list[int], offset: int, indent: int
) -> bool:
    """Whether the nearest class above `offset` that encloses it looks like an exception."""
    i = bisect.bisect_left(starts, offset) - 1
    while i >= 0:
        _, class_indent, looks_like_exception = classes[i]
        if class_indent < indent:
            return looks_like_exception
        i -= 1
    return False


# What must follow a word for its hit to count: `self.assertEqual(` is no assert statement,
# `self.error_count` no log call, `items.append(x)` no reason. Checked only at hits.
_HIT_CHECKS: dict[str, re.Pattern[str]] = {
    "raise": re.compile(r"raise\b"),
    "assert": re.compile(r"assert\b"),
    "warn": re.compile(r"warn(?:ings\.warn\w*|ing(?:_once)?|_once|_explicit)?\s*\("),
    ".error": re.compile(r"\.error(?:_once)?\s*\("),
    ".exception": re.compile(r"\.exception(?:_once)?\s*\("),
    ".critical": re.compile(r"\.critical(?:_once)?\s*\("),
    ".fatal": re.compile(r"\.fatal\s*\("),
    ".append(": re.compile(r"\.append\(\s*[rRfFbBuU]{0,2}[\"']"),
    ".extend(": re.compile(r"\.extend\(\s*(?:self\.|cls\.|\[|\(|\w+\()"),
    "return [": re.compile(r"return \[\s*[rRfFuU]{0,2}[\"']"),
}
_STATEMENT_WORDS = frozenset({"raise", "assert"})  # keywords: only at a statement's start


def _tail_words(text: str) -> list[int]:
    """Sorted offsets of each of `_TAIL_WORDS`' words, from a pass for each shared part
    (two passes, not one a word)."""
    found: list[int] = []
    for middle, words in _TAIL_WORDS.items():
        for at in occurrences(text, middle):
            if at and any(text.startswith(word, at - 1) for word in words):
                found.append(at - 1)
    found.sort()
    return found


def _find_all(
    text: str, words: tuple[str, ...], offsets: dict[str, list[int]] | None = None
) -> list[int]:
    """Sorted offsets of every occurrence of each word that can start what it stands for;
    `offsets`: those of some of the words, found already (`_dotted_words`)."""
    offsets = offsets or {}
    found: list[int] = []
    for word in words:
        check = _HIT_CHECKS.get(word)
        found.extend(
            at
            for at in (offsets[word] if word in offsets else occurrences(text, word))
            if (check is None or check.match(text, at))
            and (word not in _STATEMENT_WORDS or _starts_statement(text, at))
        )
    found.sort()
    return found


def _starts_statement(text: str, at: int) -> bool:
    """Whether only indentation, or a block opener's `:`, comes before `at` on its line."""
    line_start = text.rfind("\n", 0, at) + 1
    before = text[line_start:at]
    return not before.strip() or before.rstrip().endswith(":")
