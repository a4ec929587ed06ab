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
  let boardFrom = null;  /* a board game's square picked first (its piece), then where it goes */
  let lastRoll = null;
  let lastSoundKey = null;
  const store = {
    get(k, d) { try { const v = localStorage.getItem("tt-" + k); return v === null ? d : JSON.parse(v); } catch (e) { return d; } },
    set(k, v) { try { localStorage.setItem("tt-" + k, JSON.stringify(v)); } catch (e) { /* private mode */ } },
  };
  let flipped = null;  /* null: the game's default */

  /* ---- the games this table referees, as the server registered them (GET /api/rulesets) ---- */
  const GAMES = Object.fromEntries((TT.games || []).map((g) => [g.name, g]));
  function specOf(s) { return (s && s.game && GAMES[s.game]) || null; }
  function uses(s, card) { const g = specOf(s); return !!g && g.inputs.includes(card); }

  /* ---- people at the table: "Alice plays suns" (kept by this screen, per game) ---- */
  function namesOf(s) { return (s && s.game_id != null && store.get("names-" + s.game_id, null)) || {}; }
  function who(p) {
    const n = namesOf(state)[p];
    return n ? `${n} (${p})` : p;
  }
  function whoPossessive(p) { return who(p) + (who(p).endsWith("s") ? "'" : "'s"); }

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

  function describeVerdict(v) {
    return (v.player ? who(v.player) + ": " : "") + (v.legal ? "legal" : "not legal (" + v.rule + ")") +
      (v.t ? " at " + TT.fmtTime(v.t) : "");
  }

  function nowText(s) {
    /* the game as it now stands, in one line */
    const now = currentPlayer(s);
    if (s.winner) return who(s.winner) + " won.";
    if (!now) return s.game ? "Game on: " + s.game : "";
    if (s.roll && s.awaiting === "move") return `${who(now)} to move: rolled ${s.roll}.`;
    return `${who(now)} to ${(specOf(s) || {}).turn_verb || "play"}.`;
  }

  function showVerdict(v, s) {
    const box = $("verdict");
    if (!v) return;
    const advice = $("verdict-advice");
    advice.hidden = true;
    if (v.undone) {
      /* the banner shows the game as it now stands, and what was taken back */
      box.className = "verdict none undone";
      $("verdict-word").textContent = nowText(s) || "Undone";
      $("verdict-reason").textContent = "Undone: " + describeVerdict(v) + " — " + v.reason;
      return;
    }
    box.className = "verdict " + (v.legal ? "legal" : "illegal");
    const whoText = v.player ? who(v.player) + ": " : "";
    $("verdict-word").textContent = whoText + (v.legal ? "Legal" : "Not legal — " + v.rule);
    $("verdict-reason").textContent = v.reason;
    if (!v.legal && v.judged_scene) {
      /* whose pieces to put back: the suit of the piece that breaks the rule, if it is a coin */
      const offender = (v.pieces || []).map((i) => v.judged_scene.pieces[i]).find((p) => p && (p.suit || p.color));
      const side = offender ? (offender.suit || offender.color) : null;
      const own = (specOf(s) || {}).player_pieces;
      const worm = side && own ? whoPossessive(side) + " " + own : "the pieces";
      $("advice-text").textContent = `What now? Put ${worm} back as it was (the dashed outlines on the diagram), or`;
      advice.hidden = false;
    } else if (!v.legal) {
      $("advice-text").textContent = "What now? Play on as the rules say, or";
      advice.hidden = false;
    }
    const key = v.position + ":" + v.seq;
    if (key !== lastVerdictKey) {
      lastVerdictKey = key;
      box.classList.remove("flash");
      void box.offsetWidth;
      box.classList.add("flash");
      if (!v.legal && $("sound-toggle").checked && lastSoundKey !== null && lastSoundKey !== key) beep();
      lastSoundKey = key;
    }
  }

  function beep() {
    try {
      const ctx = new (window.AudioContext || window.webkitAudioContext)();
      const o = ctx.createOscillator(), g = ctx.createGain();
      o.type = "square"; o.frequency.value = 440;
      g.gain.setValueAtTime(0.15, ctx.currentTime);
      g.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 0.6);
      o.connect(g); g.connect(ctx.destination); o.start(); o.stop(ctx.currentTime + 0.6);
    } catch (e) { /* no sound here */ }
  }

  function renderPlayers(s) {
    const box = $("players");
    box.textContent = "";
    const now = currentPlayer(s);
    const finished = new Map((s.finished || []).map((f) => [f.player, f.place]));
    (s.players || []).forEach((p) => {
      const chip = TT.el("span", { class: "chip" + (p === now ? " now" : "") },
        TT.el("span", { class: "swatch", style: `background:${TT.colourOf(p) || "#777"}` }), who(p));
      if (finished.has(p)) chip.append(TT.el("b", { text: " #" + finished.get(p) }));
      if (s.winner === p) chip.append(TT.el("b", { text: " wins!" }));
      box.append(chip);
    });
    const extra = [];
    if (now) extra.push("to play: " + who(now));
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
        onclick: () => { rollPlayer = p; box.dataset.touched = "1"; renderRoll(state); } }, who(p)));
    });
    $("roll-player-note").textContent = rollPlayer ? "for " + who(rollPlayer) : "";
    $("roll-card").hidden = !players.length || !uses(s, "roll");
  }

  function renderMove(s) {
    $("move-card").hidden = !uses(s, "move");
    if (!uses(s, "move")) return;
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

  function renderEventForms(s) {
    /* a form for each of the game's own event types (its registration's event_forms) */
    const box = $("event-forms");
    const forms = uses(s, "events") ? (specOf(s).event_forms || []) : [];
    $("events-card").hidden = !forms.length;
    const key = (s.game || "") + "|" + (s.players || []).join(",");
    if (box.dataset.key !== key) {
      box.dataset.key = key;
      box.textContent = "";
      forms.forEach((form) => box.append(eventForm(form, s.players || [])));
    }
    const now = currentPlayer(s);
    if (now) box.querySelectorAll("select[data-field=player]").forEach((sel) => { sel.value = now; });
  }

  function eventForm(form, players) {
    const f = TT.el("form", { class: "inline-form event-form", "data-type": form.type });
    f.append(TT.el("b", { text: form.type }));
    form.fields.forEach((field) => {
      let input;
      if (field.kind === "player") {
        input = TT.el("select", { "data-field": field.name, "aria-label": field.name });
        players.forEach((p) => input.append(TT.el("option", { value: p, text: p })));
      } else {
        input = TT.el("input", { "data-field": field.name, "aria-label": field.name, placeholder: field.name,
          type: field.kind === "number" ? "number" : "text", required: field.optional ? null : "required" });
      }
      f.append(input);
    });
    f.append(TT.el("button", { type: "submit", text: "Send" }));
    f.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const body = { type: form.type };
      f.querySelectorAll("[data-field]").forEach((el) => {
        if (el.value === "") return;
        body[el.dataset.field] = el.type === "number" ? Number(el.value) : el.value;
      });
      if (await send("/api/events", body)) {
        message("Logged: " + form.type);
        f.querySelectorAll("input[data-field]").forEach((el) => { el.value = ""; });
      }
    });
    return f;
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
      const li = TT.el("li", { class: (v.legal ? "legal" : "illegal") + (v.undone ? " undone" : ""),
        "data-seq": v.seq, title: v.undone ? "undone" : null },
        TT.el("span", { class: "when", text: TT.fmtTime(v.t) }),
        TT.el("span", { class: "mark", text: v.legal ? "✔" : "✘" }),
        TT.el("span", { class: "who", text: v.player ? who(v.player) : "" }),
        TT.el("span", { class: "rule", text: v.rule }),
        TT.el("span", { class: "why" }, v.undone ? TT.el("del", { text: v.reason }) : v.reason,
          v.undone ? TT.el("span", { class: "undone-tag", text: " undone" }) : null));
      list.append(li);
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

  function isFlipped(s) {
    return flipped === true;  /* a board: the first player's side at the screen unless turned */
  }

  function shownFit(s) { return gapMode && !fixMode ? s.fit : null; }

  function renderDiagram(s) {
    const v = latestVerdict(s);
    const foul = v && !v.legal && !v.undone && v.judged_scene && !fixMode;
    TT.drawDiagram($("diagram"), {
      scene: fixMode ? s.last_seen : (foul ? v.judged_scene : (s.scene || s.last_seen)),
      ghost: foul ? s.scene : null, describe: s, sizes: s.sizes, flip: isFlipped(s), showAll: fixMode,
      judged: fixMode || (v && v.undone) ? null : judgedOf(v), fit: shownFit(s), picks, selected: boardFrom });
    if (fixMode && fixIndex !== null) {
      const el = $("diagram").querySelector(`.pieces [data-index="${fixIndex}"]`);
      if (el) el.classList.add("picked");
    }
    $("diagram-note").textContent = s.scene ? "" : (s.last_seen ? "(last table seen, none accepted yet)" : "(no table yet)");
    renderFit(shownFit(s));
  }

  function renderFit(fit) {
    const box = $("fit-result");
    if (!fit) { box.hidden = true; return; }
    box.hidden = false;
    box.className = "fit-result " + (fit.straight_fits ? "fits" : "blocked");
    const lines = fit.text || [];
    $("fit-line1").textContent = lines[0] || "";
    $("fit-line2").textContent = lines[1] || "";
  }

  function renderOverlay(s) {
    const svg = $("picture-overlay");
    const img = $("picture");
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    if (!img.naturalWidth) return;
    svg.setAttribute("viewBox", `0 0 ${img.naturalWidth} ${img.naturalHeight}`);
    const v = latestVerdict(s);
    if (!v || v.legal || v.undone || !v.pieces_px) return;
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
    renderEventForms(s);
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
    if (v) showVerdict(v, s);
    else if (s.game) {
      $("verdict").className = "verdict none";
      $("verdict-word").textContent = "Game on: " + s.game;
      $("verdict-reason").textContent = "The referee judges each move when the table is still.";
      $("verdict-advice").hidden = true;
    }
    renderTurn(s);
    renderUndo(s);
    renderSource(s.source);
    const q = s.game_id != null ? "?game=" + s.game_id + "&format=" : "?format=";
    for (const f of ["moves", "ppn", "svg", "png"]) $(f + "-link").href = "/history/export" + q + f;
    $("ppn-link").hidden = !(specOf(s) || {}).ppn;  /* PPN holds piecepack games */
    const note = (s.notices || [])[0];
    $("verdict-note").textContent = note && (!v || note.position > v.position) ? "ℹ " + note.message : "";
    if (s.doubt) $("verdict-note").textContent = "? Check the table: " + s.doubt.reason + " (fix the reading, or accept the table)";
  }

  function renderTurn(s) {
    const now = currentPlayer(s);
    $("turn-now").textContent = s.winner ? who(s.winner) + " won" : (now ? who(now) + " to play" : (s.game ? "" : "No game yet"));
    $("turn-now").style.setProperty("--c", (now && TT.colourOf(now)) || "transparent");
    const rolled = s.roll || (lastRoll && lastRoll.game_id === s.game_id ? lastRoll.value : null);
    const dice = uses(s, "roll");
    $("turn-roll").textContent = rolled ? "roll " + rolled : (dice && now ? "roll: –" : "");
  }

  function renderUndo(s) {
    /* Undo names what it will take back, before it does */
    const b = $("undo");
    const target = s.undo_next == null ? null : (s.verdicts || []).find((x) => x.seq === s.undo_next && !x.undone);
    b.disabled = s.undo_next == null;
    b.textContent = target ? "Undo: " + describeVerdict(target) : (s.undo_next == null ? "Nothing to undo" : "Undo last verdict");
    b.title = target ? "takes back: " + target.reason + " (key: u)" : "key: u";
    $("advice-undo").textContent = target ? "Undo it" : "Undo";
  }

  let sourceLost = null;
  function renderSource(src) {
    /* a lost camera is said in the banner, and again when it is back */
    const box = $("source-banner");
    if (!src || src.state === "none") { box.hidden = true; return; }
    if (src.state === "lost") {
      if (!sourceLost) sourceLost = { frames: src.frames_read || 0 };
      box.hidden = false;
      box.className = "source-banner lost";
      box.textContent = `⚠ The camera is gone (${(src.message || "").split(";")[0]}): the game is paused. ` +
        "Plug it back in or check the cable; the referee tries again by itself.";
      return;
    }
    if (sourceLost && (src.frames_read || 0) > sourceLost.frames) {
      sourceLost = null;
      box.hidden = false;
      box.className = "source-banner back";
      box.textContent = "✔ The camera is back: the game goes on.";
      setTimeout(() => { if (!sourceLost) box.hidden = true; }, 8000);
    }
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
  document.querySelectorAll("#roll-buttons .die").forEach((b) => b.addEventListener("click", () => roll(b.dataset.value)));
  $("move-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const m = $("move-text").value.trim().toLowerCase();
    const out = await send("/api/events", { type: "move", player: $("move-player").value,
      from: m.slice(0, 2), to: m.slice(2) });
    if (out) { $("move-text").value = ""; message(`Logged: ${m}`); }
  });
  async function accept() {
    if (await send("/api/events", { type: "accept" })) message("Logged: the table as it is now is accepted.");
  }
  async function undo() {
    const label = $("undo").textContent;
    if (await send("/api/events", { type: "undo" })) message("Logged: " + label.replace(/^Undo: /, "undone: "));
  }
  $("accept").addEventListener("click", accept);
  $("undo").addEventListener("click", undo);
  $("advice-accept").addEventListener("click", accept);
  $("advice-undo").addEventListener("click", undo);

  async function roll(value) {
    if (!rollPlayer) { message("Start a game first.", true); return; }
    const out = await send("/api/events", { type: "roll", player: rollPlayer, value });
    if (out) {
      message(`Logged: ${who(rollPlayer)} rolled ${value}`);
      delete $("roll-players").dataset.touched;
    }
  }

  /* ---- keys: 0 null, 1 or a ace, 2-5, u undo, Enter accept ---- */
  const KEYS = { "0": "null", "1": "ace", "a": "ace", "2": "2", "3": "3", "4": "4", "5": "5" };
  document.addEventListener("keydown", (ev) => {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const t = ev.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA" || t.isContentEditable)) return;
    const k = ev.key.toLowerCase();
    if (KEYS[k] && state && !$("roll-card").hidden) { ev.preventDefault(); roll(KEYS[k]); }
    else if (k === "u") { ev.preventDefault(); undo(); }
    else if (k === "enter" && !(t && t.tagName === "BUTTON")) { ev.preventDefault(); accept(); }
    else if (k === "escape" && gapMode) { $("gap-tool").click(); }
  });

  /* ---- the 3 m view ---- */
  function setTableView(on) {
    document.body.classList.toggle("tableview", on);
    $("table-view").setAttribute("aria-pressed", String(on));
    $("table-view").textContent = on ? "Normal view" : "Table view";
    store.set("tableview", on);
  }
  $("table-view").addEventListener("click", () => setTableView(!document.body.classList.contains("tableview")));
  setTableView(new URLSearchParams(location.search).get("view") === "table" || store.get("tableview", false));
  $("sound-toggle").checked = store.get("sound", false);
  $("sound-toggle").addEventListener("change", () => store.set("sound", $("sound-toggle").checked));
  $("flip-view").addEventListener("click", () => {
    flipped = !isFlipped(state || {});
    store.set("flip", flipped);
    if (state) renderDiagram(state);
  });
  flipped = store.get("flip", null);
  $("gap-tool").addEventListener("click", () => {
    gapMode = !gapMode;
    if (gapMode && fixMode) setFix(false);
    picks = [];
    $("gap-tool").setAttribute("aria-pressed", String(gapMode));
    $("gap-tool").classList.toggle("on", gapMode);
    $("gap-hint").hidden = !gapMode;
    if (state) { if (!gapMode) state.fit = null; renderDiagram(state); }
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

  async function boardClick(ev) {
    /* a board game's move: click a piece of the player to move, then the square it goes to */
    const el = ev.target.closest("[data-square]");
    if (!el || !state || !uses(state, "move")) return false;
    const sq = el.dataset.square;
    const mine = state.squares && state.squares[sq] && state.squares[sq].player === currentPlayer(state);
    if (boardFrom && sq !== boardFrom && !mine) {
      const from = boardFrom;
      boardFrom = null;
      const out = await send("/api/events", { type: "move", player: currentPlayer(state), from, to: sq });
      if (out) message(`Logged: ${from}${sq}`);
      renderDiagram(state);
      return true;
    }
    boardFrom = mine && sq !== boardFrom ? sq : null;
    if (boardFrom) message(`${state.squares[sq].animal} on ${sq}: now click where it goes.`);
    renderDiagram(state);
    return true;
  }

  $("diagram").addEventListener("click", async (ev) => {
    if (fixMode) { pickForFix(ev); return; }
    if (!gapMode) { await boardClick(ev); return; }
    picks.push(TT.svgPoint($("diagram"), ev));
    if (picks.length < 2) {
      const vb = $("diagram").getAttribute("viewBox").split(" ").map(Number);
      TT.drawDiagram($("diagram"), { scene: state.scene || state.last_seen, describe: state,
        sizes: state.sizes, fit: null, picks, viewBox: vb, flip: isFlipped(state) });
      $("fit-result").hidden = true;
      return;
    }
    let [a, b] = picks;
    picks = [];
    if (Math.hypot(a[0] - b[0], a[1] - b[1]) < 3) b = a;  /* one point twice: the gap there */
    const out = await send("/api/fit", { from: a, to: b });
    if (out) { state.fit = out; renderDiagram(state); }
  });

  const setupGame = $("setup-game");
  function setupDefaults() {
    const g = GAMES[setupGame.value];
    $("setup-players").placeholder = g ? g.players.join(", ") : "names, comma-separated";
    document.querySelectorAll("#setup-form .game-options").forEach((f) => { f.hidden = f.dataset.game !== setupGame.value; });
  }
  function setupOptions(form, game) {
    /* the game's options from its fieldset (see referee/registry.py: choice, flag, flags, names) */
    const options = {};
    const box = form.querySelector(`.game-options[data-game="${CSS.escape(game)}"]`);
    if (!box) return options;
    box.querySelectorAll("[data-kind]").forEach((el) => {
      const kind = el.dataset.kind;
      if (kind === "choice") options[el.dataset.option] = el.value;
      else if (kind === "flag") options[el.dataset.option] = el.checked;
      else if (kind === "flags" && el.checked) options[el.value] = true;
      else if (kind === "names") el.value.split(/[\s,]+/).filter(Boolean).forEach((n) => { options[n] = true; });
    });
    return options;
  }
  setupGame.addEventListener("change", setupDefaults);
  setupDefaults();
  $("setup-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const f = ev.target;
    /* "Alice plays suns, Bob: moons, crowns": the record keeps the sides, this screen the people */
    const people = {};
    const names = (f.players.value || f.players.placeholder).split(/[,;]+/).map((x) => x.trim()).filter(Boolean)
      .flatMap((part) => {
        const m = part.match(/^(.+?)\s*(?:plays|:|=)\s*(\S+)$/i);
        if (m) { people[m[2]] = m[1]; return [m[2]]; }
        return part.split(/\s+/);
      });
    const options = setupOptions(f, f.game.value);
    const out = await send("/api/events", { type: "setup", game: f.game.value, players: names, options });
    if (out) {
      if (Object.keys(people).length && out.game_id != null) store.set("names-" + out.game_id, people);
      message("New game started."); $("new-game").open = false; refresh();
    }
  });

  TT.listen({
    status: (s) => { TT.showStatus(s); renderSource(s); },
    verdict: (v) => { showVerdict(v, state); refreshSoon(); },
    input: (d) => {
      if (d && d.event && d.event.type === "roll") { lastRoll = { game_id: d.game_id, value: d.event.value }; if (state) renderTurn(state); }
    },
    "*": (kind) => { if (kind !== "status" && kind !== "verdict" && kind !== "input") refreshSoon(); },
    open: () => refreshSoon(),
  });
  /* ---- the demo menu (tabletop demo only): play it again, Worm Up! bids, Jungle ---- */
  const DEMO_LABELS = { "worm-derby": "Worm Derby again", "worm-up": "Worm Up! bidding round", "jungle": "Jungle game" };
  TT.getJSON("/demo").then((d) => {
    const names = Object.keys(d.demos || {});
    $("demo-card").hidden = !names.length;
    names.forEach((n) => $("demo-buttons").append(TT.el("button", { type: "button", class: "secondary",
      "data-demo": n, title: d.demos[n], text: "▶ " + (DEMO_LABELS[n] || n),
      onclick: async () => { if (await send("/demo/play", { name: n })) message("Demo: " + d.demos[n] + "."); } })));
  }).catch(() => null);

  refresh();
  pollPicture();
})();
