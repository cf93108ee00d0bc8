"""``python -m riskstats``: the same command line as the ``riskstats`` script."""
from riskstats.cli import main

main()
