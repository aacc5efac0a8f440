"""No accusation on a misread: a violation that rests on a card a person has yet to confirm (a
camera's unsure read, a trick's ``unconfirmed``) is "to check", not proven, and its penalty waits,
until the card is confirmed (docs/RECORD.md ``to_check``)."""

from __future__ import annotations

import copy

import pytest

from tests.conftest import deal_record
from tuolaji.scorer import RecordError, audit_findings, audit_record

PENALISED = {"profile": "guangzhou-3deck", "discard_penalty": "points", "trump_penalty": "level-points"}

REVOKE = [
    (0, ["AH", "3D", "4H", "6H"]),  # seat 1 plays ♦3 on a ♥ lead ...
    (0, ["7D", "5H", "8D", "9D"]),  # ... and shows ♥5 in the next trick
]


def audited(unconfirmed: dict[int, list[list[int]]], tricks: list[tuple] = REVOKE) -> dict:
    rec = deal_record(PENALISED, tricks)
    for trick, entries in unconfirmed.items():
        rec["deals"][0]["tricks"][trick]["unconfirmed"] = entries
    return audit_record(rec)["deals"][0]


def test_a_revoke_proven_by_an_unsure_card_is_to_check_and_not_penalised() -> None:
    sure = audited({})
    assert [(v["rule"], v["proven"]) for v in sure["violations"]] == [("must-follow-suit", True)]
    assert "to_check" not in sure["violations"][0] and len(sure["penalties"]) == 1

    unsure = audited({1: [[1, 0]]})  # the ♥5 that proves it is an unsure read
    (v,) = unsure["violations"]
    assert (v["rule"], v["proven"], v["to_check"]) == ("must-follow-suit", False, [[1, 1, 0]])
    assert unsure["penalties"] == [] and unsure["penalty_points"] == 0
    assert unsure["tricks"][0]["plays"][1]["violations"] == [v]


@pytest.mark.parametrize("entry", [[0, 0], [1, 0]])
def test_an_unsure_card_of_the_trick_itself_puts_the_violation_to_check(entry: list[int]) -> None:
    """The lead (is it ♥?) and the follow itself (is it ♦3?) are what the revoke rests on too."""
    (v,) = audited({0: [entry]})["violations"]
    assert v["proven"] is False and v["to_check"] == [[0, *entry]]


@pytest.mark.parametrize("entry", [(1, [3, 0]), (0, [2, 0]), (0, [3, 0])])
def test_an_unsure_card_the_violation_does_not_rest_on_changes_nothing(entry: tuple[int, list[int]]) -> None:
    """Seat 3's ♦9 in the next trick; the other followers' cards of the revoke's own trick."""
    trick, seat_index = entry
    other = audited({trick: [seat_index]})
    assert [(v["proven"], "to_check" in v) for v in other["violations"]] == [(True, False)]
    assert len(other["penalties"]) == 1


def test_too_many_copies_rest_on_the_unsure_reads_of_that_card_only() -> None:
    tricks = [(0, ["AH", "AH", "AH", "4H"])]  # three ♥A in two decks
    rec = deal_record("standard-2deck", tricks)
    assert [v["proven"] for v in audit_record(rec)["deals"][0]["violations"]] == [True]
    rec["deals"][0]["tricks"][0]["unconfirmed"] = [[3, 0]]  # the ♥4: not what is counted
    assert [v["proven"] for v in audit_record(rec)["deals"][0]["violations"]] == [True]
    rec["deals"][0]["tricks"][0]["unconfirmed"] = [[1, 0]]  # the second ♥A
    (v,) = audit_record(rec)["deals"][0]["violations"]
    assert v["rule"] == "card-not-available" and v["proven"] is False and v["to_check"] == [[0, 1, 0]]


def test_a_failed_throw_beaten_by_an_unsure_card_waits_with_its_penalty() -> None:
    tricks = [
        (0, ["AH QH", "3H 4H", "KH 5H", "6H 7H"]),  # seat 2's ♥K beats the ♥Q of the throw
        (0, ["3D", "4D", "5D", "6D"]),
    ]
    sure = audited({}, tricks)
    assert [(v["rule"], v["proven"]) for v in sure["violations"]] == [("failed-throw", True)] and sure["penalties"]
    unsure = audited({0: [[2, 0]]}, tricks)
    assert [(v["rule"], v["proven"]) for v in unsure["violations"]] == [("failed-throw", False)]
    assert unsure["penalties"] == []


def test_the_findings_as_data_carry_the_cards_to_check() -> None:
    rec = deal_record(PENALISED, REVOKE)
    rec["deals"][0]["tricks"][1]["unconfirmed"] = [[1, 0]]
    (found,) = audit_findings(rec)[0].violations
    assert found.proven is False and found.to_check == ((1, 1, 0),)


def test_an_entry_naming_no_card_leaves_nothing_to_check() -> None:
    """A play taken back while unsure, in a record written before its entry was cleared."""
    assert [v["proven"] for v in audited({1: [[1, 1], [2, 3]]})["violations"]] == [True]


def test_confirming_the_card_proves_it() -> None:
    rec = deal_record(PENALISED, REVOKE)
    rec["deals"][0]["tricks"][1]["unconfirmed"] = [[1, 0]]
    confirmed = copy.deepcopy(rec)
    del confirmed["deals"][0]["tricks"][1]["unconfirmed"]
    assert audit_record(rec)["deals"][0]["violations"][0]["proven"] is False
    assert audit_record(confirmed)["deals"][0]["violations"][0]["proven"] is True


@pytest.mark.parametrize(("entries", "message"), [
    ("1 0", "expected a list of [seat, card index] pairs"),
    ([[7, 0]], "expected a seat number 0..3"),
    ([[1, -1]], "expected a list of [seat, card index] pairs"),
])
def test_a_wrong_unconfirmed_entry_is_refused_in_one_line(entries: object, message: str) -> None:
    rec = deal_record("standard-2deck", REVOKE)
    rec["deals"][0]["tricks"][1]["unconfirmed"] = entries
    with pytest.raises(RecordError, match=r"deals\[0\]\.tricks\[1\]\.unconfirmed") as caught:
        audit_record(rec)
    assert message in str(caught.value) and "\n" not in str(caught.value)
