"""A name holding one key of a dict-valued config field (`extra.get("backend", "cpu")`,
`extra["path"]`, where `extra` is `transfer_config.extra_config` or a flag's whole dict):
the flag with that key, nested in the JSON under the dict's own field where the flag takes
a configuration object (`KnobLink.dict_key`)."""

from __future__ import annotations

import textwrap

from test_passed_arguments import link

from errdex.extract import extract_file
from errdex.link import IndexedSite, link_version
from samples import DICT_ARGS

DICTS = {
    "eng/args.py": DICT_ARGS,
    "eng/offload.py": """
        def offload(vllm_config):
            extra = vllm_config.transfer_config.extra_config or {}
            backend = str(extra.get("backend", "cpu"))
            if backend not in ("cpu", "disk"):
                raise ValueError("unknown offload backend")


        def pick(vllm_config):
            name = vllm_config.transfer_config.extra_config.get("connectors")
            if name is None:
                raise ValueError("no connectors listed")


        def load(load_config):
            extra_config = load_config.loader_extra_config
            threads = extra_config.get("num_threads")
            if threads is not None and threads <= 0:
                raise ValueError("num_threads must be positive")


        def named(vllm_config):
            name = vllm_config.transfer_config.connector.get("x")
            if name is None:
                raise ValueError("the connector names no x")


        def other(vllm_config, spec):
            extra = spec.extra_config
            size = extra.get("size")
            if size is None:
                raise ValueError("a spec without a size")
        """,
}


def test_a_key_of_a_dict_field_of_a_json_flag_is_that_key_in_the_field() -> None:
    sites = link(DICTS)
    for message, name, key in (
        ("unknown offload backend", "backend", "backend"),
        ("no connectors listed", "name", "connectors"),
    ):
        knobs = [k for k in sites[message].knobs if k.behind == name]
        assert [(k.name, k.json_key, k.dict_key) for k in knobs] == [
            ("--transfer-config", "extra_config", key)
        ], sites[message].knobs
    # a key of the object holding a name, not a dict: no key of it is the user's
    named = sites["the connector names no x"]
    assert not any(k.dict_key for k in named.knobs), named.knobs
    # a dict no flag gives (a parameter of the function) holds no key of one
    other = sites["a spec without a size"]
    assert not any(k.json_key for k in other.knobs), other.knobs


def test_a_key_of_a_flag_whose_value_is_a_dict_is_that_key() -> None:
    site = link(DICTS)["num_threads must be positive"]
    knobs = [k for k in site.knobs if k.behind == "threads"]
    assert [(k.name, k.json_key, k.dict_key) for k in knobs] == [
        ("--loader-extra-config", "num_threads", "num_threads")
    ], site.knobs


PASSED = {
    "eng/args.py": DICT_ARGS,
    "eng/layer.py": """
        def resolve_backend(backend, head_dim):
            if backend not in ("auto", "triton", "fast"):
                raise ValueError("unsupported backend")
            if backend == "fast" and head_dim != 128:
                raise RuntimeError("the fast backend needs head_dim 128")
            return backend


        def resolve_threads(threads):
            if threads is not None and threads <= 0:
                raise ValueError("threads must be positive")
            return threads


        def resolve_size(size):
            if size not in ("s", "m"):
                raise ValueError("unknown size")
            return size


        class Layer:
            def __init__(self, vllm_config, load_config, spec, head_dim):
                extra = vllm_config.transfer_config.extra_config
                backend = (
                    extra.get("backend", "auto") if isinstance(extra, dict) else "auto"
                )
                self.backend = resolve_backend(backend, head_dim)
                threads = load_config.loader_extra_config["num_threads"]
                self.threads = resolve_threads(threads)
                size = spec.get("size", "s")
                self.size = resolve_size(size)


        class Other:
            def __init__(self, vllm_config):
                extra = vllm_config.transfer_config.extra_config
                self.mode = resolve_mode(
                    extra.get("mode", "auto") if isinstance(extra, dict) else "auto"
                )


        def resolve_mode(mode):
            if mode not in ("auto", "eager"):
                raise ValueError("unsupported mode")
            return mode
        """,
}


def test_a_key_of_a_json_flag_s_dict_a_caller_passes_is_that_key() -> None:
    sites = link(PASSED)
    for message, param, flag, outer, key in (
        ("unsupported backend", "backend", "--transfer-config", "extra_config", "backend"),
        ("the fast backend needs", "backend", "--transfer-config", "extra_config", "backend"),
        ("threads must be positive", "threads", "--loader-extra-config", "num_threads", None),
        ("unsupported mode", "mode", "--transfer-config", "extra_config", "mode"),
    ):
        site = next(s for m, s in sites.items() if m.startswith(message))
        knobs = [k for k in site.knobs if k.behind == param]
        assert [(k.name, k.json_key) for k in knobs] == [(flag, outer)], site.knobs
        assert knobs[0].passed_by in (("Layer.__init__",), ("Other.__init__",))
        assert key is None or knobs[0].dict_key == key
    # a key of a dict that is the caller's own argument: no flag gives it
    assert not sites["unknown size"].knobs


KEPT = {
    "eng/args.py": DICT_ARGS,
    "eng/loader.py": """
        from copy import copy

        from eng.args import LoadConfig


        class Loader:
            def __init__(self, load_config: LoadConfig, spec):
                extra_config = copy(load_config.loader_extra_config or {})
                self.fallback: bool = extra_config.pop("fallback", True)
                self.mode = extra_config.get("mode", "fast")
                self.strict = bool(load_config.loader_extra_config.get("strict", False))
                self.size = spec.get("size", 1)
                self.cached = extra_config.pop("cached", compute_default())
                self.other = extra_config.pop("other", None)
                self.other = None

            def load(self):
                try:
                    return self._load()
                except OSError:
                    if not self.fallback:
                        raise
                if self.mode not in ("fast", "slow"):
                    raise ValueError("unknown load mode")
                if self.strict:
                    raise RuntimeError("strict loading refuses a retry")
                if self.size > 4:
                    raise ValueError("a spec too large")
                if self.cached:
                    raise ValueError("a cached load")
                if self.other:
                    raise ValueError("another load")
        """,
}


def test_an_attribute_the_constructor_keeps_of_a_key_of_a_flags_dict_is_that_key() -> None:
    """`self.fallback = extra.pop("fallback", True)` in `__init__`, `extra` a copy of the
    flag's dict: a method's check of `self.fallback` is the flag with that key."""
    sites = link(KEPT)
    for message, attr, key, default in (
        ("unknown load mode", "self.mode", "mode", "'fast'"),
        ("strict loading refuses a retry", "self.strict", "strict", "False"),
    ):
        knobs = [k for k in sites[message].knobs if k.behind == attr]
        assert [(k.name, k.json_key, k.dict_key, k.dict_default) for k in knobs] == [
            ("--loader-extra-config", key, key, default)
        ], sites[message].knobs
    # a dict no flag gives, a default worked out by a call, an attribute assigned twice
    for message, attr in (
        ("a spec too large", "self.size"),
        ("a cached load", "self.cached"),
        ("another load", "self.other"),
    ):
        knobs = sites[message].knobs
        assert not any(k.json_key for k in knobs if k.behind == attr), knobs


def test_a_re_raise_under_a_kept_key_names_the_key() -> None:
    site = next(s for s in link_all(KEPT) if s.site.message is None)
    knobs = [k for k in site.knobs if k.behind == "self.fallback"]
    assert [(k.name, k.dict_key, k.key_default) for k in knobs] == [
        ("--loader-extra-config", "fallback", "True")
    ], site.knobs


HELPED = {
    "eng/args.py": DICT_ARGS,
    "eng/worker.py": """
        def _make_pool(extra_config, depth):
            pool = str(extra_config.get("pool") or "").upper()
            if pool and pool not in ("NV", "RDMA"):
                raise ValueError("unsupported pool")
            return pool


        def _pick_layout(extra_config):
            layout = extra_config.get("layout", "flat")
            if layout not in ("flat", "nested"):
                raise ValueError("unsupported layout")


        def _pick_mode(extra_config):
            mode = extra_config.get("mode")
            if mode is not None and mode != "fast":
                raise ValueError("unsupported mode")


        def _relay(extra_config):
            _pick_layout(extra_config)


        class Worker:
            def __init__(self, vllm_config, spec):
                extra_config = vllm_config.transfer_config.extra_config
                self.pool = _make_pool(extra_config, 2)
                _relay(extra_config)
                _pick_mode(extra_config)
                _pick_mode(spec)
        """,
}


def test_a_key_of_a_dict_every_caller_gives_from_a_json_flag_is_that_key() -> None:
    """`pool = str(extra_config.get("pool") or "").upper()` in a helper every call gives
    the flag's free dict (as it is, or passed on by another helper): the key in the JSON,
    left out meaning the empty value; not where a call gives the helper another dict."""
    sites = link(HELPED)
    for message, local, key, default in (
        ("unsupported pool", "pool", "pool", "''"),
        ("unsupported layout", "layout", "layout", "'flat'"),
    ):
        knobs = [k for k in sites[message].knobs if k.behind == local]
        assert [(k.name, k.json_key, k.dict_key, k.dict_default) for k in knobs] == [
            ("--transfer-config", "extra_config", key, default)
        ], sites[message].knobs
        assert knobs[0].passed_by[-1] == "Worker.__init__"
    # one call gives the flag's dict, another the caller's own argument: no flag decides it
    assert not any(k.json_key for k in sites["unsupported mode"].knobs)


COPIED = {
    "eng/args.py": DICT_ARGS,
    "eng/conn.py": """
        class Base:
            def __init__(self, vllm_config):
                if vllm_config.transfer_config is not None:
                    self._transfer_config = vllm_config.transfer_config
                else:
                    raise ValueError("a transfer config is needed")
                if vllm_config.load_config is not None:
                    self._other = vllm_config.transfer_config


        class Offload(Base):
            def __init__(self, vllm_config):
                super().__init__(vllm_config)
                extra_config = self._transfer_config.extra_config or {}
                backend = str(extra_config.get("backend", "cpu"))
                if backend not in ("cpu", "disk"):
                    raise ValueError("unknown offload backend")
                other = self._other.extra_config.get("size")
                if other is not None and other < 0:
                    raise ValueError("a negative size")


        class Renamed(Base):
            def __init__(self, vllm_config, spec):
                super().__init__(vllm_config)
                self._transfer_config = spec

            def check(self):
                mode = self._transfer_config.extra_config.get("mode")
                if mode is not None and mode != "fast":
                    raise ValueError("an unsupported mode")


        class Own:
            def __init__(self, vllm_config):
                self.cfg = vllm_config.transfer_config

            def check(self):
                layout = self.cfg.extra_config.get("layout", "flat")
                if layout not in ("flat", "nested"):
                    raise ValueError("an unsupported layout")
        """,
}


def test_a_key_of_a_dict_on_an_object_a_constructor_copied_onto_self_is_that_key() -> None:
    """`self._transfer_config.extra_config.get("backend")`, where a base's constructor set
    `self._transfer_config = vllm_config.transfer_config` under a test of that chain (or
    the class's own copied it at its top): the key in the flag's JSON; not where the
    guard tests something else, nor where the class nearer the method assigns it itself."""
    sites = link(COPIED)
    for message, name, key in (
        ("unknown offload backend", "backend", "backend"),
        ("an unsupported layout", "layout", "layout"),
    ):
        knobs = [k for k in sites[message].knobs if k.behind == name]
        assert [(k.name, k.json_key, k.dict_key) for k in knobs] == [
            ("--transfer-config", "extra_config", key)
        ], sites[message].knobs
        assert "is `vllm_config.transfer_config` (set in" in knobs[0].via
    for message, name in (("a negative size", "other"), ("an unsupported mode", "mode")):
        knobs = sites[message].knobs
        assert not any(k.json_key for k in knobs if k.behind == name), knobs


def link_all(files: dict[str, str]) -> list[IndexedSite]:
    facts = [extract_file(path, textwrap.dedent(text).encode()) for path, text in files.items()]
    return link_version("demo", facts)


GETTER_ARGS = DICT_ARGS.replace(
    "extra_config: dict[str, Any] = field(default_factory=dict)\n",
    "extra_config: dict[str, Any] = field(default_factory=dict)\n\n"
    "            def get_from_extra_config(self, key, default):\n"
    '                """One key of the extra config."""\n'
    "                return self.extra_config.get(key, default)\n\n"
    "            def get_connector(self, key, default):\n"
    "                return self.settings().get(key, default)\n",
)

GETTERS = {
    "eng/args.py": GETTER_ARGS,
    "eng/worker.py": """
        class Worker:
            def __init__(self, vllm_config):
                self.transfer_config = vllm_config.transfer_config
                self.enforce = self.transfer_config.get_from_extra_config("enforce_compat", True)

            def handshake(self, remote, local):
                if self.enforce and remote != local:
                    raise RuntimeError("compatibility hashes differ")


        def address(vllm_config):
            addr = vllm_config.transfer_config.get_from_extra_config("server_address", None)
            if addr is not None and ":" not in addr:
                raise ValueError("the address names no port")


        def other(vllm_config):
            name = vllm_config.transfer_config.get_connector("name", None)
            if name is not None:
                raise ValueError("a connector named")
        """,
}


def test_a_key_a_config_getter_reads_of_its_dict_is_that_key_in_the_flags_json() -> None:
    # `get_from_extra_config("k", d)` returns `self.extra_config.get(key, default)`: the
    # key `k` of `extra_config` in `--transfer-config`'s JSON, kept on `self` or a local
    sites = link(GETTERS)
    for message, behind, key, default in (
        ("compatibility hashes differ", "self.enforce", "enforce_compat", "True"),
        ("the address names no port", "addr", "server_address", "None"),
    ):
        knobs = [k for k in sites[message].knobs if k.behind == behind]
        assert [(k.name, k.json_key, k.dict_key, k.dict_default) for k in knobs] == [
            ("--transfer-config", "extra_config", key, default)
        ], sites[message].knobs
    # a method reading a dict of another call's result is no key getter
    assert not any(k.dict_key for k in sites["a connector named"].knobs)
