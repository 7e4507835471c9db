#!/usr/bin/env node
// A complete Cinch bot on the line protocol, in Node.js alone (no npm packages).
//
//     cinch tournament --bots "cmd:node examples/line_bot.js" rule
//     cinch compare "cmd:node examples/line_bot.js" rule --sprt
//     cinch bot run --cmd "node examples/line_bot.js" --server URL --token-file F
//
// It reads one decision per line on standard input (the object a remote bot gets from
// the REST API: id, observation, legal, deadline, deadline_in_ms) and writes one action
// per line on standard output (docs/line-protocol.md). The rule is examples/line_bot.py's:
// pass when it may (else the lowest bid), name the suit it holds most of, keep trumps
// when it draws, otherwise the first legal entry completed as the server's default
// completes it; so every answer is legal in every ruleset. Notes for people go to
// standard error, which the arena does not read.
"use strict";

const readline = require("node:readline");

const CHOICE_FIELDS = ["from", "min", "max", "must_include", "must_keep", "size", "extras_count", "extras_from"];

function suitOf(card) {
  return card === "JK" ? null : card.slice(-1);
}

function keep(entry, trump) {
  // The dealer's hand after the draw: the forced cards, then trumps, then the rest.
  const must = [...entry.must_keep];
  const rest = entry.from.filter((c) => !must.includes(c));
  const trumps = rest.filter((c) => suitOf(c) === trump);
  const others = rest.filter((c) => suitOf(c) !== trump);
  return must.concat(trumps, others).slice(0, entry.size);
}

function complete(entry) {
  // An action from a legal entry: plain entries as they are; a choice filled in with the
  // forced cards, then the first listed.
  const action = {};
  for (const [k, v] of Object.entries(entry)) if (!CHOICE_FIELDS.includes(k)) action[k] = v;
  if (entry.type === "discard") {
    const must = [...(entry.must_include || [])];
    const rest = entry.from.filter((c) => !must.includes(c));
    action.cards = must.concat(rest.slice(0, Math.max(0, entry.min - must.length)));
  } else if (entry.type === "rob") {
    action.keep = keep(entry, null);
  } else if (entry.type === "play" && "extras_count" in entry) {
    action.extras = entry.extras_from.slice(0, entry.extras_count);
  }
  return action;
}

function decide(decision) {
  const observation = decision.observation || {};
  const legal = decision.legal || observation.legal || [];
  if (legal.length === 0) throw new Error("a decision with no legal action");
  const types = legal.map((e) => e.type);
  if (types.includes("bid") || (types.length === 1 && types[0] === "pass")) {
    if (types.includes("pass")) return { type: "pass" };
    const bids = legal.filter((e) => e.type === "bid");
    return bids.reduce((low, e) => (e.amount < low.amount ? e : low));
  }
  if (types[0] === "trump") {
    const hand = observation.hand || [];
    const count = (e) => hand.filter((c) => suitOf(c) === e.suit).length;
    return legal.reduce((best, e) => (count(e) > count(best) ? e : best));
  }
  if (types[0] === "rob") return { type: "rob", keep: keep(legal[0], observation.trump) };
  return complete(legal[0]);
}

const lines = readline.createInterface({ input: process.stdin, terminal: false });
lines.on("line", (line) => {
  if (!line.trim()) return;
  let action = {};
  try {
    action = decide(JSON.parse(line));
  } catch (err) {
    // Say so and answer nothing useful: the arena then plays the default action.
    process.stderr.write(`line_bot.js: ${err.message}\n`);
  }
  process.stdout.write(JSON.stringify(action) + "\n");
});
