"""Diagnostics and the one table of diagnostic codes.

Every finding of every layer (notation SJ1xx, ruleset SJ15x, engine
SJ2xx–SJ5xx, analyzer mistakes SJ6xx, importers SJ7xx) is a
:class:`Diagnostic`; the codes, their names and default severities are listed
once, in :data:`CODES`. ``docs/diagnostics.md`` documents the same table and a
test keeps the two in step. Codes are a public contract: never renumber.

Diagnostics are collected, never raised (like flake8/sqlfluff).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from primitives.spans import NO_SPAN as NO_SPAN
from primitives.spans import Span as Span

ERROR = "error"
WARNING = "warning"
INFO = "info"


class CodeInfo(NamedTuple):
    name: str
    severity: str
    summary: str


#: The public table of codes. Keep ``docs/diagnostics.md`` in step (a test checks).
CODES: dict[str, CodeInfo] = {
    # -- SJ1xx: reading SJN text (notation) ---------------------------------
    "SJ101": CodeInfo("syntax-error", ERROR, "the text is not valid SJN here"),
    "SJ102": CodeInfo("bad-card", ERROR, "a card group has an unknown suit or a bad rank"),
    "SJ103": CodeInfo("unterminated-comment", ERROR, "a `{` commentary is never closed"),
    "SJ104": CodeInfo("unknown-keyword", ERROR, "a line starts with a word that is not an SJN keyword"),
    "SJ105": CodeInfo("bad-tag", ERROR, "a tag pair is malformed (`[Name \"value\"]`)"),
    "SJ106": CodeInfo("bad-value", ERROR, "a keyword's value is out of range (level, seat, trump, number)"),
    "SJ107": CodeInfo("bad-json", ERROR, "JSON input does not match the record model"),
    "SJ108": CodeInfo("duplicate-line", ERROR, "a line that a hand holds once (levels, dealer, a seat's cards, …) is repeated; the first is kept"),
    "SJ109": CodeInfo("extra-record", WARNING, "one record was asked for but the text holds more; the rest is ignored"),
    # -- SJ15x: the ruleset (tags [Rules] / [Rule.x]) -----------------------
    "SJ150": CodeInfo("unknown-preset", ERROR, "`[Rules]` names no known preset"),
    "SJ151": CodeInfo("unknown-option", ERROR, "`[Rule.x]` names no ruleset option"),
    "SJ152": CodeInfo("bad-option-value", ERROR, "`[Rule.x]` gives a value the option does not take"),
    # -- SJ2xx: the deal ----------------------------------------------------
    "SJ201": CodeInfo("hand-size", ERROR, "wrong hand or kitty size"),
    "SJ202": CodeInfo("too-many-copies", ERROR, "a card appears more often than the decks allow"),
    "SJ203": CodeInfo("card-not-held", ERROR, "a player plays or declares a card they do not hold"),
    "SJ204": CodeInfo("bad-bury", ERROR, "bury is not the kitty size or buries cards the dealer does not hold"),
    "SJ205": CodeInfo("not-dealer-bury", ERROR, "someone other than the dealer (or a campus 反主抄底 overrider) buries"),
    # -- SJ3xx: declarations and trump --------------------------------------
    "SJ301": CodeInfo("weak-declaration", ERROR, "declaration too weak to override, or not allowed by the policy"),
    "SJ302": CodeInfo("declared-too-early", ERROR, "declared cards not yet drawn at `@k`"),
    "SJ303": CodeInfo("trump-mismatch", ERROR, "`trump` contradicts the declarations"),
    "SJ304": CodeInfo("trump-unknown", ERROR, "no declarations and no `trump` line: the trump cannot be known"),
    "SJ305": CodeInfo("redeal-mismatch", ERROR, "`redeal` where the rules do not redeal, or a missing redeal"),
    # -- SJ4xx: play ----------------------------------------------------------
    "SJ401": CodeInfo("wrong-leader", ERROR, "wrong leader or seat order"),
    "SJ402": CodeInfo("wrong-count", ERROR, "wrong number of cards in a play"),
    "SJ403": CodeInfo("revoke", ERROR, "revoke: did not follow the led suit while holding it"),
    "SJ404": CodeInfo("shape", ERROR, "did not follow the lead's shape (tractor / tuple obligations)"),
    "SJ405": CodeInfo("mixed-lead", ERROR, "a lead mixes effective suits"),
    "SJ406": CodeInfo("throw-should-fail", ERROR, "a throw recorded as standing should have failed"),
    "SJ407": CodeInfo("bad-failed-throw", ERROR, "a failed throw recorded wrongly (it would stand, or the forced unit is wrong)"),
    "SJ408": CodeInfo("trick-number", ERROR, "a trick's written number is out of sequence"),
    "SJ409": CodeInfo("extra-trick", ERROR, "a trick after every card has been played"),
    "SJ410": CodeInfo("throw-not-allowed", ERROR, "a lead of several units (a throw) where the rules allow no throws"),
    # -- SJ5xx: score, levels, match ----------------------------------------
    "SJ501": CodeInfo("points-mismatch", ERROR, "recorded `points` differ from the computed total"),
    "SJ502": CodeInfo("levels-mismatch", ERROR, "written levels or dealer differ from the computed ones"),
    "SJ503": CodeInfo("incomplete-hand", WARNING, "hand incomplete (fewer tricks than a full hand)"),
    "SJ504": CodeInfo("after-match-end", WARNING, "a hand recorded after the match was already decided"),
    # -- SJ52x: finding friends (找朋友; seed 001 §4, shengji.io Finding Friends) ----
    "SJ520": CodeInfo("friend-card-forbidden", ERROR, "a friend call names a card the rules forbid (a trump, an A, a point card, or a card the dealer holds every copy of)"),
    "SJ521": CodeInfo("friend-ordinal", ERROR, "a friend call's ordinal is beyond the number of decks (or below 1)"),
    "SJ522": CodeInfo("friend-count", ERROR, "the hand calls more or fewer friends than the rules say, or calls none where it must"),
    "SJ523": CodeInfo("friend-reveal", ERROR, "a friend is written as revealed by the wrong seat or at the wrong trick (or never, or not at all)"),
    "SJ524": CodeInfo("player-levels", ERROR, "a player's written level differs from the one the previous hands give, or the levels line does not list the table's players"),
    "SJ525": CodeInfo("seat-not-at-table", ERROR, "a seat that does not sit at this table (P6 at five players, compass and numbered seats mixed)"),
    "SJ526": CodeInfo("friends-without-rules", ERROR, "friend lines, players' own levels or numbered seats under rules with fixed partners; replayed as finding friends"),
    # -- GJ2xx–GJ5xx: Gouji (够级) records, GOUJI.md §9 (replay.gouji) ---------
    "GJ201": CodeInfo("gouji-bad-hand-size", ERROR, "a dealt Gouji hand is not 36 cards"),
    "GJ202": CodeInfo("gouji-too-many-copies", ERROR, "more copies of a rank, joker or suited card than 4 packs hold"),
    "GJ203": CodeInfo("gouji-card-not-held", ERROR, "a card played, paid or returned is not held"),
    "GJ204": CodeInfo("gouji-bad-show", ERROR, "bad `show` (亮3): not two or more held 3s of one suit, or not above the last show"),
    "GJ205": CodeInfo("gouji-wrong-first-leader", ERROR, "wrong first leader of a game"),
    "GJ206": CodeInfo("gouji-bad-tribute", ERROR, "tribute, 点贡 or return missing, extra, misdirected, wrong size or misordered"),
    "GJ207": CodeInfo("gouji-tribute-not-highest", ERROR, "tribute or 点贡 cards are not the payer's highest"),
    "GJ208": CodeInfo("gouji-bad-revolt", ERROR, "revolt (革命) not allowed; several revolts without `redeal`; `redeal` without them"),
    "GJ209": CodeInfo("gouji-bad-buy", ERROR, "买3 missing, not allowed, or wrong seller or payment"),
    "GJ210": CodeInfo("gouji-remove-not-allowed", ERROR, "`remove` (会3/会4) not allowed"),
    "GJ211": CodeInfo("gouji-point-not-allowed", ERROR, "`point` (明点/预点) not allowed"),
    "GJ212": CodeInfo("gouji-misplaced-preplay", ERROR, "a pre-play line after the first action, or (save `lead`) in a position game"),
    "GJ301": CodeInfo("gouji-mixed-set", ERROR, "a set mixes two ranks other than 2s and jokers"),
    "GJ302": CodeInfo("gouji-wrong-count", ERROR, "a play's card count differs from the top's"),
    "GJ303": CodeInfo("gouji-does-not-beat", ERROR, "a play does not beat the top"),
    "GJ304": CodeInfo("gouji-bie3-threes", ERROR, "憋3: 3s played other than as the whole 3s-only last set"),
    "GJ401": CodeInfo("gouji-out-of-turn", ERROR, "an action by a seat that is not the one to act"),
    "GJ402": CodeInfo("gouji-not-asked", ERROR, "an answer to a 够级 play by a seat not asked then"),
    "GJ403": CodeInfo("gouji-pass-on-lead", ERROR, "`pass` or `let` on a lead"),
    "GJ404": CodeInfo("gouji-let-not-allowed", ERROR, "`let` (让牌) not allowed"),
    "GJ405": CodeInfo("gouji-bad-mark", ERROR, "a `burn` or `fail` mark that does not hold"),
    "GJ406": CodeInfo("gouji-unmarked-fail", WARNING, "unmarked burn failure (applied anyway)"),
    "GJ407": CodeInfo("gouji-action-number", ERROR, "action number out of sequence"),
    "GJ408": CodeInfo("gouji-after-end", ERROR, "an action after the game has ended"),
    "GJ501": CodeInfo("gouji-wrong-places", ERROR, "a `=k` mark or `result` differs from the play's places"),
    "GJ502": CodeInfo("gouji-wrong-score", ERROR, "`score` differs from the computed score"),
    "GJ503": CodeInfo("gouji-incomplete-game", WARNING, "the game stops before a side is out"),
    # -- SJ6xx: mistakes (analyzer); severity is set by the point cost --------
    "SJ601": CodeInfo("failed-throw", INFO, "a throw failed: blocked, penalised, lead lost"),
    "SJ602": CodeInfo("missed-kitty-protection", INFO, "attackers won the last trick though the dealers could have kept it"),
    "SJ603": CodeInfo("risky-bury", INFO, "points buried and then lost to the attackers"),
    "SJ604": CodeInfo("points-fed", INFO, "a point card fed to a trick the opponents were certain to win"),
    "SJ605": CodeInfo("points-withheld", INFO, "a point card kept back from a trick the partner was certain to win"),
    "SJ606": CodeInfo("ruffed-partner", INFO, "ruffed a trick the partner was already certain to win"),
    "SJ610": CodeInfo("endgame-error", INFO, "a play in the endgame lost points against the best play"),
    # -- SJ611, SJ612, SJ690: the mistake review from the player's view; its window --
    "SJ611": CodeInfo("lead-error", INFO, "a lead before the endgame lost points on average over the deals the leader could not tell apart"),
    "SJ612": CodeInfo("declaration-error", INFO, "a declaration (or passing) lost points on average over the deals the declarer could picture"),
    "SJ690": CodeInfo("search-window-cut", INFO, "the node budget kept the exact search from judging a play of the window"),
    "SJ691": CodeInfo("friends-no-window", INFO, "a finding-friends hand: the exact search is four-seat only, so the fast pass judges none of its plays (`report --mistakes` reviews them)"),
    # -- SJ7xx: importing other software's logs -----------------------------
    "SJ701": CodeInfo("import-unreadable", ERROR, "the log cannot be read at all (truncated JSON, wrong format)"),
    "SJ702": CodeInfo("import-unknown-event", WARNING, "an event or line the importer does not know; skipped"),
    "SJ703": CodeInfo("import-bad-card", ERROR, "a card id or spelling out of range; skipped"),
    "SJ704": CodeInfo("import-claim-differs", ERROR, "what the log states (winner, points) differs from the rules"),
    "SJ705": CodeInfo("import-bad-event", ERROR, "an event of the log is malformed or contradicts the rest of the log (missing field, impossible seat, deal or trick that does not add up); skipped or repaired as the message says"),
    # -- SJ9xx: the tool itself (reading layer, CLI) -------------------------
    "SJ901": CodeInfo("internal-error", ERROR, "a bug in shengji, not in the record: please report it with the input that caused it"),
    "SJ902": CodeInfo("unsupported-notation", ERROR, "the file is in a notation this build cannot read (a Gouji GJN record without the GJN reader)"),
    # -- SJ71x: the 1997 Tractor game's save file (GAME.SAV, importer game-sav) --
    "SJ710": CodeInfo("save-too-short", ERROR, "the save file ends before the three bytes that hold the levels and the dealer"),
    "SJ711": CodeInfo("save-bad-level", ERROR, "a level byte of the save holds a value the game does not use for a level"),
    "SJ712": CodeInfo("save-bad-dealer", ERROR, "the dealer byte of the save holds a value that is not a seat"),
}


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One finding: ``code, severity, line, column, message`` (+ end, context).

    ``hand`` and ``trick`` are 1-based context numbers when known.
    """

    code: str
    message: str
    line: int = 0
    column: int = 0
    end_line: int = 0
    end_column: int = 0
    severity: str = ""
    hand: int | None = None
    trick: int | None = None

    def __post_init__(self) -> None:
        if not self.severity:
            info = CODES.get(self.code)
            object.__setattr__(self, "severity", info.severity if info else ERROR)

    @classmethod
    def at(cls, code: str, span: Span | None, message: str, *, severity: str = "",
           hand: int | None = None, trick: int | None = None) -> Diagnostic:
        s = span or NO_SPAN
        return cls(code, message, s.line, s.column, s.end_line, s.end_column,
                   severity, hand, trick)

    @property
    def span(self) -> Span:
        return Span(self.line, self.column, self.end_line, self.end_column)

    @property
    def name(self) -> str:
        info = CODES.get(self.code)
        return info.name if info else ""

    def sort_key(self) -> tuple[int, int, str]:
        return (self.line, self.column, self.code)
