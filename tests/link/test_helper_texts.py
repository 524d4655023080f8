"""The texts a raising helper's callers give it, as the helper's raise makes them."""

from __future__ import annotations

import textwrap

from errdex.extract import extract_file
from errdex.facts import SiteKind
from errdex.link import link_version
from errdex.linked_facts import IndexedSite


def link(files: dict[str, str]) -> list[IndexedSite]:
    facts = [extract_file(path, textwrap.dedent(text).encode()) for path, text in files.items()]
    return link_version("demo", facts)


def calls(sites: list[IndexedSite]) -> list[tuple[int, str]]:
    """(line, message) of each helper call, in order."""
    return sorted(
        (s.site.line, s.site.message.text)
        for s in sites
        if s.site.kind is SiteKind.HELPER and s.site.message is not None
    )


def given(sites: list[IndexedSite], line: int) -> set[str]:
    """The texts the helper's raise at `line` (each of its variants) shows for its callers."""
    raises = [s for s in sites if s.site.line == line and s.site.kind is SiteKind.RAISE]
    return {form.text.text for site in raises for form in site.shown if form.caller is not None}


def test_the_exception_gets_the_helpers_arguments_not_the_calls() -> None:
    # The class builds its text from its own parameters: the message is the helper's
    # third parameter, but the exception's first argument.
    sites = link(
        {
            "po/parser.py": """
                class PoFileError(Exception):
                    def __init__(self, message, catalog, line, lineno):
                        super().__init__(f"{message} on {lineno}")

                class Parser:
                    def _invalid(self, line, lineno, msg):
                        raise PoFileError(msg, self.catalog, line, lineno)

                    def keyword(self, line, lineno):
                        if not line:
                            self._invalid(line, lineno, "Unknown or misformatted keyword")
                """
        }
    )
    assert calls(sites) == [(12, "Unknown or misformatted keyword on {lineno}")]
    assert given(sites, 8) == {"Unknown or misformatted keyword on {lineno}"}


def test_a_helper_formatting_its_text_with_the_callers_arguments() -> None:
    # h11's `validate(regex, data, msg, *format_args)`: the text is formatted only when the
    # call gives it arguments; a call that gives none raises its text as it is.
    sites = link(
        {
            "proto/util.py": """
                class ProtocolError(Exception):
                    pass

                def validate(regex, data, msg="malformed data", *format_args):
                    match = regex.fullmatch(data)
                    if not match:
                        if format_args:
                            msg = msg.format(*format_args)
                        raise ProtocolError(msg)
                    return match

                def headers(name, value):
                    validate(NAME_RE, name, "Illegal header name {!r}", name)
                    validate(LENGTH_RE, value, "bad Content-Length")
                """
        }
    )
    assert calls(sites) == [(14, "Illegal header name {name!r}"), (15, "bad Content-Length")]
    assert given(sites, 10) >= {"Illegal header name {name!r}", "bad Content-Length"}


def test_a_helper_formatting_its_text_with_named_fields() -> None:
    # lark's `_grammar_error(is_term, msg, *names)`: `msg.format(**args)`, the fields of a
    # dict it builds.
    sites = link(
        {
            "grammar/load.py": """
                class GrammarError(Exception):
                    pass

                class Builder:
                    def _error(self, is_term, msg, *names):
                        args = {}
                        for i, name in enumerate(names, start=1):
                            args["name"] = name
                        raise GrammarError(msg.format(**args))

                    def extend(self, name, is_term):
                        if name not in self.rules:
                            self._error(is_term, "Can't extend {name} as it wasn't defined", name)
                """
        }
    )
    assert calls(sites) == [(14, "Can't extend {args['name']} as it wasn't defined")]


def test_a_caught_exceptions_text_raised_again_shows_the_texts_of_its_raises() -> None:
    # starlette's `except MultiPartException as exc: raise HTTPException(400, exc.message)`:
    # the user sees the caught exception's text inside the new one's `__str__`.
    sites = link(
        {
            "web/exceptions.py": """
                class HTTPException(Exception):
                    def __init__(self, status_code, detail=None):
                        self.status_code = status_code
                        self.detail = detail

                    def __str__(self):
                        return f"{self.status_code}: {self.detail}"
                """,
            "web/forms.py": """
                class MultiPartException(Exception):
                    def __init__(self, message):
                        self.message = message

                def parse(fields, limit):
                    if len(fields) > limit:
                        raise MultiPartException(f"Too many fields. Maximum is {limit}.")
                """,
            "web/requests.py": """
                from .exceptions import HTTPException
                from .forms import MultiPartException, parse

                def form(fields):
                    try:
                        return parse(fields, 10)
                    except MultiPartException as exc:
                        raise HTTPException(status_code=400, detail=exc.message)
                    except ValueError as exc:
                        raise HTTPException(status_code=422, detail=str(exc))
                """,
        }
    )
    [outer] = [s for s in sites if s.file == "web/requests.py" and s.site.line == 9]
    assert {form.text.text for form in outer.shown} == {
        "400: {exc.message}",
        "Too many fields. Maximum is {limit}.",
        "400: Too many fields. Maximum is {limit}.",
    }
    # A builtin class caught: the interpreter raises it too, the version's raises say little.
    [builtin] = [s for s in sites if s.file == "web/requests.py" and s.site.line == 11]
    assert {form.text.text for form in builtin.shown} == {"422: {exc}"}


def test_a_caught_exception_shows_the_texts_of_the_raises_its_try_reaches() -> None:
    # starlette's `_get_form`: one `try` makes a `MultiPartParser`, another a `FormParser`,
    # each `except MultiPartException` raising its text again. A text only `FormParser`'s
    # callbacks raise is not what the multipart branch shows.
    sites = link(
        {
            "web/forms.py": """
                class MultiPartException(Exception):
                    pass

                class FormParser:
                    def on_field(self, size, limit):
                        if size > limit:
                            raise MultiPartException(f"Field exceeded maximum size of {limit}KB.")

                class MultiPartParser:
                    def on_part(self, size, limit):
                        if size > limit:
                            raise MultiPartException(f"Part exceeded maximum size of {limit}KB.")
                """,
            "web/requests.py": """
                from .forms import FormParser, MultiPartException, MultiPartParser

                def form(kind, body):
                    if kind == "multipart":
                        try:
                            return MultiPartParser(body).parse()
                        except MultiPartException as exc:
                            raise ValueError(f"Bad form: {exc}")
                    try:
                        return FormParser(body).parse()
                    except MultiPartException as exc:
                        raise ValueError(f"Bad form: {exc}")
                """,
        }
    )

    def texts(line: int) -> set[str]:
        [site] = [s for s in sites if s.file == "web/requests.py" and s.site.line == line]
        return {form.text.text for form in site.shown}

    assert texts(9) == {"Bad form: Part exceeded maximum size of {limit}KB."}
    assert texts(13) == {"Bad form: Field exceeded maximum size of {limit}KB."}


def test_a_message_a_called_function_returns() -> None:
    # pyjwt's `key_length_msg = alg_obj.check_key_length(key)`, then raised or warned: the
    # text is what each algorithm's method of that name returns.
    sites = link(
        {
            "jwt/algorithms.py": """
                class HMACAlgorithm:
                    def check_key_length(self, key):
                        if len(key) < 32:
                            return f"The HMAC key is {len(key)} bytes long, below 32 bytes."
                        return None

                class NoneAlgorithm:
                    def check_key_length(self, key):
                        return "none"
                """,
            "jwt/api.py": """
                import warnings

                class InvalidKeyError(Exception):
                    pass

                def sign(alg_obj, key, strict):
                    key_length_msg = alg_obj.check_key_length(key)
                    if strict:
                        raise InvalidKeyError(key_length_msg)
                """,
        }
    )
    [site] = [s for s in sites if s.file == "jwt/api.py"]
    # (`return "none"` is a value, not a message)
    assert {form.text.text: form.how for form in site.shown} == {
        "The HMAC key is {len(key)} bytes long, below 32 bytes.": (
            "HMACAlgorithm.check_key_length()"
        )
    }


def test_a_raise_of_joined_messages_shows_each_message_alone() -> None:
    # lark's LALR analysis: each collision's message built, appended, then all of them
    # joined; one collision, the usual case, reads as its own message.
    sites = link(
        {
            "grammar/lalr.py": """
                class GrammarError(Exception):
                    pass

                def check(reduce_reduce):
                    msgs = []
                    for la, rules in reduce_reduce:
                        msg = "Reduce/Reduce collision in %s between rules: %s" % (la, rules)
                        msgs.append(msg)
                    if msgs:
                        raise GrammarError("\\n\\n".join(msgs))
                """
        }
    )
    [site] = [s for s in sites if s.site.line == 11]
    assert {form.text.text for form in site.shown} == {
        "Reduce/Reduce collision in {la} between rules: {rules}"
    }


def test_a_parameter_the_helper_binds_again_keeps_its_name() -> None:
    # The helper makes a set of a single name before the raise: the call's "embeddings"
    # is not what the message prints (`{'embeddings'}`) nor what `tuple(...)` reads.
    sites = link(
        {
            "bench/requests.py": """
                def _validate_url(url, api_name, suffixes):
                    if isinstance(suffixes, str):
                        suffixes = {suffixes}
                    if not url.endswith(tuple(suffixes)):
                        raise ValueError(f"{api_name} URL must end with one of: {suffixes}.")

                def embed(request):
                    _validate_url(request.url, "Embeddings API", "embeddings")
                """
        }
    )
    helper = next(s.site for s in sites if s.site.kind is SiteKind.HELPER)
    assert helper.message is not None
    assert helper.message.text == "Embeddings API URL must end with one of: {suffixes}."
    assert [c.text for c in helper.conditions] == ["not request.url.endswith(tuple(suffixes))"]


def test_a_parameter_kept_unless_empty_still_takes_the_calls_argument() -> None:
    # `category = category or default` keeps what the call gave: the warning's category;
    # so do `dtype = fallback if dtype is None else dtype` and `if enabled is None:
    # enabled = ...`: the value the call names. An assignment after the raise is no matter.
    sites = link(
        {
            "util.py": """
                import warnings

                def warn_once(message, category=None):
                    for tag in TAGS:
                        category = category or tag.category
                    warnings.warn(message, category)

                def connect(keys):
                    if not keys:
                        warn_once("No driver name specified", DriverWarning)

                def normalize(dtype, fallback, name):
                    dtype = fallback if dtype is None else dtype
                    if dtype not in SUPPORTED:
                        raise TypeError(f"{name} must be bf16 or fp8, got {dtype}")

                def resolve(q, qk_dtype):
                    return normalize(qk_dtype, q.dtype, "qk_dtype")

                def global_scale(scale, name):
                    if scale is None:
                        raise ValueError(f"MoE requires {name}")
                    scale = normalize(scale)
                    return scale

                def prepare(self):
                    return global_scale(self.alphas, "global scales")

                def fuse(weights, prefix, enabled=None):
                    if enabled is None:
                        enabled = default_enabled()
                    if enabled and len(weights) % 2:
                        raise ValueError(f"{prefix} weights come in pairs")

                def load(self, weights):
                    fuse(weights, "mlp.shared", enabled=self.fused)
                """
        }
    )
    call = next(s.site for s in sites if s.site.kind is SiteKind.WARN and s.site.line == 11)
    assert call.exception == "DriverWarning"
    assert calls(sites)[0] == (19, "qk_dtype must be bf16 or fp8, got {qk_dtype}")
    fused = next(s.site for s in sites if s.site.kind is SiteKind.HELPER and s.site.line == 37)
    assert [c.text for c in fused.conditions] == ["self.fused and len(weights) % 2"]
    # assigned again only after the raise: the call's argument is what the raise reads
    scaled = next(s.site for s in sites if s.site.kind is SiteKind.HELPER and s.site.line == 28)
    assert [c.text for c in scaled.conditions] == ["self.alphas is None"]
