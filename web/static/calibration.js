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
    } catch (e) { $("message").textContent = e.message; $("message").className = "message bad"; }
  });

  TT.getJSON("/api/state").then((s) => TT.showStatus(s.source)).catch(() => null);
  TT.listen({ status: (s) => TT.showStatus(s), calibration: () => load() });
  load();
  setInterval(() => { $("grid").src = "/calibration/grid.jpg?t=" + Date.now(); }, 5000);
})();
