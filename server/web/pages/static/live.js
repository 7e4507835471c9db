// Live pages. A page region with data-live (a tournament's tables, the list of tournaments,
// a match) polls that JSON view every 2 s while what it shows may change: the view answers
// its version and, when the page has not seen that version, the region's HTML rendered by
// the server's own templates, which replaces the region in place (its scroll boxes keep
// their position, and keyboard focus stays on the element it was on). A tournament's
// progress bar and status follow every poll. Polling stops once the view says it is final
// (finished, cancelled or failed).
(function () {
  "use strict";
  var region = document.querySelector("[data-live]");
  if (!region) { return; }
  var note = document.getElementById("live-note");
  var PERIOD = 2000;

  function say(text) { if (note) { note.textContent = text; } }

  function set(id, value) {
    var el = document.getElementById(id);
    if (el && value !== undefined && value !== null) { el.textContent = value; }
    return el;
  }

  function progress(v) {
    if (v.status === undefined) { return; }
    var status = set("status", v.status);
    if (status) { status.className = "status " + v.status; }
    set("pairs-done", v.pairs_done);
    set("pairs-total", v.pairs_total);
    var bar = document.getElementById("progress");
    if (bar) { bar.max = v.pairs_total || 1; bar.value = v.pairs_done; }
    var error = document.getElementById("live-error");
    if (error) { error.textContent = v.error || ""; error.hidden = !v.error; }
  }

  // Where keyboard focus is inside the region, as a path of child indexes from it: the
  // new HTML has the same shape, so the same path finds the same link or scroll box.
  function focusPath() {
    var el = document.activeElement, path = [];
    if (!el || el === region || !region.contains(el)) { return null; }
    while (el && el !== region) {
      path.unshift(Array.prototype.indexOf.call(el.parentNode.children, el));
      el = el.parentNode;
    }
    return path;
  }

  function refocus(path) {
    var el = region;
    for (var i = 0; path && i < path.length && el; i++) { el = el.children[path[i]]; }
    if (path && el && el !== region && typeof el.focus === "function") { el.focus({preventScroll: true}); }
  }

  function replace(html) {
    var scrolled = Array.prototype.map.call(region.querySelectorAll(".scroll"), function (box) { return box.scrollLeft; });
    var focused = focusPath();
    region.innerHTML = html;
    Array.prototype.forEach.call(region.querySelectorAll(".scroll"), function (box, i) {
      if (scrolled[i]) { box.scrollLeft = scrolled[i]; }
    });
    refocus(focused);
  }

  function poll() {
    var base = region.dataset.live;  // the list's own filters may already be in it
    var url = base + (base.indexOf("?") < 0 ? "?" : "&") + "seen=" + encodeURIComponent(region.dataset.version || "");
    fetch(url, {headers: {"Accept": "application/json"}, cache: "no-store"})
      .then(function (r) { if (!r.ok) { throw new Error("HTTP " + r.status); } return r.json(); })
      .then(function (v) {
        progress(v);
        if (v.html !== null && v.html !== undefined) { replace(v.html); }
        region.dataset.version = v.version;
        region.dataset.final = v.final ? "true" : "false";
        if (v.final) {
          say(v.status ? "(" + v.status + ")" : "");
        } else {
          say("(updating every 2 s)");
          setTimeout(poll, PERIOD);
        }
      })
      .catch(function () { say("(connection lost; retrying)"); setTimeout(poll, PERIOD); });
  }

  if (region.dataset.final !== "true") { say("(updating every 2 s)"); setTimeout(poll, PERIOD); }
}());
