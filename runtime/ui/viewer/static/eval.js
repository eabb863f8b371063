// deskact view: the pages of a `deskact eval` folder (evals.py), routed by viewer.js:
//   #/eval/RUN?dataset=&status=&text=   each dataset's metrics and every sample's row, filtered
//   #/eval/RUN/DATASET/ID                one sample: its image(s) with the gold (green) and the
//                                        model's answer (blue when right, red when wrong) drawn
//   #/evalcompare/A/B?changed=1          two eval folders sample by sample: what changed
(function () {
  "use strict";
  var app = document.getElementById("app");
  var crumbs = document.getElementById("crumbs");
  var last = { run: null, detail: null, filters: {} };
  // Rates (fractions) among the metrics, shown as percentages; every other number as it is.
  var RATES = ["accuracy", "exact", "exact_match", "precision", "recall", "f1", "type_accuracy", "partial_match",
    "complete_match", "family", "kind", "attributes", "position", "text", "score"];

  var esc = DeskactPage.esc, enc = DeskactPage.enc, getJSON = DeskactPage.getJSON;
  function badge(s) { return '<span class="status ' + esc(s) + '">' + esc(s) + "</span>"; }
  function num(v) { return typeof v === "number" ? String(Math.round(v * 100) / 100) : esc(v); }
  function metric(key, v) {
    if (v === null || v === undefined) return "–";
    if (typeof v === "number" && RATES.indexOf(key) >= 0) return (100 * v).toFixed(1) + "%";
    if (typeof v === "number") return Number.isInteger(v) ? String(v) : v.toFixed(3);
    return esc(v);
  }

  // One action as a line, as samples.Action.short() writes it.
  function shortAction(a) {
    if (!a) return "(none)";
    if (a.action) a = a.action;  // a clip's timed action
    var pt = function (x, y) { return num(x) + ", " + num(y); };
    if (a.kind === "drag") return "drag(" + pt(a.x, a.y) + " → " + pt(a.x2, a.y2) + ")";
    if (["click", "double_click", "right_click", "move"].indexOf(a.kind) >= 0) return a.kind + "(" + pt(a.x, a.y) + ")";
    if (a.kind === "type") return "type(" + JSON.stringify(a.text) + ")";
    if (a.kind === "key" || a.kind === "hotkey") return a.kind + "(" + (a.keys || []).join("+") + ")";
    if (a.kind === "scroll") return "scroll(" + a.direction + (a.amount !== undefined && a.amount !== null ? ", " + a.amount : "") + ")";
    return a.kind;
  }

  // ---- the folder: metrics per dataset, a row per sample ------------------------------------
  function metricsHTML(name, d) {
    var m = d.metrics || {};
    var plain = [], groups = [];
    Object.keys(m).forEach(function (k) {
      if (k === "kind") return;
      var v = m[k];
      if (v && typeof v === "object") {
        var keys = Object.keys(v);
        if (!keys.length) return;
        if (keys.every(function (g) { return v[g] === null || typeof v[g] !== "object"; })) {  // e.g. the CC-Score parts
          plain.push('<span class="metric" data-metric="' + esc(k) + '"><b>' + esc(k.replace(/_/g, " ")) + "</b> " +
            keys.map(function (g) { return esc(g) + " " + metric(g, v[g]); }).join(" · ") + "</span>");
          return;
        }
        var rows = keys.map(function (g) {
          var x = v[g];
          if (x && typeof x === "object") {
            return "<tr><td>" + esc(g) + "</td><td>" + metric("accuracy", x.accuracy) + "</td><td>" + esc(x.samples) + "</td></tr>";
          }
          return "<tr><td>" + esc(g) + "</td><td colspan=2>" + metric(g, x) + "</td></tr>";
        }).join("");
        groups.push('<table class="eval-group" data-group="' + esc(k) + '"><thead><tr><th>' + esc(k.replace(/_/g, " ")) +
          "</th><th>accuracy</th><th>samples</th></tr></thead><tbody>" + rows + "</tbody></table>");
      } else {
        plain.push('<span class="metric" data-metric="' + esc(k) + '"><b>' + esc(k.replace(/_/g, " ")) + "</b> " + metric(k, v) + "</span>");
      }
    });
    return '<section class="eval-dataset" data-dataset="' + esc(name) + '"><h3>' + esc(name) + ' <span class="muted">' +
      esc(d.kind) + " · " + d.done + " of " + d.samples + " scored · " + esc(d.path) + "</span></h3>" +
      '<div class="metrics">' + plain.join("") + "</div>" + groups.join("") + "</section>";
  }

  function matches(r, f) {
    if (f.dataset && r.dataset !== f.dataset) return false;
    if (f.status && r.status !== f.status) return false;
    if (f.text) {
      var hay = [r.id, r.dataset, r.platform, r.app, r.gold, r.predicted, r.error].join(" ").toLowerCase();
      if (hay.indexOf(f.text.toLowerCase()) < 0) return false;
    }
    return true;
  }

  function drawRun(runId, d, query) {
    last.run = runId; last.detail = d;
    crumbs.innerHTML = '› <a href="#/eval/' + enc(runId) + '">' + esc(runId) + "</a>";
    var f = { dataset: query.dataset || "", status: query.status || "", text: query.text || "" };
    last.filters = f;  // a sample page steps through the rows these filters show
    var filters = document.getElementById("eval-filters");
    if (!filters || filters.dataset.run !== runId) {
      app.innerHTML = '<h2 id="eval-title">' + esc(runId) + ' <span class="muted">deskact eval</span></h2>' +
        '<div id="eval-head"></div><h3>Samples</h3><div class="filters" id="eval-filters" data-run="' + esc(runId) + '">' +
        '<select id="e-dataset"></select><select id="e-status"></select>' +
        '<input type="search" id="e-text" placeholder="text in id, gold, prediction…">' +
        '<span id="e-count" class="muted"></span></div><table id="eval-rows"><thead><tr><th>result</th><th>sample</th>' +
        "<th>dataset</th><th>platform</th><th>app</th><th>gold</th><th>predicted</th></tr></thead><tbody></tbody></table>";
      ["e-dataset", "e-status"].forEach(function (id) { document.getElementById(id).addEventListener("change", setFilters); });
      var text = document.getElementById("e-text");
      text.value = f.text;
      text.addEventListener("input", setFilters);
    }
    var names = Object.keys(d.datasets);
    document.getElementById("e-dataset").innerHTML = '<option value="">any dataset</option>' + names.map(function (n) {
      return '<option value="' + esc(n) + '"' + (n === f.dataset ? " selected" : "") + ">" + esc(n) + "</option>";
    }).join("");
    document.getElementById("e-status").innerHTML = ["", "right", "wrong", "error"].map(function (s) {
      return '<option value="' + s + '"' + (s === f.status ? " selected" : "") + ">" + (s || "any result") + "</option>";
    }).join("");
    document.getElementById("eval-head").innerHTML = '<dl class="facts" id="eval-facts"><dt>model</dt><dd>' + esc(d.model) +
      "</dd><dt>command</dt><dd><code>" + esc(d.command.join(" ")) + "</code></dd><dt>started</dt><dd>" + esc(d.started) +
      "</dd><dt>state</dt><dd>" + (d.finished ? "finished" : "running or stopped (metrics from the rows so far)") + "</dd></dl>" +
      names.map(function (n) { return metricsHTML(n, d.datasets[n]); }).join("");
    var visible = d.rows.filter(function (r) { return matches(r, f); });
    document.querySelector("#eval-rows tbody").innerHTML = visible.map(function (r) {
      var href = "#/eval/" + enc(runId) + "/" + enc(r.dataset) + "/" + enc(r.id);
      return '<tr class="task" data-href="' + esc(href) + '" data-id="' + esc(r.id) + '" data-status="' + esc(r.status) +
        '"><td>' + badge(r.status) + '</td><td><a href="' + esc(href) + '">' + esc(r.id) + "</a></td><td>" + esc(r.dataset) +
        "</td><td>" + esc(r.platform) + "</td><td>" + esc(r.app) + "</td><td><code>" + esc(r.gold) + "</code></td><td><code>" +
        esc(r.predicted || r.error || "(unread)") + "</code></td></tr>";
    }).join("");
    document.getElementById("e-count").textContent = visible.length + " of " + d.rows.length + " samples";
    Array.prototype.forEach.call(document.querySelectorAll("#eval-rows tr.task"), function (tr) {
      tr.addEventListener("click", function (ev) { if (ev.target.tagName !== "A") location.hash = tr.dataset.href; });
    });
  }

  function setFilters() {
    var q = [];
    [["dataset", "e-dataset"], ["status", "e-status"], ["text", "e-text"]].forEach(function (p) {
      var v = document.getElementById(p[1]).value;
      if (v) q.push(p[0] + "=" + enc(v));
    });
    history.replaceState(null, "", "#/eval/" + enc(last.run) + (q.length ? "?" + q.join("&") : ""));
    var query = {};
    q.forEach(function (kv) { var p = kv.split("="); query[p[0]] = decodeURIComponent(p[1]); });
    if (last.detail) drawRun(last.run, last.detail, query);
  }

  // ---- one sample -----------------------------------------------------------------------------
  function fileURL(s, rel) {
    return "/evalfiles/" + enc(s.run_id) + "/" + enc(s.dataset) + "/" + enc(s.sample.id) + "/" +
      rel.split("/").map(enc).join("/");
  }

  // An image with marks over it in the image's own pixels: boxes, points and arrows.
  function figure(s, rel, caption, marks, id) {
    if (!rel) return "";
    // The marks' svg covers the image exactly (its own box, the caption outside it).
    return '<figure class="eval-shot"' + (id ? ' id="' + id + '"' : "") + '><div class="eval-frame"><img src="' +
      esc(fileURL(s, rel)) + '" alt="' + esc(caption) + '" data-marks="' + esc(JSON.stringify(marks || [])) +
      '"><svg></svg></div><figcaption>' + esc(caption) + "</figcaption></figure>";
  }

  function actionMarks(a, cls, label) {
    if (!a || a.x === undefined || a.x === null) return [];
    if (a.kind === "drag") return [{ t: "arrow", x: a.x, y: a.y, x2: a.x2, y2: a.y2, cls: cls, label: label }];
    return [{ t: "point", x: a.x, y: a.y, cls: cls, label: label + (a.kind === "click" ? "" : " " + a.kind) }];
  }

  // A drag's end: an arrowhead pointing the way the pointer (or finger) moved.
  function arrowHead(m, size) {
    var a = Math.atan2(m.y2 - m.y, m.x2 - m.x), pts = [[m.x2, m.y2]];
    [a + 2.7, a - 2.7].forEach(function (b) { pts.push([m.x2 + size * Math.cos(b), m.y2 + size * Math.sin(b)]); });
    return '<polygon class="em-head ' + m.cls + '" points="' + pts.map(function (p) { return p.join(","); }).join(" ") + '"></polygon>';
  }

  function drawMarks(root) {
    Array.prototype.forEach.call(root.querySelectorAll(".eval-shot img"), function (img) {
      function mark() {
        var w = img.naturalWidth, h = img.naturalHeight;
        if (!w || !h) return;
        // Small screenshots (phones, fixtures) are shown larger: the longer side at least 480 px (240 in a strip).
        var least = img.closest(".strip") ? 240 : 480;
        img.style.width = Math.round(w * Math.max(1, least / Math.max(w, h))) + "px";
        var svg = img.nextElementSibling;
        svg.setAttribute("viewBox", "0 0 " + w + " " + h);
        // Marks keep one size on screen whatever the image's resolution: sizes in image px per screen px.
        var k = w / (img.getBoundingClientRect().width || w);
        var r = 6 * k, font = 13 * k;
        function text(m, x, y, end) {
          return m.label ? '<text class="em-label ' + m.cls + '" style="font-size:' + font + 'px" x="' + x + '" y="' + y + '"' +
            (end ? ' text-anchor="end"' : "") + ">" + esc(m.label) + "</text>" : "";
        }
        svg.innerHTML = JSON.parse(img.dataset.marks || "[]").map(function (m) {
          if (m.t === "box") {
            return '<rect class="em-box ' + m.cls + '" x="' + m.box[0] + '" y="' + m.box[1] + '" width="' + (m.box[2] - m.box[0]) +
              '" height="' + (m.box[3] - m.box[1]) + '"></rect>' + text(m, m.box[0], m.box[1] > font + 2 ? m.box[1] - 3 : m.box[3] + font, false);
          }
          var end = (m.t === "arrow" ? m.x2 : m.x) > w * 0.6;  // labels stay inside the image
          if (m.t === "arrow") {
            return '<line class="em-line ' + m.cls + '" x1="' + m.x + '" y1="' + m.y + '" x2="' + m.x2 + '" y2="' + m.y2 + '"></line>' +
              '<circle class="em-point ' + m.cls + '" cx="' + m.x + '" cy="' + m.y + '" r="' + r / 2 + '"></circle>' +
              arrowHead(m, r * 2.5) +
              text(m, end ? m.x2 - r - 2 : m.x2 + r + 2, m.y2 + font / 3, end);
          }
          // The gold is a ring with its label above, the prediction a dot with its label beside: both
          // stay visible when they coincide.
          var title = "<title>" + esc((m.label || "") + " (" + Math.round(m.x) + ", " + Math.round(m.y) + ")") + "</title>";
          if (m.cls === "em-gold") {
            return '<circle class="em-ring" cx="' + m.x + '" cy="' + m.y + '" r="' + r * 1.7 + '">' + title + "</circle>" +
              text(m, m.x, m.y - r * 1.7 - 3 > font ? m.y - r * 1.7 - 3 : m.y + r * 1.7 + font, false).replace("<text ", '<text text-anchor="middle" ');
          }
          return '<circle class="em-point ' + m.cls + '" cx="' + m.x + '" cy="' + m.y + '" r="' + r + '">' + title + "</circle>" +
            text(m, end ? m.x - r * 1.7 - 2 : m.x + r * 1.7 + 2, m.y + font / 3, end);
        }).join("");
      }
      if (img.complete) mark(); else img.addEventListener("load", mark);
    });
  }

  // The frame a clip's action at time t is drawn on: the last frame at or before t (frames one
  // second apart when the clip gives no times).
  function frameOf(clip, t) {
    var times = clip.frame_times || (clip.frames || []).map(function (_, i) { return i; });
    var k = 0;
    times.forEach(function (ft, i) { if (ft <= t + 1e-6) k = i; });
    return k;
  }

  function verdict(v) { return v === true ? "success" : v === false ? "failure" : "(unread)"; }

  function partsTable(parts) {
    var keys = Object.keys(parts || {});
    if (!keys.length) return "";
    return '<table class="eval-parts" id="eval-parts"><tbody>' + keys.map(function (k) {
      var v = parts[k];
      var shown = v && typeof v === "object" ? (v.kind ? shortAction(v) : Array.isArray(v) && v.length && v[0].kind ?
        v.map(shortAction).join(", ") : JSON.stringify(v)) : String(v);
      return '<tr data-part="' + esc(k) + '"><th>' + esc(k.replace(/_/g, " ")) + "</th><td><code>" + esc(shown) + "</code></td></tr>";
    }).join("") + "</tbody></table>";
  }

  function compareHTML(gold, predicted, right) {
    return '<dl class="facts eval-compare" id="eval-compare"><dt>gold</dt><dd class="gold" id="eval-gold">' + esc(gold) +
      '</dd><dt>predicted</dt><dd class="' + (right ? "pred-right" : "pred-wrong") + '" id="eval-predicted">' + esc(predicted) + "</dd></dl>";
  }

  function sampleBody(s) {
    var x = s.sample, row = s.row || {}, pred = row.prediction, right = !!row.reward;
    var pcls = right ? "em-right" : "em-wrong";
    if (s.kind === "ground") {
      var marks = [{ t: "box", box: x.box, cls: "em-gold", label: "gold" }];
      if (pred) marks.push({ t: "point", x: pred[0], y: pred[1], cls: pcls, label: "predicted" });
      return '<div class="instruction">' + esc(x.instruction) + "</div>" +
        compareHTML("box [" + x.box.map(num).join(", ") + "]", pred ? "(" + num(pred[0]) + ", " + num(pred[1]) + ")" : "(unread)", right) +
        figure(s, x.image, "the screenshot (" + x.width + "×" + x.height + "): gold box and predicted point", marks, "eval-image");
    }
    if (s.kind === "idm") {
      var m = actionMarks(x.action, "em-gold", "gold").concat(actionMarks(pred, pcls, "predicted"));
      return (x.instruction ? '<div class="instruction">' + esc(x.instruction) + "</div>" : "") +
        compareHTML(shortAction(x.action), pred ? shortAction(pred) : "(unread)", right) +
        '<div class="cols">' + figure(s, x.before, "before the action", m, "eval-before") +
        figure(s, x.after, "after the action", [], "eval-after") + "</div>";
    }
    if (s.kind === "idm_clip") {
      var gold = x.actions || [], got = Array.isArray(pred) ? pred : [];
      var n = Math.max(gold.length, got.length);
      var rows = [];
      for (var i = 0; i < n; i++) {
        var g = gold[i], p = got[i];
        var same = g && p && g.action.kind === p.kind;
        rows.push('<tr class="' + (same ? "same" : "differs") + '"><td>' + (i + 1) + "</td><td>" + (g ? num(g.t) + " s" : "") +
          "</td><td><code>" + esc(g ? shortAction(g.action) : "–") + "</code></td><td><code>" + esc(p ? shortAction(p) : "–") +
          "</code></td></tr>");
      }
      var media = x.video ? '<video controls preload="metadata" src="' + esc(fileURL(s, x.video)) + "#t=" + x.start +
        (x.end !== undefined && x.end !== null ? "," + x.end : "") + '"></video>' :
        '<div class="strip">' + (x.frames || []).map(function (f, k) {
          var t = x.frame_times ? " · " + num(x.frame_times[k]) + " s" : "";
          // Each gold action on the frame before it (the last one at or before its time); the i-th
          // predicted action beside the i-th gold one.
          var marks2 = [];
          gold.forEach(function (a, i) {
            if (frameOf(x, a.t) !== k) return;
            marks2 = marks2.concat(actionMarks(a.action, "em-gold", "gold"));
            if (got[i]) marks2 = marks2.concat(actionMarks(got[i], got[i].kind === a.action.kind ? "em-right" : "em-wrong", "predicted"));
          });
          return figure(s, f, "frame " + (k + 1) + t, marks2, "eval-frame-" + k);
        }).join("") + "</div>";
      return (x.instruction ? '<div class="instruction">' + esc(x.instruction) + "</div>" : "") +
        '<table id="eval-actions"><thead><tr><th>#</th><th>at</th><th>gold</th><th>predicted</th></tr></thead><tbody>' +
        rows.join("") + "</tbody></table>" + media;
    }
    if (s.kind === "critic") {
      var steps = (x.steps || []).map(function (st, k) {
        return figure(s, st.screenshot, "step " + (k + 1) + (st.action ? ": " + shortAction(st.action) : "") +
          (st.code ? ": " + st.code.split("\n")[0].slice(0, 60) : ""), actionMarks(st.action, "em-gold", ""), "eval-step-" + k);
      });
      if (x.final_screenshot) steps.push(figure(s, x.final_screenshot, "after the last step", [], "eval-final"));
      return '<div class="instruction">' + esc(x.instruction) + "</div>" +
        compareHTML(verdict(x.success), verdict(pred), right) +
        (x.feedback ? '<p class="muted" id="eval-feedback">feedback: ' + esc(x.feedback) + "</p>" : "") + '<div class="strip">' + steps.join("") + "</div>";
    }
    // action_step
    var marks3 = (x.elements || []).map(function (b) { return { t: "box", box: b, cls: "em-element", label: "" }; })
      .concat(actionMarks(x.action, "em-gold", "gold"), actionMarks(pred, pcls, "predicted"));
    return '<div class="instruction">' + esc(x.instruction) + "</div>" +
      (x.subtask ? '<p id="eval-subtask"><b>sub-task</b> ' + esc(x.subtask) + "</p>" : "") +
      compareHTML(shortAction(x.action), pred ? shortAction(pred) : "(unread)", right) +
      '<div class="eval-main"><div>' + figure(s, x.image, "the screenshot: element boxes (grey), gold and predicted actions", marks3, "eval-image") +
      "</div><div><h4>History (" + (x.history || []).length + ")</h4><ol id=\"eval-history\">" + (x.history || []).map(function (a) {
        return "<li><code>" + esc(shortAction(a)) + "</code></li>";
      }).join("") + "</ol>" + (x.episode ? '<p class="muted">episode ' + esc(x.episode) + ", step " + esc(x.step) + "</p>" : "") +
      "</div></div>";
  }

  // The samples before and after this one among the rows the eval page's filters show
  // (← and → step through them, as the links do).
  function neighbours(s) {
    var rows = last.run === s.run_id && last.detail ? last.detail.rows.filter(function (r) {
      return matches(r, last.filters || {});
    }) : [];
    var i = rows.findIndex(function (r) { return r.dataset === s.dataset && r.id === s.sample.id; });
    var href = function (r) { return r ? "#/eval/" + enc(s.run_id) + "/" + enc(r.dataset) + "/" + enc(r.id) : null; };
    return i < 0 ? { prev: null, next: null, at: "" } :
      { prev: href(rows[i - 1]), next: href(rows[i + 1]), at: (i + 1) + " of " + rows.length };
  }

  function drawSample(s) {
    crumbs.innerHTML = '› <a href="#/eval/' + enc(s.run_id) + '">' + esc(s.run_id) + "</a> › " + esc(s.dataset) + " › " + esc(s.sample.id);
    var row = s.row || {};
    var y = window.scrollY;
    var near = neighbours(s);
    var nav = near.at ? '<p class="eval-nav" id="eval-nav">' + (near.prev ? '<a id="eval-prev" href="' + esc(near.prev) +
      '">← previous</a>' : '<span class="muted">← previous</span>') + ' <span class="muted">' + esc(near.at) + "</span> " +
      (near.next ? '<a id="eval-next" href="' + esc(near.next) + '">next →</a>' : '<span class="muted">next →</span>') + "</p>" : "";
    app.innerHTML = nav + '<h2 id="eval-sample-title">' + badge(s.status) + " " + esc(s.sample.id) + ' <span class="muted">' +
      esc(s.dataset) + " · " + esc(s.kind) + " · " + esc(s.sample.platform || "") + (s.sample.app ? " · " + esc(s.sample.app) : "") +
      (s.sample.source ? " · " + esc(s.sample.source) : "") + "</span></h2>" + sampleBody(s) +
      (row.error ? '<pre class="error">' + esc(row.error) + "</pre>" : "") +
      "<h3>Metric parts</h3>" + (partsTable(row.parts) || '<p class="muted">not scored yet</p>') +
      (row.reply !== undefined && row.reply !== null ? '<details id="eval-reply"><summary>model reply (' + row.reply.length +
        " characters, " + esc(row.model || "") + ")</summary><pre>" + esc(row.reply) + "</pre></details>" : "");
    drawMarks(app);
    window.scrollTo(0, y);
  }

  // ---- two eval folders ------------------------------------------------------------------------
  function drawCompare(a, b, da, db, query) {
    crumbs.innerHTML = "› compare " + esc(a) + " ↔ " + esc(b);
    var key = function (r) { return r.dataset + "\u0000" + r.id; };
    var ra = {}, rb = {};
    da.rows.forEach(function (r) { ra[key(r)] = r; });
    db.rows.forEach(function (r) { rb[key(r)] = r; });
    var keys = Object.keys(ra).concat(Object.keys(rb).filter(function (k) { return !(k in ra); })).sort();
    var changed = keys.filter(function (k) { return ra[k] && rb[k] && ra[k].status !== rb[k].status; });
    var onlyChanged = query.changed === "1";
    var names = Object.keys(da.datasets).concat(Object.keys(db.datasets).filter(function (n) { return !(n in da.datasets); }));
    var acc = function (d, n) { return d.datasets[n] ? metric("accuracy", d.datasets[n].metrics.accuracy) : "–"; };
    var link = function (run, r) {
      return r ? '<a href="#/eval/' + enc(run) + "/" + enc(r.dataset) + "/" + enc(r.id) + '">' + badge(r.status) + "</a>" : "–";
    };
    app.innerHTML = "<h2>Compare " + esc(a) + " ↔ " + esc(b) + '</h2><table id="evalcompare-datasets"><thead><tr>' +
      "<th>dataset</th><th>A: " + esc(a) + " (" + esc(da.model) + ")</th><th>B: " + esc(b) + " (" + esc(db.model) +
      ")</th></tr></thead><tbody>" + names.map(function (n) {
        return '<tr data-dataset="' + esc(n) + '"><td>' + esc(n) + "</td><td>" + acc(da, n) + "</td><td>" + acc(db, n) + "</td></tr>";
      }).join("") + '</tbody></table><p id="evalcompare-summary">' + changed.length + " of " + keys.length +
      ' samples changed result. <label><input type="checkbox" id="evalcompare-only"' + (onlyChanged ? " checked" : "") +
      "> only those</label></p>" + '<table id="evalcompare"><thead><tr><th>sample</th><th>dataset</th><th>A</th><th>B</th>' +
      "<th>gold</th><th>A predicted</th><th>B predicted</th></tr></thead><tbody>" +
      keys.filter(function (k) { return !onlyChanged || changed.indexOf(k) >= 0; }).map(function (k) {
        var x = ra[k], y = rb[k], r = x || y;
        return '<tr class="' + (changed.indexOf(k) >= 0 ? "changed" : "") + '" data-id="' + esc(r.id) + '"><td>' + esc(r.id) +
          "</td><td>" + esc(r.dataset) + "</td><td>" + link(a, x) + "</td><td>" + link(b, y) + "</td><td><code>" + esc(r.gold) +
          "</code></td><td><code>" + esc(x ? x.predicted || x.error : "") + "</code></td><td><code>" +
          esc(y ? y.predicted || y.error : "") + "</code></td></tr>";
      }).join("") + "</tbody></table>";
    document.getElementById("evalcompare-only").addEventListener("change", function (ev) {
      var q = ev.target.checked ? { changed: "1" } : {};
      history.replaceState(null, "", "#/evalcompare/" + enc(a) + "/" + enc(b) + (ev.target.checked ? "?changed=1" : ""));
      drawCompare(a, b, da, db, q);
    });
  }

  document.addEventListener("keydown", function (ev) {
    if (ev.target.closest && ev.target.closest("input, select, textarea") || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    var link = document.getElementById(ev.key === "ArrowLeft" ? "eval-prev" : ev.key === "ArrowRight" ? "eval-next" : "");
    if (link) location.hash = link.getAttribute("href");
  });

  // viewer.js calls this for #/eval/... and #/evalcompare/... routes; `still()` says the page is
  // still the one asked for.
  window.deskactEval = {
    load: function (parts, query, still) {
      if (parts[0] === "evalcompare" && parts.length === 3) {
        return Promise.all([getJSON("/api/evals/" + enc(parts[1])), getJSON("/api/evals/" + enc(parts[2]))])
          .then(function (d) { if (still()) drawCompare(parts[1], parts[2], d[0], d[1], query); });
      }
      if (parts.length === 2) {
        return getJSON("/api/evals/" + enc(parts[1])).then(function (d) { if (still()) drawRun(parts[1], d, query); });
      }
      if (parts.length === 4) {
        // The folder's rows too (once per folder), for the previous/next links.
        var rows = last.run === parts[1] && last.detail ? Promise.resolve(last.detail) :
          getJSON("/api/evals/" + enc(parts[1])).then(function (d) { last.run = parts[1]; last.detail = d; return d; });
        return Promise.all([getJSON("/api/evals/" + enc(parts[1]) + "/samples/" + enc(parts[2]) + "/" + enc(parts[3])), rows])
          .then(function (got) { if (still()) drawSample(got[0]); });
      }
      return Promise.reject(new Error("unknown page " + location.hash));
    }
  };
})();
