"""Plain-Python validators generated from movecheck's JSON Schemas: valid or not, nothing more.

``scripts/gen_validators.py`` writes them into ``generated.py`` from
``schemas/*.schema.json`` (a subschema two schemas share is written once); ``--check``
says whether the module is current.  A generated validator answers one question, whether the data is valid,
with the meaning :func:`movecheck.schema.validator_class` gives the schema (draft
2020-12, ``integer`` a whole number as written, ``number`` finite), without
importing jsonschema.  Only a file found invalid goes through jsonschema, which
words every finding (:func:`movecheck.schema.validate`); a property test holds the
two to the same answer.

The helpers the generated module calls for the keywords whose meaning takes more
than one expression are in :mod:`movecheck.validators.keywords`.
"""

from __future__ import annotations

from typing import Any


def is_valid(name: str, data: Any) -> bool:
    """Whether ``data`` is known valid against the schema ``name`` without jsonschema.

    The schemas shipped with movecheck (``movecheck.schema.SCHEMA_NAMES``) have a generated
    validator; for another system's schema the answer is False: jsonschema decides.
    """
    from movecheck.validators.generated import VALIDATORS

    check = VALIDATORS.get(name)
    return check is not None and check(data)
