"""A traceback's innermost frame at a raise of an object made elsewhere (`raise
validation_error`) names the site, though another raise of the same class matches the text
the class composes: that text is the class's, shared by all its raises, and no evidence of
where. A small package indexed into a real SQLite file."""

from __future__ import annotations

from pathlib import Path

from errdex.match import lookup_text
from samples import indexed_store

PACKAGE = {
    "shapes/__init__.py": "",
    "shapes/errors.py": """
        class ValidationError(ValueError):
            def __init__(self, errors, model):
                self.raw_errors = errors
                self.model = model

            def __str__(self):
                count = len(self.raw_errors)
                return f"{count} validation error for {self.model.__name__}"
        """,
    "shapes/main.py": """
        from shapes.records import validate_model

        class Model:
            def __init__(self, **data):
                values, validation_error = validate_model(type(self), data)
                if validation_error:
                    raise validation_error
                self.values = values
        """,
    "shapes/records.py": """
        from shapes.errors import ValidationError

        def validate_record(cls, data):
            errors = cls.check(data)
            if errors:
                raise ValidationError(errors, cls)

        def validate_model(cls, data):
            errors = cls.check(data)
            return data, ValidationError(errors, cls) if errors else None
        """,
}

PASTE = """\
Traceback (most recent call last):
  File "/home/dev/app/settings.py", line 22, in <module>
    SETTINGS = Settings(
  File "/venv/lib/python3.11/site-packages/shapes/main.py", line 8, in __init__
    raise validation_error
shapes.errors.ValidationError: 1 validation error for Settings
"""


def test_the_innermost_frame_beats_a_text_the_class_composes(tmp_path: Path) -> None:
    with indexed_store(tmp_path, "shapes", {"1.0": PACKAGE}) as store:
        matches = lookup_text(store, PASTE).matches
    places = [(m.file, m.line) for m in matches]
    assert places[0] == ("shapes/main.py", 8), places
    assert ("shapes/records.py", 7) in places[1:]
    assert matches[0].why[-1] == "the frame names this raise; its class and text are made elsewhere"
