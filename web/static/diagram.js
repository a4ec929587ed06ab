/* The top-down diagram of the table, in millimetres, as SVG. Plain JS.
 *
 * TT.drawDiagram(svg, {scene, describe, sizes, judged, fit, picks, ghost, flip, selected, showAll,
 * diagram}) draws: a mm grid, the pieces in their suits' colours, worms joined, the start and
 * finish lines, the pylon's far-side ray, any game's own shapes (describe.shapes, below), the
 * path and pinch of the last gap check, and (judged) the pieces a verdict is about, ringed in
 * red; (ghost) the accepted table's pieces where the table differs from it; (flip) the whole
 * view turned round for the player on the other side.
 *
 * How a game is drawn is its registration's (referee/registry.py `Diagram`, given to the page
 * as TT.games, found by describe.game; `diagram` overrides it): `drawer` names a board drawer of
 * TT.diagrams (the Jungle board: its squares with their names, each animal where the referee
 * has it, the selected animal and its moves), `y_up` draws the frame y up the screen (a board
 * from the first player's seat), `hide_kinds` leaves out pieces the board stands for (unless
 * showAll, to fix a misread).
 *
 * describe.shapes, for any game: [{shape: "circle", x, y, r}, {shape: "rect", x, y, w, h},
 * {shape: "line", from: [x, y], to: [x, y]}, {shape: "text", x, y, text}], in mm; each may
 * carry `colour` (a colour, or a player's or suit's name) and `label`.
 */
"use strict";

(function () {
  const TT = window.TT || (window.TT = {});
  const NS = "http://www.w3.org/2000/svg";
  const DEFAULT_SIZES = { coin_diameter_mm: 19.05, tile_mm: 50.8, post_diameter_mm: 10,
    segment_diameter_mm: 20, token_mm: 30, die_mm: 12.7 };

  function s(tag, attrs, parent) {
    const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v !== null && v !== undefined) e.setAttribute(k, v);
    }
    if (parent) parent.appendChild(e);
    return e;
  }

  function pt(v, scene) {
    /* A point from an index into the scene, [x, y] or {x, y}. */
    if (v === null || v === undefined) return null;
    if (typeof v === "number") {
      const p = scene && scene.pieces && scene.pieces[v];
      return p ? [p.x, p.y] : null;
    }
    if (Array.isArray(v) && v.length >= 2 && typeof v[0] === "number") return [v[0], v[1]];
    if (typeof v === "object" && typeof v.x === "number") return [v.x, v.y];
    return null;
  }

  function pts(list, scene) {
    if (!Array.isArray(list)) return [];
    return list.map((v) => pt(v, scene)).filter(Boolean);
  }

  function segmentOf(v) {
    /* A line as two points: [[x,y],[x,y]], {a, b}, {from, to}, {start, end}, {points: [...]}. */
    if (!v) return null;
    if (Array.isArray(v) && v.length === 2) {
      const a = pt(v[0]), b = pt(v[1]);
      return a && b ? [a, b] : null;
    }
    if (typeof v === "object") {
      for (const [k1, k2] of [["a", "b"], ["from", "to"], ["start", "end"], ["p1", "p2"]]) {
        if (v[k1] && v[k2]) return segmentOf([v[k1], v[k2]]);
      }
      if (Array.isArray(v.points)) return segmentOf(v.points);
    }
    return null;
  }

  function rayOf(v) {
    /* A ray: {origin, direction} or [[x,y],[x,y]] (origin and a point on it). */
    if (!v) return null;
    if (typeof v === "object" && !Array.isArray(v) && v.origin && v.direction) {
      const o = pt(v.origin), d = pt(v.direction);
      if (!o || !d) return null;
      const n = Math.hypot(d[0], d[1]) || 1;
      return [o, [d[0] / n, d[1] / n]];
    }
    const seg = segmentOf(v);
    if (!seg) return null;
    const dx = seg[1][0] - seg[0][0], dy = seg[1][1] - seg[0][1], n = Math.hypot(dx, dy) || 1;
    return [seg[0], [dx / n, dy / n]];
  }

  function worms(describe, scene, sizes) {
    /* [{player, points}] from describe.worms, or coins of one suit chained by touching. */
    const out = [];
    const w = describe && describe.worms;
    if (w && typeof w === "object") {
      const entries = Array.isArray(w) ? w.map((x) => [x.player || x.suit || x.color, x])
        : Object.entries(w);
      for (const [player, v] of entries) {
        const list = Array.isArray(v) ? v : (v.coins || v.segments_mm || v.indices || v.points || v.pieces || v.segments || v.body || []);
        const p = pts(list, scene);
        if (p.length) out.push({ player, points: p });
      }
      if (out.length) return out;
    }
    if (!scene || !scene.pieces) return out;
    const groups = {};
    scene.pieces.forEach((p) => {
      const key = p.kind === "coin" ? p.suit : p.kind === "segment" ? p.color : null;
      if (key) (groups[key] = groups[key] || []).push([p.x, p.y, p.kind]);
    });
    for (const [player, list] of Object.entries(groups)) {
      const d = list[0][2] === "coin" ? sizes.coin_diameter_mm : sizes.segment_diameter_mm;
      /* chain greedily from an end: the piece with the fewest touching neighbours */
      const near = (a, b) => Math.hypot(a[0] - b[0], a[1] - b[1]) <= d * 1.25;
      const left = list.slice();
      while (left.length) {
        left.sort((a, b) => left.filter((c) => near(a, c)).length - left.filter((c) => near(b, c)).length);
        const chain = [left.shift()];
        for (;;) {
          const last = chain[chain.length - 1];
          const i = left.findIndex((c) => near(last, c));
          if (i < 0) break;
          chain.push(left.splice(i, 1)[0]);
        }
        if (chain.length > 1) out.push({ player, points: chain.map((c) => [c[0], c[1]]) });
      }
    }
    return out;
  }

  function bounds(scene, describe, fit, sizes, extra, o) {
    const xs = [], ys = [];
    const add = (p, r) => { if (p) { xs.push(p[0] - r, p[0] + r); ys.push(p[1] - r, p[1] + r); } };
    for (const sc of [scene, extra]) {
      if (sc && sc.pieces) sc.pieces.forEach((p) => add([p.x, p.y], p.kind === "tile" ? sizes.tile_mm * 0.72 : 15));
    }
    if (describe) {
      const course = describe.course || {};
      for (const v of [course.start_line, describe.start_line_mm, describe.finish_line_mm]) {
        const seg = segmentOf(v);
        if (seg) seg.forEach((p) => add(p, 10));
      }
    }
    if (fit) { add(fit.from, 12); add(fit.to, 12); (fit.path || []).forEach((p) => add(p, 12)); }
    const board = TT.diagrams[diagramOf(describe, o).drawer];
    if (board) board.corners.forEach((p) => add(p, 0));
    shapesOf(describe).forEach((sh) => {
      if (sh.shape === "line") { add(pt(sh.from), 4); add(pt(sh.to), 4); }
      else if (sh.shape === "rect") { add([sh.x, sh.y], 4); add([sh.x + sh.w, sh.y + sh.h], 4); }
      else add([sh.x, sh.y], (sh.r || 0) + 4);
    });
    if (!xs.length) return [0, 0, 600, 400];
    let x0 = Math.min(...xs) - 40, x1 = Math.max(...xs) + 40;
    let y0 = Math.min(...ys) - 40, y1 = Math.max(...ys) + 40;
    if (x1 - x0 < 300) { const c = (x0 + x1) / 2; x0 = c - 150; x1 = c + 150; }
    if (y1 - y0 < 200) { const c = (y0 + y1) / 2; y0 = c - 100; y1 = c + 100; }
    return [x0, y0, x1 - x0, y1 - y0];
  }

  function colour(p) {
    if (p.kind === "segment") return TT.colourOf(p.color) || "#888";
    if (p.suit) return TT.colourOf(p.suit) || "#888";
    return null;
  }

  function drawPiece(g, p, sizes, cls) {
    const c = colour(p);
    if (p.kind === "tile") {
      const t = sizes.tile_mm;
      const up = p.face === "up";
      const r = s("rect", { x: p.x - t / 2, y: p.y - t / 2, width: t, height: t, rx: 2,
        transform: `rotate(${p.angle_deg || 0} ${p.x} ${p.y})`,
        class: "tile " + (up ? "tile-up" : "tile-down") + (cls ? " " + cls : ""),
        fill: up ? (c ? c : "#f3ead2") : "#8a7a5c" }, g);
      if (up && c) r.setAttribute("fill-opacity", "0.35");
      if (up && c) s("circle", { cx: p.x, cy: p.y, r: 7, fill: c, class: "tile-suit" }, g);
      return r;
    }
    if (p.kind === "coin") {
      return s("circle", { cx: p.x, cy: p.y, r: sizes.coin_diameter_mm / 2, fill: c || "#bbb",
        class: "coin" + (cls ? " " + cls : "") }, g);
    }
    if (p.kind === "segment") {
      return s("circle", { cx: p.x, cy: p.y, r: sizes.segment_diameter_mm / 2, fill: c || "#bbb",
        class: "segment" + (cls ? " " + cls : "") }, g);
    }
    if (p.kind === "post") {
      return s("circle", { cx: p.x, cy: p.y, r: sizes.post_diameter_mm / 2, class: "post" + (cls ? " " + cls : "") }, g);
    }
    if (p.kind === "token") {
      const t = sizes.token_mm;
      const r = s("rect", { x: p.x - t / 2, y: p.y - t / 2, width: t, height: t, rx: 4,
        class: "token" + (cls ? " " + cls : "") }, g);
      const tx = s("text", { x: p.x, y: p.y + 4, class: "token-label" }, g);
      tx.textContent = p.id != null ? String(p.id) : "?";
      return r;
    }
    if (p.kind === "die") {
      const t = sizes.die_mm;
      const r = s("rect", { x: p.x - t / 2, y: p.y - t / 2, width: t, height: t, rx: 2, class: "die-piece" }, g);
      const tx = s("text", { x: p.x, y: p.y + 3, class: "die-label" }, g);
      tx.textContent = p.value || "";
      return r;
    }
    const kind = (TT.pieceKinds || {})[p.kind];
    if (kind && p.kind !== "pawn") {
      /* any other kind (tabletop/kinds.py): its square or disc, at its piece-set size */
      const t = sizes[kind.size_field] || 10;
      return kind.outline === "square"
        ? s("rect", { x: p.x - t / 2, y: p.y - t / 2, width: t, height: t, rx: 2, fill: c || "#bbb",
          transform: `rotate(${p.angle_deg || 0} ${p.x} ${p.y})`, class: "piece " + p.kind + (cls ? " " + cls : "") }, g)
        : s("circle", { cx: p.x, cy: p.y, r: t / 2, fill: c || "#bbb", class: "piece " + p.kind + (cls ? " " + cls : "") }, g);
    }
    return s("circle", { cx: p.x, cy: p.y, r: 8, class: "pawn" }, g);
  }

  function layerOf(kind) {
    /* lower layers first: tiles under the coins on them (tabletop/kinds.py) */
    const k = (TT.pieceKinds || {})[kind];
    return k ? k.layer : -1;
  }

  const SQ = 38;  /* referee/jungle/geometry.py SQUARE_MM: a1's outer corner is the origin */
  const WATER = ["b4", "c4", "b5", "c5", "b6", "c6", "e4", "f4", "e5", "f5", "e6", "f6"];
  const TRAPS = ["c1", "e1", "d2", "c9", "e9", "d8"];
  const DENS = ["d1", "d9"];

  function squareXY(name) {
    return ["abcdefg".indexOf(name[0]) * SQ, (Number(name.slice(1)) - 1) * SQ];
  }

  function drawJungle(svg, d, o) {
    /* The Jungle board in the board's mm frame, with each animal where the referee has it,
       square names, the selected animal and where it may go. */
    const g = s("g", { class: "jungle" }, svg);
    const targets = new Set();
    const sel = o.selected || null;
    if (sel) (d.legal_moves || []).forEach((m) => { if (m.slice(0, 2) === sel) targets.add(m.slice(2, 4)); });
    for (let f = 0; f < 7; f++) {
      for (let r = 1; r <= 9; r++) {
        const name = "abcdefg"[f] + r;
        const cls = WATER.includes(name) ? "water" : TRAPS.includes(name) ? "trap" : DENS.includes(name) ? "den" : "land";
        s("rect", { x: f * SQ, y: (r - 1) * SQ, width: SQ, height: SQ, "data-square": name,
          class: "sq " + cls + (targets.has(name) ? " target" : "") + (sel === name ? " selected" : "") }, g);
        const lx = VIEW.sx > 0 ? f * SQ + 3 : f * SQ + SQ - 3;
        const ly = VIEW.sy > 0 ? (r - 1) * SQ + 3 : (r - 1) * SQ + SQ - 3;
        const t = s("text", { x: lx, y: ly, class: "sq-label" }, g);
        t.textContent = name;
        upright(t, lx, ly);
      }
    }
    for (const [name, a] of Object.entries(d.squares || {})) {
      const [x, y] = squareXY(name);
      s("circle", { cx: x + SQ / 2, cy: y + SQ / 2, r: SQ * 0.4, class: "animal" + (sel === name ? " picked" : ""),
        "data-square": name, fill: TT.colourOf(a.player) || (a.side === 0 ? "#D55E00" : "#0072B2") }, g);
      const t = s("text", { x: x + SQ / 2, y: y + SQ / 2 + 4, class: "animal-label", "data-square": name }, g);
      t.textContent = (a.animal || "?").slice(0, 3);
      upright(t, x + SQ / 2, y + SQ / 2);
    }
    if (d.last_move) {
      const m = String(d.last_move);
      const a = squareXY(m.slice(0, 2)), b = squareXY(m.slice(2, 4));
      s("line", { x1: a[0] + SQ / 2, y1: a[1] + SQ / 2, x2: b[0] + SQ / 2, y2: b[1] + SQ / 2, class: "last-move" }, g);
    }
  }

  TT.diagrams = TT.diagrams || {};
  TT.diagrams["jungle-board"] = { draw: drawJungle, corners: [[0, 0], [7 * SQ, 9 * SQ]] };

  function diagramOf(describe, o) {
    /* the game's registered diagram (TT.games, from the server) */
    if (o && o.diagram) return o.diagram;
    const g = (TT.games || []).find((x) => describe && x.name === describe.game);
    return (g && g.diagram) || { drawer: "table", y_up: false, hide_kinds: [] };
  }

  function shapesOf(describe) {
    return describe && Array.isArray(describe.shapes) ? describe.shapes.filter((x) => x && typeof x === "object") : [];
  }

  function num(v) { return typeof v === "number" && isFinite(v) ? v : null; }

  function drawShapes(svg, describe) {
    /* a game's own marks, in mm (see the top of this file) */
    const g = s("g", { class: "game-shapes" }, svg);
    shapesOf(describe).forEach((sh) => {
      const fill = sh.colour ? (TT.colourOf(sh.colour) || String(sh.colour)) : "#9aa3ad";
      const x = num(sh.x), y = num(sh.y);
      let el = null;
      if (sh.shape === "circle" && x !== null && y !== null) {
        el = s("circle", { cx: x, cy: y, r: num(sh.r) || 5, fill, class: "shape" }, g);
      } else if (sh.shape === "rect" && x !== null && y !== null) {
        el = s("rect", { x, y, width: num(sh.w) || 10, height: num(sh.h) || 10, fill, class: "shape" }, g);
      } else if (sh.shape === "line") {
        const a = pt(sh.from), b = pt(sh.to);
        if (a && b) el = s("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], stroke: sh.colour ? fill : "#223", class: "shape-line" }, g);
      }
      const text = sh.shape === "text" ? sh.text : sh.label;
      if (text != null && x !== null && y !== null) {
        const t = s("text", { x, y: y + 4, class: "shape-label" }, g);
        t.textContent = String(text);
        upright(t, x, y + 4);
      }
      if (el && sh.label != null) el.setAttribute("data-label", String(sh.label));
    });
  }

  /* how the table's frame is shown: sy -1 when the frame's y runs up the screen (the Jungle
     board's frame), and both -1 more when the view is turned round for the other seat */
  let VIEW = { sx: 1, sy: 1 };

  function upright(el, x, y) {
    /* text stays readable however the view is turned or mirrored */
    if (VIEW.sx < 0 || VIEW.sy < 0) {
      el.setAttribute("transform", `translate(${x} ${y}) scale(${VIEW.sx} ${VIEW.sy}) translate(${-x} ${-y})`);
    }
  }

  function drawFit(svg, fit, sizes) {
    /* the gap check: the straight way (red when it does not fit), the gap's two edges and its
       pinch, and the way round (dashed) when there is one */
    const fg = s("g", { class: "fit " + (fit.straight_fits ? "fits" : "blocked") }, svg);
    const r = (fit.coin_mm || sizes.coin_diameter_mm) / 2;
    const round = fit.path && fit.path.length > 2 && !fit.one_point;
    if (round) {
      s("polyline", { points: fit.path.map((p) => p.join(",")).join(" "),
        class: "fit-round " + (fit.fits ? "fits" : "blocked") }, fg);
    }
    if (!fit.one_point) {
      s("line", { x1: fit.from[0], y1: fit.from[1], x2: fit.to[0], y2: fit.to[1], class: "fit-path straight" }, fg);
      s("circle", { cx: fit.to[0], cy: fit.to[1], r, class: "fit-end" }, fg);
    }
    s("circle", { cx: fit.from[0], cy: fit.from[1], r, class: "fit-end" }, fg);
    const e = fit.straight_edges;
    if (e) {
      s("line", { x1: e[0][0], y1: e[0][1], x2: e[1][0], y2: e[1][1], class: "gap-span" }, fg);
      e.forEach((p) => s("circle", { cx: p[0], cy: p[1], r: 2.5, class: "gap-edge" }, fg));
    }
    const pinch = fit.straight_pinch || fit.pinch;
    if (pinch) {
      s("circle", { cx: pinch[0], cy: pinch[1], r: 4, class: "pinch" }, fg);
      if (fit.straight_clearance_mm != null && fit.straight_pinch) {
        const t = s("text", { x: pinch[0] + 8, y: pinch[1] - 8, class: "gap-label" }, fg);
        t.textContent = fit.straight_clearance_mm.toFixed(1) + " mm";
        upright(t, pinch[0] + 8, pinch[1] - 8);
      }
    }
  }

  function sameSpot(p, q) {
    return p.kind === q.kind && Math.hypot(p.x - q.x, p.y - q.y) < 4;
  }

  TT.drawDiagram = function (svg, o) {
    const sizes = Object.assign({}, DEFAULT_SIZES, o.sizes || {});
    const scene = o.scene || { pieces: [] };
    const describe = o.describe || {};
    const judged = o.judged || null;
    const [vx, vy, vw, vh] = o.viewBox || bounds(scene, describe, o.fit, sizes, judged && judged.scene, o);
    svg.setAttribute("viewBox", `${vx} ${vy} ${vw} ${vh}`);
    svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const diagram = diagramOf(describe, o);
    const mirror = !!diagram.y_up;  /* a board's frame: y up the board */
    const turn = o.flip ? -1 : 1;
    VIEW = { sx: turn, sy: (mirror ? -1 : 1) * turn };
    const cx = vx + vw / 2, cy = vy + vh / 2;
    const root = svg;
    svg = s("g", { class: "turned", transform: VIEW.sx < 0 || VIEW.sy < 0
      ? `translate(${cx} ${cy}) scale(${VIEW.sx} ${VIEW.sy}) translate(${-cx} ${-cy})` : null }, root);
    const grid = s("g", { class: "grid" }, svg);
    const step = vw > 1200 ? 100 : 50;
    for (let x = Math.ceil(vx / step) * step; x <= vx + vw; x += step) {
      s("line", { x1: x, y1: vy, x2: x, y2: vy + vh, class: x % 100 === 0 ? "major" : "minor" }, grid);
      if (x % 100 === 0) {
        const gy = VIEW.sy > 0 ? vy + 10 : vy + vh - 10;
        const t = s("text", { x: x + 2, y: gy, class: "grid-label" }, grid);
        t.textContent = x;
        upright(t, x + 2, gy);
      }
    }
    for (let y = Math.ceil(vy / step) * step; y <= vy + vh; y += step) {
      s("line", { x1: vx, y1: y, x2: vx + vw, y2: y, class: y % 100 === 0 ? "major" : "minor" }, grid);
      if (y % 100 === 0) {
        const gx = VIEW.sx > 0 ? vx + 2 : vx + vw - 2;
        const t = s("text", { x: gx, y: y - 2, class: "grid-label" }, grid);
        t.textContent = y;
        upright(t, gx, y - 2);
      }
    }
    const lines = s("g", { class: "lines" }, svg);
    const course = describe.course || {};
    const start = segmentOf(course.start_line || describe.start_line || describe.start_line_mm);
    if (start) {
      s("line", { x1: start[0][0], y1: start[0][1], x2: start[1][0], y2: start[1][1], class: "start-line" }, lines);
      const t = s("text", { x: start[1][0] + 4, y: start[1][1], class: "line-label" }, lines);
      t.textContent = "start";
    }
    const finish = segmentOf(course.finish_line || describe.finish_line || describe.finish_line_mm);
    if (finish) {
      s("line", { x1: finish[0][0], y1: finish[0][1], x2: finish[1][0], y2: finish[1][1], class: "finish-line" }, lines);
      const t = s("text", { x: finish[1][0] + 4, y: finish[1][1], class: "line-label" }, lines);
      t.textContent = "finish";
    }
    const ray = rayOf(course.far_ray || describe.pylon_ray);
    if (ray) {
      const L = Math.max(vw, vh) * 2;
      s("line", { x1: ray[0][0], y1: ray[0][1], x2: ray[0][0] + ray[1][0] * L, y2: ray[0][1] + ray[1][1] * L,
        class: "pylon-ray" }, lines);
    }
    const board = TT.diagrams[diagram.drawer];
    if (board) board.draw(svg, describe, o);
    drawShapes(svg, describe);
    if (o.ghost && o.ghost.pieces) {
      /* the accepted table where it differs from what is seen: where to put the pieces back */
      const gl = s("g", { class: "ghosts" }, svg);
      o.ghost.pieces.forEach((p) => {
        if (scene.pieces.some((q) => sameSpot(p, q))) return;
        drawPiece(gl, p, sizes, "was-here");
      });
    }
    const wormLayer = s("g", { class: "worms" }, svg);
    for (const w of worms(describe, scene, sizes)) {
      s("polyline", { points: w.points.map((p) => p.join(",")).join(" "), class: "worm",
        stroke: TT.colourOf(w.player) || "#999" }, wormLayer);
    }
    const pieceLayer = s("g", { class: "pieces" }, svg);
    /* on a board the referee's pieces stand for some kinds (Jungle's animals for its tokens):
       those are shown only to fix a misread */
    const hidden = o.showAll ? [] : (diagram.hide_kinds || []);
    scene.pieces.map((p, i) => [p, i]).sort((a, b) => layerOf(a[0].kind) - layerOf(b[0].kind))
      .filter(([p]) => !hidden.includes(p.kind))
      .forEach(([p, i]) => { drawPiece(pieceLayer, p, sizes).setAttribute("data-index", i); });
    const pylon = pt(course.pylon || describe.pylon, scene);
    if (pylon) {
      s("circle", { cx: pylon[0], cy: pylon[1], r: 6, class: "pylon-mark" }, svg);
      const t = s("text", { x: pylon[0] + 8, y: pylon[1] - 8, class: "line-label" }, svg);
      t.textContent = "pylon";
    }
    (course.gates || []).forEach((g) => {
      const c = pt(g.centre);
      if (c) s("circle", { cx: c[0], cy: c[1], r: 9, class: "gate-mark", stroke: TT.colourOf(g.colour) || "#fff" }, svg);
    });
    if (judged && judged.scene) {
      /* the pieces a verdict is about: red rings (and the piece where it was seen) when it is
         illegal, green rings round the pieces that moved when it is legal */
      const hl = s("g", { class: "judged " + (judged.legal ? "legal" : "illegal") }, svg);
      (judged.pieces || []).forEach((i) => {
        const p = judged.scene.pieces[i];
        if (!p) return;
        if (!judged.legal) drawPiece(hl, p, sizes, "ghost");
        const r = p.kind === "tile" ? sizes.tile_mm * 0.75 : (p.kind === "segment" ? sizes.segment_diameter_mm : sizes.coin_diameter_mm) * 0.8;
        s("circle", { cx: p.x, cy: p.y, r, class: judged.legal ? "mover" : "offender" }, hl);
      });
      if (judged.where && !judged.legal) s("circle", { cx: judged.where[0], cy: judged.where[1], r: 6, class: "where" }, hl);
    }
    if (o.fit) drawFit(svg, o.fit, sizes);
    (o.picks || []).forEach((p) => s("circle", { cx: p[0], cy: p[1], r: 5, class: "pick" }, svg));
    svg.querySelectorAll(".pieces text, .lines text, .line-label").forEach((t) => {
      if (!t.getAttribute("transform")) upright(t, Number(t.getAttribute("x")), Number(t.getAttribute("y")));
    });
    return [vx, vy, vw, vh];
  };

  TT.svgPoint = function (svg, ev) {
    /* The mm point under a mouse event on the diagram. */
    const p = svg.createSVGPoint();
    p.x = ev.clientX; p.y = ev.clientY;
    const inner = svg.querySelector("g.turned") || svg;
    const q = p.matrixTransform(inner.getScreenCTM().inverse());
    return [Math.round(q.x * 10) / 10, Math.round(q.y * 10) / 10];
  };
})();
