/* Shared by the replay viewers: stepping through sections (hands, games) of steps
   with the buttons #first #prev #next #last, the keyboard (arrows, Home/End,
   PgUp/PgDn) and clicks on [data-step] / [data-section] elements; a status bar
   helper. No framework, no network. Usage:
     var stepper = ReplayStepper({sections: function () -> n, last: function (sec) -> last step,
                                  render: function (sec, step), clickRoots: [ids]});
     stepper.go(sec, step); stepper.state -> {sec, step} */
(function (root) {
  "use strict";
  function $(id) { return document.getElementById(id); }
  function esc(x) {
    return String(x == null ? "" : x).replace(/[&<>"']/g, function (c) {
      return {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c];
    });
  }
  /* #status: data-* attributes for tests and scripts, HTML text for people */
  function setStatus(attrs, html) {
    var el = $("status");
    Object.keys(attrs).forEach(function (k) {
      el.setAttribute("data-" + k, attrs[k] == null ? "" : String(attrs[k]));
    });
    el.innerHTML = html;
  }
  function ReplayStepper(opts) {
    var state = {sec: 0, step: 0};
    function has() { return opts.sections() > 0; }
    function go(sec, step) {
      state.sec = sec; state.step = step;
      opts.render(sec, step);
    }
    function next() {
      if (!has()) return;
      if (state.step < opts.last(state.sec)) go(state.sec, state.step + 1);
      else if (state.sec + 1 < opts.sections()) go(state.sec + 1, 0);
    }
    function prev() {
      if (!has()) return;
      if (state.step > 0) go(state.sec, state.step - 1);
      else if (state.sec > 0) go(state.sec - 1, opts.last(state.sec - 1));
    }
    function first() { if (has()) go(state.sec, 0); }
    function last() { if (has()) go(state.sec, opts.last(state.sec)); }
    function section(delta) {
      if (!has()) return;
      go(Math.max(0, Math.min(opts.sections() - 1, state.sec + delta)), 0);
    }
    $("next").addEventListener("click", next);
    $("prev").addEventListener("click", prev);
    $("first").addEventListener("click", first);
    $("last").addEventListener("click", last);
    (opts.clickRoots || []).forEach(function (id) {
      var el = $(id);
      if (!el) return;
      el.addEventListener("click", function (e) {
        var s = e.target.closest("[data-section]");
        if (s) { go(+s.getAttribute("data-section"), 0); return; }
        var t = e.target.closest("[data-step]");
        if (t && has()) go(state.sec, +t.getAttribute("data-step"));
      });
    });
    document.addEventListener("keydown", function (e) {
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      var tag = e.target && e.target.tagName;
      if (tag === "SELECT" || tag === "INPUT" || tag === "TEXTAREA") return;
      switch (e.key) {
        case "ArrowRight": next(); break;
        case "ArrowLeft": prev(); break;
        case "Home": first(); break;
        case "End": last(); break;
        case "PageDown": section(1); break;
        case "PageUp": section(-1); break;
        default: return;
      }
      e.preventDefault();
    });
    var resizeTimer = null;
    window.addEventListener("resize", function () {
      clearTimeout(resizeTimer);
      resizeTimer = setTimeout(function () { if (has()) opts.render(state.sec, state.step); }, 150);
    });
    return {state: state, go: go, next: next, prev: prev};
  }
  root.ReplayStepper = ReplayStepper;
  root.ReplayKit = {$: $, esc: esc, setStatus: setStatus};
})(window);
