"""`python -m games.verify record.json`: check an exported game record (see `games.verify`)."""

import sys

from games.verify import main

sys.exit(main())
