"""The club server: many tables, one PostgreSQL database, one organiser (``tuolaji club``).

:func:`club.app.create_club_app` builds the club's Flask application on a ``postgresql://``
address: the room's page (``/club``), the spectator screen (``/club/screen``), each table's page
(``/club/table/<name>``: ``tuolaji serve``'s own live page, :mod:`club.table_page`), the referee's console (``/club/referee``), the standings
(``/club/standings``, CSV and PNG) and the JSON API the tables push their numbered changes to
(``/club/api/tables/<name>/changes``). Several processes may serve one database (``tuolaji club
--workers N`` runs gunicorn): each listens to the database's notifications
(:mod:`club.notify`), so every page follows every table whichever process took its change.

The table side needs no PostgreSQL: :mod:`club.outbox` (the numbered changes, kept on
disk, and the pusher) and :mod:`club.attach` (which feeds it every save of ``tuolaji serve``).
This package's ``__init__`` imports only its catalogue of messages, so the table side loads without psycopg.
"""

from . import messages as messages  # its catalogue of messages, registered before any of its errors is raised
