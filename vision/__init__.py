"""The runtime card reader and table pipeline: frames in, card readings, plays into the live game.

It imports :mod:`scorer`, :mod:`session` and :mod:`models` only (never the generation or
training code above it; ``tests/house/test_layers.py``). See ``docs/ARCHITECTURE.md``.
"""

from . import messages as messages  # its catalogue of messages, registered before any of its errors is raised
