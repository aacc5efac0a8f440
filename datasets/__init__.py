"""Generation: card art, synthetic scenes, table videos and real-photo sets for training and
measuring the card reader. It may use :mod:`vision`'s crop geometry and truth format (top
down); nothing at run time imports it. See ``docs/ARCHITECTURE.md``.
"""
