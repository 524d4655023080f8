"""The dotted names of a plain expression's text, read from its tokens without a parse.

Linking asks for the names and attribute chains (`envs.VLLM_X`, `self.a.b`) that the texts
of conditions and of locals' values read: thousands of distinct texts per version, each a
call of the compiler when parsed. Most are a few names, calls, comparisons and literals,
whose names `extract.conditions.dotted_names` of the parse gives in the order they are
written. Such a text is read here from its tokens; any other (a subscript, a keyword
argument, a lambda, a comprehension, an f-string, a conditional expression, a starred
item, non-ASCII text), or one whose tokens do not follow one another as an expression's
do, gets None: its caller parses it, as before.
"""

from __future__ import annotations

from errdex.lazy_re import lazy_compile

# One token a step, whitespace before it skipped: a string (a plain or r/b/u prefix, one
# line; a prefix is read with the string), a number as Python writes one (`0x1f`, `1.5e-3`,
# `2j`; one run into a name or a dot, `1.real`, is none), a name, or an operator. Anything
# else (`[`, `=`, `:`, `{`, `@`, a backslash, a newline) ends the scan.
_TOKEN = lazy_compile(
    r"[ \t]*+(?:"
    r"(?P<string>(?:[rRbBuU]|[rR][bB]|[bB][rR])?(?:'(?:[^'\\\n]|\\.)*+'|\"(?:[^\"\\\n]|\\.)*+\"))"
    r"|(?P<number>(?:0[xXoObB][0-9a-fA-F_]++|[1-9][\d_]*+|0++)"
    r"(?:\.(?:\d[\d_]*+)?)?(?:[eE][+-]?\d[\d_]*+)?[jJ]?(?![\w.]))"
    r"|(?P<name>[A-Za-z_]\w*+)"
    r"|(?P<op>\*\*|//|<<|>>|==|!=|<=|>=|[-+*/%&|^~<>(),.])"
    r")"
)
# Words that are no names: operators and constants an expression may hold.
_OPERATOR_WORDS = frozenset({"and", "or", "is", "in"})
_CONSTANTS = frozenset({"None", "True", "False"})
# Any other keyword makes the text one this scan leaves to the parser (`lambda`, `for`,
# `if`, `await`, ...), or no expression at all (`for x in y`, `except E as e`).
_KEYWORDS = frozenset(
    {
        "as",
        "assert",
        "async",
        "await",
        "break",
        "class",
        "continue",
        "def",
        "del",
        "elif",
        "else",
        "except",
        "finally",
        "for",
        "from",
        "global",
        "if",
        "import",
        "lambda",
        "nonlocal",
        "pass",
        "raise",
        "return",
        "try",
        "while",
        "with",
        "yield",
    }
)
_UNARY = frozenset({"-", "+", "~"})
_RESERVED = _KEYWORDS | _OPERATOR_WORDS | _CONSTANTS | {"not"}  # never an attribute


def scanned_names(text: str) -> tuple[str, ...] | None:
    """`dotted_names` of the parsed expression `text` (each once, in order), or None when
    the text is not one this scan reads (see the module's docstring)."""
    scanned = scan(text)
    return None if scanned is None else scanned[0]


def scan(text: str) -> tuple[tuple[str, ...], bool] | None:
    """`scanned_names`, and whether the expression may be a name or an attribute chain
    (`a.b`, `(a.b)`, `f(x).y`: what `ast.unparse` writes of it is then the caller's to
    read from the parse); False when it is surely something else (a call, a literal,
    an operation)."""
    if not text.isascii() or "#" in text:
        return None
    found: list[str] = []
    calls: list[bool] = []  # for each `(` open: whether it holds a call's arguments
    operand = True  # an operand comes next (else an operator, `(` of a call, `.`, `)`)
    opened = False  # the last token was `(` or `,`: `)` may close an empty call or a tuple
    operated = False  # an operator between the outermost operands: an operation, no name
    chain = False  # the last outermost operand may be a name or an attribute chain
    at, end = 0, len(text)
    match = _TOKEN.match
    while True:
        while at < end and text[at] in " \t":
            at += 1
        if at == end:
            break
        token = match(text, at)
        if token is None:
            return None
        at = token.end()
        kind = token.lastgroup
        word = token.group(kind or 0)
        closing = opened
        opened = False
        outermost = not calls
        if kind == "name" and word not in _OPERATOR_WORDS and word != "not":
            if word in _KEYWORDS or not operand:
                return None
            if word not in _CONSTANTS:
                # the chain of attributes on the name: `a.b.c`
                while (dot := match(text, at)) is not None and dot.group("op") == ".":
                    attr = match(text, dot.end())
                    if attr is None or attr.lastgroup != "name" or attr.group("name") in _RESERVED:
                        return None
                    word = f"{word}.{attr.group('name')}"
                    at = attr.end()
                found.append(word)
            operand = False
            if outermost:
                chain = word not in _CONSTANTS
        elif kind in ("string", "number"):
            if not operand:
                return None
            operand = False
            if outermost:
                chain = False
        elif word == "not":
            if not operand:  # `x not in y`
                following = match(text, at)
                if following is None or following.group("name") != "in":
                    return None
                at = following.end()
                operand = True
            operated = operated or outermost
        elif word in _OPERATOR_WORDS:
            if operand:
                return None
            operand = True
            operated = operated or outermost
        elif word == "(":
            calls.append(not operand)
            operand = opened = True  # a group, a tuple or a call's arguments
        elif word == ")":
            if not calls or (operand and not closing):
                return None
            call = calls.pop()
            operand = False
            if not calls:
                # a call's result is no name; a group's content may be one (`(a.b)`)
                chain = not call
        elif word == ",":
            if operand:
                return None
            operand = opened = True
            operated = operated or outermost
        elif word == ".":
            # an attribute of a call's result or a literal (`f(x).y`, `"".join`): no name,
            # but an attribute all the same
            attr = match(text, at)
            if operand or attr is None or attr.lastgroup != "name":
                return None
            if attr.group("name") in _RESERVED:
                return None
            at = attr.end()
            if outermost:
                chain = True
        else:
            if operand and word not in _UNARY:
                return None  # `*x` or `**x`: a starred item, left to the parser
            operand = True  # a binary operator, or a sign
            operated = operated or outermost
    if operand or calls:
        return None
    return tuple(dict.fromkeys(found)), chain and not operated
