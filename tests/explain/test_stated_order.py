"""Messages that state an order of calls ("X() must be called before Y()", "Call X()
first", "X() has not been called"): the call of the class's own public method on the
user's object, with its required arguments named, drawn as the fix; a name the class does
not define says nothing. What the message says to do ranks before an input solution on a
private name."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_in_function

from errdex.store import Store

ORDER = {
    "order/__init__.py": """
        from order.engine import Connection, Engine, Pool, Request
        """,
    "order/engine.py": """
        class Engine:
            def __init__(self):
                self.group = None
                self.active = False
                self.planned = None

            def init_transfer(self, init_info, /, peer, *, mode, timeout=None):
                self.group = init_info

            def start_update(self):
                self.active = True

            def receive(self):
                if self.group is None:
                    raise RuntimeError("Transfer not initialized. Call init_transfer() first.")
                return self.group

            def update(self, info):
                if not self.active:
                    raise RuntimeError("start_update must be called before update.")
                self._apply(info)

            def _apply(self, info):
                if not self.active:
                    raise RuntimeError("start_update must run before update (baked replay).")

            def replay(self, info):
                # A caller that does not check first: `_apply`'s raise stays reachable.
                self._apply(info)

            def send(self):
                if self.planned is None:
                    raise RuntimeError("other.plan() must be called before send()")

            def finish(self):
                if self.active:
                    raise RuntimeError("An update is active. Call finish_update first.")

            def finish_update(self):
                self.active = False

            def restart(self):
                if self.group is None:
                    raise RuntimeError("Cannot call receive() before init_transfer()")

            def flush(self):
                if self.planned is None:
                    raise RuntimeError("The data must be loaded before sending")


        class Request:
            def __init__(self, stream):
                self.stream = stream

            @property
            def content(self):
                if not hasattr(self, "_content"):
                    raise RuntimeError(
                        "Attempted to access streaming content, without having called `read()`."
                    )
                return self._content

            def read(self):
                self._content = b"".join(self.stream)
                return self._content

            async def aread(self):
                self._content = b"".join([part async for part in self.stream])
                return self._content

            def peek(self):
                if not hasattr(self, "_content"):
                    raise RuntimeError("Cannot peek without calling `load()` on the source.")


        class Connection:
            def __init__(self):
                self._transaction = None

            def begin(self):
                if self._transaction is not None:
                    raise RuntimeError(
                        "A transaction is already open; can't call begin() here unless "
                        "rollback() or commit() is called first."
                    )
                self._transaction = object()

            def rollback(self):
                self._transaction = None

            def commit(self):
                self._transaction = None

            def merge(self, item, load=True):
                return self._merge(item, load)

            def _merge(self, item, load):
                if not load and item is None:
                    raise RuntimeError(
                        "merge() with load=False does not support new items.  flush() all "
                        "changes before merging with load=False."
                    )
                return item

            def flush(self):
                return None


        class Pool:
            def __init__(self, total):
                self._total = total

            def acquire(self, nbytes):
                if nbytes > self._total:
                    raise ValueError("The request exceeds the pool. Use a larger pool.")
                return nbytes
        """,
}


@pytest.fixture(scope="module")
def order(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("order"), "order", ORDER)


def test_call_first_draws_the_method_with_its_required_arguments(order: Store) -> None:
    page = page_in_function(order, "order", "Engine.receive")
    first = page.solutions[0]
    assert first.text.startswith("Call `init_transfer` on your `Engine` object before `receive`")
    assert first.fix is not None
    # as a call's arguments are written everywhere: by keyword, a positional-only one bare
    assert first.fix.after == "engine.init_transfer(INIT_INFO, peer=PEER, mode=MODE)"
    # the message's own sentence is not offered a second time
    assert not any(s.text.startswith("Do what the message says") for s in page.solutions)


def test_must_be_called_before_names_the_public_method_that_raised(order: Store) -> None:
    page = page_in_function(order, "order", "Engine.update")
    fix = page.solutions[0].fix
    assert fix is not None and fix.after == "engine.start_update()"
    assert "before `update`" in fix.note


def test_a_private_method_takes_the_public_name_the_message_gives(order: Store) -> None:
    page = page_in_function(order, "order", "Engine._apply")
    assert page.solutions[0].text.startswith(
        "Call `start_update` on your `Engine` object before `update`"
    )


def test_a_method_named_without_parentheses(order: Store) -> None:
    page = page_in_function(order, "order", "Engine.finish")
    fix = page.solutions[0].fix
    assert fix is not None and fix.after == "engine.finish_update()"


def test_another_object_no_method_or_a_forbidden_order_says_nothing(order: Store) -> None:
    for function in ("Engine.send", "Engine.flush", "Engine.restart"):
        page = page_in_function(order, "order", function)
        assert not any(s.text.startswith("Call `") for s in page.solutions), function


def test_the_message_advice_ranks_before_an_input_on_a_private_name(order: Store) -> None:
    page = page_in_function(order, "order", "Pool.acquire")
    texts = [s.text for s in page.solutions]
    advice = next(i for i, t in enumerate(texts) if "Use a larger pool" in t)
    private = next(i for i, t in enumerate(texts) if "`self._total`" in t)
    assert advice < private, texts


def test_without_having_called_names_the_method_to_call_first(order: Store) -> None:
    page = page_in_function(order, "order", "Request.content")
    assert page.solutions[0].text.startswith(
        "Call `read` (or its async twin `aread`) on your `Request` object before `content`, "
        "as the message says"
    )
    # a name the class does not define says nothing
    page = page_in_function(order, "order", "Request.peek")
    assert not any(s.text.startswith("Call `") for s in page.solutions)


def test_unless_called_first_names_the_method_and_its_alternative(order: Store) -> None:
    page = page_in_function(order, "order", "Connection.begin")
    assert page.solutions[0].text.startswith(
        "Call `rollback` (or `commit`) on your `Connection` object before `begin`, as the "
        "message says"
    )


def test_a_sentence_that_opens_with_the_call_to_make(order: Store) -> None:
    # "merge() with load=False does not support ..." is about the call that raised, not
    # one to make; "flush() all changes before merging" is; the private `_merge` stands for
    # the public `merge`
    page = page_in_function(order, "order", "Connection._merge")
    assert page.solutions[0].text.startswith(
        "Call `flush` on your `Connection` object before `merge`, as the message says"
    )
