/* The calibration page: the grid on the picture, the error heat map, drift, re-calibration. */
"use strict";

(function () {
  const TT = window.TT;
  const $ = (id) => document.getElementById(id);

  function fact(dl, k, v) { dl.append(TT.el("dt", { text: k }), TT.el("dd", { text: v })); }

  async function load() {
    const info = await TT.getJSON("/calibration/info").catch((e) => ({ error: e.message }));
    const dl = $("facts");
    dl.textContent = "";
    if (!info.calibration) {
      fact(dl, "status", "no calibration loaded (start with --calibration CAL.json)");
      $("grid").hidden = true;
      $("grid-note").textContent = "No calibration: nothing to draw.";
      $("heatmap").hidden = true;
      return;
    }
    const c = info.calibration;
    fact(dl, "image", c.image_size.join(" × ") + " px");
    fact(dl, "mean error", c.reprojection_mm ? c.reprojection_mm.toFixed(2) + " mm" : "unknown");
    fact(dl, "lens", c.lens ? "undistorted" : "none (pinhole)");
    fact(dl, "table seen", c.extent_mm.map((v) => Math.round(v)).join(", ") + " mm");
    $("grid").src = "/calibration/grid.jpg?t=" + Date.now();
    const heat = $("heatmap");
    try {
      const r = await fetch("/calibration/heatmap.png?t=" + Date.now());
      if (!r.ok) throw new Error((await r.json().catch(() => ({}))).error || "not available");
      const top = Number(r.headers.get("X-Error-Max-Mm"));
      heat.src = URL.createObjectURL(await r.blob());
      heat.hidden = false;
      document.querySelector(".legend").hidden = false;
      $("heat-max").textContent = isFinite(top) ? top.toFixed(2) + " mm" : "max";
      $("heat-note").textContent = "Expected error of a position on the table (1 sigma), seen from above: x to the right, y down; black: outside the camera's view.";
    } catch (e) {
      heat.hidden = true;
      document.querySelector(".legend").hidden = true;
      $("heat-note").textContent = "Not available: " + e.message + ".";
    }
    const d = info.drift;
    const box = $("drift");
    if (d && d.status === "unknown") {
      box.hidden = false; box.className = "note-box";
      box.textContent = "⚠ Drift cannot be checked: " + d.message;
    } else if (d && d.moved) {
      box.hidden = false; box.className = "warning";
      box.textContent = "⚠ The camera or the table has moved (" + (d.shift_mm != null ? d.shift_mm.toFixed(1) + " mm" : "") + "): " + d.message + " Re-calibrate.";
    } else if (d) {
      box.hidden = false; box.className = "ok-box";
      box.textContent = "✔ " + d.message;
    } else { box.hidden = true; }
  }

  $("recalibrate").addEventListener("click", async () => {
    $("message").textContent = "Calibrating…";
    try {
      const out = await TT.postJSON("/calibration/recalibrate", {});
      $("message").textContent = "Done: mean error " + out.reprojection_mm.toFixed(2) + " mm" + (out.saved ? " (saved)" : "");
      $("message").className = "message";
      load();
    } catch (e) {
      $("message").textContent = e.message; $("message").className = "message bad";
      $("mat-todo").hidden = false;
      $("mat-todo").textContent = "What to do: lay the whole mat flat in the camera's view, with no hand, piece or glare on its markers, and press the button again; or calibrate by clicking, below.";
    }
  });

  /* ---- calibration by clicking points on the picture ---- */
  const NS = "http://www.w3.org/2000/svg";
  let points = [];  /* {pixel: [u, v], world: [x, y] | [null, null]} */
  let presets = [];
  let preview = null;
  let previewTimer = null;
  let previewGen = 0;  // a preview answered after a newer one, or after "Use", is not shown

  function svgEl(tag, attrs, parent) {
    const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    parent.appendChild(e);
    return e;
  }

  function preset() { const v = $("preset").value; return v === "" ? null : presets[Number(v)] || null; }

  function ask() {
    const p = preset();
    const n = points.length;
    $("click-ask").textContent = p ? (n < p.corners.length ? `Click ${p.name}: ${p.corners[n][0]}.` : "All corners in.")
      : (n < 4 ? `Click point ${n + 1} on the picture.` : "Click more points, or use this calibration.");
  }

  function complete() { return points.filter((q) => q.world.every((v) => v !== null && isFinite(v))); }

  function drawOverlay() {
    const img = $("click-picture"), svg = $("click-overlay");
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    if (!img.naturalWidth) return;
    svg.setAttribute("viewBox", `-0.5 -0.5 ${img.naturalWidth} ${img.naturalHeight}`);
    if (preview) {
      preview.grid.forEach((l) => svgEl("polyline", { points: l.points.map((p) => p.join(",")).join(" "),
        class: l.axis ? "grid-axis" : "grid-line" }, svg));
    }
    points.forEach((q, i) => {
      svgEl("circle", { cx: q.pixel[0], cy: q.pixel[1], r: 6, class: "click-point" }, svg);
      const t = svgEl("text", { x: q.pixel[0] + 9, y: q.pixel[1] - 9, class: "click-label" }, svg);
      t.textContent = String(i + 1);
    });
  }

  function renderPoints() {
    const body = $("points-body");
    body.textContent = "";
    points.forEach((q, i) => {
      const input = (k) => {
        const el = TT.el("input", { type: "number", step: "0.1", class: "mm", "aria-label": (k ? "y" : "x") + " mm of point " + (i + 1),
          value: q.world[k] === null ? "" : String(q.world[k]) });
        el.addEventListener("input", () => { q.world[k] = el.value === "" ? null : Number(el.value); schedulePreview(); });
        return el;
      };
      body.append(TT.el("tr", {},
        TT.el("td", { text: String(i + 1) }),
        TT.el("td", { text: q.pixel.map((v) => v.toFixed(1)).join(", ") }),
        TT.el("td", {}, input(0)), TT.el("td", {}, input(1)),
        TT.el("td", {}, TT.el("button", { type: "button", class: "secondary", text: "✕",
          onclick: () => { points.splice(i, 1); schedulePreview(); renderPoints(); } }))));
    });
    ask();
    drawOverlay();
  }

  function schedulePreview() {
    clearTimeout(previewTimer);
    previewTimer = setTimeout(runPreview, 150);
  }

  async function runPreview() {
    const gen = ++previewGen;
    const ok = complete();
    $("points-use").disabled = true;
    if (ok.length < 4) {
      preview = null;
      $("click-message").textContent = `${ok.length} of at least 4 points with table positions.`;
      $("click-message").className = "message";
      drawOverlay();
      return;
    }
    try {
      const answer = await TT.postJSON("/calibration/points/preview", { points: ok });
      if (gen !== previewGen) return;
      preview = answer;
      $("click-message").textContent = `The grid is drawn (every 50 mm): mean error at the points ${preview.reprojection_mm.toFixed(2)} mm.`;
      $("click-message").className = "message";
      $("points-use").disabled = false;
    } catch (e) {
      if (gen !== previewGen) return;
      preview = null;
      $("click-message").textContent = e.message;
      $("click-message").className = "message bad";
    }
    drawOverlay();
  }

  $("click-picture").addEventListener("click", (ev) => {
    const img = $("click-picture");
    const r = img.getBoundingClientRect();
    const u = (ev.clientX - r.left) * img.naturalWidth / r.width - 0.5;
    const v = (ev.clientY - r.top) * img.naturalHeight / r.height - 0.5;
    const p = preset();
    const world = p && points.length < p.corners.length ? p.corners[points.length][1].slice() : [null, null];
    points.push({ pixel: [Math.round(u * 10) / 10, Math.round(v * 10) / 10], world });
    renderPoints();
    schedulePreview();
    const inputs = $("points-body").querySelectorAll("input");
    if (!p && inputs.length) inputs[inputs.length - 2].focus();
  });
  $("points-clear").addEventListener("click", () => { points = []; preview = null; renderPoints(); runPreview(); });
  $("preset").addEventListener("change", () => { points = []; preview = null; renderPoints(); runPreview(); });
  $("points-use").addEventListener("click", async () => {
    clearTimeout(previewTimer);
    previewGen++;  // its message is the last word on these points
    try {
      const out = await TT.postJSON("/calibration/points", { points: complete() });
      $("click-message").textContent = "In use: mean error " + out.reprojection_mm.toFixed(2) + " mm" + (out.saved ? " (saved)" : "") + ".";
      $("click-message").className = "message";
      load();
    } catch (e) { $("click-message").textContent = e.message; $("click-message").className = "message bad"; }
  });

  function loadPicture() {
    const img = $("click-picture");
    const next = new Image();
    next.onload = () => {
      img.src = next.src; img.hidden = false; $("click-empty").hidden = true;
      $("click-wrap").style.aspectRatio = next.naturalWidth + " / " + next.naturalHeight;
      setTimeout(drawOverlay, 0);
    };
    next.onerror = () => { setTimeout(loadPicture, 3000); };
    next.src = "/calibration/picture.jpg?t=" + Date.now();
  }
  TT.getJSON("/calibration/presets").then((list) => {
    presets = list;
    list.forEach((p, i) => $("preset").append(TT.el("option", { value: String(i), text: "the corners of " + p.name })));
  }).catch(() => null);
  loadPicture();
  renderPoints();

  TT.getJSON("/api/state").then((s) => TT.showStatus(s.source)).catch(() => null);
  TT.listen({ status: (s) => TT.showStatus(s), calibration: () => load() });
  load();
  setInterval(() => { $("grid").src = "/calibration/grid.jpg?t=" + Date.now(); }, 5000);
})();
