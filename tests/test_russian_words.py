"""What a Russian player reads (issue 42): unit and power names that agree in Russian sentences,
AA401 and AA703 reworded, decimals with a comma (never in the files movecheck writes)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from movecheck.aa.wording import unit_phrase
from movecheck.i18n import ENGLISH, set_language

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = "examples/aa/orders/variants"


@pytest.fixture
def russian() -> Any:
    set_language("ru")
    yield
    set_language(ENGLISH)


@pytest.mark.parametrize(
    ("count", "kind", "power", "words"),
    [
        (1, "infantry", "Germans", "1 немецкая пехота"),
        (2, "infantry", "Germans", "2 немецкие пехоты"),
        (5, "infantry", None, "5 пехот"),
        (1, "fighter", "Americans", "1 американский истребитель"),
        (3, "fighter", "Americans", "3 американских истребителя"),
        (11, "tank", "Russians", "11 советских танков"),
        (21, "tank", "Russians", "21 советский танк"),
        (22, "submarine", "Japanese", "22 японские подводные лодки"),
        (1, "aa_gun", "British", "1 британское орудие ПВО"),
        (0, "fighter", "Germans", "нет немецких истребителей"),
        (2, "fighter", "ANZAC", "2 истребителя (ANZAC)"),
        (2, "zeppelin", "Germans", "2 German zeppelins"),  # a custom map's type: the English words
    ],
)
def test_russian_unit_phrases_agree_with_the_number(russian: None, count: int, kind: str, power: str | None,
                                                     words: str) -> None:
    assert unit_phrase(count, kind, power) == words


def test_english_unit_phrases_are_unchanged() -> None:
    assert unit_phrase(2, "infantry", "Germans") == "2 German infantry"
    assert unit_phrase(0, "fighter", "Germans") == "no German fighters"


def first_finding(run_main: Any, path: str, lang: str) -> str:
    code, out, _err = run_main(["check", "-q", "--color", "never", "--lang", lang, path], cwd=ROOT)
    assert code == 1
    return out.splitlines()[0].split("] ", 1)[1]


def test_no_english_unit_words_in_russian_findings(run_main: Any) -> None:
    assert first_finding(run_main, f"{VARIANTS}/aa102-not-present.yaml", "ru") == (
        "приказано 3 пехоты из Poland, но там только 2 немецкие пехоты")
    assert first_finding(run_main, f"{VARIANTS}/aa102-not-present.yaml", "en") == (
        "3 infantry ordered from Poland, but only 2 German infantry there")


def test_aa401_and_aa703_read_in_russian(run_main: Any) -> None:
    assert first_finding(run_main, f"{VARIANTS}/ncm-aa401-capacity.yaml", "ru") == (
        "на транспорте T-Baltic не хватает места для груза (1 пехота): транспорт берёт 2 пехоты или 1 пехоту "
        "и 1 другой наземный юнит")
    assert first_finding(run_main, f"{VARIANTS}/mob-aa703-over-capacity.yaml", "ru") == (
        "завод в Italy выставляет за ход не больше 3 (по ценности территории, 3 IPC), а здесь нужно выставить 4; "
        "другие заводы эти юниты не примут")


def test_russian_decimals_have_a_comma(run_main: Any) -> None:
    pytest.importorskip("shapely")
    ru = first_finding(run_main, "examples/maneuver/free-orders-mv101.yaml", "ru")
    assert ru.startswith("r9 проходит 10,50 шага, но её запас хода 10,00 ")
    en = first_finding(run_main, "examples/maneuver/free-orders-mv101.yaml", "en")
    assert en.startswith("r9 travels 10.50 steps but its allowance is 10.00 ")
    point = first_finding(run_main, "examples/maneuver/corps-orders-mv202.yaml", "ru")
    assert point.startswith("r2 заявлена в (54,00; 36,00), на 2,00 шага")


def test_suggested_positions_keep_the_point_in_russian(run_main: Any) -> None:
    pytest.importorskip("shapely")
    args = ["check", "-q", "--lang", "ru", "--suggest"]
    _code, out, _err = run_main([*args, "examples/maneuver/corps-orders-mv202.yaml"], cwd=ROOT)
    assert "    r2: {x: 54, y: 38}" in out  # YAML to paste: a decimal comma would be a string
    _code, out, _err = run_main([*args, "examples/maneuver/corps-orders.yaml"], cwd=ROOT)
    assert "r17: {x: 108.03, y: 118.92}" in out and "108,03" not in out.split("end:", 1)[-1]
