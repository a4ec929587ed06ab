/* Step-by-step replay of a past game: the move list, the picture and the table at each step. */
"use strict";

(function () {
  const TT = window.TT;
  const $ = (id) => document.getElementById(id);
  let steps = [];
  let at = 0;

  function shown() {
    return $("verdicts-only").checked ? steps.filter((s) => s.outputs.some((o) => o.type === "verdict")) : steps;
  }

  function select(i) {
    const list = shown();
    if (!list.length) return;
    at = Math.max(0, Math.min(i, list.length - 1));
    const st = list[at];
    document.querySelectorAll("#steps li").forEach((li, j) => li.classList.toggle("on", j === at));
    const li = document.querySelectorAll("#steps li")[at];
    if (li) li.scrollIntoView({ block: "nearest" });
    $("where").textContent = `step ${at + 1} of ${list.length} · input ${st.seq} · ${TT.fmtTime(st.t)}`;
    const v = st.outputs.find((o) => o.type === "verdict");
    const box = $("verdict");
    if (v) {
      box.className = "verdict " + (v.legal ? "legal" : "illegal");
      $("verdict-word").textContent = (v.player ? v.player + ": " : "") + (v.legal ? "Legal" : "Not legal — " + v.rule);
      $("verdict-reason").textContent = v.reason;
    } else {
      box.className = "verdict none";
      $("verdict-word").textContent = st.text;
      $("verdict-reason").textContent = st.outputs.map((o) => o.type).join(", ");
    }
    const img = $("step-picture");
    const overlay = $("step-overlay");
    while (overlay.firstChild) overlay.removeChild(overlay.firstChild);
    if (st.picture) {
      img.onload = () => {
        $("step-wrap").style.aspectRatio = img.naturalWidth + " / " + img.naturalHeight;
        ring(overlay, img, v);
      };
      img.src = `/history/${window.GAME_ID}/frame/${st.seq}.jpg`;
      img.hidden = false; $("no-picture").hidden = true;
    } else { img.hidden = true; $("no-picture").hidden = false; }
    const judged = v && st.seen ? { scene: st.seen, pieces: v.pieces || [], where: v.where || null, legal: v.legal } : null;
    TT.players = st.describe && st.describe.players ? st.describe.players : TT.players;
    TT.drawDiagram($("diagram"), { scene: st.table || st.seen, describe: st.describe || {}, judged });
    $("diagram-note").textContent = st.table ? "" : "(none accepted yet)";
  }

  function ring(svg, img, v) {
    /* the verdict's pieces ringed on the picture kept with it */
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    if (!v || v.legal || !v.pieces_px || !img.naturalWidth) return;
    svg.setAttribute("viewBox", `0 0 ${img.naturalWidth} ${img.naturalHeight}`);
    const k = img.naturalWidth / (v.image_size && v.image_size[0] ? v.image_size[0] : img.naturalWidth);
    v.pieces_px.forEach((p) => {
      const c = document.createElementNS("http://www.w3.org/2000/svg", "circle");
      c.setAttribute("cx", p[0] * k); c.setAttribute("cy", p[1] * k);
      c.setAttribute("r", Math.max(6, p[2] * k)); c.setAttribute("class", "offender");
      svg.appendChild(c);
    });
  }

  function renderList() {
    const ol = $("steps");
    ol.textContent = "";
    shown().forEach((st, j) => {
      const li = TT.el("li", { onclick: () => select(j) }, TT.el("b", { text: st.seq + " " }), st.text);
      st.outputs.forEach((o) => li.append(TT.el("span", { class: "out " + (o.type === "verdict" ? (o.legal ? "legal" : "illegal") : ""),
        text: o.text || (o.type + (o.player ? " " + o.player : "")) })));
      ol.append(li);
    });
  }

  $("first").onclick = () => select(0);
  $("prev").onclick = () => select(at - 1);
  $("next").onclick = () => select(at + 1);
  $("last").onclick = () => select(shown().length - 1);
  $("verdicts-only").onchange = () => { renderList(); select(0); };
  document.addEventListener("keydown", (e) => {
    if (e.key === "ArrowRight") select(at + 1);
    if (e.key === "ArrowLeft") select(at - 1);
  });

  TT.getJSON(`/history/${window.GAME_ID}/steps.json`).then((s) => {
    steps = s;
    if (!shown().length) $("verdicts-only").checked = false;
    renderList();
    select(0);
  });
  TT.getJSON("/api/state").then((s) => TT.showStatus(s.source)).catch(() => null);
})();
