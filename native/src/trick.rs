//! One trick: legal follows, leads, the throw check, the winner, the kitty
//! multiplier (§6, §7). A port of `replay/trick.py`, `replay/legal.py` and
//! `replay.scoring.kitty_multiplier`; the Python engine is the specification.

use crate::order::{Order, TRUMP};
use crate::units::POLICY_SHENGJI_IO;
use crate::{sjio, sjio_winner};
use crate::units::{
    all_covers, compare_covers, count, cover, decompose, forced_units, obligation, throw_blocked, throw_blockers,
    Blocker, Counts, Unit, COMPARE_ALL_UNITS,
};

pub const KM_BY_UNIT: u8 = 0;
pub const KM_BY_CARDS: u8 = 1;
pub const KM_BY_PLAY_CARDS: u8 = 2;
pub const KM_LINEAR: u8 = 3;
pub const KM_TITANIC: u8 = 4;
pub const KM_TIMES_UNIT: u8 = 5;
pub const KM_TIMES_LEAD_CARDS: u8 = 6;
pub const KM_BOTZONE: u8 = 7;
pub const KM_UNIT_CARDS: u8 = 8;

pub const PENALTY_NONE: u8 = 0;
pub const PENALTY_PER_CARD: u8 = 1;
pub const PENALTY_PER_ATTEMPT: u8 = 2;

/// The play-phase options of a ruleset (the rest of a `Ruleset` plays no part in a trick).
#[derive(Clone, Debug)]
pub struct Rules {
    pub order: Order,
    pub decks: u8,
    /// false: `throw_check: none`
    pub throw_check: bool,
    /// false: `throws: no` (a lead is one unit: no throw candidates)
    pub throws: bool,
    pub throw_forced: u8,
    pub throw_penalty: u8,
    pub throw_compare: u8,
    pub follow_policy: u8,
    /// true: `follow_suit: printed`
    pub printed: bool,
    pub kitty_multiplier: u8,
}

/// The effective suit of a lead, or None when it mixes suits.
pub fn lead_suit(cards: &[u8], order: &Order) -> Option<u8> {
    let e = order.eff(*cards.first()?);
    if cards.iter().all(|&c| order.eff(c) == e) {
        Some(e)
    } else {
        None
    }
}

/// Every distinct sub-multiset of `items` (card, copies; cards ascending) with `k` cards.
pub fn multisets(items: &[(u8, u8)], k: usize, out: &mut Vec<Vec<u8>>) {
    each_multiset(items, k, &mut |m| out.push(m.to_vec()));
}

/// [`multisets`] to `f`, in the same order, one buffer for all (no vector a multiset).
pub fn each_multiset(items: &[(u8, u8)], k: usize, f: &mut impl FnMut(&[u8])) {
    fn rec(items: &[(u8, u8)], i: usize, need: usize, cur: &mut Vec<u8>, suffix: &[usize], f: &mut impl FnMut(&[u8])) {
        if need == 0 {
            f(cur);
            return;
        }
        if i >= items.len() || suffix[i] < need {
            return;
        }
        let (c, n) = items[i];
        let top = (n as usize).min(need);
        for t in (0..=top).rev() {
            for _ in 0..t {
                cur.push(c);
            }
            rec(items, i + 1, need - t, cur, suffix, f);
            for _ in 0..t {
                cur.pop();
            }
        }
    }
    // the cards left from each item on (a holding has at most 54 distinct cards)
    let mut suffix = [0usize; 55];
    let suffix = &mut suffix[..items.len() + 1];
    for i in (0..items.len()).rev() {
        suffix[i] = suffix[i + 1] + items[i].1 as usize;
    }
    let mut cur = Vec::with_capacity(k);
    rec(items, 0, k, &mut cur, suffix, f);
}

fn sorted_items(h: &[(u8, u8)]) -> Vec<(u8, u8)> {
    let mut v: Vec<(u8, u8)> = h.iter().copied().filter(|e| e.1 > 0).collect();
    v.sort_unstable();
    v
}

impl Rules {
    fn full_obligation(&self, lead: &[Unit]) -> Vec<i32> {
        let cards: Vec<u8> = lead.iter().flat_map(|u| u.cards.iter().copied()).collect();
        obligation(lead, &cards, &self.order, self.follow_policy)
    }

    /// `replay.trick.follow_error` (no message): is `play` an illegal follow?
    /// `holding`: the player's cards (any suits, before the play).
    pub fn follow_error(&self, lead: &[Unit], suit: Option<u8>, holding: &[(u8, u8)], play: &[u8]) -> bool {
        let Some(suit) = suit else { return false };
        let order = &self.order;
        let n: usize = lead.iter().map(|u| u.size()).sum();
        if n == 1 {
            if order.eff(play[0]) == suit {
                return false;
            }
            return holding.iter().any(|&(c, k)| k > 0 && order.eff(c) == suit);
        }
        // the play's cards of the suit and the holding's, on the stack
        let mut played_buf = [0u8; 64];
        let mut n_played = 0usize;
        for &c in play {
            if order.eff(c) == suit && n_played < played_buf.len() {
                played_buf[n_played] = c;
                n_played += 1;
            }
        }
        let played = &played_buf[..n_played];
        if n_played == n {
            if lead.len() == 1 {
                let u = &lead[0];
                if u.width == 1 || (u.length == 1 && play.iter().all(|&c| c == play[0])) {
                    return false;
                }
            } else if lead.iter().all(|u| u.width == 1) {
                return false;
            }
        }
        let mut held_buf = [(0u8, 0u8); 54];
        let mut n_kinds = 0usize;
        for &(c, k) in holding {
            if k > 0 && order.eff(c) == suit {
                held_buf[n_kinds] = (c, k);
                n_kinds += 1;
            }
        }
        let suit_held = &held_buf[..n_kinds];
        let n_held: usize = suit_held.iter().map(|e| e.1 as usize).sum();
        let need = n.min(n_held);
        if n_played < need {
            return true;
        }
        if n_held <= n || suit_held.iter().map(|e| e.1).max().unwrap_or(0) < 2 || lead.iter().all(|u| u.width == 1) {
            return false;
        }
        if self.follow_policy == POLICY_SHENGJI_IO {
            // `replay.follow._engine_follow`: shengji.io's fallback shapes (sjio.rs)
            return played.len() == n && !sjio::follow_ok(lead, &suit_held.to_vec(), played, order);
        }
        if lead.len() == 1 && lead[0].shape() == (2, 1) && n_played == n {
            // a pair led, followed by two cards of the suit that are no pair, from a holding of
            // the suit with a pair (the cases above let the rest pass): `obligation` asks one
            // pair of a pair led under every policy (no tractor: its pairs only), the play
            // meets none, the holding one
            return true;
        }
        let got = obligation(lead, played, order, self.follow_policy);
        if got == self.full_obligation(lead) {
            return false;
        }
        let held: Vec<u8> = suit_held.iter().flat_map(|&(c, k)| std::iter::repeat_n(c, k as usize)).collect();
        got < obligation(lead, &held, order, self.follow_policy)
    }

    fn printed_ours(&self, psuit: Option<u8>, c: u8) -> bool {
        let Some(ps) = psuit else { return false };
        if c >= 52 || c / 13 != ps {
            return false;
        }
        let r = c % 13 + 2;
        r != self.order.level && !(self.order.two_is_trump && r == 2)
    }

    /// `follow_suit: printed`: the printed suit a lead asks for (None: jokers only).
    pub fn printed_suit(lead: &[u8]) -> Option<u8> {
        lead.iter().find(|&&c| c < 52).map(|&c| c / 13)
    }

    /// `replay.trick.check_follow_printed` (no message): is `play` an illegal follow?
    pub fn printed_error(&self, lead: &[Unit], psuit: Option<u8>, holding: &[(u8, u8)], play: &[u8], n: usize) -> bool {
        if psuit.is_none() {
            return false;
        }
        let held: Vec<(u8, u8)> =
            holding.iter().copied().filter(|&(c, k)| k > 0 && self.printed_ours(psuit, c)).collect();
        let n_held: usize = held.iter().map(|e| e.1 as usize).sum();
        let played: Vec<u8> = play.iter().copied().filter(|&c| self.printed_ours(psuit, c)).collect();
        let need = n.min(n_held);
        if played.len() < need {
            return true;
        }
        let lead_pairs: usize = lead.iter().filter(|u| u.width >= 2).map(|u| u.length as usize).sum();
        if lead_pairs == 0 || n_held <= n {
            return false;
        }
        let got: usize = count(&played).iter().map(|e| (e.1 / 2) as usize).sum();
        let have: usize = held.iter().map(|e| (e.1 / 2) as usize).sum();
        got < lead_pairs.min(have)
    }

    /// Every legal follow to `lead` (distinct multisets, cards ascending; sorted).
    pub fn legal_follows(&self, lead: &[u8], holding: &Counts) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        self.each_legal_follow(lead, holding, |p| out.push(p.to_vec()));
        out.sort();
        out
    }

    /// [`Rules::legal_follows`] to `f`, each once (cards ascending), in no set order: the
    /// search's follows without a vector a follow.
    pub fn each_legal_follow(&self, lead: &[u8], holding: &[(u8, u8)], mut f: impl FnMut(&[u8])) {
        let n = lead.len();
        let order = &self.order;
        // a short play's own cards plus a fill of others, sorted, in one buffer
        let fill_out = |base: &[u8], others: &[(u8, u8)], need: usize, f: &mut dyn FnMut(&[u8])| {
            let mut p: Vec<u8> = Vec::with_capacity(n);
            each_multiset(others, need, &mut |fill| {
                p.clear();
                p.extend_from_slice(base);
                p.extend_from_slice(fill);
                p.sort_unstable();
                f(&p);
            });
        };
        if self.printed {
            let psuit = Self::printed_suit(lead);
            let mine: Vec<(u8, u8)> =
                sorted_items(holding).into_iter().filter(|&(c, _)| self.printed_ours(psuit, c)).collect();
            let others: Vec<(u8, u8)> =
                sorted_items(holding).into_iter().filter(|&(c, _)| !self.printed_ours(psuit, c)).collect();
            let have: usize = mine.iter().map(|e| e.1 as usize).sum();
            if have >= n {
                let units = if lead_suit(lead, order).is_some() { decompose(lead, order) } else { Vec::new() };
                each_multiset(&mine, n, &mut |play| {
                    if !self.printed_error(&units, psuit, holding, play, n) {
                        f(play);
                    }
                });
            } else {
                let base: Vec<u8> = mine.iter().flat_map(|&(c, k)| std::iter::repeat_n(c, k as usize)).collect();
                fill_out(&base, &others, n - have, &mut f);
            }
            return;
        }
        let suit = lead_suit(lead, order);
        // the holding's cards of the led suit and the others, sorted, on the stack
        let (mut in_buf, mut out_buf) = ([(0u8, 0u8); 54], [(0u8, 0u8); 54]);
        let (mut n_in, mut n_out) = (0usize, 0usize);
        for &(c, k) in holding {
            if k == 0 {
                continue;
            }
            if Some(order.eff(c)) == suit {
                in_buf[n_in] = (c, k);
                n_in += 1;
            } else {
                out_buf[n_out] = (c, k);
                n_out += 1;
            }
        }
        let in_suit = &mut in_buf[..n_in];
        in_suit.sort_unstable();
        let in_suit = &*in_suit;
        let others = &mut out_buf[..n_out];
        others.sort_unstable();
        let others = &*others;
        let have: usize = in_suit.iter().map(|e| e.1 as usize).sum();
        if have >= n {
            if n == 1 {
                // a single led: any card of the suit (`follow_error` of one card in suit)
                for &(c, _) in in_suit {
                    f(&[c]);
                }
                return;
            }
            let units = decompose(lead, order);
            each_multiset(in_suit, n, &mut |play| {
                if !self.follow_error(&units, suit, in_suit, play) {
                    f(play);
                }
            });
        } else {
            let base: Vec<u8> = in_suit.iter().flat_map(|&(c, k)| std::iter::repeat_n(c, k as usize)).collect();
            fill_out(&base, others, n - have, &mut f);
        }
    }

    /// Every distinct single-unit lead (singles, tuples, tractors), cards ascending, sorted.
    pub fn unit_leads(&self, holding: &Counts) -> Vec<Vec<u8>> {
        let mut out: Vec<Vec<u8>> = Vec::new();
        self.each_unit_lead(holding, |lead| out.push(lead.to_vec()));
        out.sort();
        out.dedup();
        out
    }

    /// Every single-unit lead (cards ascending), in no set order and possibly twice, to `f`
    /// ([`Rules::unit_leads`] sorts them and drops the repeats): the search's leads
    /// without a vector a lead.
    pub fn each_unit_lead(&self, holding: &[(u8, u8)], mut f: impl FnMut(&[u8])) {
        let order = &self.order;
        // the holding by effective suit (five at most), on the stack; a suit's cards in the
        // holding's order
        let mut by_suit = [[(0u8, 0u8); 54]; 5];
        let mut in_suit = [0usize; 5];
        for &(c, n) in holding {
            if n == 0 {
                continue;
            }
            let e = order.eff(c) as usize;
            by_suit[e][in_suit[e]] = (c, n);
            in_suit[e] += 1;
        }
        let key = &order.key;
        // (allocated at the first tractor only)
        let mut buf: Vec<u8> = Vec::new();
        for (cards, &n_cards) in by_suit.iter().zip(&in_suit) {
            let cards = &cards[..n_cards];
            for &(c, n) in cards {
                let same = [c; 4];
                for w in 1..=n as usize {
                    if w <= 4 {
                        f(&same[..w]);
                    } else {
                        f(&vec![c; w]);
                    }
                }
            }
            let top = cards.iter().map(|e| e.1).max().unwrap_or(0);
            for w in 2..=top {
                // `units::sub_runs` of every length ≥ 2 on the stack: the keys where a card is
                // held `w` times, the smallest such card a key (`units::runs`), in key order;
                // every window of two or more adjacent keys is a tractor
                let mut avail = [(0i32, 0u8); 54];
                let mut na = 0usize;
                for &(c, n) in cards {
                    if n >= w {
                        let k = key[c as usize];
                        match avail[..na].iter_mut().find(|e| e.0 == k) {
                            Some(e) => e.1 = e.1.min(c),
                            None => {
                                avail[na] = (k, c);
                                na += 1;
                            }
                        }
                    }
                }
                let avail = &mut avail[..na];
                avail.sort_unstable_by_key(|e| e.0);
                let mut start = 0usize;
                while start < na {
                    let mut end = start + 1;
                    while end < na && avail[end].0 == avail[end - 1].0 + 1 {
                        end += 1;
                    }
                    for i in start..end {
                        for j in i + 2..=end {
                            buf.clear();
                            buf.extend(avail[i..j].iter().flat_map(|&(_, c)| std::iter::repeat_n(c, w as usize)));
                            buf.sort_unstable();
                            f(&buf);
                        }
                    }
                    start = end;
                }
            }
        }
    }

    /// `replay.trick.throw_options` + `throw_leads`: the multi-unit leads of `hand`
    /// worth a throw check, with their suit (cards ascending, in the engine's order).
    /// `hand` is sorted ascending; `others` the other players' cards.
    pub fn throw_candidates(&self, hand: &[u8], others: &[&[u8]]) -> Vec<(Vec<u8>, u8)> {
        let mut out = Vec::new();
        self.each_throw_candidate(hand, others, |lead, suit| out.push((lead.to_vec(), suit)));
        out
    }

    /// [`Rules::throw_candidates`] to `f`, in the same order, on the stack (no vector a
    /// candidate; a candidate of distinct cards is several singles without `decompose`,
    /// except under `unit_split: shengji_io`, whose reading `decompose` asks)
    pub fn each_throw_candidate(&self, hand: &[u8], others: &[&[u8]], mut f: impl FnMut(&[u8], u8)) {
        if !self.throws {
            return;
        }
        let order = &self.order;
        // the hand's cards by effective suit, the suits in the order first met
        let mut by_suit = [[(0u8, 0u8); 54]; 5];
        let mut in_suit = [0usize; 5];
        let mut suits = [0u8; 5];
        let mut n_suits = 0usize;
        for &c in hand {
            let e = order.eff(c);
            let ei = e as usize;
            if in_suit[ei] == 0 {
                suits[n_suits] = e;
                n_suits += 1;
            }
            let cards = &mut by_suit[ei][..in_suit[ei]];
            match cards.iter_mut().find(|y| y.0 == c) {
                Some(y) => y.1 += 1,
                None => {
                    by_suit[ei][in_suit[ei]] = (c, 1);
                    in_suit[ei] += 1;
                }
            }
        }
        let mut tops: Option<[i32; 5]> = if self.throw_check { None } else { Some([-1; 5]) };
        for &suit in &suits[..n_suits] {
            let cards = &mut by_suit[suit as usize][..in_suit[suit as usize]];
            let total: usize = cards.iter().map(|e| e.1 as usize).sum();
            if total < 2 {
                continue;
            }
            let t = tops.get_or_insert_with(|| {
                let mut t = [-1i32; 5];
                for h in others {
                    for &c in h.iter() {
                        let e = order.eff(c) as usize;
                        if order.key(c) > t[e] {
                            t[e] = order.key(c);
                        }
                    }
                }
                t
            });
            let top = t[suit as usize];
            cards.sort_unstable();
            // each card's options: how many of it the lead holds (a single only of a card
            // above every other of the suit)
            // (0..=k, without 1 when the card is not above every other: option `i` holds
            // `i + 1` copies past the first option then)
            let mut skip_one = [false; 54];
            let mut n_opts = [0usize; 54];
            for (j, &(c, k)) in cards.iter().enumerate() {
                skip_one[j] = order.key(c) < top;
                n_opts[j] = k as usize + 1 - skip_one[j] as usize;
            }
            let opt = |j: usize, i: usize| i + (skip_one[j] && i >= 1) as usize;
            let m = cards.len();
            // itertools.product: the last option varies fastest
            let mut idx = [0usize; 54];
            let mut lead: Vec<u8> = Vec::with_capacity(total);
            'product: loop {
                let sum: usize = (0..m).map(|j| opt(j, idx[j])).sum();
                if sum >= 2 {
                    lead.clear();
                    let mut distinct = true;
                    for j in 0..m {
                        let n = opt(j, idx[j]);
                        distinct &= n <= 1;
                        for _ in 0..n {
                            lead.push(cards[j].0);
                        }
                    }
                    if (distinct && !order.sjio) || decompose(&lead, order).len() >= 2 {
                        f(&lead, suit);
                    }
                }
                let mut j = m;
                loop {
                    if j == 0 {
                        break 'product;
                    }
                    j -= 1;
                    idx[j] += 1;
                    if idx[j] < n_opts[j] {
                        break;
                    }
                    idx[j] = 0;
                }
            }
        }
    }

    /// `replay.trick.check_throw`: the blockers of a lead of several units and the
    /// units the thrower may be forced to play. `holdings`: every seat in play order,
    /// the thrower first (seat numbers are indices into it).
    pub fn check_throw(&self, lead: &[u8], holdings: &[Counts]) -> (Vec<Blocker>, Vec<Unit>) {
        let units = decompose(lead, &self.order);
        if units.len() < 2 || !self.throw_check {
            return (Vec::new(), Vec::new());
        }
        if self.order.sjio && lead_suit(lead, &self.order).is_some() {
            // `unit_split: shengji_io`: the engine's throw check (`replay.trick._engine_throw`)
            let suit = self.order.eff(units[0].cards[0]);
            let suited: Vec<(usize, Counts)> = (1..holdings.len())
                .map(|k| (k, holdings[k].iter().copied().filter(|&(c, n)| n > 0 && self.order.eff(c) == suit).collect()))
                .collect();
            return sjio::engine_throw(&units, &suited, &self.order);
        }
        let others: Vec<(usize, Counts)> = (1..holdings.len()).map(|k| (k, holdings[k].clone())).collect();
        let blockers = throw_blockers(&units, &others, &self.order);
        if blockers.is_empty() {
            return (blockers, Vec::new());
        }
        let seats: Vec<usize> = (1..holdings.len()).collect();
        let allowed = forced_units(&blockers, self.throw_forced, &seats);
        (blockers, allowed)
    }

    /// Does a throw of `lead` stand (no other player blocks it)? `others`: their
    /// cards of the lead's suit as (card, copies) (any order), in turn order after the thrower.
    pub fn throw_stands(&self, lead: &[u8], others: &[&[(u8, u8)]]) -> bool {
        let units = decompose(lead, &self.order);
        if units.len() < 2 || !self.throw_check {
            return true;
        }
        if self.order.sjio && lead_suit(lead, &self.order).is_some() {
            let suit = self.order.eff(units[0].cards[0]);
            let suited: Vec<(usize, Counts)> = others
                .iter()
                .enumerate()
                .map(|(k, h)| (k + 1, h.iter().copied().filter(|&(c, n)| n > 0 && self.order.eff(c) == suit).collect()))
                .collect();
            return sjio::engine_throw(&units, &suited, &self.order).0.is_empty();
        }
        !throw_blocked(&units, others, &self.order)
    }

    pub fn throw_penalty(&self, attempted: usize) -> i32 {
        match self.throw_penalty {
            PENALTY_PER_CARD => 10 * attempted as i32,
            PENALTY_PER_ATTEMPT => 10,
            _ => 0,
        }
    }

    /// [`Rules::trick_winner`] of a trick led by a single card: (winning play index, its
    /// card, ruffed), without building its unit
    #[inline]
    pub fn single_winner(&self, plays: &[&[u8]]) -> (usize, u8, bool) {
        let order = &self.order;
        let c = plays[0][0];
        let led = order.eff(c);
        let power = &order.power[led as usize];
        let (mut best_i, mut best_card, mut best) = (0usize, c, power[c as usize]);
        for (i, play) in plays.iter().enumerate().skip(1) {
            if play.len() == 1 {
                let d = play[0];
                if power[d as usize] > best {
                    best_i = i;
                    best_card = d;
                    best = power[d as usize];
                }
            }
        }
        (best_i, best_card, led != TRUMP && order.eff(best_card) == TRUMP)
    }

    /// The winning play's index and the kitty's multiplier if the trick were the last
    /// ([`Rules::trick_winner`] then [`Rules::last_trick_multiplier`]); a trick of single
    /// cards without a vector (its units are one single each: the multiplier is the
    /// policy's for a single won by a single)
    pub fn trick_outcome(&self, plays: &[&[u8]]) -> (usize, i32) {
        if plays[0].len() == 1 {
            let (w, _, _) = self.single_winner(plays);
            let one = [Unit { width: 1, length: 1, top: 0, cards: Vec::new() }];
            return (w, self.kitty_multiplier(&one, 1, 1, &one));
        }
        let (w, units, _) = self.trick_winner(plays);
        (w, self.last_trick_multiplier(&units, plays[0].len(), plays[plays.len() - 1]))
    }

    /// A lead of one unit of several cards, read on its cards without `decompose`: one
    /// card `n` times (a tuple), or `length` ≥ 2 cards of one effective suit held `width` ≥ 2
    /// times each on adjacent keys, one card a key (a tractor). (width, length, top key), or
    /// None for anything else (a single, a throw, mixed suits; under `unit_split:
    /// shengji_io` all but a tuple), which `decompose` reads. `decompose` reads exactly
    /// these leads as one unit: its pairs' runs and `decompose_general`'s widest, longest
    /// run take every card only when every card is held as often, one a key, on adjacent
    /// keys (two cards of one key, or a card held less often, leave a second unit).
    pub fn one_unit(&self, cards: &[u8]) -> Option<(u8, u8, i32)> {
        let order = &self.order;
        let n = cards.len();
        if n < 2 {
            return None;
        }
        let c0 = cards[0];
        if cards.iter().all(|&d| d == c0) {
            return Some((n as u8, 1, order.key(c0)));
        }
        if order.sjio {
            return None;
        }
        let w = cards.iter().filter(|&&d| d == c0).count();
        if w < 2 || !n.is_multiple_of(w) {
            return None;
        }
        let e = order.eff(c0);
        if cards.iter().any(|&d| order.eff(d) != e) {
            return None;
        }
        let length = n / w;
        self.tractor_top(cards, w as u8, length as u8).map(|top| (w as u8, length as u8, top))
    }

    /// The top key of `cards` (of one effective suit) when they are `length` ≥ 2 distinct
    /// cards held `w` times each on adjacent keys (`tractor_winner`'s test of a play), on the
    /// stack; None otherwise
    fn tractor_top(&self, cards: &[u8], w: u8, length: u8) -> Option<i32> {
        let key = &self.order.key;
        if cards.len() != w as usize * length as usize {
            return None;
        }
        let mut distinct = [(0u8, 0u8); 64];
        let mut nd = 0usize;
        for &c in cards {
            match distinct[..nd].iter_mut().find(|e| e.0 == c) {
                Some(e) => e.1 += 1,
                None => {
                    if nd == length as usize {
                        return None;
                    }
                    distinct[nd] = (c, 1);
                    nd += 1;
                }
            }
        }
        if nd != length as usize {
            return None;
        }
        let (mut lo, mut hi) = (i32::MAX, i32::MIN);
        for &(c, k) in &distinct[..nd] {
            if k != w {
                return None;
            }
            lo = lo.min(key[c as usize]);
            hi = hi.max(key[c as usize]);
        }
        // `length` keys spanning `length` places are adjacent when no two are equal
        if hi - lo + 1 != length as i32 {
            return None;
        }
        let mut seen = 0u64;
        for &(c, _) in &distinct[..nd] {
            let b = 1u64 << (key[c as usize] - lo);
            if seen & b != 0 {
                return None;
            }
            seen |= b;
        }
        Some(hi)
    }

    /// The play that takes a trick led by one unit of `w` × `length` cards in effective suit
    /// `suit` whose top key is `top` (a tuple: `length` 1; a tractor): (its index, its
    /// first card, ruffed); the lead's when no play beats it. On the cards, no vector.
    fn unit_winner(&self, plays: &[&[u8]], suit: u8, w: u8, length: u8, top: i32) -> (usize, bool) {
        let order = &self.order;
        let n = w as usize * length as usize;
        if length == 1 {
            let power = &order.power[suit as usize];
            let (mut best_i, mut best_card, mut best) = (0usize, 0u8, top + 1);
            for (i, cards) in plays.iter().enumerate().skip(1) {
                if cards.len() == n {
                    let c = cards[0];
                    if power[c as usize] > best && cards.iter().all(|&d| d == c) {
                        best_i = i;
                        best_card = c;
                        best = power[c as usize];
                    }
                }
            }
            return (best_i, best_i != 0 && suit != TRUMP && order.eff(best_card) == TRUMP);
        }
        let (mut best_i, mut best_top, mut best_ruff) = (0usize, top, false);
        for (i, cards) in plays.iter().enumerate().skip(1) {
            if cards.len() != n {
                continue;
            }
            let e = order.eff(cards[0]);
            if e == suit {
                if best_ruff {
                    continue;
                }
            } else if !(e == TRUMP && suit != TRUMP) {
                continue;
            }
            if cards.iter().any(|&c| order.eff(c) != e) {
                continue;
            }
            let Some(t) = self.tractor_top(cards, w, length) else { continue };
            let ruff = e != suit;
            if (ruff && !best_ruff) || t > best_top {
                best_i = i;
                best_top = t;
                best_ruff = ruff;
            }
        }
        (best_i, best_ruff)
    }

    /// The unit of a play of one unit (`w` × `length` cards, one card a key): its cards
    /// highest first, as `decompose` lists them
    fn unit_of(&self, cards: &[u8], w: u8, length: u8) -> Unit {
        let key = &self.order.key;
        let mut run: Vec<u8> = Vec::with_capacity(cards.len());
        for &c in cards {
            if !run.contains(&c) {
                run.push(c);
            }
        }
        run.sort_by_key(|&c| -key[c as usize]);
        let top = key[run[0] as usize];
        let cards: Vec<u8> = run.iter().flat_map(|&c| std::iter::repeat_n(c, w as usize)).collect();
        Unit { width: w, length, top, cards }
    }

    /// The index of the play that takes the trick ([`Rules::trick_winner`]'s first answer),
    /// without its units: a lead of one card or one unit, or a throw no play can ruff
    /// (only a play all of trumps and of the lead's size takes a throw of a plain suit),
    /// answered on the cards
    pub fn winner(&self, plays: &[&[u8]]) -> usize {
        let order = &self.order;
        let lead = plays[0];
        if lead.len() == 1 {
            return self.single_winner(plays).0;
        }
        let Some(suit) = lead_suit(lead, order) else { return 0 };
        if let Some((w, length, top)) = self.one_unit(lead) {
            return self.unit_winner(plays, suit, w, length, top).0;
        }
        if !order.sjio {
            // (not one unit: `decompose` reads two or more, a throw)
            let ruffs = suit != TRUMP
                && plays[1..].iter().any(|p| p.len() == lead.len() && p.iter().all(|&c| order.eff(c) == TRUMP));
            if !ruffs {
                return 0;
            }
        }
        self.trick_winner(plays).0
    }

    /// `replay.trick.trick_winner`: (winning play index, its units, ruffed).
    pub fn trick_winner(&self, plays: &[&[u8]]) -> (usize, Vec<Unit>, bool) {
        let order = &self.order;
        let lead_cards = plays[0];
        if lead_cards.len() == 1 {
            let (best_i, best_card, ruffed) = self.single_winner(plays);
            let unit = crate::units::single(order, best_card);
            return (best_i, vec![unit], ruffed);
        }
        let suit = lead_suit(lead_cards, order);
        if let (Some(suit), Some((w, length, top))) = (suit, self.one_unit(lead_cards)) {
            // a tuple or a tractor: on the cards (`one_unit`), the winner's unit built once
            let (i, ruffed) = self.unit_winner(plays, suit, w, length, top);
            return (i, vec![self.unit_of(plays[i], w, length)], ruffed);
        }
        let lead = decompose(lead_cards, order);
        let Some(suit) = suit else { return (0, lead, false) };
        if lead.len() == 1 {
            // one unit `one_unit` does not read (`unit_split: shengji_io`'s)
            let u = &lead[0];
            let (i, ruffed) = self.unit_winner(plays, suit, u.width, u.length, u.top);
            if i == 0 {
                return (0, lead, false);
            }
            return (i, vec![self.unit_of(plays[i], u.width, u.length)], ruffed);
        }
        if order.sjio && self.throw_compare == COMPARE_ALL_UNITS {
            // shengji.io (trick.rs compute_winner): its readings in its matcher's order (sjio_winner.rs)
            let (i, reading) = sjio_winner::winner(plays, &lead, order);
            if i == 0 {
                return (0, lead, false);
            }
            let mut won: Vec<Unit> = reading
                .iter()
                .map(|m| {
                    let w = m.iter().map(|e| e.1).min().unwrap_or(1);
                    let cards: Vec<u8> = m.iter().rev().flat_map(|&(c, _)| std::iter::repeat_n(c, w as usize)).collect();
                    Unit { width: w, length: m.len() as u8, top: order.key(m[m.len() - 1].0), cards }
                })
                .collect();
            won.sort_by_key(|u| (-(u.size() as i64), -(u.width as i64), -(u.top as i64)));
            return (i, won, suit != TRUMP && order.eff(plays[i][0]) == TRUMP);
        }
        let shape: Vec<(u8, u8)> = lead.iter().map(|u| u.shape()).collect();
        let (mut best_i, mut best_units, mut best_ruff) = (0usize, lead.clone(), false);
        for (i, cards) in plays.iter().enumerate().skip(1) {
            if cards.len() != lead_cards.len() || cards.is_empty() {
                continue;
            }
            let e = order.eff(cards[0]);
            if e == suit {
                // (the engine's `single` is never set: a play of the led suit never takes a throw)
                continue;
            } else if !(e == TRUMP && suit != TRUMP) {
                continue;
            }
            if cards.iter().any(|&c| order.eff(c) != e) {
                continue;
            }
            let Some(cv) = cover(&shape, cards, order) else { continue };
            let ruff = e != suit;
            if (ruff && !best_ruff) || compare_covers(&cv, &best_units, &lead, self.throw_compare) {
                best_i = i;
                best_units = cv;
                best_ruff = ruff;
            } else if self.throw_compare == COMPARE_ALL_UNITS && ruff == best_ruff {
                for alt in all_covers(&shape, cards, order) {
                    if compare_covers(&alt, &best_units, &lead, COMPARE_ALL_UNITS) {
                        best_i = i;
                        best_units = alt;
                        best_ruff = ruff;
                        break;
                    }
                }
            }
        }
        (best_i, best_units, best_ruff)
    }

    /// `replay.scoring.kitty_multiplier`.
    pub fn kitty_multiplier(&self, winning: &[Unit], play_cards: usize, lead_cards: usize, last_play: &[Unit]) -> i32 {
        kitty_multiplier(self.kitty_multiplier, winning, play_cards, lead_cards, last_play)
    }

    /// `replay.state.last_trick_multiplier`.
    pub fn last_trick_multiplier(&self, winning: &[Unit], lead_cards: usize, last_play: &[u8]) -> i32 {
        let lp = decompose(last_play, &self.order);
        self.kitty_multiplier(winning, lead_cards, lead_cards, &lp)
    }
}

fn largest(units: &[Unit]) -> &Unit {
    let mut best = &units[0];
    for u in &units[1..] {
        let a = (-(u.size() as i64), -(u.width as i64), -(u.top as i64));
        let b = (-(best.size() as i64), -(best.width as i64), -(best.top as i64));
        if a < b {
            best = u;
        }
    }
    best
}

pub fn kitty_multiplier(policy: u8, winning: &[Unit], play_cards: usize, lead_cards: usize, last_play: &[Unit]) -> i32 {
    let top = largest(winning);
    match policy {
        KM_BY_UNIT => 1 << (1 + top.length as u32 * (top.width as u32 - 1)),
        KM_BY_CARDS => 64.min(1i64 << top.size().min(62)) as i32,
        KM_BY_PLAY_CARDS => 1 << play_cards,
        KM_LINEAR => play_cards as i32,
        KM_TITANIC => {
            let titanic = winning.iter().filter(|u| u.width >= 3 && u.length >= 2).map(|u| u.length).max();
            if let Some(l) = titanic {
                return 2 * 3i32.pow(l as u32);
            }
            if winning.iter().any(|u| u.width >= 3) {
                return 6;
            }
            let tractor = winning.iter().filter(|u| u.width == 2 && u.length >= 2).map(|u| u.length).max();
            if let Some(l) = tractor {
                return 2 << l;
            }
            if winning.iter().any(|u| u.width == 2) {
                return 4;
            }
            2
        }
        KM_TIMES_UNIT => 2 * top.size() as i32,
        KM_TIMES_LEAD_CARDS => 2 * lead_cards as i32,
        // shengji-godot: single 1, pair 2, tractor of k pairs 2k; a throw: its largest unit
        KM_UNIT_CARDS => top.size() as i32,
        _ => {
            let units = if last_play.is_empty() { winning } else { last_play };
            if units.len() == 1 {
                return play_cards as i32;
            }
            let big = largest(units);
            if big.length >= 2 {
                2 * big.size() as i32
            } else if big.width >= 2 {
                4
            } else {
                2
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::units::{COMPARE_LARGEST_UNIT, FORCED_SMALLEST, POLICY_PAIRS};

    fn rules(level: u8, trump: u8) -> Rules {
        Rules {
            order: Order::new(level, trump, false, 15),
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
    fn s(r: u8) -> u8 {
        r - 2
    }
    fn h(r: u8) -> u8 {
        13 + r - 2
    }
    fn c(r: u8) -> u8 {
        39 + r - 2
    }

    #[test]
    fn must_follow_suit() {
        let r = rules(2, 1);
        let f = r.legal_follows(&[s(14)], &count(&[s(13), c(4)]));
        assert_eq!(f, vec![vec![s(13)]]);
        // void: any card
        let f = r.legal_follows(&[s(14)], &count(&[h(5), c(4)]));
        assert_eq!(f.len(), 2);
    }

    #[test]
    fn must_follow_pair() {
        let r = rules(2, 1);
        let f = r.legal_follows(&[s(14), s(14)], &count(&[s(9), s(9), s(3), c(4)]));
        assert_eq!(f, vec![vec![s(9), s(9)]]);
    }

    #[test]
    fn trump_ruffs_and_ties_go_first() {
        let r = rules(2, 1);
        let (w, _, ruffed) = r.trick_winner(&[&[s(10)], &[h(3)], &[s(14)], &[c(14)]]);
        assert_eq!((w, ruffed), (1, true));
        // two off-suit level cards tie: the first played wins
        let (w, _, _) = r.trick_winner(&[&[0], &[26], &[h(3)], &[c(3)]]);
        assert_eq!(w, 0);
    }

    #[test]
    fn unit_leads_and_throws() {
        let r = rules(2, 1);
        let leads = r.unit_leads(&count(&[s(3), s(3), s(4), s(4), s(9)]));
        // singles 3, 4, 9; pairs 33, 44; tractor 3344
        assert_eq!(leads.len(), 6);
        let cands = r.throw_candidates(&[s(3), s(3), s(14)], &[&[s(13)], &[], &[]]);
        assert!(cands.iter().any(|(l, _)| *l == vec![s(3), s(3), s(14)]));
        // `throws: no` (shengji-godot): a lead is one unit, so no throw candidates
        let mut r = rules(2, 1);
        r.throws = false;
        assert!(r.throw_candidates(&[s(3), s(3), s(14)], &[&[s(13)], &[], &[]]).is_empty());
    }

    #[test]
    fn unit_leads_as_runs_and_sub_runs() {
        // random holdings (three decks, ♥ trump at level 2: the off-suit 2s one key): the unit
        // leads are every tuple of a card and every window of two or more adjacent keys of
        // `units::runs` at each width (`units::sub_runs`), each card a key the smallest
        use crate::units::{runs, sub_runs};
        let r = rules(2, 1);
        let pool: Vec<u8> = (3..=8).map(s).chain((10..=14).map(h)).chain([0, 26, 39, 13, 52]).collect();
        let mut x: u64 = 0x1234_5678_9abc_def1;
        let (mut tractors, mut n_cases) = (0, 0);
        for _ in 0..3000 {
            let mut hand: Vec<u8> = Vec::new();
            for _ in 0..12 {
                x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                let c = pool[(x >> 33) as usize % pool.len()];
                if hand.iter().filter(|&&d| d == c).count() < 3 {
                    hand.push(c);
                }
            }
            let held = count(&hand);
            let mut want: Vec<Vec<u8>> = Vec::new();
            for suit in 0..5u8 {
                let cards: Vec<(u8, u8)> = held.iter().copied().filter(|e| r.order.eff(e.0) == suit).collect();
                for &(c, n) in &cards {
                    for w in 1..=n {
                        want.push(vec![c; w as usize]);
                    }
                }
                for w in 2..=3u8 {
                    for length in 2..=12u8 {
                        for run in sub_runs(&cards, &r.order.key, w, length) {
                            let mut v: Vec<u8> = run.iter().flat_map(|&c| std::iter::repeat_n(c, w as usize)).collect();
                            v.sort_unstable();
                            want.push(v);
                            tractors += 1;
                        }
                    }
                    assert!(runs(&cards, &r.order.key, w).iter().all(|run| run.len() <= 12));
                }
            }
            want.sort();
            want.dedup();
            assert_eq!(r.unit_leads(&held), want, "{hand:?}");
            n_cases += 1;
        }
        assert!(tractors > 1000 && n_cases == 3000, "{tractors}");
    }

    #[test]
    fn throw_candidates_in_the_engines_order() {
        // (hand, others, the candidates in order): a single only of a card above the others'
        // (♠K ♠A over ♠Q), a pair always; a candidate of one unit is none (♠55 alone)
        let r = rules(2, 1);
        let cases: [(&[u8], &[u8], Vec<Vec<u8>>); 3] = [
            (
                &[s(5), s(5), s(13), s(14)],
                &[s(12)],
                vec![vec![s(13), s(14)], vec![s(5), s(5), s(14)], vec![s(5), s(5), s(13)], vec![s(5), s(5), s(13), s(14)]],
            ),
            // nothing of the others above ♠9: its single counts, the ♠55 pair with it
            (&[s(5), s(5), s(9)], &[s(8)], vec![vec![s(5), s(5), s(9)]]),
            // ♠A held by another: neither ♠K nor ♠Q is a sure single; ♠3344 is one tractor
            (&[s(12), s(13), s(3), s(3), s(4), s(4)], &[s(14)], vec![]),
        ];
        for (hand, others, want) in cases {
            let mut hand = hand.to_vec();
            hand.sort_unstable();
            let got: Vec<Vec<u8>> = r.throw_candidates(&hand, &[others, &[], &[]]).into_iter().map(|x| x.0).collect();
            assert_eq!(got, want, "{hand:?}");
        }
    }

    #[test]
    fn one_unit_and_winner_as_decompose_and_trick_winner() {
        // random tricks, each play drawn from three neighbours of a pool rich in adjacent pairs, level cards of one
        // key (♠2 ♦2) and trumps (♥ at level 2, ♠ at level 5), two and three decks: `one_unit`
        // reads a lead of one suit as one unit exactly when `decompose` does (its shape and top), `winner` names
        // `trick_winner`'s play, and `trick_winner`'s units are `decompose`'s for the lead
        let pool = [s(3), s(4), s(5), s(6), s(7), s(13), s(14), h(5), h(6), h(12), h(14), 0, 26, h(13), 52, 53];
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        let mut rnd = |n: usize| {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            (x >> 33) as usize % n
        };
        let (mut one, mut tractors, mut won) = (0, 0, 0);
        for (level, trump, decks) in [(2u8, 1u8, 2u8), (5, 0, 2), (2, 1, 3)] {
            let r = rules(level, trump);
            for _ in 0..10_000 {
                let n = 2 + rnd(5);
                // each play from three neighbours of the pool (adjacent ranks, mostly of one suit)
                let mut draw = || {
                    let i = rnd(pool.len());
                    let three = [pool[i], pool[(i + 1) % pool.len()], pool[(i + 2) % pool.len()]];
                    let mut v: Vec<u8> = Vec::new();
                    while v.len() < n {
                        let c = three[rnd(3)];
                        if v.iter().filter(|&&d| d == c).count() < decks as usize {
                            v.push(c);
                        }
                    }
                    v.sort_unstable();
                    v
                };
                let plays: Vec<Vec<u8>> = (0..4).map(|_| draw()).collect();
                let refs: Vec<&[u8]> = plays.iter().map(|p| p.as_slice()).collect();
                let units = decompose(&plays[0], &r.order);
                let suited = lead_suit(&plays[0], &r.order).is_some();
                let want = if units.len() == 1 && suited { Some((units[0].width, units[0].length, units[0].top)) } else { None };
                assert_eq!(r.one_unit(&plays[0]), want, "{plays:?}");
                let (w, wunits, _) = r.trick_winner(&refs);
                assert_eq!(r.winner(&refs), w, "{plays:?}");
                if w == 0 && suited {
                    assert_eq!(wunits, units, "{plays:?}");
                }
                one += want.is_some() as usize;
                tractors += want.is_some_and(|u| u.1 >= 2) as usize;
                won += (w != 0) as usize;
            }
        }
        // two ruffing tractors of one top (♥AA with ♠22 or ♦22, the level cards one key): the first
        let r = rules(2, 1);
        let t: [&[u8]; 4] = [&[s(3), s(3), s(4), s(4)], &[0, 0, h(14), h(14)], &[26, 26, h(14), h(14)], &[s(5), s(5), s(6), s(6)]];
        assert_eq!((r.winner(&t), r.trick_winner(&t).0), (1, 1));
        // the draw reaches every case: units, tractors among them, and tricks taken from the lead
        assert!(one > 800 && tractors > 200 && won > 1000, "{one} {tractors} {won}");
    }

    #[test]
    fn kitty_multipliers() {
        let pair = Unit { width: 2, length: 1, top: 0, cards: vec![] };
        let tractor = Unit { width: 2, length: 2, top: 0, cards: vec![] };
        assert_eq!(kitty_multiplier(KM_BY_UNIT, std::slice::from_ref(&pair), 2, 2, &[]), 4);
        assert_eq!(kitty_multiplier(KM_BY_UNIT, std::slice::from_ref(&tractor), 4, 4, &[]), 8);
        assert_eq!(kitty_multiplier(KM_TIMES_UNIT, std::slice::from_ref(&tractor), 4, 4, &[]), 8);
        assert_eq!(kitty_multiplier(KM_TITANIC, &[tractor], 4, 4, &[]), 8);
        assert_eq!(kitty_multiplier(KM_BY_CARDS, &[pair], 2, 2, &[]), 4);
    }

    #[test]
    fn printed_follow_suit() {
        // botzone: a ♥2 pair led at level 2 asks for plain hearts (not the level cards)
        let mut r = rules(2, 0);
        r.printed = true;
        let f = r.legal_follows(&[h(2), h(2)], &count(&[h(9), h(9), h(5), 0, c(4)]));
        assert_eq!(f, vec![vec![h(9), h(9)]]);
        // jokers only: nothing to follow, any two cards
        let f = r.legal_follows(&[52, 52], &count(&[h(9), c(4), c(5)]));
        assert_eq!(f.len(), 3);
    }

    #[test]
    fn pure_tractor_obliges_no_tractor_in_a_throw() {
        let mut r = rules(2, 1);
        r.follow_policy = crate::units::POLICY_PURE_TRACTOR;
        // throw ♠AAKK + ♠Q against ♠99 88 66: pure_tractor owes two pairs (any),
        // pairs owes the tractor ♠9988 (checked against the Python engine)
        let lead = [s(14), s(14), s(13), s(13), s(12)];
        let hold = count(&[s(9), s(9), s(8), s(8), s(6), s(6)]);
        let f = r.legal_follows(&lead, &hold);
        assert!(f.contains(&vec![s(6), s(6), s(8), s(9), s(9)]));
        r.follow_policy = POLICY_PAIRS;
        let f2 = r.legal_follows(&lead, &hold);
        assert!(!f2.contains(&vec![s(6), s(6), s(8), s(9), s(9)]));
        assert!(f2.iter().all(|p| p.iter().filter(|&&x| x == s(8)).count() == 2));
    }

    #[test]
    fn throw_check_policies() {
        let mut r = rules(2, 1);
        // ♠A ♠K ♠9 ♠55 thrown by seat 0: seat 1's ♠66 beats the pair, seat 2's ♠10 the ♠9
        let lead = [s(14), s(13), s(9), s(5), s(5)];
        let holdings = vec![count(&lead), count(&[s(6), s(6)]), count(&[s(10)]), count(&[h(3)])];
        let (blockers, allowed) = r.check_throw(&lead, &holdings);
        assert_eq!(blockers.len(), 2); // the pair by ♠66, the ♠9 by ♠10
        assert_eq!(allowed[0].cards, vec![s(9)]); // smallest: the single
        r.throw_forced = crate::units::FORCED_FIRST_BLOCKER;
        assert_eq!(r.check_throw(&lead, &holdings).1[0].cards, vec![s(5), s(5)]); // seat 1 blocks the pair
        r.throw_forced = crate::units::FORCED_LOWEST;
        assert_eq!(r.check_throw(&lead, &holdings).1[0].cards, vec![s(5), s(5)]); // the lowest top
        r.throw_check = false;
        assert!(r.check_throw(&lead, &holdings).0.is_empty());
    }

    #[test]
    fn a_ruff_beats_a_throw_only_with_its_shape() {
        let r = rules(2, 1);
        let lead: &[u8] = &[s(14), s(13), s(13)];
        let (w, _, ruffed) = r.trick_winner(&[lead, &[h(3), h(4), h(5)], &[h(6), h(6), h(3)]]);
        assert_eq!((w, ruffed), (2, true)); // a pair and a single of trumps: the shape
    }

    #[test]
    fn titanic_and_botzone_multipliers() {
        let titanic = Unit { width: 3, length: 2, top: 0, cards: vec![] };
        assert_eq!(kitty_multiplier(KM_TITANIC, std::slice::from_ref(&titanic), 6, 6, &[]), 18);
        let single = Unit { width: 1, length: 1, top: 0, cards: vec![] };
        let pair = Unit { width: 2, length: 1, top: 0, cards: vec![] };
        assert_eq!(kitty_multiplier(KM_BOTZONE, std::slice::from_ref(&single), 3, 3, &[pair.clone(), single.clone()]), 4);
        assert_eq!(kitty_multiplier(KM_BOTZONE, std::slice::from_ref(&single), 3, 3, &[]), 3);
        assert_eq!(kitty_multiplier(KM_TIMES_LEAD_CARDS, std::slice::from_ref(&pair), 3, 3, &[]), 6);
        assert_eq!(kitty_multiplier(KM_UNIT_CARDS, &[pair, single], 3, 3, &[]), 2);
    }

    #[test]
    fn penalties() {
        let mut r = rules(2, 1);
        r.throw_penalty = PENALTY_PER_CARD;
        assert_eq!(r.throw_penalty(3), 30);
        r.throw_penalty = PENALTY_PER_ATTEMPT;
        assert_eq!(r.throw_penalty(3), 10);
    }
}
