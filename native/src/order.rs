//! Card order for one hand: effective suits and strength keys (RULES.md §2, §3).
//! A port of `replay/order.py`; the Python module is the specification.

pub const NUM_CARDS: usize = 54;
pub const LJ: u8 = 52;
pub const BJ: u8 = 53;
pub const TRUMP: u8 = 4;
pub const NT: u8 = 4;
pub const JOKER_LEVEL: u8 = 15;

/// `tractor_links` as bits
pub const LINK_JOKER: u8 = 1;
pub const LINK_JOKER_LEVEL: u8 = 2;
pub const LINK_LEVEL: u8 = 4;
pub const LINK_LEVEL_TOP: u8 = 8;

/// Point value of each card: 5 → 5, 10 and K → 10 (jokers and the rest 0).
pub const POINTS: [i32; NUM_CARDS] = {
    let mut t = [0i32; NUM_CARDS];
    let mut c = 0;
    while c < 52 {
        t[c] = match c % 13 {
            3 => 5,
            8 | 11 => 10,
            _ => 0,
        };
        c += 1;
    }
    t
};

/// Point value of a card (`POINTS`).
#[inline]
pub fn points(c: u8) -> i32 {
    POINTS[c as usize]
}

#[derive(Clone, Debug)]
pub struct Order {
    pub level: u8,
    pub trump: u8,
    pub two_is_trump: bool,
    pub links: u8,
    pub eff: [u8; NUM_CARDS],
    pub key: [i32; NUM_CARDS],
    /// power[s][c]: how strongly c plays to a one-card trick led in effective suit s
    pub power: [[i32; NUM_CARDS]; 5],
    /// `unit_split: shengji_io`: leads are read as shengji.io reads them (`sjio::split`)
    pub sjio: bool,
    /// succ[c]: the cards next above c on its suit's ladder (key + 1), ascending
    /// (`replay.sjio.successors`)
    pub succ: Vec<Vec<u8>>,
}

impl Order {
    pub fn new(level: u8, trump: u8, two_is_trump: bool, links: u8) -> Order {
        let trump = if level == JOKER_LEVEL { NT } else { trump };
        let mut eff = [0u8; NUM_CARDS];
        let mut key = [0i32; NUM_CARDS];
        let two_trump = two_is_trump && level != 2;
        let is_trump = |c: u8| -> bool {
            if c >= 52 {
                return true;
            }
            let s = c / 13;
            let r = c % 13 + 2;
            r == level || s == trump || (two_trump && r == 2)
        };
        for s in 0..4u8 {
            let mut k = 0;
            for r in 2..15u8 {
                let c = s * 13 + r - 2;
                if is_trump(c) {
                    continue;
                }
                eff[c as usize] = s;
                key[c as usize] = k;
                k += 1;
            }
        }
        let mut last: i32 = -1;
        if trump != NT {
            for r in 2..15u8 {
                let c = trump * 13 + r - 2;
                if r == level || (two_trump && r == 2) {
                    continue;
                }
                last += 1;
                eff[c as usize] = TRUMP;
                key[c as usize] = last;
            }
        }
        let mut place = |cards: &[u8], link: u8, eff: &mut [u8; NUM_CARDS], key: &mut [i32; NUM_CARDS]| {
            if last < 0 {
                last = 0;
            } else {
                last += if link != 0 && links & link != 0 { 1 } else { 2 };
            }
            for &c in cards {
                eff[c as usize] = TRUMP;
                key[c as usize] = last;
            }
        };
        if two_trump {
            let offs: Vec<u8> = (0..4u8).filter(|&s| s != trump).map(|s| s * 13).collect();
            place(&offs, LINK_LEVEL_TOP, &mut eff, &mut key);
            if trump != NT {
                place(&[trump * 13], LINK_LEVEL, &mut eff, &mut key);
            }
        }
        if level != JOKER_LEVEL {
            let offs: Vec<u8> = (0..4u8).filter(|&s| s != trump).map(|s| s * 13 + level - 2).collect();
            place(&offs, LINK_LEVEL_TOP, &mut eff, &mut key);
            if trump != NT {
                place(&[trump * 13 + level - 2], LINK_LEVEL, &mut eff, &mut key);
            }
            place(&[LJ], LINK_JOKER_LEVEL, &mut eff, &mut key);
        } else {
            place(&[LJ], 0, &mut eff, &mut key);
        }
        place(&[BJ], LINK_JOKER, &mut eff, &mut key);
        let mut power = [[0i32; NUM_CARDS]; 5];
        for (s, row) in power.iter_mut().enumerate() {
            for c in 0..NUM_CARDS {
                row[c] = if eff[c] as usize == s {
                    key[c] + 1
                } else if eff[c] == TRUMP {
                    key[c] + 101
                } else {
                    0
                };
            }
        }
        let succ = (0..NUM_CARDS)
            .map(|c| (0..NUM_CARDS as u8).filter(|&d| eff[d as usize] == eff[c] && key[d as usize] == key[c] + 1).collect())
            .collect();
        Order { level, trump, two_is_trump, links, eff, key, power, sjio: false, succ }
    }

    /// This order with `unit_split: shengji_io` on or off.
    pub fn with_sjio_split(mut self, on: bool) -> Order {
        self.sjio = on;
        self
    }

    #[inline]
    pub fn eff(&self, c: u8) -> u8 {
        self.eff[c as usize]
    }

    #[inline]
    pub fn key(&self, c: u8) -> i32 {
        self.key[c as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL: u8 = LINK_JOKER | LINK_JOKER_LEVEL | LINK_LEVEL | LINK_LEVEL_TOP;

    #[test]
    fn level_two_hearts_trump() {
        // level 2, ♥ trump: ♥3..♥A, then the off-suit 2s, ♥2, LJ, BJ (RULES §3)
        let o = Order::new(2, 1, false, ALL);
        assert_eq!(o.eff(13 + 1), TRUMP); // ♥3
        assert_eq!(o.key(13 + 1), 0);
        assert_eq!(o.key(13 + 12), 11); // ♥A
        assert_eq!(o.key(0), 12); // ♠2 (off-suit level card)
        assert_eq!(o.key(26), 12); // ♦2 ties ♠2
        assert_eq!(o.key(13), 13); // ♥2
        assert_eq!(o.key(LJ), 14);
        assert_eq!(o.key(BJ), 15);
        // plain spades: ♠3 is the lowest
        assert_eq!((o.eff(1), o.key(1)), (0, 0));
    }

    #[test]
    fn links_off_leave_gaps() {
        let o = Order::new(2, 1, false, 0);
        assert_eq!(o.key(0), 13); // the ♥A → off-suit 2 bridge is off: gap of 2
        assert_eq!(o.key(13), 15);
        assert_eq!(o.key(LJ), 17);
        assert_eq!(o.key(BJ), 19);
    }

    #[test]
    fn level_taken_out_of_plain_ladder() {
        // level 4: ♠3 and ♠5 adjacent
        let o = Order::new(4, 2, false, ALL);
        assert_eq!(o.key(3) - o.key(1), 1);
        assert_eq!(o.eff(2), TRUMP);
    }

    #[test]
    fn joker_level_is_no_trump() {
        let o = Order::new(JOKER_LEVEL, 1, false, ALL);
        assert_eq!(o.trump, NT);
        assert_eq!(o.eff(13 + 12), 1); // ♥A plain
        assert_eq!((o.key(LJ), o.key(BJ)), (0, 1));
    }

    #[test]
    fn two_is_trump_ladder() {
        let o = Order::new(5, 0, true, ALL);
        assert_eq!(o.eff(13), TRUMP); // ♥2 is a trump
        assert!(o.key(13) < o.key(0)); // off-suit 2 below the trump-suit 2
        assert!(o.key(0) < o.key(13 + 3)); // trump-suit 2 below the off-suit 5s
        assert_eq!(o.power[1][14], o.key(14) + 1); // ♥3 to a heart lead
        assert_eq!(o.power[1][13], o.key(13) + 101); // ♥2 (a trump) ruffs it
        assert_eq!(o.power[0][14], 0); // ♥3 discarded on a spade lead
        assert_eq!(points(3), 5);
        assert_eq!(points(8), 10);
        assert_eq!(points(11), 10);
        assert_eq!(points(LJ), 0);
    }
}
