"""Dataclasses whose methods are written when their first instance is made (start-up, issue 36).

``dataclasses.dataclass`` writes a class's ``__init__``, ``__repr__`` and ``__eq__`` (frozen:
``__setattr__``, ``__delattr__``, ``__hash__``) as source text and compiles it when the class is
defined: a third of a combat-move check's CPU went to the dataclasses of the modules it imports,
and most of them a legal check never instantiates (it makes no ``Finding``, no landing report).

:func:`dataclass_on_first_use` takes the options of ``dataclass`` and defers it: the class gets an
``__init__`` and a ``__setstate__`` that remove themselves and apply ``dataclass`` to the class (the
same options, the same class object) before they do what the dataclass's ``__init__``, or pickle
and ``copy`` without a ``__setstate__``, would do.  An instance is made by one or the other, so
every instance is one of exactly the class ``dataclass`` would have given.  Type checkers see
``dataclass`` itself.

For a class nothing reads as a dataclass before it has an instance: no subclass, no
``dataclasses.fields``/``is_dataclass`` on the class itself, no ``slots=True`` or ``init=False``,
no ``__init__`` or ``__setstate__`` of its own, no instance made by ``object.__new__`` directly.
``tests/test_records.py`` checks them for every class in :data:`DEFERRED`.
"""

from __future__ import annotations

import _thread
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

DEFERRED: list[type] = []
"""Every class declared with :func:`dataclass_on_first_use`, made or not (for the tests)."""

_LOCK = _thread.allocate_lock()


def make_dataclass_now(cls: type, options: dict[str, Any]) -> None:
    """Apply ``dataclass(**options)`` to ``cls`` in place, once, dropping the methods that deferred it."""
    with _LOCK:
        if "__dataclass_fields__" in cls.__dict__:
            return
        del cls.__init__  # type: ignore[misc]  # dataclass writes its own where the class has none
        del cls.__setstate__  # type: ignore[attr-defined]
        dataclass(cls, **options)


def _deferred(cls: type, options: dict[str, Any]) -> type:
    """``cls`` with an ``__init__`` and a ``__setstate__`` that make it a dataclass first."""
    own = {"__init__", "__setstate__", "__dataclass_fields__"} & set(cls.__dict__)
    if own or options.get("slots") or options.get("init") is False:
        raise TypeError(f"{cls.__qualname__}: dataclass_on_first_use cannot defer this class ({sorted(own)})")

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        make_dataclass_now(cls, options)
        made: Any = cls  # the dataclass now: its __init__ is the one dataclass wrote
        made.__init__(self, *args, **kwargs)

    def __setstate__(self: Any, state: Any) -> None:
        make_dataclass_now(cls, options)
        _set_state(self, state)

    cls.__init__ = __init__  # type: ignore[misc]
    cls.__setstate__ = __setstate__  # type: ignore[attr-defined]
    DEFERRED.append(cls)
    return cls


def _set_state(instance: Any, state: Any) -> None:
    """What pickle and ``copy`` do with ``state`` for a class without ``__setstate__``."""
    slots = None
    if isinstance(state, tuple) and len(state) == 2:
        state, slots = state
    if state:
        instance.__dict__.update(state)
    if slots:
        for name, value in slots.items():
            setattr(instance, name, value)


if TYPE_CHECKING:
    from dataclasses import dataclass as dataclass_on_first_use
else:

    def dataclass_on_first_use(cls: type | None = None, /, **options: Any) -> Any:
        """``dataclass``, or ``dataclass(**options)``, applied when the class's first instance is made."""
        if cls is None:
            return lambda later: _deferred(later, options)
        return _deferred(cls, options)


__all__ = ["DEFERRED", "dataclass_on_first_use", "make_dataclass_now"]
