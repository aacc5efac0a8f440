"""``python -m tuolaji <command> ...``: the same as the ``tuolaji`` script."""

import sys

from tuolaji import main

sys.exit(main())
