// deskact view: a single page over the JSON API of server.py. Routes live in the URL hash:
//   #/                       the runs
//   #/run/RUN?status=&suite=&tag=&text=   one run's tasks, filtered
//   #/run/RUN/task/KEY       one task, every step
//   #/compare/A/B[/KEY]      two runs: what changed; one task side by side
// A live run is followed by polling its signature once a second and redrawing when it changes.
(function () {
  "use strict";
  var app = document.getElementById("app");
  var crumbs = document.getElementById("crumbs");
  var liveBadge = document.getElementById("live");
  var POLL_MS = 1000;
  var shown = { key: null, sigs: null, data: null };  // what is on screen, to redraw only on change

  var esc = DeskactPage.esc, enc = DeskactPage.enc, getJSON = DeskactPage.getJSON;
  function statusBadge(s) { return '<span class="status ' + esc(s) + '">' + esc(s) + "</span>"; }
  function secs(x) { return (x || 0).toFixed(1) + " s"; }

  function route() {
    var hash = location.hash.replace(/^#\/?/, "");
    var q = hash.indexOf("?");
    var query = {};
    if (q >= 0) {
      hash.slice(q + 1).split("&").forEach(function (kv) {
        var p = kv.split("=");
        if (p[0]) query[decodeURIComponent(p[0])] = decodeURIComponent(p[1] || "");
      });
      hash = hash.slice(0, q);
    }
    var parts = hash.split("/").filter(Boolean).map(decodeURIComponent);
    return { parts: parts, query: query };
  }

  // ---- runs -------------------------------------------------------------------------------
  function drawRuns(runs) {
    crumbs.innerHTML = "";
    if (!runs.length) {
      app.innerHTML = '<p class="muted" id="no-runs">No run folders yet (a folder holding results.jsonl). ' +
        "This page refreshes by itself.</p>";
      return;
    }
    var rows = runs.map(function (r) {
      return '<tr class="run" data-run="' + esc(r.id) + '"><td><input type="checkbox" class="pick" data-kind="' + esc(r.kind || "tasks") + '" value="' +
        esc(r.id) + '"></td><td><a href="#/' + (r.kind === "eval" ? "eval" : "run") + "/" + enc(r.id) + '">' + esc(r.name) + "</a>" +
        (r.kind === "eval" ? ' <span class="status eval">eval</span>' : "") +
        (r.live ? ' <span class="status running">live</span>' : "") + '<div class="muted">' + esc(r.path) +
        "</div></td><td>" + r.tasks + (r.attempts > r.tasks ? " of " + r.attempts : "") + "</td><td>" + r.passed + "</td><td>" + r.failed + "</td><td>" + r.errors +
        "</td><td>" + r.invalid + "</td><td>" + r.running + "</td><td>" + esc(r.models.join(", ")) + "</td><td>" +
        (r.updated ? esc(new Date(r.updated * 1000).toLocaleString()) : "") + "</td></tr>";
    }).join("");
    app.innerHTML = '<h2>Runs</h2><p><button id="compare-btn" disabled>Compare the two checked runs</button></p>' +
      '<table id="runs"><thead><tr><th></th><th>run</th><th>results</th><th>passed</th><th>failed</th>' +
      "<th>errors</th><th>invalid</th><th>running</th><th>model</th><th>updated</th></tr></thead><tbody>" +
      rows + "</tbody></table>";
    var btn = document.getElementById("compare-btn");
    var picks = Array.prototype.slice.call(app.querySelectorAll(".pick"));
    picks.forEach(function (p) {
      p.addEventListener("change", function () {
        btn.disabled = picks.filter(function (x) { return x.checked; }).length !== 2;
      });
    });
    btn.addEventListener("click", function () {
      var checked = picks.filter(function (x) { return x.checked; });
      var ids = checked.map(function (x) { return enc(x.value); });
      var evals = checked.every(function (x) { return x.dataset.kind === "eval"; });  // two eval folders: eval.js
      location.hash = (evals ? "#/evalcompare/" : "#/compare/") + ids.join("/");
    });
  }

  // ---- one run ----------------------------------------------------------------------------
  function options(values, current, label) {
    return '<option value="">' + esc(label) + "</option>" + values.map(function (v) {
      return '<option value="' + esc(v) + '"' + (v === current ? " selected" : "") + ">" + esc(v) + "</option>";
    }).join("");
  }
  function uniq(list) { return list.filter(function (v, i) { return v && list.indexOf(v) === i; }).sort(); }

  function matches(t, f) {
    if (f.status && t.status !== f.status) return false;
    if (f.suite && t.suite !== f.suite) return false;
    if (f.tag && t.tags.indexOf(f.tag) < 0) return false;
    if (f.text) {
      var hay = [t.task_id, t.suite, t.tags.join(" "), t.status, t.finish, t.feedback, t.model].join(" ").toLowerCase();
      if (hay.indexOf(f.text.toLowerCase()) < 0) return false;
    }
    return true;
  }

  // run.json: what ran, with what, where and when; the count is against every attempt the run holds.
  function manifestHTML(detail, s) {
    var m = detail.manifest;
    var done = s.tasks + " result" + (s.tasks === 1 ? "" : "s") + (s.attempts ? " of " + s.attempts : "") +
      " (" + s.passed + " passed, " + s.failed + " failed, " + (s.errors + s.invalid) + " errors)";
    if (!m) return '<p id="run-count">' + esc(done) + "</p>";
    var when = function (t) { return t ? esc(new Date(t).toLocaleString()) : "not yet"; };
    var facts = [
      ["model", esc(m.model) + (Object.keys(m.model_settings).length ?
        ' <span class="muted">' + esc(JSON.stringify(m.model_settings)) + "</span>" : "")],
      ["status", esc(m.status) + " · " + esc(done) + (m.stop_reason ? " · " + esc(m.stop_reason) : "")],
      ["command", "<code>" + esc(m.command.join(" ") || "n/a") + "</code>"],
      ["started", when(m.started_at) + " · ended " + when(m.ended_at)],
      ["deskact", esc(m.deskact_version) + (m.git_commit ? " · commit <code>" + esc(m.git_commit) + "</code>" : "")],
      ["host", esc(m.host.hostname + " · " + m.host.platform + " · " + m.host.cpus + " CPUs")]
    ].concat(m.resumed.map(function (r) {
      return ["resumed", when(r.at) + " with " + esc(r.model) + (r.forced ? " (forced)" : "")];
    }));
    return '<dl id="manifest" class="facts">' + facts.map(function (f) {
      return "<dt>" + f[0] + "</dt><dd>" + f[1] + "</dd>";
    }).join("") + "</dl>";
  }

  function drawRun(runId, detail, query) {
    var s = detail.summary;
    crumbs.innerHTML = '› <a href="#/run/' + enc(runId) + '">' + esc(s.name) + "</a>";
    var tasks = detail.tasks;
    var f = { status: query.status || "", suite: query.suite || "", tag: query.tag || "", text: query.text || "" };
    var filters = document.getElementById("filters");
    if (!filters || filters.dataset.run !== runId) {
      app.innerHTML = '<h2 id="run-title">' + esc(s.name) + ' <span class="muted">' + esc(s.path) + "</span></h2>" +
        '<div id="run-summary"></div><h3>Tasks</h3><div class="filters" id="filters" data-run="' + esc(runId) + '">' +
        '<select id="f-status"></select><select id="f-suite"></select><select id="f-tag"></select>' +
        '<input type="search" id="f-text" placeholder="text in id, feedback, error…">' +
        '<span id="shown-count" class="muted"></span></div>' +
        '<table id="tasks"><thead><tr><th>status</th><th>task</th><th class="c-epoch">epoch</th><th>suite</th><th>tags</th>' +
        "<th>steps</th><th>time</th><th>finish</th><th>why</th></tr></thead><tbody></tbody></table>";
      ["f-status", "f-suite", "f-tag"].forEach(function (id) {
        document.getElementById(id).addEventListener("change", setFilters);
      });
      var text = document.getElementById("f-text");
      text.value = f.text;
      text.addEventListener("input", setFilters);
    }
    document.getElementById("f-status").innerHTML = options(
      uniq(["passed", "failed", "error", "invalid"].concat(tasks.map(function (t) { return t.status; }))), f.status, "any status");
    document.getElementById("f-suite").innerHTML = options(uniq(tasks.map(function (t) { return t.suite; })), f.suite, "any suite");
    document.getElementById("f-tag").innerHTML = options(
      uniq([].concat.apply([], tasks.map(function (t) { return t.tags; }))), f.tag, "any tag");
    var summary = '<table id="by-suite"><thead><tr><th>suite</th><th>tasks</th><th>passed</th><th>success</th>' +
      "<th>errors</th><th>invalid</th><th>mean steps</th><th>mean time</th></tr></thead><tbody>" +
      detail.by_suite.map(function (r) {
        return "<tr><td>" + esc(r.group) + "</td><td>" + r.tasks + "</td><td>" + r.passed + "</td><td>" +
          (100 * r.success_rate).toFixed(0) + "%</td><td>" + r.errors + "</td><td>" + r.invalid + "</td><td>" +
          r.mean_steps.toFixed(1) + "</td><td>" + secs(r.mean_duration_s) + "</td></tr>";
      }).join("") + "</tbody></table>" +
      (s.running ? '<p id="running-count">' + s.running + " task(s) running now</p>" : "") +
      (detail.watch.length ? '<p id="watch-links">Watch the screens: ' + detail.watch.map(function (w) {
        return '<a target="_blank" rel="noopener" href="' + esc(w.web_url) + '">worker ' + w.worker + " (" +
          esc(w.display) + ")" + (w.task ? ": " + esc(w.task) : "") + "</a>";
      }).join(" · ") + "</p>" : "");
    document.getElementById("run-summary").innerHTML = manifestHTML(detail, s) + summary + epochsHTML(detail);
    var visible = tasks.filter(function (t) { return matches(t, f); });
    document.querySelector("#tasks tbody").innerHTML = visible.map(function (t) {
      return '<tr class="task" data-key="' + esc(t.key) + '" data-status="' + esc(t.status) + '"><td>' +
        statusBadge(t.status) + '</td><td><a href="#/run/' + enc(runId) + "/task/" + enc(t.key) + '">' +
        esc(t.task_id) + '</a></td><td class="c-epoch">' + (t.epoch === null ? "" : t.epoch) + "</td><td>" + esc(t.suite) +
        "</td><td>" + esc(t.tags.join(", ")) + "</td><td>" + t.steps + "</td><td>" +
        (t.status === "running" || t.status === "unfinished" ? "" : secs(t.duration_s)) + "</td><td>" +
        esc(t.finish) + '</td><td class="muted">' + esc((t.feedback || "").slice(0, 240)) + "</td></tr>";
    }).join("");
    // The epoch column only for runs that repeated tasks (deskact run --epochs N).
    document.getElementById("tasks").classList.toggle("no-epoch", !tasks.some(function (t) { return t.epoch !== null; }));
    document.getElementById("shown-count").textContent = visible.length + " of " + tasks.length + " tasks";
    Array.prototype.forEach.call(document.querySelectorAll("#tasks tr.task"), function (tr) {
      tr.addEventListener("click", function (ev) {
        if (ev.target.tagName !== "A") location.hash = "#/run/" + enc(runId) + "/task/" + enc(tr.dataset.key);
      });
    });
  }

  // A run that repeated tasks (--epochs): pass@k and spread per suite and per task (run/epochs.py).
  function epochsHTML(detail) {
    if (!detail.suite_epochs.length) return "";
    // The k columns: every k any row has (a task that ran fewer epochs leaves the larger ones empty).
    function ksOf(rows) {
      var all = [].concat.apply([], rows.map(function (r) { return Object.keys(r.pass_at).map(Number); }));
      return all.filter(function (k, i) { return all.indexOf(k) === i; }).sort(function (a, b) { return a - b; });
    }
    function pct(x) { return (100 * x).toFixed(0) + "%"; }
    function cells(row, ks) { return ks.map(function (k) { return "<td>" + (k in row.pass_at ? pct(row.pass_at[k]) : "") + "</td>"; }).join(""); }
    function head(ks) { return ks.map(function (k) { return "<th>pass@" + k + "</th>"; }).join(""); }
    var ksS = ksOf(detail.suite_epochs), ksT = ksOf(detail.task_epochs);
    return '<h3>Epochs</h3><table id="epochs-suite"><thead><tr><th>suite</th><th>tasks</th><th>epochs</th>' + head(ksS) +
      "<th>spread</th></tr></thead><tbody>" + detail.suite_epochs.map(function (r) {
        return "<tr><td>" + esc(r.suite) + "</td><td>" + r.tasks + "</td><td>" + r.n + "</td>" + cells(r, ksS) + "<td>" +
          pct(r.spread) + "</td></tr>";
      }).join("") + '</tbody></table><details><summary>per task</summary><table id="epochs-task"><thead><tr>' +
      "<th>task</th><th>passed</th>" + head(ksT) + "<th>spread</th><th>rewards by epoch</th></tr></thead><tbody>" +
      detail.task_epochs.map(function (r) {
        return '<tr data-task="' + esc(r.task_id) + '"><td>' + esc(r.task_id) + "</td><td>" + r.passed + "/" + r.n +
          "</td>" + cells(r, ksT) + "<td>" + r.spread.toFixed(2) + "</td><td>" + esc(r.rewards.join(" ")) + "</td></tr>";
      }).join("") + "</tbody></table></details>";
  }

  function setFilters() {
    var r = route();
    var q = [];
    [["status", "f-status"], ["suite", "f-suite"], ["tag", "f-tag"], ["text", "f-text"]].forEach(function (p) {
      var v = document.getElementById(p[1]).value;
      if (v) q.push(p[0] + "=" + enc(v));
    });
    history.replaceState(null, "", "#/run/" + enc(r.parts[1]) + (q.length ? "?" + q.join("&") : ""));
    if (shown.data) drawRun(r.parts[1], shown.data, route().query);
  }

  // ---- one task ---------------------------------------------------------------------------
  function shot(runId, page, file, caption, points, id) {
    if (!file) return "";
    var src = "/files/" + enc(runId) + "/" + page.trajectory.split("/").map(enc).join("/") + "/" + enc(file);
    return '<figure class="shot"' + (id ? ' id="' + id + '"' : "") + '><img src="' + src + '" alt="' + esc(caption) +
      '" data-points="' + esc(JSON.stringify(points || [])) + '"><svg></svg><figcaption>' + esc(caption) +
      annotateLink(runId, page, "file", file, "annotate") + "</figcaption></figure>";
  }

  // Marks drawn once the image's own size is known: the points are in its pixels.
  function drawMarks(root) {
    Array.prototype.forEach.call(root.querySelectorAll(".shot img"), function (img) {
      function mark() {
        var pts = JSON.parse(img.dataset.points || "[]");
        var svg = img.nextElementSibling;
        var w = img.naturalWidth, h = img.naturalHeight;
        if (!w || !h) return;
        svg.setAttribute("viewBox", "0 0 " + w + " " + h);
        var r = Math.max(8, w / 80);
        svg.innerHTML = pts.map(function (p, i) {
          var line = p.start ? '<line class="mark-line" x1="' + p.start[0] + '" y1="' + p.start[1] + '" x2="' + p.x +
            '" y2="' + p.y + '"></line>' : "";
          return line + '<circle class="mark ' + esc(p.action) + '" cx="' + p.x + '" cy="' + p.y + '" r="' + r +
            '"><title>' + esc(p.action + " (" + Math.round(p.x) + ", " + Math.round(p.y) + "), line " + p.line) +
            '</title></circle><text class="mark-label" x="' + (p.x + r + 2) + '" y="' + (p.y - r) + '">' +
            (i + 1) + " " + esc(p.action) + "</text>";
        }).join("");
      }
      if (img.complete) mark(); else img.addEventListener("load", mark);
    });
  }

  function outputHTML(res) {
    if (!res) return "";
    var parts = ['<div class="muted">output · ' + esc(res.status) + " in " + secs(res.duration_s) +
      (res.restarted ? " · kernel restarted" : "") + (res.exited ? " · exit()" : "") + "</div>"];
    if (res.stdout) parts.push('<pre class="stdout">' + esc(res.stdout) + "</pre>");
    if (res.stderr) parts.push('<pre class="stderr">' + esc(res.stderr) + "</pre>");
    if (res.result !== null && res.result !== undefined) parts.push('<pre class="result">Out: ' + esc(res.result) + "</pre>");
    if (res.error) parts.push('<pre class="error">' + esc(res.error.traceback || res.error.ename + ": " + res.error.evalue) + "</pre>");
    return parts.join("");
  }

  function stepsHTML(runId, page) {
    var out = [];
    if (page.first_observation) {
      out.push('<section class="step" id="step-first"><h3>First observation</h3>' +
        shot(runId, page, page.first_observation, "the screen before step 1", [], "first-observation") + "</section>");
    }
    page.steps.forEach(function (s) {
      var rec = s.record;
      var onBefore = !!s.before;
      var img = onBefore ? shot(runId, page, s.before, "the screen the model saw, with this step's pointer actions", s.points)
        : shot(runId, page, s.after, "screen after step " + (s.index + 1) + " (pointer actions of this step drawn)", s.points);
      var after = onBefore && s.after ? '<details><summary>screen after step ' + (s.index + 1) + "</summary>" +
        shot(runId, page, s.after, "screen after step " + (s.index + 1), []) + "</details>" : "";
      out.push('<section class="step" id="step-' + s.index + '" data-points="' + s.points.length + '"><h3>Step ' +
        (s.index + 1) + (rec.subtask ? " — " + esc(rec.subtask) : "") + ' <span class="muted">· model ' +
        secs(rec.model_s) + " · run " + secs(rec.exec_s) + "</span></h3><div class=\"cols\"><div>" +
        "<details" + (rec.code === null ? " open" : "") + "><summary>model reply (" + (rec.reply || "").length +
        " characters)</summary><pre>" + esc(rec.reply) + "</pre></details>" +
        (rec.code !== null ? '<div>code</div><pre class="code">' + esc(rec.code) + "</pre>" : "") +
        (rec.note ? "<p><i>" + esc(rec.note) + "</i></p>" : "") + outputHTML(rec.result) +
        s.output_images.map(function (f) { return shot(runId, page, f, "image displayed by the step", []); }).join("") +
        (rec.reflection ? "<details><summary>reflection</summary><pre>" + esc(rec.reflection) + "</pre></details>" : "") +
        "</div><div>" + img + after + "</div></div></section>");
    });
    if (!out.length) out.push('<p class="muted">No steps recorded yet.</p>');
    return out.join("");
  }

  function taskHTML(runId, page) {
    var r = page.result;
    var facts = r ? "<dt>reward</dt><dd>" + r.reward + "</dd><dt>finish</dt><dd>" + esc(r.finish_reason || r.status) +
      "</dd><dt>model</dt><dd>" + esc(r.model) + "</dd><dt>steps</dt><dd>" + r.steps + "</dd><dt>time</dt><dd>" +
      secs(r.duration_s) + "</dd>" + (page.epoch !== null ? "<dt>epoch</dt><dd id=\"epoch\">" + page.epoch + "</dd>" : "") +
      (r.source ? "<dt>defined at</dt><dd><code>" + esc(r.source) + "</code></dd>" : "") : "<dt>result</dt><dd>none yet</dd>";
    var verdicts = r && r.verdicts.length ? '<table id="verdicts"><thead><tr><th>verdict</th><th>judge</th><th>feedback</th>' +
      "<th>params</th></tr></thead><tbody>" + r.verdicts.map(function (v) {
        var kind = v.error ? "error" : v.passed ? "passed" : "failed";
        return "<tr><td>" + statusBadge(kind) + "</td><td><code>" + esc(v.judge) + "</code></td><td>" + esc(v.feedback) +
          "</td><td><code>" + esc(JSON.stringify(v.params)) + "</code></td></tr>";
      }).join("") + "</tbody></table>" : "";
    return '<h2 id="task-title">' + statusBadge(page.status) + " " + esc(r ? r.task_id : page.key.replace(/^~/, "")) +
      "</h2><dl class=\"facts\">" + facts + "</dl>" + (r && r.error ? '<pre class="error">' + esc(r.error) + "</pre>" : "") +
      (page.instruction ? '<h3>Instruction</h3><div class="instruction">' + esc(page.instruction) + "</div>" : "") +
      verdicts + (page.answer ? "<h3>Answer</h3><pre>" + esc(page.answer) + "</pre>" : "") +
      '<h3>Steps (<span id="step-count">' + page.steps.length + "</span>)</h3>" + withVideo(runId, page, stepsHTML(runId, page));
  }

  // The annotation page (annotate.js) for this screenshot or video: a grounding box, IDM labels.
  function annotateLink(runId, page, what, file, label) {
    return ' <a class="annotate" href="/annotate?run=' + enc(runId) + "&task=" + enc(page.key) + "&" + what + "=" +
      enc(page.trajectory + "/" + file) + '">' + label + "</a>";
  }

  // The episode video (run --record) plays beside the steps, held in view while they scroll.
  function withVideo(runId, page, steps) {
    if (!page.video || !page.trajectory) return steps;
    var src = "/files/" + enc(runId) + "/" + page.trajectory.split("/").map(enc).join("/") + "/" + enc(page.video);
    return '<div class="with-video"><div>' + steps + '</div><aside><figure class="video" id="episode-video">' +
      '<video controls preload="metadata" src="' + src + '"></video><figcaption>the episode, as recorded ' +
      "(run --record)" + annotateLink(runId, page, "video", page.video, "label actions") + "</figcaption></figure></aside></div>";
  }

  function drawTask(runId, page) {
    crumbs.innerHTML = '› <a href="#/run/' + enc(runId) + '">' + esc(runId) + "</a> › " + esc(page.key);
    var y = window.scrollY;
    var playing = app.querySelector("#episode-video video");  // a live page redraws: keep the video playing
    var at = playing ? playing.currentTime : 0, paused = playing ? playing.paused : true;
    app.innerHTML = taskHTML(runId, page);
    var video = app.querySelector("#episode-video video");
    if (video && at) { video.currentTime = at; if (!paused) video.play(); }
    drawMarks(app);
    window.scrollTo(0, y);
  }

  // ---- compare ----------------------------------------------------------------------------
  function drawCompare(a, b, details) {
    crumbs.innerHTML = "› compare " + esc(a) + " ↔ " + esc(b);
    var ta = {}, tb = {};
    details[0].tasks.forEach(function (t) { ta[t.key] = t; });
    details[1].tasks.forEach(function (t) { tb[t.key] = t; });
    var keys = uniq(Object.keys(ta).concat(Object.keys(tb)));
    var rows = keys.map(function (k) {
      var x = ta[k], y = tb[k];
      var changed = x && y && x.status !== y.status;
      return '<tr class="task' + (changed ? " changed" : "") + '" data-key="' + esc(k) + '"><td><a href="#/compare/' +
        enc(a) + "/" + enc(b) + "/" + enc(k) + '">' + esc(k) + "</a></td><td>" + (x ? statusBadge(x.status) : "-") +
        "</td><td>" + (y ? statusBadge(y.status) : "-") + "</td><td>" + (changed ? "changed" : "") + "</td></tr>";
    }).join("");
    var changedCount = keys.filter(function (k) { return ta[k] && tb[k] && ta[k].status !== tb[k].status; }).length;
    app.innerHTML = "<h2>Compare</h2><p id=\"compare-summary\">" + changedCount + " of " + keys.length +
      " tasks changed outcome. Open a task to see both trajectories side by side.</p>" +
      '<table id="compare"><thead><tr><th>task</th><th>A: ' + esc(a) + "</th><th>B: " + esc(b) +
      "</th><th></th></tr></thead><tbody>" + rows + "</tbody></table>";
  }

  function drawSide(a, b, key, pages) {
    crumbs.innerHTML = '› <a href="#/compare/' + enc(a) + "/" + enc(b) + '">compare</a> › ' + esc(key);
    var y = window.scrollY;
    app.innerHTML = '<div class="side" id="side-by-side">' + [[a, pages[0]], [b, pages[1]]].map(function (p) {
      return '<div class="column" data-run="' + esc(p[0]) + '"><h2 class="muted">' + esc(p[0]) + "</h2>" +
        (p[1] ? taskHTML(p[0], p[1]) : '<p class="muted">Not in this run.</p>') + "</div>";
    }).join("") + "</div>";
    drawMarks(app);
    window.scrollTo(0, y);
  }

  // ---- routing and polling ----------------------------------------------------------------
  function sigsOf(runIds) {
    return Promise.all(runIds.map(function (id) {
      return getJSON("/api/runs/" + enc(id) + "/signature").then(function (x) { return x.signature; });
    })).then(function (s) { return s.join(","); });
  }

  function orNull(p) { return p.catch(function () { return null; }); }

  function refresh(force) {
    var r = route(), p = r.parts;
    var key = p.join("/");
    // An answer that arrives after the user moved to another page must not draw over it.
    function still() { return route().parts.join("/") === key; }
    if (key !== shown.key) { force = true; shown.data = null; }
    if (!p.length) {
      return getJSON("/api/runs").then(function (runs) {
        var text = JSON.stringify(runs);
        liveBadge.hidden = !runs.some(function (x) { return x.live; });
        if (still() && (force || text !== shown.sigs)) { shown.key = key; shown.sigs = text; drawRuns(runs); }
      });
    }
    var runIds = p[0] === "compare" || p[0] === "evalcompare" ? [p[1], p[2]] : [p[1]];
    return sigsOf(runIds).then(function (sig) {
      if (!force && sig === shown.sigs) return;
      var load;
      if (p[0] === "run" && p.length === 2) {
        load = getJSON("/api/runs/" + enc(p[1])).then(function (d) {
          if (!still()) return;
          shown.data = d; drawRun(p[1], d, route().query); liveBadge.hidden = !d.summary.live;
        });
      } else if (p[0] === "run" && p[2] === "task") {
        load = getJSON("/api/runs/" + enc(p[1]) + "/tasks/" + enc(p[3])).then(function (t) {
          if (!still()) return;
          drawTask(p[1], t); liveBadge.hidden = t.status !== "running";
        });
      } else if (p[0] === "compare" && p.length === 3) {
        load = Promise.all([getJSON("/api/runs/" + enc(p[1])), getJSON("/api/runs/" + enc(p[2]))]).then(function (d) {
          if (still()) drawCompare(p[1], p[2], d);
        });
      } else if (p[0] === "compare" && p.length === 4) {
        load = Promise.all([orNull(getJSON("/api/runs/" + enc(p[1]) + "/tasks/" + enc(p[3]))),
          orNull(getJSON("/api/runs/" + enc(p[2]) + "/tasks/" + enc(p[3])))]).then(function (pages) {
          if (still()) drawSide(p[1], p[2], p[3], pages);
        });
      } else if ((p[0] === "eval" || p[0] === "evalcompare") && window.deskactEval) {  // deskact eval folders: eval.js
        load = window.deskactEval.load(p, route().query, still);
      } else {
        throw new Error("unknown page " + location.hash);
      }
      return load.then(function () { if (still()) { shown.key = key; shown.sigs = sig; } });
    });
  }

  function showError(err) {
    app.innerHTML = '<p class="error" id="error">' + esc(err.message || err) + '</p><p><a href="#/">all runs</a></p>';
    shown.key = route().parts.join("/");
  }

  var busy = false;
  function tick(force) {
    if (busy) return;
    busy = true;
    refresh(force).catch(showError).then(function () { busy = false; });
  }
  window.addEventListener("hashchange", function () { busy = false; tick(true); });
  setInterval(function () { tick(false); }, POLL_MS);
  tick(true);
})();
