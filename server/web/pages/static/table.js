// A table's page while its game runs: poll the arena's public view of the table
// (GET /api/v1/tables/{id}) every 1.5 s and redraw what it shows, the same markup the
// server draws (templates/table.html, _cards.html), until the game is finished. Only
// what that view holds is ever drawn: it has no card from anyone's hand.
(function () {
  "use strict";
  var root = document.getElementById("table");
  if (!root) { return; }
  var SYMBOLS = {C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660"};    // as card_parts() draws them
  var live = document.getElementById("live");
  var note = document.getElementById("live-note");
  var status = document.getElementById("status");

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined && text !== null) { e.textContent = String(text); }
    return e;
  }

  function face(name) {
    if (name === "JK") { return {rank: "Jkr", symbol: "\u2605", colour: "black"}; }
    var rank = name.slice(0, -1), suit = name.slice(-1);
    return {rank: rank === "T" ? "10" : rank, symbol: SYMBOLS[suit] || suit,
            colour: suit === "D" || suit === "H" ? "red" : "black"};
  }

  function card(name, extra) {
    var f = face(name);
    var c = el("span", "card " + f.colour + " " + (extra || ""));
    c.setAttribute("data-card", name);
    c.title = name;
    c.append(el("span", "rank", f.rank), el("span", "suit", f.symbol));
    return c;
  }

  function cards(names, extra) {
    var box = el("span", "cards");
    names.forEach(function (n) { box.append(card(n, extra)); });
    return box;
  }

  function suit(letter) {
    var f = face("A" + letter);
    var s = el("span", "suit-only " + f.colour, f.symbol);
    s.setAttribute("data-suit", letter);
    s.title = letter;
    return s;
  }

  function cell(content, cls) {
    var td = el("td", cls);
    td.append(content);
    return td;
  }

  function drawLive(hand, v) {
    var facts = el("p", "facts"), contract = el("p", "contract"), bids = el("p", "bids");
    facts.append("dealer ", el("b", null, v.dealer), " \u00b7 " + v.phase);
    if (v.to_act) { facts.append(" \u00b7 to act ", el("b", null, v.to_act)); }
    contract.append("contract ", v.contract ? el("b", null, v.contract.seat + " " + v.contract.amount)
                                            : el("span", "muted", "none yet"));
    if (v.trump) { contract.append(" \u00b7 trump ", suit(v.trump)); }
    var parts = [el("h2", null, "Hand " + hand), facts, contract];
    if (v.bids) {                   // Cinch's auction; the All Fours games have none
      bids.append("bids ");
      v.bids.forEach(function (b) {
        var s = el("span", "bid");
        s.append(el("b", null, b.seat), " " + (b.type === "bid" ? b.amount : "pass"));
        bids.append(s);
      });
      parts.push(bids);
    }
    if (v.draws && v.draws.length) {
      var draws = el("ul", "draws");
      v.draws.forEach(function (d) {
        var li = el("li");
        li.append(el("b", null, d.seat), " discarded " + d.discarded + ", received " + d.received);
        if (d.shown.length) { li.append(", shown ", cards(d.shown, "small")); }
        draws.append(li);
      });
      parts.push(draws);
    }
    var tricks = el("ol", "tricks");
    v.tricks.forEach(function (t) {
      var li = el("li", "trick" + (t.winner ? "" : " current"));
      t.plays.forEach(function (p) {
        var play = el("span", "play");
        play.append(el("b", null, p.seat), " ", card(p.card));
        p.extras.forEach(function (x) { play.append(card(x, "extra")); });
        li.append(play);
      });
      var won = el("span", "won");
      if (t.winner) { won.append("won by ", el("b", null, t.winner)); } else { won.append("current trick"); }
      li.append(won);
      tricks.append(li);
    });
    var held = el("p", "held");
    held.append("cards held ");
    Object.keys(v.hand_sizes).forEach(function (s) {
      var span = el("span");
      span.append(el("b", null, s), " " + v.hand_sizes[s]);
      held.append(span);
    });
    parts.push(tricks, held);
    live.replaceChildren.apply(live, parts);
    live.dataset.hand = hand;
    live.hidden = false;
  }

  // Who holds a seat, as the server draws it (pages/tables.py seat_holder): a person's
  // name for a human seat, else the bot, or null for an open seat.
  function holder(t, seat) {
    var human = (t.humans || {})[seat];
    return human ? human.human + " (person)" : t.seats[seat];
  }

  // The table's sides in order, as the server drew the scoreboard: "NS", "EW" or one per seat.
  function sides() {
    return Array.prototype.map.call(root.querySelectorAll(".side"), function (box) { return box.dataset.side; });
  }

  function bySide(values) {
    return sides().map(function (side) { return values[side]; }).join("\u2013");
  }

  function drawHands(t, finished) {
    var body = document.querySelector("#hands tbody");
    body.replaceChildren.apply(body, t.hands.map(function (h) {
      var number = el("td");
      if (finished) {
        var a = el("a", null, h.number);
        a.href = "/tables/" + encodeURIComponent(t.id) + "/hands/" + h.number;
        number.append(a);
      } else {
        number.append(String(h.number));
      }
      var tr = el("tr");
      tr.dataset.hand = h.number;
      tr.append(number, cell(h.contract ? h.contract.seat + " " + h.contract.amount : "", "text"),
                cell(h.trump ? suit(h.trump) : "", "text"), cell(h.points ? bySide(h.points) : ""),
                cell(bySide(h.delta)), cell(bySide(Object.fromEntries(sides().map(function (side) {
                  return [side, h.scores[side] + h.delta[side]];
                })))));
      return tr;
    }));
    document.getElementById("hands").hidden = !t.hands.length;
    document.getElementById("no-hands").hidden = t.hands.length > 0;
  }

  function drawResult(t) {
    var winner = document.getElementById("winner");
    if (t.winner) {
      var box = root.querySelector('.side[data-side="' + t.winner + '"]');
      var bots = Array.prototype.map.call(box ? box.querySelectorAll(".seat") : [], function (seat) {
        return holder(t, seat.dataset.seat);
      });
      winner.textContent = t.winner + " (" + bots.join(", ") + ")";
    } else {
      winner.textContent = "none (the game stopped at the hand limit)";
    }
    document.getElementById("result").hidden = false;
    document.getElementById("replay-note").hidden = false;
    document.getElementById("deal-seed").textContent = t.deal_seed || "";
    var seedNote = document.getElementById("seed-note");
    if (seedNote) { seedNote.remove(); }
  }

  function show(t) {
    var finished = t.status === "finished";
    status.textContent = t.status;
    status.className = "status " + t.status;
    document.getElementById("hands-played").textContent = t.hands_played;
    root.querySelectorAll(".side").forEach(function (box) {
      box.querySelector(".score").textContent = t.scores[box.dataset.side];
      box.classList.toggle("won", t.winner === box.dataset.side);
    });
    root.querySelectorAll(".seat").forEach(function (seat) {
      var bot = seat.querySelector(".bot"), name = holder(t, seat.dataset.seat);
      bot.textContent = name || "open seat";
      bot.classList.toggle("open", !name);
    });
    if (t.live) {
      drawLive(t.live.hand, t.live.view);
    } else {
      live.replaceChildren();
      live.dataset.hand = "";
      live.hidden = true;
    }
    drawHands(t, finished);
    if (finished) { drawResult(t); }
  }

  function load() {
    return fetch(root.dataset.api, {headers: {"Accept": "application/json"}, cache: "no-store"})
      .then(function (r) { if (!r.ok) { throw new Error("HTTP " + r.status); } return r.json(); })
      .then(function (t) {
        show(t);
        // a human seat's page (seat.js) follows the public view too
        document.dispatchEvent(new CustomEvent("cinch:table", {detail: t}));
        return t;
      });
  }

  // seat.js asks for the view at once when the seat's decision comes (the table moved on)
  document.addEventListener("cinch:refresh", function () { load().catch(function () {}); });

  function poll() {
    load()
      .then(function (t) {
        if (t.status === "finished") {
          note.textContent = "";
        } else {
          note.textContent = "(updating)";
          setTimeout(poll, 1500);
        }
      })
      .catch(function () { note.textContent = "(connection lost; retrying)"; setTimeout(poll, 1500); });
  }

  if (status.textContent.trim() !== "finished") { setTimeout(poll, 1500); }
}());
