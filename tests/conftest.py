"""Test settings shared by the whole suite: deterministic hypothesis runs."""
from hypothesis import settings

settings.register_profile("riskstats", derandomize=True, deadline=None, max_examples=60, print_blob=True)
settings.load_profile("riskstats")
