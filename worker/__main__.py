"""`python -m worker ...` is the same as the `ajr` command."""

from worker.cli import main

main()
