"""The hunter's kills: each opponent with few territories (or, with ``finish``, the last other seat) priced as a
route or a sweep from one of its stacks (`_kill_plan`), whether to go for it (`_wants_kill`: a seat holding cards
at lower odds), and how many armies follow a conquest to carry the route or the sweep on (`_occupy_extra`)."""
from __future__ import annotations

from riskstats._numba import inline_jit, jit
from riskstats.game.bots.catalog import (
    HUNTER_KILL,
    HUNTER_KILL_PLAIN,
    SWEEP_ALL,
)
from riskstats.game.bots.common import _is_border
from riskstats.game.bots.hunter.chain import H_FLOOD, H_REGION, H_SEEN, _best_route, _flood, _is_target
from riskstats.game.bots.hunter.holding import _largest_enemy
from riskstats.game.rules.cards import _hand_size
from riskstats.game.rules.objectives import _holds_continent
from riskstats.game.rules.options import R_NEUTRAL
from riskstats.game.rules.state import (
    I_OCC_FROM,
    I_OCC_TO,
    _scratch_block,
    _scratch_row,
)


@jit
def _kill_plan(st, B, R, CUT, V, p, extra, max_terr, flood):  # pragma: no cover - compiled
    """p's best kill now: (seat q, start s, first target, P(kill)), or q = -1 if none. Every opponent with at
    most ``max_terr`` territories is priced by `_best_route` over its territories, ``extra`` armies added to the
    start (the reserve while reinforcing). Between seats, one holding cards counts its P(kill) double (the
    thresholds are the caller's, `_wants_kill`)."""
    neutral = R[R_NEUTRAL]
    best_q = -1
    best_s = -1
    best_b = -1
    best_p = 0.0
    best_score = 0.0
    for q in range(st.alive.shape[0]):
        if q == p or q == neutral or st.alive[q] == 0 or st.n_terr[q] > max_terr:
            continue
        s, b, pk = _best_route(st, B, R, CUT, V, p, q, -1, extra, flood)
        weight = 2.0 if _hand_size(st, q) > 0 else 1.0
        if s >= 0 and pk * weight > best_score:
            best_score = pk * weight
            best_q = q
            best_s = s
            best_b = b
            best_p = pk
    return best_q, best_s, best_b, best_p


@inline_jit
def _wants_kill(st, q, pk, params, last):  # pragma: no cover - compiled
    """Whether P(kill) ``pk`` of seat q clears the hunter's threshold: ``kill`` for a seat holding cards (they
    come with the kill) or for the ``last`` other seat (the kill wins the game), ``kill_plain`` for one
    without."""
    if q < 0:
        return False
    if last or _hand_size(st, q) > 0:
        return pk >= params[HUNTER_KILL]
    return pk >= params[HUNTER_KILL_PLAIN]


@jit
def _presses_on(st, B, R, p, t, k, max_terr, last):  # pragma: no cover - compiled
    """Whether a route goes on from t: t borders land of target continent k that p does not hold, or a hunted
    seat's (`_huntable`: a kill's next step)."""
    for i in range(B.nbr_ptr[t], B.nbr_ptr[t + 1]):
        u = B.nbr_idx[i]
        q = st.owner[u]
        if q == p or q == R[R_NEUTRAL]:
            continue
        if B.continent_of[u] == k or _huntable(st, R, p, q, max_terr, last):
            return True
    return False


@jit
def _huntable(st, R, p, q, max_terr, last):  # pragma: no cover - compiled
    """Whether a kill route goes through seat q's land: another seat in the game, not the neutral, with at most
    ``max_terr`` territories, holding cards or the ``last`` other seat."""
    if q == p or q < 0 or q == R[R_NEUTRAL] or st.alive[q] == 0:
        return False
    return st.n_terr[q] <= max_terr and (last or _hand_size(st, q) > 0)


@jit
def _region_need(st, B, u, p, q, k, seen):  # pragma: no cover - compiled
    """The armies a sweep of the targets of p's route (`_is_target`) connected to target u through targets
    (`_flood` from u) costs, roughly: one left on each territory and one lost per defender, plus one to roll on;
    marks the region in ``seen`` (a region already seen costs 0, a territory seen in another region too)."""
    if seen[u]:
        return 0
    T = st.owner.shape[0]
    region = _scratch_row(st.scratch, T, H_REGION)
    n = _flood(st, B, u, p, q, k, region, _scratch_row(st.scratch, T, H_FLOOD))
    seen[u] = 1
    need = 2 + st.armies[u]
    for r in range(n):
        t = region[r]
        if not seen[t]:  # (the walk may come back to u, its start)
            seen[t] = 1
            need += 1 + st.armies[t]
    return need


@jit
def _sweep_need(st, B, R, p, t, k, max_terr, last, sweep, seen):  # pragma: no cover - compiled
    """What the sweeps next to t cost (`_region_need`): the land of each hunted seat (`_huntable`), and with
    ``sweep`` 2 the land of target continent k p does not hold, regions in ``seen`` not counted again.

    Parameters
    ----------
    st : State
        The game (read).
    B, R
        The context's board arrays and rule vector.
    p : int
        The seat sweeping.
    t : int
        The territory whose neighbouring regions are counted.
    k : int
        The target continent (-1: none).
    max_terr : int
        The most territories a hunted seat may hold (`_huntable`).
    last : bool
        The hunted seat is the last other seat (`_huntable`).
    sweep : int
        The hunter's ``sweep`` (`riskstats.game.bots.catalog.HUNTER_SWEEPS`).
    seen : bool[T]
        Territories already counted in a region; updated.
    """
    need = 0
    for i in range(B.nbr_ptr[t], B.nbr_ptr[t + 1]):
        u = B.nbr_idx[i]
        q = st.owner[u]
        if _huntable(st, R, p, q, max_terr, last):
            need += _region_need(st, B, u, p, q, -1, seen)
        elif sweep == SWEEP_ALL and k >= 0 and _is_target(st, B, u, p, -1, k):
            need += _region_need(st, B, u, p, -1, k, seen)
    return need


@jit
def _occupy_extra(st, B, R, p, k, max_terr, last, sweep):  # pragma: no cover - compiled
    """The extra armies moved in after a conquest: everything when the old territory no longer borders an
    enemy; when a route goes on from the new one (`_presses_on`: its target continent k, a kill), everything
    but what the old border needs (its largest enemy neighbour when it guards a continent p holds) and, with
    ``sweep`` (1: kills, 2: kills and continents), what the sweeps that only the old territory reaches need
    (`_sweep_need`: the stack splits where a sweep branches), shared in proportion when the stack is short of
    both; else nothing (the stack stays where it was, the new territory holds the dice's armies)."""
    src = st.info[I_OCC_FROM]
    dst = st.info[I_OCC_TO]
    extra = st.armies[src] - 1
    if extra <= 0:
        return 0
    if not _is_border(st.owner, B.nbr_ptr, B.nbr_idx, src):
        return extra
    if not _presses_on(st, B, R, p, dst, k, max_terr, last):
        return 0
    keep = 0
    if _holds_continent(st, B, p, B.continent_of[src]):
        keep = min(extra, _largest_enemy(st, R, B, src))
    if sweep > 0:
        seen = _scratch_block(st.scratch, st.owner.shape[0], H_SEEN)
        seen[:] = 0
        onward = _sweep_need(st, B, R, p, dst, k, max_terr, last, sweep, seen)
        behind = _sweep_need(st, B, R, p, src, k, max_terr, last, sweep, seen)
        if behind > 0:
            if extra >= keep + behind + onward:
                keep += behind
            else:
                keep = max(keep, (extra * behind) // (behind + max(onward, 1)))
    return extra - min(keep, extra)


@jit
def _seats_left(st, R):  # pragma: no cover - compiled
    """The seats still in the game, the neutral not counted."""
    n = 0
    for q in range(st.alive.shape[0]):
        if st.alive[q] != 0 and q != R[R_NEUTRAL]:
            n += 1
    return n


@inline_jit
def _lead(st, R, p):  # pragma: no cover - compiled
    """Seat ``p``'s territories minus the mean of the other seats still in the game (the neutral not counted)."""
    total = 0
    n = 0
    for q in range(st.alive.shape[0]):
        if q != p and st.alive[q] != 0 and q != R[R_NEUTRAL]:
            total += st.n_terr[q]
            n += 1
    return st.n_terr[p] - total / max(n, 1)
