/* Shengji replay viewer: draws the report held in #data (no framework, no network).
   Steps of a hand: 0 = deal, declarations and bury; k = trick k; T+1 = the hand's result. */
(function () {
  "use strict";
  var DATA = JSON.parse(document.getElementById("data").textContent);
  var SEATS = ["N", "W", "S", "E"];
  var NAMES = {N: "North", W: "West", S: "South", E: "East"};
  var SYM = {S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663"};
  var RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "Joker"];
  var matches = DATA.matches || [];
  var trumpsOf = (DATA.viewer && DATA.viewer.trumps) || [];
  /* per hand whose bury was reviewed: the 54 cards in the engine's display order (replay.order.Order.sorted) */
  var ordersOf = (DATA.viewer && DATA.viewer.orders) || [];
  var state = {m: 0, h: 0, i: 0, s: 0, p: 0, view: ""};
  var cache = {};
  var shown = "";

  function $(id) { return document.getElementById(id); }
  function esc(x) {
    return String(x == null ? "" : x).replace(/[&<>"']/g, function (c) {
      return {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c];
    });
  }
  function team(seat) { return seat === "N" || seat === "S" ? "NS" : seat.charAt(0) === "P" ? "P" : "EW"; }
  /* the hand's table in play order: N W S E, or (finding friends) P1…Pn */
  function seatsOf(H) { return (H && H.seats) || SEATS; }
  /* finding friends: is friend f known at trick s after p plays of it (the friend card played)? */
  function revealed(H, f, s, p) {
    if (!f.seat || f.trick == null) return false;
    if (f.trick < s || s > H.tricks.length) return true;
    if (f.trick > s) return false;
    var t = H.tricks[s - 1], k = t.plays.map(function (x) { return x.seat; }).indexOf(f.seat);
    return k >= 0 && k < p;
  }
  /* the dealer's team as known at trick s after p plays (friends join when their card is played) */
  function teamAt(H, s, p) {
    if (!H.team) return null;
    var t = [H.dealer];
    (H.friends || []).forEach(function (f) {
      if (revealed(H, f, s, p) && t.indexOf(f.seat) < 0) t.push(f.seat);
    });
    return t;
  }
  function allKnown(H, s, p) {
    return !H.team || (H.friends || []).every(function (f) { return revealed(H, f, s, p); });
  }
  /* the friend calls ("1st \u2665A"), coloured */
  function callsHTML(H) {
    return (H.friends || []).map(function (f) {
      return '<span class="call">' + esc(f.call).replace(/([\u2665\u2666][^ ]*)/g, '<span class="red">$1</span>') + "</span>";
    }).join(", ");
  }
  /* the attackers as known then: finding friends hides them until every friend card is out */
  function attackersAt(H, s, p) {
    if (!H.team) return teamHTML(H.attackers);
    var fr = H.friends || [], out = fr.filter(function (f) { return !revealed(H, f, s, p); }).length;
    if (!out) return teamHTML(H.attackers);
    var known = teamAt(H, s, p);
    return '<span class="seats unknown-team" title="the friend call is not yet answered: the teams are not known">not yet known (' +
      esc(known.join(" ")) + " + " + plural(out, "friend") + " to come)</span>";
  }
  function teamHTML(t) {
    if (t && (t.indexOf(" ") >= 0 || t.charAt(0) === "P")) return '<span class="seats">' + esc(t) + "</span>";  /* finding friends */
    return t ? '<span class="team ' + esc(t) + '">' + esc(t) + "</span>" : "?";
  }
  function plural(n, word) { return n + " " + (n === 1 ? word : /[^aeiou]y$/.test(word) ? word.slice(0, -1) + "ies" : word + "s"); }

  /* the review's card text writes suits as symbols ("\u2660K10 \u2665AA"): their SJN letters */
  var SUIT = {"\u2660": "S", "\u2665": "H", "\u2666": "D", "\u2663": "C"};
  /* SJN card text ("SAKK H10 BJ", or the review's "\u2660AKK \u266510 BJ") -> tokens ["SA", "SK", "SK", "H10", "BJ"] */
  function parseCards(text) {
    var out = [];
    if (!text) return out;
    text.split(/\s+/).forEach(function (g) {
      if (!g) return;
      if (g === "BJ" || g === "LJ") { out.push(g); return; }
      var s = SUIT[g.charAt(0)] || g.charAt(0).toUpperCase(), i = 1;
      while (i < g.length) {
        if (g.substr(i, 2) === "10") { out.push(s + "10"); i += 2; continue; }
        var r = g.charAt(i).toUpperCase();
        out.push(s + (r === "T" ? "10" : r));
        i += 1;
      }
    });
    return out;
  }
  /* SJN card text in suit symbols, coloured (for running text) */
  function symHTML(text) {
    if (!text) return "";
    return text.split(/\s+/).map(function (g) {
      if (g === "BJ") return '<span class="red">BJ</span>';
      if (g === "LJ") return "LJ";
      var s = SUIT[g.charAt(0)] || g.charAt(0), sym = SYM[s] || s, red = s === "H" || s === "D";
      return '<span class="' + (red ? "red" : "") + '">' + sym + esc(g.slice(1)) + "</span>";
    }).join(" ");
  }
  function trumpName(t) {
    if (t == null) return "?";
    return t === "NT" ? "no trump" : SYM[t];
  }

  function cardHTML(c, trumps, extra) {
    var cls, rank, pip, title;
    if (c === "BJ" || c === "LJ") {
      cls = "joker " + c.toLowerCase();
      rank = c; pip = c === "BJ" ? "\u2605" : "\u2606";
      title = c === "BJ" ? "big joker" : "little joker";
    } else {
      var s = c.charAt(0);
      rank = c.slice(1); pip = SYM[s] || s;
      cls = s === "H" || s === "D" ? "red" : "black";
      title = rank + pip;
    }
    if (trumps && trumps.has(c)) { cls += " trump"; title += " (trump)"; }
    if (extra) cls += " " + extra;
    return '<span class="card ' + cls + '" data-card="' + esc(c) + '" data-pip="' + pip + '" title="' + esc(title) +
      '"><b' + (rank === "10" ? ' class="t"' : "") + ">" + esc(rank) + "</b><i>" + pip + "</i></span>";
  }
  function cardsHTML(cards, trumps) {
    return '<span class="cards">' + cards.map(function (c) { return cardHTML(c, trumps); }).join("") + "</span>";
  }
  /* a holding in suit groups: trumps, then each plain suit (the report sorts cards in trump order) */
  function handHTML(cards, trumps, marked) {
    var groups = [], key = null, left = {};
    (marked || []).forEach(function (c) { left[c] = (left[c] || 0) + 1; });
    cards.forEach(function (c) {
      var k = trumps.has(c) ? "T" : (c === "BJ" || c === "LJ" ? "J" : c.charAt(0));
      if (k !== key) { groups.push([]); key = k; }
      groups[groups.length - 1].push(c);
    });
    return groups.map(function (g) {
      return '<div class="group">' + g.map(function (c) {
        if (!left[c]) return cardHTML(c, trumps);
        left[c]--;
        return cardHTML(c, trumps, "returned");
      }).join("") + "</div>";
    }).join("");
  }

  /* per hand: holdings after k tricks (start hands less the cards played, like HandResult.hands_at),
     and the diagnostics / mistakes placed at their step */
  function prep(mi, hi) {
    var key = mi + ":" + hi;
    if (cache[key]) return cache[key];
    var M = matches[mi], H = M.hands[hi], T = H.tricks.length;
    var ttext = trumpsOf[mi] ? trumpsOf[mi][hi] : null;
    var trumps = new Set(parseCards(ttext));
    var otext = ordersOf[mi] ? ordersOf[mi][hi] : null, place0 = null;
    if (otext) { place0 = {}; parseCards(otext).forEach(function (c, k) { if (!(c in place0)) place0[c] = k; }); }
    var start = H.start_hands || {}, cur = {}, hands = [];
    seatsOf(H).forEach(function (s) { cur[s] = parseCards(start[s]); });
    hands.push(cur);
    H.tricks.forEach(function (t) {
      var nxt = {};
      seatsOf(H).forEach(function (s) { nxt[s] = cur[s].slice(); });
      t.plays.forEach(function (p) {
        var hand = nxt[p.seat];
        if (!hand) return;
        parseCards(p.cards).forEach(function (c) {
          var i = hand.indexOf(c);
          if (i >= 0) hand.splice(i, 1);
        });
      });
      hands.push(nxt);
      cur = nxt;
    });
    var notes = [];
    for (var i = 0; i <= T + 1; i++) notes.push([]);
    function place(d, kind) {
      var step;
      if (d.trick != null) step = d.trick >= 1 && d.trick <= T ? d.trick : T + 1;
      else step = /^SJ5/.test(d.code || "") ? T + 1 : 0;
      var n = {kind: kind};
      for (var k in d) n[k] = d[k];
      notes[step].push(n);
      return n;
    }
    /* the report lists each player's mistakes: the seat of an annotation, for its play on the table */
    var seatOf = {};
    seatsOf(H).forEach(function (seat) {
      var p = M.players && M.players[seat];
      ((p && p.mistakes) || []).forEach(function (d) { seatOf[noteKey(d)] = seat; });
    });
    (H.diagnostics || []).forEach(function (d) { place(d, "diagnostic"); });
    (M.annotations || []).forEach(function (d) {
      if (d.hand === H.number) place(d, "mistake").seat = seatOf[noteKey(d)] || null;
    });
    /* the positions of the hand, play by play: the deal, each play of each trick, the result */
    var pos = [{s: 0, p: 0, n: 0}];
    H.tricks.forEach(function (t, k) {
      var n = t.plays.length;
      if (!n) pos.push({s: k + 1, p: 0, n: 0});
      for (var j = 1; j <= n; j++) pos.push({s: k + 1, p: j, n: n});
    });
    pos.push({s: T + 1, p: 0, n: 0});
    var P = {M: M, H: H, T: T, hands: hands, trumps: trumps, known: !!ttext, notes: notes, pos: pos, place: place0};
    P.decisions = decisionsOf(P);
    P.bury = buryOf(P);
    P.decls = declsOf(P);
    /* the review's marks (mistakes, blunders, …) at their position, for next / previous mistake */
    var marks = {};
    notes.forEach(function (list, st) {
      list.forEach(function (n) {
        if (n.kind !== "mistake" || bandOf(n) === "note") return;
        marks[posIndex(P, st, playIndex(P, st, n.seat) + 1)] = true;
      });
    });
    P.decisions.forEach(function (d) {
      if (d.band) marks[posIndex(P, d.trick, d.play_index + 1)] = true;
    });
    if (P.bury && P.bury.band) marks[0] = true;        /* the bury: at the deal, before trick 1 */
    P.decls.forEach(function (d) { if (d.band) marks[0] = true; });   /* a declaration: the deal too */
    P.marks = Object.keys(marks).map(Number).sort(function (a, b) { return a - b; });
    return (cache[key] = P);
  }
  /* the index in P.pos of trick s after p plays (p past the trick: its last play) */
  function posIndex(P, s, p) {
    if (s <= 0) return 0;
    if (s > P.T) return P.pos.length - 1;
    for (var i = 0; i < P.pos.length; i++) {
      var q = P.pos[i];
      if (q.s === s && (q.p >= p || q.p === q.n)) return i;
    }
    return 0;
  }
  /* 0-based index of seat's play in trick s (-1 when not there: its last play) */
  function playIndex(P, s, seat) {
    var t = P.H.tricks[s - 1];
    if (!t) return -1;
    var k = t.plays.map(function (x) { return x.seat; }).indexOf(seat);
    return k >= 0 ? k : t.plays.length - 1;
  }
  function isFull(q) { return q.p === q.n; }
  /* every seat's holding at trick s after p plays of it */
  function holdingsAt(P, s, p, alt) {
    if (s === 0 || s > P.T) return P.hands[Math.min(s, P.T)];
    var t = alt || P.H.tricks[s - 1];
    if (p >= t.plays.length && !t.altered) return P.hands[s];
    var out = {}, before = P.hands[s - 1];
    for (var seat in before) out[seat] = before[seat].slice();
    t.plays.slice(0, p).forEach(function (x) {
      var hand = out[x.seat];
      if (!hand) return;
      parseCards(x.cards).forEach(function (c) {
        var i = hand.indexOf(c);
        if (i >= 0) hand.splice(i, 1);
      });
    });
    return out;
  }
  /* another candidate bury clicked in the bury's review, at the deal step, in the burier's view or All hands:
     {seat, text, cards (the candidate), made (the cards buried), back (buried, now in hand), out (in hand, now buried)}, or null */
  function buryAlt(P, s) {
    var a = state.alt, d = P.bury;
    if (!a || !a.bury || s !== 0 || a.h !== state.h || a.i !== state.i || !d || !P.H.bury) return null;
    if (state.view && state.view !== d.seat) return null;
    var cards = parseCards(a.play), made = parseCards(P.H.bury);
    return {seat: d.seat, text: a.play, cards: cards, made: made, back: less(made, cards), out: less(cards, made)};
  }
  /* the multiset a less b */
  function less(a, b) {
    var out = a.slice();
    b.forEach(function (c) { var i = out.indexOf(c); if (i >= 0) out.splice(i, 1); });
    return out;
  }
  /* the burier's hand at the deal with another bury: the cards buried back in, the candidate's out,
     in the engine's display order (the page's data has it for a hand whose bury was reviewed) */
  function handWithBury(P, cards, alt) {
    var out = less(cards, alt.out).concat(alt.back);
    if (P.place) {
      var at = function (c) { return c in P.place ? P.place[c] : 1e6; };
      out = out.map(function (c, k) { return [c, k]; }).sort(function (x, y) { return at(x[0]) - at(y[0]) || x[1] - y[1]; })
        .map(function (x) { return x[0]; });
    }
    return out;
  }
  /* a card's suit as the game sees it: T (trump) or S H D C */
  function suitOf(P, c) { return P.trumps.has(c) || c === "BJ" || c === "LJ" ? "T" : c.charAt(0); }
  /* the suits each seat has shown void in, up to trick s after p plays */
  function voidsAt(P, s, p) {
    var out = {};
    P.H.tricks.forEach(function (t, k) {
      if (k + 1 > s || !t.plays.length) return;
      var n = k + 1 === s ? p : t.plays.length;
      var lead = parseCards(t.plays[0].cards);
      if (!lead.length) return;
      var led = suitOf(P, lead[0]);
      t.plays.slice(1, n).forEach(function (x) {
        var off = parseCards(x.cards).some(function (c) { return suitOf(P, c) !== led; });
        if (off) (out[x.seat] = out[x.seat] || {})[led] = true;
      });
    });
    return out;
  }
  /* the review's decisions of this hand (the full review's JSON, when present) */
  function decisionsOf(P) {
    var R = reviewOf(P.M, P.H);
    return ((R && R.decisions) || []).filter(function (d) { return d && d.trick != null && d.play_index != null; });
  }
  /* the review's bury decision of this hand (kind "bury", trick 0, no play_index), or null */
  function buryOf(P) {
    var R = reviewOf(P.M, P.H);
    return ((R && R.decisions) || []).filter(function (d) { return d && d.kind === "bury"; })[0] || null;
  }
  /* where the sides follow from each play-out (finding friends; a declaration that decides who deals) the
     attackers differ between options and deals: the review orders the options by the deciding seat's side's
     points counted from the line where the deal passes (the alternatives' "side"), shown in a column of its own */
  function hasSide(d) {
    return (d.alternatives || []).some(function (o) { return o.side !== undefined && o.side !== null; });
  }
  function sideHead(d) { return '<th class="n side">' + esc(d.seat) + "\u2019s side</th>"; }
  function sideCell(o) {
    if (o.side === undefined || o.side === null) return '<td class="n side"></td>';
    return '<td class="n side">' + (o.side > 0 ? "+" : "") + fmt(o.side) + " \u00b1 " + fmt(o.side_stderr) + "</td>";
  }
  function sideHint(d) {
    return "Who attacks follows from each play-out here, so the attackers\u2019 final is not always the same side\u2019s: the column " +
      esc(d.seat) + "\u2019s side counts that side\u2019s points from the line where the deal passes (more is better for " + esc(d.seat) +
      "), and the options are ordered by it.";
  }
  /* the review's declaration decisions of this hand (kind "declare", trick 0), in record order */
  function declsOf(P) {
    var R = reviewOf(P.M, P.H);
    return ((R && R.decisions) || []).filter(function (d) { return d && d.kind === "declare"; });
  }
  /* the declarations' reviews under the deal step's Review panel: a declaration is public, but its
     options were worked out from the declarer's cards then, so they show in the declarer's view (or All hands) */
  function declsHTML(P) {
    if (!P.decls.length) return "";
    var blocks = P.decls.map(function (d) {
      var band = d.band ? '<span class="band band-' + esc(d.band) + '">' + esc(d.band) + "</span>"
        : '<span class="band band-ok">' + (d.judged ? "fine" : d.forced ? "no choice" : "not judged") + "</span>";
      var hidden = state.view && state.view !== d.seat;
      var loss = hidden ? "" : d.judged ? " \u00b7 expected loss " + fmt(d.loss) + " \u00b1 " + fmt(d.loss_stderr) + " points"
        : (d.reason ? " (" + esc(d.reason) + ")" : "");
      var sided = hasSide(d);
      var rows = hidden ? [] : (d.alternatives || []).map(function (o, i) {
        var mine = o.play === d.chosen;
        return '<tr class="opt' + (mine ? " chosen" : "") + '"><td>' + (i + 1) + "</td><td>" + (o.play === "pass" ? "pass" : symHTML(o.play)) +
          (mine ? ' <span class="tagc">written</span>' : "") + '</td><td class="n">' + fmt(o.expected) + '</td><td class="n">\u00b1 ' +
          fmt(o.stderr) + "</td>" + (sided ? sideCell(o) : "") + "</tr>";
      });
      return '<div class="decl" data-decl="' + esc(String(d.declaration_index)) + '"><div class="verdict">' + esc(d.seat) + " wrote " +
        symHTML(d.chosen) + " " + band + loss + "</div>" +
        (hidden ? '<div class="none">Its options are seen in ' + esc(d.seat) + "\u2019s view (or All hands).</div>" : "") +
        (rows.length ? '<table class="alts decl-alts"><thead><tr><th>#</th><th>declaration</th><th class="n">attackers\u2019 final</th>' +
          '<th class="n">s.e.</th>' + (sided ? sideHead(d) : "") + "</tr></thead><tbody>" + rows.join("") + "</tbody></table>" +
          (sided ? '<div class="hint">' + sideHint(d) + "</div>" : "") : "") + "</div>";
    });
    return "<h3>Declarations</h3>" + blocks.join("") +
      '<div class="hint">Each declaration valued from its declarer\u2019s view when written (their cards drawn so far, ' +
      "the declarations before it) against every other declaration the rules allowed then and passing: deals of the unseen cards, " +
      "the rest of the draw, the bury and the play by the bots.</div>";
  }
  function decisionAt(P, s, p) {
    if (!p) return null;
    for (var i = 0; i < P.decisions.length; i++) {
      var d = P.decisions[i];
      if (d.trick === s && d.play_index === p - 1) return d;
    }
    return null;
  }

  /* the band at the head of a mistake's message ("blunder (30 points): …") */
  function bandOf(d) {
    var m = /^(note|inaccuracy|mistake|blunder)\b/.exec(d.message || "");
    return m ? m[1] : "";
  }
  function reviewOf(M, H) {
    var r = M.review;
    if (!r || !r.hands) return null;
    for (var i = 0; i < r.hands.length; i++) if (r.hands[i].hand === H.number) return r.hands[i];
    return null;
  }

  /* what a note is: a mistake's band (blunder, mistake, inaccuracy, note), else its severity (error, warning; info: note) */
  function labelOf(d) {
    if (d.kind === "mistake") return bandOf(d) || "mistake";
    return !d.severity || d.severity === "info" ? "note" : d.severity;
  }
  /* "1 blunder, 2 errors": the notes of one step counted by what they are */
  function notesText(list) {
    var order = [], counts = {};
    list.forEach(function (d) {
      var l = labelOf(d);
      if (!(l in counts)) { order.push(l); counts[l] = 0; }
      counts[l]++;
    });
    return order.map(function (l) { return plural(counts[l], l); }).join(", ");
  }

  function noteKey(d) { return [d.code, d.line, d.column, d.hand, d.trick, d.message].join("|"); }

  function stepInfo(P, s, p) {
    var H = P.H;
    if (s === 0) return {kind: "deal", trick: null, winner: "", score: 0, p: 0};
    if (s <= P.T) {
      var t = H.tricks[s - 1];
      if (p != null && p < t.plays.length) {
        return {kind: "play", trick: t, winner: "", p: p, n: t.plays.length, next: t.plays[p].seat,
          score: s > 1 ? H.tricks[s - 2].attacker_points : 0};
      }
      return {kind: "trick", trick: t, winner: t.winner, score: t.attacker_points, p: t.plays.length, n: t.plays.length};
    }
    var score = H.attacker_points != null ? H.attacker_points : (P.T ? H.tricks[P.T - 1].attacker_points : 0);
    return {kind: "result", trick: null, winner: "", score: score};
  }

  /* -- the table ------------------------------------------------------------------------------ */

  var VOIDNAME = {T: "trumps", S: "\u2660", H: '<span class="red">\u2665</span>', D: '<span class="red">\u2666</span>', C: "\u2663"};
  function seatHTML(P, s, seat, info, held, voids) {
    var H = P.H, cards = held[seat] || [], player = P.M.players && P.M.players[seat];
    var role = "", known = teamAt(H, s, info.p);
    if (H.dealer === seat) role = '<span class="role dealer">dealer</span>';
    else if (known) role = known.indexOf(seat) >= 0 ? '<span class="role friend">friend</span>' : "";
    else if (H.attackers && team(seat) === H.attackers) role = '<span class="role">attacker</span>';
    else if (H.dealer) role = '<span class="role">dealer side</span>';
    var name = player && player.name ? " " + esc(player.name) : "";
    var recorded = H.start_hands && H.start_hands[seat];
    var hidden = state.view && state.view !== seat;
    var body = !cards.length ? '<div class="unknown">' + (recorded ? "no cards left" : "cards not recorded") + "</div>"
      : hidden ? '<div class="backs" title="hidden: ' + esc(state.view) + '\u2019s view">' +
        cards.map(function () { return '<span class="back"></span>'; }).join("") + "</div>"
      : handHTML(cards, P.trumps, info.buryAlt && info.buryAlt.seat === seat ? info.buryAlt.back : null);
    var v = voids[seat] ? ["T", "S", "H", "D", "C"].filter(function (k) { return voids[seat][k]; }) : [];
    var voidLine = v.length ? '<div class="voids" data-voids="' + v.join("") + '">void in ' + v.map(function (k) { return VOIDNAME[k]; }).join(" ") + "</div>" : "";
    var win = info.winner === seat ? " winner" : "", turn = info.kind === "play" && info.next === seat ? " to-play" : "";
    return '<div class="seat ' + seat + win + turn + (hidden ? " hidden" : "") + (state.view === seat ? " viewer" : "") +
      '" data-seat="' + seat + '" data-count="' + cards.length + '">' +
      '<div class="plate"><span class="letter ' + team(seat) + '">' + seat + "</span>" + (NAMES[seat] || "") + name + role +
      '<span class="count">' + plural(cards.length, "card") + "</span></div>" +
      '<div class="hand">' + body + "</div>" + voidLine + "</div>";
  }

  function trickHTML(P, t, upto) {
    var out = "", full = upto >= t.plays.length && !t.altered;
    t.plays.slice(0, upto).forEach(function (p, i) {
      var win = full && p.seat === t.winner, tags = [p.seat];
      if (i === 0) tags.push("lead");
      if (win) tags.push("\u2605 wins");
      var extra = "", flagged = P.notes[t.number].filter(function (n) { return n.seat === p.seat; });
      var bands = flagged.map(function (n) { return bandOf(n); }).filter(function (b) { return b && b !== "note"; });
      var marked = bands.length ? " mistake-play band-" + bands[0] : "";
      if (flagged.length) {
        tags.push('<span class="flagged" title="' + esc(flagged.map(function (n) { return n.code + " " + n.message; }).join("\n")) +
          '">\u26a0 ' + esc(flagged.map(function (n) { return n.code; }).join(" ")) + "</span>");
      }
      if (p.attempted) {
        extra = '<div class="mini ghost" title="attempted throw">' + cardsHTML(parseCards(p.attempted), P.trumps) +
          '</div><div class="note">failed throw</div>';
      }
      var last = (!full && i === upto - 1 ? " last" : "") + (p.alternative ? " alternative" : "");
      if (p.alternative) tags.push("instead");
      out += '<div class="play ' + p.seat + (win ? " winner" : "") + (i === 0 ? " lead" : "") + last + marked + '" data-seat="' +
        p.seat + '" data-winner="' + win + '"' + (bands.length ? ' data-band="' + bands[0] + '"' : "") + ">" + extra + cardsHTML(parseCards(p.cards), P.trumps) +
        '<div class="tag">' + tags.join(" \u00b7 ") + "</div></div>";
    });
    var notes = [];
    if (t.ruffed) notes.push("ruff");
    if (t.failed_throw) notes.push("failed throw");
    else if (t.throw) notes.push("throw");
    if (t.penalty) notes.push("penalty " + (t.penalty > 0 ? "+" : "") + t.penalty);
    (P.H.friends || []).forEach(function (f) {
      if (f.seat && f.trick === t.number && revealed(P.H, f, t.number, upto)) {
        notes.push(f.seat === P.H.dealer ? "the dealer takes " + esc(f.call) : esc(f.seat) + " joins: " + esc(f.call));
      }
    });
    if (!full) {
      var nxt = t.plays[upto] ? t.plays[upto].seat : "";
      return out + '<div class="mid"><div class="num">Trick ' + t.number + " of " + P.T + "</div>" +
        '<div class="pts">play ' + upto + " of " + t.plays.length + "</div>" +
        (nxt ? '<div>next: <span class="who">' + esc(nxt) + "</span></div>" : "") +
        (notes.length ? '<div class="legend">' + notes.join(", ") + "</div>" : "") + "</div>";
    }
    var side = P.H.attackers && allKnown(P.H, t.number, upto) ? (t.to_attackers ? "attackers" : "dealers") : "";
    out += '<div class="mid"><div class="num">Trick ' + t.number + " of " + P.T + "</div>" +
      '<div class="pts">' + t.points + " pts</div>" +
      '<div>to <span class="who">' + esc(t.winner) + "</span>" + (side ? " (" + side + ")" : "") + "</div>" +
      (notes.length ? '<div class="legend">' + notes.join(", ") + "</div>" : "") + "</div>";
    return out;
  }

  function dealHTML(P, alt) {
    var H = P.H, rows = ["<h3>Hand " + H.number + ": deal, declarations and bury</h3>"];
    if (H.redeal) rows.push('<div class="row">Redeal: nobody declared.</div>');
    if (H.declarations && H.declarations.length) {
      H.declarations.forEach(function (d, i) {
        rows.push('<div class="row"><span class="lbl">' + (i ? "then " : "") + esc(d.seat) + " declares</span>" +
          cardsHTML(parseCards(d.cards), P.trumps) + (d.at != null ? " <span>after " + esc(d.at) + " cards</span>" : "") + "</div>");
      });
    }
    if (H.declared && !(H.declarations && H.declarations.length)) {
      rows.push('<div class="row"><span class="lbl">Trump</span><span>' + symHTML0(H.declared) + "</span></div>");
    }
    if (H.friends && H.friends.length) {
      rows.push('<div class="row friend-call"><span class="lbl">' + esc(H.dealer || "?") + " calls</span>" + callsHTML(H) +
        "<span>(the friend is whoever plays that card)</span></div>");
    }
    var secret = state.view && state.view !== H.dealer;
    if (secret && (H.kitty || H.bury)) rows.push('<div class="row"><span class="lbl">Kitty</span><span>' +
      "seen by the dealer only (" + esc(H.dealer || "?") + ")</span></div>");
    if (H.kitty && !secret) rows.push('<div class="row"><span class="lbl">Kitty dealt</span>' + cardsHTML(parseCards(H.kitty), P.trumps) + "</div>");
    if (H.bury && !secret) {
      var bd = P.bury, verdict = bd && bd.band ? ' <span class="band band-' + esc(bd.band) + '" title="the review of the bury: see the Review panel">' +
        esc(bd.band) + "</span>" : bd && bd.judged ? ' <span class="band band-ok">fine</span>' : "";
      if (alt) {   /* another candidate clicked in the review: it as the kitty, the bury made below */
        var cand = candidateNames(bd)[cardKey(alt.text)];
        rows.push('<div class="row bury-row alternative" data-bury="' + esc(alt.text) + '"><span class="lbl">' + esc(alt.seat) + " buries instead</span>" +
          cardsHTML(alt.cards, P.trumps) + (cand ? "<span>" + esc(CANDIDATE[cand] || cand) + "</span>" : "") + "</div>");
      }
      rows.push('<div class="row bury-row' + (alt ? " made" : "") + '"><span class="lbl">' + esc(bd ? bd.seat : H.dealer || "?") +
        (alt ? " buried" : " buries") + "</span>" +
        cardsHTML(parseCards(H.bury), P.trumps) + "<span>" + plural(H.bury_points || 0, "point") + "</span>" + verdict + "</div>");
    }
    if (rows.length === 1) rows.push('<div class="row">Nothing recorded before the first trick.</div>');
    return '<div class="board mini">' + rows.join("") + "</div>";
  }
  /* the report's "declared" sentence with its card groups in symbols */
  function symHTML0(text) {
    return esc(text).replace(/\b([SHDC](?:10|[2-9JQKAT])+|BJ|LJ)\b/g, function (g) { return symHTML(g); });
  }

  function resultHTML(P) {
    var H = P.H, o = H.outcome, rows = ["<h3>Hand " + H.number + ": result</h3>"];
    if (H.redeal) {
      rows.push('<div class="row">Redeal: nobody declared; no levels change.</div>');
    } else {
      if (!H.complete) rows.push('<div class="row">Incomplete hand: ' + plural(P.T, "trick") + " recorded.</div>");
      rows.push('<div class="row"><span class="lbl">In tricks</span>' + plural(H.card_points || 0, "point") + "</div>");
      if (H.penalties) rows.push('<div class="row"><span class="lbl">Penalties</span>' + (H.penalties > 0 ? "+" : "") + H.penalties + "</div>");
      if (H.bury) {
        var k = H.multiplier ? (H.bury_points + " \u00d7 " + H.multiplier + " = " + H.kitty_points + " to the attackers")
          : (H.bury_points + " points stay with the dealers");
        rows.push('<div class="row"><span class="lbl">Kitty</span>' + cardsHTML(parseCards(H.bury), P.trumps) + "<span>" + k + "</span></div>");
      }
      var score = stepInfo(P, P.T + 1).score;
      rows.push('<div class="row"><span class="lbl">Attackers ' + teamHTML(H.attackers) + '</span><span class="final">' + score +
        (H.complete ? "" : " (so far)") + "</span></div>");
      if (o && H.team) {
        rows.push('<div class="row"><span class="lbl">Dealer\'s team</span>' + esc(H.team.join(" ")) + "</div>");
        rows.push('<div class="row"><span class="lbl">Levels after</span>' + levelsText(o.levels) +
          " (+" + o.gained + " each, " + (o.dealers_keep ? "the dealer\'s team wins" : "the attackers win") +
          (H.bonus ? ", a bonus level for a smaller team" : "") + ")</div>");
        rows.push('<div class="row"><span class="lbl">Next dealer</span>' + esc(o.next_dealer) + "</div>");
        if (o.match_over) rows.push('<div class="row final">Match over: ' + esc(o.winner) + " win</div>");
      } else if (o) {
        rows.push('<div class="row"><span class="lbl">Levels after</span>NS ' + esc(o.levels.NS) + " \u00b7 EW " + esc(o.levels.EW) +
          " (+" + o.gained + ", " + (o.dealers_keep ? "the dealers keep the deal" : "the attackers take the deal") +
          (o.hooked_back ? ", hooked back" : "") + ")</div>");
        rows.push('<div class="row"><span class="lbl">Next dealer</span>' + esc(o.next_dealer) + "</div>");
        if (o.match_over) rows.push('<div class="row final">Match over: ' + esc(o.winner) + " wins</div>");
      }
    }
    return '<div class="board mini">' + rows.join("") + "</div>";
  }

  function levelsText(lv) {
    var out = [];
    for (var k in (lv || {})) out.push(esc(k) + " " + esc(lv[k]));
    return out.join(" \u00b7 ") || "?";
  }

  function levelsHTML(lv) {
    var out = [];
    for (var k in (lv || {})) out.push('<span class="lv"><b>' + esc(k) + "</b> " + esc(lv[k]) + "</span>");
    return out.join(" ") || "?";
  }
  function renderTable(P, s, info) {
    var H = P.H, lv = H.levels || {};
    $("table").className = (H.team ? "friends" : "") + (state.view ? " seat-view" : "");
    var trumpCls = H.trump === "NT" ? "nt" : (H.trump === "H" || H.trump === "D" ? "red" : "black");
    var isTrick = info.kind === "trick" || info.kind === "play";
    var center = isTrick ? '<div id="center" class="big">' + trickHTML(P, info.trick, info.p) + "</div>"
      : '<div id="center">' + (info.kind === "deal" ? dealHTML(P, info.buryAlt) : resultHTML(P)) + "</div>";
    var sub = info.kind === "deal" ? "before trick 1" : info.kind === "trick" ? "after trick " + info.trick.number
      : info.kind === "play" ? "before trick " + info.trick.number + " ends"
      : (H.complete ? "final, with the kitty" : "so far");
    var held = holdingsAt(P, s, info.p, info.trick), voids = voidsAt(P, s, info.p);
    if (info.buryAlt) {   /* another candidate bury: the burier's hand with it */
      var copy = {};
      for (var seat in held) copy[seat] = held[seat];
      copy[info.buryAlt.seat] = handWithBury(P, held[info.buryAlt.seat] || [], info.buryAlt);
      held = copy;
    }
    $("table").innerHTML =
      '<div class="corner tl"><div class="trumpbox"><span class="sym ' + trumpCls + '">' + (H.trump === "NT" ? "NT" : trumpName(H.trump)) +
      "</span><div><div><b>Trump</b> " + (H.trump === "NT" ? "none (NT)" : H.trump ? "" : "unknown") + "</div>" +
      "<div>Level <b>" + esc(H.level || "?") + "</b></div><div>Hand " + H.number + " of " + P.M.hands.length + "</div>" +
      (H.friends && H.friends.length ? '<div class="callbox">Call <b>' + callsHTML(H) + "</b></div>" : "") + "</div></div></div>" +
      '<div class="corner tr"><div class="scorebox"><div class="sub">Attackers ' + attackersAt(H, s, info.p) + '</div><div class="big" id="score">' +
      info.score + '</div><div class="sub">' + sub + "</div></div></div>" +
      '<div class="corner bl legend"><span class="sw"></span> trump \u00b7 <span class="red">\u2665\u2666</span> \u2660\u2663 \u00b7 \u2605/\u2606 big/little joker</div>' +
      '<div class="corner br"><span class="lvl-title">Levels:</span> ' + (H.team ? levelsHTML(lv) : '<span class="team NS">NS</span> ' + esc(lv.NS || "?") +
      ' <span class="team EW">EW</span> ' + esc(lv.EW || "?")) + "<br>Dealer <b>" + esc(H.dealer || "?") + "</b>" + (H.declarer && H.declarer !== H.dealer ? " \u00b7 declarer " + esc(H.declarer) : "") + "</div>" +
      (H.team ? '<div class="ring">' : "") + seatsOf(H).map(function (seat) { return seatHTML(P, s, seat, info, held, voids); }).join("") +
      (H.team ? "</div>" : "") + center;
  }

  /* -- side panels ------------------------------------------------------------------------------ */

  function renderInfo(P) {
    var M = P.M, H = P.H, rs = M.ruleset || {}, over = [];
    for (var k in (rs.overrides || {})) over.push(k + "=" + rs.overrides[k]);
    var rows = [["Rules", esc(H.ruleset || rs.name || "?") + (over.length ? " (" + esc(over.join(", ")) + ")" : "")],
      ["Dealer", esc(H.dealer || "?") + (H.attackers && !H.team ? " \u00b7 attackers " + teamHTML(H.attackers) : "")],
      ["Trump", H.trump ? (H.trump === "NT" ? "no trump" : '<span class="' + (H.trump === "H" || H.trump === "D" ? "red" : "") + '">' + SYM[H.trump] + "</span>") + ", level " + esc(H.level) : "unknown"]];
    if (H.declared) rows.push(["Declared", symHTML0(H.declared)]);
    if (H.friends && H.friends.length) rows.push(["Friend call", callsHTML(H) + " (the teams show as the called cards are played)"]);
    $("info").innerHTML = "<h2>Hand " + H.number + "</h2><dl>" + rows.map(function (r) { return "<dt>" + r[0] + "</dt><dd>" + r[1] + "</dd>"; }).join("") + "</dl>";
  }

  function noteHTML(d) {
    var sev = d.kind === "mistake" ? "mistake" : esc(d.severity || "info");
    return '<div class="note-item ' + sev + '" data-code="' + esc(d.code) + '" data-kind="' + esc(d.kind) + '" data-seat="' + esc(d.seat || "") +
      '"><code>' + esc(d.code) + "</code>" + (d.name ? " " + esc(d.name) : "") + '<span class="kind">' +
      (d.kind === "mistake" ? esc(labelOf(d)) + (d.seat ? " by " + esc(d.seat) : "") : esc(d.severity || "")) +
      (d.line ? " \u00b7 line " + d.line : "") + "</span><div>" + symHTML0(d.message) + "</div></div>";
  }

  /* the review of the play just made (the full review's decision, when the report has it) */
  function renderDecision(P, s, info) {
    var box = $("decision");
    if (info.kind === "deal" && P.bury) { renderBury(P, P.bury, box); box.insertAdjacentHTML("beforeend", declsHTML(P)); return; }
    if (info.kind === "deal" && P.decls.length) {
      box.innerHTML = "<h2>Review: the declarations</h2>" + declsHTML(P);
      box.setAttribute("data-reviewed", P.decls.some(function (d) { return d.judged; }) ? "yes" : "no");
      return;
    }
    if (!info.trick || !info.p) {
      box.innerHTML = "<h2>Review</h2>" + '<div class="none">' + (info.kind === "deal" ? "Step to a play to see its review." : "The hand is over.") + "</div>";
      box.setAttribute("data-reviewed", "");
      return;
    }
    var pl = P.H.tricks[s - 1].plays[info.p - 1], d = decisionAt(P, s, info.p);
    var head = "<h2>Review: " + esc(pl.seat) + (info.p === 1 ? " leads" : " plays") + " " + symHTML(pl.cards) + "</h2>";
    if (!d) {
      var flagged = P.notes[s].filter(function (n) { return n.kind === "mistake" && n.seat === pl.seat; });
      box.innerHTML = head + '<div class="none">not reviewed' + (P.decisions.length ? " (a forced play, or outside the review)" :
        (P.M.review ? " (this report has the review\u2019s summary, not its decisions)" : " (make the page with report --mistakes for a review)")) + "</div>" +
        flagged.map(function (n) { return '<div class="band band-' + esc(bandOf(n)) + '">' + esc(bandOf(n) || "note") + "</div>"; }).join("");
      box.setAttribute("data-reviewed", "no");
      return;
    }
    var alts = d.alternatives || [], best = alts.length ? alts[0] : null, chosenKey = cardKey(d.chosen), sided = hasSide(d);
    var rows = alts.slice(0, 5).map(function (o, k) {
      var mine = cardKey(o.play) === chosenKey, cur = state.alt && state.alt.i === state.i && state.alt.h === state.h && state.alt.play === o.play;
      return '<tr class="alt' + (mine ? " chosen" : "") + (cur ? " shown" : "") + '" data-play="' + esc(o.play) + '"><td>' + (k + 1) + "</td><td>" +
        symHTML(o.play) + (mine ? ' <span class="tagc">played</span>' : "") + '</td><td class="n">' + fmt(o.expected) +
        '</td><td class="n">\u00b1 ' + fmt(o.stderr) + "</td>" + (sided ? sideCell(o) : "") + "</tr>";
    });
    var inTop = alts.slice(0, 5).some(function (o) { return cardKey(o.play) === chosenKey; });
    if (!inTop) rows.push('<tr class="alt chosen" data-play="' + esc(d.chosen) + '"><td></td><td>' + symHTML(d.chosen) + ' <span class="tagc">played</span></td><td class="n">' +
      "</td><td></td>" + (sided ? "<td></td>" : "") + "</tr>");
    var band = d.band ? '<span class="band band-' + esc(d.band) + '">' + esc(d.band) + "</span>" : '<span class="band band-ok">' + (d.judged ? "fine" : "not judged") + "</span>";
    var loss = d.judged ? " \u00b7 expected loss " + fmt(d.loss) + " \u00b1 " + fmt(d.loss_stderr) + " points" : (d.reason ? " (" + esc(d.reason) + ")" : "");
    var expl = (d.explanation || []).map(function (x) { return "<li>" + symHTML0(x) + "</li>"; }).join("");
    var act = d.actual && d.actual.judged ? '<div class="exact">' + (d.exact ? "solved exactly" : "with all hands known") + ": best " +
      (d.actual.best ? symHTML(d.actual.best) : "as played") + (d.actual.line ? ' \u00b7 best line <span class="line">' + symHTML0(d.actual.line) + "</span>" : "") + "</div>" : "";
    box.innerHTML = head + '<div class="verdict">' + band + ' <span class="kind">' + esc(d.kind || "") + "</span>" + loss + "</div>" +
      (rows.length ? '<table class="alts"><thead><tr><th>#</th><th>play</th><th class="n">attackers\u2019 final</th><th class="n">s.e.</th>' +
        (sided ? sideHead(d) : "") + "</tr></thead><tbody>" + rows.join("") + "</tbody></table>" : "") +
      (expl ? '<ul class="explain">' + expl + "</ul>" : "") + act +
      (best ? '<div class="hint">Expected final attacker points from ' + esc(d.seat) + "\u2019s view" + (d.samples ? " over " + d.samples + (d.screen_samples ? " new" : "") + " deals" : "") +
        (d.screen_samples ? " (a first look over " + d.screen_samples + " deals left it unsure)" : "") +
        "; click a play to see the table after it." + (sided ? " " + sideHint(d) : "") + "</div>" : "");
    box.setAttribute("data-reviewed", "yes");
  }
  /* the candidate buries' names (analyzer.review.mistakes.bury.CANDIDATES) as a reader says them */
  var CANDIDATE = {made: "the bury made", bot: "the bots\u2019 bury", no_points: "no point cards", void_short: "voids a short suit"};
  /* the review of the bury (at the deal step): its verdict, the candidate buries valued, the finding's explanation */
  /* the candidate buries' names by their cards ({cardKey: "made" | "bot" | ...}) */
  function candidateNames(d) {
    var cands = (d && d.options_considered && d.options_considered.candidates) || {}, nameOf = {};
    Object.keys(cands).forEach(function (k) { nameOf[cardKey(cands[k])] = k; });
    return nameOf;
  }
  /* a finding's text as HTML, the explanations shown above it (the pattern's text, which the finding
     repeats) not repeated: "the explanation above" in their place */
  function findingHTML(message, explanation) {
    var out = message || "";
    (explanation || []).forEach(function (x) {
      var t = String(x || "").replace(/^[A-Z]+\d+ /, ""), k = t ? out.indexOf(t) : -1;
      if (k >= 0) out = out.slice(0, k) + "\u0000" + out.slice(k + t.length);
    });
    return symHTML0(out).split("\u0000").join('<span class="same">the explanation above</span>');
  }
  function renderBury(P, d, box) {
    if (state.view && state.view !== d.seat) {   /* another seat's view: the bury is the burier's secret */
      box.innerHTML = "<h2>Review: " + esc(d.seat) + " buries</h2>" + '<div class="none">The bury is seen by ' + esc(d.seat) +
        " only: pick " + esc(d.seat) + "\u2019s view or All hands to see its review.</div>";
      box.setAttribute("data-reviewed", "hidden");
      return;
    }
    var head = "<h2>Review: " + esc(d.seat) + " buries " + symHTML(d.chosen) + "</h2>";
    var cands = (d.options_considered && d.options_considered.candidates) || {}, nameOf = candidateNames(d);
    var alts = d.alternatives || [], chosenKey = cardKey(d.chosen), alt = buryAlt(P, 0);
    function isShown(text) { return !!alt && alt.text === text; }
    var rows = alts.map(function (o, k) {
      var mine = cardKey(o.play) === chosenKey, name = nameOf[cardKey(o.play)];
      return '<tr class="opt' + (mine ? " chosen" : "") + (isShown(o.play) ? " shown" : "") + '" data-bury="' + esc(o.play) + '"><td>' + (k + 1) + "</td><td>" +
        symHTML(o.play) + (mine ? ' <span class="tagc">buried</span>' : "") + '</td><td class="cand">' + esc(CANDIDATE[name] || name || "") +
        '</td><td class="n">' + fmt(o.expected) + '</td><td class="n">\u00b1 ' + fmt(o.stderr) + "</td></tr>";
    });
    if (!rows.length) {   /* not judged: the candidates considered, without values */
      rows = Object.keys(cands).map(function (k, i) {
        var mine = cardKey(cands[k]) === chosenKey;
        return '<tr class="opt' + (mine ? " chosen" : "") + (isShown(cands[k]) ? " shown" : "") + '" data-bury="' + esc(cands[k]) + '"><td>' + (i + 1) + "</td><td>" + symHTML(cands[k]) +
          (mine ? ' <span class="tagc">buried</span>' : "") + '</td><td class="cand">' + esc(CANDIDATE[k] || k) + '</td><td class="n"></td><td></td></tr>';
      });
    }
    var band = d.band ? '<span class="band band-' + esc(d.band) + '">' + esc(d.band) + "</span>" : '<span class="band band-ok">' + (d.judged ? "fine" : "not judged") + "</span>";
    var loss = d.judged ? " \u00b7 expected loss " + fmt(d.loss) + " \u00b1 " + fmt(d.loss_stderr) + " points" +
      (d.level_loss >= 0.05 ? ", level outcome \u2212" + d.level_loss.toFixed(2) + " \u00b1 " + (d.level_loss_stderr || 0).toFixed(2) : "")
      : (d.reason ? " (" + esc(d.reason) + ")" : "");
    /* the explanations attached (the pattern rule's text), then the finding itself (SJ603), its text folded */
    var mk = P.notes[0].filter(function (n) { return n.kind === "mistake" && /^SJ603/.test(n.code || ""); });
    var expl = (d.explanation || []).map(function (x) { return "<li>" + symHTML0(x) + "</li>"; }).join("");
    /* the findings unfolded stay so when the panel is redrawn for the same bury (a candidate clicked, the window resized) */
    var where = state.m + ":" + state.h, unfolded = {};
    if (box.getAttribute("data-bury-of") === where) {
      Array.prototype.forEach.call(box.querySelectorAll("details.finding[open]"), function (el) { unfolded[el.getAttribute("data-code")] = true; });
    }
    box.innerHTML = head + '<div class="verdict">' + band + ' <span class="kind">bury</span>' + loss + "</div>" +
      (rows.length ? '<table class="alts bury-alts"><thead><tr><th>#</th><th>bury</th><th>candidate</th><th class="n">attackers\u2019 final</th><th class="n">s.e.</th></tr></thead><tbody>' +
        rows.join("") + "</tbody></table>" : "") +
      (expl ? '<ul class="explain">' + expl + "</ul>" : "") +
      mk.map(function (n) {   /* the finding repeats the explanation's text: shown once, above */
        return '<details class="finding" data-code="' + esc(n.code) + '"' + (unfolded[n.code] ? " open" : "") + '><summary><code>' + esc(n.code) + "</code> finding: " + esc(labelOf(n)) +
          "</summary>" + findingHTML(n.message, d.explanation) + "</details>";
      }).join("") +
      '<div class="hint">' + (alts.length ? "Expected final attacker points, the kitty included, from " + esc(d.seat) + "\u2019s view" +
        (d.samples ? " (their hand and the kitty; " + d.samples + " deals of the other hands, each played out by the bots with each candidate)" : "") + ". " : "") +
      "The candidates are a named set, not every possible bury. " + (rows.length > 1 ? "Click a candidate to see it buried (the cards actually buried back in " +
        esc(d.seat) + "\u2019s hand); click it again, or the bury made, to come back." : "") + "</div>";
    box.setAttribute("data-reviewed", d.judged ? "yes" : "no");
    box.setAttribute("data-bury-of", where);
  }
  function fmt(x) { return x == null ? "" : (Math.round(x * 10) / 10).toFixed(1); }
  function cardKey(text) { return parseCards(text).sort().join(" "); }

  // the notes of step s shown at this position (in a trick, those of the plays made so far)
  function notesHere(P, s, info) {
    var here = P.notes[s];
    if (info.kind === "play") {
      var done = info.trick.plays.slice(0, info.p).map(function (x) { return x.seat; });
      here = here.filter(function (n) { return !n.seat || done.indexOf(n.seat) >= 0; });
    }
    return here;
  }

  function renderNotes(P, s, info) {
    var here = notesHere(P, s, info), total = 0;
    P.notes.forEach(function (n) { total += n.length; });
    var title = s === 0 ? "before the first trick" : s <= P.T ? "at trick " + s : "at the result";
    $("notes").innerHTML = "<h2>Notes " + title + "</h2>" + (here.length ? here.map(noteHTML).join("")
      : '<div class="none">none' + (total ? " here (" + plural(total, "note") + " in this hand, marked \u26a0 below)" : "") + "</div>");
  }

  function renderLog(P, s) {
    var H = P.H, rows = [];
    function flag(k) { return P.notes[k].length ? ' <span class="flag" title="' + notesText(P.notes[k]) + '">\u26a0</span>' : ""; }
    rows.push('<tr class="step' + (s === 0 ? " current" : "") + '" data-step="0"><td colspan="5">Deal &amp; bury' + flag(0) + "</td></tr>");
    H.tricks.forEach(function (t, i) {
      var k = i + 1;
      rows.push('<tr class="step' + (s === k ? " current" : "") + '" data-step="' + k + '"><td class="n">' + t.number + flag(k) + "</td><td>" +
        esc(t.leader) + "</td><td><b>" + esc(t.winner) + '</b></td><td class="n">' + (t.points || "") + '</td><td class="n">' + t.attacker_points + "</td></tr>");
    });
    var fin = stepInfo(P, P.T + 1).score;
    rows.push('<tr class="step' + (s === P.T + 1 ? " current" : "") + '" data-step="' + (P.T + 1) + '"><td colspan="4">Result' + flag(P.T + 1) +
      '</td><td class="n"><b>' + fin + "</b></td></tr>");
    $("log").innerHTML = "<h2>Tricks</h2><table><thead><tr><th class=\"n\">#</th><th>lead</th><th>won</th><th class=\"n\">pts</th>" +
      '<th class="n">att.</th></tr></thead><tbody>' + rows.join("") + "</tbody></table>";
    var cur = $("log").querySelector("tr.current");
    if (cur && cur.scrollIntoView) {
      var box = $("log"), top = cur.offsetTop, h = cur.offsetHeight;
      if (top < box.scrollTop + 30 || top + h > box.scrollTop + box.clientHeight) box.scrollTop = Math.max(0, top - box.clientHeight / 2);
    }
  }

  /* -- charts (inline SVG) --------------------------------------------------------------------- */

  function chartWidth(id) { return Math.max(260, Math.min(900, $(id).clientWidth || 460)); }
  function niceMax(v) {
    var step = v <= 100 ? 20 : v <= 300 ? 40 : 100;
    return {max: Math.max(step, Math.ceil(v / step) * step), step: step};
  }

  function renderPointsChart(P, s) {
    var H = P.H, T = P.T, W = chartWidth("points-chart"), Hh = 220, l = 38, r = 14, t = 12, b = 28;
    $("points-caption").textContent = "Attackers\u2019 points over the tricks";
    if (!T) { $("points-chart").innerHTML = '<div class="none">No tricks in this hand.</div>'; return; }
    var fin = stepInfo(P, T + 1).score, vals = [0].concat(H.timeline || H.tricks.map(function (x) { return x.attacker_points; }));
    var R = reviewOf(P.M, H), evs = R && R.eval ? R.eval.filter(function (x) { return x != null; }) : [];
    var top = niceMax(Math.max.apply(null, vals.concat([fin, 10], evs)) + 12);
    var n = T + 1;
    function X(i) { return l + (W - l - r) * i / n; }
    function Y(v) { return t + (Hh - t - b) * (1 - v / top.max); }
    var out = ['<svg id="points-svg" viewBox="0 0 ' + W + " " + Hh + '" width="' + W + '" height="' + Hh + '" role="img" aria-label="attackers\' points over the tricks">'];
    for (var v = 0; v <= top.max; v += top.step) {
      out.push('<line class="grid" x1="' + l + '" x2="' + (W - r) + '" y1="' + Y(v) + '" y2="' + Y(v) + '"/>' +
        '<text x="' + (l - 5) + '" y="' + (Y(v) + 4) + '" text-anchor="end">' + v + "</text>");
    }
    out.push('<line class="axis" x1="' + l + '" x2="' + (W - r) + '" y1="' + Y(0) + '" y2="' + Y(0) + '"/>');
    var every = T > 24 ? 5 : T > 12 ? 2 : 1;
    for (var i = 0; i <= T; i += every) out.push('<text x="' + X(i) + '" y="' + (Hh - b + 15) + '" text-anchor="middle">' + i + "</text>");
    out.push('<text x="' + X(n) + '" y="' + (Hh - b + 15) + '" text-anchor="middle">end</text>');
    out.push('<line class="cursor" x1="' + X(s) + '" x2="' + X(s) + '" y1="' + t + '" y2="' + Y(0) + '"/>');
    var d = "M" + X(0) + " " + Y(0);
    for (i = 1; i <= T; i++) d += " H" + X(i) + " V" + Y(vals[i]);
    out.push('<path class="line pts" d="' + d + '"/>');
    if (H.complete) out.push('<path class="line pts" stroke-dasharray="3 3" d="M' + X(T) + " " + Y(vals[T]) + " L" + X(n) + " " + Y(fin) + '"/>');
    for (i = 1; i <= T; i++) {
      var tr = H.tricks[i - 1], big = tr.to_attackers && tr.points > 0;
      out.push('<circle class="dot hit" data-step="' + i + '" cx="' + X(i) + '" cy="' + Y(vals[i]) + '" r="' + (i === s ? 6 : big ? 4.5 : 3) +
        '" fill="' + (big ? "#d9762b" : "#9aa59f") + '"><title>trick ' + i + ": " + esc(tr.winner) + " wins " + tr.points + ", attackers " + vals[i] + "</title></circle>");
    }
    if (R && R.eval) {
      /* the evaluation: the attackers' final total under best play from each trick boundary (lichess-style) */
      var ev = R.eval, dd = "", pen = false;
      var EX = function (k) { return k >= T ? X(n) : X(k); };
      for (i = 0; i < ev.length && i <= n; i++) {
        if (ev[i] == null) { pen = false; continue; }
        dd += (pen ? " L" : "M") + EX(i) + " " + Y(Math.min(ev[i], top.max));
        pen = true;
      }
      if (dd) out.push('<path class="line eval" d="' + dd + '"/>');
      for (i = 0; i < ev.length && i <= n; i++) {
        if (ev[i] == null) continue;
        out.push('<circle class="dot eval-dot hit" data-step="' + (i >= T ? n : i) + '" cx="' + EX(i) + '" cy="' + Y(Math.min(ev[i], top.max)) +
          '" r="3"><title>' + (i < T ? "before trick " + (i + 1) : "end") + ": attackers finish with " + ev[i] + " under best play</title></circle>");
      }
      (P.M.annotations || []).forEach(function (d) {
        var b = bandOf(d);
        if (d.hand !== H.number || !d.trick || b === "note" || !b) return;
        var v = ev[d.trick] != null ? ev[d.trick] : vals[d.trick];
        out.push('<circle class="dot blunder-dot band-' + b + ' hit" data-step="' + d.trick + '" cx="' + EX(d.trick) + '" cy="' + Y(Math.min(v, top.max)) +
          '" r="5"><title>' + esc(d.code + " trick " + d.trick + ": " + d.message) + "</title></circle>");
      });
      if (R.window != null) {
        var x0 = X(T - R.window);
        out.push('<text class="eval-label" x="' + (x0 + 3) + '" y="' + (t + 10) + '">exact search →</text>' +
          '<line class="window" x1="' + x0 + '" x2="' + x0 + '" y1="' + t + '" y2="' + Y(0) + '"/>');
      }
    }
    /* the full review's decisions: the expected final attacker points of each trick's first judged play (the chosen option), the whole hand */
    var fullEval = [];
    P.decisions.forEach(function (d) {
      if (fullEval[d.trick - 1] != null) return;
      var ch = (d.alternatives || []).filter(function (o) { return cardKey(o.play) === cardKey(d.chosen); })[0];
      if (ch && ch.expected != null) fullEval[d.trick - 1] = ch.expected;
    });
    if (fullEval.length) {
      var fd = "", fpen = false;
      for (i = 0; i < T; i++) {
        if (fullEval[i] == null) { fpen = false; continue; }
        fd += (fpen ? " L" : "M") + X(i) + " " + Y(Math.min(fullEval[i], top.max));
        fpen = true;
        out.push('<circle class="dot eval-dot hit" data-step="' + (i + 1) + '" cx="' + X(i) + '" cy="' + Y(Math.min(fullEval[i], top.max)) + '" r="3"><title>before trick ' +
          (i + 1) + ": attackers expected to finish with " + fmt(fullEval[i]) + "</title></circle>");
      }
      if (fd) out.push('<path class="line eval full-eval" d="' + fd + '"/>');
      if (P.bury && P.bury.band && P.bury.band !== "note") {
        out.push('<circle class="dot blunder-dot bury-dot band-' + esc(P.bury.band) + ' hit" data-step="0" cx="' + X(0) + '" cy="' +
          Y(Math.min(fullEval[0] != null ? fullEval[0] : 0, top.max)) + '" r="5"><title>' + esc(P.bury.seat + " bury: " + P.bury.band + " (" + P.bury.chosen + ")") +
          "</title></circle>");
      }
      P.decisions.forEach(function (d) {
        if (!d.band || d.band === "note") return;
        var v = fullEval[d.trick - 1] != null ? fullEval[d.trick - 1] : vals[d.trick - 1];
        out.push('<circle class="dot blunder-dot band-' + esc(d.band) + ' hit" data-step="' + d.trick + '" cx="' + X(d.trick - 1) + '" cy="' + Y(Math.min(v, top.max)) +
          '" r="5"><title>' + esc(d.seat + " trick " + d.trick + ": " + d.band + " (" + d.chosen + ")") + "</title></circle>");
      });
    }
    var drawn = out.some(function (x) { return x.indexOf('class="line eval') >= 0; });
    $("points-caption").innerHTML = "Attackers\u2019 points over the tricks" + (drawn ? ' (<span class="evalkey">blue: the evaluation, their expected final total</span>' +
      (fullEval.length ? ", from each player\u2019s view" : R && R.window != null ? ", exact over the last " + R.window + " tricks" : "") + "; red dots: mistakes)" : "");
    out.push('<rect class="final hit" data-step="' + n + '" x="' + (X(n) - 5) + '" y="' + (Y(fin) - 5) + '" width="10" height="10" transform="rotate(45 ' +
      X(n) + " " + Y(fin) + ')"><title>final: ' + fin + "</title></rect>");
    out.push('<text x="' + (X(n) - 9) + '" y="' + (Y(fin) - 9) + '" text-anchor="end" font-weight="700">' + fin + "</text>");
    out.push("</svg>");
    $("points-chart").innerHTML = out.join("");
  }

  function renderLevelChart(P) {
    var M = P.M, prog = M.progression || [], W = chartWidth("level-chart"), Hh = 220, l = 44, r = 14, t = 14, b = 28;
    var pts = prog.map(function (p) { return p.before; });
    if (prog.length && prog[prog.length - 1].after) pts.push(prog[prog.length - 1].after);
    var idx = [];
    var lines = ["NS", "EW"], friendsMatch = (M.hands || []).some(function (h) { return h.team; });
    if (friendsMatch) lines = Object.keys(pts[0] || {});
    pts.forEach(function (p) { if (p) lines.forEach(function (tm) { var k = RANKS.indexOf(p[tm]); if (k >= 0) idx.push(k); }); });
    if (!idx.length) { $("level-chart").innerHTML = '<div class="none">No levels recorded.</div>'; return; }
    if (friendsMatch) { $("level-chart").innerHTML = levelGrid(M, prog, pts, lines); return; }
    var lo = Math.max(0, Math.min.apply(null, idx) - 1), hi = Math.min(RANKS.length - 1, Math.max.apply(null, idx) + 1);
    var n = Math.max(1, pts.length - 1);
    function X(i) { return l + (W - l - r) * i / n; }
    function Y(k) { return t + (Hh - t - b) * (1 - (k - lo) / Math.max(1, hi - lo)); }
    var out = ['<svg id="level-svg" viewBox="0 0 ' + W + " " + Hh + '" width="' + W + '" height="' + Hh + '" role="img" aria-label="level progression">'];
    for (var k = lo; k <= hi; k++) {
      out.push('<line class="grid" x1="' + l + '" x2="' + (W - r) + '" y1="' + Y(k) + '" y2="' + Y(k) + '"/><text x="' + (l - 6) + '" y="' + (Y(k) + 4) +
        '" text-anchor="end">' + RANKS[k] + "</text>");
    }
    pts.forEach(function (p, i) {
      var lab = i < prog.length ? "H" + prog[i].hand : "end";
      if (pts.length <= 16 || i % 2 === 0 || i === pts.length - 1) out.push('<text x="' + X(i) + '" y="' + (Hh - b + 16) + '" text-anchor="middle">' + lab + "</text>");
    });
    var cur = M.hands[state.h] ? state.h : 0;
    out.push('<line class="cursor" x1="' + X(cur) + '" x2="' + X(cur) + '" y1="' + t + '" y2="' + (Hh - b) + '"/>');
    var COLORS = ["#2f6fd6", "#d9762b", "#2a9d55", "#b0102a", "#6a2c91", "#8a6d00", "#0a7d8c", "#555"];
    lines.forEach(function (tm, j) {
      var d = "", dots = "", colour = friendsMatch ? COLORS[j % COLORS.length] : (tm === "NS" ? "#2f6fd6" : "#d9762b");
      pts.forEach(function (p, i) {
        var k = p ? RANKS.indexOf(p[tm]) : -1;
        if (k < 0) return;
        var off = friendsMatch ? (j - (lines.length - 1) / 2) * 1.5 : (j ? 2 : -2);
        d += (d ? " L" : "M") + X(i) + " " + (Y(k) + off);
        dots += '<circle class="dot hit" data-hand="' + Math.min(i, M.hands.length - 1) + '" cx="' + X(i) + '" cy="' + (Y(k) + off) + '" r="' +
          (i === cur ? 6 : 4) + '" fill="' + colour + '"><title>' + tm + " " + esc(p[tm]) +
          (i < prog.length ? " before hand " + prog[i].hand : " at the end") + "</title></circle>";
      });
      out.push('<path class="line lv' + tm + '" d="' + d + '"' + (friendsMatch ? ' style="stroke:' + colour + '"' : "") + "/>" + dots);
    });
    if (friendsMatch) {
      out.push('<text x="' + (W - r) + '" y="' + (t + 2) + '" text-anchor="end">' + lines.map(function (tm, j) {
        return '<tspan fill="' + COLORS[j % COLORS.length] + '" font-weight="700">\u25cf ' + esc(tm) + "</tspan>";
      }).join("  ") + "</text>");
    } else {
      out.push('<text x="' + (W - r) + '" y="' + (t + 2) + '" text-anchor="end"><tspan fill="#2f6fd6" font-weight="700">\u25cf NS</tspan>  <tspan fill="#d9762b" font-weight="700">\u25cf EW</tspan></text>');
    }
    out.push("</svg>");
    $("level-chart").innerHTML = out.join("");
  }

  /* finding friends (up to 8 players): a grid, a row per player and a column per hand, rises in bold */
  function levelGrid(M, prog, pts, players) {
    var cur = M.hands[state.h] ? state.h : 0;
    var head = "<tr><th class=\"p\">player</th>" + pts.map(function (p, i) {
      return i < prog.length ? '<th data-hand="' + i + '"' + (i === cur ? ' class="cur"' : "") + ' title="before hand ' + prog[i].hand + '">H' + prog[i].hand + "</th>" : "<th>end</th>";
    }).join("") + "</tr>";
    var rows = players.map(function (pl) {
      return '<tr data-player="' + esc(pl) + '"><th class="p">' + esc(pl) + "</th>" + pts.map(function (p, i) {
        var v = p ? p[pl] : "", before = i ? (pts[i - 1] || {})[pl] : null;
        var cls = (before != null && v !== before ? "up" : "") + (i < prog.length && prog[i].dealer === pl ? " dealer" : "") + (i === cur ? " cur" : "");
        return '<td class="' + cls.trim() + '"' + (i < prog.length && prog[i].dealer === pl ? ' title="dealer of hand ' + prog[i].hand + '"' : "") + ">" + esc(v || "") + "</td>";
      }).join("") + "</tr>";
    });
    return '<table class="level-grid" id="level-grid"><thead>' + head + "</thead><tbody>" + rows.join("") + "</tbody></table>" +
      '<div class="hint">Each player\u2019s level before each hand; bold: it rose; framed: the dealer. Click a hand to open it.</div>';
  }

  /* -- header, tabs, players ------------------------------------------------------------------- */

  function renderHeader() {
    var M = matches[state.m], tags = M.tags || {}, path = DATA.path || "";
    var bits = ["Event", "Site", "Date"].filter(function (k) { return tags[k]; }).map(function (k) { return tags[k]; });
    $("title").textContent = (M.record != null ? "Match " + M.record : "Unreadable text") + (bits.length ? ": " + bits.join(", ") : "");
    var rs = M.ruleset || {}, over = [];
    for (var k in (rs.overrides || {})) over.push(k + "=" + rs.overrides[k]);
    var players = Object.keys(M.players || {}).filter(function (s) { return M.players && M.players[s] && M.players[s].name; })
      .map(function (s) { return s + " " + esc(M.players[s].name); });
    var sub = [];
    if (path) sub.push(esc(path) + (M.line ? ":" + M.line : ""));
    if (rs.name) sub.push("rules <b>" + esc(rs.name) + "</b>" + (over.length ? " (" + esc(over.join(", ")) + ")" : ""));
    if (tags.Seed) sub.push("seed " + esc(tags.Seed));
    if (players.length) sub.push(players.join(", "));
    sub.push(plural(M.hands.length, "hand"));
    if (M.winner) sub.push("winner " + teamHTML(M.winner));
    $("subtitle").innerHTML = sub.join(" \u00b7 ");
    var general = (M.diagnostics || []).filter(function (d) { return d.hand == null; });
    $("match-notes").innerHTML = general.length ? '<div class="panel"><h2>Notes on the record</h2>' +
      general.map(function (d) { return noteHTML({kind: "diagnostic", code: d.code, name: d.name, severity: d.severity, line: d.line, message: d.message}); }).join("") + "</div>" : "";
    if (matches.length > 1) {
      $("match-pick").innerHTML = '<label>Match <select id="match">' + matches.map(function (m, i) {
        return '<option value="' + i + '"' + (i === state.m ? " selected" : "") + ">" + (m.record != null ? "Match " + m.record : "Unreadable text") + "</option>";
      }).join("") + "</select></label>";
    }
  }

  function renderTabs() {
    var M = matches[state.m];
    $("hand-tabs").innerHTML = M.hands.map(function (H, i) {
      var bad = H.diagnostics && H.diagnostics.length ? ' <span class="bad">\u26a0</span>' : "";
      var lab = "Hand " + H.number + (H.redeal ? " (redeal)" : "");
      return '<button type="button" role="tab" class="hand-tab' + (i === state.h ? " current" : "") + '" data-hand="' + i + '" aria-selected="' +
        (i === state.h) + '">' + lab + bad + "</button>";
    }).join("");
  }

  function renderReview() {
    var M = matches[state.m], r = M.review, box = $("review");
    if (!box) return;
    if (!r) { box.innerHTML = ""; box.style.display = "none"; return; }
    box.style.display = "";
    var hi = {};
    M.hands.forEach(function (H, i) { hi[H.number] = i; });
    /* the review's players: N W S E, or (finding friends) P1…Pn */
    var seats = Object.keys(r.players || {}).length ? Object.keys(r.players) : SEATS;
    if (seats.every(function (s) { return SEATS.indexOf(s) >= 0; })) seats = SEATS;
    var rows = seats.map(function (s) {
      var p = r.players[s] || {}, name = (M.players || {})[s] && M.players[s].name;
      return '<tr data-seat="' + s + '"><td><span class="team ' + team(s) + '">' + s + "</span> " + esc(name || NAMES[s] || "") + '</td><td class="n">' +
        (p.points_lost || 0) + '</td><td class="n">' + (p.inaccuracy || 0) + '</td><td class="n">' + (p.mistake || 0) + '</td><td class="n">' +
        (p.blunder || 0) + '</td><td class="n">' + (p.notes || 0) + '</td><td class="n">' + (p.judged || 0) + '</td><td class="n accuracy">' +
        (p.accuracy == null ? "" : p.accuracy.toFixed(1) + "%") + "</td></tr>";
    });
    var worst = [];
    seats.forEach(function (s) { ((r.players[s] || {}).worst || []).forEach(function (w) { worst.push(w); }); });
    worst.sort(function (a, b) { return (a.level_change == null) - (b.level_change == null) || b.cost - a.cost; });
    var items = worst.map(function (w) {
      var h = hi[w.hand] != null ? hi[w.hand] : 0, step = w.trick || 0;
      var href = "#m" + (state.m + 1) + "-h" + (h + 1) + "-t" + step;
      return '<li class="worst band-' + esc(w.band) + '"><a href="' + href + '" data-goto="' + state.m + ":" + h + ":" + step + '">' +
        esc(w.seat || "") + " · hand " + w.hand + (w.trick ? ", trick " + w.trick : ", bury") + "</a> <code>" + esc(w.code) + "</code> " +
        symHTML0(w.message) + "</li>";
    });
    var handRows = (r.hands || []).map(function (h) {
      var i = hi[h.hand] != null ? hi[h.hand] : 0;
      var win = h.window == null ? (h.no_window ? "no exact window (" + h.no_window + ")" : "not searched") : "last " + h.window + " of " + h.requested + " tricks" + (h.budget_cut ? " (node budget)" : "");
      return '<tr data-hand="' + h.hand + '"><td><a href="#m' + (state.m + 1) + "-h" + (i + 1) + '-t0" data-goto="' + state.m + ":" + i + ':0">hand ' + h.hand +
        "</a></td><td>" + esc(win) + "</td>" + seats.map(function (s) {
          var p = (h.players || {})[s] || {};
          return '<td class="n">' + (p.points_lost || 0) + " / " + (p.accuracy == null ? "" : Math.round(p.accuracy) + "%") + "</td>";
        }).join("") + "</tr>";
    });
    box.innerHTML = "<h2>Mistake review</h2><table><thead><tr><th>player</th><th>points lost</th><th>inaccuracies</th><th>mistakes</th>" +
      "<th>blunders</th><th>notes</th><th>decisions judged</th><th>accuracy</th></tr></thead><tbody>" + rows.join("") + "</tbody></table>" +
      '<table class="per-hand"><thead><tr><th>hand</th><th>searched exactly</th>' + seats.map(function (s) { return "<th>" + s + " lost / accuracy</th>"; }).join("") +
      "</tr></thead><tbody>" + handRows.join("") + "</tbody></table>" +
      (items.length ? "<h3>Worst mistakes first</h3><ol>" + items.join("") + "</ol>" : "<p>No mistakes found.</p>");
  }

  function renderPlayers() {
    var M = matches[state.m];
    var rows = Object.keys(M.players || {}).map(function (s) {
      var p = (M.players || {})[s] || {};
      return "<tr><td>" + '<span class="team ' + team(s) + '">' + s + "</span> " + esc(p.name || NAMES[s] || "") + '</td><td class="n">' + (p.tricks_won || 0) +
        '</td><td class="n">' + (p.points_won || 0) + '</td><td class="n">' + (p.ruffs || 0) + '</td><td class="n">' + (p.throws || 0) +
        '</td><td class="n">' + (p.failed_throws || 0) + "</td><td>" + esc((p.diagnostics || []).join(", ")) + "</td><td>" +
        esc((p.mistakes || []).map(function (d) { return d.code; }).join(", ")) + "</td></tr>";
    });
    $("players").innerHTML = "<h2>Players in this match</h2><table><thead><tr><th>seat</th><th>tricks</th><th>points</th><th>ruffs</th>" +
      "<th>throws</th><th>failed throws</th><th>diagnostics</th><th>mistakes</th></tr></thead><tbody>" + rows.join("") + "</tbody></table>";
  }

  /* -- state ------------------------------------------------------------------------------------- */

  function setStatus(attrs, html) {
    var st = $("status");
    for (var k in attrs) st.setAttribute("data-" + k, attrs[k] == null ? "" : String(attrs[k]));
    st.innerHTML = html;
  }

  function render() {
    if (!matches.length || !matches[state.m].hands.length) {
      if (matches.length) { renderHeader(); renderPlayers(); }
      shown = "";
      $("hand-tabs").innerHTML = "";
      $("table").innerHTML = '<div class="board" style="grid-area:c">No hands to replay in this record.</div>';
      ["prev", "next", "first", "last", "prev-trick", "next-trick", "prev-mistake", "next-mistake"].forEach(function (id) { $(id).disabled = true; });
      $("decision").innerHTML = "";
      $("step-label").textContent = "";
      setStatus({match: matches.length ? state.m + 1 : "", hand: "", step: "", steps: "", kind: "empty", trick: "", winner: "", score: ""}, "Nothing to replay.");
      return;
    }
    var P = prep(state.m, state.h), s = state.s, info = stepInfo(P, s, state.p), H = P.H;
    if (state.alt && (state.alt.h !== state.h || state.alt.i !== state.i)) state.alt = null;
    if (state.alt && info.trick && info.p) {   /* an alternative clicked in the review: the table after it */
      var t2 = {}, k;
      for (k in info.trick) t2[k] = info.trick[k];
      t2.plays = info.trick.plays.slice();
      var old = t2.plays[info.p - 1], np = {};
      for (k in old) np[k] = old[k];
      np.cards = state.alt.play; np.alternative = true; np.attempted = null;
      t2.plays[info.p - 1] = np;
      t2.altered = true;
      info.trick = t2;
      if (info.kind === "trick") { info.kind = "play"; info.winner = ""; info.n = t2.plays.length; info.p = info.p; }
      info.alt = true;
    }
    var balt = buryAlt(P, s);
    if (balt) { info.buryAlt = balt; info.alt = true; }
    var handKey = state.m + ":" + state.h + ":" + window.innerWidth;
    if (handKey !== shown) {          /* what changes only with the hand (or the window) */
      if (!shown || shown.split(":")[0] !== String(state.m)) { renderHeader(); renderPlayers(); renderReview(); renderSeatPick(); }
      renderTabs();
      renderInfo(P);
      renderLevelChart(P);
      shown = handKey;
    }
    renderTable(P, s, info);
    renderNotes(P, s, info);
    renderDecision(P, s, info);
    renderLog(P, s);
    renderPointsChart(P, s);
    var label = info.kind === "deal" ? "Declarations & bury" : info.kind === "trick" ? "Trick " + s + " / " + P.T
      : info.kind === "play" ? "Trick " + s + " / " + P.T + ", play " + info.p + "/" + info.n : "Result";
    var frag = fragment();
    $("step-label").innerHTML = '<a id="permalink" href="' + frag + '" title="a link to this position">Hand ' + H.number + " \u00b7 " + esc(label) + "</a>";
    try { if (location.hash !== frag) history.replaceState(null, "", frag); } catch (e) { /* file:// in some browsers */ }
    var atEnd = state.i === P.pos.length - 1 && state.h === P.M.hands.length - 1;
    $("prev").disabled = state.i === 0 && state.h === 0;
    $("prev-trick").disabled = state.i === 0 && state.h === 0;
    $("first").disabled = state.i === 0;
    $("last").disabled = state.i === P.pos.length - 1;
    $("next").disabled = atEnd;
    $("next-trick").disabled = atEnd;
    var mk = allMarks(), here = state.h * 100000 + state.i;
    $("prev-mistake").disabled = !mk.some(function (x) { return x < here; });
    $("next-mistake").disabled = !mk.some(function (x) { return x > here; });
    var text;
    if (info.kind === "deal") {
      text = "Hand " + H.number + ": declarations and bury \u00b7 trump " + (H.trump ? trumpName(H.trump) : "?") + ", level " + esc(H.level || "?") +
        ", dealer " + esc(H.dealer || "?");
    } else if (info.kind === "trick") {
      text = "Hand " + H.number + ", trick " + s + "/" + P.T + ': <span class="wins">' + esc(info.winner) + " wins</span> " +
        plural(info.trick.points, "point") + " \u00b7 attackers " + attackersAt(H, s, info.p) + " <b>" + info.score + "</b>";
    } else if (info.kind === "play") {
      var pl = H.tricks[s - 1].plays[info.p - 1];
      text = "Hand " + H.number + ", trick " + s + "/" + P.T + ", play " + info.p + "/" + info.n + ": " + esc(pl.seat) +
        (info.p === 1 ? " leads " : " plays ") + symHTML(pl.cards) + (info.next ? " \u00b7 " + esc(info.next) + " to play" : "") +
        " \u00b7 attackers " + attackersAt(H, s, info.p) + " <b>" + info.score + "</b>";
    } else {
      text = "Hand " + H.number + ": result \u00b7 attackers " + teamHTML(H.attackers) + " <b>" + info.score + "</b>" +
        (H.outcome ? " \u00b7 " + (H.team ? levelsText(H.outcome.levels) : "NS " + esc(H.outcome.levels.NS) + ", EW " + esc(H.outcome.levels.EW)) : "");
    }
    var shown = notesHere(P, s, info), n = shown.length;
    if (shown.length) text += " \u00b7 \u26a0 " + notesText(shown);
    if (info.buryAlt) text += ' \u00b7 <span class="viewing">showing ' + esc(info.buryAlt.seat) + "\u2019s hand with " + symHTML(state.alt.play) + " buried instead</span>";
    else if (info.alt) text += ' \u00b7 <span class="viewing">showing the table after ' + symHTML(state.alt.play) + " instead</span>";
    if (state.view) text += ' \u00b7 <span class="viewing">as ' + esc(state.view) + " saw it</span>";
    setStatus({match: state.m + 1, hand: H.number, "hand-index": state.h, step: s, steps: P.T + 2, kind: info.kind,
      trick: info.trick ? info.trick.number : "", winner: info.winner, score: info.score, notes: n,
      play: info.trick ? info.p : "", plays: info.trick ? info.n : "", pos: state.i, positions: P.pos.length,
      view: state.view, mistake: P.marks.indexOf(state.i) >= 0 ? "1" : ""}, text);
  }
  /* the position as a URL fragment: #m1-h2-t5 (trick 5 complete), #m1-h2-t5-p2 (its first 2 plays), -vS (South's view) */
  function fragment() {
    var P = prep(state.m, state.h), q = P.pos[state.i];
    return "#m" + (state.m + 1) + "-h" + (state.h + 1) + "-t" + q.s + (q.n && q.p < q.n ? "-p" + q.p : "") + (state.view ? "-v" + state.view : "");
  }
  /* every mistake of the match as h * 100000 + position */
  function allMarks() {
    var out = [];
    matches[state.m].hands.forEach(function (H, h) {
      prep(state.m, h).marks.forEach(function (i) { out.push(h * 100000 + i); });
    });
    return out;
  }
  function jumpMistake(dir) {
    var mk = allMarks(), here = state.h * 100000 + state.i, target = null;
    mk.forEach(function (x) {
      if (dir > 0 && x > here && (target == null || x < target)) target = x;
      if (dir < 0 && x < here && (target == null || x > target)) target = x;
    });
    if (target != null) stepper.go(Math.floor(target / 100000), target % 100000);
  }
  /* trick by trick: the next / previous complete trick (or the deal, the result) */
  function jumpTrick(dir) {
    var P = prep(state.m, state.h), i = state.i + dir;
    while (i >= 0 && i < P.pos.length && !isFull(P.pos[i])) i += dir;
    if (i >= 0 && i < P.pos.length) { stepper.go(state.h, i); return; }
    var h = state.h + dir, M = matches[state.m];
    if (h < 0 || h >= M.hands.length) return;
    stepper.go(h, dir > 0 ? 0 : prep(state.m, h).pos.length - 1);
  }

  /* go to match m, hand h, trick s (complete, or after p plays) */
  function go(m, h, s, p) {
    state.m = m;
    var P = prep(m, h);
    stepper.go(h, posIndex(P, s, p == null ? 1e9 : p));
  }
  function lastStep(h) { return prep(state.m, h).pos.length - 1; }
  function hasHands() { return matches.length && matches[state.m].hands.length; }
  /* buttons, keys (← → Home End PgUp PgDn) and resizing: the shared stepper (stepper.js) */
  var stepper = ReplayStepper({
    sections: function () { return hasHands() ? matches[state.m].hands.length : 0; },
    last: lastStep,
    render: function (h, i) {
      var P = prep(state.m, h), q = P.pos[Math.max(0, Math.min(i, P.pos.length - 1))];
      state.h = h; state.i = i; state.s = q.s; state.p = q.n ? q.p : null;
      render();
    }
  });
  $("next-trick").addEventListener("click", function () { jumpTrick(1); });
  $("prev-trick").addEventListener("click", function () { jumpTrick(-1); });
  $("next-mistake").addEventListener("click", function () { jumpMistake(1); });
  $("prev-mistake").addEventListener("click", function () { jumpMistake(-1); });
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey || !hasHands()) return;
    var tag = e.target && e.target.tagName;
    if (tag === "SELECT" || tag === "INPUT" || tag === "TEXTAREA") return;
    switch (e.key) {
      case "ArrowDown": jumpTrick(1); break;
      case "ArrowUp": jumpTrick(-1); break;
      case "n": case "]": jumpMistake(1); break;
      case "p": case "[": jumpMistake(-1); break;
      default: return;
    }
    e.preventDefault();
  });
  $("decision").addEventListener("click", function (e) {
    var br = e.target.closest("table.bury-alts tr[data-bury]");
    if (br) {   /* a candidate bury: it as the kitty and the burier's hand without it; again, or the bury made: back */
      var cards = br.getAttribute("data-bury"), bd = prep(state.m, state.h).bury;
      var again = state.alt && state.alt.bury && state.alt.play === cards && state.alt.i === state.i && state.alt.h === state.h;
      state.alt = bd && state.s === 0 && cardKey(cards) !== cardKey(bd.chosen) && !again ? {h: state.h, i: state.i, play: cards, bury: true} : null;
      render();
      return;
    }
    var tr = e.target.closest("tr.alt[data-play]");
    if (!tr) return;
    var play = tr.getAttribute("data-play");
    var d = decisionAt(prep(state.m, state.h), state.s, state.p);
    state.alt = d && cardKey(play) !== cardKey(d.chosen) && !(state.alt && state.alt.play === play && state.alt.i === state.i) ?
      {h: state.h, i: state.i, play: play} : null;
    render();
  });
  $("seat-pick").addEventListener("change", function (e) {
    state.view = e.target.value;
    render();
  });
  function renderSeatPick() {
    var M = matches[state.m], seats = M && M.hands.length ? seatsOf(M.hands[0]) : [];
    $("seat-pick").innerHTML = '<option value="">All hands</option>' + seats.map(function (s) {
      return '<option value="' + esc(s) + '"' + (state.view === s ? " selected" : "") + ">" + esc(s) + (NAMES[s] ? " (" + NAMES[s] + ")" : "") + "\u2019s view</option>";
    }).join("");
    $("seat-pick").value = state.view;
  }
  $("hand-tabs").addEventListener("click", function (e) {
    var b = e.target.closest("[data-hand]");
    if (b) go(state.m, +b.getAttribute("data-hand"), 0);
  });
  $("log").addEventListener("click", function (e) {
    var tr = e.target.closest("tr[data-step]");
    if (tr) go(state.m, state.h, +tr.getAttribute("data-step"));
  });
  $("points-chart").addEventListener("click", function (e) {
    var el = e.target.closest("[data-step]");
    if (el) go(state.m, state.h, +el.getAttribute("data-step"));
  });
  $("level-chart").addEventListener("click", function (e) {
    var el = e.target.closest("[data-hand]");
    if (el) go(state.m, +el.getAttribute("data-hand"), 0);
  });
  /* links into the viewer: #m1-h2-t5 (match, hand, step = trick; 1-based, t0 the deal) */
  function fromHash() {
    var m = /^#m(\d+)-h(\d+)-t(\d+)(?:-p(\d+))?(?:-v(\w+))?$/.exec(location.hash || "");
    if (!m) return false;
    var mi = +m[1] - 1, h = +m[2] - 1, st = +m[3];
    if (mi < 0 || mi >= matches.length || h < 0 || h >= matches[mi].hands.length) return false;
    var seats = seatsOf(matches[mi].hands[h]);
    state.view = m[5] && seats.indexOf(m[5]) >= 0 ? m[5] : "";
    if (mi !== state.m) shown = "";
    go(mi, h, Math.min(st, prep(mi, h).T + 1), m[4] == null ? null : +m[4]);
    renderSeatPick();
    return true;
  }
  window.addEventListener("hashchange", fromHash);
  document.addEventListener("click", function (e) {
    var a = e.target.closest && e.target.closest("a[data-goto]");
    if (!a) return;
    var g = a.getAttribute("data-goto").split(":");
    go(+g[0], +g[1], +g[2]);
  });
  $("match-pick").addEventListener("change", function (e) {
    if (e.target.id === "match") go(+e.target.value, 0, 0);
  });
  if (!fromHash()) render();
  renderSeatPick();
  document.documentElement.setAttribute("data-ready", "true");
})();
