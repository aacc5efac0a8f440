"""What the rules core says, as data: a message key and its parameters.

Every :class:`~scorer.errors.InputError` raised by the rules core, the session and the page
carries ``key`` (one of :data:`MESSAGES_EN`) and ``params`` (the facts: places, numbers, cards,
the value refused); ``str(error)`` is the English line rendered here, which the CLI prints. The
follow hint is a :class:`Message` too (:func:`scorer.follow_hint_message`). The page renders the
same key and parameters in Chinese and in its English (``web.i18n.MESSAGES_ZH``), so nobody reads
the English back.

Templates are :meth:`str.format` strings with a few format specs of their own:

- a list parameter takes ``{name:SEP|EMPTY}``: joined by ``SEP``, ``EMPTY`` when it is empty (without a
  spec it is shown as Python shows it);
- ``{name:json}`` is the value as JSON (``json.dumps(value, ensure_ascii=False)``);
- ``{name:plural}`` is ``s`` unless the number is 1;
- ``{name:requirement}`` is a follow requirement (a tuple of shapes) in the bracket notation and
  ``{name:requirement_shapes}`` its shapes in words, `` (a pair, 2× pair)`` or nothing.

A place (``where``) is the record's path notation, ``deals[0].tricks[4].plays[2]``; its parts are
:func:`place_parts`.

>>> message = Message("record.at", {"where": "deals[0].tricks[4].plays[2]",
...                                  "error": Message("card.unknown", {"text": "1H"})})
>>> str(message)
'deals[0].tricks[4].plays[2]: unknown card "1H"'
>>> place_parts("deals[0].tricks[4].plays[2]")
(('deals', 0), ('tricks', 4), ('plays', 2))
>>> render(MESSAGES_EN["hint.follow_requirement"], {"suit": "♥", "n": 4, "requirement": ((2, 2),)})
'follow ♥ with 4 cards: [2,2] (a pair-tractor)'
"""

from __future__ import annotations

import json
import string
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

FREE_TEXT = "text"
"""The key of a message that is only its English line (the commands' own errors, which no page shows)."""

#: The English line of every message key; the parameters each one names are the facts.
MESSAGES_EN: dict[str, str] = {
    FREE_TEXT: "{text}",
    # a place, then what is wrong there (another message)
    "record.at": "{where}: {error}",
    # cards
    "card.index": "card index out of range: {value}",
    "card.not_text": "not a card: {value!r}",
    "card.unknown": 'unknown card "{text}"',
    "card.rank": 'unknown rank "{text}"',
    "card.trump": 'unknown trump "{text}"',
    # the record
    "record.seat": "{where}: expected a seat number 0..{most}, got {value:json}",
    "record.cards_list": "{where}: expected a list of cards",
    "record.cards_count": "{where}: {count} cards, but {decks} deck{decks:plural} hold {cards}",
    "record.copies": "{where}: {copies} or more copies of {card:json}, but no decks hold more than {most}",
    "record.level": '{where}: unknown level "{value}"',
    "record.object": "record: expected a JSON object",
    "record.format": 'format: expected "{want}", got {value:json}',
    "record.missing": "{where}: missing",
    "record.list": "{where}: expected a list",
    "record.names": "players: expected a list of names",
    "record.name_length": "{where}: a name of {length} characters (at most {most})",
    "name.unprintable": "{where}: a name may not hold {char} (control characters and text-direction marks print nothing)",
    "record.player_count": "players: the rules allow {allowed:, } players, the record has {players}",
    "record.odd_players": "players: fixed partnerships need an even number of players, the record has {players}",
    "record.start_levels": "start_levels: expected {players} levels",
    "record.bool": "{where}: expected true or false",
    "record.deals": "deals: {deals} deals (at most {most})",
    "record.object_at": "{where}: expected an object",
    "record.trump": "{where}: expected S, H, C, D or NT, got {value:json}",
    "record.hands": "{where}: expected {players} hands",
    "record.empty_bid": "{where}: empty bid",
    "record.nth": "{where}: expected a positive number",
    "record.tricks": "{where}: {tricks} tricks, more than {cards} cards can make",
    "record.plays": "{where}: {plays} plays for {players} players",
    "record.incomplete": "{where}: only the last trick may be incomplete ({plays} of {players} plays)",
    "record.rulings": "{where}: expected a list (at most {most})",
    "record.ruling_amount": "{where}: expected either points or levels",
    "record.rule_code": "{where}: expected a rule code",
    "record.no_deal": "deals[{deal}]: no such deal",
    "record.no_trick": "deals[{deal}].tricks[{trick}]: no such trick",
    "record.no_seat": "seat: no seat {seat}",
    # 只记分: deals and tricks recorded by points alone (docs/RECORD.md)
    "record.points": "{where}: expected a number of points 0..{most}, got {value:json}",
    "record.unit": "{where}: expected the cards of the winning unit, 1..{most}, got {value:json}",
    "record.points_and_cards": "{where}: a points-only trick has no {key} (it records its winner and points)",
    "record.points_and_tricks": "{where}: a deal recorded by its defender_points has no tricks",
    "record.last_trick": "{where}: only a deal recorded by its defender_points has a last_trick",
    "record.points_hands": "{where}: a deal recorded by points has no hands",
    "record.conceded_by": "{where}: who conceded is \"dealer\" or \"defenders\", not {value:json}",
    "record.missing_seats": "{where}: expected a list of the seats whose play was not seen",
    "record.unconfirmed": "{where}: expected a list of [seat, card index] pairs of cards to confirm",
    "record.missing_twice": "{where}: seat {seat} is listed twice",
    "record.missing_not_played": "{where}: seat {seat} has no play in this trick yet",
    "record.missing_played": "{where}: seat {seat}'s play was not seen, so its play is [], not {count} card{count:plural}",
    "rules.hand_size": "hand_size: {size} cards for {players} players do not fit in {decks} decks",
    # the rules (profiles and their options)
    "rules.requirement_length": 'bad requirement "{text}": {length} characters',
    "rules.requirement": 'bad requirement "{text}"',
    "rules.requirement_cards": 'bad requirement "{text}": more cards than four decks hold in one play',
    "rules.ladders": "{where}: expected an object of ladders",
    "rules.ladder_length": '{where}["{shape}"]: {rungs} requirements (at most {most})',
    "rules.ladder_shape": '{where}["{shape}"]: expected one unit shape and a list of requirements',
    "rules.ladder_size": '{where}["{shape}"]: every requirement must have {size} cards',
    "rules.ladder_ends": '{where}["{shape}"]: a ladder starts with the shape and ends in singles',
    "rules.option_value": "{where}.{option}: expected {expected}, got {value!r}",
    "rules.option_unknown": "{where}: unknown option {option!r}",
    "rules.profile_unknown": '{where}: unknown profile "{profile}"',
    "rules.rules_value": "{where}: expected a profile name or an object",
    # bounds of the format search
    "search.width": "a unit of {width} copies of one card: no ladder is searched beyond {most}",
    "search.length": "a tractor of {length} consecutive tuples: none is longer than {most}",
    "search.partitions": "partitions of {n}: more than {most} tuples are never searched",
    # JSON read safely
    "json.bytes": "{where}: {size:,} bytes, over the limit of {most:,}",
    "json.utf8": "{where}: not UTF-8 text (byte {byte})",
    "json.surrogate_text": "{where}: not UTF-8 text (a lone surrogate)",
    "json.depth": "{where}: JSON nested deeper than {most} levels",
    "json.invalid": "{where}: not valid JSON: {problem} at line {line} column {column}",
    "json.int_digits": "{where}: an integer of {digits} digits (at most {most})",
    "json.number_chars": "{where}: a number of {chars} characters",
    "json.constant": "{where}: {name} is not a number JSON allows",
    "json.recursion": "{where}: {problem}",
    "json.range": "{where}: {number} is out of range",
    "json.surrogate": "{where}: {path}: a lone surrogate (\\u{code:04x}) is not text",
    # the live game (session.live)
    "session.not_saved": "{where}: not saved ({problem})",
    "session.too_large": "{where}: not saved: {size:,} bytes, over the limit of {most:,}",
    "session.another_game": "{where}: holds another game ({why}); nothing was changed: choose another file or session",
    "resume.players_or_rules": "players or rules differ",
    "resume.deals": "{have} deals, the input has {want}",
    "resume.setup": "deals[{deal}]: level {have[0]}, trump {have[1]}, dealer {have[2]}; "
                    "the input: level {want[0]}, trump {want[1]}, dealer {want[2]}",
    "resume.tricks": "deals[{deal}] holds {have} tricks, the deal so far {want}",
    "resume.trick_missing": "deals[{deal}].tricks[{trick}] is not in the input",
    "resume.play": "deals[{deal}].tricks[{trick}]: seat {seat} is recorded playing {cards: |}, the input shows otherwise",
    "session.no_deal_to_play": "record has no deal to play in",
    "session.out_of_turn": "deals[{deal}].tricks[{trick}]: seat {seat} played but seat {turn} is to play",
    "session.deal_over": ("deals[{deal}]: the deal is over (every seat has played its {cards} cards): "
                          "record the kitty, then start the next deal"),
    "session.already_played": "deals[{deal}].tricks[{trick}]: seat {seat}'s play is already recorded ({cards: |})",
    "session.concede_not_five": "{points} points agreed: points come in fives (5, 10, K); nothing recorded",
    "session.concede_over": "deals[{deal}] is over already: there is nothing to concede",
    "session.concede_side": "who concedes is the dealer's side or the defenders, not {by:json}",
    "session.points_not_five": "{points} points: a trick's points come in fives (5, 10, K); nothing recorded",
    "session.points_too_many": "{points} points in one trick: {decks} decks hold {most} in all; nothing recorded",
    "session.points_recorded": "deals[{deal}].tricks[{trick}]: this trick is recorded already ({seat}: {points} points); nothing recorded",
    "session.trick_moved": "deals[{deal}].tricks[{trick}]: the table moved on since this play was typed; nothing recorded",
    "session.no_card": "deals[{deal}].tricks[{trick}]: seat {seat} has no card {index}",
    "session.no_trick_to_revise": "the current deal has no trick to revise",
    "session.not_missing": "deals[{deal}].tricks[{trick}]: seat {seat}'s play is not missing",
    "session.enter_empty": "deals[{deal}].tricks[{trick}]: enter the cards seat {seat} played",
    "session.no_play": "the current trick has no play {position} by seat {seat}",
    "session.no_deal": "{what}: the record has no deal",
    "points.deal_by_total": "deals[{deal}] is kept by the defenders' points: undo its settlement to record tricks",
    "points.deal_done": "deals[{deal}] is over: undo its last trick to record more",
    "points.deal_conceded": "deals[{deal}] was conceded (认输): undo the concession to record more",
    "points.trick_open": "deals[{deal}].tricks[{trick}] is not complete: finish it or undo it first",
    "points.below_counted": "deals[{deal}]: the defenders have {counted} points in the tricks recorded, more than {points}",
    "points.agreed_gone": "agreed: /api/points/deal no longer settles by points agreed; to concede, send "
                          "/api/points/concede {{\"by\": \"dealer\" or \"defenders\", \"points\": the points agreed}}",
    # the page's requests (web)
    "page.json_content_type": "request body: expected a JSON object (Content-Type: application/json)",
    "page.json_object": "request body: expected a JSON object",
    "page.name_type": "{where}: expected a name",
    "page.whole_number": "{where}: expected a whole number",
    "page.whole_number_length": "{where}: expected a whole number, got a text of {length} characters",
    "page.whole_number_value": "{where}: expected a whole number, got {value!r}",
    "page.out_of_range": "{where}: {number} is out of range",
    "page.profile": "profile: unknown profile {profile!r}",
    "page.players_names": "players: at most {most} names of at most {length} characters",
    "page.player_count": "players: {profile} is played by [{counts:, }] players, got {players}",
    "page.levels": "levels: expected one level (2 … A) per player",
    "page.partner_levels": "levels: partners (seats 0/2 and 1/3) share one level",
    "page.friends": "friends: expected a list of {{card, nth}}",
    "page.one_of": "{where}: expected one of {choices:, }",
    "page.level": "level: expected 2 … A",
    "page.bid_empty": "cards: a bid shows at least one card",
    "page.play_empty": "cards: a play has at least one card",
    "page.card": "card: expected a card such as 10H",
    "page.name_empty": "name: expected a non-empty name",
    "stats.unknown_player": "no player {name!r} in any session: nothing to rename",
    "stats.evening": "{value!r} is not a date: write it as 2026-12-06",
    "page.no_club": "this table sends nothing to a club (tuolaji serve --club)",
    "page.club_action": "club: {action!r} is not skip or resend",
    "page.club_nothing_held": "club: no change is held (the club refused none)",
    "page.import_object": "import: expected a game record (a JSON object)",
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
    # the card reader and the table pipeline (vision)
    "calibration.points": "table corners: need 4 points, got {points}",
    "calibration.too_small_corners": "table corners {corners}: the table would cover almost none of the picture",
    "calibration.json": "calibration: expected {{'corners': [[x, y] x4], 'image_size': [w, h]}} ({problem})",
    "calibration.colour": "table calibration: need a colour picture",
    "calibration.no_table": "table calibration: no evenly coloured table in the middle of the picture",
    "calibration.region_small": "table calibration: the table region is too small; give the corners instead",
    "calibration.players": "players: {players} seats is not a table this pipeline knows (2–8)",
    "reader.cards_json": '{path}: expected an object with a "reader" object',
    "reader.classes": "{where}: classifier_classes ({shown}) is not the reader's vocabulary ({classes} classes: the 54 "
                      "cards of scorer.cards.CARD_NAMES, then 'reject'); re-export the models with `tuolaji export`",
    "reader.deck_features": "deck {deck!r}: this classifier has no features output (re-export it with `tuolaji export`)",
    "reader.onnx": "{path}: not a usable ONNX model ({problem})",
    "reader.features": "this classifier has no features output (re-export it with `tuolaji export`)",
    "reader.no_face": "no face reader loaded (models/face.onnx and face_threshold > 0)",
    "deck.other_reader": "deck {deck!r} was enrolled with another card reader than {classifier} (the reader has been "
                         "updated since): enrol it again with `tuolaji enrol {deck} MANIFEST`",
    "deck.name": "deck name {deck!r}: use letters, digits, '_', '.', '-' (at most 64, not starting with a sign)",
    "deck.no_data": "{path}: no such data folder",
    "deck.not_enrolled": "deck {deck!r}: not enrolled in {path} (enrolled: {known}; see `tuolaji enrol`)",
    "deck.head": "{path}: not a deck head ({problem})",
    "deck.head_shape": "{path}: not a deck head (weight {weight}, bias {bias})",
    "enrol.manifest_list": '{path}: a manifest is a non-empty JSON list of {{"image": ..., "cards": [...]}}',
    "enrol.entry": '{where}: expected {{"image": "photo.jpg", "cards": ["AS", ...]}}',
    "enrol.no_cards": "{where}: no cards listed for {image}",
    "enrol.card": "{where}: unknown card {card!r} (names as in the record format: AS, 10H, SJ, BJ)",
    "enrol.photo": "{where}: photo {image} not found (looked for {path})",
    "enrol.no_manifest": "{path}: manifest not found",
    "enrol.manifest_json": "{path}: not a JSON manifest ({problem})",
    "enrol.no_head": "{path}: missing (the classifier's head; re-export the models with `tuolaji export`)",
    "enrol.nothing": "nothing to enrol from: give a manifest, or a photo of the deck laid out with --layout",
    "enrol.layout_count": "{image}: {found} card(s) found lying apart where a laid-out deck has {expected} (one missing, or two touching?)",
    "enrol.layout_rows": "{image}: rows of {found:, } cards where the layout has rows of {expected:, } (one row per suit, ♠ ♥ ♣ ♦ from 2 to A, then the two jokers)",
    "enrol.layout_small": "{image}: the corner indices are {px} px tall, too small to learn from (at least {least} px: move the camera closer)",
    "enrol.layout_order": "{image}: {misplaced} cards are not where the layout puts them (row {row}, column {column} reads {read}, the layout puts {expected} there)",
    "enrol.not_found": "{path}: {image}: {missing} listed card(s) not found ({cards:, }; {seen} card(s) seen)",
    "image.too_many_pixels": "{where}: an image of {pixels}, over the limit of {most:g} megapixels",
    "image.too_large": "{where}: an image of {pixels:,} pixels ({width}×{height}), over the limit of {most:g} megapixels",
    "image.bytes": "{path}: over the limit of {most} MB for an image",
    "image.folder": "{path}: a folder, not an image",
    "image.decode": "{path}: cannot decode image",
    "pipeline.another_game": "{path}: holds another game than this input (deals[{deal}].tricks[{trick}]: seat {turn} is "
                             "recorded playing {recorded: |}, the input shows seat {seat} playing {cards: |}); nothing "
                             "was changed: choose another --out or session",
    "source.folder": "{path}: is a folder, not a video",
    "source.video_open": "{path}: not a readable video (cannot open it)",
    "source.video_first": "{path}: not a readable video (cannot decode frame 0)",
    "source.frame": "{path}: cannot decode frame {frame} of {frames}",
    "source.size": "--camera-size: expected WxH like 1920x1080, got {value!r}",
    "source.size_range": "--camera-size: {width}x{height} is outside 160x120 .. 8192x8192",
    "source.no_camera": "camera {camera}: no such camera (or it is busy)",
    "source.no_picture": "camera {camera}: opened but gives no picture",
    "source.stopped": "{source}: stopped giving pictures",
    "source.no_images": "{path}: folder holds no images ({suffixes:, })",
    "source.image": "{path}: cannot decode image (frame {frame})",
    "source.stream_url": "{url}: not a stream address (http://PHONE:PORT/PATH, https://… or rtsp://…)",
    "source.stream_unreachable": "{url}: cannot connect ({problem}); is the phone on this network, its camera app open?",
    "source.stream_http": "{url}: the phone answered HTTP {status} {reason}",
    "source.stream_not_video": ("{url}: not a video stream (it sends {content_type}); IP Webcam's is "
                                "http://PHONE:8080/video, DroidCam's http://PHONE:4747/video"),
    "source.stream_open": "{url}: the stream cannot be opened (not a video stream OpenCV's FFmpeg reads)",
    "source.stream_no_picture": "{url}: connected, but no picture came ({problem})",
    # a change the game refuses (session.changes.RefusedError), the history's undo and redo, the page's typed cards
    "change.bid_started": "bid: the deal has started",
    "change.bid_not_standing": "bid: {detail}",
    "change.withdraw_started": "bid: the deal has started",
    "change.no_bid": "bid: no bid to withdraw",
    "change.deal_started": "deal: the deal has started; correct single cards instead",
    "change.bid_decides_trump": "trump: the standing bid decides the trump",
    "change.bid_decides_dealer": "dealer: the standing bid decides the dealer",
    "change.not_dealers_level": "level: {level} is not the dealer's level {own} (seat {seat})",
    "change.deal_not_complete": "next deal: the current deal is not complete",
    "change.game_over": "next deal: the game is over",
    "change.kitty_first": "next deal: the kitty is not recorded",
    "change.no_violation": "ruling: deal {deal} has no violation {index}",
    "change.no_penalty": "ruling: the rules give this violation no penalty",
    "change.zero_penalty": "ruling: a penalty of 0",
    "change.no_ruling": "ruling: deal {deal} has no ruling {ruling}",
    "history.undo_changed": "history: the {change:change} cannot be undone: the record changed since",
    "history.redo_changed": "history: the {change:change} cannot be redone: the record changed since",
    "history.bad_entry": "history: an entry that cannot be applied ({problem})",
    "history.nothing_to_undo": "history: nothing to undo",
    "history.nothing_to_redo": "history: nothing to redo",
    "page.typed_card": "{field}[{index}]: unknown card {card!r}",
    "demo.not_ended": "demo: the deal did not end",
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
    "change.form": "change {n}: not a change (its kind, params, deal and what it made)",
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
    # the follow hint (scorer.follow_hint)
    "hint.none_left": "no {suit} left: play any {n} card{n:plural}",
    "hint.play_all": "play all {held} {suit} card{held:plural}",
    "hint.play_all_and_more": "play all {held} {suit} card{held:plural} and any {extra} more",
    "hint.follow": "follow {suit} with {n} card{n:plural}",
    "hint.follow_requirement": "follow {suit} with {n} card{n:plural}: {requirement:requirement}"
                               "{requirement:requirement_shapes}",
}


#: The English of every finding of the audit (:meth:`scorer.violations.Fact.message`: ``fact.`` and
#: the kind's ``sentence``, the fact's fields the parameters) and of their parts. A spec names how a
#: field is written (:class:`Voice`): ``seat``/``seats``, ``count`` (a trick, deal, bid or friend call:
#: from 0 in the record, from 1 on the page), ``cards``/``card``/``unit``/``units``, ``suit``/``suits``,
#: ``trump``, ``rank``, ``evidence``, ``beaten``, ``shapes``, and ``@GROUP`` (the words of the value,
#: key ``GROUP.value``, ``GROUP.*`` for any other). One template a kind: the record's ``detail`` and
#: the page's English are both this one, in different voices.
FINDINGS_EN: dict[str, str] = {
    "fact.bid_after_kitty": "bid {bid:count} ({cards:cards}) came after the kitty: these rules have no 炒地皮",
    "fact.bid_not_a_bid": "bid {bid:count} ({cards:cards}) is not a bid under the {bid_order:@bid_order} bid order",
    "fact.bid_self_overcall": "bid {bid:count} ({cards:cards}): {seat:seat} overcalls his own bid",
    "fact.bid_too_low": "bid {bid:count} ({cards:cards}) does not overcall the standing bid",
    "fact.bid_losing_side": ("bid {bid:count} ({cards:cards}): {seat:seat} is not on the side that won the last deal "
                             "({winners:seats})"),
    "fact.bid_too_many_copies": ("bid {bid:count} ({cards:cards}) shows {copies} copies of {card:card}; "
                                 "{decks} deck{decks:plural} hold {decks}"),
    "fact.bid_no_winner_level": "bid {bid:count} ({cards:cards}) shows a level no player of the winning side is at",
    "fact.bid_not_held": ("bid {bid:count} ({cards:cards}) shows {copies} {card:card}; {seat:seat} holds {held} "
                          "({source:@bid_source}{kitty:@bid_kitty})"),
    "fact.bid_none": "no bid: the deal is played in no trump, not {trump:trump}",
    "fact.bid_wrong_trump": "the winning bid makes {want:trump}, the deal says {trump:trump}",
    "fact.bid_first_dealer": "the first dealer should be {want:seat} ({how:@first_dealer}), not {seat:seat}",
    "fact.bid_wrong_friends_dealer": "the winning bid makes {want:seat} the dealer, not {seat:seat}",
    "fact.dealer_rotation": "{seat:seat} deals deal {deal:count}; {want:seat} deals after deal {after:count}",
    "fact.dealer_not_winner": "{seat:seat} deals deal {deal:count}; the side that won deal {after:count} is {winners:seats}",
    "fact.dealer_wrong_level": ("deal {deal:count} is played at level {level:rank}; its dealer, {seat:seat}, "
                                "is at level {own:rank}"),
    "fact.friend_call_trump": "friend card {call:count} ({card:card}) is a trump: only off-suit cards are called",
    "fact.friend_call_copy": "friend card {call:count} (copy {nth} of {card:card}): {decks} deck{decks:plural} hold {decks}",
    "fact.kitty_size": "the kitty holds {size} cards; these rules bury {buried}",
    "fact.points_not_five": "{what:@points_of} {points} points: cards count in fives (5, 10 and K)",
    "fact.points_too_many": "{points} points in {what:@points_in}: {decks} deck{decks:plural} hold{decks:verb_s} {decks:hundred}",
    "fact.unit_impossible": "the last trick won with a unit of {unit} cards: no unit of {decks} deck{decks:plural} has {unit}",
    "fact.unit_missing": "the last trick names no winning unit: the kitty counts as won by a single (×{multiplier})",
    "fact.kitty_points_mismatch": "the kitty's points say {points}, but its cards hold {cards}",
    "fact.leader_first": "{seat:seat} led; the dealer leads the first trick",
    "fact.leader_not_winner": "{seat:seat} led; {winner:seat} won trick {won:count}",
    "fact.card_too_many": "{card:card}: {played} cop{played:y_ies} played{kitty:@card_kitty}, {decks} deck{decks:plural} hold {decks}",
    "fact.card_not_in_hand": "{seat:seat} played {card:card}, which is not in the recorded hand",
    "fact.card_attempt_not_in_hand": "{seat:seat} attempted {card:card}, which is not in {recorded:@attempt_held}",
    "fact.count_empty_lead": "{seat:seat} led no cards",
    "fact.count_follow": "{seat:seat} played {played} card{played:plural} to a lead of {led}",
    "fact.mixed_lead": "{seat:seat} led {cards:cards} mixing {suits:suits}",
    "fact.mixed_attempt": "{seat:seat} attempted {cards:cards} mixing suits",
    "fact.revoke": ("{seat:seat} did not follow {suit:suit}: played {played:cards} while holding {held:cards} "
                    "({evidence:evidence})"),
    "fact.wrong_format": ("{lead:cards} led; {seat:seat} played {played:cards} but held {units:units} for "
                          "{requirement:shapes} ({evidence:evidence})"),
    "fact.throw_stood": "throw {cards:cards} stood but {beaten:beaten}; the leader should have played {forced:unit}",
    "fact.attempt_single": "the attempt {cards:cards} is a single unit, not a throw",
    "fact.attempt_stands": "the attempted throw {cards:cards} stands: nobody could beat any of its units",
    "fact.attempt_unproven": "the attempted throw {cards:cards} is not yet shown to fail",
    "fact.forced_unit": ("failed throw {cards:cards} ({beaten:beaten}): the forced unit is {forced:unit} "
                         "({how:@forced_unit}), {seat:seat} played {played:cards}"),
    # the parts of a finding (:class:`Voice`)
    "word.seat": "seat {seat}",
    "word.seats": "seats {seats}",
    "word.trump_suit": "trump",
    "word.no_trump": "no trump",
    "word.trump": "{symbol} trump",
    "sep.list": ", ",
    "sep.parts": "; ",
    "evidence.played": "played in {tricks}",
    "evidence.tricks": "trick{n:plural} {tricks}",
    "evidence.this_trick": "{trick} (this trick)",
    "evidence.attempt": "shown in the attempt of trick {trick}",
    "evidence.hand": "in the recorded hand",
    "beaten.unit": "{unit:unit} beaten by {seat:seat}'s {by:unit} ({evidence:evidence})",
    "shape.1x1": "single",
    "shape.2x1": "pair",
    "shape.3x1": "triple",
    "shape.4x1": "quad",
    "shape.2x2": "tractor",
    "shape.3x2": "泰坦尼克 (two running triples)",
    "shape.kind": "{width} of a kind",
    "shape.pairs": "tractor of {length} pairs",
    "shape.run": "run of {length} × {width} of a kind",
    "shape.single": "a single",
    "shape.singles": "{count} singles",
    "shape.one": "{name:article}{name}",
    "shape.many": "{count} × {name}",
    "shape.join": " + ",
    "bid_order.two-deck": "two-deck",
    "bid_order.titanic": "titanic",
    "bid_order.count": "count",
    "bid_order.chaodipi": "chaodipi",
    "bid_source.hand": "the recorded hand",
    "bid_source.plays": "his plays",
    "bid_kitty.true": " and the kitty",
    "bid_kitty.false": "",
    "first_dealer.first-bidder": "the first bidder",
    "first_dealer.winning-bidder": "the winning bidder",
    "forced_unit.lowest-beaten": "the lowest beaten unit",
    "forced_unit.largest-beaten": "the largest beaten unit",
    "forced_unit.smallest-beaten": "the smallest beaten unit",
    "points_of.trick": "the trick's",
    "points_of.defenders": "the defenders'",
    "points_of.kitty": "the kitty's",
    "points_in.trick": "one trick",
    "points_in.deal": "the tricks and the kitty",
    "card_kitty.0": "",
    "card_kitty.*": " and {value} in the kitty",
    "attempt_held.true": "the recorded hand",
    "attempt_held.false": "his hand (never played)",
    # penalties (scorer.violations.PenaltyFact, RulingFact)
    "penalty.throw.points": "{offence:@offence} {cards:cards}: {wrong} stuck card{wrong:plural} × {per}",
    "penalty.throw.level-points": "{offence:@offence} {cards:cards}: one level's worth of points ({points})",
    "penalty.throw.level": "{offence:@offence} {cards:cards}: the thrower's side loses one level",
    "penalty.points": "{offence:@offence}: {wrong} wrong card{wrong:plural} × {per}",
    "penalty.level-points": "{offence:@offence}: one level's worth of points ({points})",
    "penalty.level": "{offence:@offence}: the offender's side loses one level",
    "ruling.points": "ruling{rule:@ruled}: {points} points",
    "ruling.levels": "ruling{rule:@ruled}: the offender's side loses {levels} level{levels:plural}",
    "ruled.None": "",
    "ruled.*": " ({value})",
    "offence.throw": "failed throw",
    "offence.discard": "wrong discard",
    "offence.trumping": "wrong trumping",
    "offence.kitty": "wrong kitty",
    "offence.card-count": "wrong card count",
    # a lead's obligation, without hands (scorer.follow.Obligation)
    "obligation.mixed": "mixed lead: play any {size:@number} card{size:plural}",
    "obligation.single": "{suit:suit} single led: play one {suit:suit} if you hold one, else any card",
    "obligation.ladder": ("{suit:suit} {lead:lead_what} led: play {lead:lead_rungs}, else all your {lead:lead_suits} "
                          "and any other cards"),
    "ob.throw": "throw of {units}",
    "ob.single": "single",
    "ob.a_unit": "{noun:article}{noun}",
    "ob.units_of": "{n} {noun}s",
    "ob_tuple.2": "pair",
    "ob_tuple.3": "triple",
    "ob_tuple.4": "quad",
    "ob_tuple.*": "{value}-tuple",
    "ob_shape.2x2": "tractor of 2 pairs",
    "ob_shape.3x2": "泰坦尼克",
    "ob.pairs": "tractor of {length} pairs",
    "ob.run": "tractor of {length} {tuple}s",
    "ob.unit": "{noun:article}{suit} {noun}",
    "ob.units": "{n} {suit} {noun}s",
    "ob.singles": "{n} {suit}",
    "ob.other": "{n} other {suit}",
    "ob.suits": "{suit}s",
    "ob.and": " and ",
    "ob.comma": ", ",
    "ob.first": "{rung}",
    "ob.first_held_one": "{rung} if you hold one{note}",
    "ob.first_held": "{rung} if you hold them{note}",
    "ob.next": ", else {rung}",
    "ob.protected": " (not carved from a wider tuple)",
    "ob_wider.3": " (a triple counts)",
    "ob_wider.4": " (a quad counts)",
    "ob_wider.3+4": " (a triple or a quad counts)",
    "number.0": "no",
    "number.1": "one",
    "number.2": "two",
    "number.3": "three",
    "number.4": "four",
    "number.5": "five",
    "number.6": "six",
    "number.7": "seven",
    "number.8": "eight",
    "number.9": "nine",
    "number.10": "ten",
    "number.*": "{value}",
}

SPECS: dict[str, Callable[[Any], str]] = {}
"""The format specs of the templates beyond :meth:`str.format`'s own, by name."""


def _spec(name: str) -> Callable[[Callable[[Any], str]], Callable[[Any], str]]:
    def register(function: Callable[[Any], str]) -> Callable[[Any], str]:
        SPECS[name] = function
        return function

    return register


@_spec("json")
def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


CHANGE_NAMES_EN: dict[str, str] = {
    "enter-play": "entered play", "play": "play", "points": "points-only trick", "bid": "bid", "withdraw": "withdrawn bid", "kitty": "kitty",
    "setting": "deal setting", "ruling": "penalty", "correction": "correction", "confirm": "confirmation",
    "next-deal": "next deal", "settle": "settlement"}
"""The English name of each kind of change of a record's history (``{change:change}``; the page's
Chinese: ``session.history``'s names)."""


@_spec("change")
def _change(value: Any) -> str:
    return CHANGE_NAMES_EN.get(value, str(value)) if isinstance(value, str) else str(value)


@_spec("plural")
def _plural(value: Any) -> str:
    return "" if value == 1 else "s"


@_spec("verb_s")
def _verb_s(value: Any) -> str:
    return "s" if value == 1 else ""


@_spec("y_ies")
def _y_ies(value: Any) -> str:
    return "y" if value == 1 else "ies"


@_spec("hundred")
def _hundred(value: Any) -> str:
    return str(100 * value)


@_spec("article")
def _article(value: Any) -> str:
    return "an " if str(value)[:1] in ("a", "e", "i", "o", "u") else "a "


@_spec("requirement")
def _requirement(value: Any) -> str:
    from .profiles import requirement_name

    return requirement_name(tuple(value))


_SHAPE_WORDS = {(2, 1): "a pair", (3, 1): "a triple", (4, 1): "a quad", (2, 2): "a pair-tractor", (3, 2): "a 泰坦尼克",
                (1, 1): "a single"}


@_spec("requirement_shapes")
def _requirement_shapes(value: Any) -> str:
    shapes = [tuple(shape) for shape in value]
    parts: list[str] = []
    for shape in dict.fromkeys(s for s in shapes if s != (1, 1)):
        count = shapes.count(shape)
        name = _SHAPE_WORDS.get(shape, f"a {shape[0]}-wide tractor of {shape[1]}")
        parts.append(name if count == 1 else f"{count}× {name[2:]}")
    return f" ({', '.join(parts)})" if parts else ""


class Voice:
    """How the parts of a finding are written (the ``{field:SPEC}`` of a ``fact.`` template): the
    record's English (docs/RECORD.md's ``detail``: seats as ``seat 2``, tricks, deals, bids and
    friend calls counted from 0). The page's voices (``web.explain``) name the players, count from 1
    and read the words of another catalogue; every word is a key of the voice's catalogue.

    >>> from tuolaji.scorer.violations import Evidence
    >>> Voice().evidence(Evidence(trick=3, played=(3, 10)))
    'played in tricks 3 (this trick), 10'
    >>> Voice().shapes(((2, 1), (1, 1), (1, 1)))
    'a pair + 2 singles'
    """

    SPECS: frozenset[str] = frozenset({"seat", "seats", "count", "cards", "card", "unit", "units", "suit", "suits",
                                       "trump", "rank", "evidence", "beaten", "shapes", "lead_what", "lead_rungs",
                                       "lead_suits"})
    """The specs a voice writes."""

    def __init__(self, catalogue: Mapping[str, str] | None = None) -> None:
        self.catalogue: Mapping[str, str] = FINDINGS_EN if catalogue is None else catalogue

    def say(self, key: str, **params: Any) -> str:
        """The words of ``key`` in this voice."""
        return render(self.catalogue[key], params, self)

    def word(self, group: str, value: Any) -> str:
        """``{value:@group}``: the words of ``group.value`` (``group.*`` for any other value; the
        value as it is where the catalogue has neither)."""
        name = str(value).lower() if isinstance(value, bool) else str(value)
        if f"{group}.{name}" in self.catalogue:
            return self.say(f"{group}.{name}")
        if f"{group}.*" in self.catalogue:
            return self.say(f"{group}.*", value=value)
        return self.unknown(value)

    def unknown(self, value: Any) -> str:
        """A value the catalogue has no word for: the record writes it as it is."""
        return str(value)

    def seat(self, value: int) -> str:
        return self.say("word.seat", seat=value)

    def seats(self, value: Any) -> str:
        return self.say("word.seats", seats=", ".join(str(v) for v in value))

    def count(self, value: int) -> int:
        return value

    def card_names(self, text: str) -> str:
        """Cards as the record names them (``♠A SJ``), in this voice."""
        return text

    def cards(self, value: Any) -> str:
        from .cards import pretty_card

        return self.card_names(" ".join(pretty_card(c) for c in value))

    def card(self, value: int) -> str:
        return self.cards((value,))

    def unit(self, value: Any) -> str:
        from .cards import pretty_card

        return self.card_names("".join(pretty_card(c) for c in value))

    def units(self, value: Any) -> str:
        return " ".join(self.unit(u) for u in value)

    def suit(self, value: int) -> str:
        from .order import SUIT_LABELS

        label = SUIT_LABELS[value]
        return self.say("word.trump_suit") if label == "trump" else label

    def suits(self, value: Any) -> str:
        return self.say("sep.list").join(self.suit(s) for s in value)

    def trump(self, value: str) -> str:
        from .cards import SUIT_SYMBOLS

        return self.say("word.no_trump") if value == "NT" else self.say("word.trump", symbol=SUIT_SYMBOLS[value])

    def rank(self, value: int) -> str:
        from .cards import RANKS

        return RANKS[value]

    def trick_list(self, tricks: Any, this: int) -> str:
        """The tricks cards were played in, the finding's own marked."""
        labels = [self.say("evidence.this_trick", trick=self.count(t)) if t == this else str(self.count(t))
                  for t in tricks]
        return self.say("evidence.tricks", n=len(labels), tricks=self.say("sep.list").join(labels))

    def evidence(self, value: Any) -> str:
        """Where held cards show up (:class:`scorer.violations.Evidence`)."""
        parts = []
        if value.played:
            parts.append(self.say("evidence.played", tricks=self.trick_list(value.played, value.trick)))
        if value.attempt is not None:
            parts.append(self.say("evidence.attempt", trick=self.count(value.attempt)))
        if value.hand or not parts:
            parts.append(self.say("evidence.hand"))
        return self.say("sep.parts").join(parts)

    def beaten(self, value: Any) -> str:
        """Each beaten unit of a throw, who beats it with what, and the evidence."""
        return self.say("sep.parts").join(self.say("beaten.unit", unit=b.unit, seat=b.seat, by=b.by,
                                                   evidence=b.evidence) for b in value)

    def shape(self, width: int, length: int) -> str:
        if f"shape.{width}x{length}" in self.catalogue:
            return self.say(f"shape.{width}x{length}")
        if length == 1:
            return self.say("shape.kind", width=width)
        return self.say("shape.pairs" if width == 2 else "shape.run", width=width, length=length)

    def shapes(self, value: Any) -> str:
        """A follow requirement (its shapes) in words, widest first."""
        shapes = sorted((tuple(s) for s in value), key=lambda s: (s[0] * s[1], s[0]), reverse=True)
        counts: dict[tuple[int, ...], int] = {}
        for shape in shapes:
            counts[shape] = counts.get(shape, 0) + 1
        parts = []
        for (width, length), count in counts.items():
            if (width, length) == (1, 1):
                parts.append(self.say("shape.single") if count == 1 else self.say("shape.singles", count=count))
            else:
                name = self.shape(width, length)
                parts.append(self.say("shape.one", name=name) if count == 1
                             else self.say("shape.many", count=count, name=name))
        return self.say("shape.join").join(parts)

    # --- a lead's obligation (scorer.follow.Obligation): the same structure in every language ---

    def and_list(self, items: list[str]) -> str:
        if len(items) <= 2:
            return self.say("ob.and").join(items)
        return self.say("ob.comma").join(items[:-1]) + self.say("ob.and") + items[-1]

    def lead_shape(self, shape: Any) -> str:
        """A unit's shape as the obligation names it (``pair``, ``tractor of 3 pairs``)."""
        width, length = shape
        if f"ob_shape.{width}x{length}" in self.catalogue:
            return self.say(f"ob_shape.{width}x{length}")
        name = self.word("ob_tuple", width)
        if length == 1:
            return name
        return self.say("ob.pairs" if width == 2 else "ob.run", length=length, tuple=name)

    def suit_noun(self, suit: int, n: int) -> str:
        from .order import TRUMP

        label = self.suit(suit)
        return self.say("ob.suits", suit=label) if suit == TRUMP and n != 1 else label

    def rung(self, requirement: Any, suit: int) -> str:
        """One rung of the ladder: ``a ♥ pair and two other ♥``, ``two ♥``."""
        single = (1, 1)
        label = self.suit(suit)
        shapes = [tuple(x) for x in requirement]
        parts = []
        for shape in dict.fromkeys(x for x in shapes if x != single):
            count, noun = shapes.count(shape), self.lead_shape(shape)
            parts.append(self.say("ob.unit", suit=label, noun=noun) if count == 1
                         else self.say("ob.units", n=self.word("number", count), suit=label, noun=noun))
        singles = shapes.count(single)
        if not parts:
            n = singles if singles > 1 else 1
            return self.say("ob.singles", n=self.word("number", n), suit=self.suit_noun(suit, n))
        if singles:
            parts.append(self.say("ob.other", n=self.word("number", singles), suit=self.suit_noun(suit, singles)))
        return self.and_list(parts)

    def lead_what(self, value: Any) -> str:
        """What was led: a unit's shape, or a throw of its units."""
        if not value.throw:
            return self.lead_shape(value.units[0])
        names = [self.lead_shape(shape) if tuple(shape) != (1, 1) else self.say("ob.single") for shape in value.units]
        counted = [self.say("ob.units_of", n=self.word("number", names.count(x)), noun=x) if names.count(x) > 1
                   else self.say("ob.a_unit", noun=x) for x in dict.fromkeys(names)]
        return self.say("ob.throw", units=self.and_list(counted))

    def lead_rungs(self, value: Any) -> str:
        """The ladder: the first rung (owed if held), then each one owed failing the one before."""
        rungs = [self.rung(requirement, value.suit) for requirement in value.rungs]
        if value.hold_first:
            note = self.say("ob.protected") if value.protected else (
                self.word("ob_wider", "+".join(str(x) for x in value.wider)) if value.wider else "")
            key = "ob.first_held_one" if len(value.rungs[0]) == 1 else "ob.first_held"
            first = self.say(key, rung=rungs[0], note=note)
        else:
            first = self.say("ob.first", rung=rungs[0])
        return first + "".join(self.say("ob.next", rung=rung) for rung in rungs[1:])

    def lead_suits(self, value: Any) -> str:
        return self.suit_noun(value.suit, 2)


RECORD_VOICE = Voice()
"""The record's English (``str(message)``, docs/RECORD.md's ``detail``)."""


class _Formatter(string.Formatter):
    def __init__(self, voice: Voice | None = None) -> None:
        super().__init__()
        self.voice = voice

    def format_field(self, value: Any, format_spec: str) -> Any:
        if format_spec in SPECS:
            return SPECS[format_spec](value)
        voice = self.voice or RECORD_VOICE
        if format_spec.startswith("@"):
            return voice.word(format_spec[1:], value)
        if format_spec in Voice.SPECS:
            return str(getattr(voice, format_spec)(value))
        if isinstance(value, (list, tuple)) and format_spec:
            sep, _, empty = format_spec.partition("|")
            return sep.join(str(v) for v in value) if value else empty
        return super().format_field(value, format_spec)


_FORMATTER = _Formatter()


def render(template: str, params: Mapping[str, Any], voice: Voice | None = None) -> str:
    """``template`` with ``params`` filled in (lists joined, the specs above applied, a finding's
    parts written by ``voice``, the record's English by default).

    >>> render("{where}: {n} card{n:plural}, {cards:, |none}", {"where": "x", "n": 2, "cards": ()})
    'x: 2 cards, none'
    """
    return (_FORMATTER if voice is None else _Formatter(voice)).vformat(template, (), params)


def template_fields(template: str) -> set[str]:
    """The parameter names ``template`` uses.

    >>> sorted(template_fields(MESSAGES_EN["record.copies"]))
    ['card', 'copies', 'most', 'where']
    """
    return {name.split(".")[0].split("[")[0] for _, name, _, _ in _FORMATTER.parse(template) if name}


@dataclass(frozen=True)
class Message:
    """One thing the scorer says: ``key`` (of :data:`MESSAGES_EN`, or :data:`FINDINGS_EN` for a finding)
    and its ``params``; ``str()`` is the English (the record's)."""

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return render(MESSAGES_EN[self.key] if self.key in MESSAGES_EN else FINDINGS_EN[self.key], self.params)


def place_parts(where: str) -> tuple[tuple[str, int | None], ...]:
    """A place in the record's path notation as (name, index or None) parts.

    >>> place_parts("deals[1].hands[0]"), place_parts("rules.ladders"), place_parts("request body")
    ((('deals', 1), ('hands', 0)), (('rules', None), ('ladders', None)), (('request body', None),))
    """
    parts: list[tuple[str, int | None]] = []
    for step in where.split("."):
        name, bracket, rest = step.partition("[")
        index: int | None = None
        if bracket:
            number = rest.removesuffix("]")
            if not number.isdigit() or "[" in number:
                raise ValueError(f"not a place: {where!r}")
            index = int(number)
        parts.append((name, index))
    return tuple(parts)


__all__ = ["FINDINGS_EN", "FREE_TEXT", "MESSAGES_EN", "Message", "RECORD_VOICE", "SPECS", "Voice", "place_parts", "render",
           "template_fields"]
