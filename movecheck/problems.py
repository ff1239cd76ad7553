"""Input problems shared by both rule systems (the ``MC`` codes).

These are not rules of a game: they say the file could not be read as the
movecheck format it claims to be.  They are findings, never crashes.
"""

from movecheck.clauses import declare

declare(
    "MC001", "yaml-syntax", "error", "the file is not valid YAML (at the position of the problem)",
    system="mc",
    doc="""
    The file is not valid YAML, or uses a YAML feature movecheck refuses to read.

    Reported at the position the parser stopped.  Tags other than the standard
    ones (``!!str``, ``!!int`` ...) are refused and never constructed, so a file
    holding ``!!python/object`` cannot run code.  Mapping keys must be plain
    names.
    """,
)
declare(
    "MC002", "duplicate-key", "error", "a mapping repeats a key (YAML loaders silently keep the last one)",
    system="mc",
    doc="""
    A mapping repeats a key.  Most YAML loaders keep the last value without a
    word, so the first one is silently lost.  Reported at the second
    occurrence; movecheck, like YAML, goes on with the last value.
    """,
)
declare(
    "MC003", "schema", "error", "the file violates its JSON Schema",
    system="mc",
    doc="""
    The file violates its JSON Schema (``movecheck schema NAME`` prints it).
    One finding per schema error, at the offending node; an unknown key is
    reported at the key with the closest allowed keys, a value outside a list
    of choices with the closest choice.
    """,
)
declare(
    "MC004", "unknown-name", "error",
    "a territory, unit type, power, unit id, corps, base or landmark that does not exist",
    system="mc",
    doc="""
    A name that the board does not know: a territory or sea zone, a unit type, a
    power, a unit id, a corps, a base or a landmark.  The message suggests the
    closest known names.  Names are resolved even where the file has other
    schema errors, so one typo does not hide another.
    """,
)
declare(
    "MC005", "implicit-type", "warning",
    "a plain scalar that YAML 1.1 turns into a number, boolean or date where a name is expected",
    system="mc",
    doc="""
    YAML 1.1 reads some plain words as something other than text: ``no``,
    ``yes``, ``on`` and ``off`` become booleans, ``0101`` the octal number 65,
    ``1:20`` the number 80.  Where a name is expected movecheck takes the text as
    written and warns; quote the value (``'0101'``) so every YAML tool reads it
    the same way.  Mapping keys are always read as their text.
    """,
)
declare(
    "MC006", "state-mismatch", "error",
    "the orders do not fit the state (power, phase or side)",
    system="mc",
    doc="""
    The orders do not belong to the state they are checked against.  aa: the
    orders' ``power`` or ``phase`` differs from the state's ``turn``.
    maneuver: the orders' ``side`` is not a side of the state.
    """,
)
declare(
    "MC007", "unsupported-version", "error", "a movecheck format version this release cannot read",
    system="mc",
    doc="""
    The file's ``movecheck:`` key names a format version this release cannot
    read.  This release reads version 1.
    """,
)
declare(
    "MC008", "input-limit", "error",
    "the file exceeds an input limit (size, nesting depth, alias expansion, units placed)",
    system="mc",
    doc="""
    The file is larger, more deeply nested or expands (through YAML aliases) to
    more nodes than the loader's limits allow.  This guards against "billion
    laughs" alias bombs and runaway inputs.  An aa state (or a map's setup)
    placing more units than the unit limit is reported the same way, at the
    count.  The limits are raised with the environment variables
    ``MOVECHECK_MAX_BYTES`` (default 64 MiB), ``MOVECHECK_MAX_DEPTH`` (64
    levels), ``MOVECHECK_MAX_NODES`` (2,000,000) and ``MOVECHECK_MAX_UNITS``
    (100,000 units).
    """,
)
declare(
    "MC009", "multiple-documents", "error", "the file holds more than one YAML document",
    system="mc",
    doc="""
    The file holds more than one YAML document (separated by ``---``).  A
    movecheck file is a single document; split the others into files of their
    own.
    """,
)
declare(
    "MC010", "unknown-file-kind", "error", "the file does not say which movecheck file it is",
    system="mc",
    doc="""
    A movecheck file says what it is with a top-level ``system:`` (``aa`` or
    ``maneuver``) and, for files other than states and orders, ``kind:``.
    This finding is given when neither can be read, or when a command is given
    a file it cannot use (``check`` given a state instead of orders).
    """,
)
declare(
    "MC011", "state-reference", "error", "the orders' state file cannot be used",
    system="mc",
    doc="""
    The orders file names no state and none was given with ``--state``, or the
    ``state:`` it names is missing, is a directory, or loops back to the orders
    file itself.  Reported at the ``state:`` key.
    """,
)
declare(
    "MC012", "unchecked", "error", "an order could not be checked, so it is not legal",
    system="mc",
    doc="""
    The rules could not run to the end on this order: a search that one of its
    clauses needs ran out of its budget (the message names the limit and the
    environment variable that raises it).  The order's verdict is
    *unchecked*: it is never counted legal, the run exits 1, and ``--select``,
    ``--ignore`` and per-file ignores cannot hide it.  Orders that could not be
    checked for other reasons (the state could not be read or has errors, the
    order has schema errors, the orders do not match the state) are counted as
    unchecked in the summary with that reason.
    """,
)
