//! The exact endgame search: a port of `analyzer/search.py`'s tree (alpha-beta
//! over the attackers' points, principal variation search, a transposition table
//! keyed on trick-start positions up to interchangeable cards, equivalent moves
//! merged, failed throws not searched). The port is move for move: the same
//! moves in the same order, the same table policy and the same node count, so a
//! node budget cuts the native search where it cuts the Python one.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::cell::RefCell;
use std::rc::Rc;

use crate::order::{points, TRUMP};
use crate::trick::{kitty_multiplier, Rules};
use crate::units::{Unit, POLICY_SHENGJI_IO};

pub const INF: i64 = 1_000_000_000;

/// FxHash (rustc's): a fast hasher for the caches' small keys.
#[derive(Default, Clone, Copy)]
pub struct Fx(u64);

impl Hasher for Fx {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let v = u64::from_le_bytes(chunk.try_into().unwrap());
            self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut v = 0u64;
            for (i, b) in rest.iter().enumerate() {
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

/// Cards held or played, at most `MAX` (a hand of four decks among four players), inline:
/// no allocation per node. The slots past `n` are always zero.
pub const MAX: usize = 55;

/// cards a word of [`Cards::packed`]: three bits of count each (at most four decks)
const PER_WORD: usize = 21;

#[derive(Clone, Copy)]
pub struct Cards {
    n: u8,
    c: [u8; MAX],
    /// the same cards as counts, three bits a card (card `c` at word `c / 21`, bit
    /// `3 * (c % 21)`): equality and the hash read these three words, not the card list
    /// (the cards are always sorted, so equal lists are equal counts and back)
    w: [u64; 3],
}

#[inline]
fn bit(c: u8) -> (usize, u64) {
    let c = c as usize;
    (c / PER_WORD, 1u64 << (3 * (c % PER_WORD)))
}

impl PartialEq for Cards {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        words_eq(&self.w, &other.w)
    }
}

impl Eq for Cards {}

impl std::hash::Hash for Cards {
    #[inline]
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.w[0]);
        state.write_u64(self.w[1]);
        state.write_u64(self.w[2]);
    }
}

impl Cards {
    pub const EMPTY: Cards = Cards { n: 0, c: [0; MAX], w: [0; 3] };

    /// `s` sorted ascending (every play and holding of the search is)
    pub fn from_slice(s: &[u8]) -> Cards {
        debug_assert!(s.windows(2).all(|p| p[0] <= p[1]), "cards not sorted: {s:?}");
        let mut out = Cards::EMPTY;
        out.n = s.len() as u8;
        out.c[..s.len()].copy_from_slice(s);
        for &c in s {
            let (i, b) = bit(c);
            out.w[i] += b;
        }
        out
    }
    /// the cards as counts (a cache key: equal exactly when the cards are)
    #[inline]
    pub fn packed(&self) -> Packed {
        Words(self.w)
    }
    #[inline]
    pub fn as_slice(&self) -> &[u8] {
        &self.c[..self.n as usize]
    }
    #[inline]
    pub fn len(&self) -> usize {
        self.n as usize
    }
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }
    /// this sorted holding without the cards of `play` (sorted stays sorted)
    fn minus(&self, play: &Cards) -> Cards {
        let mut out = *self;
        out.remove(play);
        out
    }
    /// take the cards of `play` out of this sorted holding, in place (sorted stays sorted)
    #[inline]
    fn remove(&mut self, play: &Cards) {
        for &c in play.as_slice() {
            let n = self.n as usize;
            if let Some(i) = self.c[..n].iter().position(|&d| d == c) {
                self.c.copy_within(i + 1..n, i);
                self.c[n - 1] = 0;
                self.n -= 1;
                let (j, b) = bit(c);
                self.w[j] -= b;
            }
        }
    }
    /// the cards as (card, copies), ascending, into `out`; how many
    #[inline]
    pub fn counts(&self, out: &mut [(u8, u8); MAX]) -> usize {
        let mut n = 0usize;
        for &c in self.as_slice() {
            if n > 0 && out[n - 1].0 == c {
                out[n - 1].1 += 1;
            } else {
                out[n] = (c, 1);
                n += 1;
            }
        }
        n
    }
    fn plus_sorted(&self, play: &Cards) -> Cards {
        let mut v = self.as_slice().to_vec();
        v.extend_from_slice(play.as_slice());
        v.sort_unstable();
        Cards::from_slice(&v)
    }
}

impl PartialOrd for Cards {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Cards {
    /// as Python compares tuples: element by element, a prefix first
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.as_slice().cmp(other.as_slice())
    }
}

impl std::fmt::Debug for Cards {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.as_slice().fmt(f)
    }
}

pub type Play = Cards;
pub type Hands = [Cards; 4];
/// cards as a cache key ([`Cards::packed`])
pub type Packed = Words<3>;
/// a trick's plays (or the four holdings) as a cache key: a play is never empty, so
/// the plays not made yet are the zero words
type PackedTrick = Words<12>;

/// Words compared and hashed in line (an array's `==` calls `memcmp` past a few words).
#[derive(Clone, Copy, Debug)]
pub struct Words<const N: usize>(pub [u64; N]);

#[inline]
fn words_eq<const N: usize>(a: &[u64; N], b: &[u64; N]) -> bool {
    a.iter().zip(b).fold(0, |acc, (x, y)| acc | (x ^ y)) == 0
}

impl<const N: usize> PartialEq for Words<N> {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        words_eq(&self.0, &other.0)
    }
}

impl<const N: usize> Eq for Words<N> {}

impl<const N: usize> std::hash::Hash for Words<N> {
    #[inline]
    fn hash<H: Hasher>(&self, state: &mut H) {
        for &x in &self.0 {
            state.write_u64(x);
        }
    }
}

/// four card counts side by side (a trick's plays, or the four holdings)
#[inline]
fn words4(p: [&[u64; 3]; 4]) -> PackedTrick {
    let mut out = [0u64; 12];
    for (i, w) in p.iter().enumerate() {
        out[3 * i..3 * i + 3].copy_from_slice(&w[..]);
    }
    Words(out)
}

/// the cards that count (5s, 10s and Ks) and their points
const POINT_CARDS: [(u8, i64); 12] =
    [(3, 5), (8, 10), (11, 10), (16, 5), (21, 10), (24, 10), (29, 5), (34, 10), (37, 10), (42, 5), (47, 10), (50, 10)];

/// the points in `hands`, read off the counts: the four holdings' counts add without a
/// carry (a card has at most four copies, three bits hold seven)
fn points_held(hands: &Hands) -> i64 {
    let mut w = [0u64; 3];
    for h in hands {
        for (x, y) in w.iter_mut().zip(h.w) {
            *x += y;
        }
    }
    POINT_CARDS
        .iter()
        .map(|&(c, p)| {
            let (i, b) = bit(c);
            ((w[i] / b) & 7) as i64 * p
        })
        .sum()
}

/// low bit of each three-bit count of [`Cards::w`]
const LOW_BITS: u64 = 0x1249_2492_4924_9249;

/// how many copies the counts `w` hold beyond their distinct cards (the cards held
/// twice or more are at most this many, three times or more at most half, four times a
/// third)
fn extra_copies(w: &[u64; 3]) -> usize {
    w.iter()
        .map(|&x| {
            // a card's count in three bits (at most 4): the card is there when any bit is
            let distinct = ((x | (x >> 1) | (x >> 2)) & LOW_BITS).count_ones();
            let total = (x & LOW_BITS).count_ones() + 2 * ((x >> 1) & LOW_BITS).count_ones() + 4 * ((x >> 2) & LOW_BITS).count_ones();
            (total - distinct) as usize
        })
        .sum()
}

fn packed_hands(hands: &Hands) -> PackedTrick {
    words4([&hands[0].w, &hands[1].w, &hands[2].w, &hands[3].w])
}

/// The plays of the trick in progress (at most four, all of one size).
#[derive(Clone, Copy)]
struct Trick {
    n: u8,
    p: [Cards; 4],
}

impl PartialEq for Trick {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        self.plays() == other.plays()
    }
}

impl Eq for Trick {}

impl std::hash::Hash for Trick {
    #[inline]
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u8(self.n);
        for p in self.plays() {
            p.hash(state);
        }
    }
}

impl Trick {
    fn new(plays: &[Cards]) -> Trick {
        let mut t = Trick { n: plays.len() as u8, p: [Cards::EMPTY; 4] };
        t.p[..plays.len()].copy_from_slice(plays);
        t
    }
    #[inline]
    fn plays(&self) -> &[Cards] {
        &self.p[..self.n as usize]
    }
    /// the plays as card slices, on the stack (the first `n` are the plays)
    #[inline]
    fn refs(&self) -> [&[u8]; 4] {
        [self.p[0].as_slice(), self.p[1].as_slice(), self.p[2].as_slice(), self.p[3].as_slice()]
    }
    #[inline]
    fn key(&self) -> PackedTrick {
        words4([&self.p[0].w, &self.p[1].w, &self.p[2].w, &self.p[3].w])
    }
    /// play `m` (the next seat's play), in place; [`Trick::pop`] takes it back
    #[inline]
    fn push(&mut self, m: &Cards) {
        self.p[self.n as usize] = *m;
        self.n += 1;
    }
    /// take the last play back (the slots past `n` stay empty: the key reads all four)
    #[inline]
    fn pop(&mut self) {
        self.n -= 1;
        self.p[self.n as usize] = Cards::EMPTY;
    }
    #[inline]
    fn with(&self, m: &Cards) -> Trick {
        let mut t = *self;
        t.p[t.n as usize] = *m;
        t.n += 1;
        t
    }
}

/// the node budget ran out
#[derive(Debug)]
pub struct Exceeded;

/// A trick-start position described for the table and the equivalent moves.
struct Analysis {
    /// the holdings described up to interchangeable cards (the table key without the leader)
    desc: Rc<[u32]>,
    /// per seat: each card's representative (itself when it has none)
    rep: [[u8; 54]; 4],
    /// per seat: whether any card has another representative, and an id of the (card, rep) pairs
    reps_id: [u32; 4],
    /// per seat: its leads from this position, once asked (`Solver._leads`, kept with the
    /// position's analysis: one table lookup instead of two)
    leads: RefCell<[Option<Moves>; 4]>,
}

/// a cached list of moves: one allocation (the list and its count), shared by the caches
/// and the nodes walking it (a trim may drop the cache's copy under a node)
type Moves = Rc<[Play]>;

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
    /// the kitty's bound from the units the hands can still form ([`Solver::max_multiplier_held`]);
    /// the Python search bounds so too: off only to measure the tree without it
    pub held_units: bool,
    /// the leader's sure rounds bound the value at a trick start ([`Solver::sure_rounds`])
    pub sure_rounds: bool,
    tt: FxMap<(u8, Rc<[u32]>), (i64, i64, Option<Play>)>,
    analysis: FxMap<PackedTrick, Rc<Analysis>>,
    reps_ids: FxMap<Vec<(u8, u8)>, u32>,
    /// how many seats' leads the analyses hold (counted against `cache_limit` as the
    /// Python search counts its `_leads` table)
    leads_n: usize,
    follows: FxMap<(Packed, Packed), Moves>,
    follow_distinct: FxMap<(Packed, Packed, u32), Moves>,
    ordered: FxMap<(PackedTrick, Packed, u32, u8), Moves>,
    winner: FxMap<PackedTrick, (usize, i64)>,
    partial: FxMap<PackedTrick, usize>,
    stands: FxMap<(Packed, PackedTrick), bool>,
    max_mult: FxMap<(usize, [usize; 5]), i64>,
    /// [`Solver::max_multiplier`] and the singles-only bound by the cards a seat (0: not
    /// asked yet): asked at every trick start with a kitty, so an array, not the map
    max_mult_by_n: [[i64; MAX + 1]; 2],
    rank: [u32; 54],
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
            held_units: true,
            sure_rounds: true,
            tt: FxMap::default(),
            analysis: FxMap::default(),
            reps_ids: FxMap::default(),
            leads_n: 0,
            follows: FxMap::default(),
            follow_distinct: FxMap::default(),
            ordered: FxMap::default(),
            winner: FxMap::default(),
            partial: FxMap::default(),
            stands: FxMap::default(),
            max_mult: FxMap::default(),
            max_mult_by_n: [[0; MAX + 1]; 2],
            rank,
        }
    }

    /// Hands from card vectors (sorted here); None when a hand is longer than `MAX`.
    pub fn hands(hands: &[Vec<u8>]) -> Option<Hands> {
        let mut out = [Cards::EMPTY; 4];
        for (i, h) in hands.iter().enumerate().take(4) {
            if h.len() > MAX {
                return None;
            }
            let mut v = h.clone();
            v.sort_unstable();
            out[i] = Cards::from_slice(&v);
        }
        Some(out)
    }

    /// empty the table and the caches when they grow past their limits (`Solver._trim`)
    pub fn trim(&mut self) {
        if self.analysis.len() + self.leads_n > self.cache_limit {
            self.clear_caches();
        }
        if self.tt.len() > self.table_limit {
            self.tt.clear();
        }
    }

    pub fn clear_caches(&mut self) {
        self.analysis.clear();
        self.leads_n = 0;
        self.follows.clear();
        self.follow_distinct.clear();
        self.ordered.clear();
        self.winner.clear();
        self.partial.clear();
        self.stands.clear();
    }

    pub fn table_len(&self) -> usize {
        self.tt.len()
    }

    /// the best lead the table holds for a trick-start position
    pub fn table_move(&mut self, hands: &Hands, leader: usize) -> Option<Vec<u8>> {
        let key = self.canon(hands, leader);
        self.tt.get(&key).and_then(|e| e.2.map(|p| p.as_slice().to_vec()))
    }

    // -- the rules, cached --------------------------------------------------------------

    /// the trick's winning play (its index) and its points
    fn trick(&mut self, t: &Trick) -> (usize, i64) {
        let refs = t.refs();
        let refs = &refs[..t.n as usize];
        if refs[0].len() == 1 {
            // single cards: cheaper answered than looked up (no table)
            let w = self.rules.single_winner(refs).0;
            let pts: i64 = refs.iter().map(|p| points(p[0]) as i64).sum();
            return (w, pts);
        }
        if let Some(&got) = self.winner.get(&t.key()) {
            return got;
        }
        let w = self.rules.winner(refs);
        let pts: i64 = refs.iter().flat_map(|p| p.iter()).map(|&c| points(c) as i64).sum();
        let got = (w, pts);
        self.winner.insert(t.key(), got);
        got
    }

    /// the kitty's multiplier were the trick the last (asked only of a last trick: no table)
    fn last_multiplier(&self, t: &Trick) -> i64 {
        let refs = t.refs();
        self.rules.trick_outcome(&refs[..t.n as usize]).1 as i64
    }

    fn partial_winner(&mut self, t: &Trick) -> usize {
        if t.p[0].len() == 1 {
            // single cards: cheaper answered than looked up (no table)
            let refs = t.refs();
            return self.rules.single_winner(&refs[..t.n as usize]).0;
        }
        if let Some(&got) = self.partial.get(&t.key()) {
            return got;
        }
        let refs = t.refs();
        let got = self.rules.winner(&refs[..t.n as usize]);
        self.partial.insert(t.key(), got);
        got
    }

    fn follows(&mut self, lead: &Play, hand: &Cards) -> Moves {
        let key = (lead.packed(), hand.packed());
        if let Some(got) = self.follows.get(&key) {
            return got.clone();
        }
        let mut all: Vec<Play> = Vec::with_capacity(16);
        let mut held = [(0u8, 0u8); MAX];
        let n = hand.counts(&mut held);
        self.rules.each_legal_follow(lead.as_slice(), &held[..n], |p| all.push(Cards::from_slice(p)));
        // `Rules::legal_follows`' order (the follows are distinct: unstable sorts as stable)
        all.sort_unstable();
        let got: Moves = Rc::from(all);
        self.follows.insert(key, got.clone());
        got
    }

    fn follow_moves(&mut self, lead: &Play, hand: &Cards, a: &Analysis, seat: usize) -> Moves {
        let key = (lead.packed(), hand.packed(), a.reps_id[seat]);
        if let Some(got) = self.follow_distinct.get(&key) {
            return got.clone();
        }
        let all = self.follows(lead, hand);
        // without equivalent cards the list is the follows' own (shared, not copied)
        let got = if a.reps_id[seat] == 0 || all.len() < 2 {
            all
        } else {
            Rc::from(distinct(all.to_vec(), a.reps_id[seat], &a.rep[seat]))
        };
        self.follow_distinct.insert(key, got.clone());
        got
    }

    /// the leads of `seat` from `hands`; `a`: the analysis of `hands`
    fn lead_moves(&mut self, hands: &Hands, seat: usize, a: &Rc<Analysis>) -> Moves {
        if let Some(got) = &a.leads.borrow()[seat] {
            return got.clone();
        }
        let hand = hands[seat].as_slice();
        // `Rules::unit_leads` without a vector a lead: sorted as card lists, repeats dropped
        let mut moves: Vec<Play> = Vec::with_capacity(32);
        let mut held = [(0u8, 0u8); MAX];
        let n = hands[seat].counts(&mut held);
        self.rules.each_unit_lead(&held[..n], |p| moves.push(Cards::from_slice(p)));
        moves.sort_unstable();
        moves.dedup();
        let others_idx = [(seat + 1) % 4, (seat + 2) % 4, (seat + 3) % 4];
        let other_hands = others_idx.map(|i| hands[i].as_slice());
        let eff = self.rules.order.eff;
        let mut cands: Vec<(Play, u8)> = Vec::new();
        self.rules.each_throw_candidate(hand, &other_hands, |c, suit| cands.push((Cards::from_slice(c), suit)));
        for (play, suit) in cands {
            let mut others = [Cards::EMPTY; 3];
            for (j, &i) in others_idx.iter().enumerate() {
                // the holding's cards of the throw's suit (sorted stays sorted), on the stack
                let mut v = [0u8; MAX];
                let mut n = 0;
                for &c in hands[i].as_slice() {
                    if eff[c as usize] == suit {
                        v[n] = c;
                        n += 1;
                    }
                }
                others[j] = Cards::from_slice(&v[..n]);
            }
            let skey = (play.packed(), words4([&others[0].w, &others[1].w, &others[2].w, &[0; 3]]));
            let ok = match self.stands.get(&skey) {
                Some(&ok) => ok,
                None => {
                    // each holding's (card, copies) on the stack (its cards are sorted)
                    let mut counts = [[(0u8, 0u8); MAX]; 3];
                    let mut lens = [0usize; 3];
                    for (j, o) in others.iter().enumerate() {
                        lens[j] = o.counts(&mut counts[j]);
                    }
                    let refs = [&counts[0][..lens[0]], &counts[1][..lens[1]], &counts[2][..lens[2]]];
                    let ok = self.rules.throw_stands(play.as_slice(), &refs);
                    self.stands.insert(skey, ok);
                    ok
                }
            };
            if ok {
                moves.push(play);
            }
        }
        let moves = self.lead_order(distinct(moves, a.reps_id[seat], &a.rep[seat]));
        let got: Moves = Rc::from(moves);
        a.leads.borrow_mut()[seat] = Some(got.clone());
        self.leads_n += 1;
        got
    }

    fn lead_order(&self, mut moves: Vec<Play>) -> Vec<Play> {
        let key = &self.rules.order.key;
        // stable, as Python's sort: leads of one key keep their order
        moves.sort_by_key(|m| {
            let top = m.as_slice().iter().map(|&c| key[c as usize]).max().unwrap_or(0);
            let pts: i32 = m.as_slice().iter().map(|&c| points(c)).sum();
            (-(m.len() as i64), -(top as i64), -(pts as i64))
        });
        moves
    }

    // -- equivalent cards ----------------------------------------------------------------

    fn analyse(&mut self, hands: &Hands) -> Rc<Analysis> {
        if let Some(got) = self.analysis.get(&packed_hands(hands)) {
            return got.clone();
        }
        let rank = &self.rank;
        // per (suit, key) slot: cards each seat holds there (and the total); at most one
        // slot a card, so fixed arrays on the stack (no allocation per position)
        let mut slots = [(0u32, [0u32; 5]); 54];
        let mut ns = 0usize;
        // each rank's slot (u8::MAX: none yet), by rank (a suit's keys are below 128): no search
        let mut at = [u8::MAX; 5 * 128];
        for (i, h) in hands.iter().enumerate() {
            for &c in h.as_slice() {
                let r = rank[c as usize];
                match at[r as usize] {
                    u8::MAX => {
                        let mut x = [0u32; 5];
                        x[i] = 1;
                        x[4] = 1;
                        slots[ns] = (r, x);
                        at[r as usize] = ns as u8;
                        ns += 1;
                    }
                    j => {
                        let s = &mut slots[j as usize];
                        s.1[i] += 1;
                        s.1[4] += 1;
                    }
                }
            }
        }
        let slots = &mut slots[..ns];
        slots.sort_unstable_by_key(|s| s.0);
        for (j, s) in slots.iter().enumerate() {
            at[s.0 as usize] = j as u8;
        }
        // per slot: cards of its suit below it, in total and per seat
        let mut below = [(0u32, [0u32; 4]); 54];
        let mut suit = u32::MAX;
        let mut tot = 0u32;
        let mut own = [0u32; 4];
        for (j, (r, x)) in slots.iter().enumerate() {
            if r >> 7 != suit {
                suit = r >> 7;
                tot = 0;
                own = [0; 4];
            }
            below[j] = (tot, own);
            tot += x[4];
            for k in 0..4 {
                own[k] += x[k];
            }
        }
        // on the stack, then one allocation for the table's key
        let mut desc_all = [0u32; 4 * MAX + 4];
        let mut n_all = 0usize;
        let mut rep = [[0u8; 54]; 4];
        let mut reps_id = [0u32; 4];
        for (i, hc) in hands.iter().enumerate() {
            let h = hc.as_slice();
            for (c, r) in rep[i].iter_mut().enumerate() {
                *r = c as u8;
            }
            let mut desc = [0u32; MAX];
            let mut nd = 0usize;
            let mut pairs = [(0u8, 0u8); MAX];
            let mut np = 0usize;
            let mut first_of = [(0u32, 0u8); MAX];
            let mut nf = 0usize;
            let n = h.len();
            let mut prev: i32 = -1;
            for (j, &c) in h.iter().enumerate() {
                if c as i32 == prev || (j + 1 < n && h[j + 1] == c) {
                    desc[nd] = c as u32;
                    nd += 1;
                } else {
                    let r = rank[c as usize];
                    let si = at[r as usize] as usize;
                    let (tb, ob) = below[si];
                    let x = slots[si].1;
                    let lo = tb - ob[i];
                    let d = ((((r >> 7) + 1) * 16 + points(c) as u32) * 128 + lo) * 128 + lo + x[4] - x[i];
                    desc[nd] = d;
                    nd += 1;
                    match first_of[..nf].iter().find(|e| e.0 == d) {
                        None => {
                            first_of[nf] = (d, c);
                            nf += 1;
                        }
                        Some(&(_, r0)) => {
                            pairs[np] = (c, r0);
                            np += 1;
                            rep[i][c as usize] = r0;
                        }
                    }
                }
                prev = c as i32;
            }
            let desc = &mut desc[..nd];
            desc.sort_unstable();
            desc_all[n_all] = nd as u32;
            desc_all[n_all + 1..n_all + 1 + nd].copy_from_slice(desc);
            n_all += 1 + nd;
            reps_id[i] = if np == 0 {
                0
            } else {
                let pairs = &pairs[..np];
                match self.reps_ids.get(pairs) {
                    Some(&id) => id,
                    None => {
                        let next = self.reps_ids.len() as u32 + 1;
                        self.reps_ids.insert(pairs.to_vec(), next);
                        next
                    }
                }
            };
        }
        let got = Rc::new(Analysis { desc: Rc::from(&desc_all[..n_all]), rep, reps_id, leads: RefCell::new([None, None, None, None]) });
        self.analysis.insert(packed_hands(hands), got.clone());
        got
    }

    fn canon(&mut self, hands: &Hands, leader: usize) -> (u8, Rc<[u32]>) {
        let a = self.analyse(hands);
        (leader as u8, a.desc.clone())
    }

    // -- the search ------------------------------------------------------------------------

    fn max_multiplier(&mut self, n: usize) -> i64 {
        if self.max_mult_by_n[0][n] == 0 {
            self.max_mult_by_n[0][n] = self.max_multiplier_of(n, [n, n, n / 2, n / 3, n / 4]);
        }
        self.max_mult_by_n[0][n]
    }

    /// the largest multiplier of single cards played `n` at a time (a throw of singles too)
    fn max_multiplier_singles(&mut self, n: usize) -> i64 {
        if self.max_mult_by_n[1][n] == 0 {
            self.max_mult_by_n[1][n] = self.max_multiplier_of(n, [n, n, 0, 0, 0]);
        }
        self.max_mult_by_n[1][n]
    }

    /// The most the kitty can be worth from `hands` (`n` cards a seat): as
    /// [`Solver::max_multiplier`], but a unit of width `w` ≥ 2 and length `l` needs `l`
    /// cards held `w` times in one seat's hand (cards only leave the hands; a play's units,
    /// the lead's, the winner's or the last play's, are one seat's cards). A hand with `e`
    /// copies beyond its distinct cards holds at most `e` cards twice, `e / 2` three times
    /// and `e / 3` four times (exactly `e` pairs with two decks), which bounds the lengths
    /// (`Tables._max_multiplier_held` alike, node for node).
    fn max_multiplier_held(&mut self, hands: &Hands, n: usize) -> i64 {
        let e = hands.iter().map(|h| extra_copies(&h.w)).max().unwrap_or(0);
        self.max_multiplier_of(n, [n, n, e.min(n / 2), (e / 2).min(n / 3), (e / 3).min(n / 4)])
    }

    /// the largest multiplier of a unit of width `w` and length at most `longest[w]`,
    /// played with at most `n` cards (cached)
    fn max_multiplier_of(&mut self, n: usize, longest: [usize; 5]) -> i64 {
        let key = (n, longest);
        if let Some(&got) = self.max_mult.get(&key) {
            return got;
        }
        let mut got: i64 = 1;
        // a play of more units than one (a throw) too: the botzone multiplier reads the
        // largest of several units otherwise than one alone (2 × its size for a tractor, 4 for
        // a pair, where one unit alone gives the play's cards); the others read the largest unit
        let single = Unit { width: 1, length: 1, top: 0, cards: Vec::new() };
        for (w, &most) in longest.iter().enumerate().take(self.rules.decks as usize + 1).skip(1) {
            for length in 1..=(n / w).min(most) {
                let u = Unit { width: w as u8, length: length as u8, top: 0, cards: Vec::new() };
                let throw = [u.clone(), single.clone()];
                for cards in w * length..=n {
                    let policy = self.rules.kitty_multiplier;
                    let mut m = kitty_multiplier(policy, std::slice::from_ref(&u), cards, cards, std::slice::from_ref(&u));
                    if cards > w * length {
                        m = m.max(kitty_multiplier(policy, &throw, cards, cards, &throw));
                    }
                    got = got.max(m as i64);
                }
            }
        }
        self.max_mult.insert(key, got);
        got
    }

    /// The points the leader's side surely takes from here by leading single cards that win
    /// whatever the others play: in a plain suit, its cards no other card of the suit beats,
    /// as many rounds as every other seat holding a trump has cards of the suit (so none
    /// can ruff; a seat without trumps cannot win them); then its trumps no other trump
    /// beats. Each round counts the leader's card and the fewest points the seats that must
    /// follow can give (a seat with trumps follows the plain rounds; in the trump rounds, a
    /// seat follows with trumps while it has them). Also whether those rounds are every
    /// trick left (the leader's side then takes every point and the last trick).
    fn sure_rounds(&self, hands: &Hands, leader: usize) -> (i64, bool) {
        let order = &self.rules.order;
        // per seat and effective suit: cards, the strongest's power, and the cards by points (0, 5, 10)
        let mut n = [[0u32; 5]; 4];
        let mut top = [[i32::MIN; 5]; 4];
        let mut by_pts = [[[0u32; 3]; 5]; 4];
        for (i, h) in hands.iter().enumerate() {
            for &c in h.as_slice() {
                let e = order.eff[c as usize] as usize;
                n[i][e] += 1;
                let p = order.power[e][c as usize];
                if p > top[i][e] {
                    top[i][e] = p;
                }
                by_pts[i][e][(points(c) / 5) as usize] += 1;
            }
        }
        // the fewest points `r` cards of a seat's suit can give
        let fewest = |b: &[u32; 3], r: u32| -> i64 {
            let zero = b[0].min(r);
            let five = b[1].min(r - zero);
            let ten = b[2].min(r - zero - five);
            5 * five as i64 + 10 * ten as i64
        };
        let others = [(leader + 1) % 4, (leader + 2) % 4, (leader + 3) % 4];
        let mut sure = 0i64;
        let mut rounds = 0u32;
        for e in 0..5usize {
            if n[leader][e] == 0 {
                continue;
            }
            let best_other = others.iter().map(|&o| top[o][e]).max().unwrap_or(i32::MIN);
            // the leader's cards of the suit no other card beats (the first played wins a
            // tie): their points
            let mut mine = [0i64; MAX];
            let mut m = 0usize;
            for &c in hands[leader].as_slice() {
                if order.eff[c as usize] as usize == e && order.power[e][c as usize] >= best_other {
                    mine[m] = points(c) as i64;
                    m += 1;
                }
            }
            let mut r = m as u32;
            if e != TRUMP as usize {
                for &o in &others {
                    if n[o][TRUMP as usize] > 0 {
                        r = r.min(n[o][e]);
                    }
                }
            }
            // the rounds lead the sure cards with the most points first
            mine[..m].sort_unstable_by(|x, y| y.cmp(x));
            let own: i64 = mine[..r as usize].iter().sum();
            if r == 0 {
                continue;
            }
            for &o in &others {
                if e == TRUMP as usize {
                    sure += fewest(&by_pts[o][e], r.min(n[o][e]));
                } else if n[o][TRUMP as usize] > 0 {
                    sure += fewest(&by_pts[o][e], r);
                }
            }
            sure += own;
            rounds += r;
        }
        (sure, rounds as usize == hands[leader].len())
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

    /// `Solver._root`: the value of a position within (alpha, beta) (fail-soft);
    /// `plays`: the current trick's plays (their cards already out of `hands`).
    pub fn root(&mut self, hands: &Hands, leader: usize, plays: &[Vec<u8>], alpha: i64, beta: i64) -> Result<i64, Exceeded> {
        if plays.is_empty() {
            return self.trick_start(&mut hands.clone(), leader, alpha, beta);
        }
        let ps: Vec<Cards> = plays
            .iter()
            .map(|p| {
                let mut v = p.clone();
                v.sort_unstable();
                Cards::from_slice(&v)
            })
            .collect();
        let mut start = *hands;
        for (k, p) in ps.iter().enumerate() {
            let i = (leader + k) % 4;
            start[i] = start[i].plus_sorted(p);
        }
        let a = self.analyse(&start);
        let mut hands = *hands;
        self.node(&mut hands, leader, &mut Trick::new(&ps), alpha, beta, &a, None, None)
    }

    /// `hands`: changed during the search (each child's play made and taken back in place),
    /// as it was when the search returns `Ok`
    fn trick_start(&mut self, hands: &mut Hands, leader: usize, mut alpha: i64, mut beta: i64) -> Result<i64, Exceeded> {
        if hands[leader].len() == 1 {
            self.nodes += 1;
            let mut t = Trick { n: 4, p: [Cards::EMPTY; 4] };
            for k in 0..4 {
                t.p[k] = Cards::from_slice(&hands[(leader + k) % 4].as_slice()[..1]);
            }
            let (w, pts) = self.trick(&t);
            let mult = self.last_multiplier(&t);
            return Ok(self.gain(self.attacker[(leader + w) % 4], true, pts, mult));
        }
        let (mut pts, mut left) = (0, 0);
        if !self.last_trick_objective {
            pts = points_held(hands);
            left = pts;
            if self.kitty_points != 0 {
                // the most the kitty can be worth with plays of this many cards; and, when that
                // would decide, with the units the hands can still form (`Tree._trick_start` alike)
                let n = hands[leader].len();
                left += self.kitty_points * self.max_multiplier(n);
                if self.held_units && left > alpha {
                    let singles = self.max_multiplier_singles(n);
                    if pts + self.kitty_points * singles <= alpha {
                        left = pts + self.kitty_points * self.max_multiplier_held(hands, n);
                    }
                }
            }
            if left <= alpha || left == 0 {
                return Ok(left);
            }
            if beta <= 0 {
                return Ok(0);
            }
        }
        let a = self.analyse(hands);
        let tt_key = (leader as u8, a.desc.clone());
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
            first = *f;
        }
        // (the attackers leading take at most every point held: asked only when that could decide)
        if self.sure_rounds
            && !self.last_trick_objective
            && (beta <= pts || !self.attacker[leader])
            && !self.rules.printed
            && self.rules.follow_policy != POLICY_SHENGJI_IO
            && !self.rules.order.sjio
        {
            let (sure, all) = self.sure_rounds(hands, leader);
            if self.attacker[leader] {
                let lo = if all { pts } else { sure };
                if lo >= beta {
                    return Ok(lo);
                }
            } else {
                let hi = if all { 0 } else { left - sure };
                if hi <= alpha {
                    return Ok(hi);
                }
            }
        }
        self.node(hands, leader, &mut Trick::new(&[]), alpha, beta, &a, first, Some(tt_key))
    }

    #[allow(clippy::too_many_arguments)]
    /// `hands` and `plays`: changed during the search (each child's play made and taken back
    /// in place), as they were when the search returns `Ok`
    fn node(
        &mut self,
        hands: &mut Hands,
        leader: usize,
        plays: &mut Trick,
        mut alpha: i64,
        mut beta: i64,
        a: &Rc<Analysis>,
        first: Option<Play>,
        tt_key: Option<(u8, Rc<[u32]>)>,
    ) -> Result<i64, Exceeded> {
        self.nodes += 1;
        if self.nodes > self.limit {
            return Err(Exceeded);
        }
        if self.nodes & self.trim_mask == 0 {
            self.trim();
        }
        let k = plays.n as usize;
        let seat = (leader + k) % 4;
        let maxi = self.attacker[seat];
        // a trick start whose table entry holds a best lead tries that lead first, then the
        // others in their order (walked in place below: no copy of the moves)
        let mut first_move: Option<Play> = None;
        let moves: Moves = if k == 0 {
            let moves = self.lead_moves(hands, seat, a);
            if let Some(f) = first {
                if moves[0] != f && moves.contains(&f) {
                    first_move = Some(f);
                }
            }
            moves
        } else {
            let moves = self.follow_moves(&plays.p[0], &hands[seat], a, seat);
            if moves.len() > 1 {
                let ordered = self.ordered_follows(&moves, leader, plays, seat, &hands[seat], a.reps_id[seat]);
                self.nodes += (ordered.len() >> 4) as u64;
                ordered
            } else {
                moves
            }
        };
        let (a0, b0) = (alpha, beta);
        let mut best = if maxi { -INF } else { INF };
        let mut best_move: Option<Play> = None;
        let mut next = 0usize;
        let mut first_due = first_move.is_some();
        loop {
            let m: &Play = match &first_move {
                Some(f) if first_due => {
                    first_due = false;
                    f
                }
                _ => {
                    while next < moves.len() && first_move.is_some_and(|f| moves[next] == f) {
                        next += 1;
                    }
                    if next == moves.len() {
                        break;
                    }
                    next += 1;
                    &moves[next - 1]
                }
            };
            // the child by making the play in place (taken back below): no copy of the four
            // holdings and the trick a child
            let held = hands[seat];
            hands[seat].remove(m);
            plays.push(m);
            let v = self.child(hands, leader, plays, k, alpha, beta, maxi, best_move.is_none(), a);
            plays.pop();
            hands[seat] = held;
            let v = v?;
            if maxi {
                if v > best {
                    best = v;
                    best_move = Some(*m);
                    if v > alpha {
                        alpha = v;
                    }
                }
            } else if v < best {
                best = v;
                best_move = Some(*m);
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
            self.tt.insert(tt_key, (lo, hi, best_move));
        }
        Ok(best)
    }

    /// the value of the child `plays` leads to (its last play made in `hands` and `plays`):
    /// `first`: the node's first move (searched with the whole window), else a null window
    /// first and a re-search inside (principal variation search)
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn child(
        &mut self,
        hands: &mut Hands,
        leader: usize,
        plays: &mut Trick,
        k: usize,
        alpha: i64,
        beta: i64,
        maxi: bool,
        first: bool,
        a: &Rc<Analysis>,
    ) -> Result<i64, Exceeded> {
        let mut g = 0;
        let mut v = 0;
        let mut wseat = 0;
        let mut search = true;
        if k == 3 {
            let (w, pts) = self.trick(plays);
            wseat = (leader + w) % 4;
            let att = self.attacker[wseat];
            if hands[wseat].is_empty() {
                let mult = self.last_multiplier(plays);
                v = self.gain(att, true, pts, mult);
                search = false;
            } else {
                // (not the last trick: the multiplier does not count)
                g = self.gain(att, false, pts, 0);
            }
        }
        if search {
            if first || beta - alpha <= 1 {
                v = if k == 3 {
                    g + self.trick_start(hands, wseat, alpha - g, beta - g)?
                } else {
                    self.node(hands, leader, plays, alpha, beta, a, None, None)?
                };
            } else if maxi {
                v = if k == 3 {
                    g + self.trick_start(hands, wseat, alpha - g, alpha - g + 1)?
                } else {
                    self.node(hands, leader, plays, alpha, alpha + 1, a, None, None)?
                };
                if alpha < v && v < beta {
                    v = if k == 3 {
                        g + self.trick_start(hands, wseat, v - g, beta - g)?
                    } else {
                        self.node(hands, leader, plays, v, beta, a, None, None)?
                    };
                }
            } else {
                v = if k == 3 {
                    g + self.trick_start(hands, wseat, beta - g - 1, beta - g)?
                } else {
                    self.node(hands, leader, plays, beta - 1, beta, a, None, None)?
                };
                if alpha < v && v < beta {
                    v = if k == 3 {
                        g + self.trick_start(hands, wseat, alpha - g, v - g)?
                    } else {
                        self.node(hands, leader, plays, alpha, v, a, None, None)?
                    };
                }
            }
        }
        Ok(v)
    }

    /// `Solver.playout`: the attackers' points to the end when every seat plays the
    /// move the search would try first (no search; the same line as the Python one).
    pub fn playout(&mut self, hands: &Hands, leader: usize, plays: &[Vec<u8>]) -> i64 {
        let ps: Vec<Cards> = plays
            .iter()
            .map(|p| {
                let mut v = p.clone();
                v.sort_unstable();
                Cards::from_slice(&v)
            })
            .collect();
        let mut start = *hands;
        for (k, p) in ps.iter().enumerate() {
            let i = (leader + k) % 4;
            start[i] = start[i].plus_sorted(p);
        }
        let mut a = self.analyse(&start);
        let mut hands = *hands;
        let mut leader = leader;
        let mut trick = Trick::new(&ps);
        let mut total = 0;
        while trick.n > 0 || hands.iter().any(|h| !h.is_empty()) {
            let k = trick.n as usize;
            let seat = (leader + k) % 4;
            let m = if k == 0 {
                a = self.analyse(&hands);
                self.lead_moves(&hands, seat, &a)[0]
            } else {
                let moves = self.follow_moves(&trick.p[0], &hands[seat], &a, seat);
                if moves.len() > 1 {
                    self.ordered_follows(&moves, leader, &trick, seat, &hands[seat], a.reps_id[seat])[0]
                } else {
                    moves[0]
                }
            };
            hands[seat] = hands[seat].minus(&m);
            trick = trick.with(&m);
            if k == 3 {
                let (w, pts) = self.trick(&trick);
                let wseat = (leader + w) % 4;
                let last = hands[wseat].is_empty();
                let mult = if last { self.last_multiplier(&trick) } else { 0 };
                total += self.gain(self.attacker[wseat], last, pts, mult);
                leader = wseat;
                trick = Trick::new(&[]);
            }
        }
        total
    }

    /// Best guess first (`Solver._ordered_follows`): plays that leave the trick to the
    /// mover's team (most points first), then the others (fewest points first, lowest first).
    fn ordered_follows(&mut self, moves: &Moves, leader: usize, plays: &Trick, seat: usize, hand: &Cards,
                       reps_id: u32) -> Moves {
        let okey = (plays.key(), hand.packed(), reps_id, leader as u8);
        if let Some(got) = self.ordered.get(&okey) {
            return got.clone();
        }
        let mine = self.attacker[seat];
        let eff = self.rules.order.eff;
        let key = self.rules.order.key;
        let bi = self.partial_winner(plays);
        let team_now = self.attacker[(leader + bi) % 4] == mine;
        let lead = plays.p[0];
        let single = lead.len() == 1;
        let (mut lead_e, mut be, mut bk) = (0u8, 0u8, 0i32);
        if single {
            lead_e = eff[lead.as_slice()[0] as usize];
            let b = plays.p[bi].as_slice()[0];
            be = eff[b as usize];
            bk = key[b as usize];
        }
        let mut scored: Vec<(u8, i64, i64, Play)> = Vec::with_capacity(moves.len());
        for m in moves.iter() {
            let ours;
            let pts: i64;
            let strength: i64;
            let ms = m.as_slice();
            if single {
                let c = ms[0];
                let e = eff[c as usize];
                let takes = (e == be && key[c as usize] > bk && (e == lead_e || e == TRUMP)) || (e == TRUMP && be != TRUMP);
                ours = if takes { true } else { team_now };
                pts = points(c) as i64;
                strength = key[c as usize] as i64;
            } else {
                let e = eff[ms[0] as usize];
                if ms.iter().all(|&c| eff[c as usize] == e) {
                    let w = self.partial_winner(&plays.with(m));
                    ours = self.attacker[(leader + w) % 4] == mine;
                } else {
                    ours = team_now;
                }
                pts = ms.iter().map(|&c| points(c) as i64).sum();
                strength = ms.iter().map(|&c| key[c as usize] as i64).sum();
            }
            if ours {
                scored.push((0, -pts, strength, *m));
            } else {
                scored.push((1, pts, strength, *m));
            }
        }
        // the moves are distinct, so no two entries are equal and an unstable sort orders as a stable one
        scored.sort_unstable();
        let got: Moves = scored.into_iter().map(|t| t.3).collect();
        self.ordered.insert(okey, got.clone());
        got
    }
}

/// One move per class of equivalent moves (the first met); `rep`: each card's representative.
fn distinct(moves: Vec<Play>, reps_id: u32, rep: &[u8; 54]) -> Vec<Play> {
    if reps_id == 0 || moves.len() < 2 {
        return moves;
    }
    // a move's class: its cards mapped to their representatives, as counts
    let mut seen: Vec<[u64; 3]> = Vec::with_capacity(moves.len());
    let mut out = Vec::with_capacity(moves.len());
    for m in moves {
        let mut w = [0u64; 3];
        for &x in m.as_slice() {
            let (i, b) = bit(rep[x as usize]);
            w[i] += b;
        }
        if !seen.iter().any(|s| words_eq(s, &w)) {
            seen.push(w);
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
            throws: true,
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
        let hands = Solver::hands(&[vec![1, 2], vec![12, 12], vec![3, 4], vec![5, 6]]).unwrap();
        assert_eq!(s.root(&hands, 1, &[], -INF, INF).unwrap(), 5 + 100);
    }

    #[test]
    fn dealer_keeps_the_trick() {
        let mut s = Solver::new(rules(), [false, true, false, true], 0, false);
        let hands = Solver::hands(&[vec![12], vec![11], vec![8], vec![3]]).unwrap();
        assert_eq!(s.root(&hands, 0, &[], -INF, INF).unwrap(), 0);
        // W leads: N's ♠A wins 25 points for the dealers' side
        assert_eq!(s.root(&hands, 1, &[], -INF, INF).unwrap(), 0);
    }

    #[test]
    fn points_from_counts() {
        // every point card, four copies, spread over the seats; and a few that count nothing
        let all: Vec<u8> = (0..54u8).flat_map(|c| [c; 4]).collect();
        let mut hv = vec![Vec::new(); 4];
        for (i, &c) in all.iter().enumerate() {
            hv[i % 4].push(c);
        }
        let hands = Solver::hands(&hv).unwrap();
        assert_eq!(points_held(&hands), 4 * 100);
        for (c, p) in POINT_CARDS {
            assert_eq!(points(c) as i64, p);
        }
        let none = Solver::hands(&[vec![0, 52, 53], vec![1], vec![], vec![12, 12]]).unwrap();
        assert_eq!(points_held(&none), 0);
        let some = Solver::hands(&[vec![3, 3], vec![8], vec![50], vec![11, 24]]).unwrap();
        assert_eq!(points_held(&some), 5 + 5 + 10 + 10 + 10 + 10);
    }

    #[test]
    fn kitty_bound_counts_the_units_held() {
        // W (attacker) leads a ♠A pair at the last trick: 5 + 25 × 4. A bound that forgot
        // the pair (multiplier 2: 5 + 50) would answer 55 to a window above it.
        let hands = Solver::hands(&[vec![1, 2], vec![12, 12], vec![3, 4], vec![5, 6]]).unwrap();
        let mut s = Solver::new(rules(), [false, true, false, true], 25, false);
        assert_eq!(s.root(&hands, 1, &[], 55, INF).unwrap(), 105);
        assert_eq!(s.root(&hands, 1, &[], 104, 106).unwrap(), 105);
        // no pair anywhere: 15 points held and the kitty worth at most 25 × 2, so a window
        // from 65 up is answered by the bound alone (no node); a pair's bound (× 4) would search
        let single = Solver::hands(&[vec![1, 2], vec![11, 12], vec![3, 4], vec![5, 6]]).unwrap();
        let mut s = Solver::new(rules(), [false, true, false, true], 25, false);
        assert_eq!(s.root(&single, 1, &[], 65, INF).unwrap(), 65);
        assert_eq!(s.nodes, 0);
        assert_eq!(s.root(&single, 1, &[], -INF, INF).unwrap(), 15 + 50);
    }

    #[test]
    fn copies_beyond_the_distinct_cards() {
        let cases: [(&[u8], usize); 7] = [
            (&[], 0),
            (&[0, 1, 2, 53], 0),
            (&[5, 5, 7, 7, 7, 9], 3),
            (&[20, 20, 21, 21, 21, 21, 42, 42, 42], 6),
            (&[52, 52, 53, 53, 53, 53], 4),
            (&[0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3], 12),
            (&[20, 21, 41, 41, 42, 43, 43], 2),
        ];
        for (cards, want) in cases {
            assert_eq!(extra_copies(&Cards::from_slice(cards).w), want, "{cards:?}");
        }
    }

    #[test]
    fn sure_rounds_table() {
        // ♥ trump at level 2 (♠: cards 0–12, ♥: 13–25; the 2s and the jokers trumps)
        let s = Solver::new(rules(), [false, true, false, true], 0, false);
        let cases: [([&[u8]; 4], (i64, bool)); 4] = [
            // N's ♠K ♠A above every spade, nobody can ruff: both tricks, every point
            ([&[11, 12], &[3, 4], &[5, 6], &[7, 8]], (10, true)),
            // E holds a trump and one spade: one sure round (♠K first: 10), E's ♠5 forced
            ([&[11, 12], &[3, 14], &[5, 6], &[7, 8]], (15, false)),
            // the jokers above every trump: E follows with ♥2 ♥5 (5), S with its one trump, W discards
            ([&[52, 53], &[13, 16], &[0, 3], &[8, 9]], (5, true)),
            // W's ♠A beats N's ♠K: nothing sure
            ([&[11, 4], &[3, 5], &[6, 7], &[12, 9]], (0, false)),
        ];
        for (hv, want) in cases {
            let hands = Solver::hands(&hv.map(|h| h.to_vec())).unwrap();
            assert_eq!(s.sure_rounds(&hands, 0), want, "{hv:?}");
        }
    }

    #[test]
    fn sure_rounds_keep_the_value() {
        // random two-deck endgames of 1–4 cards a seat: the value with the bound is the value
        // without it, and every window's fail-soft answer is a true bound of it
        let pool: Vec<u8> = [3u8, 4, 8, 10, 11, 12, 13, 16, 21, 24, 25, 26, 29, 34, 37, 38, 0, 52, 53]
            .iter()
            .flat_map(|&c| [c, c])
            .collect();
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut rnd = |n: usize| {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            (x >> 33) as usize % n
        };
        let (mut fewer, mut cases) = (0, 0);
        for _ in 0..1500 {
            let n = 1 + rnd(4);
            let mut deck = pool.clone();
            let mut hv = vec![Vec::new(); 4];
            for h in hv.iter_mut() {
                for _ in 0..n {
                    h.push(deck.swap_remove(rnd(deck.len())));
                }
            }
            let hands = Solver::hands(&hv).unwrap();
            let leader = rnd(4);
            let att = if rnd(2) == 0 { [false, true, false, true] } else { [true, false, true, false] };
            let kitty = [0, 0, 10, 25][rnd(4)];
            let mut plain = Solver::new(rules(), att, kitty, false);
            plain.sure_rounds = false;
            let v = plain.root(&hands, leader, &[], -INF, INF).unwrap();
            for (lo, hi) in [(-INF, INF), (v - 1, v), (v, v + 1), (v - 5, v + 5), (v + 4, v + 6), (v - 6, v - 4)] {
                let mut sure = Solver::new(rules(), att, kitty, false);
                let mut off = Solver::new(rules(), att, kitty, false);
                off.sure_rounds = false;
                let got = sure.root(&hands, leader, &[], lo, hi).unwrap();
                off.root(&hands, leader, &[], lo, hi).unwrap();
                cases += 1;
                if sure.nodes < off.nodes {
                    fewer += 1;
                }
                if got <= lo {
                    assert!(v <= got, "{hv:?} leader {leader}: {v} above the bound {got} ({lo}, {hi})");
                } else if got >= hi {
                    assert!(v >= got, "{hv:?} leader {leader}: {v} below the bound {got} ({lo}, {hi})");
                } else {
                    assert_eq!(v, got, "{hv:?} leader {leader} ({lo}, {hi})");
                }
            }
        }
        // the bound decides often enough for the test to mean something
        assert!(fewer * 20 > cases, "{fewer} of {cases}");
    }

    #[test]
    fn budget_runs_out() {
        let mut s = Solver::new(rules(), [false, true, false, true], 0, false);
        let hands =
            Solver::hands(&[vec![0, 1, 8, 11], vec![2, 3, 9, 12], vec![4, 5, 10, 24], vec![6, 7, 13, 14]]).unwrap();
        s.limit = 3;
        assert!(s.root(&hands, 0, &[], -INF, INF).is_err());
        s.limit = u64::MAX;
        assert!(s.root(&hands, 0, &[], -INF, INF).is_ok());
    }
}
