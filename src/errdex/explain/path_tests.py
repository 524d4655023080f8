"""A test that a path is there, on the value a setting gives: the way out supplies it.

`not os.path.exists(os.path.join(model_path, "audio_tokenizer"))` holds where the folder
`model_path` names lacks `audio_tokenizer` (see `link.joined_paths`); `not
os.path.isdir(cache_dir)`, `not Path(folder).resolve().exists()` where the path the setting
gives is not there, and `not Path(f"{folder}/{name}.json").exists()` where the folder lacks
the file the code names in it. The way out gives the setting a path that is there: turning
the setting off gives up what the user asked for (`kept_first`).
"""

from __future__ import annotations

import ast

from errdex.extract.conditions import dotted_name
from errdex.link.joined_paths import joined_onto, path_test

# A `pathlib.Path` method that tests the path, by the `os.path` test it is.
_METHODS = {"exists": "exists", "is_dir": "isdir", "is_file": "isfile"}
# What makes a path of a value without changing which file it names.
_PATH_OF = frozenset(("Path", "pathlib.Path", "PurePath", "pathlib.PurePath"))
_SAME_FILE = frozenset(
    f"{m}.{f}" for m in ("os.path", "osp") for f in ("abspath", "expanduser", "realpath")
)
_SAME_FILE_METHODS = frozenset(("resolve", "expanduser", "absolute"))
_DIRNAME = frozenset(("os.path.dirname", "osp.dirname"))
# What the tests ask of the path, in words (`input_shapes` words an argument's own test so).
PATH_WORDS = {
    "exists": "a path that exists",
    "isdir": "the path of a directory that exists",
    "isfile": "the path of a file that exists",
    "parent": "a path in a directory that exists",
}
# How the way out names a folder that must hold a place the code looks for in it.
SUPPLIED = "folder that holds"


def missing_path(node: ast.expr, folder: str) -> tuple[str, str] | None:
    """For `not os.path.exists(os.path.join(folder, "a", "b"))`: ("a/b", "exists"), the
    path under `folder` the test finds missing and the test's name; None otherwise."""
    if not (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)):
        return None
    tested = path_test(node.operand)
    joined = joined_onto(tested[0]) if tested is not None else None
    if tested is None or joined is None or dotted_name(joined[0]) != folder:
        return None
    return joined[1], tested[1]


def absent_path(node: ast.expr, name: str) -> tuple[str, str | None] | None:
    """For a test that the path `name` gives is not there (`not os.path.exists(name)`,
    `not Path(name).resolve().is_dir()`, or several joined by `or`, each on that path):
    the test asked (`exists`, `isdir`, `isfile`; a directory or file test wins over
    `exists`) and the place inside the folder `name` gives, when the path tested is one in
    it (`f"{name}/{file}"`, `os.path.join(name, "a")`: its source after the folder), else
    None; `parent` where the test is of the folder the path is in (`Path(name).parent`);
    None for any other node."""
    parts = node.values if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or) else [node]
    asked: set[str] = set()
    places: set[str | None] = set()
    for part in parts:
        if not (isinstance(part, ast.UnaryOp) and isinstance(part.op, ast.Not)):
            return None
        tested = _tested(part.operand)
        if tested is None:
            return None
        value = same_file(tested[0])
        parent = _parent_of(value)
        if parent is not None and tested[1] != "isfile":
            value = same_file(parent)  # the folder the path is in: the path is in one
        inside, place = _place(value, name)
        if not inside or (parent is not None and place is not None):
            return None
        asked.add("parent" if parent is not None else tested[1])
        places.add(place)
    if len(places) != 1 or ("parent" in asked and len(asked) > 1):
        return None
    if asked >= {"isdir", "isfile"}:
        return None  # a directory and a file at once: no path passes
    test = next((t for t in ("parent", "isdir", "isfile") if t in asked), "exists")
    (place,) = places
    return test, place


def _tested(node: ast.expr) -> tuple[ast.expr, str] | None:
    """The path a test reads and its `os.path` name: `os.path.isdir(p)`, `p.is_dir()`."""
    found = path_test(node)
    if found is not None:
        return found
    if (
        isinstance(node, ast.Call)
        and not node.args
        and not node.keywords
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in _METHODS
    ):
        return node.func.value, _METHODS[node.func.attr]
    return None


def same_file(node: ast.expr, *, normalised: bool = False) -> ast.expr:
    """The value a path is made of, through what names the same file (`Path(p)`,
    `.resolve()`, `os.path.abspath(p)`). With `normalised`, only through a path made to
    name a file on disk (`.resolve()`, `.expanduser()`, `os.path.abspath(p)`): a bare
    `Path(p)` is often a value tried as a path before it is taken as something else (a
    repository's name), and `node` itself is returned."""
    start, made_whole = node, False
    while isinstance(node, ast.Call) and not node.keywords:
        called = dotted_name(node.func)
        if len(node.args) == 1 and (called in _PATH_OF or called in _SAME_FILE):
            made_whole = made_whole or called in _SAME_FILE
            node = node.args[0]
        elif (
            not node.args
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in _SAME_FILE_METHODS
        ):
            made_whole = True
            node = node.func.value
        else:
            break
    return node if made_whole or not normalised else start


def _parent_of(node: ast.expr) -> ast.expr | None:
    """`p` of `p.parent` or `os.path.dirname(p)`: the folder a path is in."""
    if isinstance(node, ast.Attribute) and node.attr == "parent":
        return node.value
    if (
        isinstance(node, ast.Call)
        and len(node.args) == 1
        and not node.keywords
        and dotted_name(node.func) in _DIRNAME
    ):
        return node.args[0]
    return None


def _place(node: ast.expr, name: str) -> tuple[bool, str | None]:
    """Whether `node` is the path `name` gives or one inside that folder, and the source of
    the place inside it (`f"{name}/{file}.json"`: `{file}.json`; None for `name` itself)."""
    if dotted_name(node) == name:
        return True, None
    joined = joined_onto(node)
    if joined is not None:
        return dotted_name(joined[0]) == name, joined[1]
    if not isinstance(node, ast.JoinedStr) or len(node.values) < 2:
        return False, None
    head, rest = node.values[0], node.values[1:]
    if not (
        isinstance(head, ast.FormattedValue)
        and head.conversion == -1
        and head.format_spec is None
        and dotted_name(head.value) == name
    ):
        return False, None
    first = rest[0]
    if not (isinstance(first, ast.Constant) and str(first.value).startswith("/")):
        return False, None
    tail = ast.JoinedStr(values=[ast.Constant(str(first.value)[1:]), *rest[1:]])
    text = ast.unparse(tail)  # f'{file}.json'
    inside = text[2:-1] if text.startswith(("f'", 'f"')) else ""
    if (
        not inside
        or ".." in inside.split("/")
        or not all(
            dotted_name(v.value) or isinstance(v, ast.Constant)
            for v in tail.values
            if isinstance(v, ast.FormattedValue)
        )
    ):
        return False, None
    return True, inside
