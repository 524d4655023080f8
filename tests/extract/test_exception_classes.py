"""Exception classes: the pieces of the text they write, read one class at a time."""

from __future__ import annotations

import textwrap

from errdex.extract import extract_file
from errdex.facts import ClassText


def texts(source: str) -> dict[str, ClassText]:
    facts = extract_file("pkg/errors.py", textwrap.dedent(source).encode())
    return {text.qualname: text for text in facts.texts}


def test_class_attributes_init_assignments_and_str() -> None:
    found = texts(
        """
        class HTTPException(Exception):
            code: int | None = None
            description: str | None = None

            def __init__(self, description=None, response=None):
                super().__init__()
                if description is not None:
                    self.description = description
                self.response = response

            def __str__(self):
                code = self.code if self.code is not None else "???"
                return f"{code} {self.name}: {self.description}"

        class BadRequest(HTTPException):
            code = 400
            description = _("The browser sent a request this server could not understand.")
        """
    )
    base, bad = found["HTTPException"], found["BadRequest"]
    assert base.attrs == {"code": "None", "description": "None"}
    assert base.sets == {"description": "description", "response": "response"}
    assert base.defaults == {"description": "None", "response": "None"}
    [template] = base.methods["__str__"].returns
    assert template.text == "{code} {self.name}: {self.description}"
    assert base.methods["__str__"].locals == {
        "code": 'self.code if self.code is not None else "???"'
    }
    # A translated literal is a literal; the number keeps its repr.
    assert bad.attrs == {
        "code": "400",
        "description": "'The browser sent a request this server could not understand.'",
    }


def test_format_message_returns_and_what_show_prints() -> None:
    found = texts(
        """
        class UsageError(Exception):
            def show(self, file=None):
                echo(_("Error: {message}").format(message=self.format_message()), file=file)

        class BadParameter(UsageError):
            def format_message(self):
                if self.param_hint is None:
                    return _("Invalid value: {message}").format(message=self.message)
                return f"Invalid value for {self.param_hint}: {self.message}"
        """
    )
    [printed] = found["UsageError"].methods["show"].returns
    assert printed.text == "Error: {self.format_message()}"
    returns = {t.text for t in found["BadParameter"].methods["format_message"].returns}
    assert returns == {
        "Invalid value: {self.message}",
        "Invalid value for {self.param_hint}: {self.message}",
    }


def test_properties_are_read_and_other_classes_are_not() -> None:
    found = texts(
        """
        class Settings:
            name = "not an exception"

        class UndefinedError(RuntimeError):
            @property
            def hint(self):
                return f"{self.name!r} is undefined"

            @hint.setter
            def hint(self, value):
                self._hint = value

            def helper(self, other):
                return "not a text method"

        class Missing(UndefinedError):
            name = "missing"
        """
    )
    assert set(found) == {"UndefinedError", "Missing"}  # a subclass of the file is read too
    assert list(found["UndefinedError"].methods) == ["hint"]
    assert found["Missing"].attrs == {"name": "'missing'"}
