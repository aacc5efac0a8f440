"""The club's words for what it refuses (:mod:`club`): :class:`club.errors.ClubRefused` and the club's
own PostgreSQL.

Each key's English line, from its named facts: this layer's catalogue, registered into the rules
core's table (:func:`scorer.messages.register_messages`) when the package is imported, so that an
``InputError(key, **params)`` raised here renders through the one renderer. The page's Chinese of
each key is :data:`web.i18n.MESSAGES_ZH`.
"""

from __future__ import annotations

from tuolaji.scorer.messages import register_messages

CLUB_MESSAGES_EN: dict[str, str] = {
    # the club's refusals (club.errors.ClubRefused)
    "club.unknown_command": "unknown command {kind!r}: play, a points entry (play-points, settle-points, concede, set-kitty-points) or ruling",
    "club.no_table": "no table {name!r} in this club",
    "club.command_body": "a command's body must be an object",
    "club.name_length": "a {what} name is 1 to {most} characters",
    "club.change_object": "a change must be an object with n, session, name and record",
    "club.change_number": "change number {n!r}: a whole number from 1",
    "club.change_session": "change {n}: session {session!r} is not a session id",
    "club.change_fields": "change {n}: name must be text and record an object",
    "club.change_record": "change {n}: not a valid record ({error})",
    "club.change_base": "change {n}: the club's copy of session {session} does not hold what it changed; "
                        "send the session's record whole",
    "club.change_name": "change {n}: not a name ({error})",
    "club.change_unstorable": "change {n}: the club's database cannot store it ({reason})",
    "club.table_exists": "table {name!r} exists already",
    "club.batch": "at most {most} changes a push, got {got}",
    "club.no_session": "table {name!r}: no such session",
    "club.wrong_token": "table {name!r}: wrong token",
    "club.no_command": "table {name!r}: no command {command}",
    "club.pair_same": "pair {name!r}: two different players, please",
    "club.pair_exists": "pair {name!r} exists already",
    "club.round_open": "round {round} is still under way: end it first",
    "club.round_ends_by": "a round ends by 'deals' or by 'time'",
    "club.round_deals": "a round ending by deals needs deals ≥ 1",
    "club.round_minutes": "a round ending by time needs minutes ≥ 1",
    "club.round_empty": "a round seats at least one table",
    "club.round_tables": "a round seated by hand names its tables: a list of {{table, ns, ew}}, each a name",
    "club.pair_line": "line {line}: a pair is its name and its two players ({text!r})",
    "club.pairs_none": "no pair to register: one a line, its name and its two players",
    "club.pairs_text": "a list of pairs is at most {most} characters",
    "club.database_down": "{reason}: the tables keep playing and send their changes when it is back",
    "club.pair_twice": "a pair is seated twice in one round",
    "club.whole_number": "{kind}: {field} must be a whole number, got {value!r}",
    "club.play_cards": "play: cards must be a list of card names",
    "club.play_card": "play: {error}",
    "club.ruling_note": "ruling: the note is at most 500 characters of text",
    "club.seating": "unknown seating {seating!r}: hand, drawn, swiss, roundrobin, howell or mitchell",
    "club.no_round": "no round is under way",
    "club.out_of_order": "table {name!r}: change {n} out of order, expected {expected}",
    "club.too_few_tables": "{pairs} pairs need {needed} tables, the club has {tables}",
    "club.fix_reason": "a fixed result needs its reason (1 to {most} characters), kept in the record",
    "club.fix_no_seating": "round {round}: table {table!r} was not seated in it",
    "club.fix_figures": "pair {pair!r}: {field} must be a whole number, got {value!r}",
    "club.move_side": "a pair sits North–South (ns) or East–West (ew), not {side!r}",
    "club.move_unknown": "no pair {pair!r} or no table {table!r} in this club",
    "club.move_free_table": "table {table!r} is not seated in round {round}: move the pair to a seated table",
    "club.move_same": "pair {pair!r} sits there already at table {table!r}",
    "club.backup_no_tool": "no pg_dump for PostgreSQL {major} or newer on this machine (the club extra's pgserver brings one)",
    "club.backup_failed": "the backup failed ({reason})",
    "club.restore_not_backup": "not a backup of a club (the file the console's backup link gives)",
    "club.restore_failed": "the backup was not restored, the club is as it was ({reason})",
    "club.restore_confirm": "a restore replaces all of the club's data: confirm it first",
    "club.movement_pairs": "a movement seats at least 2 pairs, the club has {pairs}",
    "club.mitchell_odd": "a Mitchell seats an even number of pairs (North–South stay, East–West move), not {pairs}",
    "club.movement_tables": "{pairs} pairs need {needed} tables in this movement, the club has {tables}",
    "club.movement_done": "this movement has {rounds} rounds for {pairs} pairs, all played: seat the next round another way",
    # the club's own PostgreSQL (club.own_database)
    "club.own_db_missing": "the club's own database needs the 'club' extra (pgserver): pip install -e '.[club]', "
                           "or give --db postgresql://…",
    "club.own_db_path_too_long": "--data {folder}: too long a path for the database's socket (at most {most} characters)",
    "club.own_db_failed": "--data {folder}: the club's database did not start ({error})",
    "club.round_unknown": "round {round}: unknown table or pair in {table!r}: {ns!r} – {ew!r}",
    "club.change_differs": ("table {name!r}: change {n} differs from the change {n} received before"
                            " (a table whose outbox was reset?)"),
    "club.organiser": "the organiser's token is needed",
    "club.host": "host {host!r} is not one of the club's names (tuolaji club --allow-host NAME)",
    "club.body_size": "the request's body is over {most} MiB",
    "club.bad_value": "a value the club's database cannot take ({reason})",
    "club.minutes": "a round by time lasts 1 to {most} minutes, not {value!r}",
    "club.import_pushing": "table {name!r} already pushes its changes (it holds {n}): import into a new table",
    "club.body_object": "the body must be a JSON object",
    "club.wrong_table": "changes for table {given!r} pushed to table {name!r}",
    "club.changes_list": "changes must be a list",
    "club.pair_two": "a pair is two players",
    "club.standings_rule": "unknown standings rule {rule!r}: one of {choices:, }",
    "club.page_read_only": "read-only: entering plays at the club needs the table's token",
    "club.page_elsewhere": "at the club a phone enters plays, points (只记分, 认输, the kitty's points) and rulings; other changes are made on the table's own page",
    "club.command_queued": "the table's machine has not answered yet: command {command} is queued and applied when it is back",
}
"""The English of every message key this layer raises (and no lower layer does)."""

register_messages("club", CLUB_MESSAGES_EN)

__all__ = ["CLUB_MESSAGES_EN"]
