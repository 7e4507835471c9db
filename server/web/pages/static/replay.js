// Step through a hand trick by trick. Every room inside one .replay element moves
// together, so the two rooms of a board pair always show the same trick: the tricks
// up to the current one, the current one marked with the cards each seat held before it.
// Without this script every trick is shown, and the controls stay hidden.
(function () {
  "use strict";
  var replay = document.querySelector(".replay");
  if (!replay) { return; }
  var bar = replay.querySelector(".stepper");
  var rooms = replay.querySelectorAll(".room");
  var last = Number(bar.dataset.steps);
  var label = bar.querySelector(".step-label");
  var current = 1;

  function show(step) {
    current = Math.max(1, Math.min(last, step));
    rooms.forEach(function (room) {
      room.dataset.current = current;
      room.querySelectorAll(".trick").forEach(function (trick) {
        var n = Number(trick.dataset.trick);
        trick.hidden = n > current;
        trick.classList.toggle("current", n === current);
      });
    });
    label.textContent = "Trick " + current + " of " + last;
    bar.querySelector('[data-go="first"]').disabled = bar.querySelector('[data-go="prev"]').disabled = current === 1;
    bar.querySelector('[data-go="last"]').disabled = bar.querySelector('[data-go="next"]').disabled = current === last;
  }

  function target(go) {
    return {first: 1, prev: current - 1, next: current + 1, last: last}[go];
  }

  bar.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-go]");
    if (button) { show(target(button.dataset.go)); }
  });

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.target.closest("input, textarea, select")) {
      return;
    }
    var go = {ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last"}[event.key];
    if (!go) { return; }
    event.preventDefault();
    show(target(go));
  });

  if (last > 0) {
    replay.classList.add("stepping");
    bar.hidden = false;
    show(1);
  }
}());
