"""``python -m tuolaji_cli <command> ...``: the same as the ``tuolaji`` script."""

import sys

from tuolaji_cli import main

sys.exit(main())
