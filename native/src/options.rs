//! The review's options of a follow (`analyzer.review.mistakes.decisions.options_of`):
//! the legal follows (`Rules::legal_follows`, what `HandState.legal_follows` gives) less
//! the play made, and, past the cap, the cheapest of them (`Solver.cheap_key`: points,
//! then trumps, then strength, then the cards; equal keys in the follows' sorted order).
//! Three and four decks make a void seat's follows many (C(30, 6) discards of a
//! six-card lead): they are counted and capped here, never handed to Python one by one.
//!
//! And the sampler's deal of the hidden cards (`analyzer.review.mistakes.pov._deal`), draw
//! for draw as the Python one draws from CPython's generator.

use crate::bot::Mt;
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

/// `pov._deal`: `pool` dealt at random to the slots (`sizes`: how many cards each slot takes,
/// in the slots' order; `voids`: the effective suits each slot may not get), the cards of the
/// suits open to fewest slots first, each to a slot drawn with weights the cards it has left;
/// `pins` (card, the slots it may go to; an index past the slots: none) dealt first; retried
/// `tries` times on a dead end. The cards each slot got in the order dealt, or None; `rng` is
/// drawn as CPython's `shuffle` and `random` draw it.
pub fn deal(eff: &[u8; 54], pool: &[u8], sizes: &[usize], voids: &[Vec<u8>], pins: &[(u8, Vec<usize>)], rng: &mut Mt,
            tries: usize) -> Option<Vec<Vec<u8>>> {
    let n = sizes.len();
    let open = |e: u8, i: usize| !voids[i].contains(&e);
    // each effective suit's open slots (in the slots' order)
    let open_to: Vec<Vec<usize>> = (0..=4u8).map(|e| (0..n).filter(|&i| open(e, i)).collect()).collect();
    let mut can: Vec<usize> = Vec::with_capacity(n);
    let mut cum: Vec<usize> = Vec::with_capacity(n);
    for _ in 0..tries {
        let mut cards = pool.to_vec();
        for i in (1..cards.len()).rev() {
            let j = rng.randbelow(i + 1);
            cards.swap(i, j);
        }
        cards.sort_by_key(|&c| open_to[eff[c as usize] as usize].len());   // stable, as Python's sort
        let mut left = sizes.to_vec();
        let mut got: Vec<Vec<u8>> = vec![Vec::new(); n];
        let mut ok = true;
        for (c, allowed) in pins {
            let e = eff[*c as usize];
            can.clear();
            can.extend(allowed.iter().copied().filter(|&i| i < n && left[i] > 0 && open(e, i)));
            if can.is_empty() {
                ok = false;
                break;
            }
            let i = if can.len() == 1 { can[0] } else { weighted(&can, &left, &mut cum, rng) };
            got[i].push(*c);
            left[i] -= 1;
        }
        if ok {
            for &c in &cards {
                can.clear();
                can.extend(open_to[eff[c as usize] as usize].iter().copied().filter(|&i| left[i] > 0));
                if can.is_empty() {
                    ok = false;
                    break;
                }
                let i = weighted(&can, &left, &mut cum, rng);
                got[i].push(c);
                left[i] -= 1;
            }
        }
        if ok {
            return Some(got);
        }
    }
    None
}

/// `pov._weighted` (`random.choices(can, weights)[0]`): one `random()`, the cumulative
/// weights and `bisect(cum, x, 0, len - 1)`.
fn weighted(can: &[usize], left: &[usize], cum: &mut Vec<usize>, rng: &mut Mt) -> usize {
    cum.clear();
    let mut total = 0usize;
    for &i in can {
        total += left[i];
        cum.push(total);
    }
    let x = rng.random() * (total as f64);
    let hi = can.len() - 1;
    let at = cum[..hi].iter().take_while(|&&w| (w as f64) <= x).count();
    can[at]
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
