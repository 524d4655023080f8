"""What a site's function says around it, read from the parsed file at extraction.

The conditions say which tests hold on the way to a site; a page also needs what only the
source around it says (see `SourceRead`). The file is parsed for extraction anyway, so it
is read here once, for every line that holds a site or a call that may become one, and a
page reads none of it. The tree may be a skeleton (bodies without sites blanked to `...`):
the functions that hold sites are whole, and a blanked `__init__` whose assignments say
where attributes come from is parsed from the original text on its own.
"""

from __future__ import annotations

import ast
import bisect
import re
from collections.abc import Iterator, Mapping, Sequence

import msgspec

from errdex.extract.block_flow import (
    Enclosing,
    Holders,
    block_fails,
    block_leaves,
    block_warns,
    line_numbers,
    placement_of,
    try_read,
    walk_scope,
)
from errdex.extract.init_attrs import assignment_counts
from errdex.extract.param_defaults import default_nodes, parameter_defaults, rebound_names
from errdex.extract.setters import ClassSetters, init_params, param_names
from errdex.extract.shapes import (
    OWN_OBJECT,
    copied_chain,
    copied_key,
    held_dict,
    own_attributes_set,
)
from errdex.extract.source_text import source_lines
from errdex.facts import Binding, Condition
from errdex.lazy_re import lazy_compile
from errdex.reading_facts import Setter, SourceRead, TryRead

__all__ = ["Wanted", "read_lines"]

_MAX_DOC = 600
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_PLACES = (ast.For, ast.AsyncFor, ast.While, ast.Try, ast.TryStar)
_PLACE_TYPES = frozenset(_PLACES)
_TRIES = (ast.Try, ast.TryStar)
_DIRECTIVES = ("noqa", "type:", "fmt:", "pragma", "pylint:", "mypy:", "ruff:")
_WORD = lazy_compile(r"\w+")
_NEITHER = (False, False)
_UNREAD = object()  # a line whose comment is not read yet
_MAX_BASES = 4  # bases followed for the constructor that sets an attribute
# `self.X` where `self` starts a word: the literal first, then a look-behind for the word's
# start, so that the engine jumps from one `self` to the next (a leading `\b` is tried at
# every character, ten times slower)
_SELF_ATTR = lazy_compile(r"self(?<!\wself)\.(\w+)")


class Wanted(msgspec.Struct):
    """A line whose reading a page will ask for, with what its pages look up in it."""

    lines: set[int] = msgspec.field(default_factory=set)  # the conditions' lines and the site's own
    # the text of its conditions and bindings, whose words are the names its pages look up;
    # None for every name (a call that becomes a site adds the guard of the helper it
    # calls, in its own terms, when linked)
    texts: list[str] | None = msgspec.field(default_factory=list)

    def add(
        self,
        line: int,
        conditions: Sequence[Condition],
        bindings: Sequence[Binding] = (),
        every_word: bool = False,
    ) -> None:
        self.lines.add(line)
        self.lines.update(c.line for c in conditions)
        if every_word:
            self.texts = None
        if self.texts is not None:
            self.texts.extend(t for c in conditions for t in (c.test, c.text))
            self.texts.extend(b.value for b in bindings)

    def words(self, known: dict[str, list[str]] | None = None) -> set[str] | None:
        """The words of its texts; `known`: each text's words, found already (the sites of a
        function share their conditions, and each text is read once)."""
        return _found_in(_WORD, self.texts, known) if self.texts is not None else None

    def own_attributes(self, known: dict[str, list[str]] | None = None) -> set[str]:
        """The `self.X` its conditions read (none for a call's line, which names every word);
        `known` as for `words`."""
        return _found_in(_SELF_ATTR, self.texts, known) if self.texts is not None else set()


def _found_in(
    pattern: re.Pattern[str], texts: list[str], known: dict[str, list[str]] | None
) -> set[str]:
    """What `pattern` finds in each of `texts` (none of its matches spans a line)."""
    found: set[str] = set()
    for text in texts:
        matches = known.get(text) if known is not None else None
        if matches is None:
            matches = pattern.findall(text)
            if known is not None:
                known[text] = matches
        found.update(matches)
    return found


def read_lines(
    tree: ast.Module,
    text: str,
    wanted: dict[int, Wanted],
    blanked: Sequence[tuple[int, int, int]] = (),
    holders: Mapping[int, Holders] | None = None,
) -> dict[int, SourceRead]:
    """The reading of each wanted line (a site's or a call's), keyed by that line.

    `blanked` holds the (`def` offset, body start, body end) of each body the skeleton
    blanked in `text`, to read a blanked `__init__` from the original. `holders`: the
    function and class each line's statement is in, as the walker of `tree` found them
    (`Walker.holders`); a line it lacks is looked up in the tree.
    """
    if not wanted:
        return {}  # a file without sites or calls: its lines are not even split
    reader = _FileReader(tree, text, blanked, holders or {})
    try:
        return {line: reader.read(line, want) for line, want in sorted(wanted.items())}
    finally:
        # Each class's setters hold the reader's bound method, and the reader holds them: a
        # cycle that would keep the file's whole tree alive until the cyclic collector runs,
        # which extraction pauses (collecting it after each batch cost seconds on vllm).
        reader.set_by.clear()


class _Scope(msgspec.Struct):
    """What one function (or the module, for a site outside any) says, read once."""

    func: ast.FunctionDef | ast.AsyncFunctionDef | None
    places: list[ast.stmt]  # its loops and `try` statements, which may say where a line sits
    # a condition's line → the `if` it names: the line of its `if`, or of its test when it
    # starts later (the first `if` that names it)
    ifs: dict[int, ast.If]
    on_line: dict[int, list[ast.If]]  # line → every `if` or test on it, in order
    # the line of the test of a choice assigned (`x = a if test else b`) → the statement's
    # last line: such a test only chose a value (a message's wording, `held_messages`)
    chooses: dict[int, int]
    handlers: dict[int, list[ast.stmt]]  # except line → the body of its try
    params: tuple[str, ...]
    positional: tuple[str, ...]
    required: tuple[str, ...]
    docstring: str | None
    _tries: dict[int, TryRead] = msgspec.field(default_factory=dict)
    # Worked out for the `if`s a site's conditions name, not for every `if` of a function
    _sides: dict[int, tuple[tuple[bool, bool], tuple[bool, bool]]] = msgspec.field(
        default_factory=dict
    )
    _passes: dict[int, int | None] = msgspec.field(default_factory=dict)

    def tried(self, line: int) -> TryRead:
        """What the `try` of the except clause at `line` did, read once."""
        found = self._tries.get(line)
        if found is None:
            found = self._tries[line] = try_read(self.handlers[line])
        return found

    def sides(self, node: ast.If) -> tuple[tuple[bool, bool], tuple[bool, bool]]:
        """Whether each branch of an `if` fails, and whether each warns."""
        found = self._sides.get(id(node))
        if found is None:
            found = self._sides[id(node)] = (
                (block_fails(node.body), block_fails(node.orelse)),
                (block_warns(node.body), block_warns(node.orelse)),
            )
        return found

    def passes_end(self, line: int) -> int | None:
        """The last line of the last `if` on `line` neither of whose branches leaves the
        block (no return, raise, break, continue): it only chooses a value, both ways go
        on. None when there is none."""
        if line not in self._passes:
            self._passes[line] = None
            for node in self.on_line.get(line, ()):
                if not block_leaves(node.body) and not block_leaves(node.orelse):
                    self._passes[line] = node.end_lineno or node.lineno
        return self._passes[line]

    def tests_read(
        self, lines: list[int], line: int
    ) -> tuple[dict[int, tuple[bool, bool]], dict[int, tuple[bool, bool]]]:
        """`SourceRead.other_side` and `SourceRead.warns` of the conditions on `lines` of a
        site at `line`. A test whose branches neither fail nor warn reads as no test at
        all; one that ends before the site without leaving the block only chose a value
        (the message's wording): taken the other way, it reaches the site all the same."""
        other_side: dict[int, tuple[bool, bool]] = {}
        warns: dict[int, tuple[bool, bool]] = {}
        for n in lines:
            node = self.ifs.get(n)
            if node is None:
                chosen_end = self.chooses.get(n)
                if chosen_end is not None and chosen_end < line:
                    other_side[n] = (True, True)  # taken the other way: the other text
                continue
            fails, warned = self.sides(node)
            end = self.passes_end(n)
            passed = end is not None and end < line
            if fails != _NEITHER or warned != _NEITHER or passed:
                other_side[n] = (True, True) if passed else fails
            if warned != _NEITHER:
                warns[n] = warned
        return other_side, warns


class _FileReader:
    def __init__(
        self,
        tree: ast.Module,
        text: str,
        blanked: Sequence[tuple[int, int, int]],
        holders: Mapping[int, Holders],
    ):
        self.tree = tree
        self.holders = holders
        self.text = text
        # The parser's lines (a form feed or `\x1c` ends none), split once per file: line
        # numbers here are the parser's, which the comments and branches are keyed by.
        self.lines: Sequence[str] = source_lines(text)
        self.blanked = blanked
        self._blanked_lines: list[int] | None = None
        self.enclosing = Enclosing(tree, text)
        self._scopes: dict[int, _Scope] = {}
        self._inits: dict[int, dict[str, str]] = {}
        # id of a function the skeleton blanked → it parsed as written (see `_original`)
        self._originals: dict[int, ast.FunctionDef | ast.AsyncFunctionDef] = {}
        # class → the attributes its constructor assigns a parameter as it is
        self._plain_init: dict[int, set[str]] = {}
        self._assigned: dict[int, dict[str, int] | None] = {}  # class → `self.X =` counts
        self._copied: dict[int, dict[str, str]] = {}  # class → see `_copied_values`
        self._ctor_defaults: dict[int, dict[str, str]] = {}  # class → its constructor's
        self._bound: dict[int, set[str]] = {}  # function → the names its body binds
        self._walrus = ":=" in text  # whether any test may bind a name (`rebound_names`)
        # function → its parameters' defaults; a default → its source
        self._declared: dict[int, list[tuple[str, ast.expr]]] = {}
        self._sources: dict[int, str] = {}
        self._own_inits: dict[int, ast.FunctionDef | ast.AsyncFunctionDef | None] = {}
        self._top_classes: dict[str, ast.ClassDef] | None = None
        self.set_by: dict[int, ClassSetters] = {}
        # a condition's text → its words, and the `self.X` it reads (`Wanted.words`)
        self._words_of: dict[str, list[str]] = {}
        self._own_of: dict[str, list[str]] = {}
        self._comment_at: dict[int, str | None] = {}  # line → its comment (`_comment`)
        # (function, class) → `_defaults` of every name (a call's line reads every name)
        self._every_default: dict[tuple[int, int], dict[str, str]] = {}

    def read(self, line: int, want: Wanted) -> SourceRead:
        held = self.holders.get(line)
        if held is not None:
            func, cls = held
        else:
            chain = self.enclosing.chain(line)
            func = next((n for n in reversed(chain) if isinstance(n, _FUNCTIONS)), None)
            cls = next((n for n in reversed(chain) if isinstance(n, ast.ClassDef)), None)
        scope = self._scope(func)
        lines = sorted(want.lines)
        init_params: dict[str, str] = {}
        # the names the conditions read, which only a class's attributes or a function's
        # defaults are looked up by (None, every name, is as good where neither is read)
        words = want.words(self._words_of) if cls is not None or self._default_nodes(func) else None
        # only a condition on `self.attr` asks where the attribute came from
        if cls is not None and (words is None or "self" in words):
            found = self._init_params(cls)
            init_params = {a: p for a, p in found.items() if words is None or a in words}
        defaults = self._defaults(func, cls, words, init_params)
        # `self.X` needs the word `self` (its pattern reads nothing else)
        own = (
            want.own_attributes(self._own_of)
            if cls is not None and words and "self" in words
            else set()
        )
        values = self._init_values(cls, own - set(init_params)) if cls is not None and own else {}
        setters = self._setters(cls, own) if cls is not None and own else ()
        lo = func.lineno if func is not None else 1
        hi = (func.end_lineno or line) if func is not None else line
        other_side, warns = scope.tests_read(lines, line)
        return SourceRead(
            params=scope.params,
            positional=scope.positional,
            required=scope.required,
            init_params=init_params,
            init_required=self._init_required(cls) if init_params and cls is not None else None,
            defaults=defaults,
            init_values=values,
            other_side=other_side,
            warns=warns,
            comments=self._comments(lines, lo, hi),
            docstring=scope.docstring,
            tries={n: scope.tried(n) for n in lines if n in scope.handlers},
            placement=placement_of(scope.places, line),
            setters=setters,
        )

    def _scope(self, func: ast.FunctionDef | ast.AsyncFunctionDef | None) -> _Scope:
        key = id(func)
        found = self._scopes.get(key)
        if found is not None:
            return found
        nodes = walk_scope(func.body if func is not None else self.tree.body)
        ifs: dict[int, ast.If] = {}
        on_line: dict[int, list[ast.If]] = {}
        chooses: dict[int, int] = {}
        handlers: dict[int, list[ast.stmt]] = {}
        places: list[ast.stmt] = []
        for node in nodes:  # every statement of each function read: one test of each
            if isinstance(node, ast.If):
                ifs[node.lineno] = ifs.setdefault(node.test.lineno, node)
                on_line.setdefault(node.lineno, []).append(node)
                if node.test.lineno != node.lineno:
                    on_line.setdefault(node.test.lineno, []).append(node)
            elif type(node) in _PLACE_TYPES:
                places.append(node)
                if isinstance(node, _TRIES):
                    for handler in node.handlers:
                        handlers[handler.lineno] = node.body
            elif type(node) is ast.Assign and type(node.value) is ast.IfExp:
                chooses[node.value.test.lineno] = node.end_lineno or node.lineno
        params: tuple[str, ...] = ()
        positional: tuple[str, ...] = ()
        required: tuple[str, ...] = ()
        doc = None
        if func is not None:
            args = func.args
            every = [*args.posonlyargs, *args.args, *args.kwonlyargs]
            every += [a for a in (args.vararg, args.kwarg) if a is not None]
            params = tuple(a.arg for a in every if a.arg not in OWN_OBJECT)
            positional, required = _call_shape(func)
            doc = _docstring(func)
        scope = _Scope(
            func=func,
            places=places,
            ifs=ifs,
            on_line=on_line,
            chooses=chooses,
            handlers=handlers,
            params=params,
            positional=positional,
            required=required,
            docstring=" ".join(doc.split())[:_MAX_DOC] or None if doc else None,
        )
        self._scopes[key] = scope
        return scope

    def _init_params(self, cls: ast.ClassDef, depth: int = 0) -> dict[str, str]:
        """`self.attr` → the constructor's parameter assigned to it: in the class's own
        `__init__`, or in that of a base of the same file whose parameter of that name the
        class's `__init__` takes too (and passes on), or inherits."""
        found = self._inits.get(id(cls))
        if found is None:
            self._inits[id(cls)] = {}  # a cycle of bases ends here
            whole = self._own_init(cls)
            found, plain = init_params(whole) if whole is not None else ({}, set())
            takes = param_names(whole) if whole is not None else None
            for base in self._file_classes(cls) if depth < _MAX_BASES else ():
                for attr, param in self._init_params(base, depth + 1).items():
                    if (takes is None or param in takes) and attr not in found:
                        found[attr] = param
                        if attr in self._plain_init.get(id(base), ()):
                            plain.add(attr)
            self._plain_init[id(cls)] = plain
            self._inits[id(cls)] = found
        return found

    def _defaults(
        self,
        func: ast.FunctionDef | ast.AsyncFunctionDef | None,
        cls: ast.ClassDef | None,
        words: set[str] | None,
        init_params: dict[str, str],
    ) -> dict[str, str]:
        """The defaults of the inputs the conditions read: the function's parameters, and
        `self.attr` assigned a constructor parameter as it is (`self.x = x`, not `x or y`)."""
        # every name (a call's line): the same for each line of the function, read once
        key = (id(func), id(cls))
        if words is None and key in self._every_default:
            return dict(self._every_default[key])
        out: dict[str, str] = {}
        if func is not None:
            declared = self._default_nodes(func)
            # only the defaults of the names the conditions read are written out
            wanted = {n: self._unparsed(d) for n, d in declared if words is None or n in words}
            out = parameter_defaults(func, wanted, self._rebound) if wanted else {}
        assigned = self._plain_init.get(id(cls), set())
        plain = {a: p for a, p in init_params.items() if a in assigned}
        if plain and cls is not None:
            init = self._init_defaults(cls)
            out.update({f"self.{a}": init[p] for a, p in plain.items() if p in init})
        if words is None:
            self._every_default[key] = dict(out)
        return out

    def _default_nodes(
        self, func: ast.FunctionDef | ast.AsyncFunctionDef | None
    ) -> list[tuple[str, ast.expr]]:
        if func is None:
            return []
        found = self._declared.get(id(func))
        if found is None:
            found = self._declared[id(func)] = default_nodes(func)
        return found

    def _unparsed(self, node: ast.expr) -> str:
        found = self._sources.get(id(node))
        if found is None:
            found = self._sources[id(node)] = ast.unparse(node)
        return found

    def _rebound(self, func: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
        """The names a function's body binds, walked once per function (not per site)."""
        found = self._bound.get(id(func))
        if found is None:
            found = self._bound[id(func)] = rebound_names(func, self._walrus)
        return found

    def _init_defaults(self, cls: ast.ClassDef, depth: int = 0) -> dict[str, str]:
        """The constructor's parameters a user may leave out → their defaults: its own
        `__init__`'s, else those of the bases of the same file it inherits."""
        found = self._ctor_defaults.get(id(cls))
        if found is not None:
            return found
        found = {}
        whole = self._own_init(cls)
        if whole is not None:
            found = parameter_defaults(whole, None, self._rebound)
        else:
            for base in self._file_classes(cls) if depth < _MAX_BASES else ():
                found = self._init_defaults(base, depth + 1)
                if found:
                    break
        self._ctor_defaults[id(cls)] = found
        return found

    def _init_values(self, cls: ast.ClassDef, attrs: set[str]) -> dict[str, str]:
        """`self.attr` → the attribute chain the class's own `__init__` assigns it at its
        top (not under an `if`, a loop or a `try`), where nothing else in the class's text
        assigns the attribute: then it holds that value whatever path was taken."""
        copied = self._copied.get(id(cls))
        if copied is None:
            copied = self._copied[id(cls)] = self._copied_values(cls)
        # in the constructor's order: `attrs` is a set, whose order changes from run to run
        return {attr: value for attr, value in copied.items() if attr in attrs}

    def _copied_values(self, cls: ast.ClassDef) -> dict[str, str]:
        """Every `self.attr = other.chain` (or `other.chain if other is not None else
        "auto"`) at the top of the class's own `__init__` whose attribute the class's text
        assigns once (read once per class)."""
        counts = self._class_assignments(cls)
        whole = self._own_init(cls) if counts else None
        if whole is None or counts is None:
            return {}
        out: dict[str, str] = {}
        dicts = _HeldDicts(whole)
        for stmt in whole.body:
            for attr, value in own_attributes_set(stmt):
                if counts.get(attr) == 1:
                    # as it is, or behind a default for its object's absence
                    dotted = copied_chain(value)
                    if dotted is None:
                        # one key of a dict a chain holds, or a local at the top holds
                        # (`extra = copy(cfg.extra or {})`; `self.x = extra.pop("x", True)`)
                        dotted = copied_key(value, dicts)
                        root = dotted.partition(".")[0] if dotted is not None else None
                        if root is not None and root not in dicts[""].split():
                            dotted = None
                    if dotted is not None:
                        out[attr] = dotted
        return out

    def _class_assignments(self, cls: ast.ClassDef) -> dict[str, int] | None:
        """How many times the text of a top-level class assigns each `self.X` (plain,
        annotated or augmented), read from the original text up to the next top-level
        statement (the skeleton keeps line numbers, not the ends of blanked bodies); None
        for a nested class."""
        found = self._assigned.get(id(cls))
        if found is not None or id(cls) in self._assigned:
            return found
        body = self.tree.body
        at = next((i for i, s in enumerate(body) if s is cls), None)
        if at is None:
            self._assigned[id(cls)] = None
            return None
        end = body[at + 1].lineno - 1 if at + 1 < len(body) else len(self.lines)
        text = self._joined(cls.lineno, end)
        counted = assignment_counts(text)
        self._assigned[id(cls)] = counted
        return counted

    def _init_required(self, cls: ast.ClassDef) -> tuple[str, ...] | None:
        """The parameters the class's own `__init__` must be given, None when it has none
        of its own (what it inherits is not read here)."""
        whole = self._own_init(cls)
        return _call_shape(whole)[1] if whole is not None else None

    def _own_init(self, cls: ast.ClassDef) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
        """The class's own `__init__`, whole (a skeleton may have blanked its body): parsed
        again from the text at most once per class, however many sites ask."""
        if id(cls) in self._own_inits:
            return self._own_inits[id(cls)]
        init = next(
            (s for s in cls.body if isinstance(s, _FUNCTIONS) and s.name == "__init__"), None
        )
        found = self._original(init) if init is not None else None
        self._own_inits[id(cls)] = found
        return found

    def _file_classes(self, cls: ast.ClassDef) -> list[ast.ClassDef]:
        """The bases of `cls` that the file defines at its top level, by their plain name."""
        if self._top_classes is None:
            self._top_classes = {s.name: s for s in self.tree.body if isinstance(s, ast.ClassDef)}
        named = [b.id for b in cls.bases if isinstance(b, ast.Name)]
        return [self._top_classes[n] for n in named if n in self._top_classes]

    def _setters(self, cls: ast.ClassDef, attrs: set[str]) -> tuple[Setter, ...]:
        found = self.set_by.get(id(cls))
        if found is None:
            found = self.set_by[id(cls)] = ClassSetters(cls, self._original, self._text_of)
        return found.of(attrs)

    def _text_of(self, func: ast.FunctionDef | ast.AsyncFunctionDef) -> str:
        """A function's text as written, its body whole even when the skeleton blanked it."""
        span = self._blanked_span(func) if _is_blanked(func) else None
        if span is not None:
            return self.text[span[0] : span[1]]
        return self._joined(func.lineno, func.end_lineno or func.lineno)

    def _joined(self, first: int, last: int) -> str:
        """Lines `first` to `last` (from 1) joined by `\n`, without the last one's end."""
        joined = "".join(self.lines[first - 1 : last])
        return joined[:-1] if joined.endswith("\n") else joined

    def _blanked_span(self, func: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[int, int] | None:
        """Where the original text of a function the skeleton blanked starts and ends."""
        if not self.blanked:
            return None
        if self._blanked_lines is None:
            self._blanked_lines = line_numbers(self.text, [head for head, _, _ in self.blanked])
        at = bisect.bisect_left(self._blanked_lines, func.lineno)
        if at == len(self._blanked_lines) or self._blanked_lines[at] != func.lineno:
            return None
        head, _, end = self.blanked[at]
        return self.text.rfind("\n", 0, head) + 1, end

    def _original(
        self, init: ast.FunctionDef | ast.AsyncFunctionDef
    ) -> ast.FunctionDef | ast.AsyncFunctionDef:
        """A function (an `__init__`, a setter) as written, when the skeleton blanked its body:
        parsed once, however many sites of its class ask (the tree is only read)."""
        if not self.blanked or not _is_blanked(init):
            return init
        found = self._originals.get(id(init))
        if found is None:
            found = self._originals[id(init)] = self._parse_original(init)
        return found

    def _parse_original(
        self, init: ast.FunctionDef | ast.AsyncFunctionDef
    ) -> ast.FunctionDef | ast.AsyncFunctionDef:
        span = self._blanked_span(init)
        if span is None:
            return init
        start, end = span
        try:
            # indented, as it is in its class: under `if 1:` it parses as written
            module = ast.parse("if 1:\n" + self.text[start:end])
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return init
        first = module.body[0]
        if isinstance(first, ast.If) and first.body and isinstance(first.body[0], _FUNCTIONS):
            return first.body[0]
        return init

    def _comments(self, lines: list[int], lo: int, hi: int) -> dict[int, str]:
        """The comments on each of `lines` and in the block of comment lines just above it,
        within lines `lo`..`hi` (the function): all `SourceRead.comments_near` reads."""
        out: dict[int, str] = {}
        for line in lines:
            words = self._comment(line) if lo <= line <= hi else None
            if words is not None:
                out[line] = words
            above = line - 1
            while lo <= above <= hi and above not in out:
                words = self._comment(above)
                if words is None:
                    break
                out[above] = words
                above -= 1
        return out

    def _comment(self, number: int) -> str | None:
        """The comment of a line, without `#`: read once per line (the sites of a function
        share the lines of their conditions)."""
        found = self._comment_at.get(number, _UNREAD)
        if found is _UNREAD:
            found = self._comment_at[number] = self._read_comment(number)
        return found  # type: ignore[return-value]

    def _read_comment(self, number: int) -> str | None:
        """The comment of a line, without `#`.

        A line scan, not the tokenizer (which costs more than parsing the file): a `#` counts
        when the quotes before it on its line are balanced, so a `#` inside a one-line string
        is not taken; a comment-like line inside a multi-line string may be.
        """
        if not 1 <= number <= len(self.lines):
            return None
        line = self.lines[number - 1]
        at = line.find("#")
        while at != -1 and (line.count('"', 0, at) % 2 or line.count("'", 0, at) % 2):
            at = line.find("#", at + 1)
        if at == -1:
            return None
        words = line[at:].lstrip("#").strip()
        if words and not words.startswith(_DIRECTIVES):
            return words
        return None


def _docstring(func: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
    """The function's docstring as written: `ast.get_docstring` without its `cleandoc`,
    which takes out only blanks (indentation, blank lines), and the reading's blanks are
    all made one space."""
    first = func.body[0] if func.body else None
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
        value = first.value.value
        return value if isinstance(value, str) else None
    return None


def _call_shape(func: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[tuple[str, ...], ...]:
    """(the parameters a call cannot pass by keyword: positional-only, `*args`,
    `**kwargs`; those it must give: positional ones before the first default, keyword-only
    ones without a default), without `self`/`cls`."""
    args = func.args
    starred = [*args.posonlyargs, *(a for a in (args.vararg, args.kwarg) if a)]
    ordered = [*args.posonlyargs, *args.args]
    plain = ordered[: len(ordered) - len(args.defaults)]
    bare = [a for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is None]
    return (
        tuple(a.arg for a in starred if a.arg not in OWN_OBJECT),
        tuple(a.arg for a in (*plain, *bare) if a.arg not in OWN_OBJECT),
    )


def _is_blanked(func: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    body = func.body
    return (
        len(body) == 1
        and isinstance(body[0], ast.Expr)
        and isinstance(body[0].value, ast.Constant)
        and body[0].value.value is Ellipsis
    )


class _HeldDicts(Mapping[str, str]):
    """`_held_dicts(init)`, worked out when first read: most values a constructor keeps are
    no key read (a call, a literal, arithmetic), which `copied_key` tells without it, and
    the walk of the whole constructor it takes was a third of the constructors' readings."""

    def __init__(self, init: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self._init = init
        self._found: dict[str, str] | None = None

    def _dicts(self) -> dict[str, str]:
        if self._found is None:
            self._found = _held_dicts(self._init)
        return self._found

    def __getitem__(self, key: str) -> str:
        return self._dicts()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._dicts())

    def __len__(self) -> int:
        return len(self._dicts())


def _held_dicts(init: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, str]:
    """The locals a constructor binds once, at its top, to a dict an attribute chain holds
    (`held_dict`) → that chain, where the chain's root is `self`, a parameter the
    constructor never rebinds, or a local bound so above it (written as its chain), and
    nothing assigns a key of the local; under "" the roots a kept key may start at (the
    parameters and `self`, as one string joined by spaces)."""
    args = init.args
    params = {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)}
    stored: dict[str, int] = {}
    keyed: set[str] = set()
    for node in ast.walk(init):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
            stored[node.id] = stored.get(node.id, 0) + 1
        elif (
            isinstance(node, ast.Subscript)
            and isinstance(node.ctx, ast.Store | ast.Del)
            and isinstance(node.value, ast.Name)
        ):
            keyed.add(node.value.id)
    roots = {p for p in params if p not in stored} | set(OWN_OBJECT)
    out: dict[str, str] = {"": " ".join(sorted(roots))}
    for stmt in init.body:
        if not (
            isinstance(stmt, ast.Assign)
            and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)
        ):
            continue
        name = stmt.targets[0].id
        chain = held_dict(stmt.value)
        first, dot, rest = chain.partition(".") if chain is not None else ("", "", "")
        if first in out and first:
            # a local bound above to another chain (`transfer_config = vllm_config.
            # kv_transfer_config`; `extra = transfer_config.kv_connector_extra_config`)
            chain = out[first] + dot + rest
        if (
            chain is not None
            and stored.get(name) == 1
            and name not in keyed
            and chain.partition(".")[0] in roots
        ):
            out[name] = chain
    return out
