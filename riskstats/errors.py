"""The one error type riskstats raises for bad input.

The library raises `RiskstatsError` (a `ValueError`) with a one-line message naming the bad value;
only the CLI turns it into printed text and an exit status.
"""


class RiskstatsError(ValueError):
    """Bad input to a riskstats function: the message names the value and what was expected."""


def check_int(name: str, value, low: int | None = None, high: int | None = None) -> int:
    """Return `value` as an int, or raise `RiskstatsError` naming it if it is not a whole number in range."""
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise RiskstatsError(f"{name} must be a whole number, got {value!r}")
    value = int(value)
    if (low is not None and value < low) or (high is not None and value > high):
        if high is None:
            expected = f"at least {low}"
        elif low is None:
            expected = f"at most {high}"
        else:
            expected = f"from {low} to {high}"
        raise RiskstatsError(f"{name} must be {expected}, got {value}")
    return value
