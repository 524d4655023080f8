"""What the error's own message tells the user to do: its authors' word on the way out.

A message often says it: "Make sure to install httpx using `pip install httpx[http2]`",
"use --quantization fp8_per_tensor", "set VLLM_USE_V2_MODEL_RUNNER=1", or it suggests the
input it expected: "Perhaps you meant http://{url}?". Each sentence of the template that
gives an instruction is a solution, classed by what it changes: the environment (install,
upgrade), a setting (a flag, an environment variable), or else the input. Placeholders stay
as they are on the page; `fill_values` puts the user's own values in (a lookup knows them).
"""

from __future__ import annotations

import ast
import re
import shlex
from collections.abc import Mapping
from dataclasses import dataclass, replace

import msgspec

from errdex.explain.advice_names import names_keyword
from errdex.explain.advice_phrasings import IN_PLACE, implied_instruction, paired_rule
from errdex.explain.page import Change, ExampleFix, Page
from errdex.explain.placeholder_words import fill_words
from errdex.explain.stated_limits import labelled_list, lists_valid, plain, states_requirement
from errdex.explain.stated_version import stated_version
from errdex.facts import MessageTemplate, Placeholder

# A sentence that says what not to do: "Do not nest ARRAY types", "please do not pass
# --quantization" (not "Don't know how to join", which says what the code cannot).
_FORBIDS = re.compile(
    r"^(?:please\s+)?(?:do\s+not|don't|never)\s+(?:pass|specify|use|set|combine|nest|mix|"
    r"call|give|provide|enable|add|define|include|put|run|modify|change|subclass|reuse)\b",
    re.I,
)
# A sentence that instructs: an imperative verb first (after "please"/"you can"/"try to"),
# or an install command anywhere.
_INSTRUCTS = re.compile(
    r"^(?:please\s+|you\s+(?:can|should|must|(?:may|might)\s+need\s+to|need\s+to)\s+"
    # "you should only specify one of them": an adverb of the order
    r"(?:instead\s+|only\s+|also\s+)?|"
    # "To fix use one of --x=a, --x=b": the goal said without its object
    r"to\s+fix(?:\s+(?:this|it))?:?\s+(?=(?:use|set|pass|install|upgrade|add|remove)\b)|"
    # "Either increase the smallest budget or decrease ...": two ways, the first one's verb
    r"either\s+|"
    r"try\s+(?:to\s+)?|"
    r"instead,?\s+|alternatively,?\s+|otherwise,?\s+|optionally,?\s+|or\s+|"
    # "To turn on CUDA graph capture, ensure ...", "To skip this assignment entirely, Set
    # the ...", "To resolve this issue, make sure ...": a goal that is this check's way out
    # (not "To raise the VM's memory ceiling, increase ...": a step beside it), then the
    # instruction
    r"to\s+(?:fix|turn\s+(?:on|off)|enable|disable|use|avoid|silence|suppress|skip|remove|"
    r"resolve|solve|prevent|bypass|work\s+around|get\s+rid\s+of|"
    # "To restore at least a partial sort, apply use_alter=True to ...": what the check lost
    r"restore)\s+[^,.;:]{1,80},\s*|"
    # ... or this error itself, with no comma: "To suppress this warning set X=0"
    r"to\s+(?:fix|avoid|silence|suppress|resolve|prevent|get\s+rid\s+of)\s+"
    r"(?:this|the)\s+(?:error|warning|issue|problem)\s+)?"
    r"(?:use|set|pass|install|upgrade|update|downgrade|enable|disable|remove|specify|provide|"
    r"add|increase|decrease|reduce|lower|switch|run|call|choose|select|make\s+sure|ensure|"
    r"export|unset|turn\s+(?:on|off)|rerun|re-run|restart|define|declare|replace|rename|"
    r"change|leave|omit|migrate\s+to|"
    # "apply use_alter=True to ForeignKey ...": a keyword's value to apply (not "apply
    # failed", a name of the code)
    r"apply\s+(?=[\w`'\"]+=)|"
    # the user's own class: "you should inherit from typing.Generic[T]", "parametrize
    # RootModel directly"
    r"inherit\s+from|parametri[sz]e|parameteri[sz]e|"
    # "If you want the legacy one, edit the config JSON to set ..."
    r"edit|"
    # rebuilding the package and reordering or adjusting what the user feeds it: "Rebuild
    # vLLM from source so ... is included", "Reorder the source so ...", "Drop --x for this"
    # (not a SQL keyword in capitals: "DROP TABLE failed")
    r"(?-i:[Rr]ebuild|[Rr]einstall|[Rr]ecompile|[Rr]eorder|[Aa]djust|[Dd]rop))\b"
    # "Try --moe-backend emulation.": a flag to try, after "try" alone
    r"|^try\s+`?--[a-z]"
    # "raise --mm-shm-cache-max-object-size-mb", "Raise qp_per_transfer if frequent": a flag
    # or a setting's name to raise (not "raise ValueError", "raise the error again")
    r"|^(?:please\s+)?(?:raise|bump)\s+`?(?:--[a-z]|[a-z]+_[a-z_]+\b)"
    # "Start the server with --trust-request-mm-kwargs", "Start the engine with x=True
    # (--x)": the launch the user runs, given what to start it with
    r"|^(?:please\s+)?(?:re)?(?:start|launch)\s+(?:the\s+|your\s+)?[\w-]+\s+with\s"
    # verbs that are as often a name of the code (`configure()`, `query`): a word after them
    r"|^(?:please\s+)?(?:apply|configure|convert|query\s+for)\s+"
    r"(?!(?:failed|fails|error|errors|is|was|has|returned|called|step|of)\b)(?=[\w`'\"])"
    # "Initialize the cutlass submodule or set CUTLASS_ROOT" (not "Initialize X failed.",
    # a step the program took)
    r"|^(?:please\s+)?initiali[sz]e\s+(?![^.;:]*\bfail)"
    # "You must create a new instance of X to ...": a new object in place of a used one
    r"|^(?:please\s+|you\s+(?:must|should|need\s+to|have\s+to)\s+)?create\s+(?:a|an|the)\s"
    # "If you use `@x` with pre=False you MUST specify `y=True`": the case, then the order
    r"|^(?:if|when|unless)\b[^.;:!?]*?\byou\s+(?:must|should|need\s+to|have\s+to)\s+"
    r"(?:use|set|pass|specify|provide|add|call|install|enable|disable|give)\b"
    # "The router must set remote_dp_rank", "the request should be retried with ...": an
    # order to a party outside the program (the user's router, client, trainer, request)
    r"|^(?:the|your)\s+(?:router|client|caller|trainer|sender|user|application|proxy|"
    r"frontend|request)\s+(?:must|should|needs\s+to|has\s+to)\s+(?:be\s+[a-z]+ed\b|"
    r"set|send|pass|include|provide|specify|call|use|add|attach|retry)\b"
    # "Please rollback() fully before proceeding", "please preprocess with X()": a sentence
    # that opens with "please" speaks to the user, whatever its verb; not one that asks to
    # report, look or read (it says nothing of the way out), nor to implement a method
    # (the package's own authors; `overrides.py` says a subclass's), nor "consider" (its
    # gerunds below: "please consider contributing" is no way out)
    r"|^please,?\s+(?:either\s+)?(?!(?:report|file|open|notify|contact|check|verify|refer|"
    r"see|note|read|look|search|visit|consult|double-check|be\s+aware|let|ask|help|share|"
    r"submit|raise|post|create\s+an?\s+issue|implement|consider|do\s+not|don't|never)\b)"
    r"[a-z]+\b(?=\s+\S|\(\))"
    # "You may be able to resolve this warning by setting `x`": the way this very warning
    # goes, said as what the user may do
    r"|^you\s+(?:may|might|can|could)\s+(?:be\s+able\s+to\s+)?(?:resolve|fix|avoid|"
    r"silence|suppress|get\s+rid\s+of)\s+(?:this|the)\s+(?:error|warning|issue|problem)\s+"
    r"by\s+(?:setting|passing|using|adding|installing|renaming|removing)\b"
    # "Do not nest ARRAY types", "please do not pass --quantization": what not to do
    r"|" + _FORBIDS.pattern +
    # a gerund instructs only after "consider"/"try" ("Using real routing: ..." says what
    # the program does, "consider using --x", "try rewriting the pattern", "consider
    # manually setting x" what the user may do); not one that asks the user to tell the
    # authors or to look ("please consider contributing", "consider opening an issue")
    r"|^(?:please\s+)?(?:consider|try|recommend)\s+(?:[a-z]+ly\s+)?"
    r"(?!(?:contribut|report|open|fil|submitt|post|ask|contact|notify|check|read|look|"
    r"search|visit)ing\b)[a-z][a-z-]+ing\b"
    # ... or the thing it names for the user to take in place of theirs: "Consider the
    # selectinload() strategy", "Consider a checkpoint with the same scale", "Try a
    # different backend by setting --attention-backend"
    r"|^(?:please\s+)?(?:consider|try)\s+(?:a|an|the|another)\s+(?:different\s+)?"
    r"(?!(?:issue|bug|report)\b)[\w`'\"]",
    re.I,
)
_INSTALL = re.compile(
    r"(?:\b(?:uv\s+)?pip3?\s+install|\bconda\s+install|\bapt(?:-get)?\s+install|"
    r"\bpoetry\s+add|\buv\s+add)\s+(?:'[^'\s]+'|[^\s`'\"]+)"
    # a quoted requirement is a word of the command: `pip install -U 'ray>={required}'`
    r"(?:\s+(?:'[^'\s]+'|\"[^\"\s]+\"|[^\s`'\".,;]+))*",
    re.I,
)
_ENVIRONMENT = re.compile(
    r"\b(?:install|upgrade|downgrade|update|version|pip|conda|package|driver|cuda|platform|"
    r"gpu|python\s+\d)",
    re.I,
)
_SETTING = re.compile(
    r"(?:^|[\s`'\"(])--?[a-z][\w-]*|\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b|\benv(?:ironment)?\b"
)
# "Perhaps you meant http://{url}?", "Did you mean 'utf-8'?": the input the code expected.
_SUGGESTS = re.compile(
    r"^(?:perhaps|maybe|probably)?,?\s*(?:did\s+you\s+mean|you\s+(?:probably\s+)?"
    r"(?:meant|wanted))\s*:?\s*(?P<value>.+?)\s*\??$",
    re.I,
)
# "Minimum capability: {min}.", "Required version: 3.10": a requirement of the machine or
# the environment, stated with its value. Not a comparison or a lack ("Min num items is
# greater than max ...", "Required fields missing: {x}"): such a word, in the name of what
# is required or first in its value, says the value is wrong, not what it must be.
_NOT_STATED = (
    r"(?:greater|less|smaller|larger|bigger|more|higher|lower|not|too|above|below|exceeded|"
    r"missing|invalid)\b"
)
_REQUIREMENT = re.compile(
    r"^(?:the\s+)?(?:minimum|min\.?|required|least)\s+"
    # "is" a word of its own ("fields missing", "least distance" hold none)
    rf"(?P<what>[A-Za-z](?:(?!\b(?:is\b|{_NOT_STATED}))[\w -]){{0,40}}?)"
    rf"(?:\s+is\s+|\s*[:=]\s*)(?!{_NOT_STATED})(?P<value>[^\s].{{0,80}}?)\.?$",
    re.I,
)
_PLACEHOLDER = re.compile(r"\{([^{}]+)\}")
# "UPDATE statement on table ... expected to update 3 row(s)": a verb in capitals before a
# word in lower case names a keyword (of SQL, of a protocol), it does not tell the user to do it
_KEYWORD_NAMED = re.compile(r"^[A-Z]{2,}\s+[a-z]")
# "Select statement '{s}' returned no FROM clauses", "set objects are unhashable", "select
# #1 has 2 columns": a verb that is also a noun, then a word or two and a finite verb; the
# verb is the subject of a report, not an order. (Not "Ensure x is y", "make sure x is", whose
# verb takes a clause, nor "Pass one that is": a relative word starts the clause.)
_REPORTED = re.compile(
    r"^(?!(?:please|you|try|if|when|unless|to|ensure|make|check|verify|confirm|consider|"
    r"instead|alternatively|otherwise|or|and|also|then)\b)[a-z]+\s+"
    r"(?:(?!(?:that|which|who|whose|if|when|unless|where|while|as|so|and|or|but|it|this|these|"
    r"they|there|you|to|in|on|for|with|of|at|by|from)\b)\S+\s+){1,2}?"
    r"(?:is|are|was|were|has|have|had|returned|failed|does|did|cannot|can't|contains)\b",
    re.I,
)
# "If this is a delete operation, configure passive_deletes=True on ...": the case the
# instruction after it is for (no sentence of its own: one clause, then the comma; an
# instruction of one word, "If not installed, run", introduces the command after it)
# ("For older GPUs, consider using ...": the case the advice is for, named)
_CASE_FIRST = re.compile(r"^(?:if|when|for)\s+[^,.;:!?]{1,120},\s+(?=[a-z]+\s+\S)", re.I)
# "Leave the version attribute unset when merging": a value the user leaves out, whatever
# else the sentence speaks of
_LEAVE = re.compile(r"^(?:please\s+)?leave\b", re.I)
# "`Tag` not provided for choice {choice}", "page_size must be provided when paged_kv=True":
# what the input lacks, and the verb that gives it.
_MISSING = re.compile(
    r"^(?P<what>[\w`'\"{}.\[\]]+(?:\s+[\w`'\"{}.\[\]]+){0,3}?)\s+(?:(?:was|were|is|are)\s+)?"
    r"(?:not\s+(?P<verb>provided|given|specified|set)|must\s+be\s+(?P<must>provided|given|"
    r"specified|set))\b(?P<rest>(?:\s*[,:(]|\s+(?:for|when|in|to|with|if|on)\b).*?|)\.?$",
    re.I,
)
_VERBS = {"provided": "Provide", "given": "Give", "specified": "Specify", "set": "Set"}
# "install \"ipywidgets\"", "install `flashinfer`": a distribution named, quoted, after the
# verb (a bare word after it is as often a thing as a package: "install a newer driver").
_INSTALL_NAMED = re.compile(
    r"\binstall\s+(?:the\s+)?[`'\"](?P<name>[A-Za-z0-9][\w.\-]*(?:\[[\w,\-]+\])?)[`'\"]", re.I
)
# `VLLM_ROCM_USE_AITER=1` in a sentence: the variable and the value it says to give it.
# (a name with an underscore, or the interpreter's own `PYTHONIOENCODING`)
_ENV_ASSIGNMENT = re.compile(r"\b([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|PYTHON[A-Z]+)=([\w.:/-]*\w)")
# "only supports init=False", "is only supported with x=True": the one value it takes.
_ONLY = re.compile(
    r"\bonly\s+(?:supports?|accepts?|allows?|works\s+with)\b|\bis\s+only\s+supported\s+with\b",
    re.I,
)
# "Can't use the blank value '' in a SET without setting retrieve_as_bitwise=True": the
# keyword the refused use needs, given its value (`names_keyword`)
_WITHOUT = re.compile(
    r"\b(?:can't|cannot|can\s+not|not\s+(?:be\s+)?(?:allowed|supported|possible))\b.*"
    r"\bwithout\s+(?:setting|passing|using|specifying|giving)\s",
    re.I,
)
# "The private method `_iter` will be removed and should no longer be used", "Support for
# `__post_init_post_parse__` has been dropped": the name it retires, the first quoted one of
# the sentence.
_RETIRES = re.compile(
    r"\b(?:should|must|can)\s+no\s+longer\s+be\s+used|\bshould\s+not\s+be\s+used\b|"
    r"\bis\s+deprecated\b|\bwill\s+be\s+removed\b|\b(?:has|have)\s+been\s+(?:dropped|removed)\b",
    re.I,
)
# The subject of such a sentence: "The private method `_iter`", "`parse_obj_as`", "The
# `dict` method", "Support for `x`" (not "Using extra keyword arguments on `Field`").
_RETIRED_SUBJECT = re.compile(
    r"^(?:support\s+for\s+)?(?:the\s+)?(?:(?:private|public|deprecated)\s+)?"
    r"(?:(?:method|function|attribute|class|property|decorator)\s+)?`(?P<name>[A-Za-z_][\w.]*)(?:\(\))?`",
    re.I,
)
# A parenthesised aside that instructs: "... fields: x.y (use check_fields=False if ...)".
_ASIDE = re.compile(r"\s*\((?P<inner>[^()]{4,})\)")
# (not after an abbreviation, "e.g.", "e. g.", "i.e.", "cf.", "vs.", nor its first letter
# "e." of "e. g.": the example that follows is the sentence's own; "etc." ends a sentence
# only before a capital)
_SENTENCE_END = re.compile(
    r"(?<=[.!?;])(?<!\b[eEiI]\.[gGeE]\.)(?<!\b[eEiI]\. [gGeE]\.)(?<!\b[eEiI]\.)"
    r"(?<!\b[cC]f\.)(?<!\b[vV]s\.)(?!(?<=\betc\.)\s+[a-z])\s+(?=[A-Za-z`'\"(])|\n+"
    # a sentence glued to the one before it: "is not enabled.Please either set ..."
    r"|(?<=[a-z][.!?])(?=Please\s)"
)
# (", you might need to call X()": an instruction after a statement, as "please" is)
_CLAUSE_END = re.compile(
    r"(;\s+|,\s+(?=(?:please|try|consider|use|set|or|you\s+(?:might|may|should|must|need))\b)|"
    # "AOT compile is disabled and please upgrade PyTorch": the order after what happened
    r"\s+and\s+(?=please\s)|"
    r"\s+-\s+|:\s+(?=\w))"
)
# A clause that ends by announcing the setting it speaks of: the name after its colon is
# part of it ("To increase the timeout, set the environment variable: VLLM_X=<seconds>")
# (one setting, named after "the": not a list of them, "Supported options: a, b")
_NAMES_NEXT = re.compile(
    r"\b(?:the|this)\s+(?:environment\s+variable|env(?:ironment)?\s+var(?:iable)?|flag|"
    r"option|setting)\s*$",
    re.I,
)
# "Expected one of: a, b": the list after the colon is what the clause names
_ONE_OF = re.compile(r"\b(?:one|any)\s+of\s*$", re.I)
_MAX_ADVICE = 3
_MAX_CHARS = 300


@dataclass(frozen=True)
class Advice:
    text: str  # the sentence, as the message says it
    kind: str  # "environment", "setting" or "input"
    command: str | None = None  # a command it quotes: `pip install httpx[http2]`
    suggested: str | None = None  # the input it suggests instead: `http://{url}`
    # a requirement it states, as (what, least value): ("capability", "{min}")
    requires: tuple[str, str] | None = None
    # what it says is missing, as (the verb to give it, the rest of the sentence):
    # ("Provide", "`Tag` for choice {choice} used with `Discriminator`")
    missing: tuple[str, str] | None = None
    # the name it says is retired ("should no longer be used"), as the message quotes it
    retired: str | None = None
    # the action a "did you mean to ...?" question proposes, as an instruction: "Call
    # table.append_constraint(constraint)"
    proposed: str | None = None
    # the instruction a stated precondition or requirement implies: "First make sure the
    # response has been read or closed, then access '.elapsed'"
    implied: str | None = None
    # the least version of a package or library it requires, as (name, version):
    # ("NCCL", "2.29.7") (`stated_version.py`)
    version: tuple[str, str] | None = None

    @property
    def solution(self) -> str:
        """The advice as a solution a user reads: what to run, pass or do."""
        if self.command is not None:
            return f"Run `{self.command}`, as the message says: “{self.text}”"
        if self.suggested is not None:
            given = _PLACEHOLDER.findall(self.suggested)
            was = f" of `{{{given[0]}}}`" if len(given) == 1 and self.suggested != given[0] else ""
            return f"Pass `{self.suggested}` instead{was}, as the message suggests: “{self.text}”"
        if self.proposed is not None:
            return f"{self.proposed}, as the message proposes: “{self.text}”"
        if self.implied is not None:
            return f"{self.implied}, as the message says: “{self.text}”"
        if self.missing is not None:
            verb, what = self.missing
            return f"{verb} {what}, as the message says: “{self.text}”"
        if self.version is not None:
            name, least = self.version
            return f"Upgrade {name} to {least} or newer, as the message says: “{self.text}”"
        if self.requires is not None:
            what, least = self.requires
            return (
                f"Run it where the {what} is at least `{least}`, as the message says: “{self.text}”"
            )
        return f"Do what the message says: “{self.text}”"

    @property
    def change(self) -> Change | None:
        """What it changes, as data, when the message says it exactly: the install
        command it quotes, or the value it gives an environment variable."""
        if "{" in self.text:
            return None  # a value only the user's message holds: not runnable as written
        if self.command is not None:
            try:
                words = shlex.split(self.command)
            except ValueError:
                return None
            return Change(form="install", target=shlex.join(words))
        named = _INSTALL_NAMED.search(self.text) if self.kind == "environment" else None
        if named is not None:
            return Change(form="install", target=shlex.join(["pip", "install", named["name"]]))
        if self.kind != "setting":
            return None
        # the one the instruction sets, of a sentence that names another as the case
        # ("X=1 requires Y=1"); two to set are no one change
        implied = self.implied or ""
        said = len(_ENV_ASSIGNMENT.findall(implied))
        if said > 1:
            return None
        assignment = _ENV_ASSIGNMENT.search(implied if said else self.text)
        if assignment is not None:
            return Change(form="env", target=assignment.group(1), after=assignment.group(2))
        return None


def message_advice(message: str | None) -> list[Advice]:
    """The instructions in a message template, in order, at most a few."""
    if not message:
        return []
    found: list[Advice] = []
    # An earlier sentence stated a requirement of its own; a list of valid values in a
    # sentence of its own after it is not its way out (one after `;` still is, unless it
    # is a label and its list: "requires a block-outer layout; supported sets: {sets}").
    required_before = False
    previous = ""
    for sentence in sentences(message):
        own = not previous.rstrip().endswith(";") or labelled_list(sentence)
        listed_after = required_before and own and lists_valid(sentence)
        required_before = required_before or states_requirement(sentence)
        before, previous = previous, sentence
        install = _INSTALL.search(sentence)
        command = _command(install.group(0)) if install else None
        proposed = _proposed(sentence) if command is None else None
        suggested = _suggested(sentence) if command is None and proposed is None else None
        required = _REQUIREMENT.match(sentence.strip()) if command is None else None
        requires = (required.group("what").strip(), required.group("value")) if required else None
        missing = _missing(sentence) if command is None and suggested is None else None
        version = stated_version(sentence) if command is None and requires is None else None
        retired = _retired(sentence) if command is None else None
        offers = command is not None or suggested is not None or requires is not None
        offers = offers or proposed is not None
        offers = offers or missing is not None or retired is not None or version is not None
        given = _ONLY.search(sentence) or _WITHOUT.search(sentence)
        offers = offers or (given is not None and names_keyword(sentence))
        implied = None if offers or _instructs(sentence) else implied_instruction(sentence)
        choice = None if offers or implied is not None else paired_rule(before, sentence)
        if choice is not None:
            # of what the clause before names
            implied = choice, "setting" if IN_PLACE in choice else "input"
        if listed_after:
            implied = None  # the values of another check than the one the message states
        offers = offers or implied is not None
        if not offers and not _instructs(sentence):
            continue
        # (the ";" that ends a clause is no part of what it says)
        text = _unquoted(sentence.strip().removesuffix(";"))[:_MAX_CHARS]
        if len(text.split()) < 2 or _only_placeholder(text):
            continue
        kind = "input" if suggested is not None else _kind(text, command)
        if kind == "environment" and _LEAVE.match(text):
            kind = "setting" if _SETTING.search(text) else "input"  # a value left unset
        if names_keyword(text) or retired is not None:
            kind = "input"  # a keyword of a call, a name of the code: the user's own code
        if requires is not None or version is not None:
            kind = "environment"
            missing = None if version is not None else missing
        elif missing is not None:
            kind = "input"
        elif implied is not None:
            kind = implied[1]
        found.append(
            Advice(
                text=text,
                kind=kind,
                command=command,
                suggested=suggested,
                requires=requires,
                missing=missing,
                retired=retired,
                proposed=proposed,
                implied=implied[0] if implied is not None else None,
                version=version,
            )
        )
        if len(found) >= _MAX_ADVICE:
            break
    # a version the message also gives a command for ("needs modelscope>=1.18.1, please
    # install by `pip install modelscope -U`"): the command is the way it says
    commands = " ".join(a.command for a in found if a.command is not None).lower()
    out = []
    for advice in found:
        if commands and advice.command is None and advice.text.endswith(":"):
            continue  # "Install it with:" before the command it introduces
        if advice.version is not None and advice.version[0].lower() in commands:
            if not _instructs(advice.text):
                continue
            advice = replace(advice, version=None, kind=_kind(advice.text, None))
        out.append(advice)
    return out


def spoken_text(message: MessageTemplate | None) -> str | None:
    """The template with each placeholder that is a string literal put in as its text: a
    sentence the code adds only in some cases (`msg += " Set `--x` to increase this
    limit."` under an `if`) is the message's word too, when it is shown."""
    if message is None:
        return None
    return MessageTemplate.of(*(_said(part) for part in message.parts)).text


def _said(part: str | Placeholder) -> str | Placeholder:
    said = _literal(part) if isinstance(part, Placeholder) else None
    return part if said is None else said


def _literal(placeholder: Placeholder) -> str | None:
    if placeholder.conversion or placeholder.spec:
        return None
    try:
        node = ast.parse(placeholder.expr, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return None
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def sentences(message: str) -> list[str]:
    """The message's sentences, and the clauses and asides of them that instruct."""
    out: list[str] = []
    asides: list[str] = []

    def aside(match: re.Match[str]) -> str:
        if not _instructs(match.group("inner")):
            return match.group(0)
        asides.append(match.group("inner"))
        return ""

    for part in [*_SENTENCE_END.split(_ASIDE.sub(aside, message)), *asides]:
        # a clause after ";" or ", " that instructs is a sentence of its own:
        # "requires Model Runner V2; set VLLM_USE_V2_MODEL_RUNNER=1."
        clauses: list[str] = []
        for clause in _clauses(part):
            clause = clause.strip()
            if clauses and re.match(r"or\s", clause, re.I) and not _instructs(clause):
                # the last member of a list ("texts, images, or inputs must be
                # provided"), not an instruction of its own ("..., or use --x")
                clauses[-1] = f"{clauses[-1]}, {clause}"
            elif clause:
                clauses.append(clause)
        out.extend(clauses)
    return out


def _clauses(part: str) -> list[str]:
    """The clauses of a sentence, split at `;`, ` - `, `: ` and a `, ` before an instruction,
    never inside parentheses: "(e.g. list, set, etc.)" is one aside, not a clause "set, etc.)"."""
    pieces = _CLAUSE_END.split(part)
    out = [pieces[0]]
    for separator, piece in zip(pieces[1::2], pieces[2::2], strict=True):
        if out[-1].count("(") > out[-1].count(")"):
            out[-1] += separator + piece  # within an aside: not a clause of its own
        elif separator.startswith(":") and _NAMES_NEXT.search(out[-1]):
            out[-1] += separator + piece  # "set the environment variable: VLLM_X=<s>"
        elif separator.startswith(":") and _ONE_OF.search(out[-1]):
            out[-1] += separator + piece  # "Expected one of: system, user": the values
        elif _CASE_FIRST.match(out[-1] + separator + piece) and re.match(r"consider\b", piece):
            out[-1] += separator + piece  # "If this is a class name, consider ...": its case
        else:
            out.append(piece)
    return out


def _unquoted(sentence: str) -> str:
    """The sentence without quotes around it; a quote that closes a name inside it
    (`` `Tag` not provided ``) stays."""
    text = sentence.strip(" ")
    while len(text) > 1 and text[0] == text[-1] and text[0] in "`'\"" and text.count(text[0]) == 2:
        text = text[1:-1].strip(" ")
    return text.strip(" ")


def _missing(sentence: str) -> tuple[str, str] | None:
    """(the verb, what to give) for a sentence that says what the input lacks."""
    match = _MISSING.match(sentence.strip())
    if match is None:
        return None
    verb = _VERBS[(match.group("verb") or match.group("must")).lower()]
    what = match.group("what")
    if plain(what):
        what = what[0].lower() + what[1:]  # "Either x or y" after the verb
    # the clause that says what it is for, not what follows it ("... and will be required
    # in a future version")
    rest = re.split(r";|,\s|\s(?:and|but|so|because|which)\s", match.group("rest"), maxsplit=1)[0]
    return verb, (what + rest).strip()


def _retired(sentence: str) -> str | None:
    """The quoted name a sentence says is retired (will be removed, no longer to use)."""
    if _RETIRES.search(sentence) is None:
        return None
    named = _RETIRED_SUBJECT.match(sentence.strip())
    return named.group("name") if named is not None else None


def _proposed(sentence: str) -> str | None:
    """The action a "did you mean to VERB ...?" question proposes, as an instruction ("Did
    you mean to pass '--{name}'?" → "Pass '--{name}'"): a verb follows, not a value."""
    match = _SUGGESTS.match(sentence.strip())
    if match is None:
        return None
    action = re.match(r"to\s+(?P<verb>[a-z]+)\b\s*(?P<rest>.*)$", match.group("value"), re.I)
    if action is None:
        return None
    rest = action.group("rest").strip().rstrip(".?").rstrip()
    verb = action.group("verb")
    return f"{verb[0].upper()}{verb[1:].lower()} {rest}".strip()


def _suggested(sentence: str) -> str | None:
    """The value a "did you mean X?" sentence suggests, when it is one value."""
    match = _SUGGESTS.match(sentence.strip())
    if match is None:
        return None
    value = match.group("value").strip().strip("`'\"").rstrip(".")
    if not value or len(value.split()) > 3:
        return None
    return value


def fill_values(page: Page, values: Mapping[str, str]) -> Page:
    """The page with the user's own values in its solutions and example fix: `{url}`
    becomes the URL their message holds. Values are shown as they were pasted."""
    if not values:
        return page

    def value(match: re.Match[str]) -> str:
        # `{url!r}` and `{size:.2f}` name the value of `url` and `size`
        expr = re.sub(r"(?:![rsa])?(?::[^{}]*)?$", "", match.group(1))
        return values.get(match.group(1), values.get(expr, match.group(0)))

    def fill(text: str) -> str:
        return _PLACEHOLDER.sub(value, text)

    def as_code(placeholder: str) -> str:
        given = _PLACEHOLDER.sub(value, placeholder)
        if given == placeholder:
            return placeholder  # not in the paste
        # the match keeps a repr's text without its quotes: a string unless the text is a
        # Python literal as it stands (`5`, `{'a': 1}`)
        return given if python_literal(given) else repr(given)

    def fill_fix(fix: ExampleFix | None) -> ExampleFix | None:
        if fix is None:
            return None
        before = fill_words(fill(fix.before), fix.fills, as_code)
        after = fill_words(fill(fix.after), fix.fills, as_code)
        return msgspec.structs.replace(fix, before=before, after=after)

    def fill_named(text: str, fills: Mapping[str, str]) -> str:
        return fill_words(fill(text), fills, lambda p: _PLACEHOLDER.sub(value, p))

    solutions = [
        msgspec.structs.replace(s, text=fill_named(s.text, s.fills), fix=fill_fix(s.fix))
        for s in page.solutions
    ]
    return msgspec.structs.replace(
        page, solutions=solutions, example_fix=fill_fix(page.example_fix)
    )


def forbids(text: str) -> bool:
    """Whether the advice says what not to do ("do not pass --quantization")."""
    return _FORBIDS.match(text.strip()) is not None


def python_literal(text: str) -> bool:
    try:
        ast.literal_eval(text)
    except (ValueError, SyntaxError, RecursionError, TypeError, MemoryError):
        return False
    return True


def _instructs(sentence: str) -> bool:
    text = _CASE_FIRST.sub("", sentence.strip().lstrip("(`'\""), count=1)
    if _INSTRUCTS.match(text) is None or _KEYWORD_NAMED.match(text):
        return False
    return not _REPORTED.match(text)


def _command(found: str) -> str:
    """The command without the punctuation after it; a quote it opened stays closed."""
    command = found.strip().rstrip(".,;")
    while command and command[-1] in "`'\"" and command.count(command[-1]) % 2:
        command = command[:-1]  # a quote around the whole command, not one of its words
    return command


def _only_placeholder(text: str) -> bool:
    return not re.sub(r"\{[^{}]*\}", "", text).strip(" .,:;!?`'\"")


def _kind(text: str, command: str | None) -> str:
    if command is not None or _ENVIRONMENT.search(text):
        return "environment"
    if _SETTING.search(text):
        return "setting"
    return "input"


def short_message(text: str) -> str:
    """A message quoted whole when short, else its first sentence."""
    return text if len(text) <= 240 else text.split(". ")[0][:240]
