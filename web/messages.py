"""The page's words for what it refuses (:mod:`web`): its requests, the sessions store, the camera and
decks pages, replay, house rules and imported zips.

Each key's English line, from its named facts: this layer's catalogue, registered into the rules
core's table (:func:`scorer.messages.register_messages`) when the package is imported, so that an
``InputError(key, **params)`` raised here renders through the one renderer. The page's Chinese of
each key is :data:`web.i18n.MESSAGES_ZH`.
"""

from __future__ import annotations

from tuolaji.scorer.messages import register_messages

WEB_MESSAGES_EN: dict[str, str] = {
    "session.too_large": "{where}: not saved: {size:,} bytes, over the limit of {most:,}",
    "points.agreed_gone": ("agreed: 按一局记 no longer settles by points agreed; to concede (认输), send "
                           "/api/points/concede (by: dealer or defenders, points: the defenders' points agreed)"),
    # the page's requests (web)
    "page.json_content_type": "request body: expected a JSON object (Content-Type: application/json)",
    "page.json_object": "request body: expected a JSON object",
    "page.whole_number": "{where}: expected a whole number",
    "page.whole_number_length": "{where:at}expected a whole number",
    "page.whole_number_value": "{where:at}expected a whole number",
    "page.out_of_range": "{where}: {number} is out of range",
    "page.profile": "profile: unknown profile {profile!r}",
    "page.players_names": "players: at most {most} names of at most {length} characters",
    "page.player_count": "{profile:profile} is played by {counts: or } players, not {players}",
    "page.levels": "levels: expected one level (2 … A) per player",
    "page.partner_levels": "partners (seats 0/2 and 1/3) share one level",
    "page.friends": "friends: expected a list of {{card, nth}}",
    "page.one_of": "{where}: expected one of {choices:, }",
    "page.level": "level: expected 2 … A",
    "page.bid_empty": "a bid shows at least one card",
    "page.play_empty": "a play has at least one card",
    "page.card": "card: expected a card such as 10H",
    "stats.unknown_player": "no player {name!r} in any session: nothing to rename",
    "stats.evening": "{value!r} is not a date: write it as 2026-12-06",
    "page.no_club": "this table sends nothing to a club (tuolaji serve --club)",
    "page.club_action": "club: {action!r} is not skip or resend",
    "page.club_nothing_held": "club: no change is held (the club refused none)",
    "page.import_object": "not a game record (a JSON object)",
    "table.no_game": "no table session is open: set up a table or resume a session",
    "table.feed_mismatch": "deals[{deal}].tricks[{trick}]: the session holds another play of seat {seat} than the "
                           "record; nothing was added (the session holds another game)",
    "table.speed": "speed: {speed} must be above 0",
    "replay.no_step": "step {step}: the timeline has steps 0 to {last}",
    "house.object": "options: expected an object of house rules",
    "house.unknown": "options: unknown house rule {option!r}",
    "house.value": "options.{option}: not one of {choices:, }",
    "store.open": "{path}: cannot open the sessions database ({problem})",
    "store.unreadable": "{path}: the sessions database cannot be read ({problem}); move it aside to start an empty one",
    "store.no_session": "session {session}: no such session",
    "store.not_binned": "session {session}: not in the bin",
    "picture.encode": "picture: cannot be encoded as JPEG",
    "picture.not_a_record": "import: record.json is not a game record",
    "camera.source_type": "source: expected one of the sources offered",
    "camera.url": "url: expected a phone's stream address (at most 500 characters)",
    "camera.no_source": "source {source!r}: not one of the sources offered",
    "camera.not_open": "camera: no source is open; choose a camera or a video first",
    "camera.no_picture": "{source}: no picture yet",
    "camera.no_picture_error": "{source}: no picture yet ({problem})",
    "camera.no_file": "{source}: no such file",
    "camera.encode": "camera: the picture cannot be encoded",
    "camera.corners": "corners: expected four [x, y] points",
    "camera.corner_outside": "corners: a corner lies outside the picture",
    "decks.layout": "layout: expected true or false",
    "decks.name": "name: expected a deck name",
    "decks.learning": "enrolment: a deck is being learnt; wait until it is done",
    "decks.not_started": "enrolment: start one first (a deck name)",
    "decks.all_taken": "enrolment: every photo is taken; learn the deck",
    "decks.unwritable": "{path}: cannot be written",
    "decks.photos_needed": "enrolment: {photos} photos are needed first",
    "page.typed_card": "card {index:count}, {card!r}, is not a card: write 黑桃A, 红桃10, 大王, or AS, 10H, BJ",
    "demo.not_ended": "the deal did not end",
    # a zip refused on import (web.pictures.ZipImportError)
    "zip.no_record": "import: expected a zip with record.json (a session exported with its pictures)",
    "zip.zip64": "import: a zip64 archive (an exported session is a plain zip)",
    "zip.encrypted": "import: {name} is encrypted (a zip with a password cannot be read)",
    "zip.method": "import: {name} is compressed by method {method} (only stored or deflated can be read)",
    "zip.entry_size": "import: {name}: {size:,} bytes unpacked, over the limit of {limit:,}",
    "zip.checksum": "import: {name} fails its checksum (the zip is damaged)",
    "zip.damaged": "import: {name}: the zip is damaged ({problem})",
    "zip.data_damaged": "import: {name}: its compressed data is damaged",
    "zip.truncated": "import: {name} is cut short (the zip is truncated)",
    "zip.entry_unreadable": "import: {name} cannot be read ({problem})",
    "zip.entry_over": "import: {name}: more than {limit:,} bytes unpacked",
    "zip.too_large": "import: a zip of more than {mb} MB",
    "zip.entries": "import: a zip of {entries:,} files (at most {most:,})",
    "zip.directory": "import: a zip directory of {size:,} bytes (at most {most:,})",
    "zip.unreadable": "import: not a readable zip ({problem})",
    "zip.too_many_files": "import: a zip of more than {most:,} files",
    "zip.pictures_size": "import: pictures of {total:,} bytes unpacked, over the limit of {limit:,}",
    "zip.not_jpeg": "import: pictures/{short} is not a JPEG picture",
}
"""The English of every message key this layer raises (and no lower layer does)."""

register_messages("web", WEB_MESSAGES_EN)

__all__ = ["WEB_MESSAGES_EN"]
