"""The first answer's subset: the files a paste needs, found from its frames, its message's
literal runs, its exception classes and what those files import."""

from __future__ import annotations

from errdex.match.evidence import ErrorEvidence, Evidence, Frame
from errdex.match.partial import SourceFiles, literal_runs, needed_files, needed_parts

PACKAGE = {
    "shop/__init__.py": b"from .cart import add\n",
    "shop/cart.py": (
        b"from .errors import CartError\n"
        b"from . import limits\n"
        b"def add(item, count):\n"
        b"    if count > limits.MAX:\n"
        b"        raise CartError(f'at most {limits.MAX} of one item may be in a cart, '\n"
        b"                        f'asked for {count}')\n"
    ),
    "shop/errors.py": b"from shop.base import ShopError\nclass CartError(ShopError):\n    pass\n",
    "shop/base.py": b"class ShopError(Exception):\n    pass\n",
    "shop/limits.py": b"MAX = 99\n",
    "shop/pay.py": b"def pay():\n    raise RuntimeError('card declined by the bank')\n",
    "shop/unrelated.py": b"import json\nVALUE = 1\n",
}


def test_literal_runs_are_the_words_between_values_longest_first() -> None:
    runs = literal_runs(
        "Invalid URL 'htp:/x': No scheme supplied. Perhaps you meant https://htp:/x?"
    )
    assert runs[0] == "No scheme supplied. Perhaps you meant"
    assert "Invalid URL" not in runs  # too short to narrow anything down
    assert literal_runs("at most 99 of one item, asked for 120") == ["of one item, asked for"]


def test_a_traceback_needs_its_frames_files_and_what_they_import() -> None:
    frame = Frame(path="/usr/lib/python3.11/site-packages/shop/cart.py", line=5, function="add",
                  code=None)  # fmt: skip
    evidence = Evidence(
        errors=(ErrorEvidence(exception="CartError", message="x", frames=(frame,)),)
    )
    assert needed_files(PACKAGE, evidence) == {
        "shop/__init__.py",
        "shop/cart.py",
        "shop/errors.py",  # the exception class, imported one level down
        "shop/base.py",  # its base, two levels down
        "shop/limits.py",  # `from . import limits`: a module, not a name
    }


def test_a_bare_message_is_found_by_its_literal_runs() -> None:
    evidence = Evidence(
        errors=(ErrorEvidence(exception=None, message="card declined by the bank"),)
    )
    assert needed_files(PACKAGE, evidence) == {"shop/pay.py"}


def test_a_frame_needs_what_its_own_definition_uses_not_all_its_file_imports() -> None:
    package = {
        **PACKAGE,
        "shop/cart.py": PACKAGE["shop/cart.py"].replace(
            b"from . import limits\n", b"from . import limits\nfrom .pay import pay\n"
        )
        + b"def checkout():\n    pay()\n",
    }
    at_add = Frame(path="site-packages/shop/cart.py", line=6, function="add", code=None)
    at_checkout = Frame(path="site-packages/shop/cart.py", line=9, function="checkout", code=None)

    def needed(*frames: Frame) -> set[str]:
        error = ErrorEvidence(exception="CartError", message="x", frames=frames)
        return needed_files(package, Evidence(errors=(error,)))

    assert "shop/pay.py" not in needed(at_add)  # `add` uses nothing of it
    assert {"shop/errors.py", "shop/base.py", "shop/limits.py"} <= needed(at_add)
    assert "shop/pay.py" in needed(at_add, at_checkout)


def test_a_frame_in_a_method_needs_what_that_method_uses_not_its_class() -> None:
    package = {
        **PACKAGE,
        "shop/till.py": (
            b"from .errors import CartError\n"
            b"from .pay import pay\n"
            b"class Till:\n"
            b"    def open(self):\n"
            b"        raise CartError('the till is stuck')\n"
            b"\n"
            b"    def close(self):\n"
            b"        pay()\n"
        ),
    }
    at_open = Frame(path="site-packages/shop/till.py", line=5, function="Till.open", code=None)
    error = ErrorEvidence(exception="CartError", message="x", frames=(at_open,))
    needed = needed_files(package, Evidence(errors=(error,)))
    assert needed is not None and "shop/errors.py" in needed
    assert "shop/pay.py" not in needed  # only `close` uses it


def test_a_class_named_with_its_package_is_looked_for_though_a_builtin_has_its_name() -> None:
    package = {
        **PACKAGE,
        "shop/net.py": b"class ConnectionError(OSError):\n    pass\n",
        "shop/fetch.py": b"from .net import ConnectionError\ndef get(e):\n"
        b"    raise ConnectionError(e)\n",
    }
    evidence = Evidence(
        errors=(ErrorEvidence(exception="shop.net.ConnectionError",
                              message="Max retries exceeded with url: /"),)
    )  # fmt: skip
    assert {"shop/fetch.py", "shop/net.py"} <= needed_files(package, evidence)


def test_a_value_inside_a_run_of_words_leaves_the_words_either_side_to_find() -> None:
    package = {
        **PACKAGE,
        "shop/files.py": (
            b"def read(path):\n    raise OSError(f'Input path: {path} does not exist')\n"
        ),
        "shop/other.py": b"def get(key):\n    raise KeyError(f'{key} does not exist')\n",
    }
    evidence = Evidence(
        errors=(ErrorEvidence(exception=None, message="Input path: babel does not exist"),)
    )
    assert needed_files(package, evidence) == {"shop/files.py"}  # holds the most of it


def test_nothing_found_means_nothing_needed() -> None:
    evidence = Evidence(
        errors=(ErrorEvidence(exception=None, message="no such text anywhere at all"),)
    )
    assert needed_files(PACKAGE, evidence) == set()


def test_nothing_to_look_for_needs_the_whole() -> None:
    for message in ("by must be 'value' or 'name', got 'bogus'", ""):  # short runs, none
        evidence = Evidence(errors=(ErrorEvidence(exception="ValueError", message=message),))
        assert needed_files(PACKAGE, evidence) is None


def test_only_a_qualified_class_names_a_package_to_index() -> None:
    from errdex.match.answer import may_index, named_modules

    def errors(*names: str | None) -> Evidence:
        return Evidence(errors=tuple(ErrorEvidence(exception=n, message="m") for n in names))

    assert named_modules(errors("pygments.util.ClassNotFound", "ValueError", None)) == ["pygments"]
    assert not may_index(errors("ValueError"), None)
    assert may_index(errors("ValueError"), "requests")


def _counting(files: dict[str, bytes]) -> tuple[SourceFiles, list[str]]:
    read: list[str] = []

    def reader(path: str) -> bytes | None:
        read.append(path)
        return files.get(path)

    return SourceFiles(files, reader), read


def test_a_traceback_whose_frame_holds_the_message_reads_only_what_it_needs() -> None:
    frame = Frame(path="site-packages/shop/cart.py", line=5, function="add", code=None)
    evidence = Evidence(
        errors=(ErrorEvidence(exception="CartError", message="at most 99 of one item may be "
                              "in a cart, asked for 120", frames=(frame,)),)
    )  # fmt: skip
    files, read = _counting(PACKAGE)
    assert "shop/cart.py" in needed_files(files, evidence)
    assert "shop/pay.py" not in read and "shop/unrelated.py" not in read


def test_a_message_split_over_two_literals_is_found_by_its_pieces() -> None:
    package = {
        **PACKAGE,
        "shop/stock.py": (
            b"def take(n):\n"
            b"    raise ValueError(f'cannot take {n} items from the shelf. '\n"
            b"                     'Restock the shelf before taking more.')\n"
        ),
        "shop/docs.py": b"HELP = 'cannot take items from an empty shelf'\n",
    }
    evidence = Evidence(
        errors=(ErrorEvidence(exception="ValueError", message="cannot take 3 items from the "
                              "shelf. Restock the shelf before taking more."),)
    )  # fmt: skip
    assert needed_files(package, evidence) == {"shop/stock.py"}


def test_a_piece_the_files_holding_the_longest_lack_is_looked_for_in_the_few_holding_it() -> None:
    # The longest run is broken over two literals where it is raised; other files hold it
    # whole in messages of their own. The file holding the shorter piece is needed too.
    package = {
        **PACKAGE,
        "shop/pool.py": (
            b"def check(pool, is_async):\n"
            b"    raise ValueError(f'Pool {pool} cannot be '\n"
            b"                     f'used with {is_async}asyncio engine')\n"
        ),
        **{
            f"shop/option{n}.py": (
                f"def set(x):\n    raise ValueError(f'option {{x}} cannot be used with {n}')\n"
            ).encode()
            for n in range(3)
        },
    }
    evidence = Evidence(
        errors=(ErrorEvidence(exception="ValueError",
                              message="Pool 'p' cannot be used with 'x'asyncio engine"),)
    )  # fmt: skip
    needed = needed_files(package, evidence)
    assert needed is not None and "shop/pool.py" in needed
    assert {f"shop/option{n}.py" for n in range(3)} <= needed


def test_an_exception_class_no_chosen_file_imports_is_found_in_every_file() -> None:
    package = {
        **PACKAGE,
        "shop/late.py": b"class LateError(Exception):\n    pass\n",
        "shop/run.py": b"def run(x):\n    raise x('the delivery came too late today')\n",
    }
    evidence = Evidence(
        errors=(ErrorEvidence(exception="shop.late.LateError",
                              message="the delivery came too late today"),)
    )  # fmt: skip
    assert needed_files(package, evidence) == {"shop/late.py", "shop/run.py"}


def test_a_release_the_paste_states_is_named_for_download() -> None:
    from errdex.match.answer import named_releases
    from errdex.match.paste import parse_paste

    paste = (
        "Traceback (most recent call last):\n"
        '  File "/opt/venv/lib/python3.11/site-packages/shop/cart.py", line 5, in add\n'
        "    raise CartError(f'at most {limits.MAX} of one item, asked for {count}')\n"
        '  File "/opt/venv/lib/python3.11/site-packages/pay_kit/card.py", line 9, in pay\n'
        "    check()\n"
        "shop.errors.CartError: at most 99 of one item, asked for 120\n"
        "- `shop` version: 2.10.1\n"
        "pay-kit==0.3.0rc1\n"
        "other==1.0\n"
    )
    assert named_releases(paste, parse_paste(paste)) == ["shop==2.10.1", "pay_kit==0.3.0rc1"]
    assert named_releases("shop: see 2.1.x", parse_paste(paste)) == []


def test_a_message_with_nothing_literal_needs_the_files_raising_its_class() -> None:
    package = {
        **PACKAGE,
        "shop/codec.py": (
            b"import json\nfrom .errors import CartError as BadCart\n"
            b"def load(text):\n    try:\n        return json.loads(text)\n"
            b"    except ValueError as e:\n        raise BadCart(e.msg)\n"
        ),
    }
    evidence = Evidence(
        errors=(ErrorEvidence(exception="shop.errors.CartError",
                              message="Expecting value: line 1 column 1 (char 0)"),)
    )  # fmt: skip
    needed = needed_files(package, evidence)
    assert {"shop/codec.py", "shop/cart.py"} <= needed  # both raise it, one as an alias
    assert "shop/pay.py" not in needed


def test_a_text_a_mixin_composes_needs_the_raises_of_its_subclasses() -> None:
    package = {
        **PACKAGE,
        "shop/base.py": (
            b"class ShopErrorMixin:\n"
            b"    def __str__(self):\n"
            b"        return f'{self.text}. For help visit the shop desk'\n"
            b"class ShopError(ShopErrorMixin, Exception):\n    pass\n"
        ),
        "shop/desk.py": b"from .base import ShopError\ndef ask():\n    raise ShopError('closed')\n",
    }
    evidence = Evidence(
        errors=(ErrorEvidence(exception=None, message="closed. For help visit the shop desk"),)
    )
    assert {"shop/base.py", "shop/desk.py"} <= needed_files(package, evidence)


def with_dialects(raised: bytes) -> dict[str, bytes]:
    """The package with five dialects, each raising CartError with `raised` (an f-string)."""
    return {
        **PACKAGE,
        **{
            f"shop/dialects/d{n}.py": (
                b"from shop.errors import CartError\ndef compile(x):\n    raise CartError(%s)\n"
                % raised
            )
            for n in range(5)
        },
    }


# The cart's own message, raised as its class.
CART_FULL = Evidence(
    errors=(ErrorEvidence(exception="shop.errors.CartError",
                          message="at most 99 of one item may be in a cart, asked for 7"),)
)  # fmt: skip


def test_a_class_raised_in_many_files_needs_only_the_raises_holding_the_message() -> None:
    # `CompileError` is raised in every dialect; the message's text is in one file.
    package = with_dialects(b"f'dialect {x} cannot compile {x}'")
    needed = needed_files(package, CART_FULL)
    assert "shop/cart.py" in needed
    assert not any(path.startswith("shop/dialects/") for path in needed)


def test_a_message_the_tests_hold_too_needs_the_package_file_that_raises_it() -> None:
    tests = {
        f"shop/tests/test_pay{n}.py": (
            b"import pytest\nfrom shop.pay import pay\n"
            b"def test_pay():\n"
            b"    with pytest.raises(RuntimeError, match='card declined by the bank'):\n"
            b"        pay()\n"
        )
        for n in range(3)
    }
    evidence = Evidence(
        errors=(ErrorEvidence(exception=None, message="card declined by the bank"),)
    )
    assert needed_files({**PACKAGE, **tests}, evidence) == {"shop/pay.py"}


def test_a_frame_holding_one_long_piece_of_the_message_holds_its_raise() -> None:
    # The source breaks the message's first words over two literals; the frame's file still
    # holds its last words, so no other file holding the first ones is needed.
    package = {
        **PACKAGE,
        "shop/engine.py": (
            b"from .errors import CartError\n"
            b"def start(pool):\n"
            b"    raise CartError(f'Pool class {pool!r} cannot be used '\n"
            b"                    'together with the asyncio engine')\n"
        ),
        "shop/notes.py": (
            b"def note():\n    raise ValueError('a coupon cannot be used together with another')\n"
        ),
    }
    frame = Frame(path="/usr/lib/python3.11/site-packages/shop/engine.py", line=3,
                  function="start", code=None)  # fmt: skip
    message = "Pool class 'Q' cannot be used together with the asyncio engine"
    evidence = Evidence(
        errors=(ErrorEvidence(exception="shop.errors.CartError", frames=(frame,),
                              message=message),)
    )  # fmt: skip
    needed = needed_files(package, evidence)
    assert needed is not None and "shop/engine.py" in needed
    assert "shop/notes.py" not in needed


def test_a_message_quoted_in_a_module_docstring_is_not_where_it_is_raised() -> None:
    package = {
        **PACKAGE,
        "shop/dialect.py": (
            b'"""A dialect of the shop.\n\n'
            b"Note that the card declined by the bank error is raised by pay().\n"
            b'"""\n'
            b"import json\n"
        ),
    }
    evidence = Evidence(
        errors=(ErrorEvidence(exception=None, message="card declined by the bank"),)
    )
    assert needed_files(package, evidence) == {"shop/pay.py"}


def test_a_frame_of_another_version_of_its_file_keeps_the_lines_holding_the_message() -> None:
    # The traceback's line is from the user's version; here the raise is further down.
    package = {
        **PACKAGE,
        "shop/schema.py": (
            b"from .errors import CartError\n"
            b"def name(x):\n"
            b"    return str(x)\n"
            b"def check_schema(schema):\n"
            b"    if not isinstance(schema, str):\n"
            b"        raise CartError(f'expected schema argument to be a string, got {schema}')\n"
        ),
    }
    frame = Frame(path="/usr/lib/python3.11/site-packages/shop/schema.py", line=2,
                  function="check_schema", code=None)  # fmt: skip
    evidence = Evidence(
        errors=(ErrorEvidence(exception="shop.errors.CartError", frames=(frame,),
                              message="expected schema argument to be a string, got 3"),)
    )  # fmt: skip
    parts = needed_parts(package, evidence)
    assert parts is not None
    need = parts["shop/schema.py"]
    assert need is not None and {2, 6} <= need.lines  # the frame's line, and the raise's


def test_a_message_a_test_holds_whole_and_the_package_in_two_literals_is_the_packages() -> None:
    package = {
        **PACKAGE,
        "shop/stock.py": (
            b"def take(item):\n"
            b"    raise KeyError(f'item {item} is not in stock at the '\n"
            b"                   'warehouse of the shop this week')\n"
        ),
        "shop/tests/test_stock.py": (
            b"import pytest\n"
            b"def test_take():\n"
            b"    with pytest.raises(KeyError, match='not in stock at the warehouse of the shop"
            b" this week'):\n"
            b"        take('x')\n"
        ),
    }
    evidence = Evidence(
        errors=(ErrorEvidence(exception=None,
                              message="item 'x' is not in stock at the warehouse of the shop"
                                      " this week"),)
    )  # fmt: skip
    assert needed_files(package, evidence) == {"shop/stock.py"}


def test_a_message_kept_in_a_constant_needs_where_the_file_raises_it() -> None:
    package = {
        **PACKAGE,
        "shop/reader.py": (
            b"_version_error = (\n"
            b"    'This is not a valid shop file or one from a version the shop does '\n"
            b"    'not read (detected: {version}).'\n"
            b")\n"
            b"class Reader:\n"
            b"    def header(self, version):\n"
            b"        if version > 3:\n"
            b"            raise ValueError(_version_error.format(version=version))\n"
        ),
    }
    message = "This is not a valid shop file or one from a version the shop does not read (9)."
    assert 8 in _lines_needed(
        package, message, "shop/reader.py"
    )  # the raise, not only the constant


def test_a_constant_an_exception_class_composes_needs_the_raises_of_that_class() -> None:
    package = {
        **PACKAGE,
        "shop/old_api.py": (
            b"from .errors import CartError\n"
            b'INSTRUCTIONS = """\n'
            b"\n"
            b"You tried to access shop.{symbol}, but this is no longer supported in shop 2.\n"
            b'"""\n'
            b"class RemovedError(CartError):\n"
            b"    def __init__(self, symbol):\n"
            b"        super().__init__(INSTRUCTIONS.format(symbol=symbol))\n"
            b"class RemovedProxy:\n"
            b"    def __call__(self):\n"
            b"        raise RemovedError(symbol=self.symbol)\n"
        ),
    }
    message = "You tried to access shop.cart, but this is no longer supported in shop 2."
    assert 11 in _lines_needed(package, message, "shop/old_api.py")  # the class composing it


def _lines_needed(package: dict[str, bytes], message: str, path: str) -> frozenset[int]:
    """The lines of `path` a bare message needs kept."""
    parts = needed_parts(
        package, Evidence(errors=(ErrorEvidence(exception=None, message=message),))
    )
    need = parts[path] if parts is not None else None
    assert need is not None
    return need.lines


def test_deferred_raises_of_the_pasted_class_wait_for_a_fuller_subset() -> None:
    # Other files raise the class with a text of their own holding a piece of the message:
    # they are needed only when the answer from the files holding the whole text is unsure.
    package = with_dialects(b"f'dialect {x}: at most one item may be in a cart'")
    deferred: list[str] = []
    quick = needed_parts(SourceFiles.of(package), CART_FULL, deferred)
    assert quick is not None and "shop/cart.py" in quick
    assert not any(path.startswith("shop/dialects/") for path in quick)
    assert deferred == ["CartError"]
    assert {f"shop/dialects/d{n}.py" for n in range(5)} <= needed_files(package, CART_FULL)


def test_nothing_is_deferred_when_a_class_composes_the_text() -> None:
    package = {
        **PACKAGE,
        "shop/errors.py": (
            b"from shop.base import ShopError\nclass CartError(ShopError):\n"
            b"    def __str__(self):\n        return 'the cart is full, remove an item first'\n"
        ),
        "shop/full.py": b"from .errors import CartError\ndef add():\n    raise CartError()\n",
    }
    evidence = Evidence(
        errors=(ErrorEvidence(exception="shop.errors.CartError",
                              message="the cart is full, remove an item first"),)
    )  # fmt: skip
    deferred: list[str] = []
    quick = needed_parts(SourceFiles.of(package), evidence, deferred)
    assert quick is not None and "shop/full.py" in quick
    assert deferred == []
