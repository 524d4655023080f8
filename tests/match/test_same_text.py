"""Sites of the same text in the order a user most likely hit them, with the reason; the
sites are urllib3 2.2.2's and requests 2.32.3's that share a message."""

from __future__ import annotations

from errdex.match.same_text import SiteRef, likeliest_first, preference_reason


def ref(file: str, line: int, function: str, callers: int = 0, conditions: int = 0) -> SiteRef:
    return SiteRef(id=f"{line:016x}", version="1", file=file, line=line, function=function,
                   callers=callers, conditions=conditions)  # fmt: skip


def test_a_public_method_before_a_private_helper_when_nothing_else_tells() -> None:
    # `Calling read(decode_content=False) is not supported after ...`
    helper = ref("urllib3/response.py", 473, "BaseHTTPResponse._decode")
    public = ref("urllib3/response.py", 964, "HTTPResponse.read")
    assert likeliest_first([helper, public]) == [public, helper]
    assert preference_reason(public, [helper]) == (
        "raised at 2 sites with this text; HTTPResponse.read is shown first: "
        "a public entry point, where the others include internal helpers"
    )


def test_fewer_conditions_before_a_public_name() -> None:
    # typer's `Abort` raised bare by its vendored click (a private module) and, behind a
    # condition, by its own `docs` command: a private module is no internal step when the
    # package keeps its code there and re-exports it.
    vendored = ref("typer/_click/core.py", 456, "Context.abort")
    command = ref("typer/cli.py", 300, "docs", conditions=1)
    assert likeliest_first([command, vendored]) == [vendored, command]
    assert preference_reason(vendored, [command]).endswith(
        "it raises behind fewer conditions (the common path, not a special case)"
    )


def test_a_shallower_module_before_a_deeper_one() -> None:
    # `Content-Length contained multiple unmatching values ({content_length})`
    deep = ref(
        "urllib3/contrib/emscripten/response.py", 115, "EmscriptenHttpResponseWrapper._init_length"
    )
    shallow = ref("urllib3/response.py", 708, "HTTPResponse._init_length")
    assert likeliest_first([deep, shallow]) == [shallow, deep]
    assert preference_reason(shallow, [deep]).endswith("the one in the shallowest module")


def test_callers_indexed_elsewhere_do_not_order_them() -> None:
    # `cannot encode objects that are not 2-tuples`: to_key_val_list has three callers in
    # the whole release, none in a first answer's few files; either way file order.
    lone = ref("requests/utils.py", 340, "from_key_val_list")
    called = ref("requests/utils.py", 366, "to_key_val_list", callers=3)
    uncalled = ref("requests/utils.py", 366, "to_key_val_list")
    assert likeliest_first([called, lone]) == [lone, called]
    assert likeliest_first([uncalled, lone]) == [lone, uncalled]


def test_a_private_module_counts_as_private() -> None:
    inner = ref("pkg/_internal/parse.py", 10, "parse")
    outer = ref("pkg/parse.py", 20, "parse")
    assert likeliest_first([inner, outer]) == [outer, inner]


def test_nothing_to_tell_them_apart_keeps_file_order() -> None:
    first = ref("urllib3/connectionpool.py", 273, "HTTPConnectionPool._get_conn")
    second = ref("urllib3/connectionpool.py", 279, "HTTPConnectionPool._get_conn")
    assert likeliest_first([second, first]) == [first, second]
    assert "nothing tells them apart" in preference_reason(first, [second])


def test_the_common_path_before_a_special_case() -> None:
    # requests 2.31.0's two `raise RequestsJSONDecodeError(...)` in Response.json: the first
    # only when the encoding is guessed (three conditions), the second on every other path
    # (GauravSingh9356/J.A.R.V.I.S#51 hit the second).
    guessed = ref("requests/models.py", 968, "Response.json", conditions=3)
    common = ref("requests/models.py", 975, "Response.json", conditions=1)
    assert likeliest_first([guessed, common]) == [common, guessed]
    assert preference_reason(common, [guessed]).endswith(
        "it raises behind fewer conditions (the common path, not a special case)"
    )


def test_a_raise_of_its_own_before_a_helper_call() -> None:
    # `bad Content-Length`: written at a call of a validating helper and at a raise.
    call = SiteRef(id="1" * 16, version="1", file="h11/_headers.py", line=177,
                   function="normalize_and_validate", kind="helper")  # fmt: skip
    raised = ref("h11/_headers.py", 179, "normalize_and_validate")
    assert likeliest_first([call, raised]) == [raised, call]
    assert preference_reason(raised, [call]).endswith(
        "it raises the error itself, where others call a helper that raises it"
    )


def test_fewer_conditions_count_before_more_callers() -> None:
    # The site behind fewer conditions, reached by more inputs, comes first.
    guarded = ref("pkg/parse.py", 10, "parse", callers=3, conditions=3)
    plain = ref("pkg/parse.py", 40, "load", conditions=1)
    assert likeliest_first([guarded, plain]) == [plain, guarded]
