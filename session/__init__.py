"""The game session: the live game kept on disk and audited after every change, and its events.

It sits between the rules (:mod:`scorer`) and everything that feeds or shows a game: the table
pipeline (:mod:`vision.pipeline`) plays into it, the page (:mod:`web`) corrects it and
subscribes to its events, headless ``tuolaji replay`` writes its record. It imports
nothing but the standard library and :mod:`scorer`, so it loads without OpenCV, numpy or
onnxruntime.

* :mod:`session.live`: :class:`~session.live.LiveGame`, the record on disk, resume checks.
* :mod:`session.events`: the typed events, the journal's :class:`~session.events.Change` and the
  :class:`~session.events.EventBus`.
* :mod:`session.changes`: the rules of the changes a person makes to a deal (bids, settings, the
  kitty, rulings, the next deal), refused with :class:`~session.changes.RefusedError`.
* :mod:`session.history`: the record's history of those changes, undone and redone.
"""
