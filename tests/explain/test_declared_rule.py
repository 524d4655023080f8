"""The message's own rule on a declaration the user wrote and a library reads: the way out
is that declaration, changed as the message says; a message of the same shape about what
no user declares gets nothing."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from explain_samples import checks, first_way_out, indexed_package, offered, page_with_message

from errdex.store import Store

FILES = {
    "decl/__init__.py": "",
    "decl/schema.py": """
        class ArgumentError(Exception):
            pass


        class NoTableError(Exception):
            pass


        class Table:
            def __init__(self, name, metadata):
                self.name = name
                self.sentinel = None
                self.columns = {}
                metadata.tables[name] = self

            def add_sentinel(self, column):
                if self.sentinel is not None:
                    raise ArgumentError("a Table may have only one explicit sentinel column")
                self.sentinel = column

            def autoincrement(self):
                found = None
                for col in self.columns.values():
                    if col.autoincrement is True:
                        if found is not None:
                            raise ArgumentError(
                                f"Only one Column may be marked autoincrement=True, "
                                f"found both {col.name} and {found.name}."
                            )
                        found = col
                return found


        class ForeignKey:
            def __init__(self, spec, table):
                self.spec = spec
                self.table = table

            def resolve(self):
                tablekey, colname = self.spec.split(".")
                if tablekey not in self.table.metadata:
                    raise NoTableError(
                        f"Foreign key of table '{self.table.name}' could not find table "
                        f"'{tablekey}' with which to reach column '{colname}'"
                    )
                target = self.table.metadata[tablekey]
                if colname not in target.columns:
                    raise NoTableError(
                        f"Could not set up ForeignKey '{self.spec}': table "
                        f"'{target.name}' has no column named '{colname}'"
                    )
                return target.columns[colname]


        class Constraint:
            def __init__(self, *names):
                self.names = names

            def columns_of(self, table):
                try:
                    return [table.columns[name] for name in self.names]
                except KeyError as ke:
                    raise NoTableError(
                        f"Can't create {self.__class__.__name__} on table '{table.name}': "
                        f"no column named '{ke.args[0]}' is present."
                    ) from ke


        def scan(cls, bases, namespace, validators):
            found = [b for b in bases if getattr(b, "mapped", False)]
            if len(found) > 1:
                raise ArgumentError("Class %s has multiple mapped bases: %r" % (cls, found))
            for k, value in namespace.items():
                if k in ("metadata",):
                    raise ArgumentError(
                        f"Attribute name '{k}' is reserved when using the Declarative API."
                    )
                for name in getattr(value, "validates", ()):
                    if name in validators:
                        raise ArgumentError(
                            f"A validation function for mapped attribute {name!r} on "
                            f"mapper {cls} already exists."
                        )
                    validators[name] = value


        def attribute_of(module, name):
            if not hasattr(module, name):
                raise AttributeError(f"module '{module}' has no attribute named '{name}'")
            return getattr(module, name)


        def open_file(path, files):
            found = files.get(path)
            if found is None:
                raise OSError(f"could not find file '{path}' under the given root")
            return found


        def construct_params(binds, params, group):
            out = {}
            for key, bind in binds.items():
                if key in params:
                    out[key] = params[key]
                elif bind.required:
                    if group:
                        raise ValueError(
                            "A value is required for the bind parameter %r, in "
                            "parameter group %d" % (key, group)
                        )
                    raise ValueError("A value is required for bind parameter %r" % key)
            return out


        def translated(obj):
            name = obj.schema
            if name is not None and ("[" in name or "]" in name):
                raise ValueError(
                    "Square bracket characters ([]) not supported "
                    "in schema translate name '%s'" % name
                )
            return name
        """,
    "decl/models.py": """
        class UserError(Exception):
            pass


        def collect(serializers, info, var_name):
            for existing in serializers.values():
                if existing.name == var_name:
                    continue
                for f in info.fields:
                    if f in existing.fields:
                        raise UserError(
                            "Multiple field serializer functions were defined "
                            f"for field {f!r}, this is not allowed."
                        )
            serializers[var_name] = info


        def discriminator_values(tp, key):
            values = [sub.values for sub in tp.members]
            if len(set(values)) > 1:
                raise UserError(f"Field {key!r} is not the same for all submodels of {tp!r}")
            return values[0]


        def window(layers):
            lefts = {layer.window_left for layer in layers}
            if len(lefts) > 1:
                raise ValueError("Window left is not the same for all layers")
            return lefts.pop()


        class Checkpoints:
            def __init__(self):
                self.saved = {}

            def save(self, step, state):
                if step in self.saved:
                    raise ValueError(f"A checkpoint for step {step} already exists")
                self.saved[step] = state


        def resume(slots, step):
            if slots.get(step) is None:
                raise ValueError(f"A value is required for step {step}")
            return slots[step]


        def run_dir(root, stamp):
            name = stamped(root, stamp)
            if " " in name:
                raise ValueError(f"Spaces not supported in run name {name}")
            return name


        def stack(tensors, batch):
            shapes = {t.shape for t in tensors}
            if len(shapes) > 1:
                raise ValueError(f"Shape {batch.name} is not the same for all tensors of {batch}")
            return shapes.pop()


        def register(name, reserved=("native",)):
            assert name not in reserved, f"Provider name {name} is reserved."
            return name


        class Console:
            def __init__(self):
                self.live = None

            def set_live(self, live):
                if self.live is not None:
                    raise RuntimeError("Only one live display may be active at once")
                self.live = live
        """,
    "decl/unions.py": """
        from .models import UserError


        def discriminator_values(choice, key, name=None):
            source = "TypedDict" if name is None else f"TypedDict {name!r}"
            field = choice["fields"].get(key)
            if field is None:
                raise UserError(f"{source} needs a discriminator field for key {key!r}")
            if field["type"] != "literal":
                raise UserError(f"{source} needs field {key!r} to be of type `Literal`")
            return field["values"]


        def check_metadata(metadata, allowed, source_type):
            unknown = metadata.keys() - set(allowed)
            if unknown:
                raise TypeError(
                    f"The following constraints cannot be applied to {source_type!r}: "
                    f"{', '.join([f'{k!r}' for k in unknown])}"
                )


        def draft_layer(model, layers, name):
            if name not in layers:
                raise ValueError(f"{model.name} needs a draft layer named {name!r}")
            return layers[name]


        def saved(model, key, row):
            if row.get(key) is None:
                raise ValueError(f"{model} needs field {key!r} to be set before saving")
            return row


        def check_options(options, allowed, mode):
            unknown = options.keys() - set(allowed)
            if unknown:
                raise ValueError(
                    f"The following options cannot be applied to {mode!r}: {sorted(unknown)}"
                )
        """,
    "decl/declared.py": """
        class UserError(Exception):
            pass


        def variant(choice):
            if choice["type"] not in ("model", "dataclass"):
                raise TypeError(
                    f'{choice["type"]!r} is not a valid discriminated union variant;'
                    " should be a `BaseModel` or `dataclass`"
                )
            return choice


        def field_env(field):
            env = field.extra.get("env")
            if not isinstance(env, (str, list, set)):
                raise TypeError(
                    f"invalid field env: {env!r} ({type(env)}); should be string, list or set"
                )
            return env


        def reserved_arguments(function, parameters):
            if parameters.keys() & {"v__args", "v__kwargs"}:
                raise UserError(
                    '"v__args" and "v__kwargs" are not permitted as argument names when '
                    f'using the "{function.__name__}" decorator'
                )


        def discriminator_alias(field, discriminator):
            alias = field.get("validation_alias", discriminator)
            if not isinstance(alias, str):
                raise UserError(f"Alias {alias!r} is not supported in a discriminated union")
            return alias


        def same_alias(aliases, key):
            if len(set(aliases)) > 1:
                raise UserError(f"Aliases for discriminator {key!r} must be the same ({aliases})")


        def apply_constraint(constraint, schema, allowed):
            schema_type = schema["type"]
            if schema_type not in allowed[constraint]:
                raise RuntimeError(
                    f"Unable to apply constraint {constraint} to schema {schema_type}"
                )
            return schema


        def inspect_serializer(serializer, mode, positional):
            info_arg = {1: False, 2: True}.get(positional) if mode == "plain" else None
            if info_arg is None:
                raise UserError(
                    f"Unrecognized field_serializer function signature for {serializer} "
                    f"with `mode={mode}`"
                )
            return info_arg


        def mapped_column(mapper, cls, key):
            if key not in mapper.all_orm_descriptors:
                raise AttributeError(
                    "Mapped class %r does not have a mapped column named %r" % (cls, key)
                )
        """,
    "decl/undeclared.py": """
        def step(value):
            if value < 0:
                raise ValueError(f"{value!r} is not a valid step; should be a positive number")
            return value


        def run_names(names):
            if set(names) & {"latest", "best"}:
                raise ValueError('"latest" and "best" are not allowed as run names')


        def backend(name, table):
            if name not in table:
                raise ValueError(f"Backend {name!r} is not supported for this attention")
            return table[name]


        def stacked(tensors, name):
            if len({t.shape for t in tensors}) > 1:
                raise ValueError(f"Shapes of tensor {name!r} must be the same")


        def patch(name, path, patches):
            if name not in patches:
                raise ValueError(f"Unable to apply patch {name} to file {path}")
            return patches[name]


        def handle(h, known):
            if h.signature not in known:
                raise ValueError(f"Unsupported signature for handle {h}")
            return h


        def job(session, name):
            if name not in session.jobs:
                raise KeyError("Session %r does not have a job named %r" % (session, name))
            return session.jobs[name]
        """,
    "decl/pool.py": """
        from .schema import NoTableError

        BACKENDS = {"eager": 1, "lazy": 2}


        class Pool:
            def __init__(self):
                self._handles = {}

            def handle(self, key):
                if key not in self._handles:
                    raise NoTableError(f"could not find handle {key} in the pool")
                return self._handles[key]


        def backend(name):
            if name not in BACKENDS:
                raise NoTableError(f"could not find backend {name}")
            return BACKENDS[name]
        """,
    "decl/options.py": """
        def _strategy(attr, keys):
            if attr is None:
                raise ValueError("an attribute is needed")
            return (attr, keys)


        def subqueryload(attr):
            return _strategy(attr, {"lazy": "subquery"})


        def _default(attr):
            return _strategy(attr, {"lazy": "subquery"})


        def undefer(attr):
            return _strategy(attr, {"lazy": "subquery", "deferred": False})
        """,
    "decl/typed.py": """
        from typing import get_args

        from .schema import ArgumentError


        class SchemaError(Exception):
            pass


        def registered(**keys):
            return lambda cls: cls


        def mapping_schema(source_type):
            args = get_args(source_type)
            if not args:
                args = (object, object)
            elif len(args) != 2:
                raise SchemaError("Expected mapping to have exactly 2 generic parameters")
            return args


        def relationship_target(argument):
            if hasattr(argument, "__origin__"):
                if not argument.__args__:
                    raise ArgumentError(f"Generic alias {argument} requires an argument")
                return argument.__args__[0]
            return argument


        def pattern_schema(pattern_type):
            param = get_args(pattern_type)[0]
            if param == str:
                return "str"
            elif param == bytes:
                return "bytes"
            else:
                raise SchemaError(f"Unable to generate a schema for {pattern_type!r}.")


        def dotted(name):
            parts = name.split(".")
            if len(parts) != 2:
                raise ValueError("Expected exactly 2 parts in the dotted name")
            return parts


        def first_kind(values):
            kind = values[0]
            if kind != str:
                raise ValueError(f"Unable to read values of {kind!r}.")
            return kind


        def check_parameters_count(cls, parameters):
            actual = len(parameters)
            expected = len(cls.__parameters__)
            if actual != expected:
                description = "many" if actual > expected else "few"
                raise TypeError(
                    f"Too {description} parameters for {cls}; actual {actual}, expected {expected}"
                )


        def check_retries(host, tries, allowed):
            if tries > allowed:
                raise RuntimeError(
                    f"Too many retries for {host}; actual {tries}, expected {allowed}"
                )


        def root_fields(fields):
            if "__root__" in fields and len(fields) > 1:
                raise ValueError("__root__ cannot be mixed with other fields")
            return fields


        def patches(found):
            if len(found) > 1:
                raise ValueError("dense cannot be mixed with other patches")
            return found


        @registered(lazy="subquery")
        class SubqueryLoader:
            def load(self, impl):
                if not impl.supports_population:
                    raise ArgumentError(
                        "'%s' does not support object population - eager loading cannot be "
                        "applied." % self
                    )


        class Fetcher:
            def fetch(self, impl):
                if not impl.supports_prefetch:
                    raise ArgumentError(
                        f"'{self}' does not support prefetching - prefetch cannot be applied."
                    )
        """,
}


@pytest.fixture(scope="module")
def decl(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    yield from indexed_package(tmp_path_factory.mktemp("decl"), "decl", FILES)


def _first(store: Store, message: str) -> str:
    return first_way_out(store, "decl", message)


def test_two_serializers_for_one_field_are_made_one(decl: Store) -> None:
    assert _first(decl, "Multiple field serializer").startswith(
        "Define only one of the field serializer functions for the field “VALUE” (remove the "
        "others, or make them one): the message says “Multiple field serializer functions "
        "were defined for field "
    )


def test_two_columns_marked_are_marked_once(decl: Store) -> None:
    assert _first(decl, "Only one Column").startswith(
        "Mark only one Column autoincrement=True, not both of those the message names: the "
        "message says"
    )


def test_a_holder_with_one_of_a_kind_gets_one(decl: Store) -> None:
    assert _first(decl, "a Table may have only one") == (
        "Declare only one explicit sentinel column in the Table: the message says “a Table "
        "may have only one explicit sentinel column”."
    )


def test_a_class_with_several_of_one_kind_keeps_one(decl: Store) -> None:
    assert _first(decl, "Class ").startswith(
        "Give the class “CLS” only one of its mapped bases: the message says"
    )
    assert _first(decl, "A validation function").startswith(
        "Define only one validation function for the mapped attribute “NAME”: the message says"
    )


def test_a_reserved_name_is_renamed(decl: Store) -> None:
    assert _first(decl, "Attribute name").startswith(
        "Give the attribute another name than “VALUE” in your code: the message says"
    )


def test_a_required_bind_parameter_is_passed(decl: Store) -> None:
    assert _first(decl, "A value is required for bind parameter").startswith(
        "Pass a value for the bind parameter “KEY”, under that name, among the values you "
        "run it with: the message says"
    )
    assert "among the values you run it with (in parameter group GROUP):" in _first(
        decl, "A value is required for the bind parameter"
    )


def test_characters_a_name_may_not_hold_are_left_out(decl: Store) -> None:
    assert _first(decl, "Square bracket").startswith(
        "Give a schema translate name without square bracket characters ([]) in place of "
        "“NAME”: the message says"
    )


def test_a_field_unlike_across_members_is_declared_alike(decl: Store) -> None:
    assert _first(decl, "Field {key!r} is not the same").startswith(
        "Declare the field “KEY” alike, with the same type and values, in all submodels of "
        "“TP”: the message says"
    )


def test_a_reference_to_what_is_not_declared_names_where_it_is_looked_up(decl: Store) -> None:
    assert _first(decl, "Foreign key of table").startswith(
        "Declare the table “TABLEKEY” in `self.table.metadata`, where the check at line "
    )
    assert "looks it up, or refer by name to a table declared there" in (
        _first(decl, "Foreign key of table")
    )
    assert _first(decl, "Could not set up ForeignKey").startswith(
        "Declare a column named “COLNAME” in the table “NAME”, or refer to a column "
        "that table has: the message says"
    )
    assert _first(decl, "module '").startswith(
        "Declare an attribute named “NAME” in the module “MODULE”, or refer to an attribute "
        "that module has: the message says"
    )
    assert _first(decl, "Can't create").startswith(
        "Declare a column named “ARGS_0” in the table “NAME”, or refer to a column that "
        "table has: the message says"
    )


def test_what_a_declared_thing_needs_is_declared_there(decl: Store) -> None:
    assert _first(decl, "{source} needs a discriminator").startswith(
        "Declare in “SOURCE” a discriminator field for the key “KEY”: the message says"
    )
    assert _first(decl, "{source} needs field").startswith(
        "Declare the field “KEY” of “SOURCE” so that it is of type `Literal`: the message says"
    )


def test_what_cannot_be_put_on_a_declared_type_is_left_off(decl: Store) -> None:
    assert _first(decl, "The following constraints").startswith(
        "Leave the constraints the message lists off your declaration of “SOURCE_TYPE”, or "
        "put them on a type that takes them: the message says"
    )


def test_what_no_user_declares_gets_no_declaration(decl: Store) -> None:
    for message in (
        "Window left is not the same",
        "Only one live display",
        "could not find file",
        "Provider name",
    ):
        page = page_with_message(decl, "decl", message)
        assert not any(
            s.text.startswith(("Declare", "Mark", "Define", "Give", "Pass a value"))
            for s in page.solutions
        ), message
        assert offered(page) == [] and checks(page), message  # nothing else either


@pytest.mark.parametrize(
    "message",
    [
        # runtime state in the shapes of a declaration's rule, named by a placeholder:
        # a step the program reached, tensors it computed; a placeholder is no declaration
        "A checkpoint for step",
        "Shape {batch.name}",
        # what a thing needs, or what cannot be applied, named by no kind of code the user
        # declares: a draft layer of a model, options of a mode
        "{model.name} needs a draft layer",
        "The following options",
        # a value a step the program reached lacks, a name the program made
        "A value is required for step",
        "Spaces not supported in run name",
        # a field named, but what it needs is a value the program holds, not a type
        "{model} needs field",
    ],
)
def test_runtime_state_in_a_declaration_s_shape_gets_no_declaration(
    decl: Store, message: str
) -> None:
    page = page_with_message(decl, "decl", message)
    assert not any(s.text.startswith(("Declare", "Define", "Leave the")) for s in page.solutions), [
        s.text for s in page.solutions
    ]
    assert offered(page) == [] and checks(page), message  # nor the shape's other ways out


def test_a_lookup_in_the_package_s_own_table_is_no_declaration_of_the_user_s(
    decl: Store,
) -> None:
    # `self._handles` is the pool's private state and `BACKENDS` a table of the module's
    # own: no user declares a name in either; the way out is another name, not this rule's
    for message, instead in (
        ("could not find handle", []),
        (
            "could not find backend",
            ["Pass the argument `name` of `backend` as one of `'eager'`, `'lazy'`."],
        ),
    ):
        page = page_with_message(decl, "decl", message)
        assert not any(s.text.startswith("Declare") for s in page.solutions), message
        assert offered(page) == instead and checks(page), message


def test_what_each_declared_thing_should_be_is_said_of_each(decl: Store) -> None:
    assert _first(decl, "{choice").startswith(
        "Make the discriminated union variant the message names a `BaseModel` or `dataclass`: "
        "the message says “TYPE is not a valid discriminated union variant"
    )
    assert _first(decl, "invalid field env").startswith(
        "Make the field env the message names a string, list or set: the message says “invalid "
        "field env: ENV"
    )


def test_one_constraint_a_declared_type_does_not_take_is_left_off(decl: Store) -> None:
    assert _first(decl, "Unable to apply constraint").startswith(
        "Leave the constraint “CONSTRAINT” off your declaration of the schema “SCHEMA_TYPE”, or "
        "put it on a type that takes it: the message says"
    )


def test_a_declared_function_refused_by_its_signature_gets_another(decl: Store) -> None:
    assert _first(decl, "Unrecognized field_serializer").startswith(
        "Change the signature of your field_serializer function “SERIALIZER” to one the library "
        "takes: the message says “Unrecognized field_serializer function signature for "
        "SERIALIZER"
    )


def test_names_kept_from_a_declaration_are_renamed(decl: Store) -> None:
    assert _first(decl, '"v__args" and "v__kwargs"').startswith(
        'Rename each argument of yours named "v__args" or "v__kwargs": the message says'
    )


def test_a_declared_value_of_a_refused_kind_is_given_as_the_kind_the_test_takes(
    decl: Store,
) -> None:
    assert _first(decl, "Alias {alias!r}").startswith(
        "Make the alias (`validation_alias`) a `str`, the only kind the check at line 34 "
        "lets through: the message says"
    )


def test_a_thing_declared_unlike_is_declared_alike(decl: Store) -> None:
    assert _first(decl, "Aliases for discriminator").startswith(
        "Give the discriminator “KEY” the same alias wherever it is declared: the message says"
    )


def test_a_mapped_column_not_declared_is_declared_or_referred_to_as_it_is(decl: Store) -> None:
    assert _first(decl, "Mapped class").startswith(
        "Declare a mapped column named “KEY” in the class “CLS”, or refer to a mapped column "
        "that class has: the message says"
    )


def test_the_same_shapes_of_what_no_user_declares_get_no_declaration(decl: Store) -> None:
    for message in (
        "{value!r} is not a valid step",
        '"latest" and "best"',
        "Backend {name!r}",
        "Shapes of tensor",
        "Session ",
        "Unable to apply patch",
        "Unsupported signature for handle",
    ):
        page = page_with_message(decl, "decl", message)
        assert not any(
            s.text.startswith(
                ("Make each", "Rename each", "Give the", "Declare", "Leave the", "Change the")
            )
            for s in page.solutions
        ), message


def test_a_generic_type_of_the_wrong_number_of_arguments_is_given_the_number_counted(
    decl: Store,
) -> None:
    assert _first(decl, "Expected mapping") == (
        "Write the generic type in your annotation with exactly two type arguments: the check "
        "at line 19 (`len(args) != 2`) counts the type arguments of `source_type`."
    )
    assert _first(decl, "Generic alias") == (
        "Write the generic type in your annotation (the message names it “ARGUMENT”) with at "
        "least one type argument: the check at line 26 (`not argument.__args__`) counts the "
        "type arguments of `argument`."
    )


def test_a_type_argument_compared_with_classes_is_made_one_of_them(decl: Store) -> None:
    assert _first(decl, "Unable to generate a schema") == (
        "Make the first type argument of the generic type in your annotation (the message "
        "names it “PATTERN_TYPE”) `str` or `bytes`: the checks at lines 34, 36 compare it "
        "(`param`) with those classes and the raise is reached for any other."
    )


def test_a_count_or_a_class_of_what_is_no_type_argument_gets_no_annotation(
    decl: Store,
) -> None:
    for message in ("Expected exactly 2 parts", "Unable to read values"):
        page = page_with_message(decl, "decl", message)
        assert checks(page), message
        assert not any("annotation" in way for way in offered(page)), message


def test_a_thing_taken_only_alone_is_declared_alone(decl: Store) -> None:
    assert _first(decl, "__root__ cannot").startswith(
        "Declare `__root__` alone, with no other fields beside it: the message says"
    )
    page = page_with_message(decl, "decl", "dense cannot")  # patches: no declaration
    assert checks(page)
    assert not any(way.startswith("Declare") for way in offered(page))


def test_an_operation_a_thing_does_not_support_is_left_off_it(decl: Store) -> None:
    way = _first(decl, "'{self}' does not support object")
    # the user's words for the choice; not the loader class or its decorator, the library's
    assert way.startswith(
        "Do not apply eager loading to “SELF”: leave out `lazy='subquery'` and `subqueryload()` "
        "for it (each asks for the eager loading this check refuses): the message says"
    )
    # no class registered under a keyword: the operation alone
    assert _first(decl, "'{self}' does not support prefetching").startswith(
        "Do not apply prefetch to “SELF”: the message says"
    )


def test_a_generic_class_given_another_number_of_type_arguments_gets_its_own(
    decl: Store,
) -> None:
    assert _first(decl, "Too {description} parameters").startswith(
        "Parametrize “CLS” with “EXPECTED” type arguments, one for each type parameter it "
        "declares, not “ACTUAL”: the message says"
    )
    page = page_with_message(decl, "decl", "Too many retries")  # no generic class: nothing
    assert checks(page)
    assert not any(way.startswith("Parametrize") for way in offered(page))
