"""What ``movecheck render`` draws for an aa file, collected from the board and the run of ``check``.

A state gives the board: every space at its centre (:mod:`movecheck.aa.picture.layout`), who
holds it, its factory and its units by power and type.  An orders file is checked as
``check`` checks it; the picture shows the board before the orders, each order as an
arrow along its path (an amphibious assault, a blitz and an illegal order each drawn
their own way), the battles the legal orders start, and every finding's code at the
space it concerns (a finding of no space in the margin).  Battle results show the
battles of their state.  :mod:`movecheck.aa.picture.svg` draws the scene.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from movecheck.aa.maps import BUILTIN_MAPS
from movecheck.aa.picture.scene import Arrow, Board, Marker, Note, Place
from movecheck.files import is_kind
from movecheck.findings import Finding, Report, Verdict
from movecheck.i18n import _
from movecheck.reading import InputError
from movecheck.systems import ORDERS, STATE, Unrenderable

if TYPE_CHECKING:  # pragma: no cover - typing only
    from movecheck.systems import Drawing, Outcome, Prepared


def picture(loaded: Any, run: Drawing, around: str | None = None) -> str:
    """The SVG picture of a usable aa state, orders or battle results file (:class:`Unrenderable` when there is none).

    ``run``: the run's services (``select``: what the run reports of a report, ``prepare``, ``check``).
    """
    if is_kind(loaded.kind, STATE):
        prepared = run.prepare(loaded)
        report = Report()
        report.findings.extend(loaded.findings + prepared.findings)
        report = run.select(report)
        if prepared.model is None:
            raise Unrenderable(report, prepared.reason or _("the state has errors"))
        scene = board_scene(prepared, _("{path}: the board").format(path=loaded.doc.path))
        scene.notes, scene.markers = notes_and_markers(report.sorted_findings(), lambda f: None)
        scene.around = around
        return render(scene)
    if not is_kind(loaded.kind, ORDERS):
        raise InputError(_("render draws aa states, orders and battle results; {path} is an {kind} file").format(
            path=loaded.doc.path, kind=loaded.kind))
    outcomes: dict[str, tuple[Outcome[object], Prepared[object]]] = {}
    report = run.select(run.check([loaded.doc.path], outcomes))
    if not outcomes:
        entry = report.files[0] if report.files else None
        reason = entry.reason if entry is not None and entry.reason else _("the orders cannot be checked")
        raise Unrenderable(report, reason)
    (doc_path, (outcome, prepared)), = outcomes.items()
    if prepared.model is None or outcome.reason:
        raise Unrenderable(report, outcome.reason or _("the state has errors"))
    scene = orders_scene(loaded.doc, doc_path, outcome, prepared, report)
    scene.around = around
    return render(scene)


def render(scene: Board) -> str:
    """The scene as SVG: on its board when the map has one (:mod:`movecheck.aa.picture.board`), else as a diagram."""
    if scene.shapes is not None:
        from movecheck.aa.picture.board import render_board

        return render_board(scene)
    from movecheck.aa.picture.svg import render as diagram

    return diagram(scene)


def layout_of(prepared: Any) -> Any:
    """The layout of the state's map: a built-in map's, a map file's ``layout:``, else computed."""
    from movecheck.aa.picture.layout import builtin_layout, complete, from_data

    game_map = prepared.model.map
    named = prepared.doc.data.get("map")
    found = None
    if isinstance(named, str) and named in BUILTIN_MAPS:
        found = builtin_layout(named)
    elif isinstance(named, dict):
        found = from_data(named.get("layout"), list(game_map.spaces))
    elif prepared.referenced and isinstance(prepared.referenced[0].doc.data, dict):
        found = from_data(prepared.referenced[0].doc.data.get("layout"), list(game_map.spaces))
    return complete(found, list(game_map.spaces), game_map.adj)


def board_scene(prepared: Any, title: str) -> Board:
    """The spaces, connections and units of a board as the state leaves it."""
    board = prepared.model
    layout = layout_of(prepared)
    game_map = board.map
    scene = Board(title, layout.width, layout.height, layout.wrap_x, list(game_map.powers), computed=layout.computed,
                  shapes=layout.board)
    impassable = set(layout.board.impassable) if layout.board is not None else set()
    for name, space in game_map.spaces.items():
        scene.places[name] = Place(name, layout.centers[name], space.sea, space.neutral,
                                   None if space.sea else board.controller(name),
                                   production=None if space.sea else game_map.production.get(name, 0),
                                   impassable=name in impassable)
    order = {power: k for k, power in enumerate(game_map.powers)}
    stacks: dict[str, dict[str, dict[str, int]]] = {}
    for unit in board.units:
        if unit.type.is_factory:
            scene.places[unit.at].factory = True
            scene.places[unit.at].damage += unit.damage
            continue
        kinds = stacks.setdefault(unit.at, {}).setdefault(unit.power, {})
        kinds[unit.type.name] = kinds.get(unit.type.name, 0) + 1
    from movecheck.aa.post.report import in_order

    for space, powers in stacks.items():
        scene.places[space].units = [(p, in_order(k)) for p, k in
                                     sorted(powers.items(), key=lambda item: (order.get(item[0], len(order)), item[0]))]
    scene.links = [(a, b) for a in game_map.spaces for b in game_map.adj[a] if a < b]
    battles = prepared.doc.data.get("battles")
    for battle in battles if isinstance(battles, list) else []:
        at = game_map.resolve(battle.get("at")) if isinstance(battle, dict) else None
        if at is not None:
            scene.places[at].battle = True
    return scene


def orders_scene(doc: Any, path: str, outcome: Any, prepared: Any, report: Report) -> Board:
    """The board before the orders, an arrow per order, the battles they start, the findings at their spaces."""
    board = prepared.model
    entry = next(e for e in report.files if e.path == path)
    verdicts = entry.verdicts(report.findings)
    turn = prepared.doc.get("turn", default={})
    from movecheck.aa.post.sections import phase_word

    title = _("{path}: {power}, {phase} on {state}").format(path=path, power=board.power,
                                                        phase=phase_word(turn.get("phase")), state=prepared.doc.path)
    scene = board_scene(prepared, title)
    scene.turn = True
    resolve = board.map.resolve
    spaces_of: dict[int, list[str]] = {}
    raw = doc.get("moves", default=None)
    if isinstance(raw, list):
        kinds = _how(outcome, prepared)
        for index, move in enumerate(raw, start=1):
            names = move.get("path") if isinstance(move, dict) else None
            route = [resolve(n) for n in names] if isinstance(names, list) else []
            spaces_of[index] = [s or "" for s in route]
            known = [s for s in route if s is not None]
            if len(known) < 2:
                continue
            legal = verdicts.get(index, (Verdict.UNCHECKED, None))[0] is Verdict.LEGAL
            label = str(move.get("id") or index)
            how = kinds.get(index, "move") if legal else "illegal"
            scene.arrows.append(Arrow(index, label, board.power, how, known, what=_what_moved(move, board)))
        if entry_legal(verdicts):
            battles, taken = _battles_started(outcome, prepared)
            for space in battles:
                scene.places[space].battle = True
            for space, how in taken.items():
                scene.places[space].taken = how
            _attacks(scene, battles)
    _placements_and_purchase(scene, outcome, verdicts)
    results = doc.get("results", default=None)
    if isinstance(results, list):
        for index, result in enumerate(results, start=1):
            at = resolve(result.get("at")) if isinstance(result, dict) else None
            spaces_of[index] = [at or ""]

    def space_of(finding: Finding) -> str | None:
        if finding.order is None or finding.order not in spaces_of:
            return None
        route = spaces_of[finding.order]
        key = "moves" if isinstance(raw, list) else "results"
        for k, space in enumerate(route):
            where = (key, finding.order - 1, "path", k) if key == "moves" else (key, finding.order - 1, "at")
            if space and doc.pos(where) == (finding.line, finding.column):
                return space
        known = [s for s in route if s]
        return known[-1] if known else None

    scene.notes, scene.markers = notes_and_markers(report.sorted_findings(), space_of)
    return scene


def _what_moved(move: dict[str, Any], board: Any) -> str:
    """``2 inf, 1 arm``: the units an order names by type (and one per unit named by id)."""
    from movecheck.aa.post.report import counts_text

    units = move.get("units")
    counts: dict[str, int] = {}
    items = units.items() if isinstance(units, dict) else ((u, 1) for u in units) if isinstance(units, list) else ()
    for key, count in items:
        found = board.by_id.get(key) if isinstance(key, str) else None
        kind = found.type.name if found is not None else board.map.resolve_type(key)
        if kind is not None and isinstance(count, int) and not isinstance(count, bool) and count > 0:
            counts[kind] = counts.get(kind, 0) + count
    return counts_text(counts) if counts else ""


def _attacks(scene: Board, battles: list[str]) -> None:
    """A legal move that ends in a battle is an attack; an attack of bombers alone on a factory is a raid."""
    fought = set(battles)
    for arrow in scene.arrows:
        end = arrow.path[-1]
        if arrow.how != "move" or end not in fought:
            continue
        raid = scene.places[end].factory and arrow.what and all(
            part.split(" ", 1)[1] in ("bmr", "bomber") for part in arrow.what.split(", "))
        arrow.how = "raid" if raid else "attack"


def _placements_and_purchase(scene: Board, outcome: Any, verdicts: dict[int, Any]) -> None:
    """A mobilization's placements on the board; a purchase said over it (nothing of it is on the board yet)."""
    from movecheck.aa.post.report import counts_text
    from movecheck.aa.turn.mobilize import Mobilization
    from movecheck.aa.turn.purchase import Bought

    final = outcome.final
    if isinstance(final, Mobilization):
        for placement in final.placements:
            if placement.at in scene.places and placement.units:
                scene.placements.append((placement.at, final.power, dict(placement.units)))
        if not final.placements:
            scene.banner = [_("{power}: nothing placed").format(power=final.power)]
    elif isinstance(final, Bought):
        scene.banner = [_("{power} bought: {units} ({cost} IPCs)").format(
            power=final.power, units=counts_text(final.units), cost=final.unit_cost())]
        for space, points in final.repair.items():
            scene.banner.append(_("repair of the factory in {space}: {points} points").format(space=space,
                                                                                           points=points))
        if final.research:
            scene.banner.append(_("research: {ipcs} IPCs").format(ipcs=final.research))
        scene.banner.append(_("a purchase has nothing on the board: the units are placed by the mobilization"))


def entry_legal(verdicts: dict[int, Any]) -> bool:
    return all(v is Verdict.LEGAL for v, _reason in verdicts.values())


def _how(outcome: Any, prepared: Any) -> dict[int, str]:
    """Per order carried out: ``amphibious`` (land units unloaded into a combat), ``blitz`` or ``move``."""
    from movecheck.aa.post.sections import blitzed_through

    phase = outcome.final
    found: dict[int, str] = {}
    if phase is None or not hasattr(phase, "records"):
        return found
    start = prepared.model
    for record in phase.records:
        move = record.move
        how = "move"
        if record.unloaded and phase.combat:
            how = "amphibious"
        elif blitzed_through(start, phase, record):
            how = "blitz"
        found[move.index] = how
    return found


def _battles_started(outcome: Any, prepared: Any) -> tuple[list[str], dict[str, str]]:
    """The battles a legal move leaves to fight and the territories it takes (as ``apply`` would write them)."""
    from movecheck.aa.turn.apply import applied_state

    if outcome.final is None or outcome.hold is not None or not hasattr(outcome.final, "records"):
        return [], {}
    state, report = applied_state(outcome.final, prepared.doc.data, prepared.doc.path, "")
    battles = state.get("battles")
    spaces = prepared.model.map.spaces
    taken = {c.at: "liberated" if c.liberated else "captured" for c in report.captured if c.at in spaces}
    return [str(b["at"]) for b in battles or [] if isinstance(b, dict) and b.get("at") in spaces], taken


def notes_and_markers(findings: list[Finding],
                      space_of: Callable[[Finding], str | None]) -> tuple[list[Note], list[Marker]]:
    """The list below the board (every finding in full) and a marker per finding."""
    notes, markers = [], []
    for finding in findings:
        where = f"{finding.file}:{finding.line}:{finding.column}"
        notes.append(Note(finding.code, finding.severity.value,
                          f"{where}: {finding.code} [{finding.severity.value}] {finding.message}"))
        markers.append(Marker(finding.code, finding.severity.value, space_of(finding), finding.order))
    return notes, markers
