//! Solve positions from a text file (one a line) and print time and nodes: a
//! profiling harness for the search without Python.
//! `SOLVE_LIMIT=n`: the node budget a position (a position past it prints `value=cut`);
//! `SOLVE_TABLE=n`: the table's limit. `python bench/bench_native.py --dump FILE` writes
//! the bench's positions in this format.
//! Line: `K <14 rule args (replay.native.rule_args; a 13th-arg line: unit_split longest)> | <4 attacker flags> <kitty> <leader> | hand | hand | hand | hand`.
use shengji_native::order::Order;
use shengji_native::solver::{Hands, Solver, INF};
use shengji_native::trick::Rules;
use std::time::Instant;

fn main() {
    let path = std::env::args().nth(1).expect("a file of positions");
    let only: Option<usize> = std::env::args().nth(2).map(|s| s.parse().unwrap());
    let text = std::fs::read_to_string(path).unwrap();
    // SOLVE_LIMIT: the node budget a position (3,000,000 unless set)
    let limit: u64 = std::env::var("SOLVE_LIMIT").ok().and_then(|s| s.parse().ok()).unwrap_or(3_000_000);
    let (mut total_nodes, mut total_s) = (0u64, 0f64);
    for line in text.lines() {
        let parts: Vec<&str> = line.split('|').collect();
        let head: Vec<i64> = parts[0].split_whitespace().map(|x| x.parse().unwrap()).collect();
        let k = head[0] as usize;
        if only.is_some_and(|o| o != k) {
            continue;
        }
        let a = &head[1..];
        let rules = Rules {
            order: Order::new(a[0] as u8, a[1] as u8, a[2] != 0, a[3] as u8).with_sjio_split(a.get(13).is_some_and(|&x| x != 0)),
            decks: a[4] as u8,
            throw_check: a[5] != 0,
            throws: a[6] != 0,
            throw_forced: a[7] as u8,
            throw_penalty: a[8] as u8,
            throw_compare: a[9] as u8,
            follow_policy: a[10] as u8,
            printed: a[11] != 0,
            kitty_multiplier: a[12] as u8,
        };
        let mid: Vec<i64> = parts[1].split_whitespace().map(|x| x.parse().unwrap()).collect();
        let attacker = [mid[0] != 0, mid[1] != 0, mid[2] != 0, mid[3] != 0];
        let hv: Vec<Vec<u8>> =
            (0..4).map(|i| parts[2 + i].split_whitespace().map(|x| x.parse().unwrap()).collect()).collect();
        let hands: Hands = Solver::hands(&hv).unwrap();
        let mut s = Solver::new(rules, attacker, mid[4], false);
        s.limit = limit;
        // SOLVE_PLAIN=1: the kitty's bound without the hands' units (the tree before the seventeenth session)
        s.held_units = std::env::var("SOLVE_PLAIN").is_err();
        // SOLVE_NOSURE=1: without the leader's sure rounds (the tree before the twenty-first session)
        s.sure_rounds = std::env::var("SOLVE_NOSURE").is_err();
        // SOLVE_TABLE: the transposition table's limit (entries; 400,000 as the review's unless set)
        if let Some(t) = std::env::var("SOLVE_TABLE").ok().and_then(|s| s.parse().ok()) {
            s.table_limit = t;
        }
        let t = Instant::now();
        let v = s.root(&hands, mid[5] as usize, &[], -INF, INF).map_or("cut".to_string(), |v| v.to_string());
        let dt = t.elapsed().as_secs_f64();
        total_nodes += s.nodes;
        total_s += dt;
        println!("K={k} value={v} nodes={} ms={:.1} nodes/s={:.0}", s.nodes, dt * 1000.0, s.nodes as f64 / dt);
    }
    println!("total nodes={total_nodes} s={total_s:.2} nodes/s={:.0}", total_nodes as f64 / total_s.max(1e-9));
}
