"""A raise under `except`: the call of the `try` that failed, its input, and the way out.

click's `open_stream` re-raises the `OSError` of `os.open(tmp_filename, flags, ...)`:
what failed is the creation of a file beside the target, and the way out is a path whose
directory exists and is writable. A few well-known calls say what they need of their
input (the table below: files and directories, JSON text, numbers written out, modules
to import); their failure's way out is said in terms of that input. Any other call of the
`try` failed on what its error's own message names: a bare `raise` passes that message on
as it is, and `raise ... from` shows it above this error in the traceback.
"""

from __future__ import annotations

import ast
import re
from typing import NamedTuple

from errdex.ast_walk import walk
from errdex.explain.context import Facts, async_function_at, function_at, top_class_in
from errdex.explain.item_fields import own_init
from errdex.explain.made_paths import made_here
from errdex.explain.page import Solution
from errdex.explain.parse_formats import PARSES, parse_form
from errdex.explain.plain import caught_names, code
from errdex.explain.stored_argument import PATH_KEEPING, plain_store, stored_once
from errdex.explain.tried_input import failing_calls
from errdex.explain.undefined_name import undefined_name_text
from errdex.explain.user_data import callable_by_user
from errdex.extract.setters import param_names
from errdex.facts import Placeholder, SiteKind
from errdex.store import Store, StoredSite

__all__ = [
    "caught_bare",
    "failed_call_solutions",
    "raised_bare",
    "wrapped_sentence",
]

_BROAD = frozenset({"Exception", "BaseException", ""})
_OS_ERRORS = frozenset(
    {"OSError", "IOError", "EnvironmentError", "FileNotFoundError", "PermissionError"}
    | {"FileExistsError", "IsADirectoryError", "NotADirectoryError"}
)
# The rest of `OSError`'s subclasses: a process, a connection, a pipe, a clock.
_SYSTEM_ERRORS = _OS_ERRORS | frozenset(
    {"ProcessLookupError", "ChildProcessError", "ConnectionError", "BrokenPipeError"}
    | {"ConnectionResetError", "ConnectionRefusedError", "ConnectionAbortedError"}
    | {"TimeoutError", "InterruptedError", "BlockingIOError"}
)
# What a call needs of its path argument(s), by the call's name (a module's function) or,
# for `pathlib.Path` methods, by the method's name: "write" (its directory exists and is
# writable), "read" (it exists and is readable), "move" (the first exists, the second's
# directory is writable), "remove" (it exists, its directory is writable).
_PATH_CALLS = {
    **dict.fromkeys(("os.mkdir", "os.makedirs", "os.mkfifo"), "write"),
    **dict.fromkeys(("tempfile.mkstemp", "tempfile.mkdtemp", "os.chmod", "os.chown"), "write"),
    **dict.fromkeys(("os.stat", "os.lstat", "os.listdir", "os.scandir", "os.chdir"), "read"),
    **dict.fromkeys(("os.readlink", "os.path.getsize", "os.path.getmtime"), "read"),
    **dict.fromkeys(("os.rename", "os.replace", "os.link", "os.symlink"), "move"),
    **dict.fromkeys(("shutil.copy", "shutil.copy2", "shutil.copyfile", "shutil.move"), "move"),
    **dict.fromkeys(("shutil.copytree",), "move"),
    **dict.fromkeys(("os.remove", "os.unlink", "os.rmdir", "shutil.rmtree"), "remove"),
}
_PATH_METHODS = {
    **dict.fromkeys(("read_text", "read_bytes", "iterdir"), "read"),
    **dict.fromkeys(("write_text", "write_bytes", "mkdir", "touch"), "write"),
    **dict.fromkeys(("unlink", "rmdir"), "remove"),
}
_OPENS = frozenset({"open", "io.open", "builtins.open", "codecs.open"})
# Other functions that open the file at a path, as `open` does (its mode second): the
# standard library's compressed files, and a function whose name says so (click's
# `open_stream(filename, mode, ...)`), called bare or from a module (`_opens_path`).
_OPENER = re.compile(
    r"^(?:(?:gzip|bz2|lzma)\.open|(?:(?P<module>\w+)\.)?open_(?:file|stream|text|binary|path))$"
)
# What `request.json()` raises on a body that is no JSON.
_JSON_ERRORS = frozenset({"JSONDecodeError", "ValueError"})
# A web router's methods that add a route for one HTTP method.
_ROUTE_METHODS = frozenset({"get", "post", "put", "patch", "delete"})
_IMPORTS = frozenset({"importlib.import_module", "import_module"})
_IMPORT_ERRORS = frozenset({"ImportError", "ModuleNotFoundError"})
_NEEDS = {
    "write": "the directory {0} is in must exist and the user running the program must be "
    "allowed to write there ({0} itself must not be a directory)",
    "read": "{0} must exist and the user running the program must be allowed to read it",
    "remove": "{0} must exist and the user running the program must be allowed to change "
    "the directory it is in",
    "open": "{0} must exist and allow the access asked for or, where it is created, the "
    "directory it is in must exist and be writable by the user running the program",
    "move": "{0} must exist and be readable, and the directory {1} goes in must exist and "
    "be writable by the user running the program",
    "target": "the directory {0} goes in must exist and be writable by the user running the "
    "program",
}
# What one specific `OSError` subclass caught says of the path, beside the call's need:
# an exclusive create caught as `FileExistsError` fails only because the path is there, so
# "its directory must be writable" (true already) would send the user nowhere.
_CLASS_NEEDS = {
    "FileExistsError": "{0} must not exist yet: the call creates it and refuses one that is "
    "already there (remove one left from an earlier run, or choose another path)",
    "IsADirectoryError": "{0} must name a file, not a directory",
    "NotADirectoryError": "each folder on the way to {0} must be a directory, not a file",
}
_MISSING_NEEDS = {
    "write": "the directory {0} is in must exist",
    "move": "{0} must exist, and so must the directory {1} goes in",
    "target": "the directory {0} goes in must exist",
}
_DENIED_NEEDS = {
    "write": "the user running the program must be allowed to write in the directory {0} is in",
    "read": "the user running the program must be allowed to read {0}",
    "remove": "the user running the program must be allowed to change the directory {0} is in",
    "target": "the user running the program must be allowed to write in the directory {0} goes in",
}
# A failed call's way out comes after a setting's exact value (ranks 0 and 1) and before any
# other input or environment way out (10 and above) ...
_AFTER_SETTINGS = 2
# ... or after what the message says to do, as input (11) or environment (21)
_AFTER_ADVICE = 22
# What a failed call raises when the program broke its own rule, or was stopped: no value
# of the user's named in its message.
# So do the signals of control flow (the end of an iterator, a task cancelled, a full queue).
_INTERNAL = frozenset(
    {"AssertionError", "NotImplementedError", "SystemExit", "KeyboardInterrupt", "GeneratorExit"}
    | {"StopIteration", "StopAsyncIteration", "CancelledError", "QueueFull", "QueueEmpty"}
    | {"Full", "Empty"}
)
# `SomeError(...)` (an error the `try` raises itself), `d.get(key)` (no failure of its own)
_BUILT = re.compile(
    r"^(?:[\w.]*\.)?\w*(?:Error|Exception|Warning)\(|^[\w.\[\]'\"]+\.get\([^,()]*\)$"
)
_MAX_CALL = 70  # characters of a call quoted in a sentence
_MAX_RAISES = 60  # raises of a caught class read to tell whether any has a message


def failed_call_solutions(facts: Facts, advised: bool) -> list[tuple[Solution, int, bool, str]]:
    """The way out of what the `try` around the site did, each with its rank, whether it is
    offered only alone, and the call it is of (as written): the input of a well-known call
    that failed (after what the message says to do, when it says something: `advised`), or
    what the failed call's own error names (never beside the message's advice; alone, for a
    raise of another class `from` it)."""
    found = _failed(facts)
    if found is None:
        return []
    calls, texts, caught, line, raise_from = found
    out: list[tuple[Solution, int, bool, str]] = []
    if "NameError" in caught:
        # an annotation of the user's that names what its module does not define
        site = facts.stored.site
        for text in texts:  # as written: a call cut short is parsed by no `ast`
            said = undefined_name_text(text, code(_short(text)), line, site.function, site.kind)
            if said is not None:
                rank = _AFTER_ADVICE if advised else _AFTER_SETTINGS
                return [(Solution(text=said, kind="input"), rank, False, text)]
    for call in calls:
        known = _known(call, caught, facts, alone=len(calls) == 1)
        if known is not None:
            rank = _AFTER_ADVICE if advised else _AFTER_SETTINGS
            out.append((Solution(text=known, kind="input"), rank, False, ast.unparse(call)))
    # a public function's parameters are what its caller gave: the input the message names
    given = _given(calls, facts) if callable_by_user(facts) else []
    # an `OSError` of a call not in the table is the system's refusal (a closed pipe, a
    # full disk), not the value's: the message says which, and no value is named
    if out or advised or not raise_from or not given or caught & (_INTERNAL | _SYSTEM_ERRORS):
        return out[:2]
    if caught_bare(facts):
        return []  # click's `Abort()`: nothing in its message to fix
    shown = " or ".join(code(_short(t)) for t in texts[:2])
    shown += " (or another call of it)" if len(texts) > 2 else ""
    what = _caught_words(caught)
    if facts.stored.site.kind is SiteKind.RERAISE:
        text = (
            f"Fix what this error's own message names: {shown} (the `try` at line {line}) "
            f"raised {what}, passed on here as it was, "
            "and its message says what failed and with which value."
        )
    else:
        text = (
            f"Fix what the error's cause names: {shown} (the `try` at line {line}) raised "
            f"{what}, shown above this one in the "
            "traceback, and its message says what failed and with which value."
        )
    alone = facts.stored.site.kind is not SiteKind.RERAISE
    return [(Solution(text=text, kind="input"), _AFTER_SETTINGS, alone, texts[0])]


def raised_bare(store: Store, stored: StoredSite, name: str) -> bool:
    """Whether the version raises the exception class `name` (its last component) and never
    with a message: no argument at any raise (`raise Abort() from e`), and a class of the
    package's own whose body builds none (no `__init__`, `__str__` or message attribute:
    only a docstring) on a builtin base."""
    found = [
        s
        for s in store.sites_raising(name, stored.project, stored.version, _MAX_RAISES)
        if s.site.kind is SiteKind.RAISE
    ]
    if not found or len(found) >= _MAX_RAISES:
        return False  # none to tell by, or too many to read them all
    if not all(s.site.message is None and not s.site.args for s in found):
        return False
    info = found[0].exception
    if info is None or info.defined_in is None or info.line is None:
        return False  # a builtin or another package's class: raised elsewhere too
    if any(s.exception is None or s.exception.qualname != info.qualname for s in found):
        return False  # two classes of one name
    if not all(base.startswith("builtins.") for base in info.bases):
        return False  # a base of the package's may build a message
    cls = top_class_in(store.file_text(stored.version_id, info.defined_in), info.name)
    return cls is not None and all(_plain_statement(s) for s in cls.body)


def _plain_statement(statement: ast.stmt) -> bool:
    """A docstring, `pass` or `...`: a class body line that builds no message."""
    if isinstance(statement, ast.Pass):
        return True
    return isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)


def caught_bare(facts: Facts) -> bool:
    """Whether every class the innermost `except` catches is one the package raises only
    with no message (a signal to stop, click's `Abort`): "its message says what failed"
    would send the user to a message that is not there. The classes of the site's file
    built on a caught one are caught too and asked alike."""
    clause = facts.innermost_except()
    if clause is None:
        return False
    caught = caught_names(clause.text)
    named = caught - _BROAD
    if not named or named != caught or facts.raised_bare is None:
        return False
    every = set(named)
    for name in named:
        every.update(facts.subclass_names(name))
    return all(facts.raised_bare(name) for name in sorted(every))


def wrapped_sentence(facts: Facts) -> str | None:
    """For a raise of another class `from` the caught error: that it wraps the failure of
    the `try` (said after what the `try` did, `rules._except_sentences`)."""
    found = _failed(facts)
    if found is None or facts.stored.site.kind is not SiteKind.RAISE or not found.passed:
        return None
    named = found.caught - _BROAD
    what = f"the {_caught_words(named)}" if named else "the error the `try` raised"
    return (
        f"This error wraps that failure: the traceback shows {what} above this one as its "
        "cause, and its message says what failed."
    )


def made_sentence(facts: Facts) -> str | None:
    """For a `try` whose well-known file calls are given only paths the program makes
    itself (`made_paths`): that those are not the user's to check, instead of "the input of
    that call is what to check" (None otherwise)."""
    found = _failed(facts)
    if found is None:
        return None
    made = [c for c in found.calls if _made_path_call(c, facts)]
    if not made:
        return None
    shown = " and ".join(code(_short(ast.unparse(c))) for c in made[:2])
    given = "is given a path" if len(made) == 1 else "are given paths"
    others = len(made) < len(found.calls)
    which = (
        " Another call of the `try` may have failed instead; the error's message says which."
        if others
        else " The error's message says what the system refused."
    )
    return (
        f"{shown} {given} the program makes itself (a temporary or staging file), not one "
        f"of yours to check.{which}"
    )


def _made_path_call(call: ast.Call, facts: Facts) -> bool:
    """Whether `call` is a well-known file call whose every path the program made."""
    func = call.func
    name = ast.unparse(func)
    if name in _PATH_CALLS or name in _OPENS or _opens_path(name, facts) or name == "os.open":
        paths: list[ast.expr] = list(
            call.args[:2] if _PATH_CALLS.get(name) == "move" else call.args[:1]
        )
    elif isinstance(func, ast.Attribute) and func.attr in _PATH_METHODS:
        paths = [func.value]
    else:
        return False
    return bool(paths) and all(made_here(p, facts) for p in paths)


def _opens_path(name: str, facts: Facts) -> bool:
    """Whether the call `name` opens the file at a path as `open` does (`_OPENER`): called
    bare, or from a module the file imports (`import streams`), not on an object, whose
    method may open what the object holds."""
    found = _OPENER.match(name)
    if found is None:
        return False
    module = found.group("module")
    if module is None:
        return True
    word = re.escape(module)
    imported = rf"^\s*import\s+(?:[\w.]+\s*,\s*)*{word}\b|^\s*import\s+[\w.]+\s+as\s+{word}\b"
    return re.search(imported, facts.source_text or "", re.M) is not None


def _caught_words(caught: set[str]) -> str:
    named = sorted(caught - _BROAD)
    return " or ".join(code(n) for n in named) if named else "an exception"


class _Failed(NamedTuple):
    calls: list[ast.Call]  # the calls of the `try` that may have failed, parsed
    texts: list[str]  # the same as written (cut short where they were read)
    caught: set[str]  # the classes the clause names ("" for a bare `except`)
    line: int  # the `try`'s line
    passed: bool  # a bare `raise`, or `raise ... from` the caught error


def _failed(facts: Facts) -> _Failed | None:
    """What the `try` around the site did, and whether the site passes its failure on (a
    bare `raise`, or `raise ... from` it); None for a site under no `try` of calls."""
    key = "failed_call.failed"
    found = facts.once(key, lambda: _find(facts))
    return found if isinstance(found, _Failed) else None


def _find(facts: Facts) -> _Failed | None:
    site = facts.stored.site
    if site.kind not in (SiteKind.RAISE, SiteKind.RERAISE):
        return None
    clause = facts.innermost_except()
    if clause is None:
        return None
    tried = facts.read.tries.get(clause.line)
    if tried is None or tried.imports or not tried.calls:
        return None
    texts = failing_calls(tried.calls)
    # a call written inside another one (kept cut short at 120 characters, so not told
    # apart by `failing_calls`); an error the `try` builds to raise itself
    texts = [t for t in texts if not any(t != o and t[:40] in o for o in texts)] or texts
    texts = [t for t in texts if not _BUILT.match(t)]
    if not texts:
        return None
    calls = [c for c in (_call(t) for t in texts) if c is not None]
    calls = [c for c in calls if not any(c is not o and _inside(c, o) for o in calls)]
    caught = caught_names(clause.text) or {""}
    passed = site.kind is SiteKind.RERAISE or _raised_from(facts, clause.text)
    return _Failed(calls, texts, caught, tried.line, passed)


def _given(calls: list[ast.Call], facts: Facts) -> list[str]:
    """The parameters of the site's function the failed calls are given (read in their
    arguments, not called: `fn(*args)` runs what the caller passed, `explain/passthru.py`)."""
    params = [p for p in facts.read.params if p not in ("self", "cls")]
    read: set[str] = set()
    for call in calls:
        if isinstance(call.func, ast.Name) and call.func.id in params:
            return []
        for argument in [*call.args, *(k.value for k in call.keywords)]:
            read |= {n.id for n in walk(argument) if isinstance(n, ast.Name)}
    return [p for p in params if p in read]


def _call(text: str) -> ast.Call | None:
    try:
        node = ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return None
    return node if isinstance(node, ast.Call) else None


def _inside(call: ast.Call, other: ast.Call) -> bool:
    """Whether `call` is written inside `other`'s arguments (`int(f(x))`)."""
    inner = ast.unparse(call)
    return inner != ast.unparse(other) and any(
        ast.unparse(n) == inner for n in walk(other) if isinstance(n, ast.Call)
    )


def _raised_from(facts: Facts, clause: str) -> bool:
    """Whether the site is `raise X(...) from <the caught name>`."""
    name = clause.partition(" as ")[2].strip()
    function = facts.site_function()
    if not name or function is None:
        return False
    line = facts.stored.site.line
    return any(
        isinstance(n, ast.Raise)
        and n.lineno == line
        and isinstance(n.cause, ast.Name)
        and n.cause.id == name
        for n in walk(function)
    )


def _short(text: str) -> str:
    return text if len(text) <= _MAX_CALL else text[: _MAX_CALL - 1] + "…"


def _known(call: ast.Call, caught: set[str], facts: Facts, *, alone: bool = True) -> str | None:
    """The way out of a well-known call's failure, in terms of its input (`alone`: the
    only call of its `try`)."""
    func = call.func
    name = ast.unparse(func)
    shown = code(_short(ast.unparse(call)))
    if name in _IMPORTS and call.args and caught & (_IMPORT_ERRORS | _BROAD):
        module = call.args[0]
        if isinstance(module, ast.Constant) and isinstance(module.value, str):
            which = code(module.value)
        else:
            which = f"the module {_input(module, facts)} names"
        return (
            f"Install {which}, or make it importable: {shown} failed on it, and the error's "
            "message names the module it could not import."
        )
    if name in PARSES:
        what = parse_form(call, caught)
        if what is None:
            return None
        value = _input(call.args[0], facts)
        return (
            f"Make sure {value} is {what}: {shown} failed on it, and the error's message "
            f"says where it went wrong.{_set_from(call.args[0], facts)}"
        )
    body = _request_body(call, caught, facts, alone)
    if body is not None:
        return body
    if not caught & (_OS_ERRORS | _BROAD):
        return None
    need: str | None = None
    paths: list[ast.expr] = list(call.args[:2])
    if name in _PATH_CALLS:
        need = _PATH_CALLS[name]
    elif name in _OPENS or _opens_path(name, facts):
        need = _open_need(call)
    elif name == "os.open":
        need = _flags_need(call, facts)
    elif isinstance(func, ast.Attribute) and func.attr in _PATH_METHODS:
        need = _PATH_METHODS[func.attr]
        paths = [func.value]
    if need is None or not paths:
        return None
    if need == "move" and len(paths) > 1 and made_here(paths[0], facts):
        # a file the program made, moved to the user's path: only the target is theirs
        if made_here(paths[1], facts):
            return None
        need, paths = "target", paths[1:]
    elif made_here(paths[0], facts):
        return None  # a path the program makes itself is not the user's to check
    first = _input(paths[0], facts)
    second = _input(paths[1], facts) if need == "move" and len(paths) > 1 else None
    if need == "move" and second is None:
        return None
    needs = _needs(need, caught, first, second)
    if needs is None:
        return None
    paths_word = "paths" if second is not None else "path"
    return (
        f"Check the {paths_word} given to {shown}, which failed: {needs}. The error's "
        f"message names the path and what the system refused.{_set_from(paths[0], facts)}"
    )


def _request_body(call: ast.Call, caught: set[str], facts: Facts, alone: bool) -> str | None:
    """ "Send `POST /rpc` a request body that is valid JSON ..." for `request.json()` of the
    `Request` parameter of a web route's handler (decorated `@router.post("/rpc")`), under a
    clause that catches what a body that is no JSON raises, and only that where the `try`
    calls more (`except Exception` around `run(await request.json())` is as much the run's
    failure: "`request.json()` failed" would be no fact)."""
    func = call.func
    if call.args or call.keywords or not caught & (_JSON_ERRORS | _BROAD):
        return None
    if not alone and not caught <= {"JSONDecodeError"}:
        return None
    if not (isinstance(func, ast.Attribute) and func.attr == "json"):
        return None
    if not isinstance(func.value, ast.Name):
        return None
    site = facts.stored.site
    name = site.function.rpartition(".")[2]
    handler = function_at(facts.source_text, name, site.line) or async_function_at(
        facts.source_text, name, site.line
    )
    if handler is None:
        return None
    annotated = {
        a.arg: ast.unparse(a.annotation).rpartition(".")[2]
        for a in [*handler.args.posonlyargs, *handler.args.args, *handler.args.kwonlyargs]
        if a.annotation is not None
    }
    if annotated.get(func.value.id) != "Request":
        return None  # not the request a client sent
    # the decorators, over several lines as often as not: read from the whole file, parsed
    # only for such a handler
    tree = facts.source_tree()
    whole = next(
        (
            n
            for n in (walk(tree) if tree is not None else ())
            if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
            and n.name == name
            and n.lineno <= site.line <= (n.end_lineno or n.lineno)
        ),
        None,
    )
    above = whole.decorator_list if whole is not None else []
    routes = [r for r in (_route(d) for d in above) if r is not None]
    if not routes:
        return None  # no route of a web server: who sends the body is unknown
    return (
        f"Send {code(routes[0])} a request body that is valid JSON: "
        f"{code(_short(ast.unparse(call)))} failed on the body the client sent, and this "
        "error answers the request in its place."
    )


def _route(decorator: ast.expr) -> str | None:
    """ "POST /rpc" of `@router.post("/rpc")`: a route a web server's router adds."""
    if not (isinstance(decorator, ast.Call) and isinstance(decorator.func, ast.Attribute)):
        return None
    method = decorator.func.attr
    if method not in _ROUTE_METHODS or not decorator.args:
        return None
    path = decorator.args[0]
    if not (isinstance(path, ast.Constant) and isinstance(path.value, str)):
        return None
    if not path.value.startswith("/"):
        return None
    return f"{method.upper()} {path.value}"


def _needs(need: str, caught: set[str], first: str, second: str | None) -> str | None:
    """What the path(s) must be for the call not to fail with what the clause catches: the
    call's whole need for a broad clause (`OSError`, `except:`), else only what the caught
    subclasses say (None when a caught subclass cannot come of this call's need)."""
    if caught & ({"OSError", "IOError", "EnvironmentError"} | _BROAD):
        return _NEEDS[need].format(first, second)
    said: list[str] = []
    for name in sorted(caught & _OS_ERRORS):
        if name == "FileExistsError" and need in ("read", "remove", "target"):
            continue  # reading or removing never refuses a path for being there
        text = (
            _CLASS_NEEDS.get(name)
            or (_MISSING_NEEDS.get(need, "{0} must exist") if name == "FileNotFoundError" else None)
            or _DENIED_NEEDS.get(need, _NEEDS[need])
        )
        said.append(text.format(first, second))
    return "; ".join(said) or None


def _open_need(call: ast.Call) -> str:
    """Whether `open`'s literal mode writes ("write") or reads ("read", the mode left out);
    "open" when the mode is computed."""
    mode: ast.expr | None = call.args[1] if len(call.args) > 1 else None
    mode = next((k.value for k in call.keywords if k.arg == "mode"), mode)
    if mode is None:
        return "read"
    if isinstance(mode, ast.Constant) and isinstance(mode.value, str):
        return "write" if set(mode.value) & set("wax+") else "read"
    return "open"


def _flags_need(call: ast.Call, facts: Facts) -> str:
    """Whether the flags `os.open` is given write or read (written there, or in the local
    they are read from); "open" when they cannot be told."""
    flags = call.args[1] if len(call.args) > 1 else None
    flags = next((k.value for k in call.keywords if k.arg == "flags"), flags)
    text = ast.unparse(flags) if flags is not None else ""
    if isinstance(flags, ast.Name):
        text = next((b.value for b in facts.bindings if b.name == flags.id), text)
    if any(f in text for f in ("O_CREAT", "O_WRONLY", "O_RDWR", "O_TRUNC", "O_APPEND")):
        return "write"
    return "read" if "O_RDONLY" in text else "open"


def _input(value: ast.expr, facts: Facts) -> str:
    """The argument in words: the parameter the caller gave it as, or as written."""
    text = code(_short(ast.unparse(value)))
    if isinstance(value, ast.Name) and value.id in facts.read.params:
        if not callable_by_user(facts) and _shown(value.id, facts):
            # an internal function's argument means nothing to a user; the value the
            # message prints (`Invalid IPv4 address: {host!r}`) is theirs to recognise
            return f"{text} (the value the message shows)"
        function = facts.stored.site.function.removesuffix(".__init__")
        return f"{text} (the argument {code(value.id)} of {code(function)})"
    return text


def _set_from(value: ast.expr, facts: Facts) -> str:
    """ " `self.name` is the argument `filename` given to `LazyFile`." for an attribute the
    class's constructor sets from its parameter, else ""."""
    given = _init_argument(value, facts)
    if given is None:
        return ""
    return (
        f" {code(ast.unparse(value))} is the argument {code(given[1])} given to {code(given[0])}."
    )


def _init_argument(value: ast.expr, facts: Facts) -> tuple[str, str] | None:
    """(the class, its constructor's parameter) of `self.name` that the class's own
    `__init__` sets once from that parameter, as it is or through a call that keeps the
    path (`self.name = os.fspath(filename)`); not a path built from it (`_shm_path(name)`)."""
    if not (isinstance(value, ast.Attribute) and ast.unparse(value.value) == "self"):
        return None
    owner, dot, _ = facts.stored.site.function.partition(".")
    text = facts.source_text
    cls = top_class_in(text, owner) if dot else None
    init = own_init(cls) if cls is not None else None
    if init is None or text is None or not stored_once(text, value.attr):
        return None  # set elsewhere too (`+=`, another method, a `setattr`): not sure
    stored = plain_store(init, value.attr, param_names(init), PATH_KEEPING)
    return (owner, stored[0]) if stored is not None else None


def _shown(name: str, facts: Facts) -> bool:
    """Whether the site's message prints the value of `name` as it is (`{host!r}`)."""
    message = facts.stored.site.message
    return message is not None and any(
        isinstance(part, Placeholder) and part.expr == name and not part.spec
        for part in message.parts
    )
