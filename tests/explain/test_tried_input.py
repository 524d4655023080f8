"""A site under `except`: the page says what the `try` did that failed and with which input
the user gave, and offers that input changed so the call succeeds (the fields a dict takes
when it is unpacked into a class); a log followed by a `raise` in the same clause, a
cleanup call between, is not said to let the program go on."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_with_message

from errdex.store import Store

LAB = {
    "lab/__init__.py": "from lab.entry.engine import Engine\n",
    "lab/config/__init__.py": "",
    "lab/config/transfer.py": """
        from dataclasses import dataclass
        from typing import ClassVar


        @dataclass
        class TransferConfig:
            registry: ClassVar[dict] = {}
            endpoint: str | None = None
            port: int = 14579
            _secret: str = ""

            def __post_init__(self):
                if self.port <= 0:
                    raise ValueError(f"port must be positive, got {self.port}")
        """,
    "lab/entry/__init__.py": "",
    "lab/entry/engine.py": """
        import logging

        logger = logging.getLogger(__name__)


        class Engine:
            def __init__(self, model, **kwargs):
                if "transfer" in kwargs and isinstance(kwargs["transfer"], dict):
                    from lab.config.transfer import TransferConfig

                    raw = kwargs["transfer"]
                    try:
                        kwargs["transfer"] = TransferConfig(**raw)
                    except TypeError as e:
                        logger.error("Failed to convert the transfer dict %s: %s", raw, e)
                        kwargs.pop("transfer", None)
                        raise ValueError(f"Invalid transfer config: {e}") from e
                self.kwargs = kwargs

            def connect(self, url):
                try:
                    self.session.get(url)
                except OSError as e:
                    raise ConnectionError(f"could not reach the engine: {e}") from e

            def port_of(self, text):
                try:
                    return int(text)
                except ValueError:
                    logger.warning("Ignoring the port %s that is no number", text)
                    return None
        """,
    "lab/files.py": """
        import json
        import logging
        import os

        from lab.parsing import parse_file

        logger = logging.getLogger(__name__)


        _SIZES = {"small": 1, "large": 2}


        def _size_of(name):
            return _SIZES[name]


        def size(name, state):
            parts = []
            try:
                parts.append(_size_of(name))
            except KeyError:
                raise ValueError(f"unknown size {name!r}") from None
            try:
                parts.append(_size_of(state.name))
            except OSError:
                raise RuntimeError("the state could not be sized") from None
            return parts


        def partitions():
            raw = os.environ.get("LAB_PARTITION")
            if raw is not None:
                try:
                    return [int(part) for part in raw.split(",")]
                except ValueError as err:
                    raise ValueError(f"Invalid partition string: {raw}") from err
            return None


        def read_json(text):
            if text is not None:
                try:
                    return json.loads(text)
                except ValueError as e:
                    raise ValueError(f"the text is no JSON: {e}") from e
            return None


        def read_settings(stream):
            try:
                return json.load(stream)
            except ValueError as e:
                raise ValueError(f"the settings are no JSON: {e}") from e


        def configure(config, port):
            try:
                settings = json.loads(config)
                number = int(port)
            except ValueError as e:
                raise ValueError(f"the configuration is wrong: {e}") from e
            return settings, number


        def to_json(value):
            return json.dumps(value)


        def dumped(content):
            try:
                return to_json(content)
            except TypeError as e:
                raise ValueError(f"the content does not dump: {e}") from e


        def looked_up(name):
            from lab.state import registry

            try:
                return registry.lookup(name)
            except KeyError:
                raise ValueError(f"no entry {name!r}") from None


        def load(path, options):
            try:
                logger.info("loading %s", path)
                level = options.get("level", 1)
                return parse_file(path, level)
            except OSError as e:
                raise RuntimeError(f"could not load the file {path}") from e
        """,
    "lab/state.py": """
        class Registry:
            def __init__(self):
                self.items = {}

            def lookup(self, name):
                return self.items[name]


        registry = Registry()
        """,
    "lab/loading.py": """
        import json


        def load_bytes(b, *, content_type=None, encoding="utf8"):
            if content_type and not content_type.endswith("json"):
                raise TypeError(f"Unknown content-type: {content_type}")
            return json.loads(b.decode(encoding) if isinstance(b, bytes) else b)
        """,
    "lab/models.py": """
        from ast import literal_eval


        class Model:
            @classmethod
            def parse_raw(cls, b, *, content_type=None, encoding="utf8"):
                from lab import loading

                try:
                    obj = loading.load_bytes(b, content_type=content_type, encoding=encoding)
                except (ValueError, TypeError) as exc:
                    raise ValueError(f"the model's data does not load: {exc}") from exc
                return cls(obj)

            @classmethod
            def decoded(cls, b, encoding="utf8"):
                from lab import loading

                try:
                    obj = loading.load_bytes(b, encoding=encoding)
                except ValueError as exc:
                    raise ValueError(f"the model's bytes do not decode: {exc}") from exc
                return cls(obj)

            @classmethod
            def merged(cls, b, extra):
                from lab import loading

                try:
                    obj = loading.merge_bytes(b, extra)
                except (ValueError, TypeError) as exc:
                    raise ValueError(f"the data do not merge: {exc}") from exc
                return cls(obj)

            @classmethod
            def parse_configured(cls, b):
                from lab import loading

                try:
                    obj = loading.load_bytes(b, encoding=cls.__config__.encoding)
                except ValueError as exc:
                    raise ValueError(f"the configured bytes do not load: {exc}") from exc
                return cls(obj)

            @classmethod
            def parse_checked(cls, b):
                from lab import loading

                try:
                    cls.check(b)
                    obj = loading.load_bytes(b, encoding=cls.__config__.encoding)
                except ValueError as exc:
                    raise ValueError(f"the checked bytes do not load: {exc}") from exc
                return cls(obj)

            @classmethod
            def parse_wrapped(cls, b):
                from lab import loading

                try:
                    obj = loading.load_bytes(b, encoding=cls.__config__.encoding)
                except ValueError as exc:
                    raise ValueError([Wrapped(exc, loc="root")]) from exc
                return cls(obj)


        def handler_arguments(parameters):
            try:
                return literal_eval(parameters)
            except SyntaxError as error:
                raise ValueError(f"error parsing {parameters!r}: {error.msg}") from None
        """,
    "lab/style.py": """
        class ColorError(Exception):
            pass


        class Color:
            @classmethod
            def parse(cls, text):
                if not text.isalpha():
                    raise ColorError(f"{text!r} is no color")
                return cls()


        class Style:
            @classmethod
            def parse(cls, definition):
                words = iter(definition.split())
                for original in words:
                    word = original.lower()
                    if word == "on":
                        word = next(words, "")
                    try:
                        Color.parse(word)
                    except ColorError as error:
                        raise SyntaxError(f"unable to parse {word!r} as color; {error}") from None

            @classmethod
            def tone(cls, palette):
                for name in palette.names():
                    try:
                        Color.parse(name)
                    except ColorError:
                        raise SyntaxError(f"no tone {name!r}") from None
        """,
    "lab/entry/worker.py": """
        class Worker:
            def load(self, key):
                try:
                    return int(key)
                except ValueError as e:
                    raise RuntimeError(f"the worker got a bad key {key}") from e
        """,
}


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("tried"), "lab", LAB)


def test_the_raise_says_which_input_failed_and_the_way_out_names_the_fields(lab: Store) -> None:
    page = page_with_message(lab, "lab", "Invalid transfer config")
    assert "failed on the value given to `Engine` as `transfer`" in page.what_it_means
    assert "`raw` is `kwargs['transfer']`" in page.what_it_means
    first = page.solutions[0].text
    assert first.startswith(
        "Give `Engine` another `transfer`: the value given makes `TransferConfig(**raw)` fail, "
        "and this error is raised in its place (“Invalid transfer config: ERROR”)."
    ), first
    assert "`endpoint`, `port`" in first
    assert "registry" not in first and "_secret" not in first  # no class variable, no private
    assert "quotes the `TypeError`" in first  # `{e}` is in the message


def test_the_log_before_the_raise_does_not_say_the_program_goes_on(lab: Store) -> None:
    page = page_with_message(lab, "lab", "Failed to convert the transfer dict")
    assert "the program goes on" not in page.what_it_means
    assert "the statement after it raises (line" in page.what_it_means
    assert page.solutions[0].text.startswith("Give `Engine` another `transfer`")


def test_a_log_whose_clause_returns_still_lets_the_program_go_on(lab: Store) -> None:
    page = page_with_message(lab, "lab", "Ignoring the port")
    assert "the program goes on after it" in page.what_it_means
    assert "the statement after it raises" not in page.what_it_means


def test_a_call_on_the_object_s_own_state_is_no_failed_input(lab: Store) -> None:
    # `self.session.get(url)` may fail on the session (the network), not on the URL alone
    page = page_with_message(lab, "lab", "could not reach the engine")
    assert "failed on the value given" not in page.what_it_means
    assert not any(s.text.startswith("Give `Engine` another") for s in page.solutions)


def test_the_package_s_own_machinery_is_no_entry_point(lab: Store) -> None:
    # `lab.entry.worker.Worker` is not exported by the package: what it is given, the
    # package computed
    page = page_with_message(lab, "lab", "the worker got a bad key")
    assert "failed on the value given" not in page.what_it_means


def test_the_call_named_as_failed_is_not_a_log_or_a_lookup_with_a_default(lab: Store) -> None:
    page = page_with_message(lab, "lab", "could not load the file")
    assert "It runs when `parse_file(path, level)` (the `try` at line" in page.what_it_means
    assert "logger.info" not in page.what_it_means
    assert "options.get" not in page.what_it_means


def test_not_giving_the_value_the_try_converts_is_no_way_out(lab: Store) -> None:
    # `text is None` skips the conversion: it gives up what the call was for
    page = page_with_message(lab, "lab", "the text is no JSON")
    texts = [s.text for s in page.solutions]
    assert texts[0].startswith("Give `read_json` another `text`"), texts
    assert not any("None" in t for t in texts), texts


def test_a_module_function_under_a_value_error_fails_on_the_value(lab: Store) -> None:
    page = page_with_message(lab, "lab", "unknown size")
    assert page.solutions[0].text.startswith(
        "Give `size` another `name`: the value given makes `_size_of(name)` fail"
    ), page.solutions


def test_a_module_function_under_another_error_is_not_read_as_the_value(lab: Store) -> None:
    page = page_with_message(lab, "lab", "the state could not be sized")
    assert "failed on the value given" not in page.what_it_means


def test_a_setting_the_try_converts_is_the_way_out_with_a_value_it_takes(lab: Store) -> None:
    page = page_with_message(lab, "lab", "Invalid partition string")
    assert "failed on the value of the environment variable `LAB_PARTITION`" in (page.what_it_means)
    assert page.solutions[0].text.startswith(
        "Set `LAB_PARTITION` to a value that `int(part)` or `raw.split(',')` accepts"
    ), page.solutions


def test_a_piece_of_a_text_given_is_the_value_given(lab: Store) -> None:
    # `word` is cut from `definition` (split, lower, next): the text the user gave failed
    page = page_with_message(lab, "lab", "unable to parse")
    assert "failed on the value given to `Style.parse` as `definition`" in page.what_it_means
    assert "(`word` is a piece of `definition`)" in page.what_it_means
    assert page.solutions[0].text.startswith(
        "Give `Style.parse` another `definition`: the value given makes `Color.parse(word)` fail"
    )


def test_what_a_method_of_the_value_returns_is_no_piece_of_it(lab: Store) -> None:
    # `palette.names()`: what the object holds, not a piece of a text given
    page = page_with_message(lab, "lab", "no tone")
    assert "failed on the value given" not in page.what_it_means


def test_of_several_values_the_one_a_parse_reads_as_its_data_failed(lab: Store) -> None:
    # `load_bytes` parses `b`; `content_type` and `encoding` only say how to read it
    page = page_with_message(lab, "lab", "the model's data does not load")
    assert "failed on the value given to `Model.parse_raw` as `b`" in page.what_it_means
    first = page.solutions[0].text
    assert first.startswith("Give `Model.parse_raw` another `b`: the value given makes"), first
    assert "reads it as `content_type` and `encoding` say" in first
    # a call whose name says nothing of parsing: which value failed is unknown
    page = page_with_message(lab, "lab", "the data do not merge")
    assert "failed on the value given" not in page.what_it_means


def test_the_format_a_parse_takes_is_named(lab: Store) -> None:
    page = page_with_message(lab, "lab", "error parsing")
    assert page.solutions[0].text.startswith(
        "Give `handler_arguments` another `parameters` that is a valid Python literal"
    ), page.solutions
    page = page_with_message(lab, "lab", "the text is no JSON")
    assert page.solutions[0].text.startswith("Give `read_json` another `text` that is valid JSON")
    # `json.load` reads a file: the value given is no text of JSON
    page = page_with_message(lab, "lab", "the settings are no JSON")
    first = page.solutions[0].text
    assert first.startswith("Give `read_settings` another `stream` that is a file of valid JSON")


def test_a_value_another_call_reads_beside_the_parse_is_no_option(lab: Store) -> None:
    # `int(port)` may be what failed, and `json.loads` never reads `port`
    page = page_with_message(lab, "lab", "the configuration is wrong")
    assert "failed on the value given" not in page.what_it_means
    assert not any("`port` say" in s.text for s in page.solutions)


def test_a_call_that_writes_json_names_no_format(lab: Store) -> None:
    page = page_with_message(lab, "lab", "the content does not dump")
    first = page.solutions[0].text
    assert first.startswith("Give `dumped` another `content`: the value given makes"), first


def test_an_imported_object_s_method_may_fail_on_its_state(lab: Store) -> None:
    # `registry` is an object, not a module: what it holds decides the lookup
    page = page_with_message(lab, "lab", "no entry")
    assert "failed on the value given" not in page.what_it_means
    assert not any("another `name`" in s.text for s in page.solutions)


def test_one_value_that_says_how_to_read_the_data_is_said_as_one(lab: Store) -> None:
    page = page_with_message(lab, "lab", "the model's bytes do not decode")
    assert "read as `encoding` asks." in page.what_it_means
    assert page.solutions[0].text.endswith("That call reads it as `encoding` says: check it too.")


def test_the_class_s_own_say_in_how_to_parse_is_no_state_the_parse_fails_on(lab: Store) -> None:
    # `cls` is read only in a keyword of the parse call: the data given is what failed
    page = page_with_message(lab, "lab", "the configured bytes do not load")
    assert "failed on the value given to `Model.parse_configured` as `b`" in page.what_it_means
    assert page.solutions[0].text.startswith("Give `Model.parse_configured` another `b`:")
    # `cls.check(b)` may fail on what the class holds: which one failed is unknown
    page = page_with_message(lab, "lab", "the checked bytes do not load")
    assert "failed on the value given" not in page.what_it_means


def test_a_message_with_no_words_of_its_own_is_not_quoted(lab: Store) -> None:
    # the message is the caught error wrapped: quoted, it would read (“VALUE”)
    page = page_with_message(lab, "lab", "{[Wrapped(exc")
    assert page.solutions[0].text.startswith("Give `Model.parse_wrapped` another `b`:")
    assert "“" not in page.solutions[0].text
    # a message with words of its own is quoted after the sentence
    page = page_with_message(lab, "lab", "the configured bytes do not load")
    assert "(“the configured bytes do not load: " in page.solutions[0].text
