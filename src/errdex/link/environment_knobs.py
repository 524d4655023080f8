"""Environment knobs: the variables, optional packages and platform tests behind a name.

- `envs.VLLM_X` (a module attribute) is an environment variable when that module reads
  `"VLLM_X"` (a getter module such as vllm's `envs.py`, or `X = os.getenv("X")`);
- `os.environ.get("X")`, `os.getenv("X")`, `os.environ["X"]` written in a condition are
  environment variables as they stand;
- a name left None (or false) when an optional import failed is the package, and a
  function returning a platform test (`torch.cuda.is_available()`) is the platform.
"""

from __future__ import annotations

from collections import Counter

import msgspec

from errdex.extract.shapes import OWN_OBJECT
from errdex.facts import Condition, EnvRead, FileFacts, KnobKind
from errdex.link.resolve import Namespace
from errdex.linked_facts import KnobLink


class EnvironmentIndex:
    """The version's environment reads, optional imports and platform tests."""

    def __init__(self, files: list[FileFacts], names: Namespace) -> None:
        self._names = names
        self._env_binds: dict[tuple[str, str], EnvRead] = {}  # (module, name) → read
        # (module, name) → (the optional module, file): see `extract.environment`
        self._optional: dict[tuple[str, str], tuple[str, str]] = {}
        # (module, function name) → (the platform test it returns, file)
        self._platform: dict[tuple[str, str], tuple[str, str]] = {}
        # (module, function name) → (the name it returns, its file's facts)
        self._accessors: dict[tuple[str, str], tuple[str, FileFacts]] = {}
        # what authors wrote where a variable is read: the comment above its read
        self._env_docs: dict[str, str] = {}
        for facts in files:
            if facts.error is not None:
                continue
            for read in facts.env_reads:
                if read.binds is not None:
                    self._env_binds[(facts.module, read.binds)] = read
                if read.doc is not None:
                    self._env_docs.setdefault(read.name, read.doc)
            for name, module in facts.optional_imports.items():
                self._optional[(facts.module, name)] = (module, facts.path)
            for name, test in facts.platform_tests.items():
                self._platform[(facts.module, name)] = (test, facts.path)
            for name, returned in facts.value_accessors.items():
                self._accessors[(facts.module, name)] = (returned, facts)
        # how many accessors of a module return each name: in `a and b`, the name fewer
        # functions share is the narrower switch (`envs.VLLM_ROCM_USE_AITER` is in every
        # `is_*_enabled` of aiter's ops, `envs.VLLM_ROCM_USE_AITER_MOE` in one)
        self._shared: Counter[tuple[str, str]] = Counter(
            (returned[1].module, part)
            for returned in self._accessors.values()
            for part in returned[0].split(" and ")
        )
        # every (module, name) a module's own name may stand for a setting by
        self._bound = {*self._env_binds, *self._optional, *self._platform, *self._accessors}

    def binds(self, facts: FileFacts, name: str) -> bool:
        """Whether a plain name the file defines or reads (not one it imports) may be a
        setting: a variable it binds, an optional package, a platform test, a function
        returning a variable. Most names a condition reads are none (`len`, `x`): their
        knobs are none, known without looking each up."""
        return (facts.module, name) in self._bound

    def function_names(self) -> set[str]:
        """The last names of the platform tests and of the functions returning a variable:
        what `self.name` must end in for `environment` to find one of them."""
        return {name.rsplit(".", 1)[-1] for _, name in (*self._platform, *self._accessors)}

    def env_doc(self, name: str) -> str | None:
        """The comment above the read of the variable `name`, when there is one."""
        return self._env_docs.get(name)

    def module_env(self, dotted: str, facts: FileFacts) -> KnobLink | None:
        root = dotted.split(".")[0]
        if root in OWN_OBJECT:
            return None
        if root not in facts.imports and "." not in dotted:
            read = self._env_binds.get((facts.module, dotted))
            where: FileFacts | None = facts
        else:
            if root not in facts.imports:
                return None
            found = self._names.lookup(self._names.qualify(facts, dotted))
            if found is None:
                return None
            where, name = found
            read = self._env_binds.get((where.module, name))
        if read is None or where is None:
            return None
        return KnobLink(
            name=read.name,
            kind=KnobKind.ENV,
            behind=dotted,
            reads=read.source or None,
            file=where.path,
            line=read.line,
            same_value=True,
            value_type=where.env_types.get(read.binds or read.name),
        )

    def environment(self, dotted: str, facts: FileFacts) -> list[KnobLink]:
        """An optional package's name (`HAS_TRITON`, `nixl = None` after a failed import)
        or a function that tests the platform (`_has_sm100_cuda()`), wherever defined, or
        the variables a function returns (`_accessed`)."""
        if not self._optional and not self._platform and not self._accessors:
            return []
        root, _, rest = dotted.partition(".")
        if root in OWN_OBJECT:
            if "." in rest:
                return []
            where: FileFacts | None = facts
            name = rest
        elif not rest and (root not in facts.imports or (facts.module, root) in self._optional):
            # the file's own optional name, also when the `try` binds it by its import
            # (`import pkg.helpers as helpers`): the import is not where it is decided
            where, name = facts, dotted
        elif root in facts.imports:
            qualname = self._names.qualify(facts, dotted)
            # an optional name is itself imported (`from pkg import X` in the `try`): it is
            # found where the `try` is, before the lookup follows the import out of the code
            module, _, name = qualname.rpartition(".")
            if (module, name) in self._optional:
                where = self._names.modules.get(module)
            else:
                found = self._names.lookup(qualname)
                if found is None:
                    return []
                where, name = found
        else:
            return []
        if where is None:
            return []
        optional = None if root in OWN_OBJECT else self._optional.get((where.module, name))
        # a compiled part of the codebase itself (`vllm._C`) is built, not installed apart
        own = optional is not None and optional[0].split(".")[0] == where.module.split(".")[0]
        if optional is not None and not own:
            kind, knob, file = KnobKind.PACKAGE, optional[0], optional[1]
            via = f"`{name}` is None (or false) when importing `{knob}` failed"
        elif (test := self._platform.get((where.module, name.rsplit(".", 1)[-1]))) is not None:
            kind, knob, file = KnobKind.PLATFORM, test[0], test[1]
            via = f"`{name}()` returns `{knob}`"
        else:
            return self._accessed(dotted, where, name)
        # `same_value`: a name that holds it as it is (a local alias, a property returning
        # it) says the same; one computed from it says nothing exact
        return [KnobLink(name=knob, kind=kind, behind=dotted, file=file, via=via, same_value=True)]

    def _accessed(self, dotted: str, where: FileFacts, name: str) -> list[KnobLink]:
        """The environment variable a function hands back as it is, called with no
        argument (`rocm_aiter_ops.is_shuffle_kv_cache_enabled()` returns
        `cls._SHUFFLE_KV_CACHE_ENABLED`, which is `envs.VLLM_ROCM_SHUFFLE_KV_CACHE_LAYOUT`):
        the knob is behind the call, as the condition writes it."""
        accessor = self._accessors.get((where.module, name.rsplit(".", 1)[-1]))
        if accessor is None:
            return []
        returned, home = accessor
        via = f"`{name}()` ({home.path}) returns `{returned}`"
        parts = sorted(returned.split(" and "), key=lambda p: self._shared[(home.module, p)])
        found = [self.module_env(part, home) for part in parts]
        if not all(env is not None and env.same_value for env in found):
            return []
        # `a and b`: the call is true only when each variable is; none of them alone
        # gives its value
        conjunct = len(parts) > 1
        return [
            msgspec.structs.replace(
                env, behind=f"{dotted}()", via=via, same_value=not conjunct, conjunct=conjunct
            )
            for env in found
            if env is not None
        ]


def direct_reads(
    reads: tuple[tuple[str, str], ...], condition: Condition, facts: FileFacts
) -> list[KnobLink]:
    """The environment reads written in a condition itself, as knobs."""
    return [
        KnobLink(
            name=name,
            kind=KnobKind.ENV,
            behind=source,
            reads=source,
            file=facts.path,
            line=condition.line,
            same_value=True,
        )
        for name, source in reads
    ]
