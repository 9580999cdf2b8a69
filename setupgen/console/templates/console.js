// setupgen console: the one script of its pages (docs/console.md, "The players' side").
// It asks the page's update channel (data-status) every few seconds, reloads the page when
// what it shows has changed (not while a form on it is being filled in, nor once one is sent:
// a reload then would cancel the answer the director waits for), and counts the
// round clock down between answers. Every page works without it: a reload shows the same.
// A table's report goes through the phone's outbox (issue 49): kept in the browser's own storage
// with its own submission id until the console has answered, sent again when the network is back
// (at once, every few seconds, and on the next visit); the console stores a submission once.
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

  var form = document.querySelector("form[data-outbox]");
  var saved = document.getElementById("outbox");
  var key = form ? "setupgen-outbox:" + form.getAttribute("data-outbox") : null;
  var box = null;
  var sending = false;
  try { box = window.localStorage; box.getItem("setupgen"); } catch (e) { box = null; }

  function newId() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return (b < 16 ? "0" : "") + b.toString(16); }).join("");
  }

  function kept() {
    try { return JSON.parse(box.getItem(key) || "null"); } catch (e) { return null; }
  }

  function showSaved(on) { if (saved) { saved.hidden = !on; } }

  function answered(item, r) {
    return r.text().then(function (text) {
      sending = false;
      if (r.status >= 500) { showSaved(true); return; }  // the console is in trouble: keep it, try again
      box.removeItem(key);  // stored (a resend too), or refused with its reasons
      if (r.ok) { window.location.replace(item.page); return; }
      document.open(); document.write(text); document.close();
    });
  }

  function send() {
    var item = kept();
    if (!item || sending) { return; }
    sending = true;
    fetch(item.url, {
      method: "POST", credentials: "same-origin", cache: "no-store",
      headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: item.body
    }).then(function (r) { return answered(item, r); })
      .catch(function () { sending = false; showSaved(true); });  // no network: kept on this phone
  }

  if (form && box && window.fetch && window.crypto && window.crypto.getRandomValues && window.URLSearchParams) {
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      form.querySelector("input[name=submission]").value = newId();
      var body = new URLSearchParams(new FormData(form)).toString();
      box.setItem(key, JSON.stringify({ url: form.action, page: window.location.pathname, body: body }));
      send();
    });
    window.addEventListener("online", send);
    showSaved(kept() !== null);
    send();  // a report kept from an earlier visit
    window.setInterval(send, every);
  }

  // The referees' calls (issue 49): a staff page lists the waiting ones (data-calls, their ids);
  // with "sound on a new call" ticked (kept on this device) a call not seen before beeps once.
  var waiting = body.getAttribute("data-calls");
  var sound = document.getElementById("call-sound");
  if (box && sound) {
    sound.checked = box.getItem("setupgen-call-sound") === "1";
    sound.addEventListener("change", function () { box.setItem("setupgen-call-sound", sound.checked ? "1" : "0"); });
  }
  if (box && waiting !== null) {
    var ids = waiting ? waiting.split(" ") : [];
    var seen = (box.getItem("setupgen-calls-seen") || "").split(" ");
    var fresh = ids.filter(function (id) { return seen.indexOf(id) < 0; });
    box.setItem("setupgen-calls-seen", ids.join(" "));
    if (fresh.length && box.getItem("setupgen-call-sound") === "1") { beep(); }
  }

  function beep() {
    try {
      var Audio = window.AudioContext || window.webkitAudioContext;
      var ctx = new Audio(), tone = ctx.createOscillator(), gain = ctx.createGain();
      tone.frequency.value = 880; gain.gain.value = 0.2;
      tone.connect(gain); gain.connect(ctx.destination);
      tone.start(); tone.stop(ctx.currentTime + 0.4);
    } catch (e) { /* no sound on this device: the title and the list still say it */ }
  }

  if (clock) { follow(clock.getAttribute("data-state"), parseInt(clock.getAttribute("data-left"), 10) || 0); }
  window.setInterval(tick, 1000);
  if (url) { poll(); window.setInterval(poll, every); }  // at once too: a kept page's clock may be seconds old
}());
