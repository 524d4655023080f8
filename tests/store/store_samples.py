"""Hand-built sites, files and version metadata for the store tests."""

from __future__ import annotations

from collections.abc import Iterator

from errdex.facts import (
    Condition,
    ConditionKind,
    ErrorSite,
    MessageTemplate,
    Placeholder,
    SiteKind,
    Variant,
)
from errdex.ids import error_id
from errdex.linked_facts import ExceptionInfo, IndexedSite
from errdex.sources.base import VersionInfo
from errdex.store import StoredSite

PROJECT = "demo"


def version_info(label: str = "1.0", revision: str = "a" * 40, **extra: str) -> VersionInfo:
    """A git version of the demo project with a GitHub-style link template."""
    fields: dict[str, str | None] = {
        "project": PROJECT,
        "version": label,
        "revision": revision,
        "date": "2024-05-01T12:00:00+00:00",
        "source_kind": "git",
        "source": "demo-repo",
        "link_template": "https://example.org/demo/blob/{revision}/{path}#L{line}-L{end_line}",
        "tracker_url": "https://example.org/demo/issues",
    }
    fields.update(extra)
    return VersionInfo(**fields)  # type: ignore[arg-type]


# raise ValueError(f"Model {model_id} does not support PIECEWISE CUDA graphs") when not v2
PIECEWISE = IndexedSite(
    id=error_id(PROJECT, "ValueError", "piecewise", "demo.config", "Config.validate"),
    file="demo/config.py",
    module="demo.config",
    site=ErrorSite(
        kind=SiteKind.RAISE,
        exception="ValueError",
        message=MessageTemplate.of(
            "Model ", Placeholder("model_id"), " does not support PIECEWISE CUDA graphs"
        ),
        line=6,
        end_line=6,
        function="Config.validate",
        class_name="Config",
        conditions=(
            Condition(test="self.use_v2", kind=ConditionKind.EARLY_EXIT, holds=False, line=4),
        ),
        names=("self.use_v2",),
    ),
    exception=ExceptionInfo(name="ValueError", qualname="builtins.ValueError"),
    callers=("demo.config.Config.__post_init__",),
)

# raise NotImplementedError(f"Model Runner V1 does not support: {', '.join(unsupported)}")
UNSUPPORTED = IndexedSite(
    id=error_id(PROJECT, "NotImplementedError", "mrv1", "demo.config", "Config.check_runner"),
    file="demo/config.py",
    module="demo.config",
    site=ErrorSite(
        kind=SiteKind.RAISE,
        exception="NotImplementedError",
        message=MessageTemplate.of(
            "Model Runner V1 does not support: ", Placeholder("', '.join(unsupported)")
        ),
        line=14,
        end_line=14,
        function="Config.check_runner",
        class_name="Config",
        variants=(
            Variant(
                reason=MessageTemplate.of("dual batch overlap with LoRA"),
                line=11,
                function="Config.check_runner",
                conditions=(
                    Condition(test="self.lora", kind=ConditionKind.IF, holds=True, line=10),
                ),
            ),
            Variant(
                reason=MessageTemplate.of("speculative decoding"),
                line=13,
                function="Config.check_runner",
            ),
        ),
    ),
)

# logger.warning("max_model_len %s is larger than the model allows", max_model_len)
TOO_LONG = IndexedSite(
    id=error_id(PROJECT, None, "too long", "demo.engine", "check_length"),
    file="demo/engine.py",
    module="demo.engine",
    site=ErrorSite(
        kind=SiteKind.LOG,
        exception=None,
        message=MessageTemplate.of(
            "max_model_len ", Placeholder("max_model_len"), " is larger than the model allows"
        ),
        line=3,
        end_line=3,
        function="check_length",
        level="warning",
    ),
)

SITES = (PIECEWISE, UNSUPPORTED, TOO_LONG)

FILES = {
    "demo/config.py": b"class Config:\n    def validate(self):\n        model_id = self.model\n"
    b"        if self.use_v2:\n            return\n"
    b'        raise ValueError(f"Model {model_id} does not support PIECEWISE CUDA graphs")\n',
    "demo/engine.py": b"def check_length(max_model_len):\n    if max_model_len > 4096:\n"
    b'        logger.warning("max_model_len %s is larger than the model allows", max_model_len)\n',
    "demo/unrelated.py": b"VALUE = 1\n",  # holds no site: not stored
}


def as_indexed(stored: StoredSite) -> IndexedSite:
    """The `IndexedSite` part of a stored site, to compare with what was written."""
    return IndexedSite(**{name: getattr(stored, name) for name in IndexedSite.__struct_fields__})


def synthetic_sites(count: int, file_count: int = 2_000, tag: str = "") -> Iterator[IndexedSite]:
    """`count` varied sites spread over `file_count` files, as a big version would have."""
    for n in range(count):
        k = n % file_count
        module = f"pkg.sub{k % 40}.mod{k}"
        function = f"Thing{n % 97}.method_{n % 13}"
        template = MessageTemplate.of(
            f"{tag}failure number {n} in {function}: expected ",
            Placeholder("expected"),
            " but the configuration value was ",
            Placeholder("value", conversion="r"),
        )
        yield IndexedSite(
            id=error_id(PROJECT, "ValueError", template.text, module, function),
            file=f"pkg/sub{k % 40}/mod{k}.py",
            module=module,
            site=ErrorSite(
                kind=SiteKind.RAISE,
                exception="ValueError",
                message=template,
                line=10 + n % 500,
                end_line=12 + n % 500,
                function=function,
                conditions=(
                    Condition(test=f"value > {n}", kind=ConditionKind.IF, holds=True, line=9),
                    Condition(test="strict", kind=ConditionKind.EARLY_EXIT, holds=False, line=5),
                ),
            ),
            exception=ExceptionInfo(name="ValueError", qualname="builtins.ValueError"),
        )


def synthetic_files(file_count: int = 2_000, size: int = 12_000) -> dict[str, bytes]:
    """Contents for the files of `synthetic_sites`, each about `size` bytes of Python."""
    files = {}
    for n in range(file_count):
        line = f"def function_{n}(value):  # line of file {n}\n    return value * {n}\n"
        files[f"pkg/sub{n % 40}/mod{n}.py"] = (line * (size // len(line) + 1)).encode()
    return files
