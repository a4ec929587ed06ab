/* Shared by every page: JSON requests, the live stream, the status bar. Plain JS, no build. */
"use strict";

(function () {
  const TT = window.TT || (window.TT = {});

  function joinCode() {
    const meta = document.querySelector('meta[name="join-code"]');
    if (meta) return meta.content;
    try { return sessionStorage.getItem("tt-join-code") || ""; } catch (e) { return ""; }
  }

  TT.getJSON = async function (url) {
    const r = await fetch(url, { headers: { "Accept": "application/json" } });
    const body = await r.json().catch(() => ({ error: "the server's answer is not JSON" }));
    if (!r.ok) throw new Error(body.error || r.statusText);
    return body;
  };

  TT.postJSON = async function (url, data) {
    const headers = { "Content-Type": "application/json", "Accept": "application/json" };
    let code = joinCode();
    if (code) headers["X-Join-Code"] = code;
    let r = await fetch(url, { method: "POST", headers, body: JSON.stringify(data || {}) });
    if (r.status === 403 && !code) {
      const typed = window.prompt("This table needs its join code (shown on the table's screen):");
      if (typed) {
        try { sessionStorage.setItem("tt-join-code", typed.trim().toUpperCase()); } catch (e) { /* private mode */ }
        headers["X-Join-Code"] = typed.trim().toUpperCase();
        r = await fetch(url, { method: "POST", headers, body: JSON.stringify(data || {}) });
      }
    }
    const body = await r.json().catch(() => ({ error: "the server's answer is not JSON" }));
    if (!r.ok) throw new Error(body.error || r.statusText);
    return body;
  };

  /* The live stream: calls handlers[kind](data); "*" gets every message. Reconnects by itself. */
  TT.listen = function (handlers) {
    const src = new EventSource("/api/stream");
    const kinds = ["verdict", "doubt", "rounded", "finish", "winner", "undone", "notice", "input", "table",
      "game", "status", "bids", "reveal", "fit", "calibration", "resync"];
    kinds.forEach((k) => src.addEventListener(k, (ev) => {
      let data = null;
      try { data = JSON.parse(ev.data); } catch (e) { return; }
      if (handlers[k]) handlers[k](data);
      if (handlers["*"]) handlers["*"](k, data);
    }));
    src.onopen = () => { if (handlers.open) handlers.open(); };
    src.onerror = () => { if (handlers.error) handlers.error(); };
    TT.stream = src;
    return src;
  };

  TT.showStatus = function (s) {
    if (!s) return;
    const state = document.getElementById("status-state");
    if (!state) return;
    state.textContent = s.state === "none" ? "no camera" : s.state;
    state.className = "pill state-" + s.state;
    state.title = s.message || "";
    document.getElementById("status-source").textContent = s.source || "";
    document.getElementById("status-fps").textContent =
      s.state === "running" || s.fps ? (s.fps || 0).toFixed(1) + " fps" : "";
    document.getElementById("status-latency").textContent =
      s.latency_ms != null ? Math.round(s.latency_ms) + " ms" : "";
    const note = document.getElementById("picture-note");
    if (note) {  /* a lost camera or a failing frame is said where the picture should be */
      const trouble = s.state === "lost" || s.state === "error" ? s.message : s.error;
      note.textContent = trouble ? "— " + trouble : "";
      note.className = trouble ? "trouble" : "muted";
    }
  };

  TT.fmtTime = function (t) {
    if (!t) return "";
    const d = new Date(t * 1000);
    return d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit", hour12: false });
  };

  TT.el = function (tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") e.className = v;
      else if (k === "text") e.textContent = v;
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children) if (c !== null && c !== undefined) e.append(c);
    return e;
  };

  TT.revealText = function (r) {
    /* One line about a reveal: the referee's summary, or the bids when there is none. */
    if (!r) return "";
    if (r.summary) return r.summary;
    const bids = Object.entries(r.bids || {}).map(([p, b]) => p + " " + b).join(", ");
    const order = (r.order || []).map((m) => m.player).join(", ");
    return "Bids: " + bids + (order ? "; move order: " + order : "") + ".";
  };

  const BY_SEAT = ["#D55E00", "#0072B2", "#009E73", "#CC79A7", "#E69F00"];
  TT.players = [];

  TT.colourOf = function (name) {
    /* A suit's or a worm's colour; other players (Jungle) by their seat. */
    const known = (TT.suitColours && TT.suitColours[name]) || (TT.segmentColours && TT.segmentColours[name]);
    if (known) return known;
    const seat = TT.players.indexOf(name);
    return seat >= 0 ? BY_SEAT[seat % BY_SEAT.length] : null;
  };
})();
