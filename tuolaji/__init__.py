"""tuolaji: a companion for the Chinese card game 拖拉机 (Tractor) at a real table.

The one import name of the project: each folder of the checkout installs as one of its
subpackages (docs/ARCHITECTURE.md): the rules (:mod:`tuolaji.scorer`), the live game
(:mod:`tuolaji.session`), the card reader and table pipeline (:mod:`tuolaji.vision`), the table
page (:mod:`tuolaji.web`), the club server (:mod:`tuolaji.club`), generation and training
(:mod:`tuolaji.datasets`, :mod:`tuolaji.training`), the shipped models (:mod:`tuolaji.models`)
and the commands (:mod:`tuolaji.cli`; ``python -m tuolaji`` runs them). Importing this package
loads nothing else.
"""
