"""The request bodies a server of the file takes: a route's body class, and the fields of
the file's `*Request` classes with where each method carries a field into another object.

A client sends `{"watermarking": false}` to `POST /v1/chat/completions`; the route's
function takes it as `request: ChatCompletionRequest`, whose method builds the object a
check reads (`SamplingParams.from_optional(watermarking=self.watermarking)`). Read from the
text: a file with no route decorator and no `class ...Request` costs two searches.
"""

from __future__ import annotations

import ast
import re

from errdex.extract.class_source import class_at
from errdex.extract.conditions import dotted_name
from errdex.extract.shapes import annotated_classes
from errdex.extract.textscan import name_start
from errdex.facts import RequestCarry, RequestField, RouteBody
from errdex.lazy_re import lazy_compile

# `@router.post("/v1/chat/completions", ...)`, `@app.api_route(...)`: a route decorator.
_ROUTE = lazy_compile(r"@[\w.]+\.(post|put|patch|api_route|route)\(\s*[\"']([^\"']*)[\"']")
_DEF = lazy_compile(r"^[ \t]*+(?:async[ \t]+)?def[ \t]+\w+[ \t]*\(", re.MULTILINE)
_REQUEST_CLASS = lazy_compile(r"\nclass[ \t]+(\w*Request)\b[^\n]*:")
_MAX_SIGNATURE = 2_000  # characters of a route function's signature read
_MAX_TEXT = 200  # characters of an annotation or a default kept
# `: ChatCompletionRequest` of a parameter annotated with a `*Request` class (the name
# before it read back from there: a pattern starting with a word is slow on a whole file).
_REQUEST_ANNOTATION = lazy_compile(r":[ \t]*[\"']?(?:\w+\.)*\w+Request\b")
_NAME_BEFORE = lazy_compile(r"(\w+)[ \t]*$")
# `watermarking=request.watermarking` as a call's keyword (an assignment has spaces), read
# forward from `=request.`.
_KEYWORD_NAME = lazy_compile(r"(\w+)$")
_FIELD_AFTER = lazy_compile(r"(\w+)(?=[ \t]*(?:[,)]|\n))")
# the character before such a `name=` when it is no keyword: an attribute or another
# assignment (`params.seed=request.seed`, `a=b=request.seed`), an operator's end
_NO_KEYWORD = (".", "=", "!", "<", ">")
_MAX_FUNCTION = 40_000  # characters back from a keyword to its function's `def`
_MAX_CALL = 3_000  # characters back from a keyword to its call's `(`


def route_bodies(text: str) -> list[RouteBody]:
    """Each parameter annotated with a class in the signature of a routed function."""
    found: list[RouteBody] = []
    for match in _ROUTE.finditer(text):
        header = _DEF.search(text, match.end())
        if header is None:
            continue
        line = text.count("\n", 0, header.start()) + 1
        signature = _signature(text[header.start() : header.start() + _MAX_SIGNATURE])
        if signature is None:
            continue
        for arg in (*signature.args.args, *signature.args.kwonlyargs):
            for name in annotated_classes(arg.annotation):
                if name.rpartition(".")[2] == "Request":
                    continue  # the framework's own request (`raw_request: Request`), no body
                found.append(
                    RouteBody(
                        cls=name,
                        parameter=arg.arg,
                        path=match.group(2),
                        method=match.group(1),
                        function=signature.name,
                        line=line,
                    )
                )
    return found


def request_fields(text: str) -> list[RequestField]:
    """The annotated fields of the file's top-level `*Request` classes, each with the calls
    of the class's own methods that pass it on as a keyword (`watermarking=self.watermarking`)."""
    found: list[RequestField] = []
    if "Request" not in text:
        return found
    for match in _REQUEST_CLASS.finditer(text):
        node = class_at(text, match.start() + 1)
        if node is None or not node.bases:
            continue
        fields = {
            item.target.id: item
            for item in node.body
            if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)
        }
        carried = _carried(node, set(fields))
        for name, item in fields.items():
            if _class_var(item.annotation):
                continue
            default, alias = _default_and_alias(item.value)
            found.append(
                RequestField(
                    model=node.name,
                    name=name,
                    line=item.lineno,
                    annotation=ast.unparse(item.annotation)[:_MAX_TEXT],
                    default=default,
                    alias=alias,
                    into=tuple(carried.get(name, ())),
                )
            )
    return found


def request_carries(text: str) -> list[RequestCarry]:
    """The calls outside a request class that pass a field of a parameter annotated with a
    `*Request` class as it is (`SamplingParams(seed=request.seed)`), read from the text:
    the function holding the keyword must be the one whose signature annotates the name."""
    if "Request" not in text:
        return []
    names = set()
    for match in _REQUEST_ANNOTATION.finditer(text):
        before = _NAME_BEFORE.search(text, max(0, match.start() - 80), match.start())
        if before is not None and before.group(1) != "self":
            names.add(before.group(1))
    found: list[RequestCarry] = []
    for name in sorted(names):
        needle = f"={name}."
        at = text.find(needle)
        while at >= 0:
            carry = _carry(text, at, name)
            if carry is not None and carry not in found:
                found.append(carry)
            at = text.find(needle, at + len(needle))
    return found


def _carry(text: str, at: int, name: str) -> RequestCarry | None:
    """The carry whose `=name.` is at `at`, when it is a call's keyword given the field."""
    keyword = _KEYWORD_NAME.search(text, max(0, at - 80), at)
    field = _FIELD_AFTER.match(text, at + len(name) + 2)
    if (
        keyword is None
        or field is None
        or text[keyword.start() - 1 : keyword.start()] in _NO_KEYWORD
    ):
        return None
    annotated = _annotation_in_def(text, keyword.start(), name)
    callee = callee_at(text, keyword.start())
    if annotated is None or callee is None:
        return None
    return RequestCarry(
        cls=annotated,
        parameter=name,
        field=field.group(1),
        callee=callee,
        keyword=keyword.group(1),
        line=text.count("\n", 0, at) + 1,
    )


def _annotation_in_def(text: str, at: int, name: str) -> str | None:
    """The `*Request` class the `def` enclosing `at` annotates its parameter `name` with."""
    line_start = text.rfind("\n", 0, at) + 1
    indent = len(text[line_start:at]) - len(text[line_start:at].lstrip())
    lowest = max(0, at - _MAX_FUNCTION)
    position = line_start
    while True:
        header = text.rfind("def ", lowest, position)
        if header < 0:
            return None
        position = header
        start = text.rfind("\n", 0, header) + 1
        prefix = text[start:header]
        if prefix.strip() not in ("", "async") or len(prefix) - len(prefix.lstrip()) >= indent:
            continue  # no header, or a nested function that ended before the keyword
        signature = text[header : header + _MAX_SIGNATURE]
        closing = re.search(r"\)\s*(?:->[^:\n]*)?:", signature)
        signature = signature[: closing.start()] if closing is not None else signature
        found = re.search(
            rf"\b{re.escape(name)}[ \t]*:[ \t]*[\"']?((?:\w+\.)*\w+Request)\b", signature
        )
        return found.group(1) if found is not None else None


def callee_at(text: str, at: int) -> str | None:
    """The dotted name called by the call whose arguments hold `at`."""
    depth = 0
    start = max(0, at - _MAX_CALL)
    for index in range(at - 1, start - 1, -1):
        char = text[index]
        if char in ")]}":
            depth += 1
        elif char in "([{":
            if depth == 0:
                if char != "(":
                    return None  # a dict or a list, no call
                return _name_before(text, index)
            depth -= 1
    return None


def _name_before(text: str, end: int) -> str | None:
    """The dotted name that ends right before `end` (blanks between allowed)."""
    while end > 0 and text[end - 1] in " \t":
        end -= 1
    name = text[name_start(text, end, dotted=True) : end].strip(".")
    return name if name and not name[0].isdigit() else None


def _signature(text: str) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """The `def` at the start of `text` with an empty body, or None when it does not parse."""
    end = re.search(r"\)\s*(?:->[^:\n]*)?:[ \t]*(?:#[^\n]*)?\n", text)
    if end is None:
        return None
    try:
        tree = ast.parse(text[: end.end()].strip() + "\n    ...\n")
    except (SyntaxError, ValueError, RecursionError):
        return None
    node = tree.body[0] if tree.body else None
    return node if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) else None


def _class_var(annotation: ast.expr) -> bool:
    name = dotted_name(annotation.value if isinstance(annotation, ast.Subscript) else annotation)
    return (name or "").rpartition(".")[2] in ("ClassVar", "InitVar")


def _default_and_alias(value: ast.expr | None) -> tuple[str | None, str | None]:
    """The default's source (None: required) and the alias a client sends the field as."""
    if value is None:
        return None, None
    if isinstance(value, ast.Call) and (dotted_name(value.func) or "").rpartition(".")[2] in (
        "Field",
        "field",
    ):
        keywords = {k.arg: k.value for k in value.keywords if k.arg}
        alias = keywords.get("alias") or keywords.get("validation_alias")
        alias_text = (
            alias.value
            if isinstance(alias, ast.Constant) and isinstance(alias.value, str)
            else None
        )
        given = value.args[0] if value.args else keywords.get("default")
        if given is None and "default_factory" in keywords:
            factory = keywords["default_factory"]
            default = f"{ast.unparse(factory)}()"[:_MAX_TEXT]
        elif given is None or (isinstance(given, ast.Constant) and given.value is Ellipsis):
            default = None
        else:
            default = ast.unparse(given)[:_MAX_TEXT]
        return default, alias_text
    return ast.unparse(value)[:_MAX_TEXT], None


def _carried(node: ast.ClassDef, fields: set[str]) -> dict[str, list[tuple[str, str]]]:
    """field → (the callee as written, the keyword) of each call in the class's methods
    that passes `self.field` as it is."""
    carried: dict[str, list[tuple[str, str]]] = {}
    for item in node.body:
        if not isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for call in ast.walk(item):
            if not isinstance(call, ast.Call):
                continue
            callee = dotted_name(call.func)
            if callee is None:
                continue
            for keyword in call.keywords:
                value = keyword.value
                if (
                    keyword.arg
                    and isinstance(value, ast.Attribute)
                    and isinstance(value.value, ast.Name)
                    and value.value.id == "self"
                    and value.attr in fields
                ):
                    pair = (callee, keyword.arg)
                    if pair not in carried.setdefault(value.attr, []):
                        carried[value.attr].append(pair)
    return carried
