//! shengji.io's unit rules (`unit_split: shengji_io`, `follow_policy: shengji_io`):
//! how a lead is read as units, which unit of a throw another player beats, and
//! which follows its walk over fallback shapes allows. A port of `replay/sjio.py`
//! (the fallback shapes are `sjio_fallbacks.rs`, the winner of a trick of several
//! units `sjio_winner.rs`); the Python modules are the specification.
//!
//! "Adjacent" is the order's ladder (keys differing by one): `Order::succ`.

use std::collections::HashMap;

use crate::order::Order;
use crate::sjio_fallbacks::{fallbacks, Requirement, Shape};
use crate::units::{Blocker, Counts, Unit};

/// A unit as the engine reads it: `width` copies of each of `members` (lowest first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Raw {
    pub width: u8,
    pub members: Vec<u8>,
}

impl Raw {
    fn size(&self) -> usize {
        self.width as usize * self.members.len()
    }
}

/// Card → copies, indexed by card (the engine's counts; order plays no part here).
pub type Table = [u8; 54];

fn place(order: &Order, c: u8) -> (i32, u8) {
    (order.key(c), c)
}

/// `_tractors_from`: the tractors starting at `card` (a walk up the ladder over every
/// card held at least twice; the width is the fewest copies met on the whole walk).
pub fn tractors_from(card: u8, count: u8, counts: &Table, order: &Order, min_width: u8, min_length: usize) -> Vec<Raw> {
    let mut out = Vec::new();
    if count < min_width {
        return out;
    }
    let mut width = count;
    let mut frontier: Vec<(u8, Vec<u8>)> = order.succ[card as usize].iter().map(|&s| (s, vec![card])).collect();
    while !frontier.is_empty() {
        let mut nxt: Vec<(u8, Vec<u8>)> = Vec::new();
        for (c, path) in frontier {
            let k = counts[c as usize];
            if k >= 2 {
                width = width.min(k);
                let mut path = path;
                path.push(c);
                if width >= min_width && path.len() >= min_length {
                    out.push(Raw { width, members: path.clone() });
                }
                for &s in &order.succ[c as usize] {
                    nxt.push((s, path.clone()));
                }
            }
        }
        frontier = nxt;
    }
    out
}

/// `_readings`: every reading of `counts` (`num` cards) as units, each listing its units last-chosen first.
fn readings_of(counts: &mut Table, num: usize, floor: Option<(i32, u8)>, order: &Order) -> Vec<Vec<Raw>> {
    if num == 0 {
        return Vec::new();
    }
    let mut start: Option<u8> = None;
    for c in 0..54u8 {
        if counts[c as usize] > 0
            && floor.is_none_or(|f| place(order, c) >= f)
            && start.is_none_or(|s| place(order, c) < place(order, s))
        {
            start = Some(c);
        }
    }
    let mut starts: Vec<Raw> = Vec::new();
    if let Some(s) = start {
        let trs = tractors_from(s, counts[s as usize], counts, order, 2, 2);
        let consumed =
            !trs.is_empty() && trs.iter().all(|t| t.members.iter().all(|&c| counts[c as usize] == t.width));
        let n = counts[s as usize];
        starts.extend(trs);
        if !consumed {
            starts.push(Raw { width: n, members: vec![s] });
        }
    }
    for s in &starts {
        if s.size() == num {
            return vec![vec![s.clone()]];
        }
    }
    let mut out = Vec::new();
    for s in &starts {
        for &c in &s.members {
            counts[c as usize] -= s.width;
        }
        let first = s.members[0];
        for mut sub in readings_of(counts, num - s.size(), Some(place(order, first)), order) {
            sub.push(s.clone());
            out.push(sub);
        }
        for &c in &s.members {
            counts[c as usize] += s.width;
        }
    }
    out
}

/// Every reading the engine lists for `cards` (one effective suit).
pub fn readings(cards: &[u8], order: &Order) -> Vec<Vec<Raw>> {
    let mut counts = [0u8; 54];
    for &c in cards {
        counts[c as usize] += 1;
    }
    readings_of(&mut counts, cards.len(), None, order)
}

pub fn as_unit(r: &Raw, order: &Order) -> Unit {
    let top = *r.members.last().unwrap();
    let mut cards = Vec::with_capacity(r.size());
    for &c in r.members.iter().rev() {
        for _ in 0..r.width {
            cards.push(c);
        }
    }
    Unit { width: r.width, length: r.members.len() as u8, top: order.key(top), cards }
}

/// `split`: of the readings, those whose largest unit ranks highest (most cards, then a
/// tractor before a tuple), and of those the last found.
pub fn split(cards: &[u8], order: &Order) -> Vec<Unit> {
    let mut best: Option<Vec<Raw>> = None;
    let mut best_key = (0usize, false);
    for units in readings(cards, order) {
        let k = units.iter().map(|u| (u.size(), u.members.len() > 1)).max().unwrap_or((0, false));
        if best.is_none() || k >= best_key {
            best = Some(units);
            best_key = k;
        }
    }
    best.unwrap_or_default().iter().map(|r| as_unit(r, order)).collect()
}

/// The engine's order of a lead's units: fewest cards, then lowest first card.
pub fn unit_order(u: &Unit, order: &Order) -> (usize, i32, u8) {
    let c = *u.cards.last().unwrap();
    (u.size(), order.key(c), c)
}

// -- the throw check ----------------------------------------------------------------------

/// `beats`: a unit of `same` (one player's cards of the throw's suit, in their dict order)
/// that beats `unit` as the engine's throw check sees it.
pub fn beats(same: &Counts, unit: &Unit, order: &Order) -> Option<Unit> {
    let w = unit.width;
    if unit.length == 1 {
        let mut best: Option<u8> = None;
        for &(c, n) in same {
            if n >= w && order.key(c) > unit.top && best.is_none_or(|b| order.key(c) < order.key(b)) {
                best = Some(c);
            }
        }
        return best.map(|b| Unit { width: w, length: 1, top: order.key(b), cards: vec![b; w as usize] });
    }
    let second = unit.cards[unit.cards.len() - w as usize - 1];
    let floor = place(order, second);
    let mut table = [0u8; 54];
    for &(c, n) in same {
        table[c as usize] = n;
    }
    let mut cards: Vec<u8> = same.iter().map(|e| e.0).collect();
    cards.sort_by_key(|&c| place(order, c));
    for c in cards {
        if place(order, c) < floor || table[c as usize] == 0 {
            continue;
        }
        let trs = tractors_from(c, table[c as usize], &table, order, w, unit.length as usize);
        if let Some(t) = trs.first() {
            let raw = Raw { width: w, members: t.members[..unit.length as usize].to_vec() };
            return Some(as_unit(&raw, order));
        }
    }
    None
}

/// `_engine_throw`: the other players in turn (`suited`: seat, cards of the suit with
/// positive counts), each against the throw's units in the engine's order; the first
/// unit the first blocking player beats is forced, and only that one.
pub fn engine_throw(units: &[Unit], suited: &[(usize, Counts)], order: &Order) -> (Vec<Blocker>, Vec<Unit>) {
    let mut ordered: Vec<&Unit> = units.iter().collect();
    ordered.sort_by_key(|u| unit_order(u, order));
    let mut blockers = Vec::new();
    for (seat, same) in suited {
        if same.is_empty() {
            continue;
        }
        for u in &ordered {
            if let Some(by) = beats(same, u, order) {
                blockers.push(Blocker { unit: (*u).clone(), seat: *seat, by });
            }
        }
    }
    let allowed = blockers.first().map(|b| vec![b.unit.clone()]).unwrap_or_default();
    (blockers, allowed)
}

// -- following ----------------------------------------------------------------------------

fn tuples_fit(sizes: &[u8], bins: Vec<u8>, memo: &mut HashMap<(Vec<u8>, Vec<u8>), bool>) -> bool {
    if sizes.is_empty() {
        return true;
    }
    let k = (sizes.to_vec(), bins.clone());
    if let Some(&got) = memo.get(&k) {
        return got;
    }
    let s = sizes[0];
    let mut ok = false;
    let mut tried: Vec<u8> = Vec::new();
    for (i, &b) in bins.iter().enumerate() {
        if b >= s && !tried.contains(&b) {
            tried.push(b);
            let mut nb = bins.clone();
            nb[i] = b - s;
            nb.sort_unstable_by(|x, y| y.cmp(x));
            if tuples_fit(&sizes[1..], nb, memo) {
                ok = true;
                break;
            }
        }
    }
    memo.insert(k, ok);
    ok
}

/// Each run of `shape` up the ladder from `c` (`ladder_paths`) taken out of `counts` in
/// turn while `f` looks at what is left; true (and `counts` as it was) once `f` says so.
pub fn each_run(c: u8, shape: &[u8], counts: &mut Table, order: &Order, mut f: impl FnMut(&mut Table) -> bool) -> bool {
    let mut taken = Vec::new();
    ladder_paths(c, shape, 0, counts, order, &mut Vec::new(), &mut taken);
    for run in taken {
        for (&d, &w) in run.iter().zip(shape.iter()) {
            counts[d as usize] -= w;
        }
        let ok = f(counts);
        for (&d, &w) in run.iter().zip(shape.iter()) {
            counts[d as usize] += w;
        }
        if ok {
            return true;
        }
    }
    false
}

/// `ladder_paths`: every run from `c` up the ladder with at least `shape[j]` copies of its j-th card.
pub fn ladder_paths(c: u8, shape: &[u8], i: usize, counts: &Table, order: &Order, path: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
    if counts[c as usize] < shape[i] {
        return;
    }
    path.push(c);
    if i == shape.len() - 1 {
        out.push(path.clone());
    } else {
        for &s in &order.succ[c as usize] {
            ladder_paths(s, shape, i + 1, counts, order, path, out);
        }
    }
    path.pop();
}

fn place_runs(i: usize, runs: &[&Shape], tuples: &[u8], counts: &mut Table, order: &Order,
              memo: &mut HashMap<(Vec<u8>, Vec<u8>), bool>) -> bool {
    if i == runs.len() {
        let mut bins: Vec<u8> = counts.iter().copied().filter(|&n| n > 0).collect();
        bins.sort_unstable_by(|x, y| y.cmp(x));
        return tuples_fit(tuples, bins, memo);
    }
    let shape = runs[i];
    for c in 0..54u8 {
        if counts[c as usize] == 0 {
            continue;
        }
        if each_run(c, shape, counts, order, |counts| place_runs(i + 1, runs, tuples, counts, order, memo)) {
            return true;
        }
    }
    false
}

/// `fits`: can `counts` (cards of one suit) fill every unit of `req` at once?
pub fn fits(counts: &Table, req: &Requirement, order: &Order) -> bool {
    let need: usize = req.iter().map(|s| s.iter().map(|&v| v as usize).sum::<usize>()).sum();
    let have: usize = counts.iter().map(|&n| n as usize).sum();
    if need > have {
        return false;
    }
    let runs: Vec<&Shape> = req.iter().filter(|s| s.len() > 1).collect();
    let mut tuples: Vec<u8> = req.iter().filter(|s| s.len() == 1).map(|s| s[0]).collect();
    tuples.sort_unstable_by(|x, y| y.cmp(x));
    let mut counts = *counts;
    place_runs(0, &runs, &tuples, &mut counts, order, &mut HashMap::new())
}

/// `lead_requirement`: the lead's own shape, its units in the engine's order.
pub fn lead_requirement(lead: &[Unit], order: &Order) -> Requirement {
    let mut units: Vec<&Unit> = lead.iter().collect();
    units.sort_by_key(|u| unit_order(u, order));
    units.iter().map(|u| vec![u.width; u.length as usize]).collect()
}

/// `follow_ok`: is `play` (cards of the led suit, as many as the lead) a legal follow for
/// a player holding `held` (their cards of the suit, the play included)?
pub fn follow_ok(lead: &[Unit], held: &Counts, play: &[u8], order: &Order) -> bool {
    let mut pc = [0u8; 54];
    for &c in play {
        pc[c as usize] += 1;
    }
    let mut hc = [0u8; 54];
    for &(c, n) in held {
        hc[c as usize] += n;
    }
    let first = lead_requirement(lead, order);
    if fits(&pc, &first, order) {
        return true;
    }
    if fits(&hc, &first, order) {
        return false;
    }
    for req in fallbacks(&first).iter() {
        if fits(&pc, req, order) {
            return true;
        }
        if fits(&hc, req, order) {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL: u8 = 15;

    fn o(level: u8, trump: u8) -> Order {
        Order::new(level, trump, false, ALL).with_sjio_split(true)
    }

    fn s(r: u8) -> u8 {
        r - 2
    }
    fn h(r: u8) -> u8 {
        13 + r - 2
    }

    fn shapes(us: &[Unit]) -> Vec<(u8, u8, i32)> {
        us.iter().map(|u| (u.width, u.length, u.top)).collect()
    }

    #[test]
    fn split_prefers_the_largest_unit_then_the_last_reading() {
        // level 10, ♠ trump: ♠999 ♠JJ ♠AA ♥10♥10 is a pair + a triple + a tractor (replay/sjio.py `split`)
        let order = o(10, 0);
        let cards = [s(9), s(9), s(9), s(11), s(11), s(14), s(14), h(10), h(10)];
        let units = split(&cards, &order);
        let mut got = shapes(&units);
        got.sort();
        let k = |c: u8| order.key(c);
        let mut want = vec![(2, 1, k(s(11))), (3, 1, k(s(9))), (2, 2, k(h(10)))];
        want.sort();
        assert_eq!(got, want);
    }

    #[test]
    fn split_of_a_plain_tractor_and_a_single() {
        let order = o(2, 1);
        let units = split(&[s(5), s(5), s(6), s(6), s(9)], &order);
        let mut got = shapes(&units);
        got.sort();
        assert_eq!(got, vec![(1, 1, order.key(s(9))), (2, 2, order.key(s(6)))]);
    }

    #[test]
    fn beats_a_tractor_from_its_second_card() {
        // the throw check's tractor: at least as wide and long, starting at or above the lead's second card
        let order = o(2, 1);
        let lead = Unit { width: 2, length: 2, top: order.key(s(6)), cards: vec![s(6), s(6), s(5), s(5)] };
        let same: Counts = vec![(s(6), 2), (s(7), 2)];
        let by = beats(&same, &lead, &order).unwrap();
        assert_eq!(by.cards, vec![s(7), s(7), s(6), s(6)]);
        let low: Counts = vec![(s(4), 2), (s(5), 2)];
        assert!(beats(&low, &lead, &order).is_none());
        // the lead's own ranks held again (four decks) do not beat it
        let same_ranks: Counts = vec![(s(5), 2), (s(6), 2)];
        assert!(beats(&same_ranks, &lead, &order).is_none());
        let pair = Unit { width: 2, length: 1, top: order.key(s(9)), cards: vec![s(9), s(9)] };
        assert!(beats(&vec![(s(10), 1), (s(8), 2)], &pair, &order).is_none());
        assert_eq!(beats(&vec![(s(13), 2), (s(10), 2)], &pair, &order).unwrap().cards, vec![s(10), s(10)]);
    }

    #[test]
    fn first_blocker_forces_the_smallest_unit_it_beats() {
        let order = o(2, 1);
        let lead = split(&[s(14), s(9), s(9)], &order);
        let others = vec![(1, vec![(s(10), 2)]), (2, vec![(s(13), 1)])];
        let (blockers, allowed) = engine_throw(&lead, &others, &order);
        assert_eq!(blockers.len(), 1);
        assert_eq!(blockers[0].seat, 1);
        assert_eq!(allowed[0].cards, vec![s(9), s(9)]);
    }

    #[test]
    fn follow_walks_the_fallback_shapes() {
        // a tractor led; holding a pair and two singles: the pair is owed (tractor → pair + pair → pair + singles)
        let order = o(2, 1);
        let lead = split(&[s(5), s(5), s(6), s(6)], &order);
        let held: Counts = vec![(s(9), 2), (s(11), 1), (s(13), 1), (s(3), 1)];
        assert!(follow_ok(&lead, &held, &[s(9), s(9), s(11), s(13)], &order));
        assert!(!follow_ok(&lead, &held, &[s(3), s(11), s(13), s(9)], &order));
        // with two pairs held (not adjacent), both are owed
        let held2: Counts = vec![(s(9), 2), (s(12), 2), (s(3), 1)];
        assert!(!follow_ok(&lead, &held2, &[s(9), s(9), s(12), s(3)], &order));
        assert!(follow_ok(&lead, &held2, &[s(9), s(9), s(12), s(12)], &order));
    }
}
