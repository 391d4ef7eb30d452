//! shengji-native: the play phase of Shengji and an exact endgame solver, a
//! port of the Python engine (`replay/`) and search (`analyzer/search.py`),
//! which stay the specification and the fallback.
//!
//! The Rust library (`order`, `units`, `trick`, `solver`) has no Python in it;
//! the `python` feature (maturin turns it on) adds the module `shengji_native`.
//! Its inputs are validated in Python before they cross (`replay/native.py`),
//! and no panic crosses the boundary: each call runs under `catch_unwind` and a
//! panic becomes `shengji_native.InternalError` (a `RuntimeError`, which the
//! commands report as SJ901).

// the caches' and the search's keys are tuples of card vectors, named where they are used
#![allow(clippy::type_complexity)]

pub mod bot;
pub mod options;
pub mod order;
pub mod sjio;
pub mod sjio_fallbacks;
pub mod sjio_winner;
pub mod solver;
pub mod trick;
pub mod units;

#[cfg(feature = "python")]
mod python {
    use std::cell::RefCell;
    use std::panic::{catch_unwind, AssertUnwindSafe};

    use pyo3::create_exception;
    use pyo3::exceptions::{PyRuntimeError, PyValueError};
    use pyo3::prelude::*;
    use pyo3::types::PyTuple;

    use crate::order::Order;
    use crate::solver::{Hands, Solver, INF};
    use crate::trick::Rules;
    use crate::units::{count, decompose, Unit};

    create_exception!(shengji_native, InternalError, PyRuntimeError);

    thread_local! {
        static LAST_PANIC: RefCell<String> = const { RefCell::new(String::new()) };
    }

    /// Run `f`; a panic becomes `InternalError` with the panic's message.
    fn guard<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
        match catch_unwind(AssertUnwindSafe(f)) {
            Ok(r) => r,
            Err(_) => {
                let msg = LAST_PANIC.with(|m| m.borrow().clone());
                Err(InternalError::new_err(format!("native play-phase core: {msg}")))
            }
        }
    }

    /// The checks of a four-seat play-out's position before it crosses (`bot_playout`,
    /// `bot_playouts`): four hands of (card, count) with at most four decks' cards, seats 0..3,
    /// at most three plays of 1..54 cards, an MT state of 624 words and its index; `more`: the
    /// caller's own bound holds.
    fn four_seat_position(name: &str, hands: &[Vec<(u8, u8)>], leader: usize, dealer: usize, plays: &[Vec<u8>],
                          mt: &[u32], more: bool) -> PyResult<()> {
        if hands.len() != 4 || leader > 3 || dealer > 3 || plays.len() > 3 || mt.len() != 625
            || plays.iter().any(|p| p.is_empty() || p.len() > 54) || mt[624] > 624 || !more {
            return Err(PyValueError::new_err(format!("{name}: four hands, seats 0..3, at most three plays, an MT state")));
        }
        for h in hands {
            cards_ok(&h.iter().map(|e| e.0).collect::<Vec<u8>>())?;
            if h.iter().any(|e| e.1 > 8) || h.iter().map(|e| e.1 as usize).sum::<usize>() > 216 {
                return Err(PyValueError::new_err(format!("{name}: a hand of more cards than four decks deal")));
            }
        }
        for p in plays {
            cards_ok(p)?;
        }
        Ok(())
    }

    fn cards_ok(cards: &[u8]) -> PyResult<()> {
        if cards.iter().any(|&c| c >= 54) {
            return Err(PyValueError::new_err("a card is an int 0..53"));
        }
        Ok(())
    }

    type PyUnit<'py> = Bound<'py, PyTuple>;

    fn unit_py<'py>(py: Python<'py>, u: &Unit) -> PyResult<PyUnit<'py>> {
        let cards = PyTuple::new(py, &u.cards)?;
        PyTuple::new(py, [u.width.into_pyobject(py)?.into_any(), u.length.into_pyobject(py)?.into_any(),
                          u.top.into_pyobject(py)?.into_any(), cards.into_any()])
    }

    fn units_py<'py>(py: Python<'py>, us: &[Unit]) -> PyResult<Vec<PyUnit<'py>>> {
        us.iter().map(|u| unit_py(py, u)).collect()
    }

    /// The play-phase options of one hand: its card order and the ruleset's trick options.
    #[pyclass(module = "shengji_native", frozen)]
    pub struct NativeRules {
        rules: Rules,
    }

    #[pymethods]
    impl NativeRules {
        #[new]
        #[allow(clippy::too_many_arguments)]
        fn new(level: u8, trump: u8, two_is_trump: bool, links: u8, decks: u8, throw_check: bool, throws: bool, throw_forced: u8,
               throw_penalty: u8, throw_compare: u8, follow_policy: u8, printed: bool, kitty_multiplier: u8,
               sjio_split: bool) -> PyResult<Self> {
            if !(2..=15).contains(&level) || trump > 4 || links > 15 || !(1..=4).contains(&decks) || throw_forced > 2
                || throw_penalty > 2 || throw_compare > 2 || follow_policy > 3 || kitty_multiplier > 8 {
                return Err(PyValueError::new_err("NativeRules: an option out of range"));
            }
            guard(|| {
                Ok(NativeRules {
                    rules: Rules {
                        order: Order::new(level, trump, two_is_trump, links).with_sjio_split(sjio_split),
                        decks,
                        throw_check,
                        throws,
                        throw_forced,
                        throw_penalty,
                        throw_compare,
                        follow_policy,
                        printed,
                        kitty_multiplier,
                    },
                })
            })
        }

        /// (effective suit of each card, strength key of each card)
        fn order(&self) -> PyResult<(Vec<u8>, Vec<i32>)> {
            guard(|| Ok((self.rules.order.eff.to_vec(), self.rules.order.key.to_vec())))
        }

        /// the units of cards of one effective suit: (width, length, top, cards)
        fn decompose<'py>(&self, py: Python<'py>, cards: Vec<u8>) -> PyResult<Vec<PyUnit<'py>>> {
            cards_ok(&cards)?;
            guard(|| units_py(py, &decompose(&cards, &self.rules.order)))
        }

        /// every legal follow to `lead` of a player holding `holding` (distinct, cards ascending, sorted)
        fn legal_follows(&self, lead: Vec<u8>, holding: Vec<u8>) -> PyResult<Vec<Vec<u8>>> {
            cards_ok(&lead)?;
            cards_ok(&holding)?;
            if lead.is_empty() || holding.len() < lead.len() {
                return Err(PyValueError::new_err("legal_follows: a lead, and as many cards held"));
            }
            guard(|| Ok(self.rules.legal_follows(&lead, &count(&holding))))
        }

        /// every distinct single-unit lead (cards ascending, sorted)
        fn unit_leads(&self, holding: Vec<u8>) -> PyResult<Vec<Vec<u8>>> {
            cards_ok(&holding)?;
            guard(|| Ok(self.rules.unit_leads(&count(&holding))))
        }

        /// the throw candidates of `hand` (sorted) against the others' cards: [(cards, suit)]
        fn throw_candidates(&self, hand: Vec<u8>, others: Vec<Vec<u8>>) -> PyResult<Vec<(Vec<u8>, u8)>> {
            cards_ok(&hand)?;
            for o in &others {
                cards_ok(o)?;
            }
            let mut hand = hand;
            hand.sort_unstable();
            guard(|| {
                let refs: Vec<&[u8]> = others.iter().map(|o| o.as_slice()).collect();
                Ok(self.rules.throw_candidates(&hand, &refs))
            })
        }

        /// the throw check of a lead: (blockers [(unit, seat index, beating unit)], allowed forced units);
        /// `holdings` in play order, the thrower first, each as the cards in its dict order
        #[allow(clippy::type_complexity)]
        fn check_throw<'py>(&self, py: Python<'py>, lead: Vec<u8>, holdings: Vec<Vec<(u8, u8)>>)
                            -> PyResult<(Vec<(PyUnit<'py>, usize, PyUnit<'py>)>, Vec<PyUnit<'py>>)> {
            cards_ok(&lead)?;
            for h in &holdings {
                cards_ok(&h.iter().map(|e| e.0).collect::<Vec<u8>>())?;
            }
            if lead.is_empty() || holdings.is_empty() {
                return Err(PyValueError::new_err("check_throw: a lead and the holdings"));
            }
            guard(|| {
                let (blockers, allowed) = self.rules.check_throw(&lead, &holdings);
                let mut bs = Vec::new();
                for b in &blockers {
                    bs.push((unit_py(py, &b.unit)?, b.seat, unit_py(py, &b.by)?));
                }
                Ok((bs, units_py(py, &allowed)?))
            })
        }

        /// a trick's winner: (index, winning units, ruffed, points, kitty multiplier if it is the last)
        #[allow(clippy::type_complexity)]
        fn trick_result<'py>(&self, py: Python<'py>, plays: Vec<Vec<u8>>)
                             -> PyResult<(usize, Vec<PyUnit<'py>>, bool, i32, i32)> {
            for p in &plays {
                cards_ok(p)?;
            }
            if plays.is_empty() || plays[0].is_empty() {
                return Err(PyValueError::new_err("trick_result: a trick has a lead"));
            }
            guard(|| {
                let refs: Vec<&[u8]> = plays.iter().map(|p| p.as_slice()).collect();
                let (w, units, ruffed) = self.rules.trick_winner(&refs);
                let pts: i32 = plays.iter().flatten().map(|&c| crate::order::points(c)).sum();
                let mult = self.rules.last_trick_multiplier(&units, plays[0].len(), plays.last().unwrap());
                Ok((w, units_py(py, &units)?, ruffed, pts, mult))
            })
        }

        /// The bots' play-out of a four-seat fixed-partners hand (`native/src/bot.rs`,
        /// `analyzer.review.mistakes.decisions.play_to_end`): `hands` N W S E, each as the
        /// (card, copies) of its Counter in order; `plays` the current trick as played; `first`: a play pushed
        /// before the bots play (`play_to_end`'s `play`);
        /// `mt` the 624 words and index of `random.Random.getstate()`; `params`
        /// (throw_chance, risky_throw_chance, ruff_chance, endgame). (final attacker points,
        /// hooked, the plays as chosen when `record`, the generator's state after as a tuple, the
        /// number of plays made) or None where the Python
        /// bot would give way to the cheapest legal play (the caller plays it in Python).
        #[allow(clippy::too_many_arguments)]
        #[pyo3(signature = (hands, leader, plays, penalty, dealer, kitty_points, attacker_points, mt, params,
                            first=None, record=false))]
        fn bot_playout<'py>(&self, py: Python<'py>, hands: Vec<Vec<(u8, u8)>>, leader: usize, plays: Vec<Vec<u8>>,
                            penalty: i32, dealer: usize, kitty_points: i64, attacker_points: i64, mt: Vec<u32>,
                            params: (f64, f64, f64, usize), first: Option<Vec<u8>>, record: bool)
                            -> PyResult<Option<(i64, bool, Option<Vec<Vec<u8>>>, Bound<'py, PyTuple>, usize)>> {
            if let Some(f) = &first {
                cards_ok(f)?;
                if f.is_empty() || f.len() > 54 {
                    return Err(PyValueError::new_err("bot_playout: a first play of 1..54 cards"));
                }
            }
            four_seat_position("bot_playout", &hands, leader, dealer, &plays, &mt, true)?;
            guard(|| {
                let rng = crate::bot::Mt::from_state(&mt[..624], mt[624] as usize)
                    .ok_or_else(|| PyValueError::new_err("bot_playout: an MT state"))?;
                let params = crate::bot::Params { throw_chance: params.0, risky_throw_chance: params.1,
                                                  ruff_chance: params.2, endgame: params.3 };
                let mut po = crate::bot::Playout::new(&self.rules, params, rng, hands, leader, plays, penalty, dealer,
                                                      kitty_points, attacker_points);
                po.record = record;
                match po.run(first) {
                    Ok(end) => {
                        let mut st = end.rng.state.to_vec();
                        st.push(end.rng.index as u32);
                        let moves = if record { Some(end.moves) } else { None };
                        Ok(Some((end.final_points, end.hooked, moves, PyTuple::new(py, st)?, end.pushed)))
                    }
                    Err(_) => Ok(None),
                }
            })
        }

        /// `bot_playout` at a finding-friends table of 4..8 seats in play order: `members` the
        /// dealer's team as revealed (the dealer first), `calls` (card, seat or -1, skips left,
        /// revealed), `held` the rule, `won`/`pen` each seat's trick points and led penalties so
        /// far, `place` each card's place in display order. (final points, hooked, moves, the
        /// generator's state, plays pushed, the dealer's team at the end), or None.
        #[allow(clippy::too_many_arguments, clippy::type_complexity)]
        #[pyo3(signature = (hands, leader, plays, penalty, dealer, kitty_points, mt, params, members, calls, held,
                            won, pen, place, first=None, record=false))]
        fn bot_playout_friends<'py>(&self, py: Python<'py>, hands: Vec<Vec<(u8, u8)>>, leader: usize, plays: Vec<Vec<u8>>,
                                    penalty: i32, dealer: usize, kitty_points: i64, mt: Vec<u32>,
                                    params: (f64, f64, f64, usize), members: Vec<usize>, calls: Vec<(u8, i64, u32, bool)>,
                                    held: bool, won: Vec<i64>, pen: Vec<i64>, place: Vec<i32>, first: Option<Vec<u8>>,
                                    record: bool)
                                    -> PyResult<Option<(i64, bool, Option<Vec<Vec<u8>>>, Bound<'py, PyTuple>, usize, Vec<usize>)>> {
            let n = hands.len();
            if let Some(f) = &first {
                cards_ok(f)?;
                if f.is_empty() || f.len() > 54 {
                    return Err(PyValueError::new_err("bot_playout_friends: a first play of 1..54 cards"));
                }
            }
            if !(4..=8).contains(&n) || leader >= n || dealer >= n || plays.len() >= n || mt.len() != 625
                || plays.iter().any(|p| p.is_empty() || p.len() > 54) || mt[624] > 624
                || members.is_empty() || members.len() > n || members.iter().any(|&m| m >= n)
                || calls.len() > 8 || calls.iter().any(|c| c.0 >= 54 || c.1 < -1 || c.1 >= n as i64 || c.2 > 8)
                || won.len() != n || pen.len() != n || place.len() != 54
                || won.iter().chain(pen.iter()).any(|x| x.abs() > 1 << 40) {
                return Err(PyValueError::new_err(
                    "bot_playout_friends: 4..8 hands, seats in range, fewer plays than seats, an MT state, a team, calls"));
            }
            for h in &hands {
                cards_ok(&h.iter().map(|e| e.0).collect::<Vec<u8>>())?;
                if h.iter().any(|e| e.1 > 8) || h.iter().map(|e| e.1 as usize).sum::<usize>() > 216 {
                    return Err(PyValueError::new_err("bot_playout_friends: a hand of more cards than four decks deal"));
                }
            }
            for p in &plays {
                cards_ok(p)?;
            }
            guard(|| {
                let rng = crate::bot::Mt::from_state(&mt[..624], mt[624] as usize)
                    .ok_or_else(|| PyValueError::new_err("bot_playout_friends: an MT state"))?;
                let params = crate::bot::Params { throw_chance: params.0, risky_throw_chance: params.1,
                                                  ruff_chance: params.2, endgame: params.3 };
                let calls = calls.iter().map(|&(card, seat, skips, revealed)| crate::bot::Call {
                    card, seat: if seat < 0 { None } else { Some(seat as usize) }, skips, revealed }).collect();
                let friends = crate::bot::Friends { members, calls, held, won, pen };
                let mut po = crate::bot::Playout::new(&self.rules, params, rng, hands, leader, plays, penalty, dealer,
                                                      kitty_points, 0)
                    .with_friends(friends, place);
                po.record = record;
                match po.run(first) {
                    Ok(end) => {
                        let mut st = end.rng.state.to_vec();
                        st.push(end.rng.index as u32);
                        let moves = if record { Some(end.moves) } else { None };
                        Ok(Some((end.final_points, end.hooked, moves, PyTuple::new(py, st)?, end.pushed, end.team)))
                    }
                    Err(_) => Ok(None),
                }
            })
        }

        fn throw_penalty(&self, attempted: usize) -> i32 {
            self.rules.throw_penalty(attempted)
        }

        /// The review's options of a follow (`native/src/options.rs`,
        /// `decisions.options_of`): the legal follows to `lead` of a seat holding `holding`
        /// but `chosen`, all of them (sorted) or, when there are more than `keep`, the `keep`
        /// cheapest (`Solver.cheap_key`, ties in sorted order); and how many there are.
        fn follow_options(&self, lead: Vec<u8>, holding: Vec<(u8, u8)>, chosen: Vec<u8>, keep: usize)
                          -> PyResult<(Vec<Vec<u8>>, usize)> {
            cards_ok(&lead)?;
            cards_ok(&chosen)?;
            cards_ok(&holding.iter().map(|e| e.0).collect::<Vec<u8>>())?;
            let held: usize = holding.iter().map(|e| e.1 as usize).sum();
            if lead.is_empty() || lead.len() > 54 || held < lead.len() || held > 216 || holding.iter().any(|e| e.1 > 8) {
                return Err(PyValueError::new_err("follow_options: a lead, and as many cards held (at most 8 copies)"));
            }
            guard(|| {
                let holding: Vec<(u8, u8)> = holding.into_iter().filter(|e| e.1 > 0).collect();
                Ok(crate::options::follow_options(&self.rules, &lead, &holding, &chosen, keep))
            })
        }

        /// `bot_playout` of each of `firsts` from one position and one generator state (the
        /// review's options of a sampled deal, `decisions.option_ends`): for each, (final
        /// attacker points, hooked, plays pushed), or None where `bot_playout` gives None or
        /// the play may not cross (then the caller plays that option in Python).
        #[allow(clippy::too_many_arguments, clippy::type_complexity)]
        fn bot_playouts(&self, hands: Vec<Vec<(u8, u8)>>, leader: usize, plays: Vec<Vec<u8>>, penalty: i32,
                        dealer: usize, kitty_points: i64, attacker_points: i64, mt: Vec<u32>,
                        params: (f64, f64, f64, usize), firsts: Vec<Vec<u8>>)
                        -> PyResult<Vec<Option<(i64, bool, usize)>>> {
            four_seat_position("bot_playouts", &hands, leader, dealer, &plays, &mt, firsts.len() <= 4096)?;
            guard(|| {
                let rng = crate::bot::Mt::from_state(&mt[..624], mt[624] as usize)
                    .ok_or_else(|| PyValueError::new_err("bot_playouts: an MT state"))?;
                let params = crate::bot::Params { throw_chance: params.0, risky_throw_chance: params.1,
                                                  ruff_chance: params.2, endgame: params.3 };
                let mut out = Vec::with_capacity(firsts.len());
                for f in firsts {
                    if f.is_empty() || f.len() > 54 || f.iter().any(|&c| c >= 54) {
                        out.push(None);
                        continue;
                    }
                    let po = crate::bot::Playout::new(&self.rules, params, rng.clone(), hands.clone(), leader,
                                                      plays.clone(), penalty, dealer, kitty_points, attacker_points);
                    out.push(po.run(Some(f)).ok().map(|end| (end.final_points, end.hooked, end.pushed)));
                }
                Ok(out)
            })
        }
    }

    /// The exact endgame search of one hand (four seats N W S E, fixed partners).
    #[pyclass(module = "shengji_native", unsendable)]
    pub struct NativeSolver {
        solver: Solver,
    }

    fn hands_of(hands: Vec<Vec<u8>>) -> PyResult<Hands> {
        if hands.len() != 4 {
            return Err(PyValueError::new_err("four hands"));
        }
        for h in &hands {
            cards_ok(h)?;
        }
        Solver::hands(&hands).ok_or_else(|| PyValueError::new_err("a hand of more cards than four decks deal"))
    }

    #[pymethods]
    impl NativeSolver {
        #[new]
        #[allow(clippy::too_many_arguments)]
        fn new(rules: &NativeRules, attacker: [bool; 4], kitty_points: i64, last_trick: bool, table_limit: usize,
               trim_mask: u64, cache_limit: usize) -> PyResult<Self> {
            guard(|| {
                let mut solver = Solver::new(rules.rules.clone(), attacker, kitty_points, last_trick);
                solver.table_limit = table_limit;
                solver.trim_mask = trim_mask;
                solver.cache_limit = cache_limit;
                Ok(NativeSolver { solver })
            })
        }

        /// The value of a position within (alpha, beta), fail-soft (`Solver._root`):
        /// (value, nodes after, budget exceeded). `nodes`: the count so far, `limit`: the cap.
        #[allow(clippy::too_many_arguments)]
        fn search(&mut self, hands: Vec<Vec<u8>>, leader: usize, plays: Vec<Vec<u8>>, alpha: i64, beta: i64,
                  nodes: u64, limit: u64) -> PyResult<(i64, u64, bool)> {
            let hands = hands_of(hands)?;
            if leader > 3 || plays.len() > 3 || plays.iter().any(|p| p.is_empty() || p.len() > 54) {
                return Err(PyValueError::new_err("a leader 0..3 and at most three plays"));
            }
            for p in &plays {
                cards_ok(p)?;
            }
            let alpha = alpha.clamp(-INF, INF);
            let beta = beta.clamp(-INF, INF);
            guard(|| {
                self.solver.nodes = nodes;
                self.solver.limit = limit;
                match self.solver.root(&hands, leader, &plays, alpha, beta) {
                    Ok(v) => Ok((v, self.solver.nodes, false)),
                    Err(_) => Ok((0, self.solver.nodes, true)),
                }
            })
        }

        /// `Solver.playout`: the attackers' points to the end along the search's first moves
        fn playout(&mut self, hands: Vec<Vec<u8>>, leader: usize, plays: Vec<Vec<u8>>) -> PyResult<i64> {
            let hands = hands_of(hands)?;
            if leader > 3 || plays.len() > 3 || plays.iter().any(|p| p.is_empty() || p.len() > 54) {
                return Err(PyValueError::new_err("a leader 0..3 and at most three plays"));
            }
            for p in &plays {
                cards_ok(p)?;
            }
            guard(|| Ok(self.solver.playout(&hands, leader, &plays)))
        }

        /// the best lead the table holds for a trick-start position, or None
        fn table_move(&mut self, hands: Vec<Vec<u8>>, leader: usize) -> PyResult<Option<Vec<u8>>> {
            let hands = hands_of(hands)?;
            guard(|| Ok(self.solver.table_move(&hands, leader)))
        }

        /// `Solver._trim`: empty the table and the caches past their limits
        fn trim(&mut self, table_limit: usize, cache_limit: usize) -> PyResult<()> {
            guard(|| {
                self.solver.table_limit = table_limit;
                self.solver.cache_limit = cache_limit;
                self.solver.trim();
                Ok(())
            })
        }

        fn table_len(&self) -> usize {
            self.solver.table_len()
        }
    }

    /// The sampler's deal of the hidden cards (`native/src/options.rs`, `pov._deal`): `eff` each
    /// card's effective suit, `sizes` each slot's cards to take, `voids` each slot's void suits,
    /// `pins` (card, slot indices), `mt` the 624 words and index of `random.Random.getstate()`.
    /// (each slot's cards in the order dealt, or None; the generator's state after as a tuple)
    #[pyfunction]
    #[allow(clippy::type_complexity, clippy::too_many_arguments)]  // (the Python signature: one argument a piece of the deal)
    fn sample_deal<'py>(py: Python<'py>, eff: Vec<u8>, pool: Vec<u8>, sizes: Vec<usize>, voids: Vec<Vec<u8>>,
                        pins: Vec<(u8, Vec<usize>)>, mt: Vec<u32>, tries: usize)
                        -> PyResult<(Option<Vec<Vec<u8>>>, Bound<'py, PyTuple>)> {
        cards_ok(&pool)?;
        cards_ok(&pins.iter().map(|p| p.0).collect::<Vec<u8>>())?;
        if eff.len() != 54 || eff.iter().any(|&e| e > 4) || sizes.len() != voids.len() || sizes.len() > 64
            || pool.len() > 432 || pins.len() > 432 || mt.len() != 625 || mt[624] > 624 || tries > 1000 {
            return Err(PyValueError::new_err("sample_deal: 54 suits 0..4, a void list a slot, an MT state"));
        }
        guard(|| {
            let mut rng = crate::bot::Mt::from_state(&mt[..624], mt[624] as usize)
                .ok_or_else(|| PyValueError::new_err("sample_deal: an MT state"))?;
            let mut suits = [0u8; 54];
            suits.copy_from_slice(&eff);
            let got = crate::options::deal(&suits, &pool, &sizes, &voids, &pins, &mut rng, tries);
            let mut st = rng.state.to_vec();
            st.push(rng.index as u32);
            Ok((got, PyTuple::new(py, st)?))
        })
    }

    /// `count` successive [`sample_deal`]s from one generator in one call (the same deals, each
    /// from the state the one before leaves): the generator's 625 words cross once, not twice a
    /// deal. (each deal or None, in the order drawn; the generator's state after the last)
    #[pyfunction]
    #[allow(clippy::type_complexity, clippy::too_many_arguments)]  // (sample_deal's arguments, and how many)
    fn sample_deals<'py>(py: Python<'py>, eff: Vec<u8>, pool: Vec<u8>, sizes: Vec<usize>, voids: Vec<Vec<u8>>,
                         pins: Vec<(u8, Vec<usize>)>, mt: Vec<u32>, tries: usize, count: usize)
                         -> PyResult<(Vec<Option<Vec<Vec<u8>>>>, Bound<'py, PyTuple>)> {
        cards_ok(&pool)?;
        cards_ok(&pins.iter().map(|p| p.0).collect::<Vec<u8>>())?;
        if eff.len() != 54 || eff.iter().any(|&e| e > 4) || sizes.len() != voids.len() || sizes.len() > 64
            || pool.len() > 432 || pins.len() > 432 || mt.len() != 625 || mt[624] > 624 || tries > 1000
            || count > 4096 {
            return Err(PyValueError::new_err(
                "sample_deals: 54 suits 0..4, a void list a slot, an MT state, at most 4096 deals"));
        }
        guard(|| {
            let mut rng = crate::bot::Mt::from_state(&mt[..624], mt[624] as usize)
                .ok_or_else(|| PyValueError::new_err("sample_deals: an MT state"))?;
            let mut suits = [0u8; 54];
            suits.copy_from_slice(&eff);
            let got: Vec<Option<Vec<Vec<u8>>>> = (0..count)
                .map(|_| crate::options::deal(&suits, &pool, &sizes, &voids, &pins, &mut rng, tries))
                .collect();
            let mut st = rng.state.to_vec();
            st.push(rng.index as u32);
            Ok((got, PyTuple::new(py, st)?))
        })
    }

    /// For tests: a panic inside a guarded call (it must come out as InternalError).
    #[pyfunction]
    fn _panic_for_tests() -> PyResult<()> {
        guard(|| -> PyResult<()> { panic!("a test panic") })
    }

    #[pymodule]
    fn shengji_native(m: &Bound<'_, PyModule>) -> PyResult<()> {
        std::panic::set_hook(Box::new(|info| {
            let msg = if let Some(s) = info.payload().downcast_ref::<&str>() {
                s.to_string()
            } else if let Some(s) = info.payload().downcast_ref::<String>() {
                s.clone()
            } else {
                "panic".to_string()
            };
            let at = info.location().map(|l| format!(" at {}:{}", l.file(), l.line())).unwrap_or_default();
            LAST_PANIC.with(|m| *m.borrow_mut() = format!("{msg}{at}"));
        }));
        m.add("InternalError", m.py().get_type::<InternalError>())?;
        m.add_class::<NativeRules>()?;
        m.add_class::<NativeSolver>()?;
        m.add_function(wrap_pyfunction!(_panic_for_tests, m)?)?;
        m.add_function(wrap_pyfunction!(sample_deal, m)?)?;
        m.add_function(wrap_pyfunction!(sample_deals, m)?)?;
        m.add("__version__", env!("CARGO_PKG_VERSION"))?;
        // the play-phase options this build knows beyond the first port (replay/native.py checks them)
        m.add("FEATURES", ("shengji_io",))?;
        Ok(())
    }
}
