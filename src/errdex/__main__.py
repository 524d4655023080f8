"""`python -m errdex`: the same as the `errdex` command."""

from errdex.cli import main

main()
