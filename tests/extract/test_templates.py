"""Message templates from expressions: each row is an expression and the text it shows."""

from __future__ import annotations

import argparse
import ast
import inspect
import json.decoder
import string
import textwrap
import warnings
from pathlib import Path

import pytest

from errdex.extract.source_text import source_of
from errdex.extract.templates import TemplateBuilder
from errdex.facts import MessageTemplate, Placeholder

CONSTANTS = {
    "MSG": "bad value {x}",
    "PCT": "bad value %s",
    "PREFIX": "errdex: ",
    "LIMIT": 10,
    "cfg.NAME": "cfg",
}
LOCALS = {
    "msg": MessageTemplate.of("Model ", Placeholder("name"), " failed"),
    "brace": MessageTemplate.of("{literal}"),
}


def build(expr: str) -> MessageTemplate | None:
    node = ast.parse(expr, mode="eval").body
    return TemplateBuilder(expr, constants=CONSTANTS, locals=LOCALS).build(node)


def text(expr: str) -> str:
    template = build(expr)
    assert template is not None
    return template.text


LITERALS = [
    ('"plain message"', "plain message"),
    ("'single quotes'", "single quotes"),
    ('"implicit " "concatenation" \' joined\'', "implicit concatenation joined"),
    ('"""triple\nquoted"""', "triple\nquoted"),
    ('b"bytes are text"', "bytes are text"),
    ("42", "42"),
]

FSTRINGS = [
    ('f"Model {model_id!r} not found"', "Model {model_id!r} not found"),
    ('f"line {node.lineno}"', "line {node.lineno}"),
    ('f"{x!s} {x!a}"', "{x!s} {x!a}"),
    ('f"{ratio:.2f}"', "{ratio:.2f}"),
    ('f"{x!r:>10}"', "{x!r:>10}"),
    ('f"{x:{width}}"', "{x:{width}}"),
    ('f"{x:>{width}.{prec}f}"', "{x:>{width}.{prec}f}"),
    ('f"{x=}"', "x={x!r}"),
    ('f"{x = :.1f}"', "x = {x:.1f}"),
    ("f\"unsupported: {', '.join(items)}\"", "unsupported: {', '.join(items)}"),
    ("f\"{d['k']} and {d[0]}\"", "{d['k']} and {d[0]}"),
    ('f"{a if c else b}"', "{a if c else b}"),
    ('f"{a, b}"', "{a, b}"),  # a tuple that Python 3.11 misplaces
    ('f"{{braces}} {x}"', "{{braces}} {x}"),  # literal braces stay doubled in the text
    ('f"{3:03d} {LIMIT} {LIMIT:>4}"', "003 10   10"),
    ('f"got {MSG!r}"', "got 'bad value {{x}}'"),
    ('f"{brace!r}"', "'{{literal}}'"),
    ('f"{msg}!"', "Model {name} failed!"),
    ('f"""multi\n{x}\nline"""', "multi\n{x}\nline"),
    ('"a " f"{x}" " b"', "a {x} b"),
]

PERCENT = [
    ('"code %s bad" % code', "code {code} bad"),
    ('"a %s b %s" % (x, y)', "a {x} b {y}"),
    ('"%(k)s and %(j)r" % {"k": v, "j": w}', "{v} and {w!r}"),
    ('"%d %i %u" % (a, b, c)', "{a:d} {b:d} {c:d}"),
    ('"%r" % (x,)', "{x!r}"),
    ('"%.2f" % x', "{x:.2f}"),
    ('"%5s|%-10s|%5r" % (a, b, c)', "{a:>5}|{b:<10}|{c!r:>5}"),
    ('"%05d %+d %#x %.3s %c" % (a, b, c, d, e)', "{a:05d} {b:+d} {c:#x} {d:.3} {e:c}"),
    ('"100%% done: %s" % x', "100% done: {x}"),
    ('"%*d" % (width, n)', "{n:{width}d}"),
    ('"%.*f" % (3, x)', "{x:.3f}"),
    ('"%s %s" % args', "{args[0]} {args[1]}"),
    ('"%s %s" % self.pair', "{self.pair[0]} {self.pair[1]}"),
    ('"%s %s" % (a or b)', "{(a or b)[0]} {(a or b)[1]}"),
    ('"%s" % (a or b)', "{a or b}"),
    ('"%s %s" % (first, *rest)', "{first} {rest[0]}"),
    ('"%s and %s" % (only,)', "{only} and {%s}"),
    ('"%s" % (a, b)', "{a}"),
    ('"%d items" % 3', "3 items"),
    ('"%(name)s" % locals()', "{name}"),
    ('"%(name)s" % self.__dict__', "{self.name}"),
    ('"%(name)s" % opts', "{opts['name']}"),
    ('"%(name)s" % dict(name=n)', "{n}"),
    ('"trailing %" % x', "trailing %"),
    ('PREFIX + "%s" % x', "errdex: {x}"),
    ("PCT % x", "bad value {x}"),
    ("PCT % brace", "bad value {{literal}}"),
]

FORMAT = [
    ('"{} {}".format(a, b)', "{a} {b}"),
    ('"{0} {1} {0}".format(a, b)', "{a} {b} {a}"),
    ('"{name}".format(name=x)', "{x}"),
    ('"{0.attr}".format(obj)', "{obj.attr}"),
    ('"{0[key]} {0[1]}".format(d)', "{d['key']} {d[1]}"),
    ('"{x!r:>5}".format(x=v)', "{v!r:>5}"),
    ('"{{literal}} {}".format(a)', "{{literal}} {a}"),
    ('"{a} {b}".format(**kwargs)', "{kwargs['a']} {kwargs['b']}"),
    ('"{} {}".format(*args)', "{args[0]} {args[1]}"),
    ('"{} {:{}}".format(a, b, w)', "{a} {b:{w}}"),
    ('"{missing}".format(x=1)', "{missing}"),
    ('"{}".format(1.5)', "1.5"),
    ("MSG.format(x=value)", "bad value {value}"),
    ("MSG.format(x=1)", "bad value 1"),
    ('str.format("{} x", a)', "{a} x"),
    ('"{a}".format_map(m)', "{m['a']}"),
    ('"unbalanced {".format(x)', '{"unbalanced {".format(x)}'),
    ('"%s stays".format(x)', "%s stays"),
    ('f"{{{x}}}".format(y)', '{f"{{{x}}}".format(y)}'),  # a field named by a placeholder
]

CONCAT_AND_CALLS = [
    ('"a" + str(x) + repr(y) + "!"', "a{x}{y!r}!"),
    ('"count: " + str(n + 1)', "count: {n + 1}"),
    ("a + b", "{a + b}"),
    ('prefix + ": " + name', "{prefix}: {name}"),
    ('"-" * 3 + x', "---{x}"),
    ('", ".join(items)', '{", ".join(items)}'),
    ("a if c else b", "{a if c else b}"),
    ("value", "{value}"),
    ("self.message", "{self.message}"),
    ("errors[0]", "{errors[0]}"),
    ("describe(x)", "{describe(x)}"),
    ("msg", "Model {name} failed"),
    ("msg + '.'", "Model {name} failed."),
    ("PREFIX + LIMIT", "errdex: 10"),
    ("cfg.NAME", "cfg"),
    ('format(x, ".2f")', "{x:.2f}"),
    ("ascii(x)", "{x!a}"),
    ('_("translated %s") % x', "translated {x}"),
    ('gettext("hello")', "hello"),
    # A translation object's method: wtforms' `self.gettext("Not a valid choice.")`.
    ('self.gettext("Not a valid choice.")', "Not a valid choice."),
    ('obj._("not gettext")', '{obj._("not gettext")}'),
    # A value or a fallback text: the fallback is what is seen by default.
    ('self.message or _("Not a valid choice.")', "Not a valid choice."),
    ("self.message or other", "{self.message or other}"),
    ('message or ""', '{message or ""}'),
    ('"  padded  ".strip()', "padded"),
    ('f"  {x} padded  ".strip()', "{x} padded"),
    ('(f"{x}\\n" ).rstrip()', "{x}"),
    ('f"{x} shout".upper()', '{f"{x} shout".upper()}'),
    ('"a\\nb".replace("\\n", " ")', "a b"),
    ('textwrap.dedent("""\n    hello\n      world\n""")', "\nhello\n  world\n"),
    ('dedent("""\n    a %s\n    """) % x', "\na {x}\n"),
    ('inspect.cleandoc("""\n    Title\n\n    body\n    """)', "Title\n\nbody"),
]


@pytest.mark.parametrize(
    ("expr", "expected"), LITERALS + FSTRINGS + PERCENT + FORMAT + CONCAT_AND_CALLS
)
def test_template_text(expr: str, expected: str) -> None:
    assert text(expr) == expected


def test_none_is_no_message() -> None:
    assert build("None") is None


def test_parts_keep_placeholders_apart_from_literals() -> None:
    assert build('"code %s bad" % code') == MessageTemplate.of("code ", Placeholder("code"), " bad")
    assert build('f"{x!r:>10} and {y:.2f}"') == MessageTemplate.of(
        Placeholder("x", "r", ">10"), " and ", Placeholder("y", spec=".2f")
    )
    assert build('f"{x=}"') == MessageTemplate.of("x=", Placeholder("x", "r"))
    assert build('"{0}: {1!r}".format(a, b)') == MessageTemplate.of(
        Placeholder("a"), ": ", Placeholder("b", "r")
    )


def test_one_form_whatever_the_formatting_style() -> None:
    forms = [
        'f"Model {name} failed"',
        '"Model %s failed" % name',
        '"Model %s failed" % (name,)',
        '"Model {} failed".format(name)',
        '"Model {n} failed".format(n=name)',
        '"Model " + name + " failed"',
        '"Model " + str(name) + " failed"',
        "msg",
    ]
    assert {build(form) for form in forms} == {LOCALS["msg"]}


def test_logging_lazy_percent() -> None:
    def percent(call: str) -> str:
        node = ast.parse(call, mode="eval").body
        assert isinstance(node, ast.Call)
        fmt, *args = node.args
        return TemplateBuilder(call).percent(fmt, args).text

    assert percent('log("x %s y %d", a, b)') == "x {a} y {b:d}"
    assert percent('log("%(user)s logged in", {"user": u})') == "{u} logged in"
    assert percent('log("%s and %s", *pair)') == "{pair[0]} and {pair[1]}"
    assert percent('log("%s, %s", a)') == "{a}, {%s}"
    # Without arguments logging does not format: `%%` and `%s` reach the user as written.
    assert percent('log("100%% sure %s")') == "100%% sure %s"


def test_multi_line_placeholders_are_joined_but_keep_their_strings() -> None:
    source = textwrap.dedent(
        """\
        "failed: %s" % (
            ", ".join(
                name   # a comment
                for name in   names
            ),
        )
        """
    )
    assert text(source) == 'failed: {", ".join(name for name in   names)}'
    source = 'f"{x}" + describe(\n    """keep\n   this""",\n    y,\n)'
    assert text(source) == '{x}{describe("""keep\n   this""", y)}'


def test_one_element_tuples_keep_their_comma() -> None:
    source = "show(\n    (\n        x,\n    )\n)"
    assert text(source) == "{show((x,))}"


def test_checking_a_placeholder_does_not_warn_again() -> None:
    # f-string fields are re-parsed to check their position; the file's own warnings (an
    # invalid escape, legal inside f-string fields since 3.12) were reported already.
    source = "re.sub('\\d', '', x)"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call = ast.parse(source, mode="eval").body
        assert len(caught) == 1
        field = ast.FormattedValue(call, conversion=ord("r"))
        assert TemplateBuilder(source).build(field) == MessageTemplate.of(Placeholder(source, "r"))
        assert len(caught) == 1


def test_source_of() -> None:
    source = "if (a and\n        b):  # why\n    pass\n"
    node = ast.parse(source).body[0]
    assert isinstance(node, ast.If)
    assert source_of(source, node.test) == "a and b"
    unicode = 'raise E(f"é {naïve.attr} ü")'
    call = ast.parse(unicode).body[0]
    assert isinstance(call, ast.Raise) and isinstance(call.exc, ast.Call)
    assert TemplateBuilder(unicode).build(call.exc.args[0]) == MessageTemplate.of(
        "é ", Placeholder("naïve.attr"), " ü"
    )


def test_line_offset_reads_an_excerpt_of_the_file() -> None:
    file = "import os\n\n\ndef f():\n    raise ValueError('bad %s' % (os.sep,\n  x))\n"
    raise_ = ast.parse(file).body[1].body[0]  # type: ignore[attr-defined]
    excerpt = "".join(file.splitlines(keepends=True)[4:])
    builder = TemplateBuilder(excerpt, line_offset=4)
    assert builder.build(raise_.exc.args[0]).text == "bad {os.sep}"
    assert builder.build(raise_.exc).text == "{ValueError('bad %s' % (os.sep, x))}"


def test_placeholder_text_of_string_template_is_kept_whole() -> None:
    # string.Template is not interpreted: the whole call is one placeholder.
    assert text('Template("bad $x").substitute(x=v)') == '{Template("bad $x").substitute(x=v)}'


def test_deep_expressions_do_not_crash() -> None:
    # Longer chains than the parser itself accepts, built by hand.
    chain: ast.expr = ast.Constant("a")
    for _ in range(5000):
        chain = ast.BinOp(chain, ast.Add(), ast.Constant("a"))
    built = TemplateBuilder("").build(chain)
    assert built is not None and built.text == "a" * 5001
    nested = "(" * 150 + "x" + ")" * 150
    assert text(f'"v: %s" % {nested}') == "v: {x}"


@pytest.mark.parametrize("module", [argparse, json.decoder, string, textwrap, inspect])
def test_every_expression_of_real_modules_builds(module: object) -> None:
    path = inspect.getsourcefile(module)  # type: ignore[arg-type]
    assert path is not None
    source = Path(path).read_text(encoding="utf-8")
    builder = TemplateBuilder(source, constants=CONSTANTS, locals=LOCALS)
    count = 0
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.expr):
            template = builder.build(node)
            assert template is not None or (isinstance(node, ast.Constant) and node.value is None)
            count += 1
        if isinstance(node, ast.Call) and node.args:
            builder.percent(node.args[0], node.args[1:])
    assert count > 500
