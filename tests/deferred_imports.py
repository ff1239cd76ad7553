"""The function-level imports of movecheck allowed, each with why it stays in its function.

Checked by tests/test_import_graph.py: a new function-level import fails until it is listed here, a
listed one that went fails until it is struck, and each reason is tested against the import graph:

- ``heavy: P``: the imported module loads the third-party package P (start-up time);
- ``command-specific``: the imported movecheck module is not loaded with the importing one, and only
  the commands that call this function need it (tests/test_startup.py watches the import sets);
- ``rarely used: M``: a standard-library module only this path needs;
- ``entry point``/``optional``: see the reason.

Anything else belongs at the top of its module (issue 36).
"""

from __future__ import annotations

DEFERRED: dict[str, dict[str, str]] = {
    "movecheck.__main__": {
        "gc": "rarely used: gc",
        "movecheck": "entry point: nothing but os, sys and typing loads before the command is known",
        "movecheck.cli": "heavy: typer",
        "movecheck.help_text": "command-specific",
        "movecheck.output": "command-specific",
        "movecheck.report_commands": "command-specific",
    },
    "movecheck.aa": {
        "movecheck.aa.battle.under": "command-specific",
        "movecheck.aa.checks.purchase": "command-specific",
        "movecheck.aa.describe": "command-specific",
        "movecheck.aa.edits": "command-specific",
        "movecheck.aa.editions": "command-specific",
        "movecheck.aa.kept": "command-specific",
        "movecheck.aa.lint": "command-specific",
        "movecheck.aa.maps.files": "command-specific",
        "movecheck.aa.maps.gamemap": "command-specific",
        "movecheck.aa.maps.schema": "command-specific",
        "movecheck.aa.picture.collect": "heavy: yaml",
        "movecheck.aa.post.sections": "command-specific",
        "movecheck.aa.setup": "command-specific",
        "movecheck.aa.turn.apply": "command-specific",
        "movecheck.aa.turn.mobilize": "command-specific",
        "movecheck.aa.turn.purchase": "command-specific",
        "movecheck.aa.turn.results": "command-specific",
    },
    "movecheck.aa.battle.cli": {
        "movecheck.aa.battle.luck": "command-specific",
    },
    "movecheck.aa.battle.fast": {
        "numpy": "heavy: numpy",
    },
    "movecheck.aa.battle.luck": {
        "movecheck.files": "heavy: yaml",
    },
    "movecheck.aa.battle.odds": {
        "movecheck.aa.maps.files": "command-specific",
        "movecheck.files": "heavy: yaml",
        "movecheck.loading": "heavy: yaml",
        "movecheck.session": "heavy: yaml",
    },
    "movecheck.aa.battle.solve": {
        "movecheck.aa.battle.fast": "command-specific",
    },
    "movecheck.aa.checks.battles": {
        "movecheck.aa.battle.judged": "command-specific",
        "movecheck.aa.battle.pasted": "command-specific",
    },
    "movecheck.aa.checks.dice": {
        "movecheck.aa.battle.judged": "command-specific",
        "movecheck.aa.battle.chained": "command-specific",
    },
    "movecheck.aa.choice": {
        "movecheck.aa.partition": "command-specific",
    },
    "movecheck.aa.commands": {
        "movecheck.aa.battle.cli": "command-specific",
        "movecheck.aa.battle.roll": "command-specific",
        "movecheck.aa.init": "command-specific",
        "movecheck.aa.maps.query": "command-specific",
        "movecheck.aa.triplea.convert": "command-specific",
        "movecheck.aa.triplea.report": "command-specific",
        "movecheck.aa.triplea.xmlread": "command-specific",
    },
    "movecheck.aa.describe": {
        "movecheck.aa.maps.query": "command-specific",
    },
    "movecheck.aa.init": {
        "movecheck.aa.maps.gamemap": "command-specific",
        "movecheck.aa.maps.query": "command-specific",
        "movecheck.aa.setup": "command-specific",
        "movecheck.aa.turn.apply": "command-specific",
        "movecheck.loading": "heavy: yaml",
    },
    "movecheck.aa.lint": {
        "movecheck.aa.turn.victory": "command-specific",
    },
    "movecheck.aa.maps.files": {
        "movecheck.files": "heavy: yaml",
        "movecheck.loading": "heavy: yaml",
    },
    "movecheck.aa.maps.query": {
        "movecheck.aa.checks.movement": "command-specific",
        "movecheck.aa.maps.gamemap": "command-specific",
        "movecheck.aa.maps.units": "command-specific",
        "movecheck.aa.setup": "command-specific",
        "movecheck.aa.wording": "command-specific",
        "movecheck.files": "heavy: yaml",
    },
    "movecheck.aa.maps.schema": {
        "movecheck.aa.editions": "command-specific",
        "movecheck.aa.maps.gamemap": "command-specific",
        "movecheck.schema": "heavy: yaml",
    },
    "movecheck.aa.maps.units": {
        "movecheck.aa.wording": "command-specific",
    },
    "movecheck.aa.overloads": {
        "movecheck.aa.setup": "command-specific",
    },
    "movecheck.aa.picture.board": {
        "movecheck.aa.post.report": "command-specific",
    },
    "movecheck.aa.picture.collect": {
        "movecheck.aa.picture.board": "command-specific",
        "movecheck.aa.picture.layout": "command-specific",
        "movecheck.aa.picture.svg": "command-specific",
        "movecheck.aa.post.report": "command-specific",
        "movecheck.aa.post.sections": "command-specific",
        "movecheck.aa.turn.apply": "command-specific",
        "movecheck.aa.turn.mobilize": "command-specific",
        "movecheck.aa.turn.purchase": "command-specific",
    },
    "movecheck.aa.picture.layout": {
        "movecheck.aa.picture.board_files": "command-specific",
    },
    "movecheck.aa.picture.svg": {
        "movecheck.aa.post.report": "command-specific",
    },
    "movecheck.aa.post.report": {
        "movecheck.aa.turn.apply": "command-specific",
    },
    "movecheck.aa.post.sections": {
        "movecheck.aa.battle.odds": "command-specific",
        "movecheck.aa.battle.report": "command-specific",
        "movecheck.aa.post.luck": "command-specific",
        "movecheck.aa.turn.china": "command-specific",
        "movecheck.aa.turn.victory": "command-specific",
    },
    "movecheck.aa.prepare": {
        "movecheck.aa.lint": "command-specific",
        "movecheck.aa.setup": "command-specific",
    },
    "movecheck.aa.resolve": {
        "movecheck.aa.turn.control": "command-specific",
    },
    "movecheck.aa.triplea.convert": {
        "movecheck.aa.picture.layout": "command-specific",
    },
    "movecheck.aa.triplea.report": {
        "yaml": "heavy: yaml",
    },
    "movecheck.aa.triplea.xmlread": {
        "defusedxml": "heavy: defusedxml",
        "defusedxml.ElementTree": "heavy: defusedxml",
    },
    "movecheck.aa.turn.apply": {
        "movecheck.aa.landing.aircraft": "command-specific",
        "movecheck.aa.resolve": "command-specific",
        "movecheck.aa.turn.battles": "command-specific",
        "movecheck.aa.turn.china": "command-specific",
        "movecheck.aa.turn.control": "command-specific",
        "movecheck.aa.turn.mobilize": "command-specific",
        "movecheck.aa.turn.mobilize_apply": "command-specific",
        "movecheck.aa.turn.purchase": "command-specific",
        "movecheck.aa.turn.raids": "command-specific",
        "movecheck.aa.turn.victory": "command-specific",
        "yaml": "heavy: yaml",
    },
    "movecheck.aa.turn.battle_extras": {
        "movecheck.aa.setup": "command-specific",
    },
    "movecheck.aa.turn.battles": {
        "movecheck.aa.battle.pasted": "command-specific",
        "movecheck.aa.setup": "command-specific",
        "movecheck.aa.turn.raids": "command-specific",
    },
    "movecheck.aa.turn.mobilize": {
        "movecheck.aa.setup": "command-specific",
        "movecheck.aa.turn.purchase": "command-specific",
    },
    "movecheck.aa.turn.mobilize_apply": {
        "movecheck.aa.turn.income": "command-specific",
    },
    "movecheck.aa.turn.purchase": {
        "movecheck.aa.setup": "command-specific",
    },
    "movecheck.apply_json": {
        "movecheck.overrides": "command-specific",
    },
    "movecheck.catalogue": {
        "movecheck.suggest": "command-specific",
    },
    "movecheck.cli": {
        "movecheck.apply_json": "command-specific",
        "movecheck.catalogue": "command-specific",
        "movecheck.core": "heavy: yaml",
        "movecheck.overrides": "command-specific",
        "movecheck.pictures": "heavy: yaml",
        "movecheck.schema": "heavy: yaml",
        "movecheck.server": "command-specific",
        "movecheck.session": "heavy: yaml",
        "movecheck.summary.command": "command-specific",
        "movecheck.systems": "command-specific",
    },
    "movecheck.cli_options": {
        "click": "heavy: click",
        "typer._click": "optional: typer >= 0.24 vendors click, older typer needs click itself",
    },
    "movecheck.completion": {
        "movecheck.catalogue": "command-specific",
        "movecheck.clauses": "command-specific",
        "movecheck.schema": "heavy: yaml",
        "movecheck.systems": "command-specific",
    },
    "movecheck.config_files": {
        "movecheck.schema": "command-specific",
        "movecheck.suggest": "command-specific",
        "tomllib": "rarely used: tomllib",
    },
    "movecheck.core": {
        "movecheck.config_files": "command-specific",
    },
    "movecheck.dependents": {
        "movecheck.files": "command-specific",
        "movecheck.gitignore": "command-specific",
        "movecheck.systems": "command-specific",
    },
    "movecheck.files": {
        "movecheck.schema": "command-specific",
    },
    "movecheck.folders": {
        "movecheck.dependents": "heavy: yaml",
        "movecheck.files": "heavy: yaml",
        "movecheck.gitignore": "command-specific",
        "movecheck.loading": "heavy: yaml",
        "movecheck.systems": "command-specific",
    },
    "movecheck.i18n": {
        "gettext": "rarely used: gettext",
    },
    "movecheck.maneuver": {
        "importlib.util": "rarely used: importlib.util",
        "movecheck.maneuver.apply": "command-specific",
        "movecheck.maneuver.describe": "command-specific",
        "movecheck.maneuver.engine": "heavy: numpy, shapely",
        "movecheck.maneuver.lint": "command-specific",
        "movecheck.maneuver.picture": "heavy: yaml",
        "movecheck.maneuver.rules": "command-specific",
        "movecheck.maneuver.setup": "command-specific",
        "movecheck.maneuver.summary": "command-specific",
        "movecheck.reading": "command-specific",
    },
    "movecheck.maneuver.apply": {
        "movecheck.maneuver.checks.words": "command-specific",
        "movecheck.maneuver.dice": "command-specific",
        "movecheck.maneuver.geometry": "heavy: numpy, shapely",
        "movecheck.maneuver.lint": "command-specific",
        "movecheck.maneuver.model": "command-specific",
        "yaml": "heavy: yaml",
    },
    "movecheck.maneuver.checks.terrain": {
        "movecheck.maneuver.dice": "command-specific",
    },
    "movecheck.maneuver.commands": {
        "movecheck.maneuver.reach_cli": "command-specific",
    },
    "movecheck.maneuver.engine": {
        "yaml": "heavy: yaml",
    },
    "movecheck.maneuver.lint": {
        "movecheck.maneuver.geometry": "heavy: numpy, shapely",
        "shapely.geometry": "heavy: numpy, shapely",
        "shapely.validation": "heavy: numpy, shapely",
    },
    "movecheck.maneuver.model": {
        "movecheck.maneuver.geometry": "heavy: numpy, shapely",
        "movecheck.maneuver.options": "command-specific",
        "shapely.geometry": "heavy: numpy, shapely",
        "shapely.ops": "heavy: numpy, shapely",
        "shapely.validation": "heavy: numpy, shapely",
    },
    "movecheck.maneuver.picture": {
        "movecheck.maneuver.geometry": "heavy: numpy, shapely",
        "movecheck.maneuver.model": "command-specific",
        "movecheck.maneuver.picture_reach": "command-specific",
        "movecheck.maneuver.reach_report": "command-specific",
        "movecheck.maneuver.svg": "command-specific",
        "movecheck.maneuver.svg_canvas": "command-specific",
        "movecheck.maneuver.sweep": "heavy: numpy, shapely",
        "shapely.ops": "heavy: numpy, shapely",
    },
    "movecheck.maneuver.picture_reach": {
        "movecheck.maneuver.dice": "command-specific",
        "movecheck.maneuver.geodesic": "heavy: numpy, shapely",
        "movecheck.maneuver.plane": "command-specific",
        "shapely.geometry": "heavy: numpy, shapely",
    },
    "movecheck.maneuver.reach_cli": {
        "movecheck.maneuver.reach_report": "command-specific",
        "movecheck.output": "command-specific",
        "movecheck.reading": "command-specific",
        "movecheck.render": "command-specific",
        "movecheck.session": "heavy: yaml",
    },
    "movecheck.maneuver.reach_corps": {
        "movecheck.maneuver.corps": "command-specific",
    },
    "movecheck.maneuver.reach_report": {
        "movecheck.budget": "command-specific",
        "movecheck.files": "heavy: yaml",
        "movecheck.maneuver.dice": "command-specific",
        "movecheck.maneuver.geodesic": "heavy: numpy, shapely",
        "movecheck.maneuver.reach": "heavy: numpy, shapely",
        "movecheck.maneuver.reach_corps": "heavy: numpy, shapely",
        "movecheck.maneuver.setup": "command-specific",
        "movecheck.maneuver.world": "heavy: numpy, shapely",
        "shapely.geometry": "heavy: numpy, shapely",
    },
    "movecheck.maneuver.svg": {
        "movecheck.maneuver.svg_print": "command-specific",
        "movecheck.maneuver.svg_reach": "command-specific",
        "movecheck.maneuver.terrain": "command-specific",
    },
    "movecheck.maneuver.svg_print": {
        "movecheck.maneuver.svg_canvas": "command-specific",
    },
    "movecheck.output": {
        "movecheck.i18n": "command-specific",
        "movecheck.reading": "command-specific",
        "movecheck.render.escape": "command-specific",
        "secrets": "rarely used: secrets",
    },
    "movecheck.overrides": {
        "movecheck.selection": "command-specific",
        "movecheck.systems": "command-specific",
    },
    "movecheck.parallel": {
        "concurrent.futures": "heavy: concurrent",
        "concurrent.futures.process": "heavy: concurrent, multiprocessing",
        "movecheck.core": "heavy: yaml",
        "multiprocessing": "heavy: multiprocessing",
        "signal": "rarely used: signal",
    },
    "movecheck.pictures": {
        "movecheck.core": "command-specific",
        "movecheck.output": "command-specific",
        "resvg_py": "heavy: resvg_py",
    },
    "movecheck.render": {
        "movecheck.reading": "command-specific",
    },
    "movecheck.render.full": {
        "movecheck.loading": "heavy: yaml",
    },
    "movecheck.render.sarif": {
        "movecheck.catalogue": "command-specific",
    },
    "movecheck.render.text": {
        "movecheck.catalogue": "command-specific",
        "movecheck.files": "heavy: yaml",
        "movecheck.systems": "command-specific",
    },
    "movecheck.report_commands": {
        "movecheck.config": "heavy: yaml",
        "movecheck.core": "heavy: yaml",
        "movecheck.dependents": "heavy: yaml",
        "movecheck.parallel": "command-specific",
        "movecheck.reading": "command-specific",
        "movecheck.session": "heavy: yaml",
        "movecheck.show": "heavy: yaml",
        # --show-files/--show-settings end with Typer's Exit; a broken pipe ends a plain run as Typer ends it;
        # the plain run (check or lint given only files) imports no Typer otherwise
        "typer": "heavy: typer",
        "typer._click.utils": "heavy: typer",
    },
    "movecheck.schema": {
        "jsonschema": "heavy: jsonschema, referencing",
        "jsonschema.exceptions": "heavy: jsonschema, referencing",
        "movecheck.validators": "command-specific",
        "referencing": "heavy: referencing",
    },
    "movecheck.selection": {
        "movecheck.catalogue": "command-specific",
        "movecheck.clauses": "command-specific",
        "movecheck.suggest": "command-specific",
    },
    "movecheck.server": {
        "lsprotocol": "heavy: lsprotocol",
        "movecheck.i18n": "command-specific",
        "movecheck.server.app": "heavy: lsprotocol, pygls, yaml",
        "pygls": "heavy: pygls",
    },
    "movecheck.server.names": {
        "movecheck.catalogue": "command-specific",
        "movecheck.schema": "command-specific",
    },
    "movecheck.server.settings": {
        "movecheck.selection": "command-specific",
    },
    "movecheck.session": {
        "movecheck.folders": "command-specific",
        "movecheck.settings": "command-specific",
    },
    "movecheck.settings": {
        "movecheck.config": "heavy: yaml",
        "movecheck.files": "heavy: yaml",
    },
    "movecheck.summary": {
        "movecheck.findings": "command-specific",
        "movecheck.i18n": "command-specific",
    },
    "movecheck.summary.command": {
        "movecheck.i18n": "command-specific",
        "movecheck.session": "heavy: yaml",
        "movecheck.summary.run": "command-specific",
        "movecheck.summary.writers": "command-specific",
    },
    "movecheck.summary.run": {
        "movecheck.core": "heavy: yaml",
        "movecheck.files": "heavy: yaml",
        "movecheck.systems": "command-specific",
    },
    "movecheck.summary.writers": {
        "unicodedata": "rarely used: unicodedata",
    },
    "movecheck.systems": {
        "movecheck.document": "command-specific",
    },
    "movecheck.validators": {
        "movecheck.validators.generated": "command-specific",
    },
}
