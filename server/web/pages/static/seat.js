// A human seat's page (templates/seat.html): the person plays the seat through the same
// decision protocol as any remote bot. The seat's token is the URL fragment: it never
// reaches the server in a URL, and is sent only in the Authorization header of the API's
// seat endpoints (GET /api/v1/tables/{id}/seat, the decisions). The page long-polls for
// the seat's decision, draws the seat's cards and offers exactly the legal actions of the
// decision (a card that may not be played is not a button), counts down its time and
// posts the action chosen; the server checks it as it checks a bot's. The public table is
// table.js's, which this script follows through its "cinch:table" events.
(function () {
  "use strict";
  var box = document.getElementById("seat");
  if (!box) { return; }
  var tid = box.dataset.table;
  var token = decodeURIComponent(location.hash.replace(/^#/, ""));
  var state = document.getElementById("seat-state");
  var clock = document.getElementById("clock");
  var handBox = document.getElementById("my-hand");
  var stockBox = document.getElementById("stock");
  var choices = document.getElementById("choices");
  var errorBox = document.getElementById("seat-error");
  var SYMBOLS = {C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660"};
  var SUITS = {C: "clubs", D: "diamonds", H: "hearts", S: "spades"};
  var RANKS = {T: "10", J: "jack", Q: "queen", K: "king", A: "ace"};
  var WAIT = 20;                      // seconds of each long-poll for the seat's decision
  var over = box.dataset.status === "finished" || box.dataset.status === "failed";
  var me = null;                      // {seat, name, decision_ms}
  var hand = [];                      // the seat's cards as its last decision showed them
  var decision = null, deadline = 0, picked = [], main = null, busy = false, expired = null;

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined && text !== null) { e.textContent = String(text); }
    return e;
  }

  function spoken(name) {             // "10 of hearts", for screen readers
    if (name === "JK") { return "joker"; }
    var rank = name.slice(0, -1);
    return (RANKS[rank] || rank) + " of " + SUITS[name.slice(-1)];
  }

  // A card drawn as table.js and _cards.html draw it; a button when it is offered.
  function card(name, offered) {
    var joker = name === "JK", suit = name.slice(-1), rank = name.slice(0, -1);
    var colour = suit === "D" || suit === "H" ? "red" : "black";
    var c = el(offered ? "button" : "span", "card " + colour);
    if (offered) { c.type = "button"; }
    c.setAttribute("data-card", name);
    c.title = name;
    c.setAttribute("aria-label", spoken(name));
    if (!offered) { c.setAttribute("role", "img"); }
    c.append(el("span", "rank", joker ? "Jkr" : (rank === "T" ? "10" : rank)),
             el("span", "suit", joker ? "\u2605" : SYMBOLS[suit]));
    return c;
  }

  function say(text) { state.textContent = text; }

  function fail(text) {
    errorBox.textContent = text || "";
    errorBox.hidden = !text;
  }

  function api(method, path, body) {
    var init = {method: method, cache: "no-store",
                headers: {"Authorization": "Bearer " + token, "Accept": "application/json"}};
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    return fetch(path, init);
  }

  function label(a) {
    if (a.type === "pass") { return "Pass"; }
    if (a.type === "bid") { return "Bid " + a.amount; }
    if (a.type === "trump") { return "Trump " + SYMBOLS[a.suit] + " " + SUITS[a.suit]; }
    if (a.type === "widow") { return a.take ? "Take the widow" : "Leave the widow"; }
    if (a.type === "call") { return "Call the " + spoken(a.card); }
    return a.type.charAt(0).toUpperCase() + a.type.slice(1);   // stand, beg, give, run, bunch, accept, ...
  }

  function legalOf(type) {
    return decision ? decision.legal.filter(function (a) { return a.type === type; }) : [];
  }

  // The cards a choice may take (picked) and those it must: a discard, a rob, or a play's extras.
  function choiceRule() {
    var d = legalOf("discard")[0], r = legalOf("rob")[0];
    if (d) {
      return {from: d.from, must: d.must_include || [], min: d.min, max: d.max === undefined ? d.from.length : d.max,
              verb: "Discard", action: function () { return {type: "discard", cards: picked.slice()}; }};
    }
    if (r) {
      return {from: r.from, must: r.must_keep, min: r.size, max: r.size, verb: "Keep",
              action: function () { return {type: "rob", keep: picked.slice()}; }};
    }
    if (main) {
      return {from: main.extras_from || [], must: [], min: main.extras_count, max: main.extras_count,
              verb: "Play the " + spoken(main.card) + " with", action: function () {
                return {type: "play", card: main.card, extras: picked.slice()};
              }};
    }
    return null;
  }

  function toggle(name) {
    var i = picked.indexOf(name);
    if (i >= 0) { picked.splice(i, 1); } else { picked.push(name); }
    draw(name);
  }

  function cardButton(name, rule, plays) {
    if (rule) {
      if (rule.from.indexOf(name) < 0) { return card(name, false); }
      var b = card(name, true), on = picked.indexOf(name) >= 0, locked = rule.must.indexOf(name) >= 0;
      b.setAttribute("aria-pressed", on ? "true" : "false");
      b.disabled = busy || locked || (!on && picked.length >= rule.max);
      if (!locked) { b.classList.add("offer"); }
      b.addEventListener("click", function () { toggle(name); });
      return b;
    }
    var play = plays.filter(function (a) { return a.card === name; })[0];
    if (!play) { return card(name, false); }
    var p = card(name, true);
    p.classList.add("offer");
    p.disabled = busy;
    p.setAttribute("aria-label", "play the " + spoken(name));
    p.addEventListener("click", function () {
      if (play.extras_count) {
        main = play;
        picked = [];
        draw();
      } else {
        send({type: "play", card: name});
      }
    });
    return p;
  }

  function choiceButton(text, cls, onClick) {
    var b = el("button", cls, text);
    b.type = "button";
    b.disabled = busy;
    b.addEventListener("click", onClick);
    return b;
  }

  // Draw the seat's cards and the decision's offers; ``focusCard`` keeps the focus on a toggled card.
  function draw(focusCard) {
    var rule = choiceRule(), plays = main ? [] : legalOf("play");
    handBox.replaceChildren.apply(handBox, hand.map(function (n) {
      var c = decision ? cardButton(n, rule, plays) : card(n, false);
      if (main && n === main.card) { c = card(n, false); c.classList.add("chosen"); }
      return c;
    }));
    var extra = rule ? rule.from.filter(function (n) { return hand.indexOf(n) < 0; }) : [];
    stockBox.replaceChildren.apply(stockBox, extra.map(function (n) { return cardButton(n, rule, plays); }));
    stockBox.hidden = !extra.length;
    var offers = [];
    if (decision) {
      decision.legal.forEach(function (a) {
        if (a.type === "play" || a.type === "discard" || a.type === "rob") { return; }
        offers.push(choiceButton(label(a), "offer", function () { send(a); }));
      });
      if (rule) {
        var ok = picked.length >= rule.min && picked.length <= rule.max;
        var confirm = choiceButton(rule.verb + " " + (main ? picked.length + " of " + rule.min + " extras"
                                                           : picked.length + (rule.min === rule.max ? " of " + rule.min : "") + " cards"),
                                   null, function () { send(rule.action()); });
        confirm.id = "confirm";
        confirm.disabled = busy || !ok;
        offers.push(confirm);
        if (main) { offers.push(choiceButton("Choose another card", "secondary", function () { main = null; picked = []; draw(); })); }
      }
    }
    choices.replaceChildren.apply(choices, offers);
    if (focusCard) {
      var again = box.querySelector('button[data-card="' + focusCard + '"]');
      if (again) { again.focus(); }
    }
  }

  function asked(d) {
    var type = d.legal[0].type;
    if (type === "play") { return "play a card"; }
    if (type === "bid" || type === "pass") { return "bid or pass"; }
    if (type === "discard") { return "choose the cards to discard"; }
    if (type === "rob") { return "choose the cards to keep"; }
    if (type === "trump") { return "name trumps"; }
    return "choose";
  }

  function present(d) {
    decision = d;
    hand = d.observation.hand.slice();
    deadline = Date.now() + d.deadline_in_ms;
    main = null;
    busy = false;
    var rule = choiceRule();
    picked = rule ? rule.must.slice() : [];
    handBox.classList.remove("stale");
    fail("");
    say("Your turn (" + me.seat + "): " + asked(d) + ".");
    document.dispatchEvent(new CustomEvent("cinch:refresh"));   // the table as it stands now
    draw();
    tick();
    var first = box.querySelector(".offer:not([disabled])");
    if (first && (document.activeElement === document.body || box.contains(document.activeElement))) { first.focus(); }
  }

  function played(action) {          // the cards the accepted action took from the seat's hand
    if (action.type === "play") { return [action.card].concat(action.extras || []); }
    if (action.type === "discard") { return action.cards; }
    return [];
  }

  function done(action) {
    if (action && action.type === "rob") {
      hand = action.keep.slice();
    } else if (action) {
      var gone = played(action);
      hand = hand.filter(function (n) { return gone.indexOf(n) < 0; });
    }
    decision = null;
    main = null;
    picked = [];
    busy = false;
    clock.hidden = true;
    draw();
  }

  function send(action) {
    if (!decision || busy) { return; }
    busy = true;
    draw();
    var id = decision.id;
    api("POST", "/api/v1/decisions/" + encodeURIComponent(id) + "?wait=0", action)
      .then(function (r) {
        if (r.ok) {
          done(action);
          say("Waiting for the other seats.");
          wait();
          return null;
        }
        return r.json().catch(function () { return {}; }).then(function (problem) {
          if (r.status === 422) {     // not legal: the decision stays open until its deadline
            busy = false;
            fail("Not accepted: " + (problem.detail || "that is not legal here"));
            draw();
            return;
          }
          expired = id;
          done(null);
          fail(r.status === 410 ? "Your time ran out: the default action was played for you."
                                : "Not accepted (" + (problem.detail || "HTTP " + r.status) + ").");
          wait();
        });
      })
      .catch(function () {
        busy = false;
        fail("The connection was lost; try again.");
        draw();
      });
  }

  function tick() {
    if (!decision) { return; }
    var left = Math.max(0, deadline - Date.now());
    clock.hidden = false;
    clock.textContent = Math.ceil(left / 1000) + " s left to decide";
    clock.classList.toggle("urgent", left < 10000);
    if (left <= 0) {                  // the server plays the default action at the deadline
      expired = decision.id;
      done(null);
      fail("Your time ran out: the default action was played for you.");
      setTimeout(wait, 500);
      return;
    }
    setTimeout(tick, 250);
  }

  function finished() {
    over = true;
    decision = null;
    clock.hidden = true;
    choices.replaceChildren();
    say("The game is over. Each finished hand below links to its replay, every card shown.");
  }

  // Long-poll for the seat's decision; a 401 once the game is over (its token ends with it).
  function wait() {
    if (over || decision) { return; }
    api("GET", "/api/v1/decisions/next?wait=" + WAIT)
      .then(function (r) {
        if (r.status === 200) {
          return r.json().then(function (d) {
            if (d.id === expired) { setTimeout(wait, 500); } else { present(d); }
          });
        }
        if (r.status === 204) { wait(); return null; }
        if (r.status === 401) { if (!over) { say("This seat's link no longer plays: the game is over."); } over = true; return null; }
        setTimeout(wait, 2000);
        return null;
      })
      .catch(function () { setTimeout(wait, 2000); });
  }

  // The public view (table.js): the game's end, and whether the cards shown are still the seat's.
  document.addEventListener("cinch:table", function (event) {
    var t = event.detail;
    if (t.status === "finished" || t.status === "failed") { finished(); return; }
    var sizes = t.live ? t.live.view.hand_sizes : null;
    if (!decision && me && sizes && sizes[me.seat] !== hand.length) {
      handBox.classList.add("stale");   // a new hand, or cards drawn: shown with the next decision
      say("Waiting for the other seats; your new cards show at your next turn.");
    }
  });

  if (over) { finished(); return; }
  if (!token) {
    say("This page needs its seat link: open the link the table's creator was given, with its # part.");
    return;
  }
  api("GET", "/api/v1/tables/" + encodeURIComponent(tid) + "/seat")
    .then(function (r) {
      if (!r.ok) { throw new Error(String(r.status)); }
      return r.json();
    })
    .then(function (s) {
      me = s;
      document.getElementById("seat-name").textContent = s.seat + " \u00b7 " + s.name;
      var mine = document.querySelector('#table .seat[data-seat="' + s.seat + '"]');
      if (mine) { mine.classList.add("mine"); }
      say("Waiting for your turn (" + Math.round(s.decision_ms / 1000) + " s per decision).");
      draw();
      wait();
    })
    .catch(function () {
      say("This seat link does not hold a seat at this table (or its game is over).");
    });
}());
