"""The club's PostgreSQL schema: one ordered list of migrations, applied once each.

:data:`MIGRATIONS` is the schema's whole history, oldest first; a migration is never edited
once released, only followed by another. :func:`migrate` applies those a database lacks, in
order, each in its own transaction with its row in ``club_migrations``; several server
processes starting at once take an advisory lock, so each migration runs exactly once.

>>> [number for number, _, _ in MIGRATIONS] == list(range(1, len(MIGRATIONS) + 1))
True
"""

from __future__ import annotations

from typing import Any

MIGRATIONS: list[tuple[int, str, str]] = [
    (1, "tables, their sessions and the numbered changes", """
CREATE TABLE club_tables (
    id BIGSERIAL PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    token TEXT NOT NULL,
    last_n BIGINT NOT NULL DEFAULT 0,
    created TIMESTAMPTZ NOT NULL DEFAULT now(),
    seen TIMESTAMPTZ
);
CREATE TABLE club_sessions (
    id BIGSERIAL PRIMARY KEY,
    table_id BIGINT NOT NULL REFERENCES club_tables(id),
    local_id BIGINT NOT NULL,
    name TEXT NOT NULL,
    record TEXT NOT NULL,
    summary TEXT NOT NULL,
    n BIGINT NOT NULL,
    updated TIMESTAMPTZ NOT NULL DEFAULT now(),
    UNIQUE (table_id, local_id)
);
CREATE TABLE club_changes (
    table_id BIGINT NOT NULL REFERENCES club_tables(id),
    n BIGINT NOT NULL,
    session_id BIGINT NOT NULL REFERENCES club_sessions(id),
    digest TEXT NOT NULL,
    received TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (table_id, n)
);
CREATE TABLE club_settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""),
    (2, "players, pairs, rounds, seatings and results", """
CREATE TABLE club_players (
    id BIGSERIAL PRIMARY KEY,
    name TEXT NOT NULL UNIQUE
);
CREATE TABLE club_pairs (
    id BIGSERIAL PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    player_a BIGINT NOT NULL REFERENCES club_players(id),
    player_b BIGINT NOT NULL REFERENCES club_players(id)
);
CREATE TABLE club_rounds (
    id BIGSERIAL PRIMARY KEY,
    number INTEGER NOT NULL UNIQUE,
    ends_by TEXT NOT NULL CHECK (ends_by IN ('deals', 'time')),
    deals INTEGER,
    minutes INTEGER,
    started TIMESTAMPTZ NOT NULL DEFAULT now(),
    ended TIMESTAMPTZ
);
CREATE TABLE club_seatings (
    round_id BIGINT NOT NULL REFERENCES club_rounds(id),
    table_id BIGINT NOT NULL REFERENCES club_tables(id),
    pair_ns BIGINT NOT NULL REFERENCES club_pairs(id),
    pair_ew BIGINT NOT NULL REFERENCES club_pairs(id),
    session_id BIGINT REFERENCES club_sessions(id),
    first_deal INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (round_id, table_id)
);
"""),
    (3, "commands for a table: plays entered at the club, the referee's rulings", """
CREATE TABLE club_commands (
    id BIGSERIAL PRIMARY KEY,
    table_id BIGINT NOT NULL REFERENCES club_tables(id),
    kind TEXT NOT NULL CHECK (kind IN ('play', 'ruling')),
    body TEXT NOT NULL,
    created TIMESTAMPTZ NOT NULL DEFAULT now(),
    done TIMESTAMPTZ,
    result TEXT
);
CREATE INDEX club_commands_by_table ON club_commands (table_id, id);
"""),
    (4, "where each seating ended: its session then, and the deals finished by then", """
ALTER TABLE club_seatings ADD COLUMN end_session_id BIGINT REFERENCES club_sessions(id);
ALTER TABLE club_seatings ADD COLUMN last_deal INTEGER;
"""),
    (5, "a command's verdict in both languages (what the table's page at the club shows)", """
ALTER TABLE club_commands ADD COLUMN message TEXT;
"""),
    (6, "a table's change the club refused to store, and why (what the room shows until the table mends it)", """
ALTER TABLE club_tables ADD COLUMN refused_n BIGINT, ADD COLUMN refused TEXT;
"""),
    (7, "how a round was seated (a movement's next round counts the rounds it seated before)", """
ALTER TABLE club_rounds ADD COLUMN seating TEXT;
"""),
    (8, "the director's fixes of a table's result in a round, each with its reason and the figures before", """
CREATE TABLE club_fixes (
    id BIGSERIAL PRIMARY KEY,
    round_number INTEGER NOT NULL,
    table_id BIGINT NOT NULL REFERENCES club_tables(id),
    before TEXT NOT NULL,
    after TEXT NOT NULL,
    reason TEXT NOT NULL,
    created TIMESTAMPTZ NOT NULL DEFAULT now()
);
"""),
    (9, "a round by deals that ends itself when its tables have played them, and how each round ended", """
ALTER TABLE club_rounds ADD COLUMN ends_itself BOOLEAN NOT NULL DEFAULT false, ADD COLUMN ended_how TEXT;
"""),
    (10, "只记分 entered on a phone at the club: a trick's points, a deal's, 认输 and the kitty's points, queued as plays", """
ALTER TABLE club_commands DROP CONSTRAINT club_commands_kind_check;
ALTER TABLE club_commands ADD CONSTRAINT club_commands_kind_check
    CHECK (kind IN ('play', 'ruling', 'play-points', 'settle-points', 'concede', 'set-kitty-points'));
"""),
    (11, "a refused command's status as the table's own page answers it (400 bad input, 404 missing, 409 out of turn)", """
ALTER TABLE club_commands ADD COLUMN status INTEGER;
"""),
]
"""(number, what it does, SQL), oldest first."""

LOCK_KEY = 0x7475_6F6C  # "tuol": the advisory lock migrating processes take


def migrate(connection: Any) -> list[int]:
    """Apply the migrations ``connection``'s database lacks (a psycopg connection, autocommit off);
    returns the numbers applied."""
    applied: list[int] = []
    with connection.transaction():
        connection.execute("SELECT pg_advisory_xact_lock(%s)", (LOCK_KEY,))
        connection.execute("CREATE TABLE IF NOT EXISTS club_migrations ("
                           "number INTEGER PRIMARY KEY, name TEXT NOT NULL, applied TIMESTAMPTZ NOT NULL DEFAULT now())")
        done = {row[0] for row in connection.execute("SELECT number FROM club_migrations")}
        for number, name, sql in MIGRATIONS:
            if number in done:
                continue
            connection.execute(sql)
            connection.execute("INSERT INTO club_migrations (number, name) VALUES (%s, %s)", (number, name))
            applied.append(number)
    return applied
