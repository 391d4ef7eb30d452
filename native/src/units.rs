//! Units (tuples and tractors), throws, follow obligations and comparisons
//! (RULES.md §3, §6): a port of `replay/units.py`, function by function.
//!
//! Holdings are "ordered counts": `(card, copies)` in the order the cards were
//! first met, as the Python dicts iterate; ties are broken by that order as
//! the Python engine breaks them.

use crate::order::Order;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Unit {
    pub width: u8,
    pub length: u8,
    pub top: i32,
    pub cards: Vec<u8>,
}

impl Unit {
    #[inline]
    pub fn size(&self) -> usize {
        self.width as usize * self.length as usize
    }
    #[inline]
    pub fn shape(&self) -> (u8, u8) {
        (self.width, self.length)
    }
}

pub type Counts = Vec<(u8, u8)>;

/// card → copies in the order first met
pub fn count(cards: &[u8]) -> Counts {
    let mut out: Counts = Vec::with_capacity(cards.len());
    for &c in cards {
        match out.iter_mut().find(|(d, _)| *d == c) {
            Some(e) => e.1 += 1,
            None => out.push((c, 1)),
        }
    }
    out
}

#[inline]
pub fn get(counts: &Counts, c: u8) -> u8 {
    counts.iter().find(|(d, _)| *d == c).map_or(0, |e| e.1)
}

#[inline]
fn sub(counts: &mut Counts, c: u8, k: u8) {
    if let Some(e) = counts.iter_mut().find(|(d, _)| *d == c) {
        e.1 -= k;
    }
}

#[inline]
fn add(counts: &mut Counts, c: u8, k: u8) {
    if let Some(e) = counts.iter_mut().find(|(d, _)| *d == c) {
        e.1 += k;
    }
}

/// largest first: most cards, then widest, then highest (a stable sort key)
fn unit_order(u: &Unit) -> (i64, i64, i64) {
    (-(u.size() as i64), -(u.width as i64), -(u.top as i64))
}

fn repeat_run(run_low_first: &[u8], w: u8) -> Vec<u8> {
    let mut v = Vec::with_capacity(run_low_first.len() * w as usize);
    for &c in run_low_first.iter().rev() {
        for _ in 0..w {
            v.push(c);
        }
    }
    v
}

/// Maximal runs (length ≥ 2) of adjacent keys where some card has ≥ width copies,
/// each lowest key first (the smallest card of each key).
pub fn runs(counts: &[(u8, u8)], key: &[i32; 54], width: u8) -> Vec<Vec<u8>> {
    let mut avail: Vec<(i32, u8)> = Vec::new();
    for &(c, n) in counts {
        if n >= width {
            let k = key[c as usize];
            match avail.iter_mut().find(|(kk, _)| *kk == k) {
                Some(e) => {
                    if c < e.1 {
                        e.1 = c
                    }
                }
                None => avail.push((k, c)),
            }
        }
    }
    if avail.len() < 2 {
        return Vec::new();
    }
    avail.sort_unstable_by_key(|e| e.0);
    let mut out = Vec::new();
    let mut cur: Vec<u8> = Vec::new();
    let mut prev = -10;
    for (k, c) in avail {
        if !cur.is_empty() && k == prev + 1 {
            cur.push(c);
        } else {
            if cur.len() >= 2 {
                out.push(std::mem::take(&mut cur));
            }
            cur = vec![c];
        }
        prev = k;
    }
    if cur.len() >= 2 {
        out.push(cur);
    }
    out
}

/// Every run of exactly `length` adjacent ranks with ≥ width copies, highest first.
pub fn sub_runs(counts: &[(u8, u8)], key: &[i32; 54], width: u8, length: u8) -> Vec<Vec<u8>> {
    let l = length as usize;
    let mut out: Vec<Vec<u8>> = Vec::new();
    for run in runs(counts, key, width) {
        if run.len() < l {
            continue;
        }
        for i in (0..=run.len() - l).rev() {
            out.push(run[i..i + l].to_vec());
        }
    }
    out.sort_by_key(|r| -key[*r.last().unwrap() as usize]);
    out
}

pub fn single(order: &Order, c: u8) -> Unit {
    Unit { width: 1, length: 1, top: order.key(c), cards: vec![c] }
}

/// Split cards of one effective suit into units (see `replay.units.decompose`).
pub fn decompose(cards: &[u8], order: &Order) -> Vec<Unit> {
    let n = cards.len();
    if n == 0 {
        return Vec::new();
    }
    if n == 1 {
        return vec![single(order, cards[0])];
    }
    let c = cards[0];
    if cards.iter().all(|&d| d == c) {
        return vec![Unit { width: n as u8, length: 1, top: order.key(c), cards: cards.to_vec() }];
    }
    if order.sjio && cards.iter().all(|&d| order.eff(d) == order.eff(c)) {
        // `unit_split: shengji_io`: that engine's reading (sjio.rs), largest unit first
        let mut units = crate::sjio::split(cards, order);
        units.sort_by_key(unit_order);
        return units;
    }
    let counts = count(cards);
    let most = counts.iter().map(|e| e.1).max().unwrap_or(0);
    let key = &order.key;
    if most == 1 {
        let mut units: Vec<Unit> = counts.iter().map(|&(c, _)| single(order, c)).collect();
        units.sort_by_key(|u| -u.top);
        return units;
    }
    if most != 2 {
        return decompose_general(counts, order);
    }
    let mut pair_at: Vec<(i32, u8)> = Vec::new();
    let mut n_pairs = 0;
    for &(c, k) in &counts {
        if k == 2 {
            let kk = key[c as usize];
            match pair_at.iter_mut().find(|e| e.0 == kk) {
                Some(e) => e.1 = c,
                None => pair_at.push((kk, c)),
            }
            n_pairs += 1;
        }
    }
    if pair_at.len() != n_pairs {
        return decompose_general(counts, order);
    }
    pair_at.sort_by_key(|e| -e.0);
    let mut runs_: Vec<Vec<u8>> = Vec::new();
    let mut prev = -10;
    for &(k, c) in &pair_at {
        if k == prev - 1 {
            runs_.last_mut().unwrap().push(c);
        } else {
            runs_.push(vec![c]);
        }
        prev = k;
    }
    let mut tractors: Vec<Unit> = Vec::new();
    let mut units: Vec<Unit> = Vec::new();
    for run in &runs_ {
        let c = run[0];
        if run.len() == 1 {
            units.push(Unit { width: 2, length: 1, top: key[c as usize], cards: vec![c, c] });
        } else {
            let mut doubled = Vec::with_capacity(run.len() * 2);
            for &d in run {
                doubled.push(d);
                doubled.push(d);
            }
            tractors.push(Unit { width: 2, length: run.len() as u8, top: key[c as usize], cards: doubled });
        }
    }
    if !tractors.is_empty() {
        tractors.sort_by_key(|u| -(u.length as i32));
        tractors.append(&mut units);
        units = tractors;
    }
    if n_pairs < counts.len() {
        let mut rest: Vec<Unit> = counts.iter().filter(|e| e.1 == 1).map(|&(c, _)| single(order, c)).collect();
        rest.sort_by_key(|u| -u.top);
        units.append(&mut rest);
    }
    units
}

fn decompose_general(mut counts: Counts, order: &Order) -> Vec<Unit> {
    let key = &order.key;
    let mut units: Vec<Unit> = Vec::new();
    while !counts.is_empty() {
        let mut best: Option<((usize, u8, i32), u8, Vec<u8>)> = None;
        let maxc = counts.iter().map(|e| e.1).max().unwrap();
        let mut w = maxc;
        while w > 1 {
            for run in runs(&counts, key, w) {
                let cand = (run.len() * w as usize, w, key[*run.last().unwrap() as usize]);
                if best.as_ref().is_none_or(|b| cand > b.0) {
                    best = Some((cand, w, run));
                }
            }
            w -= 1;
        }
        let Some((_, w, run)) = best else { break };
        for &c in &run {
            sub(&mut counts, c, w);
        }
        counts.retain(|e| e.1 > 0);
        units.push(Unit {
            width: w,
            length: run.len() as u8,
            top: key[*run.last().unwrap() as usize],
            cards: repeat_run(&run, w),
        });
    }
    for &(c, n) in &counts {
        units.push(Unit { width: n, length: 1, top: key[c as usize], cards: vec![c; n as usize] });
    }
    units.sort_by_key(unit_order);
    units
}

// -- matching a structure -----------------------------------------------------------

struct ShapeParts {
    tractors: Vec<(u8, u8)>,
    tuples: Vec<u8>,
    n_singles: usize,
}

fn shape_parts(shape: &[(u8, u8)]) -> ShapeParts {
    let tractors: Vec<(u8, u8)> = shape.iter().copied().filter(|s| s.1 >= 2).collect();
    let mut tuples: Vec<u8> = shape.iter().filter(|s| s.1 == 1 && s.0 >= 2).map(|s| s.0).collect();
    tuples.sort_by(|a, b| b.cmp(a));
    let n_singles = shape.iter().filter(|s| **s == (1, 1)).count();
    ShapeParts { tractors, tuples, n_singles }
}

/// Units of `cards` having exactly the structure `shape`, high units first; None when impossible.
pub fn cover(shape: &[(u8, u8)], cards: &[u8], order: &Order) -> Option<Vec<Unit>> {
    let mut counts = count(cards);
    let p = shape_parts(shape);
    let mut result = Vec::new();
    if !cover_from(0, &p, &mut counts, &order.key, &mut result) {
        return None;
    }
    result.sort_by_key(unit_order);
    Some(result)
}

fn cover_from(i: usize, p: &ShapeParts, counts: &mut Counts, key: &[i32; 54], result: &mut Vec<Unit>) -> bool {
    if i == p.tractors.len() {
        let snapshot = counts.clone();
        let mark = result.len();
        if cover_tuples(p, counts, key, result) {
            return true;
        }
        *counts = snapshot;
        result.truncate(mark);
        return false;
    }
    let (w, length) = p.tractors[i];
    for run in sub_runs(counts, key, w, length) {
        for &c in &run {
            sub(counts, c, w);
        }
        result.push(Unit { width: w, length, top: key[*run.last().unwrap() as usize], cards: repeat_run(&run, w) });
        if cover_from(i + 1, p, counts, key, result) {
            return true;
        }
        result.pop();
        for &c in &run {
            add(counts, c, w);
        }
    }
    false
}

fn cover_tuples(p: &ShapeParts, counts: &mut Counts, key: &[i32; 54], result: &mut Vec<Unit>) -> bool {
    let snapshot = counts.clone();
    let mark = result.len();
    if tuples_greedy(p, counts, key, result, true) {
        return true;
    }
    *counts = snapshot;
    result.truncate(mark);
    tuples_greedy(p, counts, key, result, false)
}

fn tuples_greedy(p: &ShapeParts, counts: &mut Counts, key: &[i32; 54], result: &mut Vec<Unit>, highest: bool) -> bool {
    for &w in &p.tuples {
        let mut pick: Option<(u8, u8)> = None; // (card, copies)
        for &(c, n) in counts.iter() {
            if n < w {
                continue;
            }
            pick = match pick {
                None => Some((c, n)),
                Some((b, bn)) => {
                    let better = if highest {
                        key[c as usize] > key[b as usize]
                    } else {
                        (n, -key[c as usize]) < (bn, -key[b as usize])
                    };
                    if better {
                        Some((c, n))
                    } else {
                        Some((b, bn))
                    }
                }
            };
        }
        let Some((c, _)) = pick else { return false };
        sub(counts, c, w);
        result.push(Unit { width: w, length: 1, top: key[c as usize], cards: vec![c; w as usize] });
    }
    let mut rest = Vec::new();
    for &(c, n) in counts.iter() {
        for _ in 0..n {
            rest.push(c);
        }
    }
    if rest.len() != p.n_singles {
        return false;
    }
    for c in rest {
        result.push(Unit { width: 1, length: 1, top: key[c as usize], cards: vec![c] });
    }
    true
}

// -- follow obligations -------------------------------------------------------------

fn tuple_fill(counts: &Counts, demand: &[i32; 8], max_width: u8) -> Vec<i32> {
    let mut counts = counts.clone();
    let mut demand = *demand;
    let mut filled = Vec::new();
    let mut w = max_width;
    while w > 1 {
        let need = demand[w as usize];
        let mut got = 0;
        if need != 0 {
            let mut cands: Vec<(u8, u8)> = counts.iter().copied().filter(|e| e.1 >= w).collect();
            cands.sort_by_key(|e| e.1);
            for (c, _) in cands {
                loop {
                    let k = get(&counts, c);
                    if got < need && k >= w {
                        sub(&mut counts, c, w);
                        got += 1;
                    } else {
                        break;
                    }
                }
                if got == need {
                    break;
                }
            }
        }
        filled.push(got);
        if need - got != 0 && w > 2 {
            demand[(w - 1) as usize] += need - got;
        }
        w -= 1;
    }
    filled
}

fn tractor_match(counts: &Counts, key: &[i32; 54], tractors: &[(u8, u8)], strict: bool) -> Vec<i32> {
    let mut counts = counts.clone();
    let mut out = Vec::new();
    for &(w, length) in tractors {
        let mut best_len = 0usize;
        let mut best_run: Option<Vec<u8>> = None;
        for run in runs(&counts, key, w) {
            let got = run.len().min(length as usize);
            if got > best_len {
                best_len = got;
                best_run = Some(run[run.len() - got..].to_vec());
            }
        }
        match best_run {
            Some(run) if strict || best_len >= length as usize => {
                out.push(best_len as i32);
                for c in run {
                    sub(&mut counts, c, w);
                }
            }
            _ => out.push(0),
        }
    }
    out
}

/// How much of the lead's structure `cards` (of the led suit) can meet (see `replay.units.obligation`).
pub fn obligation(lead: &[Unit], cards: &[u8], order: &Order, policy: u8) -> Vec<i32> {
    let counts = count(cards);
    let key = &order.key;
    let with_tractors = policy != POLICY_PURE_TRACTOR || lead.len() == 1;
    let mut tractors: Vec<(u8, u8)> = Vec::new();
    let mut demand = [0i32; 8];
    let mut max_width = 1u8;
    let mut any_demand = false;
    for u in lead {
        let w = u.width;
        if w >= 2 {
            demand[w as usize] += u.length as i32;
            any_demand = true;
            if w > max_width {
                max_width = w;
            }
        }
        if u.length >= 2 && with_tractors {
            tractors.push((w, u.length));
        }
    }
    if !any_demand {
        max_width = 1;
    }
    if max_width == 2 && tractors.is_empty() {
        let need = demand[2];
        let have: i32 = counts.iter().map(|e| (e.1 >> 1) as i32).sum();
        return vec![if have >= need { need } else { have }];
    }
    let mut vec = if tractors.is_empty() {
        Vec::new()
    } else {
        tractor_match(&counts, key, &tractors, policy == POLICY_STRICT)
    };
    let wide: Vec<(u8, u8)> = tractors
        .iter()
        .enumerate()
        .filter(|(i, (w, l))| *w >= 3 && vec[*i] < *l as i32)
        .map(|(_, t)| *t)
        .collect();
    if wide.is_empty() {
        vec.extend(tuple_fill(&counts, &demand, max_width));
        return vec;
    }
    let mut rest = counts.clone();
    for (w, length) in wide {
        let mut stacks: Vec<(u8, u8)> = rest.iter().copied().filter(|e| e.1 >= w).collect();
        if stacks.len() >= length as usize {
            stacks.sort_by_key(|e| e.1);
            for &(c, _) in stacks.iter().take(length as usize) {
                sub(&mut rest, c, w);
            }
            demand[w as usize] -= length as i32;
            vec.push(1);
            vec.push(0);
            continue;
        }
        let got = tractor_match(&rest, key, &[(w - 1, length)], false)[0];
        if got != 0 {
            let runs_ = sub_runs(&rest, key, w - 1, length);
            let last = runs_.last().unwrap().clone();
            for c in last {
                sub(&mut rest, c, w - 1);
            }
            demand[w as usize] -= length as i32;
            vec.push(0);
            vec.push(1);
        } else {
            vec.push(0);
            vec.push(0);
        }
    }
    vec.extend(tuple_fill(&rest, &demand, max_width));
    vec
}

pub const POLICY_PAIRS: u8 = 0;
pub const POLICY_STRICT: u8 = 1;
pub const POLICY_PURE_TRACTOR: u8 = 2;
/// shengji.io's walk over fallback shapes (`sjio::follow_ok`)
pub const POLICY_SHENGJI_IO: u8 = 3;

// -- throws ---------------------------------------------------------------------------

/// A unit of `same` (cards of the unit's effective suit) of the unit's shape that beats it; the lowest.
pub fn beats(same: &Counts, unit: &Unit, key: &[i32; 54]) -> Option<Unit> {
    let w = unit.width;
    let top = unit.top;
    if unit.length == 1 {
        let mut best: i32 = -1;
        let mut best_key = 1 << 30;
        for &(c, n) in same {
            if n >= w {
                let k = key[c as usize];
                if top < k && k < best_key {
                    best = c as i32;
                    best_key = k;
                }
            }
        }
        if best < 0 {
            return None;
        }
        return Some(Unit { width: w, length: 1, top: best_key, cards: vec![best as u8; w as usize] });
    }
    let mut rs = sub_runs(same, key, unit.width, unit.length);
    rs.sort_by_key(|r| key[*r.last().unwrap() as usize]);
    for run in rs {
        let t = key[*run.last().unwrap() as usize];
        if t > unit.top {
            return Some(Unit { width: unit.width, length: unit.length, top: t, cards: repeat_run(&run, unit.width) });
        }
    }
    None
}

#[derive(Clone, Debug)]
pub struct Blocker {
    pub unit: Unit,
    pub seat: usize,
    pub by: Unit,
}

/// Every (unit, seat, beating unit) that makes the throw fail; `others` (seat, holding)
/// in turn order after the thrower. Holdings are ordered counts (any suits).
pub fn throw_blockers(lead: &[Unit], others: &[(usize, Counts)], order: &Order) -> Vec<Blocker> {
    let mut out = Vec::new();
    if lead.len() < 2 {
        return out;
    }
    let key = &order.key;
    let first = order.eff(lead[0].cards[0]);
    let mixed = lead.iter().any(|u| order.eff(u.cards[0]) != first);
    if mixed {
        for u in lead {
            let s = order.eff(u.cards[0]);
            for (seat, h) in others {
                let same: Counts = h.iter().copied().filter(|e| e.1 > 0 && order.eff(e.0) == s).collect();
                if let Some(b) = beats(&same, u, key) {
                    out.push(Blocker { unit: u.clone(), seat: *seat, by: b });
                }
            }
        }
        return out;
    }
    let mut seen: Vec<(usize, Counts, i32)> = Vec::new();
    for (seat, h) in others {
        let same: Counts = h.iter().copied().filter(|e| e.1 > 0 && order.eff(e.0) == first).collect();
        if !same.is_empty() {
            let high = same.iter().map(|e| key[e.0 as usize]).max().unwrap();
            seen.push((*seat, same, high));
        }
    }
    for u in lead {
        for (seat, same, high) in &seen {
            if *high > u.top {
                if let Some(b) = beats(same, u, key) {
                    out.push(Blocker { unit: u.clone(), seat: *seat, by: b });
                }
            }
        }
    }
    out
}

/// Whether a unit of `same` (cards of the unit's effective suit) of the unit's shape beats
/// it ([`beats`] is some), without building it: a tuple by a card held as often above it,
/// a tractor by a run of its width as long or longer whose top is above its top (the
/// highest of the run's windows of the unit's length has the run's top)
fn beats_any(same: &[(u8, u8)], unit: &Unit, key: &[i32; 54]) -> bool {
    let w = unit.width;
    if unit.length == 1 {
        return same.iter().any(|&(c, n)| n >= w && key[c as usize] > unit.top);
    }
    runs(same, key, w).iter().any(|r| r.len() >= unit.length as usize && key[*r.last().unwrap() as usize] > unit.top)
}

/// Whether [`throw_blockers`] finds a blocker (some other player beats a unit of the
/// throw), stopping at the first, without building them: `others`, the other players'
/// holdings (any suits, any order), each player's cards of a suit filtered on the stack
pub fn throw_blocked(lead: &[Unit], others: &[&[(u8, u8)]], order: &Order) -> bool {
    if lead.len() < 2 {
        return false;
    }
    let key = &order.key;
    let mut buf = [(0u8, 0u8); 54];
    let suited = |buf: &mut [(u8, u8); 54], h: &[(u8, u8)], s: u8| -> usize {
        let mut n = 0;
        for &(c, k) in h {
            if k > 0 && order.eff(c) == s {
                buf[n] = (c, k);
                n += 1;
            }
        }
        n
    };
    let first = order.eff(lead[0].cards[0]);
    let mixed = lead.iter().any(|u| order.eff(u.cards[0]) != first);
    if mixed {
        for u in lead {
            let s = order.eff(u.cards[0]);
            for h in others {
                let n = suited(&mut buf, h, s);
                if beats_any(&buf[..n], u, key) {
                    return true;
                }
            }
        }
        return false;
    }
    for h in others {
        let n = suited(&mut buf, h, first);
        let same = &buf[..n];
        let Some(high) = same.iter().map(|e| key[e.0 as usize]).max() else { continue };
        if lead.iter().any(|u| high > u.top && beats_any(same, u, key)) {
            return true;
        }
    }
    false
}

pub const FORCED_SMALLEST: u8 = 0;
pub const FORCED_FIRST_BLOCKER: u8 = 1;
pub const FORCED_LOWEST: u8 = 2;

/// Every unit a failed throw may be forced to play; the first is the canonical one.
/// `seats`: the play order after the thrower.
pub fn forced_units(blockers: &[Blocker], policy: u8, seats: &[usize]) -> Vec<Unit> {
    let pool: Vec<&Unit> = if policy == FORCED_FIRST_BLOCKER {
        let first = seats
            .iter()
            .copied()
            .find(|s| blockers.iter().any(|b| b.seat == *s))
            .unwrap_or(blockers[0].seat);
        blockers.iter().filter(|b| b.seat == first).map(|b| &b.unit).collect()
    } else {
        blockers.iter().map(|b| &b.unit).collect()
    };
    let rank = |u: &Unit| -> (usize, i32, u8) {
        if policy == FORCED_LOWEST {
            (u.top as usize, u.size() as i32, u.width)
        } else {
            (u.size(), u.top, u.width)
        }
    };
    // (tops are ≥ 0: the cast keeps the order)
    let best = pool.iter().map(|u| rank(u)).min().unwrap();
    let mut out: Vec<Unit> = Vec::new();
    for u in pool {
        if rank(u) == best && !out.contains(u) {
            out.push(u.clone());
        }
    }
    out
}

// -- comparing plays -------------------------------------------------------------------

pub const COMPARE_LARGEST_UNIT: u8 = 0;
pub const COMPARE_ALL_UNITS: u8 = 1;
pub const COMPARE_HIGHEST_CARD: u8 = 2;

/// True when `new` beats `best` (both match the lead's structure).
pub fn compare_covers(new: &[Unit], best: &[Unit], lead: &[Unit], policy: u8) -> bool {
    if lead.len() == 1 || policy == COMPARE_LARGEST_UNIT {
        let shape = lead[0].shape();
        if shape == (1, 1) {
            return new.iter().map(|u| u.top).max() > best.iter().map(|u| u.top).max();
        }
        let a = new.iter().filter(|u| u.shape() == shape).map(|u| u.top).max();
        let b = best.iter().filter(|u| u.shape() == shape).map(|u| u.top).max();
        return a > b;
    }
    if policy == COMPARE_HIGHEST_CARD {
        return new.iter().map(|u| u.top).max() > best.iter().map(|u| u.top).max();
    }
    let mut shapes: Vec<((u8, u8), Vec<i32>, Vec<i32>)> = Vec::new();
    for u in new {
        match shapes.iter_mut().find(|e| e.0 == u.shape()) {
            Some(e) => e.1.push(u.top),
            None => shapes.push((u.shape(), vec![u.top], Vec::new())),
        }
    }
    for u in best {
        match shapes.iter_mut().find(|e| e.0 == u.shape()) {
            Some(e) => e.2.push(u.top),
            None => shapes.push((u.shape(), Vec::new(), vec![u.top])),
        }
    }
    for (_, mut a, mut b) in shapes {
        if a.len() != b.len() {
            return false;
        }
        a.sort_by(|x, y| y.cmp(x));
        b.sort_by(|x, y| y.cmp(x));
        for (x, y) in a.iter().zip(b.iter()) {
            if x <= y {
                return false;
            }
        }
    }
    true
}

/// Every way `cards` has exactly the structure `shape` (distinct readings only), in the engine's order.
pub fn all_covers(shape: &[(u8, u8)], cards: &[u8], order: &Order) -> Vec<Vec<Unit>> {
    let p = shape_parts(shape);
    let mut out = Vec::new();
    let mut seen: Vec<Vec<(u8, u8, i32)>> = Vec::new();
    let mut counts = count(cards);
    let mut units = Vec::new();
    all_tractors(0, &p, &mut counts, &mut units, &order.key, &mut out, &mut seen);
    out
}

fn all_tractors(
    i: usize,
    p: &ShapeParts,
    counts: &mut Counts,
    units: &mut Vec<Unit>,
    key: &[i32; 54],
    out: &mut Vec<Vec<Unit>>,
    seen: &mut Vec<Vec<(u8, u8, i32)>>,
) {
    if i == p.tractors.len() {
        all_tuples(0, p, counts, units, 1_000_000, key, out, seen);
        return;
    }
    let (w, length) = p.tractors[i];
    for run in sub_runs(counts, key, w, length) {
        for &c in &run {
            sub(counts, c, w);
        }
        units.push(Unit { width: w, length, top: key[*run.last().unwrap() as usize], cards: repeat_run(&run, w) });
        all_tractors(i + 1, p, counts, units, key, out, seen);
        units.pop();
        for &c in &run {
            add(counts, c, w);
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn all_tuples(
    i: usize,
    p: &ShapeParts,
    counts: &mut Counts,
    units: &mut Vec<Unit>,
    floor: i32,
    key: &[i32; 54],
    out: &mut Vec<Vec<Unit>>,
    seen: &mut Vec<Vec<(u8, u8, i32)>>,
) {
    if i == p.tuples.len() {
        let mut rest = Vec::new();
        for &(c, n) in counts.iter() {
            for _ in 0..n {
                rest.push(c);
            }
        }
        if rest.len() != p.n_singles {
            return;
        }
        let mut found: Vec<Unit> = units.clone();
        for c in rest {
            found.push(Unit { width: 1, length: 1, top: key[c as usize], cards: vec![c] });
        }
        found.sort_by_key(unit_order);
        let sig: Vec<(u8, u8, i32)> = found.iter().map(|u| (u.width, u.length, u.top)).collect();
        if !seen.contains(&sig) {
            seen.push(sig);
            out.push(found);
        }
        return;
    }
    let w = p.tuples[i];
    let same_as_before = i > 0 && p.tuples[i - 1] == w;
    let mut order_: Vec<u8> = counts.iter().map(|e| e.0).collect();
    order_.sort_by_key(|&c| -key[c as usize]);
    for c in order_ {
        if get(counts, c) < w || (same_as_before && key[c as usize] > floor) {
            continue;
        }
        sub(counts, c, w);
        units.push(Unit { width: w, length: 1, top: key[c as usize], cards: vec![c; w as usize] });
        all_tuples(i + 1, p, counts, units, key[c as usize], key, out, seen);
        units.pop();
        add(counts, c, w);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::order::Order;

    const ALL: u8 = 15;
    // cards: suit * 13 + rank - 2 (S=0 H=1 D=2 C=3)
    fn s(rank: u8) -> u8 {
        rank - 2
    }
    fn h(rank: u8) -> u8 {
        13 + rank - 2
    }
    fn c(rank: u8) -> u8 {
        39 + rank - 2
    }

    #[test]
    fn decompose_tractor_pair_and_singles() {
        let o = Order::new(2, 1, false, ALL);
        // ♠AAKK 99 5: tractor AAKK, pair 99, single 5
        let units = decompose(&[s(14), s(14), s(13), s(13), s(9), s(9), s(5)], &o);
        let shapes: Vec<(u8, u8)> = units.iter().map(|u| u.shape()).collect();
        assert_eq!(shapes, vec![(2, 2), (2, 1), (1, 1)]);
        assert_eq!(units[0].cards, vec![s(14), s(14), s(13), s(13)]);
    }

    #[test]
    fn decompose_level_rank_gap_is_a_tractor() {
        // level 4: ♠55 33 is a tractor (the level rank is taken out of the ladder)
        let o = Order::new(4, 1, false, ALL);
        let units = decompose(&[s(5), s(5), s(3), s(3)], &o);
        assert_eq!(units.len(), 1);
        assert_eq!(units[0].shape(), (2, 2));
    }

    #[test]
    fn decompose_triples_first() {
        let o = Order::new(2, 1, false, ALL);
        let units = decompose(&[c(10), c(10), c(10), c(9), c(9), c(9), c(4)], &o);
        assert_eq!(units[0].shape(), (3, 2));
        assert_eq!(units[1].shape(), (1, 1));
    }

    #[test]
    fn cover_prefers_high_pair() {
        // ♣10♣10♣10♣8♣8 against pair + 3 singles: the pair of 10s
        let o = Order::new(2, 1, false, ALL);
        let cv = cover(&[(2, 1), (1, 1), (1, 1), (1, 1)], &[c(10), c(10), c(10), c(8), c(8)], &o).unwrap();
        assert_eq!(cv[0].cards, vec![c(10), c(10)]);
        assert!(cover(&[(2, 2)], &[c(10), c(10), c(8), c(8)], &o).is_none());
    }

    #[test]
    fn obligation_pairs_and_strict() {
        let o = Order::new(2, 1, false, ALL);
        let lead = decompose(&[s(14), s(14), s(13), s(13)], &o);
        // holding ♠QQ 10 10 (not adjacent: J between): pairs policy owes two pairs
        let held = [s(12), s(12), s(10), s(10), s(3)];
        assert_eq!(obligation(&lead, &held, &o, POLICY_PAIRS), vec![0, 2]);
        let held2 = [s(12), s(12), s(11), s(11), s(3)];
        assert_eq!(obligation(&lead, &held2, &o, POLICY_PAIRS), vec![2, 2]);
        // strict: a lead tractor of 3 pairs obliges a shorter tractor held
        let lead3 = decompose(&[s(14), s(14), s(13), s(13), s(12), s(12)], &o);
        assert_eq!(obligation(&lead3, &held2, &o, POLICY_STRICT), vec![2, 2]);
        assert_eq!(obligation(&lead3, &held2, &o, POLICY_PAIRS), vec![0, 2]);
    }

    #[test]
    fn blockers_and_forced() {
        let o = Order::new(2, 1, false, ALL);
        // ♠A ♠Q thrown; a player holds ♠K: the ♠Q single fails
        let lead = decompose(&[s(14), s(12)], &o);
        let others = vec![(1usize, count(&[s(3)])), (2, count(&[s(13)])), (3, count(&[h(5)]))];
        let b = throw_blockers(&lead, &others, &o);
        assert_eq!(b.len(), 1);
        assert_eq!(b[0].seat, 2);
        let f = forced_units(&b, FORCED_SMALLEST, &[1, 2, 3]);
        assert_eq!(f[0].cards, vec![s(12)]);
    }

    #[test]
    fn throw_blocked_as_throw_blockers() {
        // random throws of spades and trumps (♥ trump, level 2; two decks) against random
        // holdings: `throw_blocked` finds a blocker exactly when `throw_blockers` does
        let o = Order::new(2, 1, false, ALL);
        let pool: Vec<u8> = (3..=14).map(s).chain((3..=9).map(h)).chain([0, 26, 52, 53]).collect();
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        fn rnd(x: &mut u64, n: usize) -> usize {
            *x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            (*x >> 33) as usize % n
        }
        // n cards (at most two of each) from the `span` cards of the pool from `from` on
        let draw = |x: &mut u64, n: usize, from: usize, span: usize| -> Vec<u8> {
            let mut v: Vec<u8> = Vec::new();
            while v.len() < n {
                let c = pool[(from + rnd(x, span)) % pool.len()];
                if v.iter().filter(|&&d| d == c).count() < 2 {
                    v.push(c);
                }
            }
            v
        };
        let (mut blocked, mut stands) = (0, 0);
        for _ in 0..20_000 {
            let at = rnd(&mut x, pool.len());
            let n = 2 + rnd(&mut x, 5);
            let lead = decompose(&draw(&mut x, n, at, 5), &o);
            let hands: Vec<Counts> = (0..3)
                .map(|_| {
                    let n = rnd(&mut x, 6);
                    count(&draw(&mut x, n, at, 7))
                })
                .collect();
            let refs: Vec<&[(u8, u8)]> = hands.iter().map(|h| h.as_slice()).collect();
            let others: Vec<(usize, Counts)> = hands.iter().cloned().enumerate().collect();
            let want = !throw_blockers(&lead, &others, &o).is_empty();
            assert_eq!(throw_blocked(&lead, &refs, &o), want, "{lead:?} {hands:?}");
            blocked += (want && lead.len() >= 2) as usize;
            stands += (!want && lead.len() >= 2) as usize;
        }
        assert!(blocked > 5000 && stands > 1000, "{blocked} {stands}");
    }

    #[test]
    fn compare_all_units() {
        let o = Order::new(2, 1, false, ALL);
        let lead = decompose(&[s(5), s(5), s(14)], &o);
        let a = cover(&[(2, 1), (1, 1)], &[h(6), h(6), h(3)], &o).unwrap();
        let b = cover(&[(2, 1), (1, 1)], &[h(4), h(4), h(5)], &o).unwrap();
        assert!(!compare_covers(&a, &b, &lead, COMPARE_ALL_UNITS));
        assert!(compare_covers(&a, &b, &lead, COMPARE_LARGEST_UNIT));
        assert!(all_covers(&[(2, 1), (1, 1), (1, 1)], &[c(6), c(6), c(3), c(3)], &o).len() >= 2);
    }
}
