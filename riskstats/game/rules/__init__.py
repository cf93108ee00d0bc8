"""The pure rules of a game: a rule option or a variant's core touches only this folder.

Owns the board (`board`), the typed rule options and their named values (`options`), the state's arrays
(`state`), the state's random stream (`stream`), the event log and the game's end (`events`), what wins
besides being left alone (`objectives`: missions and capitals), the cards (`cards`: hands, sets, trades,
draws), what a seat may do (`legal`: the checks, the dice bounds, the fortify reach, the legal masks; the one
module the bots, the game API and the environments ask), every other rule that changes a state (`engine`:
init, the turn's course, apply, the chance step) and the compiled context a game's kernels read (`context`).
Nothing here knows a bot, a loop or a search.
May import: `riskstats.odds` (the battle kernel and its tables) and the foundations.
"""
