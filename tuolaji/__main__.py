"""``python -m tuolaji <command> ...``: the same as the ``tuolaji`` script (:func:`tuolaji.cli.main`)."""

import sys

from tuolaji.cli import main

sys.exit(main())
