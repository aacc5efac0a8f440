"""A copy of a record kept elsewhere (the club's) follows the live game by its journal alone: each
:class:`~session.journal.Change`, sent as JSON, moves the copy on to the game's record, whatever the
change (a play, a deal added, an undone deal removed and put back, an earlier deal's kitty, a whole
record imported); a copy that does not hold what a change started from is told so, never changed."""

from __future__ import annotations

import copy
import json

from tests.browser.records import played_deal_record
from tuolaji.session.journal import Change
from tuolaji.session.live import LiveGame


def sent(change: Change) -> Change:
    """The change as another copy receives it (through JSON, as the club's push carries it)."""
    return Change.from_json(change.number, json.loads(json.dumps(change.to_json(), ensure_ascii=False)))


def test_a_copy_moved_on_by_each_change_is_the_games_record() -> None:
    record = played_deal_record()
    game = LiveGame(record)
    copy_of = copy.deepcopy(record)
    game.next_deal("S", history=True)
    game.bid(1, [game.snapshot()["deals"][1]["level"] + "S"], history=True)
    game.undo()
    game.undo()  # the deal added, removed again
    game.redo()
    game.set_kitty(0, None, history=True)  # an earlier deal's
    game.import_record(game.snapshot() | {"deals": game.snapshot()["deals"][:1]})
    kinds = [change.kind for change in game.journal()]
    assert kinds == ["next-deal", "bid", "undo", "undo", "redo", "set-kitty", "import"]
    removed = game.journal()[3]
    assert removed.deal == 1 and removed.after is None and removed.before is not None
    for change in game.journal():
        moved = sent(change)
        assert moved.fits(copy_of), change.kind
        copy_of = moved.applied_to(copy_of)
    assert copy_of == game.snapshot()


def test_a_copy_that_lacks_what_a_change_started_from_is_told_so() -> None:
    record = played_deal_record()
    game = LiveGame(record)
    game.set_kitty(0, None)
    [kitty] = game.journal()
    game.next_deal("H")
    added = game.journal()[-1]
    assert not sent(kitty).fits(copy.deepcopy(game.snapshot()))  # the change made already: its start is gone
    assert sent(kitty).fits(record) and not sent(added).fits(record)  # a deal added: the copy lacks the one before
    assert sent(added).fits(sent(kitty).applied_to(record))
