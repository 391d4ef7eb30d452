//! Who wins a trick of several units as shengji.io decides it (`trick.rs`
//! `compute_winner`, `format_match.rs`): every way a play matches the lead's
//! units, in the engine's matcher's order, and the first play that beats the
//! best so far in each. A port of `replay/sjio_winner.py`, the specification.

use std::collections::{BTreeMap, HashSet, VecDeque};

use crate::order::{Order, TRUMP};
use crate::sjio::{each_run, unit_order, Table};
use crate::sjio_fallbacks::Shape;
use crate::units::Unit;

/// (card, copies) along the ladder, lowest first: one unit of a play
pub type Matching = Vec<(u8, u8)>;
type State = BTreeMap<Shape, BTreeMap<Matching, u32>>;

/// `_multiset_k`: the ways to take `k` items of kinds with `mults` copies each, as
/// (kind, count) lists, in the engine's order.
fn multiset_k(mults: &[u32], k: u32) -> Vec<Vec<(usize, u32)>> {
    let mut out = Vec::new();
    if mults.iter().sum::<u32>() < k || k == 0 {
        return out;
    }
    let mut cur = vec![0u32; mults.len()];
    fn fill(cur: &mut [u32], mults: &[u32], mut n: u32) {
        let mut i = 0;
        while i < mults.len() {
            let m = mults[i];
            if n <= m {
                cur[i] = n;
                return;
            }
            cur[i] = m;
            n -= m;
            i += 1;
        }
    }
    fill(&mut cur, mults, k);
    loop {
        out.push(cur.iter().enumerate().filter(|e| *e.1 > 0).map(|(i, &n)| (i, n)).collect());
        let Some(mut i) = cur.iter().position(|&n| n > 0) else { return out };
        let mut left = cur[i];
        cur[i] = 0;
        loop {
            i += 1;
            if i >= cur.len() {
                return out;
            }
            if cur[i] == mults[i] {
                left += cur[i];
                cur[i] = 0;
            } else {
                left -= 1;
                cur[i] += 1;
                break;
            }
        }
        fill(&mut cur, mults, left);
    }
}

enum Item {
    S(State),
    /// the states of one expansion and the next to give
    E(Vec<State>, usize),
}

/// The copies of each card of `cards`, and its distinct cards from the lowest up.
fn tally(cards: &[u8], order: &Order) -> (Table, Vec<u8>) {
    let mut counts: Table = [0; 54];
    let mut distinct: Vec<u8> = Vec::new();
    for &c in cards {
        if counts[c as usize] == 0 {
            distinct.push(c);
        }
        counts[c as usize] += 1;
    }
    distinct.sort_by_key(|&c| (order.key(c), c));
    (counts, distinct)
}

/// `matches`: every way the engine reads `cards` (one effective suit) as the units `fmt`,
/// in its matcher's order; `f` is called with each (one matching per unit of `fmt`) until
/// it returns true.
pub fn matches(cards: &[u8], fmt: &[Shape], order: &Order, mut f: impl FnMut(&[Matching]) -> bool) {
    let (counts, distinct) = tally(cards, order);
    let high_first: Vec<u8> = distinct.iter().rev().copied().collect();
    let mut need: BTreeMap<Shape, u32> = BTreeMap::new();
    for s in fmt {
        *need.entry(s.clone()).or_insert(0) += 1;
    }
    let rank = |m: &Matching| -> Vec<(i32, u8, u8)> { m.iter().map(|&(c, n)| (order.key(c), c, n)).collect() };
    let runs = |r: &Shape, used: &Table| -> Vec<Matching> {
        let mut out = Vec::new();
        for &start in &high_first {
            if counts[start as usize] < r[0] {
                continue;
            }
            let mut stack: Vec<(u8, usize, Matching)> = vec![(start, 0, Vec::new())];
            while let Some((c, i, seq)) = stack.pop() {
                if (counts[c as usize] as i32 - used[c as usize] as i32) < r[i] as i32 {
                    continue;
                }
                let mut seq = seq;
                seq.push((c, r[i]));
                if i == r.len() - 1 {
                    out.push(seq);
                } else {
                    for &s in &order.succ[c as usize] {
                        stack.push((s, i + 1, seq.clone()));
                    }
                }
            }
        }
        out
    };
    let mut queue: VecDeque<Item> = VecDeque::new();
    queue.push_back(Item::S(State::new()));
    let mut visited: HashSet<State> = HashSet::new();
    while let Some(item) = queue.pop_front() {
        let state = match item {
            Item::E(states, i) => {
                let nxt = states[i].clone();
                let seen = visited.contains(&nxt);
                if i + 1 < states.len() {
                    queue.push_front(Item::E(states, i + 1));
                }
                if !seen {
                    queue.push_front(Item::S(nxt));
                }
                continue;
            }
            Item::S(state) => state,
        };
        if visited.contains(&state) {
            continue;
        }
        visited.insert(state.clone());
        let mut used = [0u8; 54];
        for ms in state.values() {
            for (m, &k) in ms {
                for &(c, n) in m {
                    used[c as usize] += n * k as u8;
                }
            }
        }
        let mut remaining: Vec<(&Shape, u32)> = Vec::new();
        for (shape, &n) in &need {
            let filled: u32 = state.get(shape).map_or(0, |ms| ms.values().sum());
            if filled < n {
                remaining.push((shape, n - filled));
            }
        }
        if remaining.is_empty() {
            let mut taken = state.clone();
            let mut out: Vec<Matching> = Vec::with_capacity(fmt.len());
            for s in fmt {
                let ms = taken.get_mut(s).unwrap();
                let best = ms.keys().max_by_key(|m| rank(m)).unwrap().clone();
                let k = ms.get_mut(&best).unwrap();
                if *k == 1 {
                    ms.remove(&best);
                } else {
                    *k -= 1;
                }
                out.push(best);
            }
            if f(&out) {
                return;
            }
            continue;
        }
        let mut expansion: Vec<(Vec<(Matching, u32)>, u32)> = Vec::new();
        for (shape, copies) in remaining {
            if shape.len() > 1 {
                expansion.push((runs(shape, &used).into_iter().map(|t| (t, 1)).collect(), 1));
            } else {
                let w = shape[0];
                let opts: Vec<(Matching, u32)> = high_first
                    .iter()
                    .map(|&c| (vec![(c, w)], ((counts[c as usize] - used[c as usize]) / w) as u32))
                    .filter(|o| o.1 > 0)
                    .collect();
                expansion.push((opts, copies));
            }
        }
        if expansion.iter().all(|(e, k)| e.iter().map(|x| x.1).sum::<u32>() >= *k) {
            for (e, k) in &expansion {
                let mults: Vec<u32> = e.iter().map(|x| x.1).collect();
                let states: Vec<State> = multiset_k(&mults, *k)
                    .into_iter()
                    .map(|combination| {
                        let mut new = state.clone();
                        for (idx, mult) in combination {
                            let m = &e[idx].0;
                            let shape: Shape = m.iter().map(|x| x.1).collect();
                            *new.entry(shape).or_default().entry(m.clone()).or_insert(0) += mult;
                        }
                        new
                    })
                    .collect();
                if !states.is_empty() {
                    queue.push_back(Item::E(states, 0));
                }
            }
        }
    }
}

/// `_greater`: `cmp_effective(a, b) == Greater` for two cards of the lead's suit or trump.
fn greater(a: u8, b: u8, order: &Order) -> bool {
    if a == b {
        return false;
    }
    let (ta, tb) = (order.eff(a) == TRUMP, order.eff(b) == TRUMP);
    if ta != tb {
        return ta;
    }
    order.key(a) > order.key(b)
}

fn strength(c: u8, order: &Order) -> (bool, i32) {
    (order.eff(c) == TRUMP, order.key(c))
}

/// `_may_beat`: a quick necessary condition of `winner`.
fn may_beat(cards: &[u8], best: &[Matching], fmt: &[Shape], order: &Order) -> bool {
    let mut bars: Vec<((bool, i32), u32)> =
        best.iter().zip(fmt).map(|(m, f)| (strength(m[0].0, order), f.iter().map(|&v| v as u32).sum())).collect();
    bars.sort_by(|a, b| b.cmp(a));
    let mut mine: Vec<(bool, i32)> = cards.iter().map(|&c| strength(c, order)).collect();
    mine.sort_by(|a, b| b.cmp(a));
    let mut need = 0;
    for (bar, size) in bars {
        need += size;
        let above = mine.iter().take_while(|&&x| x > bar).count() as u32;
        if above < need {
            return false;
        }
    }
    true
}

/// `_can_beat`: is there any reading of `cards` as `fmt` whose every unit's lowest card
/// is above that of the same unit of `best`?
fn can_beat(cards: &[u8], best: &[Matching], fmt: &[Shape], order: &Order) -> bool {
    let (mut counts, distinct) = tally(cards, order);
    let mut slots: Vec<(&Shape, (bool, i32))> = fmt.iter().zip(best).map(|(f, m)| (f, strength(m[0].0, order))).collect();
    slots.sort_by_key(|x| (std::cmp::Reverse(x.0.len()), std::cmp::Reverse(x.0.iter().map(|&v| v as u32).sum::<u32>())));
    let mut failed: HashSet<(usize, Vec<u8>)> = HashSet::new();

    fn place(i: usize, slots: &[(&Shape, (bool, i32))], distinct: &[u8], counts: &mut Table, order: &Order,
             failed: &mut HashSet<(usize, Vec<u8>)>) -> bool {
        if i == slots.len() {
            return true;
        }
        let state = (i, distinct.iter().map(|&c| counts[c as usize]).collect::<Vec<u8>>());
        if failed.contains(&state) {
            return false;
        }
        let (shape, bar) = slots[i];
        for &c in distinct {
            if strength(c, order) <= bar || counts[c as usize] < shape[0] {
                continue;
            }
            if each_run(c, shape, counts, order, |counts| place(i + 1, slots, distinct, counts, order, failed)) {
                return true;
            }
        }
        failed.insert(state);
        false
    }

    place(0, &slots, &distinct, &mut counts, order, &mut failed)
}

/// `winner`: the winning play of a trick led with several units (the lead of one
/// effective suit, `lead` its units) and the winning reading.
pub fn winner(plays: &[&[u8]], lead: &[Unit], order: &Order) -> (usize, Vec<Matching>) {
    let mut units: Vec<&Unit> = lead.iter().collect();
    units.sort_by_key(|u| unit_order(u, order));
    let fmt: Vec<Shape> = units.iter().map(|u| vec![u.width; u.length as usize]).collect();
    let mut best: Vec<Matching> = units
        .iter()
        .map(|u| u.cards.iter().step_by(u.width as usize).rev().map(|&c| (c, u.width)).collect())
        .collect();
    let mut best_i = 0;
    let suit = order.eff(plays[0][0]);
    let n: usize = units.iter().map(|u| u.size()).sum();
    for (i, cards) in plays.iter().enumerate().skip(1) {
        if cards.len() != n || cards.is_empty() {
            continue;
        }
        let e = order.eff(cards[0]);
        if cards.iter().any(|&c| order.eff(c) != e) || (e != suit && e != TRUMP) {
            continue;
        }
        if !may_beat(cards, &best, &fmt, order) || !can_beat(cards, &best, &fmt, order) {
            continue;
        }
        let mut found: Option<Vec<Matching>> = None;
        matches(cards, &fmt, order, |m| {
            if m.iter().zip(&best).all(|(x, y)| greater(x[0].0, y[0].0, order)) {
                found = Some(m.to_vec());
                true
            } else {
                false
            }
        });
        if let Some(m) = found {
            best_i = i;
            best = m;
        }
    }
    (best_i, best)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn multiset_k_in_the_engines_order() {
        // (checked against replay/sjio_winner.py _multiset_k([2, 1, 2], 2))
        let got = multiset_k(&[2, 1, 2], 2);
        assert_eq!(
            got,
            vec![vec![(0, 2)], vec![(0, 1), (1, 1)], vec![(0, 1), (2, 1)], vec![(1, 1), (2, 1)], vec![(2, 2)]]
        );
    }

    #[test]
    fn a_reading_that_beats_every_unit_wins() {
        // level 2, ♥ trump: ♠55 + ♠A led; ♠66 + ♠K read as pair + single beats it, ♠77 + ♠3 does not
        let order = Order::new(2, 1, false, 15).with_sjio_split(true);
        let s = |r: u8| r - 2;
        let lead = crate::sjio::split(&[s(5), s(5), s(14)], &order);
        let a = [s(6), s(6), s(13)];
        let b = [s(7), s(7), s(3)];
        let lead_cards = [s(5), s(5), s(14)];
        assert_eq!(winner(&[&lead_cards, &b, &a], &lead, &order).0, 0);
        let c = [s(6), s(6), s(14)];
        let d = [s(7), s(7), s(14)];
        let lead2 = crate::sjio::split(&[s(5), s(5), s(13)], &order);
        let lead2_cards = [s(5), s(5), s(13)];
        // ♠66 + ♠A beats it; ♠77 + ♠A then does not (the ♠A is not above the ♠A)
        assert_eq!(winner(&[&lead2_cards, &c, &d], &lead2, &order).0, 1);
    }
}
