"""The named analyses of ``shengji stats`` (:mod:`analyzer.store.stats` runs them): plain
SQL over the store's tables (docs/store.md), nothing recomputed from the rules."""

from __future__ import annotations

from dataclasses import dataclass

_LEVEL = ("CASE {c} WHEN 11 THEN 'J' WHEN 12 THEN 'Q' WHEN 13 THEN 'K' WHEN 14 THEN 'A' "
          "WHEN 15 THEN 'Joker' ELSE CAST({c} AS VARCHAR) END")


@dataclass(frozen=True)
class Analysis:
    name: str
    title: str
    about: str
    sql: str
    #: run when no analysis is named (Shengji's); another game's are run by name
    default: bool = True


ANALYSES: dict[str, Analysis] = {a.name: a for a in (
    Analysis("failed-throws", "Failed throws by player",
             "Throws led, how many failed, the failure rate, and the average cost of a failed throw "
             "(its penalty, plus the trick's points when the opponents won it).",
             """
             SELECT leader_player AS player,
                    count(*) FILTER (WHERE is_throw) AS throws,
                    count(*) FILTER (WHERE failed_throw) AS failed,
                    round(count(*) FILTER (WHERE failed_throw) / count(*) FILTER (WHERE is_throw), 3)
                        AS failed_rate,
                    round(avg(failed_throw_cost) FILTER (WHERE failed_throw), 1) AS avg_cost
             FROM tricks
             GROUP BY leader_player
             HAVING count(*) FILTER (WHERE is_throw) > 0
             ORDER BY failed DESC, throws DESC, player
             """),
    Analysis("kitty-protection", "Kitty protection by multiplier",
             "Complete hands by the multiplier their last trick carried: how often the attackers won "
             "the last trick (the kitty was lost), and the kitty points they took then.",
             """
             SELECT rules, last_trick_multiplier AS multiplier, count(*) AS hands,
                    count(*) FILTER (WHERE last_trick_attackers) AS attackers_won_last,
                    round(1 - count(*) FILTER (WHERE last_trick_attackers) / count(*), 3) AS protected_rate,
                    round(avg(kitty_points) FILTER (WHERE last_trick_attackers), 1) AS avg_kitty_points_lost
             FROM hands
             WHERE complete AND NOT redeal AND last_trick_multiplier IS NOT NULL
             GROUP BY rules, last_trick_multiplier
             ORDER BY rules, multiplier
             """),
    Analysis("dealer-hold", "Dealer hold rate by level and preset",
             "Played hands by preset and the hand's level: how often the dealers kept the deal.",
             f"""
             SELECT rules, {_LEVEL.format(c='level')} AS level, count(*) AS hands,
                    count(*) FILTER (WHERE dealers_keep) AS held,
                    round(count(*) FILTER (WHERE dealers_keep) / count(*), 3) AS hold_rate
             FROM hands
             WHERE dealers_keep IS NOT NULL
             GROUP BY rules, hands.level
             ORDER BY rules, hands.level
             """),
    Analysis("attacker-points", "Attackers' points",
             "How the attackers' totals of complete hands are spread, in steps of 10 points "
             "(kitty and penalties included).",
             """
             SELECT CAST(floor(attacker_points / 10) * 10 AS INTEGER) AS points_from, count(*) AS hands,
                    round(count(*) / sum(count(*)) OVER (), 3) AS share
             FROM hands
             WHERE complete AND NOT redeal AND attacker_points IS NOT NULL
             GROUP BY points_from
             ORDER BY points_from
             """),
    Analysis("diagnostics", "Most common diagnostics",
             "The 20 most frequent diagnostic codes, with the number of matches they occur in and one message.",
             """
             SELECT code, severity, count(*) AS findings, count(DISTINCT match_id) AS matches,
                    min(message) AS example
             FROM diagnostics
             GROUP BY code, severity
             ORDER BY findings DESC, code
             LIMIT 20
             """),
    Analysis("gouji-places", "Gouji: places by seat",
             "Complete Gouji games by preset and seat: the average place (1 = 头科, 6 = 大落) and how often "
             "the seat finished first and last.",
             """
             SELECT rules, seat, count(*) AS games, round(avg(place), 2) AS avg_place,
                    count(*) FILTER (WHERE place = 1) AS first, count(*) FILTER (WHERE place = 6) AS last
             FROM (SELECT rules, unnest(finish_order) AS seat, generate_subscripts(finish_order, 1) AS place
                   FROM gouji_games WHERE complete)
             GROUP BY rules, seat
             ORDER BY rules, seat
             """, default=False),
    Analysis("gouji-burns", "Gouji: 够级 plays and burns by player",
             "Per Gouji player: sets played, 够级 plays made, burns (烧牌) started and failed, and lets (让牌).",
             """
             SELECT player, count(*) FILTER (WHERE kind = 'play') AS plays,
                    count(*) FILTER (WHERE gouji) AS gouji_plays, count(*) FILTER (WHERE burn) AS burns,
                    count(*) FILTER (WHERE failed_burn) AS failed_burns, count(*) FILTER (WHERE kind = 'let') AS lets
             FROM gouji_plays
             GROUP BY player
             HAVING count(*) FILTER (WHERE kind = 'play') > 0
             ORDER BY burns DESC, gouji_plays DESC, player
             """, default=False),
)}

#: the analyses run when none is named (Shengji's: ``stats STORE gouji-places`` names a Gouji one)
DEFAULT: tuple[str, ...] = tuple(n for n, a in ANALYSES.items() if a.default)
