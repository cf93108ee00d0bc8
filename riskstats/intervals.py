"""Confidence intervals for proportions, shared by the simulator, self-play summaries and reports."""
import math

Z95 = 1.959963984540054
"""The standard normal quantile of a two-sided 95% interval."""


def _count(name: str, value) -> int:
    """``value`` as an int (an integer, or a float holding a whole number), else a `RiskstatsError`."""
    from riskstats.errors import RiskstatsError

    if isinstance(value, bool):
        raise RiskstatsError(f"{name} must be a whole number, got {value!r}")
    if hasattr(value, "__index__"):
        return int(value)
    if isinstance(value, float) or hasattr(value, "is_integer"):
        if math.isfinite(value) and float(value).is_integer():
            return int(value)
    raise RiskstatsError(f"{name} must be a whole number, got {value!r}")


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion (95% by default).

    Raises `riskstats.errors.RiskstatsError` unless 0 <= successes <= trials and trials >= 1 (whole
    numbers) and z > 0: an interval of no trials, or of more successes than trials, means a counting bug.

    Examples
    --------
    >>> tuple(round(x, 4) for x in wilson_interval(50, 100))
    (0.4038, 0.5962)
    >>> wilson_interval(0, 10)[0]
    0.0
    >>> wilson_interval(3, 0)
    Traceback (most recent call last):
    ...
    riskstats.errors.RiskstatsError: trials must be at least 1, got 0
    """
    from riskstats.errors import RiskstatsError

    successes, trials = _count("successes", successes), _count("trials", trials)
    if trials <= 0:
        raise RiskstatsError(f"trials must be at least 1, got {trials}")
    if not 0 <= successes <= trials:
        raise RiskstatsError(f"successes must be from 0 to trials ({trials}), got {successes}")
    if not z > 0:
        raise RiskstatsError(f"z must be positive, got {z}")
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z / (1 + z2 / trials) * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high


def percent(p) -> str:
    """A rate estimated from games, written as a percentage with one decimal (what its interval supports).

    >>> percent(0.12345), percent_interval(0.101, 0.1456)
    ('12.3%', '10.1-14.6%')
    """
    return f"{100 * float(p):.1f}%"


def percent_interval(low, high) -> str:
    """An interval of a rate, written as percentages with one decimal (see `percent`)."""
    return f"{100 * float(low):.1f}-{100 * float(high):.1f}%"


EVERY_SEAT = "- (every seat)"
"""Written in place of the interval of a bot that sits in every seat of every game: its share is fixed by
construction."""


def every_seat_note(fixed: list, players: int) -> str | None:
    """The caption under a win-rate-by-bot table with a bot in every seat (``fixed``: per bot), else None."""
    if not any(fixed):
        return None
    return (f"- (every seat): a bot in all {players} seats of every game wins every decided game by construction: "
            "no interval, the rate says nothing about its strength")


def seated(bot: str, seats: int) -> str:
    """A bot's name in a win-rate table, with its seats when it holds more than one of each game (a line-up
    shorter than the seats is repeated).

    >>> seated("aggressive", 2), seated("continent", 1)
    ('aggressive (2 seats)', 'continent')
    """
    return f"{bot} ({seats} seats)" if seats > 1 else bot


def seats_note(seats: dict) -> str | None:
    """The caption under a win-rate-by-bot table naming the bots that hold several seats of a game but not every
    one (``seats``: bot -> seats held in a game, `seated`), else None.

    >>> print(seats_note({"aggressive": 2, "continent": 1}))  # doctest: +NORMALIZE_WHITESPACE
    aggressive holds 2 seats of each game: a game counts once for it, won if any of its seats won, so its
    rate is not comparable with a one-seat bot's
    """
    several = [f"{bot} holds {k} seats" for bot, k in seats.items() if k > 1]
    if not several:
        return None
    return (" and ".join(several) + " of each game: a game counts once for it, won if any of its seats won, so its "
            "rate is not comparable with a one-seat bot's")
