// Live progress of a tournament: poll the arena's own API every 2 s and update the
// numbers in place, until the tournament is finished, cancelled or failed.
(function () {
  "use strict";
  var live = document.getElementById("live");
  if (!live) { return; }
  var finals = live.dataset.final.split(" ");
  var status = document.getElementById("status");
  var done = document.getElementById("pairs-done");
  var total = document.getElementById("pairs-total");
  var bar = document.getElementById("progress");
  var note = document.getElementById("live-note");

  function show(t) {
    status.textContent = t.status;
    status.className = "status " + t.status;
    done.textContent = t.pairs_done;
    total.textContent = t.pairs_total;
    bar.max = t.pairs_total || 1;
    bar.value = t.pairs_done;
  }

  function poll() {
    fetch(live.dataset.api, {headers: {"Accept": "application/json"}, cache: "no-store"})
      .then(function (r) { if (!r.ok) { throw new Error("HTTP " + r.status); } return r.json(); })
      .then(function (t) {
        show(t);
        if (finals.indexOf(t.status) >= 0) {
          note.textContent = "(" + t.status + "; reload for the final tables)";
        } else {
          note.textContent = "(updating)";
          setTimeout(poll, 2000);
        }
      })
      .catch(function () { note.textContent = "(connection lost; retrying)"; setTimeout(poll, 2000); });
  }

  if (finals.indexOf(status.textContent.trim()) < 0) { setTimeout(poll, 2000); }
}());
