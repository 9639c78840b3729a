"""The headless sub-commands of ``python main.py``.

Two settings numpy and OpenBLAS read at load are made here, before numpy loads, where the user
has not set them:

- ``NUMPY_MADVISE_HUGEPAGE=0``: numpy asks the kernel for huge pages on every large array, and
  where the kernel then compacts memory to find them (``defrag`` "madvise", as on the development
  machine) the first touch of each of the day's ~40 MB tables cost ~0.1 s of CPU; a command
  makes its big tables once and keeps them, so the huge pages never paid that back (the hub's
  simulated day: ~0.3 s of CPU less, alternating runs, docs/event-loop.md);
- ``OPENBLAS_NUM_THREADS=1``: no command does linear algebra, and the server threads that
  numpy's and scipy's OpenBLAS each start at load spin on a core a while (0.1-0.2 s of CPU)."""

import os

os.environ.setdefault("NUMPY_MADVISE_HUGEPAGE", "0")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
