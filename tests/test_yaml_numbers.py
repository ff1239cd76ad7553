"""Plain decimal numbers read without PyYAML's constructor (issue 37, the big manoeuvre file): the same values."""

from __future__ import annotations

import random

import yaml

from movecheck.yaml_builder import _CONSTRUCTOR, _RESOLVER, _simple_number

EDGES = ["0", "-0", "+0", "1", "-1", "+1", "007", "0.0", "-0.0", "+0.0", "1.", "-1.", ".5", "1.5", "-1.50",
         "123456789012345678", "1234567890123456789", "12345678901234567.12345678901234567", "1e5", "1.0e+5",
         "0x1F", "0o17", "1_000", "1:30", ".inf", "-.inf", ".nan", "1.5_0", "+12.25", "08", "0.5"]


def test_simple_numbers_are_the_constructors() -> None:
    """Every plain scalar the fast path reads is the constructor's value, of its type (a negative zero too);
    octal, hexadecimal, sexagesimal, underscores, exponents and infinities are left to the constructor."""
    rng = random.Random(3)
    texts = list(EDGES)
    for _ in range(3000):
        sign = rng.choice(["", "-", "+"])
        digits = "".join(rng.choice("0123456789") for _ in range(rng.randint(1, 19)))
        fraction = "".join(rng.choice("0123456789") for _ in range(rng.randint(0, 19)))
        texts.append(sign + digits if rng.random() < 0.5 else f"{sign}{digits}.{fraction}")
    read = 0
    for text in texts:
        tag = _RESOLVER.resolve(yaml.ScalarNode, text, (True, False))
        value = _simple_number(tag, text)
        if value is None:
            continue
        read += 1
        expected = _CONSTRUCTOR.construct_object(yaml.ScalarNode(tag, text), deep=True)
        assert type(value) is type(expected) and repr(value) == repr(expected), text
    assert read > 2000
    for text in ("007", "0x1F", "1_000", "1:30", "1e5", ".inf", "123456789012345678901"):
        assert _simple_number(_RESOLVER.resolve(yaml.ScalarNode, text, (True, False)), text) is None, text
