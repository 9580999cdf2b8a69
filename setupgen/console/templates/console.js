// setupgen console: the one script of its pages (docs/console.md, "The players' side").
// It asks the page's update channel (data-status) every few seconds, reloads the page when
// what it shows has changed (not while a form on it is being filled in, nor once one is sent:
// a reload then would cancel the answer the director waits for), and counts the
// round clock down between answers. Every page works without it: a reload shows the same.
(function () {
  "use strict";
  var body = document.body;
  var url = body.getAttribute("data-status");
  var stamp = body.getAttribute("data-stamp");
  var clock = document.querySelector(".clock[data-left]");
  var shown = clock ? clock.querySelector(".left") : null;
  var deadline = null;
  var typing = false;
  var every = 5000;

  document.addEventListener("input", function () { typing = true; });
  document.addEventListener("submit", function () { typing = true; });

  function two(n) { return (n < 10 ? "0" : "") + n; }

  function format(s) {
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), x = s % 60;
    return h ? h + ":" + two(m) + ":" + two(x) : m + ":" + two(x);
  }

  function follow(state, left) {
    deadline = state === "running" ? Date.now() + left * 1000 : null;
  }

  function tick() {
    if (deadline === null || !shown) { return; }
    var left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
    shown.textContent = format(left);
    if (left === 0) { deadline = null; poll(); }
  }

  function poll() {
    if (!url || !window.fetch) { return; }
    fetch(url, { cache: "no-store", credentials: "same-origin" }).then(function (r) {
      return r.ok ? r.json() : null;
    }).then(function (d) {
      if (!d) { return; }
      if (d.stamp !== stamp && !typing) { window.location.reload(); return; }
      if (d.clock) { follow(d.clock.state, d.clock.left); }
    }).catch(function () { /* the console is away for a moment: ask again later */ });
  }

  if (clock) { follow(clock.getAttribute("data-state"), parseInt(clock.getAttribute("data-left"), 10) || 0); }
  window.setInterval(tick, 1000);
  if (url) { poll(); window.setInterval(poll, every); }  // at once too: a kept page's clock may be seconds old
}());
