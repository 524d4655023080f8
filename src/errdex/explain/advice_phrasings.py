"""Messages that state a precondition or a requirement, read as the instruction they imply.

Beside the imperative sentences `advice.py` reads, a message often says what must hold
rather than what to do: "'.elapsed' may only be accessed after the response has been read
or closed", "Stream options can only be defined when `stream=True`", "color expected after
'on'", "Rubin FP8 requires a CuTe DSL build with rubin_helpers", "fp8 benchmark currently
supports only --backend cute" (one flag with its one value: pass it). Each gives the user's way
out in its own words; this module turns it into an instruction ("First make sure the
response has been read or closed, then access '.elapsed'"). A sentence about calling code
("should only be called when ...") speaks to the program's own authors and is left out, as
is a bare "X requires Y" (a configuration check, whose settings the page already reads),
unless what it requires is GPU architectures alone ("requires SM90, SM100 or SM103": the
machine to run on). How a thing must be applied or called ("`@model_serializer` must be
applied to instance methods") is an instruction too; `advised` offers it only where it
speaks to a user (a decorator they wrote, a function they call). "cannot import name X from
Y" (or "Module Y does not define a X attribute") asks for the name, or a version of Y that
has it. "Invalid signature for validator V: ..., should be: (cls, values)" gives the form the
user's declaration takes, "cannot specify multiple X" one X, and "S does not support USE"
the use to leave out (offered by `advised` only where nothing else is said). How what the
user gives must be formed ("fields may not start with an underscore", "Type {cls.__name__}
must inherit from typing.Generic", "List argument must consist only of tuples or
dictionaries") is offered, as a decorator's rule is, only where it speaks to a user; a file
the checkpoint lacks ("... is missing preprocessor_config.json") is to be supplied. A clause
may speak of what the clause before it names: "expected one of ..." after a value refused
by what it is ("unsupported Inkling message role {role!r}"; without such a name the list
may be the program's own: a shape, a rank it pairs), "a layer may not be referenced by
both" after "both a and b". "Please verify that the loaded LoRA module is correct" asks the
user to make it hold: "Make sure that the loaded LoRA module is correct". A value said not to
be given ("A column with an Identity object cannot specify autoincrement=False", "X cannot be
set to True when ...") or named as why a thing is refused ("not available due to
lazy='raise'") is to be left out (`stated_refusal`). A base the user's class is refused for
lacking ("{cls} cannot be parametrized because it does not inherit from typing.Generic") is
the base to give it.
"""

from __future__ import annotations

import re

from errdex.explain.plain import code
from errdex.explain.stated_exclusive import exclusive_instruction
from errdex.explain.stated_limits import INFINITIVE, plain, stated_limit
from errdex.explain.stated_refusal import refused_value
from errdex.explain.stated_values import value_rule

# "X can only be set when Y", "X may only be accessed after Y": the subject, the verb, the
# kind of precondition and the precondition.
_ONLY_WHEN = re.compile(
    r"^(?P<subject>\S.{0,80}?)\s+(?:can|may|should|must)\s+only\s+be\s+(?P<verb>accessed|read|"
    r"used|set|defined|given|passed|specified|provided|enabled)\s+(?P<when>after|when|if)\s+"
    r"(?P<condition>\S.*?)\s*\.?$",
    re.I,
)
# "version_id_col should only be specified on the base-most mapper", "get() can only be used
# against a single mapped class": where or with what the thing goes (a subject that is the
# code's own, "this" or a private name, speaks to the program's authors: left out).
_ONLY_WHERE = re.compile(
    r"^(?P<subject>(?!(?:this|it|that|which)\b)[^_\s].{0,80}?)\s+(?:can|may|should|must)\s+"
    r"only\s+be\s+(?P<verb>used|set|specified|given|passed|provided|enabled|defined|applied|"
    r"added)\s+(?P<where>on|against|for|to|in|with(?:in)?)\s+(?P<place>\S.*?)\s*\.?$",
    re.I,
)
# a private name in the subject (`The _InsertSentinelColumnDefault`), a bare class name
# alone (`ChunkedLocalAttentionManager`, `DPEngineCoreProc`) or with what it holds
# ("LMHead's weights"), or a component's title ("Aiter Flash Attention Metadata Builder"): a
# part the program composes itself
_OWN_SUBJECT = re.compile(
    r"(?:^|\s)_\w|^[A-Z]\w*[A-Z]\w*(?:'s\s.*)?$|^(?:[A-Z]\w*\s+){2,}[A-Z]\w*$"
)
# verbs of giving a value: leaving it out is a way out too
_GIVEN = frozenset({"set", "specified", "given", "passed", "provided", "enabled", "defined"})
# "The JSON cast operator JSON.as_float() only works with a JSON index expression e.g.
# col['q'].as_float()": what the thing works with, and the message's example of that form.
_ONLY_WORKS = re.compile(
    r"^(?P<subject>(?!(?:this|it|that|which)\b)[^_\s].{0,80}?)\s+only\s+works?\s+"
    r"(?P<where>with|on|for)\s+(?P<what>\S.{0,80}?),?\s+(?:e\.g\.|for\s+example)[,:]?\s+"
    r"`?(?P<example>[^`\s]\S*?)`?\s*\.?$",
    re.I,
)
# "color expected after 'on'": a token of a string the user wrote is missing after another.
_EXPECTED_AFTER = re.compile(
    r"^(?P<what>[\w'\"`]+(?:\s+[\w'\"`]+){0,2}?)\s+expected\s+(?P<where>after|before)\s+"
    r"(?P<anchor>\S.*?)\s*\.?$",
    re.I,
)
# "requires a CuTe DSL build with rubin_helpers", "requires a compatible flashinfer-python
# package": a build, an installation or a package of something, named by the message.
_REQUIRES_BUILD = re.compile(
    r"\brequires\s+(?P<what>(?:(?:a|an|the)\s+)?(?:(?!and\b|or\b)[\w.\-]+\s+){0,4}?"
    r"(?:build|installation|package|version)\b(?:\s+(?:with|that|of|which)\b(?:[^.;]|\.(?=\w))*)?)",
    re.I,
)

# "torch_profiler_dir is only applicable when profiler is set to 'torch'", "qo_offset is only
# valid when causal=True": a value that has effect only in one case, refused in the others
_ONLY_APPLIES = re.compile(
    r"^(?P<subject>(?!(?:this|it|that|which)\b)[^_\s].{0,80}?)\s+(?:is\s+|are\s+)?only\s+"
    r"(?:applicable|valid|meaningful|honou?red|effective)\s+(?P<when>when|if)\s+"
    r"(?P<condition>\S.*?)\s*\.?$",
    re.I,
)
# "dimensions must be unset (received dimensions=5)": a value the user gave that this case
# takes none of (an aside on what was received is no part of the subject's name)
_MUST_BE_UNSET = re.compile(
    r"^(?P<subject>(?!(?:this|it|that|which)\b)[`'\"]?[A-Za-z][\w.`'\"-]{0,40}?)\s+"
    r"(?:must|should)\s+(?:be\s+(?:left\s+)?unset|be\s+left\s+out)\b"
    r"(?P<rest>\s+(?:when|if|for|in|with)\b[^()]*?)?\s*(?:\([^()]*\))?\s*\.?$",
    re.I,
)

# "supports only --backend cute", "is only supported with --dtype bfloat16", "requires
# --enforce-eager": the one flag (and its value) the message says this case takes.
_ONLY_FLAG = re.compile(
    r"\b(?:supports?\s+only|only\s+supports?|only\s+accepts?|only\s+works\s+with|"
    r"is\s+only\s+supported\s+with|requires?)\s+`?(?P<flag>--[a-z][\w-]*)"
    r"(?:[ =](?P<value>[\w.:/-]+))?`?(?P<rest>.*)$",
    re.I,
)
# "requires VLLM_USE_V2_MODEL_RUNNER=1", "relaunch with VLLM_USE_V2_MODEL_RUNNER=1",
# "requires the V2 model runner (VLLM_USE_V2_MODEL_RUNNER=1)", "Turn it off by setting X=0":
# the environment variables, with their values, that the case the sentence names needs (not
# one it names as the cause: "X=1 requires a build of ...").
_ENV_VALUE = r"`?[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+=[\w.:/-]*\w`?"
_NEEDS_ENV = re.compile(
    r"\b(?:requires?|needs?|(?:re)?launch\s+with|by\s+setting)\s+(?:[^.;:()`]{1,60}?\(\s*)?"
    rf"(?P<values>{_ENV_VALUE}(?:\s+and\s+{_ENV_VALUE})*)\s*\)?\s*[.;!]?\s*$"
)
# what may follow the flag: nothing more than "to be set" (not "to be a multiple of it", nor
# another flag or a choice)
_NOTHING_MORE = re.compile(
    r"^\s*(?:to\s+be\s+(?:set|given|passed|enabled|specified)\b)?\s*[.;,!]?\s*$", re.I
)
# words after a flag that are no value of it
_NO_FLAG_VALUE = frozenset({"or", "and", "to", "for", "if", "when", "with", "the", "a", "an"})
# the other values the flag may take, after its first, to the sentence's end: "requires
# --mamba-backend triton or flashinfer", "fp8, fp16 or bf16" (one word each: "or Model
# Runner V1" names something else)
_OTHER_VALUES = re.compile(r"((?:\s*(?:,\s*(?:or\s+)?|\s+or\s+)\s*[\w.:-]+)+)\s*[.;!]?\s*$", re.I)
_OTHER_VALUE = re.compile(r"[\w.:-]+")
# a number, whose other values are numbers too
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
# words that bound or qualify a value rather than name another ("or higher")
_NO_OTHER_VALUE = frozenset(
    "higher lower above below later newer older greater less more fewer larger smaller it "
    "them none not so similar equivalent both either any all each".split()
)
# the one flag's advice, given a value ("Pass `--b v`"), up to the sentence it quotes
_PASS_FLAG = "Pass `--"
_AS_SAID = ", as the message says"
_FLAG_GIVEN = re.compile(r"`(--[a-z][\w-]*) [^`]+`")

# "other types require an explicit default factory set using `DefaultDict[..., Annotated[...,
# Field(default_factory=...)]]`": what to give, and the form the user writes it in (code).
_REQUIRES_SET_USING = re.compile(
    r"\brequires?\s+(?P<what>(?:an?|the)\s+[^.;,`]{1,60}?)\s+(?P<verb>set|given|specified|"
    r"provided|defined|passed)\s+(?:using|via)\s+`(?P<form>[^`]+)`\s*\.?$",
    re.I,
)

# "This model requires a 'pooling' field in its HF config (one of 'avg', 'cls'), but none
# was found": what the user's input lacks, a name it quotes (not "requires a multimodal
# processor but none is available", a part of the program no user hands it)
_REQUIRES_NONE_FOUND = re.compile(
    r"\brequires?\s+(?P<what>(?:an?|the)\s+[`'\"][\w.-]+[`'\"]\s[^;]{1,120}?),?\s+but\s+"
    r"(?:none|nothing|no\s+[\w-]+)"
    r"\s+(?:was|were|is|are|has\s+been)\s+(?:found|given|provided|set|specified|available|"
    r"configured|registered)\b",
    re.I,
)

# "Multipart file uploads require 'io.BytesIO', not 'io.StringIO'": the class to use in
# place of the one given (class names: a dotted or capitalised name, not a value's word)
_CLASS = r"[`'\"](?:[a-z_][\w]*\.)*[A-Z]\w*[`'\"]"
_REQUIRES_NOT = re.compile(
    rf"\b(?i:requires?)\s+(?P<want>{_CLASS})\s*,\s*(?i:not)\s+(?P<given>{_CLASS})\s*\.?$"
)

# "`@model_serializer` must be applied to instance methods", "Type parameters should be
# placed on typing.Generic, not BaseModel", "`@validator` fields should be passed as separate
# string args": how the user's own declaration or call must be written. The subject names
# what the user wrote (a decorator, a call, a few words), no placeholder and no part the
# program composes itself; the verb and where it goes say the rule, not an order of calls
# ("before ...", `stated_order`) nor what the program fills in ("set by ...").
_MUST_BE_DONE = re.compile(
    r"^(?P<subject>(?!(?:this|it|that|which|exactly|either|one|at)\b)[^_\s{}][^{}]{0,60}?)\s+"
    r"(?:must|should)\s+be\s+(?P<verb>applied|used|passed|placed|called|declared|defined)\s+"
    r"(?P<where>to|on|as|with|inside|outside\s+of|outside|within)\s+"
    r"(?P<place>(?![^{}]*\{)\S.*?)\s*\.?$",
    re.I,
)
# "expected one of {sorted(ROLE_MESSAGE_TOKENS)}", "Expected one of: a, b.": the values the
# thing the clause before names may take
# ("Must be one of {supported}", "should be one of ...": the same, said as what it must be)
_EXPECTED_ONE_OF = re.compile(
    r"^(?:but\s+)?(?:expected|(?:it\s+)?(?:must|should)\s+be)\s+(?:one|any)\s+of\s*:?\s*"
    r"(?P<values>\S.*?)?\s*\.?$",
    re.I,
)
MUST_BE_ONE_OF = re.compile(r"^(?:it\s+)?(?:must|should)\s+be\s+(?:one|any)\s+of\b", re.I)
# ... and that clause, refusing a value it names by what it is: "unsupported Inkling message
# role {role!r}", "Unknown kv_offload_backend {x!r}", "Invalid cohere_format={fmt!r}",
# "Unrecognized cmd4 grounding value: {value!r}" (a value put in, or quoted)
_GOT = r"(?:\{[^{}]+\}|'[^'{}]*'|\"[^\"{}]*\"|`[^`{}]*`)"
_UNKNOWN_VALUE = re.compile(
    r"^(?:unknown|unsupported|invalid|unrecognized|unrecognised)\s+"
    rf"(?P<what>[A-Za-z][\w .-]{{0,60}}?)\s*(?:=\s*|:\s*)?{_GOT}\s*[.;:]?$",
    re.I,
)
# "moe_backend='{runner_backend}' is not supported for FP8 MoE", "targets[{p}] = {s} is not a
# valid online shorthand name": a named value (or one of what it names) refused
_NAMED_NOT_SUPPORTED = re.compile(
    r"^(?P<what>[a-z_][\w.]*)\s*=\s*'?\{[^{}]+\}'?\s+is\s+not\s+supported\b[^;]*?[.;:]?$"
    r"|^\S.*?\s+is\s+not\s+an?\s+(?:valid|supported|known|recognized)\s+"
    r"(?P<kind>[a-z][\w -]{1,40}?)\s*[.;:]?$",
    re.I,
)
# "fields may not start with an underscore, ignoring ...", "structured_outputs.regex must not
# contain a NUL character": what the thing the user gives must not be like (how a name is
# written, what a value holds), up to a comma that says what the code does instead
_MUST_NOT = re.compile(
    r"^(?P<subject>(?!(?:this|it|that|which|there|you|we|i)\b)[A-Za-z`'\"][\w.`'\" -]{0,40}?)\s+"
    r"(?:"
    # ("may not include" says what may be so: only a name's form is a rule after "may")
    r"(?:(?:must|should|can)\s*not|cannot)\s+(?P<verb>start|begin|end|contain|include)\s+|"
    r"may\s+not\s+(?P<form>start|begin|end)\s+)"
    r"(?P<rest>(?:with\s+)?[^,;{}]{1,80}?)\s*(?:[,;].*)?\.?$",
    re.I,
)
# "Type {cls.__name__} must inherit from typing.Generic before being parameterized", "List
# argument must consist only of tuples or dictionaries": what the user's class derives from,
# what the user's list holds
_MUST_DERIVE = re.compile(
    r"^(?P<subject>(?!(?:this|it|that|which|there|you|we|i)\b)(?:(?:type|class)\s+\{|[A-Za-z`'\"])"
    r"[\w.`'\"{}() -]{0,50}?)"
    r"\s+(?:must|should|needs\s+to|has\s+to)\s+(?P<verb>inherit\s+from|subclass|derive\s+from|"
    r"consist\s+(?:only\s+)?of)\s+(?P<rest>[^,;]{1,80}?)\s*\.?$",
    re.I,
)
# "{cls} cannot be parametrized because it does not inherit from typing.Generic": what the
# user's class is refused for lacking, said as the base it lacks
_LACKS_BASE = re.compile(
    r"^(?P<subject>(?:\{[A-Za-z_][\w.]*\}|[`'\"]?[A-Z]\w*[`'\"]?))\s+(?:cannot|can't|can\s+not)\s+"
    r"be\s+[a-z]+\s+because\s+it\s+(?:does\s+not|doesn't)\s+(?P<verb>inherit\s+from|subclass|"
    r"derive\s+from)\s+(?P<rest>[^,;{}]{1,80}?)\s*\.?$",
)
# "... matches both quantization_config.ignore and quantization_config.targets ...; a layer
# may not be referenced by both": the two places named before, and the thing that may be in
# one of them only
_BOTH_NAMED = re.compile(
    r"\bboth\s+(?P<a>[`'\"]?[A-Za-z_][\w.\-\[\]]*[`'\"]?)\s+and\s+"
    r"(?P<b>[`'\"]?[A-Za-z_][\w.\-\[\]]*[`'\"]?)(?=[\s;,.(]|$)"
)
_NOT_IN_BOTH = re.compile(
    r"^(?:an?|the|each|one)\s+(?P<noun>[a-z]\w*(?:\s+[a-z]\w*)?)\s+(?:may|must|can|should)\s*not\s+"
    r"be\s+\w+\s+(?:by|in|from|to)\s+both\s*\.?$",
    re.I,
)
# "TORCH_COMPILE_DISABLE is set, disabling torch.compile. This is equivalent to setting
# -cc.mode=none": what the user set, and the flags that do the same without it
_CASE_SET = re.compile(r"^(?P<case>[A-Za-z][\w -]{0,40}?)\s+(?:is\s+|was\s+)?set\b", re.I)
_OPTION = r"-{1,2}[a-z][\w.\-]*=\S*[^\s.,;]"  # a final full stop ends the sentence
_EQUIVALENT = re.compile(
    rf"^this\s+is\s+equivalent\s+to\s+(?:setting|passing)\s+(?P<flags>{_OPTION}"
    rf"(?:\s+(?:and\s+)?{_OPTION})*?)\s*\.?$",
    re.I,
)
# How the way out the message calls equivalent ends: the message's own way to keep what the
# user asked for without the warning (`advised` ranks it first)
IN_PLACE = "in place of setting"
# "NOTE vision checkpoint is missing preprocessor_config.json": a file the thing the user
# points the program at lacks
_MISSING_FILE = re.compile(
    r"^(?P<what>(?!(?:this|it|that|which)\b)\S.{0,60}?)\s+is\s+missing\s+(?:the\s+|a\s+)?"
    r"`?(?P<file>[\w.\-/]+\.(?:json|ya?ml|txt|model|safetensors|bin|pt|toml|cfg|jinja))`?"
    r"(?:\s+file)?\s*\.?$",
    re.I,
)
# "Please verify that the loaded LoRA module is correct", "Please check that the URI is
# correct": what the user must make hold, asked as a check (not "check whether ...", "check
# the logs": a question, or where to look)
_CHECK_THAT = re.compile(
    r"^(?:please,?\s+)?(?:verify|check|confirm|double-check)\s+that\s+(?P<clause>\S.{3,}?)\s*[.!]?$",
    re.I,
)
# How the way out the values the message lists give begins.
LISTED = "Use one of the values the message lists"
# How the way out a required GPU architecture gives begins.
ARCH_REQUIRED = "Run it on a GPU of the architecture it requires"

# "cannot import name 'x' from 'y'": the module the user named has no such name
_CANNOT_IMPORT = re.compile(
    r"^cannot\s+import\s+name\s+(?P<name>\S+)\s+from\s+(?P<module>\S+?)\s*\.?$", re.I
)

# "Module 'y' does not define a 'x' attribute": the same as "cannot import name"
_QUOTES = "`'\""
_NOT_DEFINED_IN = re.compile(
    r"^module\s+(?P<module>\S+)\s+does\s+not\s+define\s+(?:an?\s+)?(?P<name>\S+)\s+"
    r"(?:attribute|class|name)(?:/(?:attribute|class|name))?\s*\.?$",
    re.I,
)
# "cannot specify multiple `Annotated` `Field`s for {field_name!r}": one of them, not several
_MULTIPLE_REFUSED = re.compile(
    r"^(?:you\s+)?(?:cannot|can't|can\s+not|may\s+not)\s+(?P<verb>specify|pass|use|give|"
    r"provide|define|set)\s+multiple\s+(?P<what>\S.{0,60}?)(?P<rest>\s+(?:for|on|in|of)\s+"
    r"\S.{0,60}?)?\s*\.?$",
    re.I,
)
# "Invalid signature for validator {name}: {sig}, should be: (cls, values)": the form the
# user's declaration must have, said after what it got; a parenthesised form only (a
# signature, a tuple): a single word after "should be" is a type or a quality ("positive")
_SHOULD_BE_FORM = re.compile(
    r"^invalid\s+(?P<what>[a-z]+(?:\s+[a-z]+)?)\s+(?:for|of)\s+(?P<whose>[^:,]{1,60}?):\s+"
    r"[^:]*?,\s+should\s+be:?\s+(?P<form>\([^()]*\))(?P<rest>,\s+\S.*?)?\s*\.?$",
    re.I,
)

# "`RootModel` does not support setting `model_config['extra']`", "Star option does not
# support sub-options", "The tuple type does not support being fetched as a column": what
# the thing refuses (a use of it the user wrote), not what the program lacks ("... yet")
_NOT_SUPPORTED = re.compile(
    r"^(?P<subject>(?!(?:this|it|that|which|the\s+current|current|your|and|but|or|so)\b)"
    # (a subject of its own: not a clause that says something else first, "X is enabled but Y")
    r"(?![^{};,]*\b(?:is|are|was|were|but)\b)[^{}\s][^{};,]{0,60}?)"
    r"\s+does\s+not\s+support\s+(?P<what>(?![^.;]*\byet\b)"
    r"(?!(?:it|this|that|them|these|those)\s*\.?$)[^{};,]{2,80}?)\s*\.?$",
    re.I,
)

# "Step5 DSA requires SM90, SM100 or SM103; got {capability}", "K3 fusion requires SM100":
# GPU architectures alone, what the machine must have (not "CUDA tensors", nor a build).
_ARCH = r"(?:SM\s?\d{2,3}[a-z]?\+?|SM\d{1,2}x|Hopper|Blackwell|Ampere|Ada(?:\s+Lovelace)?)"
_REQUIRES_ARCH = re.compile(
    rf"\brequires?\s+(?:an?\s+)?(?P<archs>{_ARCH}(?:(?:\s*,\s*|\s*/\s*|\s+or\s+|,\s+or\s+)"
    rf"{_ARCH})*)(?:\s*(?:-class\s+)?(?:GPUs?|devices?))?\s*(?:[;,.]\s*got\s+\S+?)?\s*[.;]?$"
)

# "Setting encoding after `text` has been accessed is not allowed": the order it refuses,
# turned round ("Set encoding before `text` is accessed").
_AFTER_REFUSED = re.compile(
    r"^(?P<doing>setting|changing|modifying|adding|passing|calling)\s+(?P<what>\S.{0,40}?)\s+"
    r"after\s+(?P<then>\S.{0,60}?)\s+(?:has|have)\s+been\s+(?P<done>[a-z]+)\s+"
    r"is\s+not\s+allowed\s*\.?$",
    re.I,
)
_DOING = {
    "setting": "Set",
    "changing": "Change",
    "modifying": "Modify",
    "adding": "Add",
    "passing": "Pass",
    "calling": "Call",
}


def implied_instruction(sentence: str) -> tuple[str, str] | None:
    """(the instruction, its kind) a sentence implies, or None when it states no
    precondition or requirement a user meets."""
    text = sentence.strip()
    match = _ONLY_WHEN.match(text)
    if match is not None:
        subject, condition = match["subject"].strip(), match["condition"]
        subject = _after_verb(subject)
        verb = INFINITIVE[match["verb"].lower()]
        if match["when"].lower() == "after":
            return f"First make sure {condition}, then {verb} {subject}", "input"
        return f"{verb.capitalize()} {subject} only when {condition} (or leave it out)", "input"
    match = _ONLY_WHERE.match(text)
    if match is not None and not _OWN_SUBJECT.search(match["subject"]):
        subject = _after_verb(match["subject"].strip())
        verb = INFINITIVE[match["verb"].lower()]
        left = " (or leave it out)" if match["verb"].lower() in _GIVEN else ""
        place = re.sub(r",?\s+(?:i\.e|e\.g)$", "", match["place"])
        where = f"{match['where'].lower()} {place}"
        return f"{verb.capitalize()} {subject} only {where}{left}", "input"
    match = _ONLY_WORKS.match(text)
    if match is not None and not _OWN_SUBJECT.search(match["subject"]):
        subject = _after_verb(match["subject"].strip())
        where = f"{match['where'].lower()} {match['what'].strip()}"
        example = match["example"]
        return f"Use {subject} only {where}, e.g. `{example}`", "input"
    match = _ONLY_APPLIES.match(text)
    named = match is not None and re.search(r"\{(?![\w.]+\})", match["subject"]) is None
    if match is not None and named and not _OWN_SUBJECT.search(match["subject"]):
        subject, condition = match["subject"].strip(), match["condition"]
        return f"Set {subject} only {match['when'].lower()} {condition} (or leave it out)", "input"
    match = _MUST_BE_UNSET.match(text)
    if match is not None and not _OWN_SUBJECT.search(match["subject"].strip("`'\"")):
        rest = (match["rest"] or "").rstrip()
        return f"Leave {match['subject']} unset{rest}", "input"
    done = stated_use(text) or unsupported_use(text)
    if done is not None:
        return done, "input"
    done = form_rule(text)
    if done is not None:
        return done, "input"
    done = moved_name(text)
    if done is not None:
        return done, "input"
    match = _MISSING_FILE.match(text)
    if match is not None and "{" not in match["what"]:
        what = _lowered(match["what"].strip())
        what = what if what.startswith(("the ", "your ")) else f"the {what}"
        return f"Supply `{match['file']}` in {what} you load (a complete copy of it)", "input"
    match = _CHECK_THAT.match(text)
    if match is not None and "{" not in match["clause"]:
        return f"Make sure that {match['clause']}", "input"
    match = _CANNOT_IMPORT.match(text)
    if match is not None:
        return _name_of_module(match["name"], match["module"])
    match = _NOT_DEFINED_IN.match(text)
    if match is not None:
        name, module = (f"`{match[g].strip(_QUOTES)}`" for g in ("name", "module"))
        return _name_of_module(name, module)
    match = _MULTIPLE_REFUSED.match(text)
    if match is not None:
        verb = match["verb"].capitalize()
        # "only one of the processes", not a singular cut from the plural ("processe")
        return f"{verb} only one of the {match['what']}{match['rest'] or ''}", "input"
    match = _SHOULD_BE_FORM.match(text)
    if match is not None:
        rest = f" ({match['rest'].lstrip(', ')})" if match["rest"] else ""
        return f"Give the {match['whose']} the {match['what']} `{match['form']}`{rest}", "input"
    match = _REQUIRES_ARCH.search(text)
    if match is not None:
        return f"{ARCH_REQUIRED} ({match['archs']})", "environment"
    match = _EXPECTED_AFTER.match(text)
    if match is not None and not re.search(r"\bthan$", match["what"], re.I):
        return f"Put {match['what']} {match['where']} {match['anchor']}", "input"
    match = _ONLY_FLAG.search(text)
    if match is not None:
        value, rest = match["value"], match["rest"]
        if value is not None and value.lower() in _NO_FLAG_VALUE:
            value, rest = None, f" {value}{rest}"  # "--x to be set": no value, then words
        if _NOTHING_MORE.match(rest):
            given = f"{match['flag']} {value.rstrip('.')}" if value else match["flag"]
            return f"Pass `{given}`", "setting"
        others = _other_values(value, rest) if value is not None else None
        if others:
            given = [f"`{match['flag']} {v}`" for v in (value, *others)]
            return f"Pass {', '.join(given[:-1])} or {given[-1]}", "setting"
    match = _NEEDS_ENV.search(text)
    if match is not None:
        values = [v.strip("`") for v in re.split(r"\s+and\s+", match["values"])]
        return "Set " + " and ".join(f"`{v}`" for v in values), "setting"
    match = _REQUIRES_NOT.search(text)
    if match is not None:
        return f"Use {match['want']}, not {match['given']}", "input"
    match = _AFTER_REFUSED.match(text)
    if match is not None:
        verb = _DOING[match["doing"].lower()]
        return f"{verb} {match['what']} before {match['then']} is {match['done']}", "input"
    match = _REQUIRES_SET_USING.search(text)
    if match is not None:
        verb = INFINITIVE[match["verb"].lower()].capitalize()
        return f"{verb} {match['what']} using `{match['form']}`", "input"
    match = _REQUIRES_NONE_FOUND.search(text)
    if match is not None:
        return f"Provide {match['what']}", "input"
    match = _REQUIRES_BUILD.search(text)
    if match is not None:
        return f"Install what it requires ({match['what'].strip()})", "environment"
    limit = stated_limit(text) or exclusive_instruction(text)
    if limit is not None:
        return limit
    refused = refused_value(text)
    return (refused, "input") if refused is not None else None


def given_flags(advice: str | None) -> list[str]:
    """The flags the one flag's advice ("Pass `--b v`", "Pass `--b v` or `--b w`", and so
    its solution's text, up to the sentence it quotes) gives a value; none for any other
    advice, or a flag passed bare."""
    if advice is None or not advice.startswith(_PASS_FLAG):
        return []
    own = advice.partition(_AS_SAID)[0]
    return list(dict.fromkeys(_FLAG_GIVEN.findall(own)))


def _other_values(first: str, rest: str) -> list[str] | None:
    """The other values a flag's first value is one of, when the rest of the sentence lists
    only values (`or flashinfer`, `, fp16 or bf16`); else None. A word that
    bounds the value ("or higher"; after a number, any word), a quantifier ("or both") or
    another flag is no value of it."""
    listed = _OTHER_VALUES.match(rest)
    if listed is None:
        return None
    values = [v.rstrip(".") for v in _OTHER_VALUE.findall(listed.group(1))]
    values = [v for v in values if v.lower() != "or"]
    if not values or any(v.lower() in _NO_FLAG_VALUE | _NO_OTHER_VALUE for v in values):
        return None
    if any(v.startswith("-") and not _NUMBER.fullmatch(v) for v in values):
        return None  # another flag ("or --b"): `--a --b` is no value of `--a`
    if _NUMBER.fullmatch(first) and not all(_NUMBER.fullmatch(v) for v in values):
        return None  # a number's "or bigger", "or earlier": a bound, not another value
    return values


# "The association proxy can't be used as a plain column expression; it only works inside
# of a comparison expression": the use refused, then the one the thing works in
_REFUSED_USE = re.compile(
    r"^(?P<subject>(?!(?:this|it|that|which)\b)[^_\s{}][^{};]{0,60}?)\s+(?:can't|cannot|"
    r"can\s+not|may\s+not)\s+be\s+used\s+(?P<as>as|in|for)\s+(?P<what>[^{};]{1,60}?)\s*;?$",
    re.I,
)
_IT_ONLY_WORKS = re.compile(
    r"^(?:but\s+)?it\s+only\s+works\s+(?P<where>(?:inside|within|in|with|on|as|for)"
    r"(?:\s+of)?)\s+(?P<place>[^{};]{1,80}?)\s*\.?$",
    re.I,
)
# The way out of that pair: a use of the thing in the user's code (`advised` offers it only
# where the sentence speaks to a user, as a thing's stated use)
WORKS_INSTEAD = re.compile(r"^Use \S.*, not (?:as|in|for) \S.*[^.]$")


def paired_rule(before: str, clause: str) -> str | None:
    """The instruction a clause gives that speaks of what the clause before it names: the
    values of what it refused (`listed_choice`), the one of two places a thing may be in
    ("Keep the layer in only one of `a` and `b`"), or the flags equivalent to what the user
    set ("Pass `-cc.mode=none` in place of setting `TORCH_COMPILE_DISABLE`"), or None."""
    same = _EQUIVALENT.match(clause.strip())
    case = _CASE_SET.match(before.strip()) if same is not None else None
    if same is not None and case is not None:
        flags = " ".join(f for f in same["flags"].split() if f.lower() != "and")
        named = case["case"].strip()
        named = f"`{named}`" if re.fullmatch(r"[A-Z][A-Z0-9_]+", named) else named.lower()
        return f"Pass `{flags}` {IN_PLACE} {named}"
    match = _NOT_IN_BOTH.match(clause.strip())
    named = _BOTH_NAMED.search(before) if match is not None else None
    if match is not None and named is not None:
        a, b = (code(named[g].strip("`'\"")) for g in ("a", "b"))
        return f"Keep the {match['noun']} in only one of {a} and {b}"
    works = _IT_ONLY_WORKS.match(clause.strip())
    refused = _REFUSED_USE.match(before.strip()) if works is not None else None
    if works is not None and refused is not None and not _OWN_SUBJECT.search(refused["subject"]):
        subject = _after_verb(refused["subject"].strip())
        where = f"{works['where'].lower()} {works['place']}"
        return f"Use {subject} {where}, not {refused['as'].lower()} {refused['what']}"
    return listed_choice(before, clause)


def listed_choice(before: str, clause: str) -> str | None:
    """The instruction an "expected one of ..." clause gives after one that refuses a value
    and names what it is ("Use one of the values the message lists as the Inkling message
    role"), or None: without such a name the list may be of the program's own values (a
    shape, a rank it pairs)."""
    listed = _EXPECTED_ONE_OF.match(clause.strip())
    if listed is None:
        return None
    refused = _UNKNOWN_VALUE.match(before.strip()) or _NAMED_NOT_SUPPORTED.match(before.strip())
    if refused is None:
        return None
    what = (refused["what"] or refused["kind"]).strip()
    what = code(what) if re.fullmatch(r"[a-z]+(?:_[a-z0-9]+)+", what) else what
    return f"{LISTED} as the {what}"


def form_rule(sentence: str) -> str | None:
    """The instruction a sentence saying how the thing the user gives must be formed implies
    ("Make sure fields do not start with an underscore", "Make the list argument consist only
    of tuples or dictionaries"), or None. `advised` offers it only where it speaks to a user."""
    text = sentence.strip()
    match = _MUST_NOT.match(text)
    if match is not None and not _OWN_SUBJECT.search(match["subject"]):
        subject = _lowered(match["subject"].strip())
        # plain words in the plural ("fields"); a name of the code is one value (`bad_words`)
        plural = re.fullmatch(r"[A-Za-z ]*[a-z]s", subject) and not subject.endswith("ss")
        verb = (match["verb"] or match["form"]).lower()
        return f"Make sure {subject} {'do' if plural else 'does'} not {verb} {match['rest']}"
    match = _MUST_DERIVE.match(text)
    if match is not None and not _OWN_SUBJECT.search(match["subject"]):
        subject = _lowered(match["subject"].strip())
        if re.match(r"(?:type|class)\s+\{", subject, re.I):
            subject = f"your class {subject.split(None, 1)[1]}"  # the user's class
        elif not subject.startswith(("the ", "your ", "`", "'", '"', "{")):
            subject = f"the {subject}"
        verb = " ".join(match["verb"].lower().split())
        return f"Make {subject} {verb} {match['rest']}"
    match = _LACKS_BASE.match(text)
    if match is not None:
        subject = match["subject"]
        subject = (
            f"your class {subject}" if subject.startswith("{") else code(subject.strip("`'\""))
        )
        verb = " ".join(match["verb"].split())
        return f"Make {subject} {verb} {match['rest']}"
    return value_rule(text)


def _lowered(subject: str) -> str:
    """The subject as it reads after a verb: "Fields" → "fields" (not "LoRA", "`X`")."""
    return subject[0].lower() + subject[1:] if plain(subject) else subject


def unsupported_use(sentence: str) -> str | None:
    """The instruction a sentence saying what a thing does not support gives ("Use `RootModel`
    without setting `model_config['extra']`", "Do not have the tuple type fetched as a
    column in a result row"), or None."""
    match = _NOT_SUPPORTED.match(sentence.strip())
    if match is None or _OWN_SUBJECT.search(match["subject"]):
        return None
    subject, what = _after_verb(match["subject"].strip()), match["what"].strip()
    passive = re.match(r"being\s+(?P<rest>\S.*)$", what, re.I)
    if passive is not None:
        return f"Do not have {subject} {passive['rest']}"
    return f"Use {subject} without {what}"


# "`{module}:{name}` has been moved to `{new_location}`.", "'a' is deprecated and has been
# renamed to 'b'.": the name the user wrote and the one to write; "We are importing from
# `{new_location}` instead.": where the program took it from in the user's place.
_QUOTED_NAME = r"(?:`[^`\s]+`|'[^'\s]+')"
_MOVED_NAME = re.compile(
    rf"^(?P<old>{_QUOTED_NAME})\s+(?:is\s+deprecated\s+and\s+)?has\s+been\s+"
    rf"(?P<how>moved|renamed)\s+to\s*(?P<new>{_QUOTED_NAME})\s*\.?$",
    re.I,
)
_TAKEN_INSTEAD = re.compile(
    rf"^we\s+are\s+(?P<how>importing\s+from|using)\s+(?P<new>{_QUOTED_NAME})\s+instead\b",
    re.I,
)


def moved_name(sentence: str) -> str | None:
    """The instruction a sentence saying a name moved or was renamed gives: use the new
    name in place of the old one (import it from where it now is)."""
    text = sentence.strip()
    match = _MOVED_NAME.match(text)
    if match is not None:
        if match["how"].lower() == "moved":
            return f"Import {match['new']} in place of {match['old']}"
        return f"Use {match['new']} in place of {match['old']}"
    match = _TAKEN_INSTEAD.match(text)
    if match is not None:
        if match["how"].lower().startswith("importing"):
            return f"Import {match['new']} yourself"
        return f"Use {match['new']} yourself"
    return None


def stated_use(sentence: str) -> str | None:
    """The instruction a sentence stating how a thing must be applied, passed or used gives
    ("Apply `@model_serializer` to instance methods"), or None."""
    match = _MUST_BE_DONE.match(sentence.strip())
    if match is None or _OWN_SUBJECT.search(match["subject"]):
        return None
    subject = _after_verb(match["subject"].strip())
    participle = match["verb"].lower()
    verb = INFINITIVE[participle]
    return f"{verb.capitalize()} {subject} {match['where'].lower()} {match['place']}"


# The words that begin a noun phrase, not a name: lowered after a verb ("The MLA backend")
_DETERMINER = re.compile(r"^(?:The|A|An|This|These|That|Those|Each|Every|Any|Some|All)\b")


def _after_verb(subject: str) -> str:
    """A sentence's subject as it reads after a verb: its first word lowered where it is a
    determiner ("The MLA backend" → "the MLA backend"), a plain word alone ("Decorator") or
    before a lowercase one ("Stream options"); not a name with its version or another name
    after it ("Python 3.8", "Flash Attention"), nor one with a digit in it, a model's or a
    product's ("Gemma3 does not support ...", "Step5"): no English word has one. (A name
    alone, "Windows", reads as a word.)"""
    words = subject.split()
    phrase = plain(subject) and (len(words) == 1 or (words[1].isalpha() and words[1].islower()))
    phrase = phrase and not any(char.isdigit() for char in words[0])
    if phrase or _DETERMINER.match(subject) is not None:
        return subject[0].lower() + subject[1:]
    return subject


def _name_of_module(name: str, module: str) -> tuple[str, str]:
    """The way out of a name the module the user named lacks."""
    return (
        f"Check that {module} has {name}: correct the name, or install a version of "
        f"{module} that defines it",
        "environment",
    )
