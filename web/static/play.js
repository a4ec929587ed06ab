/* The phone page: join with the code and a colour, then bid. Sees only its own bid. */
"use strict";

(function () {
  const TT = window.TT;
  const $ = (id) => document.getElementById(id);
  let chosen = null;
  let view = null;

  function message(text, bad) {
    $("message").textContent = text || "";
    $("message").className = "message" + (bad ? " bad" : "");
  }

  function render(v) {
    view = v;
    if (!v || !v.you) return;
    $("join-card").hidden = true;
    $("bid-card").hidden = false;
    $("me").textContent = v.you;
    $("me-swatch").style.background = TT.colourOf(v.you) || "#777";
    $("round").textContent = v.round || "";
    const available = v.available || [];
    document.querySelectorAll("#bid-buttons button").forEach((b) => {
      b.disabled = !v.open || !available.includes(b.dataset.bid);
      b.classList.toggle("mine", v.your_bid === b.dataset.bid);
      b.title = available.includes(b.dataset.bid) ? "" : "this tile sits out this round";
    });
    $("x-number-label").hidden = !v.open || !available.includes("X");
    $("yours").innerHTML = "";
    if (v.your_bid) {
      $("yours").append("Your bid: ", TT.el("b", { text: v.your_bid + (v.your_number ? " (as " + v.your_number + ")" : "") }),
        " — you may change it until everyone has bid.");
    } else if (!v.active) {
      $("yours").append("No Worm Up! game is running.");
    } else if (!v.open) {
      $("yours").append(v.phase === "moving"
        ? "Worms are moving" + (v.next.length ? " (next: " + v.next.join(" or ") + ")" : "") +
          ". Bids for the next round open once every worm has moved."
        : v.phase === "over" ? "The race is over." : "Bids open once the worms stand at the start.");
    } else {
      $("yours").append("No bid yet this round.");
    }
    const waiting = v.open ? (v.waiting_for || []) : [];
    const inn = (v.bids_in || []).filter((p) => p !== v.you);
    $("others").textContent = (inn.length ? "Has bid: " + inn.join(", ") + ". " : "") +
      (waiting.length ? "Waiting for: " + waiting.join(", ") + "." : "");
    const r = v.last_reveal;
    $("reveal-box").hidden = !r;
    if (r) $("reveal-text").textContent = TT.revealText(r);
  }

  async function refresh() {
    try { render(await TT.getJSON("/play/state")); } catch (e) { /* not joined yet */ }
  }

  document.querySelectorAll("#colour-pick button").forEach((b) => b.addEventListener("click", () => {
    chosen = b.dataset.player;
    document.querySelectorAll("#colour-pick button").forEach((o) => o.classList.toggle("on", o === b));
  }));

  $("join-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    if (!chosen) { message("Pick your colour.", true); return; }
    try {
      const v = await TT.postJSON("/play/join", { code: $("join-code-input").value, player: chosen });
      try { sessionStorage.setItem("tt-join-code", $("join-code-input").value.trim().toUpperCase()); } catch (e) { /* ignore */ }
      message("");
      render(v);
    } catch (e) { message(e.message, true); }
  });

  document.querySelectorAll("#bid-buttons button").forEach((b) => b.addEventListener("click", async () => {
    const body = { bid: b.dataset.bid };
    const n = $("x-number").value;
    if (b.dataset.bid === "X" && n) body.number = Number(n);
    try { render(await TT.postJSON("/play/bid", body)); message(""); } catch (e) { message(e.message, true); }
  }));

  $("leave").addEventListener("click", async () => {
    await TT.postJSON("/play/leave", {}).catch(() => null);
    $("bid-card").hidden = true;
    $("join-card").hidden = false;
  });

  TT.listen({ bids: () => refresh(), reveal: () => refresh(), game: () => refresh(),
    table: () => refresh(), resync: () => refresh() });
  refresh();
})();
