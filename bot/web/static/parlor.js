// Parlor's game page: draws the payload the server streams (server-sent events) and, on a player's
// own page, sends his presses. Text is set with textContent only: nothing from the game becomes HTML.
"use strict";
(function () {
  const body = document.body;
  const base = body.dataset.base;
  const personal = body.dataset.kind === "personal";
  const $ = (id) => document.getElementById(id);
  let current = null;
  let busy = false;
  // The game version the answer to the last press (#error or #done) speaks of: once the page shows a later
  // one (anyone's move, from a page or from Discord), that answer no longer describes the table and goes.
  let answered = null;

  // A punctuation mark after a backslash is shown as written, as Discord shows it (names come so: bot.web.page_text).
  const ESCAPABLE = /[!-\/:-@[-`{-~]/;

  // Why a player's page offers no choice, by the game's status.
  const NOTHING_TO_DO = {
    active: "Nothing for you to do now.",
    lobby: "The game has not begun yet.",
    finished: "The game is over.",
    abandoned: "The game was abandoned.",
  };

  function rich(element, text) {
    // Discord's **bold** as <strong>, `code` as <code> (a command to type), an escaped mark as written,
    // everything else as plain text (a lone backtick too).
    element.replaceChildren();
    const source = String(text || "");
    let bold = false;
    let run = "";
    const flush = () => {
      if (!run) return;
      if (bold) { const strong = document.createElement("strong"); strong.textContent = run; element.append(strong); }
      else element.append(document.createTextNode(run));
      run = "";
    };
    for (let at = 0; at < source.length; at += 1) {
      const closing = source[at] === "`" ? source.indexOf("`", at + 1) : -1;
      if (source[at] === "\\" && ESCAPABLE.test(source[at + 1] || "")) { at += 1; run += source[at]; }
      else if (source.startsWith("**", at)) { flush(); bold = !bold; at += 1; }
      else if (closing > at + 1) {
        flush();
        const mark = document.createElement("code");
        mark.textContent = source.slice(at + 1, closing);
        element.append(mark);
        at = closing;
      }
      else run += source[at];
    }
    flush();
  }

  function list(element, lines) {
    element.replaceChildren(...lines.map((line) => { const item = document.createElement("li"); rich(item, line); return item; }));
  }

  // Shared with the step-through (static/history.js): the same text drawing.
  window.Parlor = { rich: (element, text) => rich(element, text), list: (element, lines) => list(element, lines) };

  function picture(img, url) {
    if (url) { if (img.getAttribute("src") !== url) img.src = url; img.hidden = false; }
    else { img.hidden = true; img.removeAttribute("src"); }
  }

  function tell(id, text, version) {
    rich($(id), text);
    answered = Math.max(current.version, Number.isInteger(version) ? version : current.version);
  }

  function forget() {
    $("error").textContent = "";
    $("done").textContent = "";
    answered = null;
  }

  function draw(page) {
    if (answered !== null && page.version > answered) forget();
    current = page;
    body.dataset.version = String(page.version);
    document.title = `${page.game} #${page.number}` + (personal ? ": your page" : ": watch");
    $("title").textContent = `${page.game} #${page.number}` + (personal && page.you ? ` (you are ${page.you})` : "");
    rich($("turn"), page.turn || (page.status === "lobby" ? "Waiting for players to join." : ""));
    rematch(page.rematch);
    rich($("headline"), page.headline);
    rich($("board-text"), page.text);
    rich($("dice"), page.dice);
    picture($("board"), page.board);
    list($("narration"), page.narration);
    const log = $("log");
    list(log, page.log.length ? page.log : ["No moves yet."]);
    log.scrollTop = log.scrollHeight;
    // The step-through of an ended game (static/history.js) learns of each page drawn.
    document.dispatchEvent(new CustomEvent("parlor:page", { detail: page }));
    if (personal) {
      // His own part of the table, said once to be his alone (the words under it are the bones, not a heading).
      $("you").hidden = !page.private_text;
      $("you-heading").textContent = page.private_text ? `${page.private_title} (only you see this)` : "";
      rich($("private-text"), page.private_text);
      controls(page.choices, null);
    }
  }

  function rematch(next) {
    // The new game's public page (never a personal one): a player asks for his own page of it in Discord.
    const line = $("rematch");
    line.hidden = !next;
    if (!next) { line.replaceChildren(); return; }
    const link = line.querySelector("a") || document.createElement("a");
    if (link.getAttribute("href") === next.url) return;
    link.href = next.url;
    link.textContent = `watch ${next.title}`;
    line.replaceChildren("Rematch started: ", link,
      personal ? ". To play it from a page of your own, ask for one with /game web in the game's channel." : ".");
  }

  function controls(choices, step) {
    const box = $("controls");
    const focused = document.activeElement && box.contains(document.activeElement);
    box.replaceChildren();
    $("choices").hidden = !choices.length && !step;
    // The move box's own prompt: what a step asks ("Pawn 3 on a1: where to?"), else what the game asks of him now.
    rich($("prompt"), step ? step.text : (current && current.prompt) || "");
    if (step) {
      if (step.picture) {
        const preview = document.createElement("img");
        preview.src = step.picture;
        preview.alt = "A preview of this choice: described in the words above";
        box.append(preview);
      }
    }
    if (!choices.length) {
      const none = document.createElement("p");
      none.textContent = NOTHING_TO_DO[current && current.status] || "The game is not running.";
      box.append(none);
    }
    // Buttons side by side in one row (as on the table); each menu and form in a group of its own.
    let row = null;
    choices.forEach((choice) => {
      if (choice.kind === "button" || choice.kind === "undo") {
        if (!row) { row = group(null, []); box.append(row); }
        row.querySelector(".buttons").append(plain(choice));
      } else {
        row = null;
        box.append(control(choice));
      }
    });
    if (step) box.append(group(null, [button("Back", "secondary", () => controls(current.choices, null))]));
    if (focused || step) { const first = box.querySelector("button, input"); if (first) first.focus(); }
  }

  function button(label, style, onclick) {
    const element = document.createElement("button");
    element.type = "button";
    element.textContent = label;
    if (style && style !== "primary") element.className = style;
    element.addEventListener("click", onclick);
    return element;
  }

  function group(title, children) {
    const element = document.createElement("div");
    element.className = "group";
    element.setAttribute("role", "group");
    if (title) {
      const heading = document.createElement("p");
      heading.id = `g${Math.random().toString(36).slice(2)}`;
      heading.textContent = title;
      element.setAttribute("aria-labelledby", heading.id);
      element.append(heading);
    }
    const row = document.createElement("div");
    row.className = "buttons";
    row.append(...children);
    element.append(row);
    return element;
  }

  function plain(choice) {
    return button(choice.label, choice.style || (choice.kind === "undo" ? "secondary" : ""),
                  () => send({ kind: choice.kind, key: choice.key }));
  }

  function control(choice) {
    if (choice.kind === "select" && choice.max <= 1) {
      return group(choice.label, choice.options.map((option) => {
        const element = button(option.label, "secondary", () => send({ kind: "select", key: choice.key, tokens: [option.token] }));
        if (option.description) {
          // Seen under the label (a phone has no tooltip); read as the button's description, its name staying the label.
          element.title = option.description;
          element.setAttribute("aria-label", option.label);
          const hint = document.createElement("small");
          hint.className = "hint";
          hint.setAttribute("aria-hidden", "true");
          hint.textContent = option.description;
          element.append(hint);
        }
        return element;
      }));
    }
    const form = document.createElement("form");
    form.className = "group";
    const legend = document.createElement("p");
    legend.textContent = choice.kind === "form" ? choice.title : choice.label;
    form.append(legend);
    if (choice.kind === "select") {
      choice.options.forEach((option) => {
        const label = document.createElement("label");
        const box = document.createElement("input");
        box.type = "checkbox"; box.value = option.token;
        label.append(box, ` ${option.label}`);
        form.append(label);
      });
    } else {
      choice.fields.forEach((field) => {
        const label = document.createElement("label");
        const input = document.createElement("input");
        input.type = "text"; input.name = field.key; input.placeholder = field.placeholder || "";
        input.minLength = field.min; input.maxLength = field.max; input.required = field.min > 0;
        label.append(`${field.label} `, input);
        form.append(label);
      });
    }
    const submit = button(choice.kind === "form" ? "Send" : `${choice.label}: choose`, "", () => {});
    submit.type = "submit";
    form.append(submit);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      if (choice.kind === "select") {
        const tokens = [...form.querySelectorAll("input:checked")].map((box) => box.value);
        send({ kind: "select", key: choice.key, tokens });
      } else {
        const values = {};
        form.querySelectorAll("input").forEach((input) => { values[input.name] = input.value; });
        send({ kind: "form", key: choice.key, values });
      }
    });
    return form;
  }

  async function send(press) {
    if (busy || !current) return;
    busy = true;
    forget();
    // Disabling the pressed button drops the keyboard's focus to the page: it is given back below.
    const hadFocus = $("controls").contains(document.activeElement);
    document.querySelectorAll("#controls button").forEach((element) => { element.disabled = true; });
    try {
      const answer = await fetch(`${base}/press`, {
        method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ version: current.version, tokens: [], values: {}, ...press }),
      });
      const data = await answer.json();
      if (data.error) tell("error", data.error, data.version);
      else if (data.step) controls(data.step.choices, data.step);
      else if (data.done) tell("done", data.done, data.version);
    } catch (error) {
      tell("error", "Could not reach Parlor: check your connection and try again.", null);
    } finally {
      busy = false;
      document.querySelectorAll("#controls button").forEach((element) => { element.disabled = false; });
      if (hadFocus && !$("controls").contains(document.activeElement)) {
        const first = $("controls").querySelector("button, input");
        if (first) first.focus();
      }
    }
  }

  if (!$("refusal").hidden) { rich($("refusal"), $("refusal").textContent); $("connection").textContent = ""; return; }
  const stream = new EventSource(`${base}/events`);
  stream.addEventListener("state", (event) => { draw(JSON.parse(event.data)); $("connection").textContent = "Live: this page follows the game."; });
  function refused(message) {
    stream.close();
    const refusal = $("refusal");
    rich(refusal, message);
    refusal.hidden = false;
    $("choices").hidden = true; $("you").hidden = true;
    $("connection").textContent = "Not live: this page no longer follows the game.";
  }

  stream.addEventListener("refused", (event) => refused(JSON.parse(event.data).error));
  stream.onerror = () => {
    if (stream.readyState !== EventSource.CLOSED) {
      $("connection").textContent = "Connection lost: reconnecting…";
      return;
    }
    // The browser gives up when Parlor refuses the page on its return (its link expired or was replaced while
    // it was away, or the game is gone): ask why, rather than promise a reconnection that never comes.
    fetch(`${base}/state`, { cache: "no-store" })
      .then((response) => response.json())
      .then((body) => refused(body.error || "This page no longer follows the game: reload it."))
      .catch(() => { $("connection").textContent = "Not live: Parlor cannot be reached. Reload the page later."; });
  };
})();
