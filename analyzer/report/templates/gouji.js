/* Gouji replay viewer: draws the report held in #data (no framework, no network).
   Steps of a game: 0 = the deal and the pre-play lines (亮3, 点贡, 落贡, 还贡, 买3, 革命, …);
   k = the k-th action of the engine's timeline; N+1 = the result (places, 串三户, score).
   Every fact shown comes from the engine's timeline in the data; nothing here checks a rule.
   Uses ReplayStepper / ReplayKit from stepper.js. */
(function () {
  "use strict";
  var K = window.ReplayKit, $ = K.$, esc = K.esc;
  var DATA = JSON.parse(document.getElementById("data").textContent);
  var SEATS = ((DATA.viewer && DATA.viewer.table) || {}).seats || ["P1", "P2", "P3", "P4", "P5", "P6"];
  var PLACE = ((DATA.viewer && DATA.viewer.table) || {}).places || {};
  var PRE = {show: "亮3", dian: "点贡", tribute: "落贡", "return": "还贡",
    buy: "买3", revolt: "革命", redeal: "redeal", remove: "会", point: "明点", lead: "first lead"};
  /* every Chinese term with a short English gloss beside it (the gloss carries the meaning where no CJK font is installed) */
  var GLOSS = {"串三户": ["sweep", "one team takes 1st, 2nd and 3rd place"], "够级": ["challenge", "a set big enough to challenge the opposite seat"],
    "让牌": ["let", "pass so that a partner may play"], "烧牌": ["burn", "take over a challenge"], "解烧": ["burn broken", "the burn is answered"],
    "接风": ["lead passes", "the round's owner is out: the next seat leads"], "革命": ["revolt", "a player with no 2s or jokers cancels the tribute"],
    "对头": ["opposite", "the seat across the table, the one to challenge"], "头科": ["1st", "first out"], "二科": ["2nd", "second out"],
    "三科": ["3rd", "third out"], "四科": ["4th", "fourth out"], "二落": ["5th", "fifth out"], "大落": ["last", "last out"],
    "亮3": ["show 3s", "showing the 3s"], "点贡": ["tribute", "a tribute for a hand without big cards (打点)"],
    "落贡": ["tribute", "the losers give their best card"], "还贡": ["return", "a card given back for a tribute"],
    "买3": ["buy 3", "buying a 3"], "打点": ["point", "pointing out a weak hand"], "明点": ["point", "an open point"],
    "会": ["remove", "cards removed"], "烧": ["burn", "a burn"], "够级牌": ["challenge cards", "cards big enough to challenge"]};
  var GLOSS_RE = new RegExp("(" + Object.keys(GLOSS).sort(function (a, b) { return b.length - a.length; }).join("|") + ")", "g");
  function glossText(t) { return String(t).replace(GLOSS_RE, function (w) { return w + " (" + GLOSS[w][0] + ")"; }); }
  /* the glosses put into the page's text (not inside SVG, not twice) */
  function glossify(root) {
    if (!root) return;
    var walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, null), nodes = [], n;
    while ((n = walker.nextNode())) {
      if (GLOSS_RE.test(n.nodeValue) && !n.parentNode.closest("svg, .zh, .gl")) nodes.push(n);
      GLOSS_RE.lastIndex = 0;
    }
    nodes.forEach(function (node) {
      var frag = document.createDocumentFragment(), text = node.nodeValue, last = 0;
      text.replace(GLOSS_RE, function (w, _g, at) {
        if (at > last) frag.appendChild(document.createTextNode(text.slice(last, at)));
        var zh = document.createElement("span");
        zh.className = "zh"; zh.lang = "zh"; zh.title = GLOSS[w][1]; zh.textContent = w;
        var gl = document.createElement("span");
        gl.className = "gl"; gl.textContent = " (" + GLOSS[w][0] + ")";
        frag.appendChild(zh); frag.appendChild(gl);
        last = at + w.length;
        return w;
      });
      if (last < text.length) frag.appendChild(document.createTextNode(text.slice(last)));
      node.parentNode.replaceChild(frag, node);
    });
  }
  var matches = DATA.matches || [];
  var mi = 0;

  /* seats, teams, 对头 and place names: the engine's table (replay.gouji.table), in the data */
  var TABLE = (DATA.viewer && DATA.viewer.table) || {};
  function team(s) { return (TABLE.team || {})[s] || "?"; }
  function opp(s) { return (TABLE.opp || {})[s] || "?"; }
  function M() { return matches[mi]; }
  function G(g) { return M().games[g]; }
  function steps(g) { return G(g).steps || []; }
  function lastStep(g) { return steps(g).length + 1; }
  function name(s) { var n = (M().players || {})[s]; return n && n !== s ? n : ""; }
  function placeName(p) { return PLACE[p] || ""; }

  /* rank text of a set ("BJ 22 101010") -> tiles ["BJ", "2", "2", "10", "10", "10"] */
  function tiles(text) {
    var out = [];
    (text || "").split(/\s+/).forEach(function (g) {
      if (!g || g === "-") return;
      if (g === "BJ" || g === "LJ") { out.push(g); return; }
      var i = 0;
      while (i < g.length) {
        if (g.substr(i, 2) === "10") { out.push("10"); i += 2; continue; }
        out.push(g.charAt(i)); i += 1;
      }
    });
    return out;
  }
  function setHTML(text, big) {
    var t = tiles(text);
    if (!t.length) return "";
    return '<span class="' + (big ? "big" : "mini") + '"><span class="cards">' + t.map(function (c) {
      var j = c === "BJ" || c === "LJ";
      return '<span class="card rank ' + (j ? "joker " + c.toLowerCase() : "black") + '" data-card="' + esc(c) +
        '" data-pip=""><b' + (c === "10" ? ' class="t"' : "") + ">" + esc(c) + "</b><i>" + (c === "BJ" ? "\u2605" : c === "LJ" ? "\u2606" : "") + "</i></span>";
    }).join("") + "</span></span>";
  }
  /* a hand's text ("BJBJ 22 A 101010 S3 C33") -> cards ["BJ", "BJ", "2", "2", "A", "10", "10", "10", "S3", "C3", "C3"] */
  function handCards(text) {
    var out = [];
    (text || "").split(/\s+/).forEach(function (g) {
      if (!g || g === "-") return;
      if (/^(BJ|LJ)+$/.test(g)) { for (var j = 0; j < g.length; j += 2) out.push(g.substr(j, 2)); return; }
      if (/^[SHDC]3+$/.test(g)) { for (j = 1; j < g.length; j++) out.push(g.charAt(0) + "3"); return; }
      tiles(g).forEach(function (c) { out.push(c); });
    });
    return out;
  }
  /* each seat's cards after step k: the deal less what the seat has played (tribute exchanges, when any, are not in the deal) */
  function handsAt(g, k) {
    var game = G(g), st = steps(g), out = {};
    SEATS.forEach(function (seat) { out[seat] = handCards((game.deal || {})[seat]); });
    for (var i = 0; i < Math.min(k, st.length); i++) {
      var x = st[i];
      if (x.kind !== "play" || !out[x.seat]) continue;
      handCards(x.cards).forEach(function (c) {
        var h = out[x.seat], j = h.indexOf(c);
        if (j < 0 && c === "3") for (j = 0; j < h.length && h[j].slice(-1) !== "3"; j++) { /* a 3 written without its suit */ }
        if (j >= 0 && j < h.length) h.splice(j, 1);
      });
    }
    return out;
  }
  function handHTML(cards) {
    return '<span class="mini"><span class="cards">' + cards.map(function (c) {
      var j = c === "BJ" || c === "LJ", suit = c.length === 2 && c.charAt(1) === "3" ? c.charAt(0) : "";
      var red = suit === "H" || suit === "D";
      var pip = c === "BJ" ? "\u2605" : c === "LJ" ? "\u2606" : suit ? {S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663"}[suit] : "";
      return '<span class="card rank ' + (j ? "joker " + c.toLowerCase() : red ? "red" : "black") + '" data-card="' + esc(c) + '"><b>' +
        esc(suit ? "3" : c) + "</b><i>" + pip + "</i></span>";
    }).join("") + "</span></span>";
  }
  var view_seat = "";

  function seatTag(s) { return '<span class="team ' + team(s) + '">' + esc(s) + "</span>"; }

  /* what the table shows after step k of game g */
  function view(g, k) {
    var game = G(g), st = steps(g), N = st.length;
    var v = {kind: "pre", step: null, prevTop: "", prevOwner: "", round: {}, counts: game.start_counts || []};
    if (k === 0) return v;
    if (k > N) { v.kind = "result"; v.step = N ? st[N - 1] : null; v.counts = v.step ? v.step.counts : v.counts; return v; }
    var cur = st[k - 1];
    v.kind = cur.kind; v.step = cur; v.counts = cur.counts;
    var start = 0;
    for (var i = k - 2; i >= 0; i--) { if (st[i].round_end || st[i].fail) { start = i + 1; break; } }
    for (i = start; i < k; i++) {
      var x = st[i];
      if (x.ignored) continue;
      v.round[x.seat] = x.kind === "play" ? x.cards : x.kind;
    }
    if (k >= 2) { v.prevTop = st[k - 2].top; v.prevOwner = st[k - 2].owner; }
    return v;
  }

  function events(s) {
    var ev = [];
    if (!s) return ev;
    if (s.kind === "let") ev.push({cls: "let", text: s.seat + " lets (让牌)"});
    if (s.kind === "pass") ev.push({cls: "pass", text: s.seat + " passes" + (s.ignored ? " (after an unbeatable set: not counted)" : "")});
    if (s.gouji) ev.push({cls: "gouji", text: "够级! " + s.seat + " plays " + s.cards + " at " + s.target_of});
    if (s.burn) ev.push({cls: "burn", text: "烧牌: " + s.seat + " burns " + (s.burned || "") });
    if (s.fail) ev.push({cls: "burn", text: "burn fails: " + s.seat + "'s set is discarded, " + s.seat + " takes " + placeName(s.place)});
    if (s.jieshao) ev.push({cls: "burn", text: "解烧: " + s.jieshao + "'s burn ends"});
    if (s.burn_won) ev.push({cls: "burn", text: "the burn succeeds: " + s.seat + " is out burning"});
    if (s.place && !s.fail) ev.push({cls: "finish", text: s.seat + " is out: " + placeName(s.place) + " (" + s.place + ")"});
    if (s.leads) ev.push({cls: "lead", text: (s.jiefeng ? "接风: " + s.leads + " takes the lead (the round's owner is out)" : s.leads + " leads the next round")});
    return ev;
  }
  /* per step, a few facts the timeline holds in other fields, named for the page */
  function enrich(g) {
    var st = steps(g);
    st.forEach(function (s, i) {
      if (s._done) return;
      s._done = true;
      s.target_of = s.gouji ? s.aim : "";
    });
  }

  function seatHand(g, k, seat, held) {
    if (!G(g).deal) return '<div class="ghand none">hand not recorded</div>';
    if (view_seat && view_seat !== seat) return '<div class="ghand hidden">hidden (' + esc(view_seat) + "\u2019s view)</div>";
    return '<div class="ghand" data-seat="' + seat + '">' + handHTML(held[seat] || []) + "</div>";
  }
  function renderTable(g, k, v) {
    var game = G(g), s = v.step, out = [], held = handsAt(g, k);
    var finished = {};
    ((s && s.finished) || []).forEach(function (x) { finished[x[0]] = x[1]; });
    if (v.kind === "result" && game.places) game.places.forEach(function (p, i) { if (p) finished[p] = i + 1; });
    var burning = {};
    ((s && s.burning) || []).forEach(function (x) { burning[x[0]] = x[1]; });
    var ask = (s && v.kind !== "result") ? s.ask || [] : [];
    if (v.kind === "pre" && game.leader) ask = [game.leader];
    var passed = (s && v.kind !== "result") ? s.passed || [] : [];
    var owner = s && v.kind !== "result" ? s.owner : "";
    var target = s && v.kind !== "result" ? (s.target || (s.gouji ? s.target_of : "")) : "";
    SEATS.forEach(function (seat, i) {
      var cls = ["gseat", seat];
      if (s && v.kind !== "result" && s.seat === seat) cls.push("actor");
      if (owner === seat) cls.push("owner");
      if (target === seat) cls.push("target");
      if (finished[seat]) cls.push("out");
      var n = v.counts && v.counts[i] != null ? v.counts[i] : null;
      var start = (game.start_counts || [])[i] || 36;
      var b = [];
      if (owner === seat) b.push('<span class="badge owner">top</span>');
      var ai = ask.indexOf(seat);
      if (ai >= 0) b.push('<span class="badge ask' + (ai === 0 ? " first" : "") + '" title="ask order">' + (ai === 0 ? (v.kind === "pre" || (s && s.leads) ? "leads" : "asked 1st") : "ask " + (ai + 1)) + "</span>");
      if (passed.indexOf(seat) >= 0) b.push('<span class="badge passed">passed</span>');
      if (target === seat) b.push('<span class="badge target">够级 target</span>');
      if (burning[seat]) b.push('<span class="badge burning">burning ' + esc(burning[seat]) + "</span>");
      if (game.revolutionary === seat) b.push('<span class="badge rev">革命</span>');
      if (finished[seat]) b.push('<span class="badge place p' + finished[seat] + '">' + esc(placeName(finished[seat])) + "</span>");
      var last = v.round[seat];
      var lp = !last ? "" : (last === "pass" || last === "let") ? '<span class="pass">' + (last === "let" ? "让牌" : "pass") + "</span>" : setHTML(last, false);
      out.push('<div class="' + cls.join(" ") + '" data-seat="' + seat + '">' +
        '<span class="plate"><span class="letter ' + team(seat) + '">' + seat.slice(1) + "</span>" + esc(seat) +
        (name(seat) ? " " + esc(name(seat)) : "") + ' <span class="count" data-count="' + (n == null ? "" : n) + '">' + (n == null ? "?" : n) + " cards</span></span>" +
        '<span class="opp">' + team(seat) + " team \u00b7 对头 " + opp(seat) + "</span>" +
        '<span class="bar"><i style="width:' + (n == null ? 0 : Math.round(100 * n / Math.max(start, n, 1))) + '%"></i></span>' +
        '<div class="badges">' + b.join("") + "</div>" +
        '<div class="lastplay">' + lp + "</div>" + seatHand(g, k, seat, held) + "</div>");
    });
    out.push('<div id="gcenter">' + centerHTML(g, k, v) + "</div>");
    $("table").innerHTML = out.join("");
  }

  function centerHTML(g, k, v) {
    var game = G(g), s = v.step, out = [];
    if (v.kind === "pre") {
      out.push("<h3>Game " + esc(game.number != null ? game.number : game.index) + " \u00b7 before the first play</h3>");
      var pre = game.preplay || [];
      if (pre.length) {
        out.push('<ul class="pre">' + pre.map(function (p) {
          return '<li data-pre="' + esc(p.kind) + '"><b>' + esc(PRE[p.kind] || p.kind) + "</b>: <code>" + esc(p.text) + "</code></li>";
        }).join("") + "</ul>");
      } else out.push('<div class="none">no tribute, 还贡 or 革命 in this game</div>');
      if (game.revolutionary) out.push('<div class="event gouji">革命: ' + esc(game.revolutionary) + " revolts</div>");
      if (game.leader) out.push('<div class="askline">' + seatTag(game.leader) + " leads the first round</div>");
      if (!steps(g).length) out.push('<div class="none">no actions (' + esc(game.kind) + ")</div>");
      return out.join("");
    }
    if (v.kind === "result") {
      out.push("<h3>Game " + esc(game.number != null ? game.number : game.index) + " \u00b7 result</h3>");
      var pl = game.places || game.result;
      if (pl) out.push('<div class="places">' + pl.map(function (p, i) {
        return '<span class="badge place p' + (i + 1) + '">' + (i + 1) + ". " + esc(placeName(i + 1)) + " " + esc(p || "?") + "</span>";
      }).join(" ") + "</div>");
      if (game.stats && game.stats.sweep) out.push('<div class="event gouji" id="sweep">串三户 (sweep)</div>');
      var sc = game.score || game.recorded_score;
      if (sc) out.push('<div class="final" id="final-score">odd ' + sc.odd + " : even " + sc.even + "</div>");
      return out.join("");
    }
    var top = s.top, own = s.owner;
    if (!top && (s.round_end || s.fail)) { top = s.kind === "play" ? s.cards : v.prevTop; own = s.kind === "play" ? s.seat : v.prevOwner; }
    out.push('<div class="num">action ' + esc(s.number || "\u2013") + " \u00b7 " + seatTag(s.seat) + " " +
      esc(s.kind === "play" ? "plays " + s.cards : s.kind) + "</div>");
    out.push('<div class="topset">' + (top ? setHTML(top, true) + '<span>top of <span class="who">' + esc(own) + "</span>" +
      (s.target ? ' \u00b7 够级 at <b class="tgt">' + esc(s.target) + "</b>" : "") + "</span>" : '<span class="none">the round is over</span>') + "</div>");
    events(s).forEach(function (e) { out.push('<div class="event ' + e.cls + '">' + esc(e.text) + "</div>"); });
    if (!s.leads && s.ask && s.ask.length) out.push('<div class="askline">ask order: ' + s.ask.map(seatTag).join(" \u2192 ") + "</div>");
    if (s.passed && s.passed.length) out.push('<div class="askline">passed: ' + s.passed.map(seatTag).join(" ") + "</div>");
    return out.join("");
  }

  function renderInfo(g) {
    var m = M(), game = G(g), sc = game.score || game.recorded_score;
    $("info").innerHTML = "<h2>Game</h2><dl>" +
      "<dt>game</dt><dd>" + esc(game.number != null ? game.number : game.index) + " (" + esc(game.kind) + ")</dd>" +
      "<dt>rules</dt><dd>" + esc(m.rules || "") + "</dd>" +
      "<dt>teams</dt><dd>" + seatTag("P1") + seatTag("P3") + seatTag("P5") + " odd \u00b7 " + seatTag("P2") + seatTag("P4") + seatTag("P6") + " even</dd>" +
      "<dt>first lead</dt><dd>" + esc(game.leader || "?") + "</dd>" +
      (game.revolutionary ? "<dt>革命</dt><dd>" + esc(game.revolutionary) + "</dd>" : "") +
      "<dt>score</dt><dd>" + (sc ? "odd " + sc.odd + " \u00b7 even " + sc.even : "\u2014") + "</dd>" +
      "<dt>match</dt><dd>odd " + m.totals.odd + " \u00b7 even " + m.totals.even + "</dd></dl>";
  }
  function renderNotes(g, v) {
    var d = G(g).diagnostics || [], line = v.step ? v.step.line : null;
    $("notes").innerHTML = "<h2>Findings</h2>" + (d.length ? d.map(function (x) {
      return '<div class="note-item ' + esc(x.severity) + (line && x.line === line ? " here" : "") + '"><code>' + esc(x.code) + "</code> line " + esc(x.line) + ": " + esc(x.message) + "</div>";
    }).join("") : '<div class="none">none</div>');
  }
  function renderLog(g, k) {
    var st = steps(g), rows = ['<h2>Actions</h2><table><thead><tr><th class="n">#</th><th>seat</th><th>action</th><th>note</th></tr></thead><tbody>'];
    rows.push('<tr class="step' + (k === 0 ? " current" : "") + '" data-step="0"><td class="n"></td><td colspan="3">before play</td></tr>');
    st.forEach(function (s, i) {
      var n = [];
      if (s.gouji) n.push("够级\u2192" + s.target_of);
      if (s.burn) n.push("烧");
      if (s.fail) n.push("fail");
      if (s.place && !s.fail) n.push(placeName(s.place));
      if (s.jiefeng) n.push("接风");
      if (s.round_end) n.push("\u23ce " + s.leads);
      var newRound = i > 0 && (st[i - 1].round_end || st[i - 1].fail);
      rows.push('<tr class="step' + (i + 1 === k ? " current" : "") + (newRound ? " round" : "") + (s.gouji ? " gouji" : "") + '" data-step="' + (i + 1) + '">' +
        '<td class="n">' + esc(s.number || "") + "</td><td>" + esc(s.seat) + '</td><td class="what">' + esc(s.kind === "play" ? s.cards : s.kind) + "</td><td>" + esc(n.join(" ")) + "</td></tr>");
    });
    rows.push('<tr class="step' + (k === st.length + 1 ? " current" : "") + '" data-step="' + (st.length + 1) + '"><td class="n"></td><td colspan="3">result</td></tr>');
    rows.push("</tbody></table>");
    $("log").innerHTML = rows.join("");
    var cur = $("log").querySelector("tr.current");
    if (cur && cur.scrollIntoView) cur.scrollIntoView({block: "nearest"});
  }

  function chartWidth(id) { return Math.max(300, Math.min(900, $(id).clientWidth || 460)); }
  function renderCardsChart(g, k) {
    var game = G(g), st = steps(g), W = chartWidth("cards-chart"), Hh = 230, l = 34, r = 12, t = 12, b = 28;
    if (!st.length) { $("cards-chart").innerHTML = '<div class="none">No play in this game.</div>'; return; }
    var series = SEATS.map(function (s, i) {
      return [(game.start_counts || [])[i]].concat(st.map(function (x) { return (x.counts || [])[i]; }));
    });
    var max = 0;
    series.forEach(function (a) { a.forEach(function (v) { if (v != null && v > max) max = v; }); });
    max = Math.max(10, Math.ceil(max / 10) * 10);
    var n = st.length;
    function X(i) { return l + (W - l - r) * i / n; }
    function Y(v) { return t + (Hh - t - b) * (1 - v / max); }
    var out = ['<svg id="cards-svg" viewBox="0 0 ' + W + " " + Hh + '" width="' + W + '" height="' + Hh + '" role="img" aria-label="cards left per player over the game">'];
    for (var v = 0; v <= max; v += 10) out.push('<line class="grid" x1="' + l + '" x2="' + (W - r) + '" y1="' + Y(v) + '" y2="' + Y(v) + '"/><text x="' + (l - 4) + '" y="' + (Y(v) + 4) + '" text-anchor="end">' + v + "</text>");
    out.push('<line class="axis" x1="' + l + '" x2="' + (W - r) + '" y1="' + Y(0) + '" y2="' + Y(0) + '"/>');
    out.push('<text x="' + X(0) + '" y="' + (Hh - b + 15) + '">0</text><text x="' + X(n) + '" y="' + (Hh - b + 15) + '" text-anchor="end">' + n + " actions</text>");
    series.forEach(function (a, si) {
      var d = "", started = false;
      a.forEach(function (v, i) {
        if (v == null) { started = false; return; }
        d += (started ? " H" + X(i).toFixed(1) + " V" : " M" + X(i).toFixed(1) + " ") + Y(v).toFixed(1);
        started = true;
      });
      out.push('<path class="line s' + (si + 1) + '" data-seat="' + SEATS[si] + '" d="' + d + '"><title>' + SEATS[si] + "</title></path>");
    });
    var kk = Math.min(k, n);
    out.push('<line class="cursor" x1="' + X(kk) + '" x2="' + X(kk) + '" y1="' + t + '" y2="' + Y(0) + '"/>');
    for (var i = 0; i < n; i += Math.max(1, Math.floor(n / 60))) {
      out.push('<rect class="hit" data-step="' + (i + 1) + '" x="' + X(i) + '" y="' + t + '" width="' + Math.max(2, (W - l - r) / 60) + '" height="' + (Hh - t - b) + '" fill="transparent"/>');
    }
    out.push("</svg>");
    out.push('<div class="legend">' + SEATS.map(function (s, i) {
      return '<svg width="18" height="8"><line class="line s' + (i + 1) + '" x1="0" x2="18" y1="4" y2="4"/></svg> ' + s;
    }).join(" &nbsp; ") + "</div>");
    $("cards-chart").innerHTML = out.join("");
  }
  function renderScoreChart(g) {
    var games = M().games, W = chartWidth("score-chart"), Hh = 230, l = 34, r = 12, t = 12, b = 28;
    var odd = [0], even = [0];
    games.forEach(function (x) {
      var s = x.score || x.recorded_score || {odd: 0, even: 0};
      odd.push(odd[odd.length - 1] + s.odd); even.push(even[even.length - 1] + s.even);
    });
    var n = games.length;
    var max = Math.max(2, Math.max.apply(null, odd.concat(even)));
    var min = Math.min(0, Math.min.apply(null, odd.concat(even)));
    function X(i) { return l + (W - l - r) * i / Math.max(1, n); }
    function Y(v) { return t + (Hh - t - b) * (1 - (v - min) / (max - min)); }
    var out = ['<svg id="score-svg" viewBox="0 0 ' + W + " " + Hh + '" width="' + W + '" height="' + Hh + '" role="img" aria-label="each team\'s total score">'];
    var stepv = max - min > 20 ? 5 : max - min > 8 ? 2 : 1;
    for (var v = Math.ceil(min / stepv) * stepv; v <= max; v += stepv) out.push('<line class="grid" x1="' + l + '" x2="' + (W - r) + '" y1="' + Y(v) + '" y2="' + Y(v) + '"/><text x="' + (l - 4) + '" y="' + (Y(v) + 4) + '" text-anchor="end">' + v + "</text>");
    out.push('<line class="axis" x1="' + l + '" x2="' + (W - r) + '" y1="' + Y(0) + '" y2="' + Y(0) + '"/>');
    [["odd", odd], ["even", even]].forEach(function (p) {
      var d = p[1].map(function (v, i) { return (i ? " L" : "M") + X(i).toFixed(1) + " " + Y(v).toFixed(1); }).join("");
      out.push('<path class="line t-' + p[0] + '" data-team="' + p[0] + '" d="' + d + '"/>');
      p[1].forEach(function (v, i) {
        if (!i) return;
        out.push('<circle class="dot hit" data-section="' + (i - 1) + '" cx="' + X(i) + '" cy="' + Y(v) + '" r="' + (i - 1 === g ? 6 : 4) + '" fill="var(--' + p[0] + ')"><title>' + p[0] + " after game " + i + ": " + v + "</title></circle>");
      });
    });
    for (var i = 1; i <= n; i++) out.push('<text x="' + X(i) + '" y="' + (Hh - b + 15) + '" text-anchor="middle">' + i + "</text>");
    out.push("</svg>");
    out.push('<div class="legend"><span class="team odd">odd</span> ' + odd[n] + " &nbsp; <span class=\"team even\">even</span> " + even[n] + (n < 2 ? " (one game)" : "") + "</div>");
    $("score-chart").innerHTML = out.join("");
  }

  function renderPlayers(g) {
    var game = G(g), st = game.stats || {}, places = {};
    (game.places || []).forEach(function (p, i) { if (p) places[p] = i + 1; });
    function list(x) { return x && x.length ? x.length + " (" + x.join(" ") + ")" : "0"; }
    var rows = SEATS.map(function (s) {
      return "<tr data-seat=\"" + s + "\"><td>" + seatTag(s) + " " + esc(name(s)) + "</td><td>" + esc(places[s] ? places[s] + " " + placeName(places[s]) : "\u2014") + "</td>" +
        "<td>" + esc(list((st.gouji_made || {})[s])) + "</td><td>" + esc(list((st.gouji_suffered || {})[s])) + "</td>" +
        '<td class="n">' + esc((st.burns_won || {})[s] || 0) + '</td><td class="n">' + esc((st.burns_lost || {})[s] || 0) + "</td>" +
        '<td class="n">' + esc((st.lets || {})[s] || 0) + '</td><td class="n">' + esc((st.cards_left || {})[s] != null ? st.cards_left[s] : "\u2014") + "</td></tr>";
    });
    $("players").innerHTML = "<h2>Players in this game</h2><table><thead><tr><th>seat</th><th>place</th><th>够级 made (targets)</th><th>够级 suffered (from)</th>" +
      "<th>burns won</th><th>burns lost</th><th>让牌</th><th>cards left at the end</th></tr></thead><tbody>" + rows.join("") + "</tbody></table>";
  }

  function renderHeader() {
    var m = M(), tags = m.tags || {};
    $("title").textContent = (m.title || "Gouji replay");
    $("subtitle").innerHTML = "Gouji (够级) \u00b7 rules <b>" + esc(m.rules || "") + "</b> \u00b7 " + SEATS.map(function (s) {
      return seatTag(s) + (name(s) ? " " + esc(name(s)) : "");
    }).join(" ") + (tags.Date ? " \u00b7 " + esc(tags.Date) : "");
    if (matches.length > 1) {
      $("match-pick").innerHTML = '<select id="match">' + matches.map(function (x, i) {
        return '<option value="' + i + '"' + (i === mi ? " selected" : "") + ">" + esc(x.title || "Record " + (i + 1)) + "</option>";
      }).join("") + "</select>";
    }
  }
  function renderTabs(g) {
    $("hand-tabs").innerHTML = M().games.map(function (x, i) {
      return '<button type="button" data-section="' + i + '" class="' + (i === g ? "current" : "") + '">Game ' +
        esc(x.number != null ? x.number : x.index) + (x.diagnostics && x.diagnostics.length ? ' <span class="bad">!</span>' : "") + "</button>";
    }).join("");
  }

  function render(g, k) {
    if (!M() || !M().games.length) { $("status").textContent = "No game in this record."; return; }
    enrich(g);
    var v = view(g, k), s = v.step, game = G(g), N = steps(g).length;
    renderHeader(); renderTabs(g); renderTable(g, k, v); renderInfo(g); renderNotes(g, v); renderLog(g, k);
    renderCardsChart(g, k); renderScoreChart(g); renderPlayers(g);
    var frag = "#g" + (g + 1) + "-s" + k + (view_seat ? "-v" + view_seat : "");
    var link = document.createElement("a");   /* built in the DOM: the page's text holds no link attribute */
    link.id = "permalink"; link.title = "a link to this step"; link.setAttribute("href", frag);
    link.textContent = k === 0 ? "before play" : k > N ? "result" : "action " + k + " / " + N;
    $("step-label").textContent = "";
    $("step-label").appendChild(link);
    try { if (location.hash !== frag) history.replaceState(null, "", frag); } catch (e) { /* file:// in some browsers */ }
    $("prev").disabled = g === 0 && k === 0;
    $("next").disabled = g === M().games.length - 1 && k === lastStep(g);
    var sc = game.score || game.recorded_score, ev = events(s && v.kind !== "result" ? s : null);
    var text;
    if (v.kind === "pre") text = "Game " + esc(game.number != null ? game.number : game.index) + ": before the first play" + (game.leader ? " \u00b7 " + esc(game.leader) + " leads" : "");
    else if (v.kind === "result") text = "Result: " + esc((game.places || game.result || []).join(" ")) + (game.stats && game.stats.sweep ? " \u00b7 串三户" : "") + (sc ? ' \u00b7 <span class="wins">odd ' + sc.odd + " : even " + sc.even + "</span>" : "");
    else text = esc(s.seat) + " " + esc(s.kind === "play" ? "plays " + s.cards : s.kind) + (ev.length ? " \u00b7 " + ev.map(function (e) { return esc(e.text); }).join(" \u00b7 ") : "");
    var fin = s && v.kind !== "result" ? (s.finished || []).map(function (x) { return x[0] + ":" + x[1]; }).join(" ") : "";
    K.setStatus({match: mi + 1, game: game.number != null ? game.number : game.index, "game-index": g, step: k, steps: N + 2, kind: v.kind,
      seat: s && v.kind !== "result" ? s.seat : "", number: s && v.kind !== "result" ? s.number : "",
      top: s && v.kind !== "result" ? s.top : "", owner: s && v.kind !== "result" ? s.owner : "",
      target: s && v.kind !== "result" ? (s.gouji ? s.target_of : s.target) : "", gouji: s && v.kind !== "result" && s.gouji ? "1" : "",
      burn: s && v.kind !== "result" && (s.burn || s.fail) ? (s.fail ? "fail" : "burn") : "",
      ask: s && v.kind !== "result" ? (s.ask || []).join(" ") : (v.kind === "pre" ? game.leader || "" : ""),
      passed: s && v.kind !== "result" ? (s.passed || []).join(" ") : "", finished: fin,
      place: s && v.kind !== "result" ? s.place || "" : "", leads: s && v.kind !== "result" ? s.leads || "" : "",
      jiefeng: s && v.kind !== "result" && s.jiefeng ? "1" : "",
      places: v.kind === "result" ? (game.places || game.result || []).join(" ") : "",
      sweep: v.kind === "result" && game.stats && game.stats.sweep ? "1" : "",
      score: v.kind === "result" && sc ? sc.odd + "-" + sc.even : "", view: view_seat}, text);
    ["table", "info", "notes", "log", "players", "subtitle", "status"].forEach(function (id) { glossify($(id)); });
  }

  var stepper = ReplayStepper({
    sections: function () { return M() ? M().games.length : 0; },
    last: lastStep,
    render: render,
    clickRoots: ["hand-tabs", "log", "cards-chart", "score-chart"]
  });
  $("match-pick").addEventListener("change", function (e) {
    if (e.target.id === "match") { mi = +e.target.value; stepper.go(0, 0); }
  });
  $("seat-pick").innerHTML = '<option value="">All hands</option>' + SEATS.map(function (s) {
    return '<option value="' + s + '">' + s + "\u2019s view</option>";
  }).join("");
  $("seat-pick").addEventListener("change", function (e) {
    view_seat = e.target.value;
    stepper.go(stepper.state.sec, stepper.state.step);
  });
  /* links: #g2-s15 (game 2, step 15), -vP3 (P3's view) */
  function fromHash() {
    var m = /^#g(\d+)-s(\d+)(?:-v(P[1-6]))?$/.exec(location.hash || "");
    if (!m || !M() || +m[1] < 1 || +m[1] > M().games.length) return false;
    view_seat = m[3] || "";
    $("seat-pick").value = view_seat;
    stepper.go(+m[1] - 1, Math.min(+m[2], lastStep(+m[1] - 1)));
    return true;
  }
  window.addEventListener("hashchange", fromHash);
  if (!fromHash()) stepper.go(0, 0);
  document.documentElement.setAttribute("data-ready", "true");
})();
