"""`python -m cpflow` runs the command line."""

from cpflow.cli import main

main()
