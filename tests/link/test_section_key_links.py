"""A key of a section of a JSON-valued flag's object, read through the flag's object
(`vllm_config.compilation_config.shapes_config.type`): the flag with the section as its
key and the key nested under it (`FlagIndex._section_key`); not a section with a flag of
its own, nor a name the section's constructor does not take."""

from __future__ import annotations

from test_passed_arguments import link

ARGS = """
    from dataclasses import dataclass, field


    @dataclass
    class ShapesConfig:
        kind: str = "backed"
        evaluate_guards: bool = False
        seen: int = field(default=0, init=False)


    @dataclass
    class EplbConfig:
        window_size: int = 1000


    @dataclass
    class CompilationConfig:
        shapes_config: ShapesConfig = field(default_factory=ShapesConfig)
        eplb_config: EplbConfig = field(default_factory=EplbConfig)


    @dataclass
    class EngineArgs:
        compilation_config: CompilationConfig | None = None
        eplb_config: EplbConfig | None = None

        @staticmethod
        def add_cli_args(parser):
            parser.add_argument("--compilation-config", type=str)
            parser.add_argument("--eplb-config", type=str)
            return parser
    """

SECTIONS = {
    "eng/args.py": ARGS,
    "eng/use.py": """
        def shapes(vllm_config):
            if vllm_config.compilation_config.shapes_config.kind == "unbacked":
                raise ValueError("unbacked shapes")


        def guards(vllm_config):
            if vllm_config.compilation_config.shapes_config.evaluate_guards:
                raise ValueError("guards evaluated")


        def seen(vllm_config):
            if vllm_config.compilation_config.shapes_config.seen > 2:
                raise ValueError("seen too often")


        def window(vllm_config):
            if vllm_config.compilation_config.eplb_config.window_size < 10:
                raise ValueError("a short window")
        """,
}


def test_a_key_of_a_section_is_nested_under_the_section() -> None:
    sites = link(SECTIONS)
    for message, key, default in (
        ("unbacked shapes", "kind", None),
        ("guards evaluated", "evaluate_guards", "False"),
    ):
        knobs = [k for k in sites[message].knobs if k.name == "--compilation-config"]
        assert [(k.json_key, k.dict_key, k.key_default) for k in knobs] == [
            ("shapes_config", key, default)
        ], sites[message].knobs
        assert "section `shapes_config`" in (knobs[0].via or "")


def test_state_of_a_section_or_a_section_with_its_own_flag_is_no_nested_key() -> None:
    sites = link(SECTIONS)
    assert not any(k.dict_key for k in sites["seen too often"].knobs), sites["seen too often"]
    # `eplb_config` has a flag of its own: its key is matched there, not nested
    knobs = sites["a short window"].knobs
    assert not any(k.dict_key for k in knobs), knobs
    assert [k.name for k in knobs] == ["--eplb-config"], knobs


OWN = {
    "eng/args.py": """
    from dataclasses import dataclass, field


    @dataclass
    class ShapesConfig:
        kind: str = "backed"
        evaluate_guards: bool = False

        def __post_init__(self):
            if self.evaluate_guards and self.kind == "unbacked":
                raise ValueError("guards of unbacked shapes")


    @dataclass
    class PrefetchConfig:
        group_size: int = 0
        num_in_group: int = 1


    @dataclass
    class SharedConfig:
        width: int = 0

        def __post_init__(self):
            if self.width < 0:
                raise ValueError("a negative width")


    @dataclass
    class CompilationConfig:
        shapes_config: ShapesConfig = field(default_factory=ShapesConfig)
        shared_config: SharedConfig = field(default_factory=SharedConfig)

        def check(self):
            if self.shapes_config.evaluate_guards:
                raise ValueError("guards asked for")


    @dataclass
    class OffloadConfig:
        prefetch: PrefetchConfig = field(default_factory=PrefetchConfig)
        shared_config: SharedConfig = field(default_factory=SharedConfig)

        def check(self):
            if self.prefetch.num_in_group > self.prefetch.group_size:
                raise ValueError("more in a group than its size")


    @dataclass
    class EngineArgs:
        compilation_config: CompilationConfig | None = None
        group_size: int = PrefetchConfig.group_size
        num_in_group: int = PrefetchConfig.num_in_group

        @staticmethod
        def add_cli_args(parser):
            parser.add_argument("--compilation-config", type=str)
            return parser
    """,
}


def test_a_sections_own_key_is_nested_under_the_section_of_the_flags_json() -> None:
    # `self.x` in the section's class, `self.section.x` in the class holding it: the key
    # the user writes under the section in `--compilation-config`'s JSON
    sites = link(OWN)
    for message in ("guards of unbacked shapes", "guards asked for"):
        knobs = [k for k in sites[message].knobs if k.name == "--compilation-config"]
        found = {(k.json_key, k.dict_key, k.key_default) for k in knobs}
        assert ("shapes_config", "evaluate_guards", "False") in found, sites[message].knobs
        assert all("section `shapes_config`" in (k.via or "") for k in knobs), knobs


def test_a_section_of_a_class_no_json_flag_takes_is_no_key() -> None:
    # `OffloadConfig` is no flag's JSON object: its section's keys are written by plain
    # flags of other names (`group_size: int = PrefetchConfig.group_size`), not matched here
    knobs = link(OWN)["more in a group than its size"].knobs
    assert not any(k.dict_key for k in knobs), knobs


def test_a_class_held_as_a_section_by_two_classes_is_no_key_of_either() -> None:
    # `SharedConfig` is a section of the compilation config and of the offload config:
    # which object the check's is, the code does not say
    assert not link(OWN)["a negative width"].knobs
