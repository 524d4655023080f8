"""Ways out through the user's own calls: two arguments of a public call given together
("pass one or the other"), a call made after a public method put the object in the state
the check refuses ("call `send` before `close()`"), a class whose constructor always
raises made through its class methods. Each with the Python call changed as the fix, and
nothing said where the conditions are not of that shape."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import indexed_package, page_in_function, page_with_message

from errdex.store import Store

CALLS = {
    "calls/__init__.py": """
        from calls.config import Timeout, Clear, clamp
        from calls.client import Client, Clauses
        from calls.params import Argument, Counted, Named, Option
        """,
    "calls/stack.py": """
        from threading import local

        _local = local()


        def current_object(silent=False):
            \"\"\"The innermost object.

            To push one, use :meth:`Scope.enter`.
            \"\"\"
            try:
                return _local.stack[-1]
            except (AttributeError, IndexError):
                if not silent:
                    raise RuntimeError("There is no current object.")
            return None


        def push_object(obj):
            _local.__dict__.setdefault("stack", []).append(obj)


        def pop_object():
            _local.stack.pop()


        def last_item(items):
            try:
                return items[-1]
            except IndexError:
                raise ValueError("There are no items.")
        """,
    "calls/checked.py": """
        def _check_kwargs(v):
            if v is not None:
                keys = ", ".join(map(repr, v))
                raise TypeError(f"multiple values for argument: {keys}")


        def _check_positional(v):
            if v is not None:
                raise TypeError(f"positional-only argument passed as keyword argument: {v}")


        def _check_few(*args):
            try:
                name, metadata = args[0], args[1]
            except IndexError:
                raise TypeError(
                    "Table() takes at least two positional-only arguments 'name' and 'metadata'"
                )
            return name, metadata


        def _check_args(v):
            if v is not None:
                raise TypeError(f"{2} positional arguments expected but {2 + len(v)} given")


        def _check_none(*args):
            if args:
                raise TypeError("reset() takes no arguments")


        def _check_value(v):
            if v is not None:
                raise TypeError(f"a value of another type: {v!r}")
        """,
    "calls/params.py": """
        class Parameter:
            \"\"\"A parameter of a command.

            :param param_decls: the names of this parameter.
            \"\"\"

            def __init__(self, param_decls=None, expose_value=True, mode=None, required=False):
                self.name = self._parse_decls(param_decls or (), expose_value)
                self.mode = self._check_mode(mode)
                self.required = required

            def _check_mode(self, mode):
                if mode is not None:
                    if mode not in ("a", "b"):
                        raise ValueError("mode must be a or b")
                return mode


        class Argument(Parameter):
            def __init__(self, param_decls, required=None, **attrs):
                if required is None:
                    required = attrs.get("default") is None
                super().__init__(param_decls, required=required, **attrs)

            def _parse_decls(self, decls, expose_value):
                if not decls:
                    if not expose_value:
                        return None
                    raise TypeError("Could not name the argument")
                if len(decls) > 1:
                    raise TypeError("Arguments take one name")
                return decls[0]


        class Counted(Parameter):
            def __init__(self, param_decls, **attrs):
                super().__init__(param_decls, **attrs)

            def _parse_decls(self, decls, expose_value):
                if len(decls) == 0:
                    raise TypeError("Counted needs a name")
                return decls[0]


        class Option(Parameter):
            def __init__(
                self, param_decls=None, hidden=False, is_flag=False, type_=None, **attrs
            ):
                super().__init__(param_decls, **attrs)
                self.hidden = hidden
                self.opts, self.secondary_opts = self._split_decls(param_decls or ())
                self.is_bool_flag = is_flag and type_ is bool
                if self.secondary_opts and not self.is_bool_flag:
                    raise TypeError("Secondary names need a flag.")
                if self.opts and self.hidden:
                    raise TypeError("A hidden option shows no names.")

            def _split_decls(self, decls):
                opts, secondary = [], []
                for decl in decls:
                    first, _, second = decl.partition("/")
                    opts.append(first)
                    if second:
                        secondary.append(second)
                if not opts:
                    return [self.hidden], secondary
                return opts, secondary

            def _parse_decls(self, decls, expose_value):
                name = None
                for decl in decls:
                    if decl.isidentifier():
                        if name is not None:
                            raise TypeError(f"Name {name!r} defined twice")
                        name = decl
                if name is None and self.hidden:
                    raise TypeError("A hidden option needs a name")
                return name


        class Named(Parameter):
            def __init__(self, param_decls=None, **attrs):
                super().__init__(param_decls, **attrs)

            def _parse_decls(self, decls, expose_value):
                name = None
                opts = []
                for decl in decls:
                    if decl.isidentifier():
                        name = decl
                    else:
                        opts.append(decl)
                if name is None:
                    if not expose_value:
                        return None
                    raise TypeError("Could not determine a name")
                if not opts:
                    raise TypeError("A name but no option: did you mean to declare an argument?")
                return name


        class Flipped(Parameter):
            def __init__(self, param_decls, required=False):
                super().__init__(param_decls, required=not required)

            def _parse_decls(self, decls, expose_value):
                return decls


        class Group:
            def __init__(self, params=None, chain=False):
                self.params = params or []
                self.chain = chain
                if self.chain:
                    for param in self.params:
                        if isinstance(param, Argument) and not param.required:
                            raise RuntimeError("Chained groups take no optional arguments.")
                    for param in self.params:
                        if isinstance(param, Flipped) and not param.required:
                            raise RuntimeError("Chained groups take no flipped ones.")


        class Renamed(Parameter):
            def __init__(self, names):
                names = list(names)
                super().__init__(names)

            def _parse_decls(self, decls, expose_value):
                if not decls:
                    raise TypeError("Could not name the renamed one")
                return decls[0]
        """,
    "calls/decorators.py": """
        def current():
            return None


        def make_pass(object_type, ensure=False):
            \"\"\"Pass the innermost object of the type.

            :param object_type: the type of the object to pass.
            :param ensure: if set to `True`, a new object is made
                           when none is there yet.
            \"\"\"

            def decorator(f):
                def new_func(*args):
                    ctx = current()
                    if ensure:
                        obj = ctx.ensure_object(object_type)
                    else:
                        obj = ctx.find_object(object_type)
                    if obj is None:
                        raise RuntimeError("No object of that type.")
                    return f(obj, *args)

                return new_func

            return decorator


        def lookup(name):
            return None


        def version_opt(version=None, package_name=None):
            \"\"\"Add a version option.

            :param version: The version number to show.
            \"\"\"

            def callback(ctx, value):
                nonlocal version
                if not value:
                    return
                if version is None and package_name is not None:
                    version = lookup(package_name)
                if version is None:
                    raise RuntimeError("Could not determine the version.")
                print(version)

            return callback


        def rebound_opt(version=None):
            def callback(value):
                version = value
                if version is None:
                    raise RuntimeError("No version given at all.")

            return callback


        def sweep(run, keep_going=False):
            def guarded():
                try:
                    return run()
                except Exception:
                    if not keep_going:
                        raise
                    return None

            return guarded


        def shadowed_opt(version=None):
            def callback(version):
                if version is None:
                    raise RuntimeError("No version handed to the callback.")

            return callback


        def make_plain(object_type):
            def decorator(f):
                def new_func(*args):
                    obj = current()
                    if obj is None:
                        raise RuntimeError("No object at all.")
                    return f(obj, *args)

                return new_func

            return decorator
        """,
    "calls/config.py": """
        UNSET = object()


        class Timeout:
            def __init__(self, timeout=UNSET, *, connect=UNSET, read=UNSET):
                if isinstance(timeout, Timeout):
                    assert connect is UNSET
                    self.connect = timeout.connect
                else:
                    self.connect = connect


        class Clear:
            def clear(self, domain=None, path=None):
                if path is not None:
                    assert domain is not None
                return domain


        def clamp(block=True, timeout=None):
            if block:
                if timeout is not None:
                    if timeout < 0:
                        raise ValueError("'timeout' must be a positive number")
            return timeout
        """,
    "calls/client.py": """
        import enum

        UNSET = object()

        class State(enum.Enum):
            OPENED = 1
            CLOSED = 2


        class Client:
            def __init__(self, auth=None, token=UNSET):
                if isinstance(auth, tuple) and token is not UNSET:
                    raise RuntimeError("Give auth as a tuple or a token, not both.")
                self._state = State.OPENED

            def send(self, request, *, stream=False):
                if self._state == State.CLOSED:
                    raise RuntimeError("Cannot send a request, as the client has been closed.")
                return request

            def close(self):
                if self._state != State.CLOSED:
                    self._state = State.CLOSED

            def __enter__(self):
                return self

            def __exit__(self, *args):
                self.close()

            def reopen(self):
                if self._state == State.OPENED:
                    raise RuntimeError("already open")
                self._state = State.OPENED


        class Registry:
            def __init__(self):
                self._closed = False

            def add(self, name):
                if self._closed:
                    raise RuntimeError("Cannot add to a closed registry.")
                return name

            def close(self):
                self._closed = True


        class Kernel:
            def __init__(self):
                self._warming = False

            def compile(self, key):
                self._warming = True
                try:
                    self.launch(key)
                finally:
                    self._warming = False

            def launch(self, spec):
                if self._warming:
                    raise RuntimeError("Cannot launch a kernel while it is warming.")
                return spec


        class Batcher:
            def __init__(self):
                self._pausing = False

            def pause(self):
                self._pausing = True
                self.flush()
                self._pausing = False

            def flush(self):
                return None

            def put(self, item):
                if self._pausing:
                    raise RuntimeError("Cannot put while pausing.")
                return item


        class Journal:
            def __init__(self):
                self._sealed = False

            def write(self, line):
                if self._sealed:
                    raise RuntimeError("Cannot write to a sealed journal.")
                return line

            def seal(self, reason, *, by):
                self._sealed = True


        class Generator:
            def __init__(self):
                self._used = False

            def generate(self, schema):
                if self._used:
                    raise RuntimeError("This generator has already been used.")
                self._used = True
                return schema

            def generate_definitions(self, inputs):
                if self._used:
                    raise RuntimeError("This generator has already been used.")
                self._used = True
                return inputs


        class Reader:
            def __init__(self):
                self.is_closed = False
                self.is_consumed = False

            def iter_raw(self):
                if self.is_consumed:
                    raise RuntimeError("The stream has been consumed.")
                if self.is_closed:
                    raise RuntimeError("The stream has been closed.")
                self.is_consumed = True
                yield b""
                self.close()

            def close(self):
                self.is_closed = True

            async def aclose(self):
                self.is_closed = True


        class Worker:
            def __init__(self):
                self._started = False
                self._session = None

            def start(self, workers):
                self._workers = workers
                self._begin()

            def _begin(self):
                self._started = True

            def run(self, job):
                if not self._started:
                    raise RuntimeError("The worker has not been started.")
                return job

            def query(self, sql):
                if self._session is None:
                    raise RuntimeError("No session is open.")
                return sql

            def __enter__(self):
                self._session = object()
                return self


        class Field:
            def __init__(self):
                self.subs = None
                self.prepare()

            def prepare(self):
                self._analyse()

            def _analyse(self):
                self.subs = []

            def check(self):
                if self.subs is None:
                    raise RuntimeError("The field has no sub-fields.")


        class Dialect:
            def __init__(self, comments=None):
                self.comments = False
                self._given = comments

            def initialize(self):
                self.comments = self._probe()

            def _probe(self):
                return True

            def comment(self):
                if not self.comments:
                    raise NotImplementedError("No comments on this server.")


        class Planner:
            def __init__(self):
                self._plan = None
                self._ready = False

            def plan(self, steps):
                if self._plan is None:
                    self._plan = steps

            def start(self):
                self._ready = True

            def run(self):
                if self._plan is None:
                    raise RuntimeError("The plan is not ready.")
                return self._plan

            def step(self):
                assert self._ready, "not started"
                return self._plan

            def jump(self):
                if not self._ready:
                    raise RuntimeError("Bad state.")
                return self._plan


        class Pool:
            def __init__(self):
                self._conn = None

            def connect(self):
                self._conn = object()

            def close(self):
                self._conn = None

            def get(self):
                if self._conn is None:
                    raise RuntimeError("The pool has no connection.")
                return self._conn


        class AsyncRegistry:
            def __init__(self):
                self._closed = False

            async def add(self, name):
                if self._closed:
                    raise RuntimeError("Cannot add to a closed registry.")
                return name

            async def aclose(self):
                self._closed = True


        class Clauses:
            def __init__(self, *arg, **kw):
                raise NotImplementedError("Clauses has a private constructor")

            @classmethod
            def _construct(cls, operator, *clauses):
                self = cls.__new__(cls)
                self.clauses = clauses
                return self

            @classmethod
            def and_(cls, initial_clause=None, *clauses):
                return cls._construct("and", initial_clause, *clauses)

            @classmethod
            def describe(cls):
                return "clauses"


        class Layers:
            def __init__(self, base):
                self._layers = [base]

            def push(self, layer):
                self._layers.append(layer)

            def pop(self):
                if len(self._layers) == 1:
                    raise RuntimeError("Unable to pop the base layer")
                self._layers.pop()


        class Tray:
            def __init__(self):
                self._items = []

            def put(self, item):
                self._items.append(item)

            def take(self):
                if not self._items:
                    raise RuntimeError("Nothing on the tray")
                return self._items.pop()

            def clear(self):
                self._items = []


        class Shelf:
            def __init__(self, items):
                self._items = list(items)

            def put(self, item):
                self._items.append(item)

            def take(self):
                if not self._items:
                    raise RuntimeError("Nothing on the shelf")
                return self._items.pop()
        """,
}


@pytest.fixture(scope="module")
def calls(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("calls"), "calls", CALLS)


def test_an_instance_given_beside_a_keyword_is_one_or_the_other(calls: Store) -> None:
    page = page_in_function(calls, "calls", "Timeout.__init__")
    first = page.solutions[0]
    assert first.text.startswith("Pass `calls.Timeout` either `connect` or `timeout`, not both")
    assert "Leave `connect` out of the call (it then keeps its default, `UNSET`)" in first.text
    assert first.fix is not None
    assert first.fix.before.endswith("Timeout(timeout=TIMEOUT, connect=CONNECT)")
    assert first.fix.after.endswith("Timeout(timeout=TIMEOUT)")


def test_two_keywords_both_given_in_one_condition(calls: Store) -> None:
    page = page_in_function(calls, "calls", "Client.__init__")
    first = page.solutions[0]
    assert first.text.startswith("Pass `calls.Client` either `token` or `auth`, not both")
    assert "or give `auth` a value for which `auth` is not an instance of `tuple`" in first.text
    assert first.fix is not None and first.fix.after.endswith("Client(auth=AUTH)")


def test_one_given_without_the_other_is_no_conflict(calls: Store) -> None:
    # `path` given and `domain` left out: the way out is to give `domain`, not "not both"
    page = page_in_function(calls, "calls", "Clear.clear")
    assert not any("not both" in s.text for s in page.solutions)


def test_a_value_check_beside_the_given_test_is_no_conflict(calls: Store) -> None:
    page = page_in_function(calls, "calls", "clamp")
    assert not any("not both" in s.text for s in page.solutions)


def test_a_call_after_close_is_made_before_it(calls: Store) -> None:
    page = page_in_function(calls, "calls", "Client.send")
    first = page.solutions[0]
    assert first.text.startswith(
        "Call `send` on your `Client` object before `close()` or the end of its `with` block"
    )
    assert "`self._state` to `State.CLOSED`" in first.text
    assert first.fix is not None
    assert first.fix.before == "client.close()\nclient.send(request=REQUEST)"
    assert first.fix.after == "client.send(request=REQUEST)\nclient.close()"


def test_a_flag_a_public_method_sets(calls: Store) -> None:
    page = page_in_function(calls, "calls", "Registry.add")
    first = page.solutions[0]
    assert first.text.startswith("Call `add` on your `Registry` object before `close()`")
    assert first.fix is not None
    assert first.fix.after == "registry.add(name=NAME)\nregistry.close()"


def test_a_state_the_method_sets_back_before_it_returns_is_no_call_order(calls: Store) -> None:
    # `compile` sets `_warming` only around its own call (reset in its `finally`), and
    # `pause` sets it back two statements on: after either returns the flag is off again
    for function in ("Kernel.launch", "Batcher.put"):
        page = page_in_function(calls, "calls", function)
        assert not any(" before `" in s.text for s in page.solutions), page.solutions


def test_the_closing_call_in_the_fix_gives_its_required_arguments(calls: Store) -> None:
    page = page_in_function(calls, "calls", "Journal.write")
    first = page.solutions[0]
    assert first.text.startswith("Call `write` on your `Journal` object before `seal()`")
    assert first.fix is not None
    assert first.fix.before == ("journal.seal(reason=REASON, by=BY)\njournal.write(line=LINE)")
    assert "`LINE`, `REASON`, `BY` stand for your own values." in first.fix.note


def test_a_coroutine_is_awaited_in_the_fix(calls: Store) -> None:
    page = page_in_function(calls, "calls", "AsyncRegistry.add")
    fix = page.solutions[0].fix
    assert fix is not None
    assert fix.after == "await async_registry.add(name=NAME)\nawait async_registry.aclose()"


def test_a_use_that_an_earlier_check_refuses_again_is_no_single_use(calls: Store) -> None:
    # `iter_raw` closes the stream itself, but marks it consumed first: a second call meets
    # the earlier check, so a closed stream comes from `close()`, and a generator's call is
    # iterated in the fix; the async `aclose()` is not said for a sync method
    page = page_with_message(calls, "calls", "The stream has been closed.")
    first = page.solutions[0]
    assert first.text.startswith("Call `iter_raw` on your `Reader` object before `close()`:")
    assert "aclose" not in first.text
    assert first.fix is not None
    assert first.fix.after == "for item in reader.iter_raw():\n    ...\nreader.close()"
    # consumed: only `iter_raw` itself marks it so: each reader is iterated once
    page = page_with_message(calls, "calls", "The stream has been consumed.")
    assert not any("before `close()`" in s.text for s in page.solutions)
    assert page.solutions[0].text.startswith(
        "Call `iter_raw` at most once on each `Reader` object: the first sets "
        "`self.is_consumed` to `True` (line "
    )


def test_a_state_a_public_method_sets_is_made_first(calls: Store) -> None:
    page = page_in_function(calls, "calls", "Worker.run")
    first = page.solutions[0]
    assert first.text.startswith(
        "First call `start()` on your `Worker` object, then `run`: it sets `self._started` to "
        "a true value"
    )
    assert first.fix is not None
    assert first.fix.before == "worker.run(job=JOB)"
    assert first.fix.after == "worker.start(workers=WORKERS)\nworker.run(job=JOB)"


def test_a_state_entering_the_block_sets_is_made_inside_it(calls: Store) -> None:
    page = page_in_function(calls, "calls", "Worker.query")
    first = page.solutions[0]
    assert first.text.startswith("Call `query` on your `Worker` object inside its `with` block")
    assert first.fix is not None
    assert first.fix.after.endswith("with Worker() as worker:\n    worker.query(sql=SQL)")


def test_a_state_the_constructor_sets_or_the_data_decides_is_no_first_call(
    calls: Store,
) -> None:
    # `__init__` calls `prepare()`, which sets it: the object starts with it
    page = page_in_function(calls, "calls", "Field.check")
    assert not any(s.text.startswith("First call") for s in page.solutions)
    # what the server answers decides it, not the order of the calls
    page = page_in_function(calls, "calls", "Dialect.comment")
    assert not any(s.text.startswith("First call") for s in page.solutions)


def test_no_first_call_for_a_setter_that_tests_it_an_assert_or_a_plain_message(
    calls: Store,
) -> None:
    # `plan()` fills it in only when missing: a test of its own, no first step
    for function in ("Planner.run", "Planner.step", "Planner.jump"):
        page = page_in_function(calls, "calls", function)
        assert not any(s.text.startswith("First call") for s in page.solutions), function


def test_a_state_a_public_method_takes_away_again_is_no_first_call(calls: Store) -> None:
    # `close()` sets it back to None: "connect first" would miss a call made after close
    page = page_in_function(calls, "calls", "Pool.get")
    assert not any(s.text.startswith("First call") for s in page.solutions)


def test_a_stack_read_outside_a_push_is_made_inside_one(calls: Store) -> None:
    page = page_in_function(calls, "calls", "current_object")
    first = page.solutions[0]
    assert first.text.startswith(
        "Call `current_object` while a `push_object(...)` is in effect: it reads the last "
        "item of `_local.stack`, which only `push_object` puts there (and `pop_object()` "
        "takes it off)"
    )
    assert first.text.endswith("Its docstring: “To push one, use :meth:`Scope.enter`.”")
    # the switch that returns None instead hides the error: said, not offered
    assert not any(s.hides for s in page.solutions)
    assert "A switch would only hide the error" in page.what_it_means
    # a list the caller passed is no module's stack
    page = page_in_function(calls, "calls", "last_item")
    assert not any("is in effect" in s.text for s in page.solutions)


def test_a_state_the_method_itself_sets_is_no_order(calls: Store) -> None:
    # `reopen` refuses OPENED and sets it itself; `__init__` is no call made before it
    page = page_in_function(calls, "calls", "Client.reopen")
    assert not any(s.text.startswith("Call `reopen`") for s in page.solutions)
    # a single-use object: calling `generate` first makes `generate_definitions` raise
    page = page_in_function(calls, "calls", "Generator.generate")
    assert not any(s.text.startswith("Call `generate`") for s in page.solutions)


def test_a_private_constructor_names_the_class_methods_that_make_it(calls: Store) -> None:
    page = page_in_function(calls, "calls", "Clauses.__init__")
    first = page.solutions[0]
    assert "`Clauses.and_(...)`" in first.text
    assert "describe" not in first.text  # makes no instance
    assert first.fix is not None
    assert first.fix.after.endswith("Clauses.and_(INITIAL_CLAUSE, *CLAUSES)")
    assert first.fix.before.endswith("Clauses(INITIAL_CLAUSE, *CLAUSES)")


def test_a_switch_of_the_public_function_that_made_the_raising_one(calls: Store) -> None:
    page = page_in_function(calls, "calls", "make_pass.<locals>.decorator.<locals>.new_func")
    first = page.solutions[0]
    assert first.text.startswith("Pass `ensure=True` to `calls.decorators.make_pass`")
    assert "`ctx.ensure_object(object_type)` instead of `ctx.find_object(object_type)`" in (
        first.text
    )
    assert "a new object is made when none is there yet" in first.text
    assert first.fix is not None
    assert first.fix.after.endswith("make_pass(object_type=OBJECT_TYPE, ensure=True)")


def test_an_argument_of_the_public_function_the_closure_reads(calls: Store) -> None:
    page = page_in_function(calls, "calls", "version_opt.<locals>.callback")
    first = page.solutions[0]
    assert first.text.startswith("Pass `version` to `calls.decorators.version_opt`")
    assert "left at its default (`None`)" in first.text
    assert first.text.endswith("Its docstring: “The version number to show.”")
    assert first.fix is not None
    assert first.fix.after.endswith("version_opt(version=VERSION)")
    # a local of the closure, or its own parameter, is not the outer call's argument
    # a switch of whether a caught error goes on only hides it
    page = page_in_function(calls, "calls", "sweep.<locals>.guarded")
    assert not any("keep_going" in s.text for s in page.solutions)
    for function in ("rebound_opt", "shadowed_opt"):
        page = page_in_function(calls, "calls", f"{function}.<locals>.callback")
        assert not any(f"to `calls.decorators.{function}`" in s.text for s in page.solutions)


def test_a_constructor_argument_handed_to_a_private_check(calls: Store) -> None:
    page = page_with_message(calls, "calls", "Could not name the argument")
    first = page.solutions[0]
    assert first.text.startswith(
        "Pass `param_decls` to `calls.Argument` so that `param_decls` is set"
    )
    assert "hands it to `_parse_decls` as `decls`" in first.text
    assert first.text.endswith("Its docstring: “the names of this parameter.”")
    assert first.fix is not None
    assert first.fix.before.endswith("Argument(param_decls=())")
    assert first.fix.after.endswith("Argument(param_decls=PARAM_DECLS)")
    # past `if not decls: raise`, `param_decls or ()` handed `param_decls` itself: its
    # length is carried over
    page = page_with_message(calls, "calls", "Arguments take one name")
    assert page.solutions[0].text.startswith(
        "Pass `param_decls` to `calls.Argument` so that the length of `param_decls` is at "
        "most `1`: its constructor hands it to `_parse_decls` as `decls`"
    )
    # with no such guard, `param_decls or ()` keeps only whether it is empty
    page = page_with_message(calls, "calls", "Counted needs a name")
    assert not any("hands it to" in s.text for s in page.solutions)
    # rebound before it is handed on; a value that leaving out avoids (`is not None`)
    page = page_with_message(calls, "calls", "Could not name the renamed one")
    assert not any("hands it to" in s.text for s in page.solutions)
    page = page_with_message(calls, "calls", "mode must be a or b")
    assert not any("so that `mode` is None" in s.text for s in page.solutions)


def test_each_object_a_constructor_refuses_is_made_with_the_keyword(calls: Store) -> None:
    page = page_with_message(calls, "calls", "Chained groups take no optional arguments.")
    first = page.solutions[0]
    assert first.text.startswith(
        "Make each `Argument` you give your `Group` (its `params`) with `required=True`"
    )
    assert first.fix is not None
    assert first.fix.after.endswith("Argument(param_decls=PARAM_DECLS, required=True)")
    assert "`chain`" in page.solutions[1].text  # the switch of the check comes after
    # a constructor between that turns the keyword around: no keyword said
    page = page_with_message(calls, "calls", "Chained groups take no flipped ones.")
    assert not any(s.text.startswith("Make each") for s in page.solutions)


def test_what_a_constructor_argument_holds_checked_by_a_private_method(calls: Store) -> None:
    page = page_with_message(calls, "calls", "Name {name!r} defined twice")
    assert page.solutions[0].text.startswith(
        "Change the `param_decls` you give `calls.Option`: its constructor hands it "
        "to `_parse_decls` as `decls`, and the check at line"
    )
    # the object's own state decides too: not the argument alone
    page = page_with_message(calls, "calls", "A hidden option needs a name")
    assert not any(s.text.startswith("Change the `param_decls`") for s in page.solutions)


def test_what_a_constructor_argument_holds_checked_behind_a_switch_of_its_own(
    calls: Store,
) -> None:
    # `if not expose_value: return`: another argument of the method gates the check on
    # `name`, which only `decls` fills; the way out is still what the user declared
    page = page_with_message(calls, "calls", "Could not determine a name")
    assert page.solutions[0].text.startswith(
        "Change the `param_decls` you give `calls.Named`: its constructor hands it "
        "to `_parse_decls` as `decls`, and the check at line"
    )
    # past an earlier exit on the argument's own contents: the message's advice says more
    page = page_with_message(calls, "calls", "A name but no option")
    assert not any(s.text.startswith("Change the `param_decls`") for s in page.solutions)


def test_an_attribute_a_private_method_made_of_a_constructor_argument(calls: Store) -> None:
    page = page_with_message(calls, "calls", "Secondary names need a flag.")
    assert page.solutions[0].text.startswith(
        "Change the `param_decls` you give `calls.Option`: its constructor sets "
        "`self.secondary_opts` from it through `_split_decls`, and the check at line"
    )
    # a place the method also fills from the object's state: not the argument alone
    page = page_with_message(calls, "calls", "A hidden option shows no names.")
    assert not any("through `_split_decls`" in s.text for s in page.solutions)


def test_no_switch_no_way_out_through_the_outer_call(calls: Store) -> None:
    page = page_in_function(calls, "calls", "make_plain.<locals>.decorator.<locals>.new_func")
    assert not any("=True` to" in s.text for s in page.solutions)


def test_a_call_python_would_refuse_is_changed_as_the_message_says(calls: Store) -> None:
    page = page_in_function(calls, "calls", "_check_kwargs")
    assert page.solutions[0].text.startswith("Change the call in your own code")
    assert "pass each once" in page.solutions[0].text
    page = page_in_function(calls, "calls", "_check_positional")
    assert "pass it in its position, without the name" in page.solutions[0].text
    page = page_in_function(calls, "calls", "_check_value")
    assert not any(s.text.startswith("Change the call") for s in page.solutions)


def test_too_few_positional_arguments_named_by_the_message(calls: Store) -> None:
    page = page_in_function(calls, "calls", "_check_few")
    assert (
        "fewer arguments than the function requires: pass `name` and `metadata` first, each "
        "in its position and without its name"
    ) in page.solutions[0].text
    # "takes no arguments" is too many, not too few
    page = page_in_function(calls, "calls", "_check_none")
    assert not any("fewer arguments" in s.text for s in page.solutions)


def test_positional_arguments_expected_but_more_given_is_too_many(calls: Store) -> None:
    page = page_in_function(calls, "calls", "_check_args")
    assert page.solutions[0].text.startswith("Change the call in your own code")
    assert "more arguments by position than the function takes" in page.solutions[0].text


def test_a_pop_made_more_often_than_its_push_is_paired_with_one(calls: Store) -> None:
    page = page_in_function(calls, "calls", "Layers.pop")
    first = page.solutions[0]
    assert first.text == (
        "Pair each `pop` on your `Layers` object with an earlier `push()`: it adds an item to "
        "`self._layers` and `pop` takes one off, so a `pop` made more often than `push()` "
        "finds only what the object started with, and refuses it."
    )
    assert first.fix is not None
    assert first.fix.before == "layers.pop()"
    assert first.fix.after == "layers.push(layer=LAYER)\nlayers.pop()"


def test_no_pair_where_another_method_empties_it_or_the_data_fills_it(calls: Store) -> None:
    # `clear()` empties the tray too: no count of `put` and `take` decides it alone
    page = page_in_function(calls, "calls", "Tray.take")
    assert not any(s.text.startswith("Pair each") for s in page.solutions)
    # the shelf starts with what the caller handed it: not a known number of items
    page = page_in_function(calls, "calls", "Shelf.take")
    assert not any(s.text.startswith("Pair each") for s in page.solutions)
