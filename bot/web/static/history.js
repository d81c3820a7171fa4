// An ended game's step-through on its public page (bot.web.history): first / previous / next / last, a slider,
// the ← → keys, and an address per step (?step=N). Text is drawn as the rest of the page draws it (parlor.js).
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  let steps = null;
  let at = 0;
  let loading = false;

  function wanted(count) {
    const asked = Number.parseInt(new URLSearchParams(window.location.search).get("step"), 10);
    if (!Number.isInteger(asked) || asked < 0) return count - 1;  // no step asked for: the end, as the table shows
    return Math.min(asked, count - 1);
  }

  function show(index, remember) {
    if (!steps) return;
    at = Math.max(0, Math.min(index, steps.length - 1));
    const step = steps[at];
    const slider = $("step-slider");
    slider.value = String(at);
    slider.setAttribute("aria-valuetext", `Step ${at} of ${steps.length - 1}`);
    $("step-label").textContent = `Step ${at} of ${steps.length - 1}`;
    window.Parlor.rich($("step-line"), `Step ${at} of ${steps.length - 1}: ${step.line}`);
    $("step-line").dataset.step = String(at);
    const board = $("step-board");
    if (board.getAttribute("src") !== step.picture) board.src = step.picture;
    window.Parlor.rich($("step-text"), step.text);
    window.Parlor.rich($("step-dice"), step.dice);
    window.Parlor.list($("step-narration"), step.narration);
    $("step-first").disabled = $("step-previous").disabled = at === 0;
    $("step-next").disabled = $("step-last").disabled = at === steps.length - 1;
    const url = new URL(window.location.href);
    url.searchParams.set("step", String(at));
    $("step-link").href = url.pathname + url.search;
    if (remember) window.history.replaceState(null, "", url.pathname + url.search);
  }

  async function load(address, tries = 5) {
    loading = true;
    let again = false;
    try {
      const answer = await fetch(address, { cache: "no-store" });
      const data = await answer.json();
      if (answer.status >= 500) again = true;  // a bot restarting or busy: an ended game's steps will come
      if (!answer.ok || !Array.isArray(data.steps) || !data.steps.length) return;
      steps = data.steps;
      $("step-slider").max = String(steps.length - 1);
      $("history").hidden = false;
      show(wanted(steps.length), false);
    } catch (error) {
      again = true;  // the network or the bot failed this once; the page itself still shows the game
    } finally {
      loading = false;
      // An ended game's page gets no more updates to ask again on, so a failed load is tried again here.
      if (again && tries > 1) setTimeout(() => { if (!steps && !loading) load(address, tries - 1); }, 1000);
    }
  }

  document.addEventListener("parlor:page", (event) => {
    const page = event.detail;
    if (page.history && !steps && !loading) load(page.history);
  });

  $("step-first").addEventListener("click", () => show(0, true));
  $("step-previous").addEventListener("click", () => show(at - 1, true));
  $("step-next").addEventListener("click", () => show(at + 1, true));
  $("step-last").addEventListener("click", () => show(steps ? steps.length - 1 : 0, true));
  $("step-slider").addEventListener("input", (event) => show(Number(event.target.value), true));
  document.addEventListener("keydown", (event) => {
    if (!steps || event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target;
    // The slider moves itself with its keys; a form field's arrows are its own.
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.isContentEditable)) return;
    if (event.key === "ArrowLeft") { show(at - 1, true); event.preventDefault(); }
    else if (event.key === "ArrowRight") { show(at + 1, true); event.preventDefault(); }
  });
})();
