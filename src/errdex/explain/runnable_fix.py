"""Every example fix a page shows, checked against what the index knows before it is shown.

A fix is drawn by many rules (a setting's command line, an environment variable, a call's
keyword, a package to install); each draws what it knows, and some "after" lines would
not run as written. One check reads every fix the page renders, the page's own and each
solution's, against the page's facts, and a fix that cannot be shown to run is rewritten
from what the index knows or withheld: no fix beats a fix that fails.

- a command line: its program is a console script of the package's entry points, and a
  value given to a flag of the page's command that the code declares an
  integer, a float or one of a `Literal`'s words parses as one (that the flag is the
  program's is not asked of the page's knobs: a backend's flag comes from the selection
  facts, and every flag of the sample's fixes is declared in its wheel);
- an environment variable: one the package reads (a knob of the page), and a value it
  parses (an integer variable gets digits);
- a Python call of the site's own function (a method by its name, a constructor by its
  class for `__init__`): every parameter without a default is given, by position or by
  keyword, as the signature there declares; one left out is added to both lines as the
  user's own value (`cls=CLS`), named in the note;
- a Python call: a keyword given `None` that the function called assigns again when it is
  None (`if is_flag is None: is_flag = ...`, before the check) does not stay None: the
  check sees the value put in its place, maybe the failing one. A yes/no parameter is
  given `False` instead (a falsy value no such line replaces); any other, the fix is
  withheld;
- no placeholder where a value is needed: `VALUE` or `<...>` in the "after" line that the
  "before" line does not give, unless the note names it as the user's own value (the
  value they pass a method of their own object).
"""

from __future__ import annotations

import ast
import re
import shlex
from collections.abc import Sequence

import msgspec

from errdex.explain.context import Facts
from errdex.explain.left_out import filled_when_none
from errdex.explain.page import ExampleFix, Knob, Solution
from errdex.facts import KnobKind

# A value a fix leaves for the user to choose, where the check needs a known one.
_PLACEHOLDER = re.compile(r"<[A-Za-z][\w -]*>|\bVALUE\b")
# `NAME=value` set before a command, or exported.
_ASSIGNED = re.compile(r"^(?:export\s+)?([A-Z][A-Z0-9_]*)=(\S*)")
# `keyword=None` in a call.
_NONE_KEYWORD = re.compile(r"\b([a-z_][a-z0-9_]*)=None\b")
_INT = re.compile(r"[+-]?\d+")
_FLOAT = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
# a literal type's words: `Literal['none', 'summary']`
_LITERAL = re.compile(r"^Literal\[(.*)\](?:\s*\|\s*None)?$")


def fix_fault(fix: ExampleFix, facts: Facts) -> str | None:
    """Why `fix` cannot be shown to run as written (a short reason), or None."""
    after = _lines(fix.after)
    before = fix.before
    if _placeholder(after, before, fix.note or ""):
        return "placeholder"
    for line in after:
        fault = _command_fault(line, facts.knobs, facts.scripts) or _env_fault(line, facts.knobs)
        if fault is not None:
            return fault
    if _missing_argument(fix.after, facts):
        return "required argument"
    if _turned_back(fix, facts)[0]:
        return "turned back"
    return None


def checked_fixes(
    facts: Facts, ways: Sequence[Solution], fix: ExampleFix | None
) -> tuple[list[Solution], ExampleFix | None]:
    """The solutions and the page's fix with each fix that cannot be shown to run
    rewritten (a `None` the code replaces, given `False`) or withheld. The page's fix is
    the first solution's that has one: withheld, no later one takes its place (it would
    not be the first way out)."""
    checked: list[Solution] = []
    for solution in ways:
        if solution.fix is not None:
            kept = _kept(solution.fix, facts)
            if kept is not solution.fix:
                if fix is not None and fix == solution.fix:
                    fix = kept
                solution = msgspec.structs.replace(solution, fix=kept)
        checked.append(solution)
    if fix is not None and not any(fix == s.fix for s in checked):
        fix = _kept(fix, facts)
    return checked, fix


def _kept(fix: ExampleFix, facts: Facts) -> ExampleFix | None:
    """The fix as it can be shown: itself, rewritten, or None."""
    fault = fix_fault(fix, facts)
    if fault is None:
        return fix
    rewritten = None
    if fault == "turned back":
        rewritten = _turned_back(fix, facts)[1]
    elif fault == "required argument":
        rewritten = _with_required(fix, facts)
    if rewritten is not None and fix_fault(rewritten, facts) is None:
        return rewritten
    return None


def _lines(text: str) -> list[str]:
    """The lines a user runs: the config-file form ("# or, in the config file") and
    comments left out."""
    return [line.strip() for line in text.splitlines() if not line.lstrip().startswith("#")]


def _placeholder(after: list[str], before: str, note: str) -> bool:
    """A value left for the user to choose in the "after" line that the "before" line
    does not give already (there it is the user's own value, kept as it was) and the note
    does not name as the user's own."""
    return any(
        m.group(0) not in before and f"`{m.group(0)}`" not in note
        for line in after
        for m in _PLACEHOLDER.finditer(line)
    )


def _words(line: str) -> list[str] | None:
    try:
        return shlex.split(line)
    except ValueError:
        return None


def _command_fault(line: str, knobs: list[Knob], scripts: Sequence[str] = ()) -> str | None:
    """A program that is no console script of the package (`scripts`, when known), or a
    value its type does not parse given to a flag, on a command line of a command the
    page's flags have."""
    commands = {k.command for k in knobs if k.kind == KnobKind.FLAG and k.command}
    command = next((c for c in sorted(commands, key=len, reverse=True) if c in line), None)
    if command is None:
        return None
    if scripts and command.split()[0] not in scripts:
        return "unknown program"
    words = _words(line.partition(command)[2])
    if words is None:
        return "unparsed"
    flags = {k.name: k for k in knobs if k.kind == KnobKind.FLAG and k.command == command}
    for index, word in enumerate(words):
        if not word.startswith("--"):
            continue
        flag, _, inline = word.partition("=")
        knob = flags.get(flag)
        value = inline or (words[index + 1] if index + 1 < len(words) else "")
        given = knob is not None and value and not value.startswith("-")
        if given and knob is not None and not _parses(value, knob.value_type):
            return "flag value"
    return None


def _env_fault(line: str, knobs: list[Knob]) -> str | None:
    """A variable the package does not read, or a value it does not parse."""
    match = _ASSIGNED.match(line)
    if match is None:
        return None
    name, value = match.group(1), match.group(2)
    read = [k for k in knobs if k.kind == KnobKind.ENV and k.name == name]
    if not read:
        # a variable set beside the program's own (`CUDA_VISIBLE_DEVICES`) is the
        # platform's; only one that names the package's own reads is checked
        own = {k.name.partition("_")[0] for k in knobs if k.kind == KnobKind.ENV}
        return "unknown variable" if name.partition("_")[0] in own else None
    value = _unquoted(value)
    if any(not _parses(value, k.value_type) for k in read):
        return "variable value"
    return None


def _unquoted(value: str) -> str:
    words = _words(value)
    return words[0] if words else value


def _parses(value: str, declared: str | None) -> bool:
    """Whether a value typed on a command line parses as the declared type: an integer,
    a float, one of a `Literal`'s words; anything else (a path, an enum the code maps, the
    user's own named value) is taken as it is."""
    if not declared or value.isupper():
        return True  # no type read, or the user's own value (`MAX_NUM_SEQS`)
    kinds = {part.strip() for part in declared.split("|")} - {"None"}
    if kinds == {"int"}:
        return _INT.fullmatch(value) is not None
    if kinds <= {"int", "float"} and kinds:
        return _FLOAT.fullmatch(value) is not None
    literal = _LITERAL.match(declared.strip())
    if literal is not None:
        try:
            words = ast.literal_eval(f"[{literal.group(1)}]")
        except (ValueError, SyntaxError):
            return True
        return value in [str(w) for w in words]
    return True


def _turned_back(fix: ExampleFix, facts: Facts) -> tuple[bool, ExampleFix | None]:
    """Whether a call's keyword the fix gives `None` is one the site's function assigns
    again when it is None, before the site; and then the fix with `False` in its place,
    when the parameter is a yes/no one (else None: no rewrite)."""
    after = fix.after
    keywords = [k for k in _NONE_KEYWORD.findall(after) if f"{k}=None" not in fix.before]
    function = facts.site_function() if keywords else None
    if function is None:
        return False, None
    line = facts.stored.site.line
    for keyword in keywords:
        # `if keyword is None: keyword = ...` above the site (`left_out.filled_when_none`)
        if not any(filled.param == keyword for filled in filled_when_none(function, line)):
            continue
        if _yes_no(function, keyword):
            after = re.sub(rf"\b{keyword}=None\b", f"{keyword}=False", after)
            return True, msgspec.structs.replace(fix, after=after)
        return True, None
    return False, None


def _yes_no(function: ast.FunctionDef, name: str) -> bool:
    """Whether the parameter `name` is declared a yes/no (`Optional[bool]`, `bool | None`)."""
    arguments = function.args
    for argument in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs):
        if argument.arg == name and argument.annotation is not None:
            words = set(re.findall(r"\w+", ast.unparse(argument.annotation)))
            return "bool" in words and words <= {"bool", "None", "Optional", "t", "typing"}
    return False


def _missing_argument(after: str, facts: Facts) -> bool:
    """Whether a call in `after` of the site's own function leaves out a parameter that
    has no default (`declarative_scan(decl_scan=..., key=...)` without `cls`)."""
    return bool(_missing(after, facts))


def _missing(text: str, facts: Facts) -> list[tuple[int, int, list[str]]]:
    """Each call in `text` of the site's own function that leaves out parameters without
    a default: the line (1-based) and column of its closing parenthesis, and those
    parameters in the order the signature declares them."""
    function = facts.site_function()
    if function is None or "(" not in text:
        return []
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return []
    qualname = facts.stored.site.function
    method = "." in qualname and "<locals>" not in qualname
    owner = qualname.split(".")[-2] if method else None
    found = []
    for call in ast.walk(tree):
        if not isinstance(call, ast.Call) or _spread(call) or call.end_lineno is None:
            continue
        callee = call.func
        name = callee.attr if isinstance(callee, ast.Attribute) else getattr(callee, "id", None)
        if name != (owner if function.name == "__init__" else function.name):
            continue
        given = _given(function, call, method)
        missing = [n for n in _required(function, method) if n not in given]
        if missing:
            found.append((call.end_lineno, (call.end_col_offset or 1) - 1, missing))
    return found


def _with_required(fix: ExampleFix, facts: Facts) -> ExampleFix | None:
    """The fix with the parameters its calls of the site's function leave out given as
    the user's own values (`cls=CLS`), in both lines; None when a parameter is
    positional-only (no keyword to give it by)."""
    function = facts.site_function()
    if function is None:
        return None
    bare = {a.arg for a in function.args.posonlyargs}
    added: list[str] = []

    def given(text: str) -> str | None:
        lines = text.split("\n")
        # from the last call back, so that the columns of the earlier ones hold
        for line, column, names in sorted(_missing(text, facts), reverse=True):
            if bare & set(names):
                return None
            words = ", ".join(f"{n}={n.upper()}" for n in names)
            head, tail = lines[line - 1][:column], lines[line - 1][column:]
            opened = head.rstrip().endswith("(")
            lines[line - 1] = f"{head}{'' if opened else ', '}{words}{tail}"
            added.extend(n.upper() for n in names if n.upper() not in added)
        return "\n".join(lines)

    before, after = given(fix.before), given(fix.after)
    if before is None or after is None or not added:
        return None
    named = ", ".join(f"`{word}`" for word in added)
    own = "stands for your own value" if len(added) == 1 else "stand for your own values"
    sentence = f"{named} {own}."
    keep = "Keep the call's other arguments as they are."
    note = fix.note or ""
    # named beside the user's other values, before the closing advice to keep the rest
    note = note.replace(keep, f"{sentence} {keep}") if keep in note else f"{note} {sentence}"
    return msgspec.structs.replace(fix, before=before, after=after, note=note.strip())


def _spread(call: ast.Call) -> bool:
    """A call that hands on `*args` or `**kwargs`: what it gives is not known."""
    return any(isinstance(a, ast.Starred) for a in call.args) or any(
        k.arg is None for k in call.keywords
    )


def _parameters(function: ast.FunctionDef, method: bool) -> list[ast.arg]:
    """The positional parameters a caller gives: a method's `self` or `cls` left out (by
    its name: the function is parsed alone, without the decorator that makes it static)."""
    positional = [*function.args.posonlyargs, *function.args.args]
    bound = method and positional and positional[0].arg in ("self", "cls", "mcs")
    return positional[1:] if bound else positional


def _required(function: ast.FunctionDef, method: bool) -> list[str]:
    """The parameters without a default, in the order the signature declares them."""
    positional = _parameters(function, method)
    defaulted = len(function.args.defaults)
    names = [a.arg for a in positional[: max(0, len(positional) - defaulted)]]
    keyword_only = zip(function.args.kwonlyargs, function.args.kw_defaults, strict=True)
    return names + [a.arg for a, default in keyword_only if default is None]


def _given(function: ast.FunctionDef, call: ast.Call, method: bool) -> set[str]:
    """The parameters the call gives, by position or by keyword."""
    positional = [a.arg for a in _parameters(function, method)]
    return {*positional[: len(call.args)], *(k.arg for k in call.keywords if k.arg)}
