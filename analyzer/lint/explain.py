"""What each diagnostic code means, an example, and how to fix it: the one source of
``shengji rule CODE``, of the SARIF rules' ``fullDescription`` and ``help``, and of the
section "Every code explained" of docs/diagnostics.md (between
``<!-- explain:start -->`` and ``<!-- explain:end -->``).

    python -m analyzer.lint.explain            rewrite the section
    python -m analyzer.lint.explain --check    exit 1 when it is out of date

``tests/docs/test_explain.py`` fails when the page and this table disagree, or when
a code of :data:`primitives.diagnostics.CODES` has no entry here. The code, its name,
severity and one-line summary stay in ``CODES``; this table adds the rest.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import NamedTuple

START, END = "<!-- explain:start -->", "<!-- explain:end -->"
PAGE = Path(__file__).resolve().parents[2] / "docs" / "diagnostics.md"


class Explanation(NamedTuple):
    """A code's explanation (a paragraph), an example (record lines; ``; <-`` marks
    the line reported) and how to fix it (a sentence or two)."""

    text: str
    example: str
    fix: str

    def help_text(self) -> str:
        return f"{self.text}\n\nExample:\n{self.example}\n\nHow to fix: {self.fix}"

    def help_markdown(self) -> str:
        return f"{self.text}\n\n**Example**\n\n```\n{self.example}\n```\n\n**How to fix**: {self.fix}"


E = Explanation

EXPLANATIONS: dict[str, Explanation] = {
    # -- SJ1xx: reading the text ------------------------------------------------------
    "SJ101": E("The line cannot be read as SJN: a keyword, seat, card group or punctuation is missing or "
               "out of place. The rest of the record is still read; a trick line that cannot be read keeps "
               "its place with no plays.",
               "5. S D4 E: D10 N: D3 W: D7      ; <- `S` lacks its colon",
               "Write the line as SJN expects it (`5. S: D4  E: D10 …`); `shengji fmt` shows the tidy form of "
               "the lines around it."),
    "SJ102": E("A card group names a suit that does not exist or a rank that cannot be read. Suits are S H D "
               "C (or ♠♥♦♣), ranks 2–10, J, Q, K, A (T for 10); jokers are BJ and LJ.",
               "1. S: HA  E: H1  N: H5  W: H3    ; <- `H1`: no rank 1",
               "Correct the card (`H10`, `HA`); write one suit letter, then its ranks (`SAKQ`)."),
    "SJ103": E("A `{` commentary is opened and never closed, so everything after it would be a comment.",
               "2. S: SA  E: S9  N: S5  W: S3  { a nice lead\n3. …                             ; <- never closed",
               "Close the commentary with `}`, or use `;` for a comment that ends with its line."),
    "SJ104": E("A line starts with a word that is not an SJN keyword (hand, levels, dealer, first, declare, "
               "trump, bury, kitty, friend, points, redeal …), a tag, a trick number or a seat.",
               "dealr S                          ; <- did you mean `dealer`?",
               "Spell the keyword as SJN does (the message suggests the nearest one), or make the line a "
               "comment with `;`."),
    "SJ105": E("A tag is not `[Name \"value\"]`: its value lacks the double quotes, a bracket is missing, or "
               "the name is not a word.",
               "[Event Broken]                   ; <- the value is not quoted",
               "Quote the value: `[Event \"Broken\"]` (inside it, write `\\\"` for a quote mark)."),
    "SJ106": E("A keyword's value is out of range: a level that is not 2–10, J, Q, K, A or Joker; a seat "
               "that is not N W S E (or P1–P8); a trump that is not a suit or NT; a bad number.",
               "levels NS 2 EW 1                 ; <- no level 1",
               "Write a value the keyword takes (see docs/notation.md for each keyword)."),
    "SJ107": E("JSON input (`.json`, or text that starts with `{`) does not match the record model: a field "
               "is missing, has the wrong type, or is not known.",
               "{\"tags\": {\"Rules\": \"standard\"}, \"hands\": [{\"levels\": 2}]}   ; <- levels is an object",
               "Write the JSON the way `shengji convert --to json` does, or convert the record from SJN."),
    "SJ108": E("A line a hand holds once (levels, dealer, trump, points, a seat's cards, the kitty …) is "
               "written twice; the first one is kept and the second ignored.",
               "dealer S\ndealer N                         ; <- a second dealer line",
               "Delete the line that is wrong; if both are meant, the hand is two hands (start the second "
               "with `hand`)."),
    "SJ109": E("One record was asked for (e.g. `shengji replay FILE`), but the text holds more than one; "
               "the first is used and the rest ignored.",
               "[Event \"a\"] …\n[Event \"b\"] …                   ; <- a second record",
               "Split the file, or use a command that reads every record (`lint`, `report`)."),
    "SJ150": E("`[Rules]` names no preset this tool knows, so the record cannot be replayed under its rules.",
               "[Rules \"stanard\"]                ; <- did you mean `standard`?",
               "Name a preset from `shengji rules`, or give the rules with `--rules PRESET`."),
    "SJ151": E("A `[Rule.x]` tag names an option the ruleset does not have.",
               "[Rule.throw_penalty_x \"per_card\"] ; <- no such option",
               "Use an option listed by `shengji rules PRESET`."),
    "SJ152": E("A `[Rule.x]` tag gives a value the option does not take.",
               "[Rule.throw_penalty \"sometimes\"]  ; <- not a value of throw_penalty",
               "Use one of the values `shengji rules PRESET` lists for the option."),
    # -- SJ2xx: the deal ----------------------------------------------------------------
    "SJ201": E("A seat's dealt cards or the kitty have the wrong number of cards for the rules (25 a hand "
               "and 8 in the kitty with two decks; 12 and 6 with one).",
               "[Rules \"one-deck\"]\n…\nS: SA SK S5 H2 HK H10 D9 D8 C4 C3 BJ   ; <- 11 cards, 12 expected",
               "Add the missing card or remove the extra one; check the `Rules` tag says how many decks."),
    "SJ202": E("A card appears more often than the decks hold (twice with two decks) across the hands, "
               "kitty and plays.",
               "N: SA SA …\nW: SA …                          ; <- a third ♠A with two decks",
               "Find the miswritten copy and correct it."),
    "SJ203": E("A player plays or declares a card they do not hold. Reported only when the player's hand is "
               "fully known (a seat line, and for the dealer also the kitty and the bury).",
               "S: SA SK …\n1. S: SQ  E: S9  N: S5  W: S3   ; <- S was not dealt ♠Q",
               "Correct the play or the deal line: one of them is miswritten."),
    "SJ204": E("The bury does not have the kitty's number of cards, or buries cards the dealer does not "
               "hold (dealt plus kitty).",
               "bury S: D9 D8 C7                 ; <- 3 cards, the kitty holds 6",
               "Write every buried card, each one the dealer held."),
    "SJ205": E("Someone other than the dealer buries (only a campus 反主抄底 overrider may take the bottom "
               "after the dealer).",
               "dealer S\nbury N: …                        ; <- N is not the dealer",
               "Write the dealer's seat on the bury line, or the overriding `declare` before the second bury."),
    # -- SJ3xx: declarations and trump ----------------------------------------------------
    "SJ301": E("A declaration is too weak to override the one on show (a single over a single, a pair over "
               "a pair of higher rank where the rules forbid it), or the rules' policy does not allow it.",
               "declare S H2 @7\ndeclare W D2 @9                  ; <- a single cannot override a single",
               "Check the cards shown: an override needs more cards of the level (a pair over a single), or "
               "jokers where the rules allow."),
    "SJ302": E("The cards declared at `@k` were not yet drawn by the player: they are not among the first k "
               "cards of the seat's deal line.",
               "S: H3 SA H2 …\ndeclare S H2 @2                  ; <- ♥2 is S's third card",
               "Correct `@k`, or write the seat's cards in the order they were drawn."),
    "SJ303": E("The `trump` line contradicts the declarations: the last standing declaration makes another "
               "suit trump.",
               "declare S H2 @7\ntrump D                          ; <- the declaration made ♥ trump",
               "Correct the trump or the declarations (or leave `trump` out: it is derived)."),
    "SJ304": E("There are no declarations and no `trump` line, so the trump suit cannot be known and the "
               "play cannot be checked.",
               "hand 1\nlevels NS 2 EW 2\ndealer S\n1. S: SA …                       ; <- trump?",
               "Add `trump H` (or the `declare` lines; `declare none` if nobody declared)."),
    "SJ305": E("A `redeal` where the rules do not redeal (or someone declared), or a hand nobody declared "
               "that goes on under rules that redeal.",
               "declare none\n1. S: SA …                       ; <- these rules redeal",
               "Write `redeal` to end a hand nobody declared under redealing rules; remove it otherwise."),
    # -- SJ4xx: play ----------------------------------------------------------------------
    "SJ401": E("A trick is led by the wrong player (the winner of the previous trick leads; the dealer "
               "leads the first), or its plays are not in seat order.",
               "3. N: C5  W: S3  S: D6  E: C10\n4. S: CA  …                      ; <- E won trick 3",
               "Start the trick with its leader and write the plays in turn (N → W → S → E)."),
    "SJ402": E("A play has a different number of cards from the lead (or more cards than the decks hold).",
               "1. S: HAA  E: H6  N: H5 H10  W: H34   ; <- E plays 1 card to a pair",
               "Write every card the player put down; each follower plays as many cards as the lead."),
    "SJ403": E("Revoke: the player did not follow the led suit while holding a card of it. Reported when the "
               "holding is certain (the deal, or a card of that suit the player plays later in the hand).",
               "7. S: SA  E: D5  N: S8  W: S7     ; <- E held ♠Q9\n8. S: SK  E: SQ  N: S10  W: S6",
               "Correct the play (the player had to play the led suit), or the later trick if a card was "
               "miswritten there."),
    "SJ404": E("The follow does not keep the lead's shape: a player who held a pair (or a tractor) of the "
               "led suit had to play it to a pair (tractor) lead.",
               "1. S: HAA  E: H6 H7  N: H5 H10  W: H34   ; <- E held ♥99",
               "Correct the follow: pairs before singles, tractors before pairs, as far as the holding allows."),
    "SJ405": E("A lead mixes effective suits (a trump with a plain card, or two plain suits): a lead, "
               "thrown or not, is of one suit.",
               "1. S: SA HK  E: …                 ; <- ♠ and ♥ in one lead",
               "Split the cards between the tricks they were played in."),
    "SJ406": E("A throw (甩牌) is recorded as standing, but another player held a higher unit of the suit, "
               "so it should have failed. The message names who blocks it and the line to write.",
               "3. S: CAKK  E: C67  N: C5 C10  W: C34   ; <- W held CAA",
               "Write the failed throw as `attempted -> played` (`S: CAKK -> CKK`), as the message says."),
    "SJ407": E("A failed throw is written wrongly: the throw would have stood, or the unit forced out is not "
               "the one the rules force (the smallest blocked unit; under `first_blocker` the one the first "
               "blocker beats).",
               "3. S: CAKK -> CA  E: …            ; <- the pair CKK is the unit forced",
               "Write the unit the message gives after `->`, or the throw without `->` if it stood."),
    "SJ408": E("A trick's written number is out of sequence (a skipped or repeated number).",
               "8. S: SK …\n99. S: S2 …                        ; <- trick 9",
               "Correct the number, or leave it out: trick numbers are optional."),
    "SJ409": E("A trick is written after every card of the hand has been played.",
               "25. …\n26. S: SA …                        ; <- the hand is over",
               "Remove the trick, or start the next hand with `hand` if it belongs there."),
    "SJ410": E("A lead of several units (a throw, 甩牌) under rules that allow no throws (`throws: no`, as "
               "shengji-godot): every lead is one unit — a single, a pair, a tuple or a tractor.",
               "[Rules \"shengji-godot\"]\n1. N: SA SK  W: S5 S6  S: S3 S4  E: S7 S8   ; <- ♠A and ♠K at once",
               "Split the lead into the tricks it was played in, or name the rules the game was played under."),
    # -- SJ5xx: score, levels, the match --------------------------------------------------
    "SJ501": E("The `points` written differ from the attackers' points the engine counts: points in the "
               "tricks they won, throw penalties, and the kitty's points times the multiplier. The message "
               "gives the breakdown.",
               "points 50                        ; <- the attackers scored 40",
               "Write the computed total, or correct the trick that was miswritten."),
    "SJ502": E("The written `levels` or `dealer` of a hand differ from the ones the previous hands give "
               "(the score decides who goes up and who deals). The replay goes on with the written values.",
               "hand 2\nlevels NS 3 EW 2                 ; <- hand 1's score keeps NS on 2",
               "Correct the levels and dealer, or leave them out after hand 1: they are derived."),
    "SJ503": E("A warning: the hand stops before every card is played (a game abandoned, a fragment). The "
               "record is legal; the score and levels of the hand are not checked.",
               "1. S: SA  E: S9  N: S5  W: S3\n(end of the hand)                ; <- 1 of 25 tricks",
               "Nothing to fix if the hand was abandoned; add the missing tricks otherwise (or ignore SJ503)."),
    "SJ504": E("A warning: a hand is recorded after the match was decided (a team passed A).",
               "hand 14                          ; <- NS won the match in hand 13",
               "Start a new record (with its tags) for the next match."),
    "SJ520": E("A friend call names a card the rules forbid: a trump, an A where forbidden, a point card, "
               "or a card the dealer holds every copy of.",
               "friend 1st HA                    ; <- ♥ is trump",
               "Call a card the rules allow (see `shengji rules shengji-io-friends`)."),
    "SJ521": E("A friend call's ordinal is beyond the number of decks (the 3rd copy with two decks) or "
               "below 1.",
               "friend 3rd CA                    ; <- two decks hold two ♣A",
               "Use an ordinal from 1st to the number of decks."),
    "SJ522": E("The hand calls more or fewer friends than the rules say for the table's size, or none where "
               "it must call.",
               "[Rule.players \"6\"]\nfriend 1st CA                    ; <- six players call two",
               "Write every call the dealer made."),
    "SJ523": E("A friend is written as revealed by the wrong seat or at the wrong trick (or never, or not at "
               "all), against the tricks played.",
               "friend 2nd CA P6 @7              ; <- P3 played the 2nd ♣A, in trick 5",
               "Correct the seat and `@k`, or leave them out: the program works them out."),
    "SJ524": E("A player's written level differs from the one the previous hands give, or the `levels` line "
               "does not list every player of the table.",
               "levels P1 2 P2 5 P3 2 P4 3 P5 2   ; <- P6 is missing",
               "List each player's level, as the previous hands leave them."),
    "SJ525": E("A seat that does not sit at this table: P6 at five players, or compass and numbered seats "
               "mixed in one record.",
               "[Rule.players \"5\"]\n1. P4: HAA  P5: H67  P6: H5 H10   ; <- no P6",
               "Use the table's seats only (P1–Pn, or N W S E at four)."),
    "SJ526": E("Friend lines, players' own levels or numbered seats under rules with fixed partners; the "
               "hand is replayed as finding friends.",
               "[Rules \"standard\"]\nfriend 1st CA                    ; <- standard has fixed partners",
               "Name the friends preset (`[Rules \"shengji-io-friends\"]` or `[Rule.partners \"friends\"]`)."),
    # -- GJ: Gouji ----------------------------------------------------------------------
    "GJ201": E("A dealt Gouji hand is not 36 cards (four packs over six players).",
               "P1: BJ LJ 2222 AAA                ; <- 10 cards",
               "Write the whole hand as dealt, or leave the hand lines out."),
    "GJ202": E("More copies of a rank, a joker or a suited card than four packs hold.",
               "P1: 22222 …                       ; <- with the other hands, a 17th 2",
               "Find the miswritten card."),
    "GJ203": E("A card played, paid (tribute, 点贡, 买3) or returned is not held by that player.",
               "P3: 7\n4. P3: 8                          ; <- P3 holds a 7",
               "Correct the play or the hand line."),
    "GJ204": E("A bad `show` (亮3): not two or more 3s of one suit held by the player, or not above the "
               "last show.",
               "show P3 S3                        ; <- one 3",
               "Write the 3s shown, all of one suit and held."),
    "GJ205": E("The first play of a game is made by the wrong player (the last 大落, or as the rules say).",
               "lead P1                           ; <- P5 was 大落",
               "Correct `lead` or the first action's seat."),
    "GJ206": E("A tribute, 点贡 or return is missing, extra, misdirected, of the wrong size or out of order.",
               "tribute P5 P2: LJ 2\n(no return)                       ; <- P2 returns two cards",
               "Write each payment as the previous game's places require."),
    "GJ207": E("Tribute or 点贡 cards are not the payer's highest.",
               "tribute P5 P2: 2                  ; <- P5 holds LJ",
               "Pay the highest cards."),
    "GJ208": E("A revolt (革命) the rules do not allow; several revolts without `redeal`; or `redeal` "
               "without them.",
               "revolt P4\nrevolt P6                          ; <- two revolts: the deal is void",
               "End the game with `redeal` after two revolts, or remove the wrong line."),
    "GJ209": E("买3 missing, not allowed, or with the wrong seller or payment.",
               "buy P6 P3: 3                      ; <- the buyer pays a 2",
               "Write the purchase as the rules say (`buy P6 P3: 2`)."),
    "GJ210": E("`remove` (会3/会4) under rules that do not allow it.",
               "remove 3 4                        ; <- not in this preset",
               "Remove the line, or name the preset that plays it."),
    "GJ211": E("`point` (明点/预点) under rules that do not allow it.",
               "point P1                          ; <- not in this preset",
               "Remove the line, or name the preset that plays it."),
    "GJ212": E("A pre-play line (show, tribute, buy, revolt, remove, point …) after the first action, or "
               "(save `lead`) in a game recorded from a position.",
               "1. P1: QQQ\nshow P3 S333                      ; <- after the first play",
               "Move the line before the first action."),
    "GJ301": E("A set mixes two ranks other than 2s and jokers.",
               "1. P1: QQJ                        ; <- Q and J",
               "Write the cards played; a set is one rank (2s and jokers may join it)."),
    "GJ302": E("A play's card count differs from the top play's.",
               "1. P1: QQQ\n2. P5: KK                          ; <- three cards needed",
               "Write the whole play."),
    "GJ303": E("A play does not beat the top play.",
               "1. P1: QQQ\n2. P5: JJJ                         ; <- J is below Q",
               "Correct the play, or write `pass`."),
    "GJ304": E("憋3: 3s are played other than as the whole, 3s-only last set.",
               "1. P1: 33                         ; <- P1 still holds other cards",
               "Under 憋3 the 3s go out last, all together."),
    "GJ401": E("An action by a seat that is not the one to act.",
               "1. P5: 5\n2. P2: 6                           ; <- P6 acts next",
               "Write the actions in turn (P1 → P2 → … → P6)."),
    "GJ402": E("An answer to a 够级 play by a seat not asked then (the order of 够级 answers is fixed).",
               "1. P1: QQQ\n2. P2: KKK                         ; <- P5 answers first",
               "Write the answers in the order the rules ask them."),
    "GJ403": E("`pass` or `let` on a lead: the player who leads must play.",
               "1. P5: pass                       ; <- P5 leads",
               "Write the lead's cards."),
    "GJ404": E("`let` (让牌) under rules that do not allow it.",
               "4. P4: let                        ; <- not in this preset",
               "Write `pass`, or name the preset that plays 让牌."),
    "GJ405": E("A `burn` or `fail` mark that does not hold for the play it is written on.",
               "3. P2: KKK burn                   ; <- not a burn here",
               "Remove the mark, or correct the play."),
    "GJ406": E("A warning: a burner's failure is applied although the play is not marked `fail`.",
               "8. P2: 88                         ; <- a burner's lead without its joker",
               "Add `fail` to the play."),
    "GJ407": E("An action's number is out of sequence (it counts the game's actions from 1).",
               "1. P5: 5\n3. P6: pass                        ; <- action 2",
               "Correct the number, or leave it out after the first action."),
    "GJ408": E("An action after the game has ended.",
               "8. P5: AA =4\n9. P6: 7                           ; <- the game is over",
               "Remove the action, or start the next game with `game`."),
    "GJ501": E("A `=k` mark or the `result` line differs from the places the play gives.",
               "4. P3: 7 =2                       ; <- P3 goes out third",
               "Correct the mark or the result (or leave them out: they are derived)."),
    "GJ502": E("The `score` line differs from the score computed from the places.",
               "score odd 4 even 0                ; <- odd scores 12",
               "Write the computed score."),
    "GJ503": E("A warning: the game stops before a side is out (a record may end anywhere).",
               "6. P2: pass\n(end of the game)                 ; <- nobody is out",
               "Nothing to fix if the game was abandoned; add the rest otherwise."),
    # -- SJ6xx: mistakes (info) -----------------------------------------------------------
    "SJ601": E("A mistake note (info): a throw failed — blocked, penalised, and the lead lost. See "
               "\"SJ601 failed-throw\" under Mistakes for how it is judged.",
               "3. S: CAKK -> CKK  E: C67  N: C5 C10  W: C34   ; <- W held CAA",
               "Throw only units nobody can beat (count the cards out and the ones still held)."),
    "SJ602": E("A mistake note (info): the attackers won the last trick (and the kitty's points) though the "
               "dealers could have kept it.",
               "25. E: …                          ; <- E wins the kitty",
               "Keep a winning trump or pair for the last trick when the kitty is rich."),
    "SJ603": E("A mistake note (info): points buried in the kitty and then lost to the attackers.",
               "bury S: SK SK H10 …               ; <- 30 points buried, the kitty lost",
               "Bury point cards only when the last trick is safe."),
    "SJ604": E("A mistake note (info): a point card fed to a trick the opponents were certain to win.",
               "9. E: DA  N: DK  …                ; <- N's king feeds 10 points",
               "Play a low card to a trick the other side is sure to win."),
    "SJ605": E("A mistake note (info): a point card kept back from a trick the partner was certain to win.",
               "9. N: DA  W: D3  S: D4  …         ; <- S held D10",
               "Give points to a trick your partner is sure to win."),
    "SJ606": E("A mistake note (info): a trick the partner was already certain to win was ruffed.",
               "9. N: DA  W: D3  S: H5  …         ; <- S trumps the partner's ace",
               "Play a plain card (a point card) to the partner's sure trick."),
    "SJ610": E("A mistake note (info): in the endgame (searched exactly) a play lost points against the best "
               "play, shown with the line that follows it.",
               "22. S: C3  …                      ; <- SA first saves 20 points",
               "Play the suggested card; the message gives the best line."),
    "SJ611": E("A mistake note (info): a decision lost points on average over the deals the player could not "
               "tell apart (expected loss above noise, from the player's own view).",
               "12. S: D4  …                      ; <- leading ♠A loses 15 points less on average",
               "Prefer the lead the message suggests."),
    "SJ612": E("A mistake note (info): a `declare` line written with its draw (`@k`) lost points on average "
               "against another declaration the engine would have accepted then, or against passing, over deals "
               "consistent with what the declarer had seen (their first k cards, the declarations so far), the "
               "rest of the draw, the bury (with campus 反主抄底 where the rules have it) and the play left to the "
               "bots. Where the declarations decide who deals (the match's first hand; every hand under "
               "`declarer_deals` or `attacker_level`), each play-out's sides follow from it.",
               "declare S C4 @2                  ; <- passing: the attackers finish 20 points lower on average",
               "Prefer the declaration (or the pass) the message suggests."),
    "SJ690": E("A note (info): the search's node budget kept the exact search from judging this play of the "
               "window; the play has no exact verdict and is left out of accuracy (the window never shrinks).",
               "22. W: D3  …                      ; <- not judged exactly (node budget)",
               "Nothing to fix in the record; raise the search budget to judge every play of the window."),
    "SJ691": E("A note (info), one per finding-friends hand (5–8 players): the exact search plays fixed "
               "partners at four seats, so `lint --mistakes` (the exact window and the pattern rules) judges none "
               "of the hand's plays; `report --mistakes` and `annotate` review them from each player's view by "
               "the bots' play-outs.",
               "hand 1  ; <- finding friends: no exact window",
               "Nothing to fix in the record; run `shengji report --mistakes` to review the hand."),
    # -- SJ7xx: other programs' logs ------------------------------------------------------
    "SJ701": E("The log cannot be read at all: truncated JSON, or not the format named (or detected).",
               "{\"events\": [ {\"type\": \"deal\"   ; <- the file ends here",
               "Check the file is whole and the `--from` format is right (`shengji import --list`)."),
    "SJ702": E("A warning: an event or line the importer does not know; it is skipped.",
               "{\"type\": \"emote\", …}             ; <- not a game event",
               "Nothing to fix if the event is not part of the game; otherwise report the format."),
    "SJ703": E("A card id or spelling out of range in the log; the card is skipped.",
               "{\"card\": 117}                     ; <- ids go to 107",
               "Correct the log, or report the program's card encoding."),
    "SJ704": E("What the log states (a trick's winner, the points) differs from what the rules give.",
               "{\"winner\": 2, …}                  ; <- seat 3 won the trick",
               "Nothing to fix in shengji: the other program (or the log) is wrong; check its rules."),
    "SJ705": E("An event of the log is malformed or contradicts the rest of the log (a missing field, an "
               "impossible seat, a deal or trick that does not add up); it is skipped or repaired as the "
               "message says.",
               "{\"type\": \"play\", \"seat\": 7}       ; <- four seats",
               "Correct the event in the log, or report the format."),
    "SJ710": E("The GAME.SAV file ends before the three bytes that hold the levels and the dealer.",
               "GAME.SAV of 40 bytes                ; <- too short",
               "Use a whole save file."),
    "SJ711": E("A level byte of the save holds a value the game does not use for a level.",
               "byte 0x30 = 0x17                    ; <- not a level",
               "Use a save file the game wrote; a damaged one cannot be read."),
    "SJ712": E("The dealer byte of the save holds a value that is not a seat.",
               "byte 0x32 = 0x09                    ; <- not a seat",
               "Use a save file the game wrote; a damaged one cannot be read."),
    # -- SJ9xx: the tool ------------------------------------------------------------------
    "SJ901": E("An internal error: a bug in shengji, never a problem of the record. `lint` puts it on the "
               "record it was checking and goes on.",
               "SJ901 internal error (KeyError: …); this is a bug in shengji, please report it",
               "Report it with the command and the input; meanwhile `--ignore SJ901` or `; noqa: SJ901`."),
    "SJ902": E("The file is in a notation this build cannot read: a Gouji (GJN) record without the GJN "
               "reader.",
               "[Game \"gouji\"]                    ; <- no GJN reader here",
               "Install a build with the Gouji reader, or lint only the SJN files."),
}


def explanation(code: str) -> Explanation | None:
    """The explanation of ``code`` (None for a code without one)."""
    return EXPLANATIONS.get(code.upper())


def section() -> str:
    """The generated section of docs/diagnostics.md: one ``#### CODE`` per code (its anchor
    ``#sj403`` is the SARIF ``helpUri``'s), in the table's order."""
    from primitives.diagnostics import CODES
    parts = []
    for code, info in CODES.items():
        ex = EXPLANATIONS.get(code)
        if ex is None:
            continue
        example = "\n".join(ex.example.splitlines())
        parts.append(f"#### {code}\n\n`{info.name}`, {info.severity}: *{info.summary}*\n\n{ex.text}\n\n"
                     f"```\n{example}\n```\n\n**How to fix**: {ex.fix}\n")
    return "\n" + "\n".join(parts)


def render(text: str) -> str:
    """``text`` (the page) with its generated section up to date."""
    from analyzer.io.docpage import with_section
    return with_section(text, START, END, section())


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    old = PAGE.read_text(encoding="utf-8")
    new = render(old)
    if "--check" in args:
        if new != old:
            print(f"{PAGE}: the explained codes are out of date (python -m analyzer.lint.explain)")
            return 1
        return 0
    if new != old:
        PAGE.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
