"""A message held in a local read like a literal one: a lookup's texts, a choice of two, an
addition to texts that branches chose, and a name an `if` test binds."""

from __future__ import annotations

from extract_samples import messages, sites_of


def test_a_lookup_with_a_default_raises_the_default() -> None:
    # `mode` is what the user configured, the default only when none: a message showing it
    # keeps it open
    assert messages(
        """
        def exclusive(msgs, name, fn):
            msg = msgs.get(name, "Method %s() has already been invoked" % (fn.__name__,))
            raise InvalidRequestError(msg)

        def check(cfg):
            mode = cfg.get("mode", "the default mode")
            raise ValueError(f"unknown {mode}")
        """
    ) == ["Method {fn.__name__}() has already been invoked", "unknown {mode}"]


def test_a_table_of_few_texts_gives_each() -> None:
    assert messages(
        """
        def enter(self):
            msg = {
                OPENED: "Cannot open a client instance more than once.",
                CLOSED: "Cannot reopen a client instance, once it has been closed.",
            }[self._state]
            raise RuntimeError(msg)

        MODES = {"a": "fast", "b": "slow"}

        def check(key):
            msg = MODES[key]  # values a message would show, not messages
            raise ValueError(msg)
        """
    ) == [
        "Cannot open a client instance more than once.",
        "Cannot reopen a client instance, once it has been closed.",
        "{msg}",
    ]


def test_a_module_table_read_by_a_name_a_test_binds() -> None:
    sites = sites_of(
        """
        REMOVED = {
            "score": "`score` task was removed; use `classify` instead.",
            "encode": "`encode` task was removed; use `token_embed` instead.",
        }

        def check_removed(task):
            if isinstance(task, str) and (message := REMOVED.get(task)):
                raise ValidationError(message, parameter="task")
        """
    )
    assert [s.message.text if s.message else None for s in sites] == [
        "`score` task was removed; use `classify` instead.",
        "`encode` task was removed; use `token_embed` instead.",
    ]
    assert all(len(s.conditions) == 1 for s in sites)


def test_a_choice_of_two_texts_gives_each_with_its_test() -> None:
    sites = sites_of(
        """
        def f(x, strict):
            msg = "value %r is too large" if strict else "value %r is too large for now"
            raise ValueError(msg % x)
        """
    )
    assert [
        (s.message.text if s.message else None, [c.holds for c in s.conditions]) for s in sites
    ] == [
        ("value {x!r} is too large", [True]),
        ("value {x!r} is too large for now", [False]),
    ]


def test_an_addition_to_texts_branches_chose() -> None:
    assert messages(
        """
        def expected(name, argname, got, advice):
            if argname:
                msg = "%s expected for argument %r; got %s." % (name, argname, got)
            else:
                msg = "%s expected, got %s." % (name, got)
            if advice:
                msg += " " + advice
            raise ArgumentError(msg)
        """
    ) == [
        "{name} expected for argument {argname!r}; got {got}.",
        "{name} expected, got {got}.",
        "{name} expected for argument {argname!r}; got {got}. {advice}",
        "{name} expected, got {got}. {advice}",
    ]


def test_a_log_of_a_text_branches_chose() -> None:
    assert messages(
        """
        def download(use_modelscope):
            if use_modelscope:
                error_log = "Error downloading the ModelScope model"
            else:
                error_log = "Error downloading the HuggingFace model"
            logger.exception(error_log)
        """
    ) == ["Error downloading the ModelScope model", "Error downloading the HuggingFace model"]
