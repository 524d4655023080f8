"""Which site a paste of a message is shown at: of sites that raise the very same text, the
one a user most likely hit first, with the reason said; a helper's call matched by its text
shown as the raise inside the helper (where a traceback's innermost frame points), naming
the call that gives it the text. Indexed into a real SQLite file."""

from __future__ import annotations

from errdex.match import lookup_text
from errdex.store.base import Store
from samples import indexed_fixture

PACKAGE = {
    "conf/__init__.py": "",
    "conf/reader.py": """
        def parse(text, strict, nested):
            if strict:
                if nested:
                    if not text.strip():
                        raise ValueError("empty input")
            return text

        def load(text):
            if not text:
                raise ValueError("empty input")
            return parse(text, False, False)

        def load_file(path):
            return parse(open(path).read(), True, False)

        def load_nested(text):
            return parse(text, True, True)

        def validate(value, message):
            if value is None:
                raise TypeError(message)
            return value

        def check_port(port):
            validate(port, "a port is required")
            return port

        def read_port(port):
            if port is None:
                raise TypeError("a port is required")
            return port
        """,
    "cli/__init__.py": "",
    "cli/core.py": """
        import warnings


        class UsageError(Exception):
            pass


        class Context:
            def fail(self, message):
                raise UsageError(message)


        def parse_args(ctx, args):
            if args:
                ctx.fail(f"Got unexpected extra argument(s) ({' '.join(args)})")
            return args


        def _deprecated(name):
            warnings.warn(
                f"`cli.core.{name}` is an implementation detail; it will be removed.",
                DeprecationWarning,
            )


        def get_rules():
            _deprecated("get_rules")
            return []
        """,
    "cli/segments.py": """
        def _segment(data, name):
            if data.endswith("==="):
                raise ValueError(f"Invalid {name} padding")
            if len(data) % 4 == 1:
                raise ValueError(f"Invalid {name} padding")
            return data

        def load(token):
            return _segment(token, "crypto")
        """,
    "conf/rows.py": """
        def _lookup(rows, key):
            if key not in rows:
                raise ValueError("no such row")

        class Table:
            def __getitem__(self, key):
                if key not in self.rows:
                    raise ValueError("no such row")

        def fetch(rows, key, strict):
            if strict:
                if key not in rows:
                    raise ValueError("no such row")

        def get(rows, key):
            if key not in rows:
                raise ValueError("no such row")
        """,
    "conf/loaders.py": """
        class TemplateMissing(Exception):
            pass

        def load_file(name, paths):
            if name not in paths:
                raise TemplateMissing(name)

        class DictLoader:
            def get(self, name):
                if name not in self.mapping:
                    raise TemplateMissing(name)

        def load_prefixed(name, prefix):
            if not name.startswith(prefix):
                raise TemplateMissing(f"{name} is not under {prefix}")
        """,
}


store = indexed_fixture("likeliest-site", "conf", {"1.0": PACKAGE})


def test_the_site_behind_fewer_conditions_before_the_one_called_more(store: Store) -> None:
    matches = lookup_text(store, "ValueError: empty input").matches
    assert [(m.function, m.raised_at) for m in matches[:2]] == [("load", 2), ("parse", 2)]
    assert (
        matches[0]
        .why[-1]
        .endswith(
            "load is shown first: it raises behind fewer conditions (the common path, not a "
            "special case)"
        )
    )


def test_a_raise_of_its_own_before_a_call_of_a_raising_helper(store: Store) -> None:
    matches = lookup_text(store, "TypeError: a port is required").matches
    first = matches[0]
    assert (first.function, first.kind) == ("read_port", "raise")
    # The other is the raise inside `validate`, shown for the call in `check_port`.
    assert [(r.function, r.through_helper) for r in first.others] == [("validate", True)]
    assert first.why[-1].endswith(
        "read_port is shown first: it raises the error itself, where others call a helper "
        "that raises it"
    )


def test_the_message_line_shows_the_raise_and_names_the_call(store: Store) -> None:
    matches = lookup_text(store, "UsageError: Got unexpected extra argument(s) (a b)").matches
    first = matches[0]
    assert (first.file, first.line, first.function, first.kind) == (
        "cli/core.py", 11, "Context.fail", "raise"
    )  # fmt: skip
    assert first.called_at is not None
    assert (first.called_at.function, first.called_at.line) == ("parse_args", 16)
    assert first.shown == "Got unexpected extra argument(s) ({' '.join(args)})"
    assert first.why[-1] == (
        "raised inside the helper Context.fail (cli/core.py:11) with the text the call in "
        "parse_args (cli/core.py:16) gives it"
    )
    # One result for the raise: the call is named in it, not listed again.
    assert [m.function for m in matches].count("parse_args") == 0


def test_a_traceback_through_the_call_says_the_same(store: Store) -> None:
    paste = (
        "Traceback (most recent call last):\n"
        '  File "/app/main.py", line 3, in <module>\n'
        "    parse_args(ctx, ['a'])\n"
        '  File "/venv/lib/python3.12/site-packages/cli/core.py", line 16, in parse_args\n'
        "    ctx.fail(f\"Got unexpected extra argument(s) ({' '.join(args)})\")\n"
        '  File "/venv/lib/python3.12/site-packages/cli/core.py", line 11, in fail\n'
        "    raise UsageError(message)\n"
        "cli.core.UsageError: Got unexpected extra argument(s) (a)\n"
    )
    first = lookup_text(store, paste).matches[0]
    assert (first.function, first.line) == ("Context.fail", 11)
    assert first.called_at is not None and first.called_at.function == "parse_args"


def test_a_warning_helper_shows_its_warn(store: Store) -> None:
    text = (
        "DeprecationWarning: `cli.core.get_rules` is an implementation detail; it will be removed."
    )
    first = lookup_text(store, text).matches[0]
    assert (first.function, first.kind) == ("_deprecated", "warn")
    assert first.called_at is not None and first.called_at.function == "get_rules"


def test_a_helper_raising_the_text_at_two_places_raises_it_at_either(store: Store) -> None:
    matches = lookup_text(store, "ValueError: Invalid crypto padding").matches
    assert [(m.function, m.line, m.raised_at) for m in matches[:2]] == [
        ("_segment", 4, 2),
        ("_segment", 6, 2),
    ]
    assert all(m.called_at is not None and m.called_at.function == "load" for m in matches[:2])


def test_a_frame_in_the_helper_says_which_of_its_raises(store: Store) -> None:
    paste = (
        "Traceback (most recent call last):\n"
        '  File "/venv/lib/python3.12/site-packages/cli/segments.py", line 10, in load\n'
        '    return _segment(token, "crypto")\n'
        '  File "/venv/lib/python3.12/site-packages/cli/segments.py", line 6, in _segment\n'
        '    raise ValueError(f"Invalid {name} padding")\n'
        "ValueError: Invalid crypto padding\n"
    )
    matches = lookup_text(store, paste).matches
    assert (matches[0].line, matches[0].called_at is not None) == (6, True)
    # (the other raise of the text is no longer shown through the call: the frame decides)
    assert all(m.called_at is None for m in matches[1:] if m.line == 4)


def test_of_a_text_raised_at_four_sites_the_first_three_are_the_likeliest(store: Store) -> None:
    matches = lookup_text(store, "ValueError: no such row", limit=3).matches
    # One condition each before `fetch`'s two; of those, public names before `_lookup`.
    assert [m.function for m in matches] == ["Table.__getitem__", "get", "_lookup"]
    assert matches[0].raised_at == 4
    assert [r.function for r in matches[0].others] == ["get", "_lookup", "fetch"]


def test_raises_of_a_class_with_a_computed_message_are_one_result(store: Store) -> None:
    # `raise TemplateMissing(name)` twice: each prints whatever it was given, the pasted
    # name as well as any. The raise with a text of its own is another answer.
    matches = lookup_text(store, "conf.loaders.TemplateMissing: index.html").matches
    first = matches[0]
    assert (first.function, first.raised_at, first.confident) == ("load_file", 2, False)
    assert [r.function for r in first.others] == ["DictLoader.get"]
    assert first.why[-1] == (
        "raised at 2 sites of TemplateMissing, each with a message computed there; "
        "nothing in the paste tells them apart"
    )
    prefixed = next(m for m in matches if m.function == "load_prefixed")
    assert prefixed.raised_at == 1
