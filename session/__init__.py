"""The game session: the live game kept on disk and audited after every change, and its events.

It sits between the rules (:mod:`scorer`) and everything that feeds or shows a game: the table
pipeline (:mod:`vision.pipeline`) plays into it, the page (:mod:`web`) corrects it and
subscribes to its events, headless ``tuolaji replay`` writes its record. It imports
nothing but the standard library and :mod:`scorer`, so it loads without OpenCV, numpy or
onnxruntime.

* :mod:`session.live`: :class:`~session.live.LiveGame`, the game; :meth:`~session.live.LiveGame.apply`
  its one way in.
* :mod:`session.commands`: the commands, one frozen type a kind of change, each a pure
  ``record → record`` function over one deal.
* :mod:`session.journal`: the journal's :class:`~session.journal.Change`, which storage, undo, the
  page's events and the club's copy all read.
* :mod:`session.announce`: the page's events made from each change; :mod:`session.events`: the typed
  events and the :class:`~session.events.EventBus`.
* :mod:`session.storage`: the record on disk (atomic writes, free space); :mod:`session.resume`:
  whether a saved game and a new input are the same game.
* :mod:`session.changes`: the rules of the changes a person makes to a deal (bids, settings, the
  kitty, rulings, the next deal), refused with :class:`~session.changes.RefusedError`.
* :mod:`session.history`: the record's history of those changes, undone and redone.
"""

from . import messages as messages  # its catalogue of messages, registered before any of its errors is raised
