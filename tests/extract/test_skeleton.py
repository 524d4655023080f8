"""Blanking site-free function bodies must never change what extraction finds."""

from __future__ import annotations

import argparse
import ast
import inspect
import json
import logging.handlers
import subprocess
import tarfile
import textwrap
import zipfile
from pathlib import Path
from types import ModuleType

import pytest

from errdex import extract
from errdex.extract import extract_again, extract_file
from errdex.extract.skeleton import MIN_SKELETON_BYTES, Skeleton, build_skeleton
from samples import QUIET_FUNCTIONS


def _text(skeleton: Skeleton | None) -> str | None:
    return skeleton.text if skeleton is not None else None


# Real, large modules of the standard library: read as text, never run by this test.
MODULES = [argparse, subprocess, tarfile, zipfile, logging.handlers, json.decoder]


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_same_facts_with_and_without_the_skeleton(
    module: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = inspect.getsourcefile(module)
    assert path is not None
    data = Path(path).read_bytes()
    fast = extract_file("lib/" + Path(path).name, data)
    monkeypatch.setattr(extract, "build_skeleton", lambda *_, **__: None)
    full = extract_file("lib/" + Path(path).name, data)
    assert fast.sites == full.sites
    assert fast.classes == full.classes
    assert fast.helpers == full.helpers
    assert fast.constants == full.constants


def test_skeleton_keeps_line_numbers_and_parses() -> None:
    text = Path(inspect.getsourcefile(argparse) or "").read_text()
    reduced = _text(build_skeleton(text))
    assert reduced is not None
    assert reduced.count("\n") == text.count("\n")
    assert len(reduced) < len(text)
    ast.parse(reduced)


def test_a_blanked_function_keeps_its_name_return_class_and_lines_but_not_its_parameters() -> None:
    filler = "\n".join(f"def quiet_{i}(x: int) -> int:\n    return x + {i}\n" for i in range(600))
    source = filler + textwrap.dedent(
        """
        @functools.cache
        async def fetch(
            url: str,  # where from
            timeout: float = 3.0,
        ) -> tuple[
            bytes, int
        ]:  # what it returns says what a method is called on
            return b"", 0

        class Config:
            def __init__(self, path: str, strict: bool = False) -> None:
                self.path = path
        """
    )
    reduced = _text(build_skeleton(source))
    assert reduced is not None
    assert reduced.count("\n") == source.count("\n")
    blanked = "@functools.cache\nasync def fetch() -> tuple[ bytes, int ]:" + "\n" * 6 + "    ...\n"
    assert blanked in reduced
    # A constructor's parameters are facts of its class: its signature stays.
    assert "def __init__(self, path: str, strict: bool = False) -> None:\n        ...\n" in reduced
    fetch = next(n for n in ast.walk(ast.parse(reduced)) if isinstance(n, ast.AsyncFunctionDef))
    assert (fetch.lineno, fetch.body[0].lineno) == (1802, 1808)


def test_a_return_annotation_is_never_read_from_a_comment() -> None:
    # A one-line stub, then a comment ending in `:` that the header scan takes for its end:
    # `-> Group: ... # note: ...` on the blanked line would parse, and hide the scan's mistake.
    source = QUIET_FUNCTIONS + textwrap.dedent(
        """
        @t.overload
        def group(name: Callable) -> Group: ...


        # variant: with a positional name:
        @t.overload
        def group(name: str) -> Callable: ...
        """
    )
    reduced = _text(build_skeleton(source))
    assert reduced is not None
    assert "def group():" in reduced
    assert "-> Group" not in reduced


def test_small_files_are_parsed_whole() -> None:
    assert build_skeleton("def f():\n    return 1\n") is None
    assert MIN_SKELETON_BYTES > 1000


def test_a_docstring_at_column_zero_falls_back_to_the_whole_text() -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(2000))
    source = textwrap.dedent(
        '''
        def quiet():
            """Docstring whose second line sits at column zero:
        like this one."""
        {body}
            return 1

        def loud(x):
            if x:
                raise ValueError("loud")
        '''
    ).replace("{body}", body)
    facts = extract_file("pkg/odd.py", source.encode())
    assert facts.error is None
    assert [s.message.text for s in facts.sites if s.message] == ["loud"]


def test_a_one_line_stub_with_a_long_signature_keeps_the_next_function() -> None:
    # B10 of the second hand check: `) -> int: ...` ends the stub on its own line.
    stubs = "\n".join(f"x{i} = {i}" for i in range(3000))
    source = stubs + textwrap.dedent(
        """
            class Spec:
                def size(
                    self, dim: int
                ) -> int: ...

                def check(self, n):
                    if n is None:
                        return
                    raise ValueError("bad n")
            """
    )
    facts = extract_file("pkg/spec.py", source.encode())
    (site,) = facts.sites
    assert [c.statement for c in site.conditions] == ["n is not None"]


def test_a_call_of_a_raising_helper_of_the_same_file_keeps_its_function() -> None:
    # B9 of the second hand check: `check_url(url, "...")` holds no site word, but the call
    # of a raising helper is a site of its own once linked, so its body must be parsed.
    filler = QUIET_FUNCTIONS
    source = filler + textwrap.dedent(
        """
        def check_url(url, what):
            if not url.startswith("http"):
                raise ValueError(f"{what} must be an http URL, got {url}")

        def send(url):
            check_url(url, "the endpoint")
            return url
        """
    )
    assert len(source) > MIN_SKELETON_BYTES
    reduced = _text(build_skeleton(source))
    assert reduced is not None and "def quiet_1():\n    ...\n" in reduced  # others still blanked
    facts = extract_file("pkg/client.py", source.encode())
    assert [(c.callee, c.function) for c in facts.calls] == [("check_url", "send")]


def test_a_def_in_a_docstring_example_is_left_as_it_is() -> None:
    filler = QUIET_FUNCTIONS
    source = filler + textwrap.dedent(
        '''
        class Callback:
            """Subclass it.

        ```python
        def on_log(args, state, logs=None):
            print(logs)
        ```
            """
        '''
    )
    facts = extract_file("pkg/callbacks.py", source.encode())
    assert facts.classes[0].docstring is not None
    assert "def on_log(args, state, logs=None):\n    print(logs)" in facts.classes[0].docstring


# A module big enough for a skeleton whose functions hold no site word: `validate` is a
# raising helper of another file, which this file alone cannot know.
_QUIET = QUIET_FUNCTIONS
CALLER = _QUIET + textwrap.dedent(
    """
    def load(path):
        validate(path, "the config path")
        return path

    def reload(path):
        validate(path)
        return path

    def measure(path):
        size = validate(len(path), "a (short) path")
        return size

    class Loader:
        def open(self, name):
            self.ctx.validate(
                name,
                f"the file {name}",
            )
            return name
    """
)


def test_a_call_of_a_helper_named_to_keep_keeps_its_function() -> None:
    assert len(CALLER) > MIN_SKELETON_BYTES
    plain = _text(build_skeleton(CALLER))
    kept = _text(build_skeleton(CALLER, keep_calls={"validate"}))
    assert plain is not None and kept is not None
    assert "the config path" not in plain
    assert "the config path" in kept and "the file {name}" in kept
    assert "def quiet_1():\n    ...\n" in kept  # the others are still blanked
    assert "validate(path)\n" not in kept  # no literal argument: no site, no need to parse it
    facts = extract_file("pkg/loader.py", CALLER.encode(), keep_calls={"validate"})
    assert [(c.callee, c.function) for c in facts.calls] == [
        ("validate", "load"),
        ("validate", "measure"),
        ("validate", "Loader.open"),
    ]
    assert not extract_file("pkg/loader.py", CALLER.encode()).calls


def test_a_call_of_a_helper_named_to_keep_with_a_constant_message_keeps_its_function() -> None:
    source = _QUIET + textwrap.dedent(
        """
        from pkg import messages
        from pkg.messages import NOT_FOUND

        def find(path):
            validate(path, NOT_FOUND)
            return path

        def find_gone(path):
            validate(path, message=messages.GONE)
            return path

        def find_any(path, size):
            validate(path, size)
            return path
        """
    )
    kept = _text(build_skeleton(source, keep_calls={"validate"}))
    assert kept is not None
    assert "validate(path, NOT_FOUND)" in kept and "messages.GONE" in kept
    assert "validate(path, size)" not in kept  # no text, no constant: no site to find there
    facts = extract_file("pkg/finder.py", source.encode(), keep_calls={"validate"})
    assert [(c.function, [a.source for a in c.args]) for c in facts.calls] == [
        ("find", ["path", "NOT_FOUND"]),
        ("find_gone", ["path", "messages.GONE"]),
    ]


def test_extracting_again_adds_calls_and_keeps_every_first_fact() -> None:
    first = extract_file("pkg/loader.py", CALLER.encode())
    again = extract_again("pkg/loader.py", CALLER.encode(), {"validate"})
    assert again is not None
    assert again.calls and not first.calls
    for field in first.__struct_fields__:
        before, after = getattr(first, field), getattr(again, field)
        if isinstance(before, tuple):
            assert all(fact in after for fact in before), field
        elif isinstance(before, dict):
            assert all(after.get(key) == value for key, value in before.items()), field
        else:
            assert before == after, field


def test_extracting_again_is_none_when_no_blanked_body_calls_the_names() -> None:
    data = CALLER.encode()
    assert extract_again("pkg/loader.py", data, {"not_called"}) is None
    # Called, but only where a site word keeps the body anyway.
    kept_anyway = CALLER + "\ndef strict(p):\n    check(p, 'x')\n    raise ValueError(p)\n"
    assert extract_again("pkg/loader.py", kept_anyway.encode(), {"check"}) is None
    # Parsed whole: nothing was blanked.
    small = "def load(path):\n    validate(path, 'the config path')\n"
    assert extract_again("pkg/small.py", small.encode(), {"validate"}) is None
    assert extract_again("pkg/bad.py", b"\x00binary", {"validate"}) is None


def test_a_skeleton_that_does_not_parse_with_the_names_kept_falls_back_to_the_whole_text() -> None:
    # A docstring line at column 0 fools the block scan: the whole text is parsed instead.
    odd = textwrap.dedent(
        '''
        def odd(path):
            """Docstring whose second line sits at column zero:
        like this one."""
            validate(path, "an odd path")
        '''
    )
    source = CALLER + odd
    reduced = _text(build_skeleton(source, keep_calls={"validate"}))
    assert reduced is not None
    with pytest.raises(SyntaxError):
        ast.parse(reduced)
    facts = extract_again("pkg/odd.py", source.encode(), {"validate"})
    assert facts is not None and facts.error is None
    assert [c.function for c in facts.calls] == ["load", "measure", "Loader.open", "odd"]


# A kept body's tail: the statements after the one that holds its last site word.
TAILS = _QUIET + textwrap.dedent(
    '''
    from pkg.io import check, open_file, parse

    def load(path, strict=False):
        """Read a config file."""
        if path is None:
            return None
        try:
            handle = open_file(path)
        except OSError:
            raise ConfigError(f"cannot read {path}")
        else:
            handle.seek(0)
        if strict:
            check(handle)
        data = parse(handle)
        return data

    def reasons(config):
        found = []
        if config.a:
            found.append("a is set")
        return found

    class Tokenizer:
        @property
        # a comment between the decorator and the def
        def mask(self):
            if self._mask is None:
                logger.error("no mask set")
            return str(self._mask)

    class Field:
        def make_error(self, key, **kwargs):
            try:
                msg = self.error_messages[key]
            except KeyError as error:
                raise AssertionError(f"no error key {key}") from error
            if isinstance(msg, str):
                msg = msg.format(**kwargs)
            return ValidationError(msg)

    def test_load():
        assert load("x")
        with pytest.raises(ConfigError):
            load("y")
        cleanup()
    '''
)


def test_a_kept_body_loses_its_tail_and_nothing_a_site_needs() -> None:
    reduced = build_skeleton(TAILS)
    assert reduced is not None
    assert reduced.text.count("\n") == TAILS.count("\n")
    ast.parse(reduced.text)
    # The tail is the simple statements after the last compound statement; a compound
    # statement after the last site stays, so that the branches around its calls are read.
    assert "handle.seek(0)" in reduced.text and "check(handle)" in reduced.text
    assert "parse(handle)" not in reduced.text and "return data" not in reduced.text
    # Kept whole: a reasons builder (its return is read), a property (so is its return),
    # and a test's tail that holds what it expects to be raised.
    assert "return found" in reduced.text
    assert "return str(self._mask)" in reduced.text
    assert "return ValidationError(msg)" in reduced.text  # the exception `make_error` makes
    assert "with pytest.raises(ConfigError)" in reduced.text
    assert "cleanup()" not in reduced.text
    fast = extract_file("pkg/config.py", TAILS.encode())
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(extract, "build_skeleton", lambda *_, **__: None)
        whole = extract_file("pkg/config.py", TAILS.encode())
    for field in ("sites", "classes", "helpers", "keyed", "properties", "tests"):
        assert getattr(fast, field) == getattr(whole, field), field
    # A list of reasons is kept whole; `return parse(handle)` in a tail is not read as one,
    # as it is not in a blanked body.
    assert fast.reason_builders == {"reasons": whole.reason_builders["reasons"]}
    assert set(whole.reason_builders) == {"reasons", "load"}


def test_calls_in_a_blanked_tail_have_the_guard_that_holds_after_the_parsed_body() -> None:
    calls = {(c.callee, c.function): c for c in extract_file("pkg/c.py", TAILS.encode()).call_sites}
    # Parsed: its guard is read (the early exit before it).
    assert calls["open_file", "load"].guard_known
    assert [c.statement for c in calls["open_file", "load"].conditions] == ["path is not None"]
    assert [c.statement for c in calls["check", "load"].conditions] == [
        "path is not None",
        "strict",
    ]
    # In the tail, read from the text: what held after the parsed statements holds.
    tail_call = calls["parse", "load"]
    assert tail_call.guard_known
    assert tail_call.line == TAILS.splitlines().index("    data = parse(handle)") + 1
    assert [c.statement for c in tail_call.conditions] == ["path is not None"]


def test_a_call_of_a_helper_named_to_keep_keeps_a_tail() -> None:
    source = _QUIET + textwrap.dedent(
        """
        def save(path):
            if not path:
                raise ValueError("no path")
            write(path)
            validate(path, "the saved path")
            return path
        """
    )
    plain = build_skeleton(source)
    kept = build_skeleton(source, keep_calls={"validate"})
    assert plain is not None and kept is not None
    assert "the saved path" not in plain.text and "the saved path" in kept.text
    assert kept.kept_for_calls == 1
    again = extract_again("pkg/save.py", source.encode(), {"validate"})
    assert again is not None
    assert [(c.callee, c.function) for c in again.calls] == [("validate", "save")]


def test_a_constructor_that_keeps_a_message_is_parsed() -> None:
    # A validator keeps its message in `__init__` (no site word there) for `__call__` to
    # raise: the linker reads what `__init__` stores, so its body must be parsed.
    source = QUIET_FUNCTIONS + textwrap.dedent(
        """
        class InputRequired:
            field_flags = {"required": True}

            def __init__(self, message=None):
                self.message = message or "Please fill in this field."

            def __call__(self, form, field):
                if not field.raw_data:
                    raise StopValidation(self.message)
        """
    )
    assert len(source) > MIN_SKELETON_BYTES
    reduced = _text(build_skeleton(source))
    assert reduced is not None and '"Please fill in this field."' in reduced
    [text] = extract_file("forms/validators.py", source.encode()).texts
    assert text.sets == {"message": 'message or "Please fill in this field."'}


def test_a_function_returning_a_message_is_parsed() -> None:
    # `return f"The key is {n} bytes long ..."` holds no site word, but a raise elsewhere
    # may take its message from the call (`msg = check_key_length(key); raise X(msg)`).
    source = QUIET_FUNCTIONS + textwrap.dedent(
        """
        def check_key_length(key):
            if len(key) < 32:
                return (
                    f"The key is {len(key)} bytes long, "
                    "below the minimum of 32 bytes."
                )
            return None
        """
    )
    assert len(source) > MIN_SKELETON_BYTES
    facts = extract_file("jwt/keys.py", source.encode())
    assert {k: [t.text for t in v] for k, v in facts.returned_texts.items()} == {
        "check_key_length": ["The key is {len(key)} bytes long, below the minimum of 32 bytes."]
    }


# Page breaks as some code has them: a form feed alone on a line inside a body and between
# definitions, and one right before a `def` at column 0.
_PAGED = (
    "\n".join(
        f"def quiet_{i}(x: int) -> int:\n    y = x\n\f\n    return y + {i}\n" for i in range(400)
    )
    + "\n\f\ndef loud(x):\n    if x:\n        raise ValueError('loud one')\n\f\n    return x\n"
    + "\fdef after(x):\n    raise KeyError('after one')\n"
)


def test_a_page_break_in_a_body_is_a_blank_line_and_one_before_a_def_no_indent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A form feed is whitespace that starts the indentation count again, as Python reads
    it (`textscan.shallow_line`): the page break inside each quiet body no longer ends it
    there (all of it is blanked), and `\\fdef after` ends `loud`."""
    reduced = build_skeleton(_PAGED)
    assert reduced is not None and len(reduced.blanked) == 400
    assert "return y" not in reduced.text and "after one" in reduced.text
    ast.parse(reduced.text)
    fast = extract_file("paged.py", _PAGED.encode())
    monkeypatch.setattr(extract, "build_skeleton", lambda *_, **__: None)
    full = extract_file("paged.py", _PAGED.encode())
    assert [(s.function, s.line) for s in fast.sites] == [("loud", 2004), ("after", 2008)]
    assert fast.sites == full.sites


FLOW_TAIL = _QUIET + textwrap.dedent(
    """
    import torch
    from pkg.registry import register

    def publish(parts):
        return list(parts)

    def finish(parts):
        return tuple(parts)

    def merge(parts, strict):
        if not parts:
            raise ValueError("no parts")
        for part in parts:
            torch.cat(part)
        if strict:
            torch.stack(parts)
        publish(parts)
        for part in parts:
            register(part)
        if strict:
            return None
        finish(parts)
    """
)


def test_a_tail_runs_from_the_last_site_but_for_a_compound_statement_a_page_reads():
    reduced = build_skeleton(FLOW_TAIL, package="pkg")
    assert reduced is not None
    ast.parse(reduced.text)
    # the loop that calls `register` (imported from the file's own package, it may hold a
    # site, and its callers' guards are read) is parsed; what comes before it from the last
    # site on is the tail's only when nothing a page reads follows: here it is kept
    assert "register(part)" in reduced.text and "torch.cat(part)" in reduced.text
    assert "finish(parts)" not in reduced.text and "return None" not in reduced.text
    # a module of another package called there keeps nothing
    outside = build_skeleton(FLOW_TAIL.replace("register(part)", "torch.save(part)"), package="pkg")
    assert outside is not None
    assert "torch.cat(part)" not in outside.text and "publish(parts)" not in outside.text
    calls = {
        c.callee: c
        for c in extract_file(
            "pkg/merge.py", FLOW_TAIL.replace("register(part)", "torch.save(part)").encode()
        ).call_sites
    }
    # at the tail's own level, after compound statements that cannot return: the guard
    # that holds after the parsed statements; after one that may return: unknown
    assert calls["publish"].guard_known
    assert [c.statement for c in calls["publish"].conditions] == ["parts"]
    assert not calls["finish"].guard_known
