/* The dashboard: live picture, diagram, verdicts, controls. Talks only to the contract's API. */
"use strict";

(function () {
  const TT = window.TT;
  const $ = (id) => document.getElementById(id);
  let state = null;
  let rollPlayer = null;
  let gapMode = false;
  let fixMode = false;
  let fixIndex = null;
  let picks = [];
  let lastVerdictKey = null;
  let refreshTimer = null;

  function message(text, bad) {
    const m = $("message");
    m.textContent = text || "";
    m.className = "message" + (bad ? " bad" : "");
  }

  async function send(url, body) {
    try {
      const out = await TT.postJSON(url, body);
      message("");
      return out;
    } catch (e) {
      message(e.message, true);
      return null;
    }
  }

  function currentPlayer(s) {
    for (const k of ["turn", "to_move", "next_player", "current_player", "player"]) {
      if (typeof s[k] === "string") return s[k];
    }
    return null;
  }

  function latestVerdict(s) {
    return (s.verdicts && s.verdicts.length) ? s.verdicts[0] : null;
  }

  function showVerdict(v) {
    const box = $("verdict");
    if (!v) return;
    box.className = "verdict " + (v.legal ? "legal" : "illegal");
    const who = v.player ? v.player + ": " : "";
    $("verdict-word").textContent = who + (v.legal ? "Legal" : "Not legal — " + v.rule);
    $("verdict-reason").textContent = v.reason;
    const key = v.position + ":" + v.seq;
    if (key !== lastVerdictKey) {
      lastVerdictKey = key;
      box.classList.remove("flash");
      void box.offsetWidth;
      box.classList.add("flash");
    }
  }

  function renderPlayers(s) {
    const box = $("players");
    box.textContent = "";
    const now = currentPlayer(s);
    const finished = new Map((s.finished || []).map((f) => [f.player, f.place]));
    (s.players || []).forEach((p) => {
      const chip = TT.el("span", { class: "chip" + (p === now ? " now" : "") },
        TT.el("span", { class: "swatch", style: `background:${TT.colourOf(p) || "#777"}` }), p);
      if (finished.has(p)) chip.append(TT.el("b", { text: " #" + finished.get(p) }));
      if (s.winner === p) chip.append(TT.el("b", { text: " wins!" }));
      box.append(chip);
    });
    const extra = [];
    if (now) extra.push("to play: " + now);
    if (s.roll) extra.push("roll: " + (typeof s.roll === "object" ? JSON.stringify(s.roll) : s.roll));
    if (s.variant) extra.push("variant: " + s.variant);
    if (s.phase) extra.push("phase: " + s.phase);
    $("game-extra").textContent = extra.join(" · ");
  }

  function renderRoll(s) {
    const box = $("roll-players");
    box.textContent = "";
    const players = s.players || [];
    if (!players.includes(rollPlayer)) rollPlayer = currentPlayer(s) || players[0] || null;
    const now = currentPlayer(s);
    if (now && players.includes(now) && rollPlayer !== now && !box.dataset.touched) rollPlayer = now;
    players.forEach((p) => {
      box.append(TT.el("button", { type: "button", class: "player-btn" + (p === rollPlayer ? " on" : ""),
        "data-player": p, style: `--c:${TT.colourOf(p) || "#777"}`,
        onclick: () => { rollPlayer = p; box.dataset.touched = "1"; renderRoll(state); } }, p));
    });
    $("roll-player-note").textContent = rollPlayer ? "for " + rollPlayer : "";
    $("roll-card").hidden = !players.length || s.game === "worm-up" || s.game === "jungle";
  }

  function renderMove(s) {
    $("move-card").hidden = s.game !== "jungle";
    if (s.game !== "jungle") return;
    const sel = $("move-player");
    const now = currentPlayer(s);
    const names = (s.players || []).join(",");
    if (sel.dataset.names !== names) {
      sel.textContent = "";
      (s.players || []).forEach((p) => sel.append(TT.el("option", { value: p, text: p })));
      sel.dataset.names = names;
    }
    if (now) sel.value = now;
  }

  function renderVerdicts(s) {
    const list = $("verdicts");
    list.textContent = "";
    const items = [...(s.verdicts || []), ...(s.notices || [])]
      .sort((a, b) => b.position - a.position).slice(0, 30);
    items.forEach((v) => {
      if (v.type === "notice") {
        list.append(TT.el("li", { class: "notice level-" + (v.level || "info") },
          TT.el("span", { class: "when", text: TT.fmtTime(v.t) }),
          TT.el("span", { class: "mark", text: v.level === "warning" ? "⚠" : "ℹ" }),
          TT.el("span", { class: "who", text: "" }),
          TT.el("span", { class: "rule", text: "note" }),
          TT.el("span", { class: "why", text: v.message })));
        return;
      }
      list.append(TT.el("li", { class: v.legal ? "legal" : "illegal" },
        TT.el("span", { class: "when", text: TT.fmtTime(v.t) }),
        TT.el("span", { class: "mark", text: v.legal ? "✔" : "✘" }),
        TT.el("span", { class: "who", text: v.player || "" }),
        TT.el("span", { class: "rule", text: v.rule }),
        TT.el("span", { class: "why", text: v.reason })));
    });
    if (!list.children.length) list.append(TT.el("li", { class: "muted", text: "No verdict yet." }));
  }

  function renderBids(s) {
    const b = s.bids || {};
    $("bids-card").hidden = !b.active;
    if (!b.active) return;
    $("bid-round").textContent = b.round;
    const st = $("bid-status");
    st.textContent = "";
    (b.players || []).forEach((p) => {
      const done = (b.bids_in || []).includes(p);
      st.append(TT.el("span", { class: "chip" + (done ? " done" : "") },
        TT.el("span", { class: "swatch", style: `background:${TT.colourOf(p) || "#777"}` }),
        p + (done ? " ✔" : " …")));
    });
    const r = b.last_reveal;
    $("reveal").textContent = TT.revealText(r);
    if (!b.open) {
      st.append(TT.el("div", { class: "muted", text: b.phase === "moving"
        ? "Worms move now" + (b.next.length ? " — next: " + b.next.join(" or ") : "") + "."
        : b.phase === "over" ? "The race is over." : "Bidding opens once the worms stand at the start." }));
    }
  }

  function judgedOf(v) {
    if (!v || !v.judged_scene) return null;
    return { scene: v.judged_scene, pieces: v.pieces || [], where: v.where || null, legal: v.legal };
  }

  function renderDiagram(s) {
    const v = latestVerdict(s);
    TT.drawDiagram($("diagram"), {
      scene: fixMode ? s.last_seen : (s.scene || s.last_seen), describe: s, sizes: s.sizes,
      judged: fixMode ? null : judgedOf(v), fit: fixMode ? null : s.fit, picks });
    if (fixMode && fixIndex !== null) {
      const el = $("diagram").querySelector(`.pieces [data-index="${fixIndex}"]`);
      if (el) el.classList.add("picked");
    }
    $("diagram-note").textContent = s.scene ? "" : (s.last_seen ? "(last table seen, none accepted yet)" : "(no table yet)");
    renderFit(s.fit);
  }

  function renderFit(fit) {
    const box = $("fit-result");
    if (!fit) { box.hidden = true; return; }
    box.hidden = false;
    box.className = "fit-result " + (fit.fits ? "fits" : "blocked");
    box.textContent = (fit.fits ? "The coin fits" : "The coin does not fit") +
      (fit.clearance_mm != null ? ` — clearance ${fit.clearance_mm.toFixed(1)} mm` : "") +
      (fit.pinch ? ` (tightest at ${fit.pinch.map((c) => c.toFixed(0)).join(", ")} mm)` : "");
  }

  function renderOverlay(s) {
    const svg = $("picture-overlay");
    const img = $("picture");
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    if (!img.naturalWidth) return;
    svg.setAttribute("viewBox", `0 0 ${img.naturalWidth} ${img.naturalHeight}`);
    const v = latestVerdict(s);
    if (!v || v.legal || !v.pieces_px) return;
    const scale = img.naturalWidth / (v.image_size ? v.image_size[0] : img.naturalWidth);
    const ns = "http://www.w3.org/2000/svg";
    v.pieces_px.forEach((p) => {
      const c = document.createElementNS(ns, "circle");
      c.setAttribute("cx", p[0] * scale); c.setAttribute("cy", p[1] * scale);
      c.setAttribute("r", (p[2] || 20) * scale); c.setAttribute("class", "offender");
      svg.appendChild(c);
    });
  }

  function render(s) {
    state = s;
    TT.players = s.players || [];
    $("game-title").textContent = s.game ? s.game + (s.game_id ? "  · game " + s.game_id : "") : "No game yet";
    renderPlayers(s);
    renderRoll(s);
    renderMove(s);
    renderVerdicts(s);
    renderBids(s);
    renderDiagram(s);
    renderOverlay(s);
    TT.showStatus(s.source);
    const noCamera = !s.source || s.source.state === "none";
    $("camera-view").hidden = noCamera;
    $("views").classList.toggle("no-camera", noCamera);
    const drift = $("drift-warning");
    drift.hidden = !(s.drift && s.drift.moved);
    if (s.drift && s.drift.moved) {
      drift.textContent = "⚠ " + s.drift.message + " ";
      drift.append(TT.el("a", { href: "/calibration", text: "Calibration page" }));
    }
    const v = latestVerdict(s);
    if (v) showVerdict(v);
    else if (s.game) {
      $("verdict").className = "verdict none";
      $("verdict-word").textContent = "Game on: " + s.game;
      $("verdict-reason").textContent = "The referee judges each move when the table is still.";
    }
    const note = (s.notices || [])[0];
    $("verdict-note").textContent = note && (!v || note.position > v.position) ? "ℹ " + note.message : "";
    if (s.doubt) $("verdict-note").textContent = "? Check the table: " + s.doubt.reason + " (fix the reading, or accept the table)";
  }

  async function refresh() {
    try { render(await TT.getJSON("/api/state")); } catch (e) { message(e.message, true); }
  }

  function refreshSoon() {
    if (refreshTimer) return;
    refreshTimer = setTimeout(() => { refreshTimer = null; refresh(); }, 120);
  }

  /* ---- the live picture: fetch the latest JPEG whenever the previous one has arrived ---- */
  function pollPicture() {
    const img = $("picture");
    const next = new Image();
    next.onload = () => {
      img.src = next.src;
      $("picture-empty").hidden = true;
      img.hidden = false;
      $("picture-wrap").style.aspectRatio = next.naturalWidth + " / " + next.naturalHeight;
      if (state) renderOverlay(state);
      setTimeout(pollPicture, 200);
    };
    const noCamera = state && (!state.source || state.source.state === "none");
    next.onerror = () => { setTimeout(pollPicture, noCamera ? 5000 : 1000); };
    next.src = "/frame.jpg?t=" + Date.now();
  }

  /* ---- controls ---- */
  document.querySelectorAll("#roll-buttons .die").forEach((b) => b.addEventListener("click", async () => {
    if (!rollPlayer) { message("Start a game first.", true); return; }
    const out = await send("/api/events", { type: "roll", player: rollPlayer, value: b.dataset.value });
    if (out) {
      message(`Logged: ${rollPlayer} rolled ${b.dataset.value}`);
      delete $("roll-players").dataset.touched;
    }
  }));
  $("move-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const m = $("move-text").value.trim().toLowerCase();
    const out = await send("/api/events", { type: "move", player: $("move-player").value,
      from: m.slice(0, 2), to: m.slice(2) });
    if (out) { $("move-text").value = ""; message(`Logged: ${m}`); }
  });
  $("accept").addEventListener("click", () => send("/api/events", { type: "accept" }));
  $("undo").addEventListener("click", () => send("/api/events", { type: "undo" }));
  $("gap-tool").addEventListener("click", () => {
    gapMode = !gapMode;
    if (gapMode && fixMode) setFix(false);
    picks = [];
    $("gap-tool").setAttribute("aria-pressed", String(gapMode));
    $("gap-tool").classList.toggle("on", gapMode);
    $("gap-hint").hidden = !gapMode;
    if (state) renderDiagram(state);
  });
  /* ---- fixing a misread: a logged correction of the last table seen ---- */
  function setFix(on) {
    fixMode = on;
    fixIndex = null;
    $("fix-tool").setAttribute("aria-pressed", String(on));
    $("fix-hint").hidden = !on;
    $("fix-panel").hidden = true;
    if (on && gapMode) $("gap-tool").click();
    if (state) renderDiagram(state);
  }
  $("fix-tool").addEventListener("click", () => setFix(!fixMode));
  const suits = Object.keys(TT.suitColours || {});
  $("fix-suit").append(TT.el("option", { value: "", text: "Coin's real suit…" }),
    ...suits.map((x) => TT.el("option", { value: x, text: x })));
  async function correct(body) {
    const out = await send("/api/events", Object.assign({ type: "correction" }, body));
    if (out) { message("Correction logged; the corrected table was judged."); setFix(false); }
  }
  $("fix-remove").addEventListener("click", () => correct({ op: "remove", index: fixIndex }));
  $("fix-flip").addEventListener("click", () => {
    const p = state.last_seen.pieces[fixIndex];
    correct({ op: "change", index: fixIndex, piece: Object.assign({}, p, { face: p.face === "up" ? "down" : "up" }) });
  });
  $("fix-suit").addEventListener("change", () => {
    if (!$("fix-suit").value) return;
    const p = state.last_seen.pieces[fixIndex];
    correct({ op: "change", index: fixIndex, piece: Object.assign({}, p, { suit: $("fix-suit").value }) });
  });
  function pickForFix(ev) {
    const el = ev.target.closest(".pieces [data-index]");
    if (!el || !state || !state.last_seen) return;
    fixIndex = Number(el.dataset.index);
    const p = state.last_seen.pieces[fixIndex];
    $("fix-what").textContent = `Piece ${fixIndex}: ${p.kind}${p.suit ? " " + p.suit : ""}` +
      `${p.face ? " face " + p.face : ""} at (${Math.round(p.x)}, ${Math.round(p.y)}) mm`;
    $("fix-flip").hidden = p.kind !== "tile";
    $("fix-suit").hidden = p.kind !== "coin";
    $("fix-suit").value = "";
    $("fix-panel").hidden = false;
    renderDiagram(state);
  }

  $("diagram").addEventListener("click", async (ev) => {
    if (fixMode) { pickForFix(ev); return; }
    if (!gapMode) return;
    picks.push(TT.svgPoint($("diagram"), ev));
    if (picks.length < 2) {
      const vb = $("diagram").getAttribute("viewBox").split(" ").map(Number);
      TT.drawDiagram($("diagram"), { scene: state.scene || state.last_seen, describe: state,
        sizes: state.sizes, fit: null, picks, viewBox: vb });
      return;
    }
    const [a, b] = picks;
    picks = [];
    const out = await send("/api/fit", { from: a, to: b });
    if (out) { state.fit = out; renderDiagram(state); }
  });

  const setupGame = $("setup-game");
  const defaults = { "worm-derby": "suns, moons", "worm-up": "red, yellow, green", "jungle": "south, north" };
  function setupDefaults() {
    $("setup-players").placeholder = defaults[setupGame.value] || "names, comma-separated";
    $("derby-options").hidden = setupGame.value !== "worm-derby";
    $("jungle-options").hidden = setupGame.value !== "jungle";
  }
  setupGame.addEventListener("change", setupDefaults);
  setupDefaults();
  $("setup-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const f = ev.target;
    const names = (f.players.value || f.players.placeholder).split(/[\s,]+/).filter(Boolean);
    const options = {};
    if (f.game.value === "worm-derby") {
      options.variant = f.variant.value;
      options.cannibal = f.cannibal.checked;
    }
    if (f.game.value === "jungle" && f.variants.value.trim()) {
      for (const v of f.variants.value.split(/[\s,]+/).filter(Boolean)) options[v] = true;
    }
    const out = await send("/api/events", { type: "setup", game: f.game.value, players: names, options });
    if (out) { message("New game started."); $("new-game").open = false; refresh(); }
  });

  TT.listen({
    status: (s) => TT.showStatus(s),
    verdict: (v) => { showVerdict(v); refreshSoon(); },
    "*": (kind) => { if (kind !== "status" && kind !== "verdict" && kind !== "input") refreshSoon(); },
    open: () => refreshSoon(),
  });
  refresh();
  pollPicture();
})();
