//! shengji.io's fallback shapes (`ordered_card.rs`): every shape of a number of
//! cards, most demanding first, and the ever weaker shapes a follow is checked
//! against after the lead's own. A port of `replay/sjio_fallbacks.py` (pure
//! functions of shapes), the specification; each table is built once per thread.

use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap, HashSet};
use std::rc::Rc;

/// adjacent tuple sizes: `[2]` a pair, `[3, 3]` a Titanic, `[3, 2]` a triple + a pair
pub type Shape = Vec<u8>;
/// one shape the follow is asked for: several units
pub type Requirement = Vec<Shape>;

thread_local! {
    static PARTITIONS: RefCell<HashMap<u8, Rc<Vec<Vec<u8>>>>> = RefCell::new(HashMap::new());
    static ASSIGNMENTS: RefCell<HashMap<usize, Rc<Vec<Vec<Vec<usize>>>>>> = RefCell::new(HashMap::new());
    static FULL: RefCell<HashMap<u8, Rc<Vec<Requirement>>>> = RefCell::new(HashMap::new());
    static FALLBACKS: RefCell<HashMap<Requirement, Rc<Vec<Requirement>>>> = RefCell::new(HashMap::new());
}

/// `tuple_partitions`: the ways to cut `n` cards into tuples, most complex first.
pub fn tuple_partitions(n: u8) -> Rc<Vec<Vec<u8>>> {
    if let Some(got) = PARTITIONS.with(|m| m.borrow().get(&n).cloned()) {
        return got;
    }
    let out: Vec<Vec<u8>> = if n <= 1 {
        vec![vec![1]]
    } else {
        let mut got: BTreeSet<Vec<u8>> = BTreeSet::new();
        for g in tuple_partitions(n - 1).iter() {
            let mut done: Vec<u8> = Vec::new();
            for (i, &v) in g.iter().enumerate() {
                if !done.contains(&v) {
                    done.push(v);
                    let mut h = g.clone();
                    h[i] = v + 1;
                    got.insert(h);
                }
            }
            let mut h = g.clone();
            h.push(1);
            got.insert(h);
        }
        got.into_iter().rev().collect()
    };
    let out = Rc::new(out);
    PARTITIONS.with(|m| m.borrow_mut().insert(n, out.clone()));
    out
}

/// `adjacent_assignments`: every way to group the indices `0..length` into runs,
/// ordered by the longest group (longest first), then the number of groups (fewest first).
pub fn adjacent_assignments(length: usize) -> Rc<Vec<Vec<Vec<usize>>>> {
    if let Some(got) = ASSIGNMENTS.with(|m| m.borrow().get(&length).cloned()) {
        return got;
    }
    let out: Vec<Vec<Vec<usize>>> = if length <= 1 {
        vec![vec![vec![0]]]
    } else {
        let last = length - 1;
        let mut out: Vec<Vec<Vec<usize>>> = Vec::new();
        for part in adjacent_assignments(length - 1).iter() {
            for i in 0..part.len() {
                let mut p = part.clone();
                p[i].push(last);
                out.push(p);
            }
            let mut p = part.clone();
            p.push(vec![last]);
            out.push(p);
        }
        out.sort_by_key(|a| (std::cmp::Reverse(a.iter().map(|g| g.len()).max().unwrap_or(0)), a.len()));
        out.dedup();
        out
    };
    let out = Rc::new(out);
    ASSIGNMENTS.with(|m| m.borrow_mut().insert(length, out.clone()));
    out
}

fn unique<T: Clone + Eq + std::hash::Hash>(items: impl IntoIterator<Item = T>) -> Vec<T> {
    let mut seen: HashSet<T> = HashSet::new();
    let mut out = Vec::new();
    for x in items {
        if seen.insert(x.clone()) {
            out.push(x);
        }
    }
    out
}

/// `itertools.permutations(r)`: every order of the items, in the order of their positions.
fn permutations(r: &[u8]) -> Vec<Vec<u8>> {
    fn rec(r: &[u8], used: &mut Vec<bool>, cur: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
        if cur.len() == r.len() {
            out.push(cur.clone());
            return;
        }
        for i in 0..r.len() {
            if !used[i] {
                used[i] = true;
                cur.push(r[i]);
                rec(r, used, cur, out);
                cur.pop();
                used[i] = false;
            }
        }
    }
    let mut out = Vec::new();
    rec(r, &mut vec![false; r.len()], &mut Vec::new(), &mut out);
    out
}

/// `itertools.product(*choices)`: the last choice varies fastest.
fn product(choices: &[Vec<Vec<u8>>]) -> Vec<Requirement> {
    let mut out: Vec<Requirement> = vec![Vec::new()];
    for ch in choices {
        let mut next = Vec::with_capacity(out.len() * ch.len());
        for prefix in &out {
            for c in ch {
                let mut p = prefix.clone();
                p.push(c.clone());
                next.push(p);
            }
        }
        out = next;
    }
    out
}

/// `sequential_groupings`: the tuple sizes `values` grouped into runs of adjacent ranks in every order.
pub fn sequential_groupings(values: &[u8]) -> Vec<Requirement> {
    let mut out: Vec<Requirement> = Vec::new();
    for assignment in adjacent_assignments(values.len()).iter() {
        let runs: Vec<Vec<u8>> = assignment.iter().map(|g| g.iter().map(|&i| values[i]).collect()).collect();
        if runs.iter().all(|r| r.iter().all(|&v| v == r[0])) {
            out.push(runs);
        } else {
            let choices: Vec<Vec<Vec<u8>>> = runs.iter().map(|r| unique(permutations(r))).collect();
            out.extend(product(&choices));
        }
    }
    unique(out)
}

/// `full_ordering`: every shape of `n` cards, most demanding first.
pub fn full_ordering(n: u8) -> Rc<Vec<Requirement>> {
    if let Some(got) = FULL.with(|m| m.borrow().get(&n).cloned()) {
        return got;
    }
    let mut out: Vec<Requirement> = Vec::new();
    for group in tuple_partitions(n).iter() {
        let wide: Vec<u8> = group.iter().copied().filter(|&v| v > 1).collect();
        let n_ones = group.len() - wide.len();
        if wide.is_empty() {
            out.push(vec![vec![1]; n_ones]);
            continue;
        }
        for runs in sequential_groupings(&wide) {
            let mut req = runs;
            req.extend(std::iter::repeat_n(vec![1u8], n_ones));
            req.sort_by(|a, b| b.cmp(a));
            out.push(req);
        }
    }
    let out = Rc::new(unique(out));
    FULL.with(|m| m.borrow_mut().insert(n, out.clone()));
    out
}

/// `fallbacks`: the shapes asked of a follow after the lead's own, in the engine's order.
pub fn fallbacks(lead: &Requirement) -> Rc<Vec<Requirement>> {
    if let Some(got) = FALLBACKS.with(|m| m.borrow().get(lead).cloned()) {
        return got;
    }
    let reqs: Vec<Shape> = lead
        .iter()
        .map(|u| {
            let mut r = u.clone();
            r.sort_by(|a, b| b.cmp(a));
            r
        })
        .collect();
    let mut out: Vec<Requirement> = Vec::new();
    if !reqs.iter().any(|r| r.is_empty()) {
        let mut left: Vec<Vec<Requirement>> = Vec::new();
        for r in &reqs {
            let full = full_ordering(r.iter().sum());
            let mut rest: Vec<Requirement> = Vec::new();
            for (i, v) in full.iter().enumerate() {
                if v.len() == 1 && v[0] == *r {
                    rest = full[i + 1..].to_vec();
                    break;
                }
            }
            rest.reverse(); // popped from the end: the next shape last
            left.push(rest);
        }
        let mut current: Vec<Requirement> = reqs.iter().map(|r| vec![r.clone()]).collect();
        let mut order: Vec<usize> = (0..reqs.len()).collect();
        loop {
            order.sort_by_key(|&i| std::cmp::Reverse(left[i].len()));
            let i = order[0];
            let Some(next) = left[i].pop() else { break };
            current[i] = next;
            let mut req: Requirement = order.iter().flat_map(|&j| current[j].iter().cloned()).collect();
            req.sort_by(|a, b| b.cmp(a));
            out.push(req);
        }
    }
    let out = Rc::new(out);
    FALLBACKS.with(|m| {
        let mut m = m.borrow_mut();
        if m.len() >= 4096 {
            m.clear();
        }
        m.insert(lead.clone(), out.clone())
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partitions_most_complex_first() {
        assert_eq!(*tuple_partitions(4), vec![vec![4], vec![3, 1], vec![2, 2], vec![2, 1, 1], vec![1, 1, 1, 1]]);
    }

    #[test]
    fn assignments_longest_group_first() {
        let a = adjacent_assignments(3);
        assert_eq!(a[0], vec![vec![0, 1, 2]]);
        assert_eq!(a.len(), 5);
        assert_eq!(*a.last().unwrap(), vec![vec![0], vec![1], vec![2]]);
    }

    #[test]
    fn full_ordering_of_four_cards() {
        // (checked against replay/sjio_fallbacks.py full_ordering(4))
        let f = full_ordering(4);
        assert_eq!(f[0], vec![vec![4]]);
        assert!(f.contains(&vec![vec![2, 2]]));
        assert!(f.contains(&vec![vec![2], vec![2]]));
        assert_eq!(*f.last().unwrap(), vec![vec![1]; 4]);
    }

    #[test]
    fn fallbacks_of_a_tractor() {
        // a tractor led: two pairs, then a pair + singles, then singles
        let got = fallbacks(&vec![vec![2, 2]]);
        assert_eq!(*got, vec![vec![vec![2], vec![2]], vec![vec![2], vec![1], vec![1]], vec![vec![1]; 4]]);
    }
}
