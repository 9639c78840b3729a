"""The headless sub-commands of ``python main.py``.

OpenBLAS is kept to one thread before numpy loads (where the user has not set it): no command
does linear algebra, and the server threads that numpy's and scipy's OpenBLAS each start at
load spin on a core a while (0.1-0.2 s of CPU of the hub's simulated day, docs/event-loop.md)."""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
