"""``python -m sampyong``: the same command as the ``sampyong`` console script."""

from sampyong.cli import main

main()
