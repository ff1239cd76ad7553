"""Dice anyone can verify (aa-battle.md, "Dice anyone can verify", "The dice construction"): the construction."""

from __future__ import annotations

from collections import Counter

import pytest

from movecheck.aa.battle import chain

EMPTY_DIGEST = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
ATTACKER = chain.make_chain(bytes([1]) * 32, 2)
DEFENDER = chain.make_chain(bytes([2]) * 32, 2)


def test_the_spec_test_vector_chains():
    assert ATTACKER[0].hex() == "a0d4a0b8484643488c45836275bdcf2ca1bf542239aa6ba72bbc5a5951cfb044"
    assert ATTACKER[1].hex() == "72cd6e8422c407fb6d098690f1130b7ded7ec2f7f5e1d30bd9d521f015363793"
    assert DEFENDER[0].hex() == "328674a5f838f6987ead31003978b5ed607ccc5ed2aa73677f861d4d4e567cfc"
    assert DEFENDER[1].hex() == "75877bb41d393b5fb8455ce60ecd8dda001d06316496b14dfa7f895656eeca4a"
    assert chain.state_digest(b"") == EMPTY_DIGEST


def test_the_spec_test_vector_block_and_dice():
    args = (EMPTY_DIGEST, "Karelia S.S.R.", "land", 1, "attacker", "fire")
    block = next(chain.blocks(ATTACKER[1] + DEFENDER[1], *args))
    assert block.hex() == "2800ca77f51ba394ed349ada04953e67d1b9456d54742761593684633540831a"
    assert chain.step_dice(ATTACKER[1], DEFENDER[1], *args, 6) == [5, 1, 5, 6, 6, 4]


def test_the_message_is_eight_fields_each_ending_in_a_line_feed():
    text = chain.message(EMPTY_DIGEST, "Karelia S.S.R.", "land", 1, "attacker", "fire", 0)
    assert text == ("movecheck-dice-1\n" + EMPTY_DIGEST + "\nKarelia S.S.R.\nland\n1\nattacker\nfire\n0\n").encode()


def test_chains_verify_and_a_wrong_link_is_caught():
    links = chain.make_chain(bytes(range(32)), 5)
    assert len(links) == 6 and chain.broken_links(links) == []
    assert all(chain.follows(links[k], links[k - 1]) for k in range(1, 6))
    wrong = list(links)
    wrong[3] = bytes(32)
    assert chain.broken_links(wrong) == [3, 4]  # x_3 does not hash to x_2, nor x_4 to the wrong x_3
    assert not chain.follows(DEFENDER[1], ATTACKER[0])


def test_a_new_chain_is_random_and_links_down_to_its_head():
    one, two = chain.new_chain(3), chain.new_chain(3)
    assert one[0] != two[0] and len(one) == 4 and chain.broken_links(one) == chain.broken_links(two) == []


def test_the_same_inputs_always_give_the_same_dice_and_other_fields_other_dice():
    args = (EMPTY_DIGEST, "Karelia S.S.R.", "land", 1, "attacker", "fire", 40)
    dice = chain.step_dice(ATTACKER[1], DEFENDER[1], *args)
    assert dice == chain.step_dice(ATTACKER[1], DEFENDER[1], *args) and len(dice) == 40
    assert dice != chain.step_dice(ATTACKER[1], DEFENDER[1], EMPTY_DIGEST, "Karelia S.S.R.", "land", 2,
                                   "attacker", "fire", 40)
    assert dice != chain.step_dice(ATTACKER[1], DEFENDER[1], EMPTY_DIGEST, "Karelia S.S.R.", "land", 1,
                                   "defender", "fire", 40)
    assert dice != chain.step_dice(ATTACKER[2], DEFENDER[2], *args)
    assert chain.step_dice(ATTACKER[1], DEFENDER[1], EMPTY_DIGEST, "x", "land", 1, "attacker", "fire", 0) == []


def test_bytes_from_252_give_no_die():
    key = ATTACKER[1] + DEFENDER[1]
    for j in range(50):  # find a block with a byte to skip: the dice then are the other bytes, in order
        block = hmac_block(key, j)
        if any(b >= 252 for b in block):
            break
    else:  # pragma: no cover
        pytest.fail("no byte of 252 or more in 50 blocks")
    expected = [b % 6 + 1 for j2 in range(j + 1) for b in hmac_block(key, j2) if b < 252]
    got = chain.step_dice(ATTACKER[1], DEFENDER[1], EMPTY_DIGEST, "Karelia S.S.R.", "land", 1, "attacker", "fire",
                          len(expected))
    assert got == expected and len(expected) < 32 * (j + 1)


def hmac_block(key: bytes, j: int) -> bytes:
    import hashlib
    import hmac

    msg = chain.message(EMPTY_DIGEST, "Karelia S.S.R.", "land", 1, "attacker", "fire", j)
    return hmac.new(key, msg, hashlib.sha256).digest()


def test_dice_are_dealt_by_value_then_plane_type_in_order():
    assert chain.deal([5, 1, 5, 6, 6, 4], [("1", 3), ("2", 2), ("3", 1)]) == {"1": [5, 1, 5], "2": [6, 6],
                                                                                "3": [4]}
    assert chain.deal([2, 3], [("fighter", 1), ("bomber", 1)]) == {"fighter": [2], "bomber": [3]}


def test_hex_links_read_back():
    assert chain.from_hex(ATTACKER[0].hex()) == ATTACKER[0]
    assert chain.from_hex(ATTACKER[0].hex().upper()) == ATTACKER[0]
    assert chain.from_hex("zz" * 32) is None and chain.from_hex("ab") is None and chain.from_hex(5) is None


CHI_SQUARE_5_DF_P_0001 = 20.515
"""The chi-square value with 5 degrees of freedom exceeded with probability 0.001."""


@pytest.mark.slow
def test_a_million_derived_dice_pass_a_chi_square_test_of_uniformity():
    counts: Counter[int] = Counter()
    for r in range(1, 101):  # 100 rounds of 10,000 dice each, one key per ten rounds
        k = (r - 1) // 10
        links = chain.make_chain(bytes([k]) * 32, 1)
        counts.update(chain.step_dice(links[1], links[0], EMPTY_DIGEST, "Karelia S.S.R.", "land", r, "attacker",
                                      "fire", 10_000))
    total = sum(counts.values())
    assert total == 1_000_000 and sorted(counts) == [1, 2, 3, 4, 5, 6]
    expected = total / 6
    statistic = sum((n - expected) ** 2 / expected for n in counts.values())
    assert statistic < CHI_SQUARE_5_DF_P_0001, (statistic, counts)
