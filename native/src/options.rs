//! The review's options of a follow (`analyzer.review.mistakes.decisions.options_of`):
//! the legal follows (`Rules::legal_follows`, what `HandState.legal_follows` gives) less
//! the play made, and, past the cap, the cheapest of them (`Solver.cheap_key`: points,
//! then trumps, then strength, then the cards; equal keys in the follows' sorted order).
//! Three and four decks make a void seat's follows many (C(30, 6) discards of a
//! six-card lead): they are counted and capped here, never handed to Python one by one.

use crate::order::{points, TRUMP};
use crate::trick::Rules;
use crate::units::Counts;

/// `Solver.cheap_key` of a play: (points, trumps, the sum of the strength keys, the sum of the cards).
pub fn cheap_key(rules: &Rules, play: &[u8]) -> (i32, i32, i64, i64) {
    let order = &rules.order;
    let mut key = (0i32, 0i32, 0i64, 0i64);
    for &c in play {
        key.0 += points(c);
        key.1 += (order.eff(c) == TRUMP) as i32;
        key.2 += order.key(c) as i64;
        key.3 += c as i64;
    }
    key
}

/// The follows to `lead` of a seat holding `holding` other than `chosen` (cards ascending):
/// (the follows kept, how many there are). At most `keep` are kept: all of them in sorted
/// order when there are no more, else the `keep` cheapest (by [`cheap_key`], ties in
/// sorted order: Python's stable `sorted(..., key=cheap_key)[:keep]`).
pub fn follow_options(rules: &Rules, lead: &[u8], holding: &Counts, chosen: &[u8], keep: usize) -> (Vec<Vec<u8>>, usize) {
    let mut chosen = chosen.to_vec();
    chosen.sort_unstable();
    let mut moves = rules.legal_follows(lead, holding);
    moves.dedup();
    moves.retain(|m| *m != chosen);
    let total = moves.len();
    if total <= keep {
        return (moves, total);
    }
    // the `keep` smallest of (key, place): a total order, so the selection is Python's stable sort's
    let mut keyed: Vec<((i32, i32, i64, i64), usize)> =
        moves.iter().enumerate().map(|(i, m)| (cheap_key(rules, m), i)).collect();
    if keep > 0 {
        keyed.select_nth_unstable(keep - 1);
    }
    keyed.truncate(keep);
    keyed.sort_unstable();
    let mut slots: Vec<Option<Vec<u8>>> = moves.into_iter().map(Some).collect();
    let kept = keyed.iter().map(|&(_, i)| slots[i].take().unwrap_or_default()).collect();
    (kept, total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::order::Order;
    use crate::units::count;

    fn rules() -> Rules {
        Rules { order: Order::new(2, 0, false, 0), decks: 3, throw_check: true, throws: true, throw_forced: 0,
                throw_penalty: 0, throw_compare: 0, follow_policy: 0, printed: false, kitty_multiplier: 0 }
    }

    /// the cap keeps the cheapest by key, ties in sorted order, and counts every follow but the play made
    #[test]
    fn capped_follows_are_the_cheapest_in_order() {
        let r = rules();
        // trumps led (trump suit 0, level 2) to a seat void in them: any two of its six cards
        let lead = [0u8, 1];
        let hold = count(&[14, 15, 16, 40, 41, 42]);
        let all = r.legal_follows(&lead, &hold);
        let chosen = all[3].clone();
        for keep in [0usize, 1, 3, 50] {
            let (got, total) = follow_options(&r, &lead, &hold, &chosen, keep);
            assert_eq!(total, all.len() - 1);
            let mut want: Vec<Vec<u8>> = all.iter().filter(|m| **m != chosen).cloned().collect();
            if want.len() > keep {
                want.sort_by_key(|m| cheap_key(&r, m));   // stable
                want.truncate(keep);
            }
            assert_eq!(got, want, "keep {keep}");
        }
    }
}
