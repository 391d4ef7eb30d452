//! The exact endgame search: a port of `analyzer/search.py`'s tree (alpha-beta
//! over the attackers' points, principal variation search, a transposition table
//! keyed on trick-start positions up to interchangeable cards, equivalent moves
//! merged, failed throws not searched). The port is move for move: the same
//! moves in the same order, the same table policy and the same node count, so a
//! node budget cuts the native search where it cuts the Python one.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::order::{points, TRUMP};
use crate::trick::{kitty_multiplier, Rules};
use crate::units::{count, Unit};

pub const INF: i64 = 1_000_000_000;

/// FxHash (rustc's): a fast hasher for the caches' small keys.
#[derive(Default, Clone, Copy)]
pub struct Fx(u64);

impl Hasher for Fx {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut v = 0u64;
            for (i, b) in chunk.iter().enumerate() {
                v |= (*b as u64) << (8 * i);
            }
            self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.0 = (self.0.rotate_left(5) ^ i as u64).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.0 = (self.0.rotate_left(5) ^ i as u64).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

pub type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<Fx>>;

pub type Play = Vec<u8>;
pub type Hands = [Vec<u8>; 4];
/// per seat: (card, representative) pairs of interchangeable single cards
pub type Reps = [Vec<(u8, u8)>; 4];

/// the node budget ran out
#[derive(Debug)]
pub struct Exceeded;

#[derive(Clone)]
struct Analysis {
    key: Vec<u32>, // the table key without the leader
    reps: std::rc::Rc<Reps>,
}

pub struct Solver {
    pub rules: Rules,
    pub attacker: [bool; 4],
    pub kitty_points: i64,
    pub last_trick_objective: bool,
    pub nodes: u64,
    pub limit: u64,
    pub table_limit: usize,
    pub trim_mask: u64,
    pub cache_limit: usize,
    tt: FxMap<Vec<u32>, (i64, i64, Option<Play>)>,
    analysis: FxMap<Vec<u8>, Analysis>,
    leads: FxMap<(Vec<u8>, u8), std::rc::Rc<Vec<Play>>>,
    follows: FxMap<(Play, Vec<u8>), std::rc::Rc<Vec<Play>>>,
    follow_distinct: FxMap<(Play, Vec<u8>, Vec<(u8, u8)>), std::rc::Rc<Vec<Play>>>,
    winner: FxMap<Vec<Play>, (usize, i64, i64)>,
    partial: FxMap<Vec<Play>, usize>,
    stands: FxMap<(Play, Vec<Vec<u8>>), bool>,
    max_mult: FxMap<usize, i64>,
    rank: [u32; 54],
}

fn hands_key(hands: &Hands) -> Vec<u8> {
    let mut k = Vec::with_capacity(hands.iter().map(|h| h.len() + 1).sum());
    for h in hands {
        k.extend_from_slice(h);
        k.push(255);
    }
    k
}

fn minus(hand: &[u8], play: &[u8]) -> Vec<u8> {
    let mut h = hand.to_vec();
    for &c in play {
        if let Some(i) = h.iter().position(|&d| d == c) {
            h.remove(i);
        }
    }
    h
}

impl Solver {
    pub fn new(rules: Rules, attacker: [bool; 4], kitty_points: i64, last_trick_objective: bool) -> Solver {
        let mut rank = [0u32; 54];
        for (c, r) in rank.iter_mut().enumerate() {
            *r = rules.order.eff[c] as u32 * 128 + rules.order.key[c] as u32;
        }
        Solver {
            rules,
            attacker,
            kitty_points,
            last_trick_objective,
            nodes: 0,
            limit: u64::MAX,
            table_limit: 400_000,
            trim_mask: 0xFFF,
            cache_limit: 150_000,
            tt: FxMap::default(),
            analysis: FxMap::default(),
            leads: FxMap::default(),
            follows: FxMap::default(),
            follow_distinct: FxMap::default(),
            winner: FxMap::default(),
            partial: FxMap::default(),
            stands: FxMap::default(),
            max_mult: FxMap::default(),
            rank,
        }
    }

    /// empty the table and the caches when they grow past their limits (`Solver._trim`)
    pub fn trim(&mut self) {
        if self.analysis.len() + self.leads.len() > self.cache_limit {
            self.clear_caches();
        }
        if self.tt.len() > self.table_limit {
            self.tt.clear();
        }
    }

    pub fn clear_caches(&mut self) {
        self.analysis.clear();
        self.leads.clear();
        self.follows.clear();
        self.follow_distinct.clear();
        self.winner.clear();
        self.partial.clear();
        self.stands.clear();
    }

    pub fn table_len(&self) -> usize {
        self.tt.len()
    }

    /// the best lead the table holds for a trick-start position
    pub fn table_move(&mut self, hands: &Hands, leader: usize) -> Option<Play> {
        let key = self.canon(hands, leader);
        self.tt.get(&key).and_then(|e| e.2.clone())
    }

    // -- the rules, cached --------------------------------------------------------------

    fn trick(&mut self, plays: &[Play]) -> (usize, i64, i64) {
        if let Some(&got) = self.winner.get(plays) {
            return got;
        }
        let refs: Vec<&[u8]> = plays.iter().map(|p| p.as_slice()).collect();
        let (w, units, _) = self.rules.trick_winner(&refs);
        let pts: i64 = plays.iter().flat_map(|p| p.iter()).map(|&c| points(c) as i64).sum();
        let mult = self.rules.last_trick_multiplier(&units, plays[0].len(), plays.last().unwrap()) as i64;
        let got = (w, pts, mult);
        self.winner.insert(plays.to_vec(), got);
        got
    }

    fn partial_winner(&mut self, plays: &[Play]) -> usize {
        if let Some(&got) = self.partial.get(plays) {
            return got;
        }
        let refs: Vec<&[u8]> = plays.iter().map(|p| p.as_slice()).collect();
        let got = self.rules.trick_winner(&refs).0;
        self.partial.insert(plays.to_vec(), got);
        got
    }

    fn follows(&mut self, lead: &[u8], hand: &[u8]) -> std::rc::Rc<Vec<Play>> {
        let key = (lead.to_vec(), hand.to_vec());
        if let Some(got) = self.follows.get(&key) {
            return got.clone();
        }
        let got = std::rc::Rc::new(self.rules.legal_follows(lead, &count(hand)));
        self.follows.insert(key, got.clone());
        got
    }

    fn follow_moves(&mut self, lead: &[u8], hand: &[u8], pairs: &[(u8, u8)]) -> std::rc::Rc<Vec<Play>> {
        let key = (lead.to_vec(), hand.to_vec(), pairs.to_vec());
        if let Some(got) = self.follow_distinct.get(&key) {
            return got.clone();
        }
        let all = self.follows(lead, hand);
        let got = std::rc::Rc::new(distinct(all.as_ref().clone(), pairs));
        self.follow_distinct.insert(key, got.clone());
        got
    }

    fn lead_moves(&mut self, hands: &Hands, seat: usize) -> std::rc::Rc<Vec<Play>> {
        let key = (hands_key(hands), seat as u8);
        if let Some(got) = self.leads.get(&key) {
            return got.clone();
        }
        let hand = &hands[seat];
        let mut moves = self.rules.unit_leads(&count(hand));
        let others_idx = [(seat + 1) % 4, (seat + 2) % 4, (seat + 3) % 4];
        let other_hands: Vec<&[u8]> =
            (0..4).filter(|&i| i != seat).map(|i| hands[i].as_slice()).collect();
        let eff = self.rules.order.eff;
        for (cards, suit) in self.rules.throw_candidates(hand, &other_hands) {
            let others: Vec<Vec<u8>> = others_idx
                .iter()
                .map(|&i| hands[i].iter().copied().filter(|&c| eff[c as usize] == suit).collect())
                .collect();
            let skey = (cards.clone(), others);
            let ok = match self.stands.get(&skey) {
                Some(&ok) => ok,
                None => {
                    let counts: Vec<_> = skey.1.iter().map(|o| count(o)).collect();
                    let ok = self.rules.throw_stands(&cards, &counts);
                    self.stands.insert(skey, ok);
                    ok
                }
            };
            if ok {
                moves.push(cards);
            }
        }
        let reps = self.trick_reps(hands);
        let moves = self.lead_order(distinct(moves, &reps[seat]));
        let got = std::rc::Rc::new(moves);
        self.leads.insert(key, got.clone());
        got
    }

    fn lead_order(&self, mut moves: Vec<Play>) -> Vec<Play> {
        let key = &self.rules.order.key;
        moves.sort_by_key(|m| {
            let top = m.iter().map(|&c| key[c as usize]).max().unwrap_or(0);
            let pts: i32 = m.iter().map(|&c| points(c)).sum();
            (-(m.len() as i64), -(top as i64), -(pts as i64))
        });
        moves
    }

    // -- equivalent cards ----------------------------------------------------------------

    fn analyse(&mut self, hands: &Hands) -> Analysis {
        let hk = hands_key(hands);
        if let Some(got) = self.analysis.get(&hk) {
            return got.clone();
        }
        let rank = &self.rank;
        // per (suit, key) slot: cards each seat holds there (and the total)
        let mut slots: Vec<(u32, [u32; 5])> = Vec::new();
        for (i, h) in hands.iter().enumerate() {
            for &c in h {
                let r = rank[c as usize];
                match slots.iter_mut().find(|s| s.0 == r) {
                    Some(s) => {
                        s.1[i] += 1;
                        s.1[4] += 1;
                    }
                    None => {
                        let mut x = [0u32; 5];
                        x[i] = 1;
                        x[4] = 1;
                        slots.push((r, x));
                    }
                }
            }
        }
        slots.sort_unstable_by_key(|s| s.0);
        // per slot: cards of its suit below it, in total and per seat
        let mut below: Vec<(u32, u32, [u32; 4])> = Vec::with_capacity(slots.len());
        let mut suit = u32::MAX;
        let mut tot = 0u32;
        let mut own = [0u32; 4];
        for (r, x) in &slots {
            if r >> 7 != suit {
                suit = r >> 7;
                tot = 0;
                own = [0; 4];
            }
            below.push((*r, tot, own));
            tot += x[4];
            for k in 0..4 {
                own[k] += x[k];
            }
        }
        let find = |r: u32| -> usize { slots.binary_search_by_key(&r, |s| s.0).unwrap() };
        let mut key: Vec<u32> = Vec::new();
        let mut reps: Reps = Default::default();
        for (i, h) in hands.iter().enumerate() {
            let mut desc: Vec<u32> = Vec::with_capacity(h.len());
            let mut pairs: Vec<(u8, u8)> = Vec::new();
            let mut first_of: Vec<(u32, u8)> = Vec::new();
            let n = h.len();
            let mut prev: i32 = -1;
            for (j, &c) in h.iter().enumerate() {
                if c as i32 == prev || (j + 1 < n && h[j + 1] == c) {
                    desc.push(c as u32);
                } else {
                    let r = rank[c as usize];
                    let si = find(r);
                    let (_, tb, ob) = below[si];
                    let x = slots[si].1;
                    let lo = tb - ob[i];
                    let d = ((((r >> 7) + 1) * 16 + points(c) as u32) * 128 + lo) * 128 + lo + x[4] - x[i];
                    desc.push(d);
                    match first_of.iter().find(|e| e.0 == d) {
                        None => first_of.push((d, c)),
                        Some(&(_, r0)) => pairs.push((c, r0)),
                    }
                }
                prev = c as i32;
            }
            desc.sort_unstable();
            key.push(desc.len() as u32);
            key.extend_from_slice(&desc);
            reps[i] = pairs;
        }
        let got = Analysis { key, reps: std::rc::Rc::new(reps) };
        self.analysis.insert(hk, got.clone());
        got
    }

    fn canon(&mut self, hands: &Hands, leader: usize) -> Vec<u32> {
        let a = self.analyse(hands);
        let mut k = Vec::with_capacity(a.key.len() + 1);
        k.push(leader as u32);
        k.extend_from_slice(&a.key);
        k
    }

    fn trick_reps(&mut self, hands: &Hands) -> std::rc::Rc<Reps> {
        self.analyse(hands).reps
    }

    // -- the search ------------------------------------------------------------------------

    fn max_multiplier(&mut self, n: usize) -> i64 {
        if let Some(&got) = self.max_mult.get(&n) {
            return got;
        }
        let mut got: i64 = 1;
        for w in 1..=self.rules.decks as usize {
            for length in 1..=n / w {
                let u = Unit { width: w as u8, length: length as u8, top: 0, cards: Vec::new() };
                for cards in w * length..=n {
                    let m = kitty_multiplier(
                        self.rules.kitty_multiplier,
                        std::slice::from_ref(&u),
                        cards,
                        cards,
                        std::slice::from_ref(&u),
                    ) as i64;
                    got = got.max(m);
                }
            }
        }
        self.max_mult.insert(n, got);
        got
    }

    fn gain(&self, att: bool, last: bool, pts: i64, mult: i64) -> i64 {
        if self.last_trick_objective {
            return if att && last { 1 } else { 0 };
        }
        if !att {
            return 0;
        }
        if last {
            pts + self.kitty_points * mult
        } else {
            pts
        }
    }

    /// `Solver._root`: the value of a position within (alpha, beta) (fail-soft).
    pub fn root(&mut self, hands: &Hands, leader: usize, plays: &[Play], alpha: i64, beta: i64) -> Result<i64, Exceeded> {
        if plays.is_empty() {
            return self.trick_start(hands, leader, alpha, beta);
        }
        let mut start = hands.clone();
        for (k, p) in plays.iter().enumerate() {
            let i = (leader + k) % 4;
            start[i].extend_from_slice(p);
            start[i].sort_unstable();
        }
        let reps = self.trick_reps(&start);
        self.node(hands, leader, plays, alpha, beta, &reps, None, None)
    }

    fn trick_start(&mut self, hands: &Hands, leader: usize, mut alpha: i64, mut beta: i64) -> Result<i64, Exceeded> {
        if hands[leader].len() == 1 {
            self.nodes += 1;
            let plays: Vec<Play> = (0..4).map(|k| vec![hands[(leader + k) % 4][0]]).collect();
            let (w, pts, mult) = self.trick(&plays);
            return Ok(self.gain(self.attacker[(leader + w) % 4], true, pts, mult));
        }
        if !self.last_trick_objective {
            let mut left: i64 = hands.iter().flat_map(|h| h.iter()).map(|&c| points(c) as i64).sum();
            if self.kitty_points != 0 {
                left += self.kitty_points * self.max_multiplier(hands[leader].len());
            }
            if left <= alpha || left == 0 {
                return Ok(left);
            }
            if beta <= 0 {
                return Ok(0);
            }
        }
        let tt_key = self.canon(hands, leader);
        let mut first = None;
        if let Some((lo, hi, f)) = self.tt.get(&tt_key) {
            let (lo, hi) = (*lo, *hi);
            if lo >= beta || lo == hi {
                return Ok(lo);
            }
            if hi <= alpha {
                return Ok(hi);
            }
            if lo > alpha {
                alpha = lo;
            }
            if hi < beta {
                beta = hi;
            }
            first = f.clone();
        }
        let reps = self.trick_reps(hands);
        self.node(hands, leader, &[], alpha, beta, &reps, first, Some(tt_key))
    }

    #[allow(clippy::too_many_arguments)]
    fn node(
        &mut self,
        hands: &Hands,
        leader: usize,
        plays: &[Play],
        mut alpha: i64,
        mut beta: i64,
        reps: &std::rc::Rc<Reps>,
        first: Option<Play>,
        tt_key: Option<Vec<u32>>,
    ) -> Result<i64, Exceeded> {
        self.nodes += 1;
        if self.nodes > self.limit {
            return Err(Exceeded);
        }
        if self.nodes & self.trim_mask == 0 {
            self.trim();
        }
        let k = plays.len();
        let seat = (leader + k) % 4;
        let maxi = self.attacker[seat];
        let moves: std::rc::Rc<Vec<Play>> = if k == 0 {
            let moves = self.lead_moves(hands, seat);
            match first {
                Some(f) if moves[0] != f && moves.contains(&f) => {
                    let mut v = Vec::with_capacity(moves.len());
                    v.push(f.clone());
                    v.extend(moves.iter().filter(|m| **m != f).cloned());
                    std::rc::Rc::new(v)
                }
                _ => moves,
            }
        } else {
            let moves = self.follow_moves(&plays[0], &hands[seat], &reps[seat]);
            if moves.len() > 1 {
                let ordered = self.ordered_follows(&moves, leader, plays, seat);
                self.nodes += (ordered.len() >> 4) as u64;
                std::rc::Rc::new(ordered)
            } else {
                moves
            }
        };
        let (a0, b0) = (alpha, beta);
        let mut best = if maxi { -INF } else { INF };
        let mut best_move: Option<&Play> = None;
        let mut np: Vec<Play> = plays.to_vec();
        np.push(Vec::new());
        for m in moves.iter() {
            let mut nh = hands.clone();
            nh[seat] = minus(&hands[seat], m);
            *np.last_mut().unwrap() = m.clone();
            let mut g = 0;
            let mut v = 0;
            let mut wseat = 0;
            let mut search = true;
            if k == 3 {
                let (w, pts, mult) = self.trick(&np);
                wseat = (leader + w) % 4;
                let att = self.attacker[wseat];
                if nh[wseat].is_empty() {
                    v = self.gain(att, true, pts, mult);
                    search = false;
                } else {
                    g = self.gain(att, false, pts, mult);
                }
            }
            if search {
                if best_move.is_none() || beta - alpha <= 1 {
                    v = if k == 3 {
                        g + self.trick_start(&nh, wseat, alpha - g, beta - g)?
                    } else {
                        self.node(&nh, leader, &np, alpha, beta, reps, None, None)?
                    };
                } else if maxi {
                    v = if k == 3 {
                        g + self.trick_start(&nh, wseat, alpha - g, alpha - g + 1)?
                    } else {
                        self.node(&nh, leader, &np, alpha, alpha + 1, reps, None, None)?
                    };
                    if alpha < v && v < beta {
                        v = if k == 3 {
                            g + self.trick_start(&nh, wseat, v - g, beta - g)?
                        } else {
                            self.node(&nh, leader, &np, v, beta, reps, None, None)?
                        };
                    }
                } else {
                    v = if k == 3 {
                        g + self.trick_start(&nh, wseat, beta - g - 1, beta - g)?
                    } else {
                        self.node(&nh, leader, &np, beta - 1, beta, reps, None, None)?
                    };
                    if alpha < v && v < beta {
                        v = if k == 3 {
                            g + self.trick_start(&nh, wseat, alpha - g, v - g)?
                        } else {
                            self.node(&nh, leader, &np, alpha, v, reps, None, None)?
                        };
                    }
                }
            }
            if maxi {
                if v > best {
                    best = v;
                    best_move = Some(m);
                    if v > alpha {
                        alpha = v;
                    }
                }
            } else if v < best {
                best = v;
                best_move = Some(m);
                if v < beta {
                    beta = v;
                }
            }
            if alpha >= beta {
                break;
            }
        }
        if k == 0 {
            let tt_key = match tt_key {
                Some(t) => t,
                None => self.canon(hands, leader),
            };
            let (mut lo, mut hi) = (-INF, INF);
            if let Some(e) = self.tt.get(&tt_key) {
                lo = e.0;
                hi = e.1;
            }
            if best <= a0 {
                hi = hi.min(best);
            } else if best >= b0 {
                lo = lo.max(best);
            } else {
                lo = best;
                hi = best;
            }
            self.tt.insert(tt_key, (lo, hi, best_move.cloned()));
        }
        Ok(best)
    }

    fn ordered_follows(&mut self, moves: &[Play], leader: usize, plays: &[Play], seat: usize) -> Vec<Play> {
        let mine = self.attacker[seat];
        let eff = self.rules.order.eff;
        let key = self.rules.order.key;
        let bi = self.partial_winner(plays);
        let team_now = self.attacker[(leader + bi) % 4] == mine;
        let single = plays[0].len() == 1;
        let (mut lead_e, mut be, mut bk) = (0u8, 0u8, 0i32);
        if single {
            lead_e = eff[plays[0][0] as usize];
            let b = plays[bi][0];
            be = eff[b as usize];
            bk = key[b as usize];
        }
        let mut scored: Vec<(u8, i64, i64, &Play)> = Vec::with_capacity(moves.len());
        let mut np: Vec<Play> = plays.to_vec();
        np.push(Vec::new());
        for m in moves {
            let ours;
            let pts: i64;
            let strength: i64;
            if single {
                let c = m[0];
                let e = eff[c as usize];
                let takes = (e == be && key[c as usize] > bk && (e == lead_e || e == TRUMP)) || (e == TRUMP && be != TRUMP);
                ours = if takes { true } else { team_now };
                pts = points(c) as i64;
                strength = key[c as usize] as i64;
            } else {
                let e = eff[m[0] as usize];
                if m.iter().all(|&c| eff[c as usize] == e) {
                    *np.last_mut().unwrap() = m.clone();
                    let w = self.partial_winner(&np);
                    ours = self.attacker[(leader + w) % 4] == mine;
                } else {
                    ours = team_now;
                }
                pts = m.iter().map(|&c| points(c) as i64).sum();
                strength = m.iter().map(|&c| key[c as usize] as i64).sum();
            }
            if ours {
                scored.push((0, -pts, strength, m));
            } else {
                scored.push((1, pts, strength, m));
            }
        }
        scored.sort();
        scored.into_iter().map(|t| t.3.clone()).collect()
    }
}

/// One move per class of equivalent moves (the first met), `pairs`: (card, representative).
pub fn distinct(moves: Vec<Play>, pairs: &[(u8, u8)]) -> Vec<Play> {
    if pairs.is_empty() || moves.len() < 2 {
        return moves;
    }
    let mut seen: Vec<Vec<u8>> = Vec::with_capacity(moves.len());
    let mut out = Vec::with_capacity(moves.len());
    for m in moves {
        let mut c: Vec<u8> = m
            .iter()
            .map(|&x| pairs.iter().find(|p| p.0 == x).map_or(x, |p| p.1))
            .collect();
        c.sort_unstable();
        if !seen.contains(&c) {
            seen.push(c);
            out.push(m);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::order::Order;
    use crate::trick::{KM_BY_UNIT, PENALTY_NONE};
    use crate::units::{COMPARE_LARGEST_UNIT, FORCED_SMALLEST, POLICY_PAIRS};

    fn rules() -> Rules {
        Rules {
            order: Order::new(2, 1, false, 15),
            decks: 2,
            throw_check: true,
            throw_forced: FORCED_SMALLEST,
            throw_penalty: PENALTY_NONE,
            throw_compare: COMPARE_LARGEST_UNIT,
            follow_policy: POLICY_PAIRS,
            printed: false,
            kitty_multiplier: KM_BY_UNIT,
        }
    }

    #[test]
    fn last_trick_with_kitty() {
        // N dealer (NS defend); W wins the last trick with a ♠A pair: 5 + 25 × 4
        let mut s = Solver::new(rules(), [false, true, false, true], 25, false);
        let hands: Hands = [vec![1, 2], vec![12, 12], vec![3, 4], vec![5, 6]];
        assert_eq!(s.root(&hands, 1, &[], -INF, INF).unwrap(), 5 + 100);
    }

    #[test]
    fn dealer_keeps_the_trick() {
        let mut s = Solver::new(rules(), [false, true, false, true], 0, false);
        let hands: Hands = [vec![12], vec![11], vec![8], vec![3]];
        assert_eq!(s.root(&hands, 0, &[], -INF, INF).unwrap(), 0);
        // W leads: N's ♠A wins 25 points for the dealers' side
        assert_eq!(s.root(&hands, 1, &[], -INF, INF).unwrap(), 0);
    }

    #[test]
    fn budget_runs_out() {
        let mut s = Solver::new(rules(), [false, true, false, true], 0, false);
        let hands: Hands = [vec![0, 1, 8, 11], vec![2, 3, 9, 12], vec![4, 5, 10, 24], vec![6, 7, 13, 14]];
        s.limit = 3;
        assert!(s.root(&hands, 0, &[], -INF, INF).is_err());
        s.limit = u64::MAX;
        assert!(s.root(&hands, 0, &[], -INF, INF).is_ok());
    }
}
