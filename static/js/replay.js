// The replay page: step through each finished hand move by move (buttons, the
// slider, the arrow keys; Home and End).  The server wrote every step's hands and
// words (a JSON script per hand) and the hands' tile faces (the #replay-faces
// template); each step's line, drawn as the table draws it (the snake), is asked of
// the server when shown (the hand's data-lines address, with its step), the
// neighbouring steps' ahead of time, and kept.  This file only shows one step at a
// time.  Without it the page still lists every move and shows each hand as dealt.
(function () {
  "use strict";
  var page = document.querySelector("[data-replay]");
  var palette = document.getElementById("replay-faces");
  if (!page || !palette) return;

  var faces = {};
  palette.content.querySelectorAll("[data-face]").forEach(function (f) {
    faces[f.dataset.face] = f.innerHTML;
  });

  function tiles(list) {
    return list
      .map(function (t) {
        return faces["s" + t] || "";
      })
      .join("");
  }

  var hands = [];
  page.querySelectorAll("[data-hand]").forEach(function (article) {
    var data = article.querySelector('script[type="application/json"]');
    if (!data) return;
    var hand = {
      article: article,
      steps: JSON.parse(data.textContent),
      at: 0,
      slider: article.querySelector("[data-slider]"),
      line: article.querySelector("[data-line]"),
      empty: article.querySelector("[data-line]").innerHTML,
      lines: article.dataset.lines,
      drawn: { 0: "" }, // each step's line, once here ("": the empty line of the deal)
      asked: {}, // the steps' lines on their way
      boneyard: article.querySelector("[data-boneyard]"),
      said: article.querySelector(".replay-said"),
      coach: article.querySelector("[data-coach]"),
      output: article.querySelector(".replay-at"),
      seats: article.querySelectorAll("[data-seat]"),
      log: article.querySelectorAll(".replay-log [data-step]"),
    };
    article.querySelector(".replay-controls").hidden = false;
    article.classList.add("stepping");
    hands.push(hand);
    show(hand, 0);
  });
  if (!hands.length) return;
  var current = hands[0];

  function show(hand, at) {
    var last = hand.steps.length - 1;
    at = Math.max(0, Math.min(last, at));
    hand.at = at;
    var step = hand.steps[at];
    drawLine(hand, at);
    hand.boneyard.textContent = step.boneyard;
    hand.said.textContent = step.said;
    // The coach's mark and advice on a person's marked move (none on the others).
    hand.coach.textContent = step.coach || "";
    hand.coach.hidden = !step.coach;
    hand.seats.forEach(function (li, seat) {
      li.querySelector("[data-tiles]").innerHTML = tiles(step.hands[seat] || []);
      li.classList.toggle("moved", step.seat === seat);
    });
    hand.log.forEach(function (li) {
      var n = Number(li.dataset.step);
      li.classList.toggle("future", n > at);
      li.classList.toggle("current", n === at);
      if (n === at) keepInView(li);
    });
    hand.slider.value = String(at);
    hand.output.textContent = hand.output.dataset.format
      .replace("{at}", String(at))
      .replace("{of}", String(last));
  }

  // The step's line: at once if here; else when it comes (the line shown meanwhile
  // says it is busy).  Then the steps either side are asked for, ready for the next press.
  function drawLine(hand, at) {
    if (at in hand.drawn) putLine(hand, hand.drawn[at]);
    else {
      hand.line.setAttribute("aria-busy", "true");
      ask(hand, at).then(
        function () {
          if (hand.at === at) putLine(hand, hand.drawn[at]);
        },
        function () {
          // not the last step's line under this step's words: say it could not come
          if (hand.at !== at) return;
          var note = document.createElement("p");
          note.className = "empty-line";
          note.textContent = hand.line.dataset.unavailable;
          hand.line.replaceChildren(note);
          hand.line.removeAttribute("aria-busy");
        }
      );
    }
    [at + 1, at - 1].forEach(function (near) {
      if (near < 0 || near >= hand.steps.length || near in hand.drawn) return;
      ask(hand, near).catch(function () {}); // a failure is asked again when shown
    });
  }

  function putLine(hand, html) {
    hand.line.innerHTML = html || hand.empty;
    hand.line.removeAttribute("aria-busy");
  }

  function ask(hand, at) {
    if (!hand.asked[at]) {
      hand.asked[at] = fetch(hand.lines + "&step=" + at, { credentials: "same-origin" })
        .then(function (answer) {
          if (!answer.ok) throw new Error("line " + at + ": " + answer.status);
          return answer.text();
        })
        .then(
          function (html) {
            hand.drawn[at] = html;
          },
          function (error) {
            delete hand.asked[at]; // asked again when shown again
            throw error;
          }
        );
    }
    return hand.asked[at];
  }

  // The log scrolls inside its own box: the move shown stays in sight, the page does not move.
  function keepInView(li) {
    var box = li.parentElement;
    var top = li.offsetTop - box.offsetTop;
    if (top < box.scrollTop) box.scrollTop = top;
    else if (top + li.offsetHeight > box.scrollTop + box.clientHeight)
      box.scrollTop = top + li.offsetHeight - box.clientHeight;
  }

  function go(hand, where) {
    var last = hand.steps.length - 1;
    var to = { first: 0, back: hand.at - 1, next: hand.at + 1, last: last }[where];
    if (to !== undefined) show(hand, to);
  }

  function handOf(element) {
    var article = element.closest && element.closest("[data-hand]");
    for (var i = 0; i < hands.length; i++) if (hands[i].article === article) return hands[i];
    return null;
  }

  // With tabs (several hands), one hand is shown at a time: the one the address names.
  var tabs = page.querySelectorAll("[data-hand-tab]");
  function choose(number) {
    hands.forEach(function (hand) {
      var on = hand.article.dataset.hand === String(number);
      hand.article.hidden = !on;
      if (on) current = hand;
    });
    tabs.forEach(function (tab) {
      tab.setAttribute("aria-current", tab.dataset.handTab === String(number) ? "true" : "false");
    });
  }
  if (tabs.length) {
    var named = /^#hand-(\d+)$/.exec(window.location.hash);
    var wanted = named && hands.some(function (h) { return h.article.dataset.hand === named[1]; });
    choose(wanted ? named[1] : hands[0].article.dataset.hand);
    page.addEventListener("click", function (e) {
      var tab = e.target.closest("[data-hand-tab]");
      if (!tab) return;
      e.preventDefault();
      choose(tab.dataset.handTab);
      if (window.history.replaceState) window.history.replaceState(null, "", "#hand-" + tab.dataset.handTab);
    });
  }

  page.addEventListener("click", function (e) {
    var button = e.target.closest("[data-go]");
    var hand = button && handOf(button);
    if (!hand) return;
    current = hand;
    go(hand, button.dataset.go);
  });
  page.addEventListener("input", function (e) {
    var hand = e.target.matches("[data-slider]") && handOf(e.target);
    if (!hand) return;
    current = hand;
    show(hand, Number(e.target.value));
  });
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    var target = e.target;
    // The slider moves itself with the arrows; a text field keeps its keys.
    if (target.matches && target.matches("input, textarea, select")) return;
    var where = { ArrowLeft: "back", ArrowRight: "next", Home: "first", End: "last" }[e.key];
    if (!where || !current) return;
    e.preventDefault();
    go(current, where);
  });
})();
