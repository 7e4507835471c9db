// Step through a hand (templates/_hand.html) by card, by trick and by phase. Every room
// inside the .replay element moves together: the stepper holds one list of places
// (server.web.pages.steps.merged_keys) and each room shows its own last step at or before
// the place, so the rooms of a board always show the same trick. The place is kept in the
// URL fragment (#deal, #bidding2, #t3c2, #score): a link opens the same position.
// The compass of each room draws the hands of its step, cloning the room's own card
// elements. Without this script everything is shown and the controls stay hidden.
(function () {
  "use strict";
  var replay = document.querySelector(".replay");
  var bar = replay && replay.querySelector(".stepper");
  if (!bar) { return; }
  var keys = JSON.parse(bar.dataset.keys);
  var rank = {};
  keys.forEach(function (k, i) { rank[k.key] = i; });
  var label = bar.querySelector(".step-label");
  var current = Number(bar.dataset.start) || 0;

  var rooms = Array.prototype.map.call(replay.querySelectorAll(".room"), function (el) {
    var frames = JSON.parse(el.dataset.frames);
    return {
      el: el,
      frames: frames,
      ranks: frames.map(function (f) { return rank[f[0]]; }),
      seats: el.dataset.seats.split(" "),
      players: JSON.parse(el.dataset.players),
      marked: el.querySelectorAll("[data-step], [data-at]"),
    };
  });

  // stops: the last place of each trick, and of each phase (the deal, the auction ... the play, the score)
  function stops(kind) {
    var out = [];
    keys.forEach(function (k, i) {
      var next = keys[i + 1];
      if (kind === "phase" ? !next || next.phase !== k.phase
          : k.phase === "play" && (!next || next.trick !== k.trick)) {
        out.push(i);
      }
    });
    return out;
  }
  var trickStops = stops("trick");
  var phaseStops = stops("phase");
  var beforePlay = Math.max(0, keys.findIndex(function (k) { return k.phase === "play"; }) - 1);

  function card(room, name) {
    var found = room.el.querySelector('.card[data-card="' + name + '"]');
    var copy = found ? found.cloneNode(true) : document.createElement("span");
    if (!found) { copy.className = "card"; copy.textContent = name; }
    copy.classList.remove("played");
    return copy;
  }

  function drawCompass(room, frame) {
    room.seats.forEach(function (seat, i) {
      var box = room.el.querySelector('.compass .at[data-seat="' + seat + '"] .held');
      var held = frame[1][i] ? frame[1][i].split(" ") : [];
      var list = document.createElement("span");
      list.className = "cards";
      held.forEach(function (name) { list.append(card(room, name)); });
      box.replaceChildren(list);
    });
    var table = room.el.querySelector(".compass .on-table");
    var decision = room.el.querySelector('li[data-step="' + frame[0] + '"]');
    if (!frame[2].length && decision) {  // before the play: the decision of the step, in words
      var words = document.createElement("p");
      words.className = "decision";
      decision.childNodes.forEach(function (node) { words.append(node.cloneNode(true)); });
      table.replaceChildren(words);
      return;
    }
    table.replaceChildren.apply(table, frame[2].map(function (play) {
      var span = document.createElement("span");
      span.className = "on" + (play[0] === frame[3] ? " won" : "");
      var who = document.createElement("b");
      who.textContent = play[0];
      span.append(who, card(room, play[1]));
      return span;
    }));
  }

  function show(index, keepHash) {
    current = Math.max(0, Math.min(keys.length - 1, index));
    rooms.forEach(function (room) {
      var f = 0;
      room.ranks.forEach(function (r, i) { if (r <= current) { f = i; } });
      var now = room.frames[f][0];
      room.el.dataset.current = now;
      room.marked.forEach(function (el) {
        var at = el.dataset.at || el.dataset.step;
        el.hidden = rank[at] > current;
        el.classList.toggle("now", el.dataset.step === now);
      });
      room.el.querySelectorAll(".trick").forEach(function (trick) {
        trick.classList.toggle("done", !trick.querySelector(".counting").hidden);
      });
      drawCompass(room, room.frames[f]);
    });
    label.textContent = keys[current].label + " (" + (current + 1) + " of " + keys.length + ")";
    bar.querySelectorAll('[data-go="first"], [data-go$="-"]').forEach(function (b) { b.disabled = current === 0; });
    bar.querySelectorAll('[data-go="last"], [data-go$="+"]').forEach(function (b) {
      b.disabled = current === keys.length - 1;
    });
    if (!keepHash && history.replaceState) { history.replaceState(null, "", "#" + keys[current].key); }
  }

  function after(list, fallback) {
    var next = list.find(function (i) { return i > current; });
    return next === undefined ? fallback : next;
  }
  function before(list, fallback) {
    var prev = list.filter(function (i) { return i < current; }).pop();
    return prev === undefined ? fallback : prev;
  }

  function target(go) {
    switch (go) {
      case "first": return 0;
      case "last": return keys.length - 1;
      case "card-": return current - 1;
      case "card+": return current + 1;
      case "trick-": return before(trickStops, current > beforePlay ? beforePlay : 0);
      case "trick+": return after(trickStops, keys.length - 1);
      case "phase-": return before(phaseStops, 0);
      case "phase+": return after(phaseStops, keys.length - 1);
    }
    return current;
  }

  // a fragment names a place (#t3c2), a trick (#t3: its last card) or a phase (#bidding: its end)
  function fromHash() {
    var name = decodeURIComponent(location.hash.slice(1));
    if (!name) { return null; }
    if (name in rank) { return rank[name]; }
    var last = null;
    keys.forEach(function (k, i) {
      if (k.phase === name || (k.phase === "play" && "t" + k.trick === name)) { last = i; }
    });
    return last;
  }

  bar.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-go]");
    if (button) { show(target(button.dataset.go)); }
  });

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.target.closest("input, textarea, select")) {
      return;
    }
    var go = {
      ArrowLeft: event.shiftKey ? "trick-" : "card-",
      ArrowRight: event.shiftKey ? "trick+" : "card+",
      "[": "phase-", "]": "phase+", Home: "first", End: "last",
    }[event.key];
    if (!go) { return; }
    event.preventDefault();
    show(target(go));
  });

  window.addEventListener("hashchange", function () {
    var at = fromHash();
    if (at !== null) { show(at, location.hash === "#" + keys[at].key); }  // #bidding reads as its place
  });

  // whose seats are marked, and which room is shown where there are more than two
  var controls = replay.querySelector(".replay-controls");
  var follow = controls && controls.querySelector("select.follow");
  function mark(bot) {
    rooms.forEach(function (room) {
      room.el.querySelectorAll(".compass .at, tr[data-seat]").forEach(function (el) {
        el.classList.toggle("mine", room.players[el.dataset.seat] === bot);
      });
    });
  }
  if (follow) {
    follow.addEventListener("change", function () { mark(follow.value); });
    mark(follow.value);
  }
  var picker = controls && controls.querySelector(".room-picker");
  function pick(key) {
    rooms.forEach(function (room) { room.el.hidden = key !== "" && room.el.dataset.room !== key; });
    picker.querySelectorAll("button").forEach(function (b) {
      b.setAttribute("aria-pressed", String(b.dataset.show === key));
    });
    replay.querySelector(".rooms").classList.toggle("single", key !== "");
  }
  if (picker) {
    picker.addEventListener("click", function (event) {
      var button = event.target.closest("button[data-show]");
      if (button) { pick(button.dataset.show); }
    });
    pick(rooms[0].el.dataset.room);
  }
  if (controls && (follow || picker)) { controls.hidden = false; }

  replay.classList.add("stepping");
  bar.hidden = false;
  var start = fromHash();
  show(start === null ? current : start, start === null);
}());
