"""Dataclasses made on first use (movecheck.records, issue 36's start-up) are the dataclasses ``dataclass`` gives.

Each test builds its classes in a module of its own, so that a class is still deferred when the test
starts (the package's own classes have long been made by the rest of the suite).
"""

from __future__ import annotations

import ast
import copy
import dataclasses
import importlib
import pickle
import re
import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from movecheck import records
from movecheck.records import DEFERRED, dataclass_on_first_use

PACKAGE = Path(__file__).resolve().parents[1] / "movecheck"

SOURCE = '''
from __future__ import annotations
from dataclasses import field


@decorate(frozen=True)
class Spot:
    """A frozen record with a default and a factory."""

    name: str
    line: int = 1
    tags: tuple[str, ...] = ()
    extra: list[int] = field(default_factory=list, compare=False, repr=False)

    def where(self) -> str:
        return f"{self.name}:{self.line}"


@decorate
class Tally:
    """A mutable one, with a __post_init__."""

    count: int
    seen: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.count += 1
'''


@pytest.fixture
def twins() -> Iterator[tuple[types.ModuleType, types.ModuleType]]:
    """The same classes made by ``dataclass`` (first) and by ``dataclass_on_first_use`` (second)."""
    made = []
    for name, decorate in (("records_eager", dataclasses.dataclass), ("records_deferred", dataclass_on_first_use)):
        module = types.ModuleType(name)
        module.decorate = decorate  # type: ignore[attr-defined]
        sys.modules[name] = module
        exec(compile(SOURCE, name, "exec"), module.__dict__)
        made.append(module)
    yield made[0], made[1]
    for module in made:
        del sys.modules[module.__name__]


def behaviour(cls: type, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
    """What a user of ``cls`` sees of two equal instances and a third."""
    a, b = cls(*args, **kwargs), cls(*args, **kwargs)
    fields = [(f.name, f.default, f.compare, f.repr, f.hash) for f in dataclasses.fields(cls)]
    return (repr(a).split(".", 1)[-1], a == b, a != cls(*args[:1], 99), vars(a), fields,
            getattr(cls, "__match_args__", None), cls.__hash__ is None, (hash(a) == hash(b)) if cls.__hash__ else None)


def test_a_deferred_class_becomes_the_dataclass_when_first_instantiated(twins: Any) -> None:
    eager, deferred = twins
    assert not dataclasses.is_dataclass(deferred.Spot)  # nothing written yet
    assert behaviour(deferred.Spot, "Karelia", 3, ("a",)) == behaviour(eager.Spot, "Karelia", 3, ("a",))
    assert dataclasses.is_dataclass(deferred.Spot)
    assert "__setstate__" not in vars(deferred.Spot)  # the deferring methods are gone
    assert deferred.Spot.__init__.__qualname__ == eager.Spot.__init__.__qualname__ == "Spot.__init__"
    assert deferred.Spot("x").where() == "x:1"
    with pytest.raises(dataclasses.FrozenInstanceError):
        deferred.Spot("x").line = 2  # type: ignore[misc]
    assert behaviour(deferred.Tally, 1) == behaviour(eager.Tally, 1)
    assert deferred.Tally(1).count == 2  # __post_init__ ran
    with pytest.raises(TypeError, match="missing 1 required positional argument"):
        deferred.Tally()  # the dataclass's own error for a missing field


def test_an_instance_first_made_by_unpickling_is_one_of_the_dataclass(twins: Any) -> None:
    # a worker of --jobs pickles findings back to a process that may have made none
    eager, deferred = twins
    data = pickle.dumps([eager.Spot("Karelia", 3), eager.Tally(1, ["x"])])
    for name in ("Spot", "Tally"):  # the pickle names records_eager.<name>: point it at the deferred class
        setattr(eager, name, getattr(deferred, name))
    spot, tally = pickle.loads(data)
    assert type(spot) is deferred.Spot and dataclasses.is_dataclass(deferred.Spot)
    assert spot == deferred.Spot("Karelia", 3) and hash(spot) == hash(deferred.Spot("Karelia", 3))
    assert tally == deferred.Tally(1, ["x"])  # count 2: __post_init__ ran once, when it was pickled
    assert (tally.count, tally.seen) == (2, ["x"])
    assert copy.deepcopy(spot) == spot and copy.copy(tally) == tally


def test_a_class_it_cannot_defer_is_refused() -> None:
    with pytest.raises(TypeError, match="cannot defer"):

        @dataclass_on_first_use
        class Own:
            x: int

            def __init__(self) -> None:
                self.x = 1

    with pytest.raises(TypeError, match="cannot defer"):

        @dataclass_on_first_use(slots=True)
        class Slotted:
            x: int


def sources() -> dict[Path, str]:
    return {path: path.read_text(encoding="utf-8") for path in sorted(PACKAGE.rglob("*.py"))}


def deferred_classes(texts: dict[Path, str]) -> dict[str, str]:
    """Every class of the package declared with ``dataclass_on_first_use``: name -> module."""
    found = {}
    for path, text in texts.items():
        if "@dataclass_on_first_use" not in text:
            continue
        for node in ast.parse(text).body:
            if isinstance(node, ast.ClassDef) and any(
                "dataclass_on_first_use" in ast.unparse(decorator) for decorator in node.decorator_list
            ):
                module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
                found[node.name] = module.removesuffix(".__init__")
    return found


def test_no_deferred_class_of_the_package_is_read_as_a_dataclass_before_use() -> None:
    texts = sources()
    classes = deferred_classes(texts)
    assert len(classes) >= 28
    for name, module in classes.items():
        cls = getattr(importlib.import_module(module), name)
        assert cls in DEFERRED
    # a subclass would see no fields in a base not yet made; the class is never built by object.__new__
    names = "|".join(sorted(classes))
    subclass = re.compile(rf"^\s*class \w+\([^)]*\b({names})\b", re.M)
    read = re.compile(rf"\b(fields|is_dataclass|__new__)\(\s*([\w.]+\.)?({names})\s*\)")
    for path, text in texts.items():
        assert not subclass.search(text), f"{path}: a class subclasses a deferred class"
        assert not read.search(text), f"{path}: reads a deferred class as a dataclass"


def test_making_a_class_twice_is_once() -> None:
    @dataclass_on_first_use
    class Once:
        x: int

    records.make_dataclass_now(Once, {})
    records.make_dataclass_now(Once, {})
    assert Once(1) == Once(1) and repr(Once(2)).endswith("Once(x=2)")
