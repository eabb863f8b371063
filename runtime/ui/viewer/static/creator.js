// The task creator of deskact view (/create; creator.py does the work):
//   1. start from: a suite, an id, the reset steps (forms made from each step's params schema)
//   2. the instruction; 3. the demonstration (reference code) run in a fresh world, the state
//   diffed before/after into judge suggestions; 4. pick and tune judges; 5. validate: the task is
//   saved to SUITE/<id>.yaml only when the reference passes and noop and explore fail.
(function () {
  "use strict";
  var F = DeskactForms, esc = DeskactPage.esc;
  var app = document.getElementById("app");
  var catalog = null, byName = {};
  var POLL_MS = 700;

  var post = DeskactPage.post, getJSON = DeskactPage.getJSON;
  function $(id) { return document.getElementById(id); }
  function options(kind) {
    return catalog.steps.filter(function (s) { return s.kind === kind; }).map(function (s) {
      return '<option value="' + esc(s.name) + '">' + esc(s.name) + "</option>";
    }).join("");
  }

  // A step card: name, first paragraph of its doc, its form; ``extra`` goes into the header.
  var cardCount = 0;
  function card(list, name, params, extra, why) {
    var spec = byName[name];
    var div = document.createElement("div");
    div.className = "step-card" + (why ? " suggestion" : "");
    div.dataset.step = name;
    cardCount += 1;
    div.innerHTML = "<header>" + (extra || "") + "<code>" + esc(name) + '</code><span class="muted">' + esc(why || "") +
      '</span><button class="remove" title="remove" style="margin-left:auto">×</button></header><div class="doc">' +
      esc((spec.doc || "").split("\n\n")[0]) + (spec.one_of.length ? " (exactly one of: " + esc(spec.one_of.join(", ")) + ")" : "") + "</div>";
    div.appendChild(F.build(spec.schema, params || {}, "c" + cardCount));
    div.querySelector(".remove").addEventListener("click", function () { div.remove(); });
    list.appendChild(div);
    return div;
  }
  function stepsOf(list, onlyPicked) {
    return Array.prototype.filter.call(list.children, function (c) {
      return !onlyPicked || !c.querySelector(".use") || c.querySelector(".use").checked;
    }).map(function (c) {
      var o = {};
      o[c.dataset.step] = F.read(c.querySelector(".form"));
      return o;
    });
  }
  function draft() {
    var list = function (id) { return $(id).value.split(",").map(function (s) { return s.trim(); }).filter(Boolean); };
    return {
      suite: suiteName(), id: $("task-id").value.trim(), instruction: $("instruction").value,
      visual: $("visual").checked, toolkits: list("toolkits"), tags: list("tags"),
      reset: stepsOf($("reset-steps")), cleanup: stepsOf($("cleanup-steps")),
      before_judge: stepsOf($("before-judge-steps")), reference: $("reference").value, judge: stepsOf($("judges"), true)
    };
  }

  // A job (record / demonstrate / validate) polled until it ends; ``done`` gets the finished job,
  // ``running`` (if given) each state while it runs.
  function follow(job, logEl, done, running) {
    function tick() {
      getJSON("/api/creator/jobs/" + job.id).then(function (j) {
        logEl.textContent = j.log.join("\n") + (j.error ? "\n" + j.error : "");
        if (j.state === "running") { if (running) running(j); setTimeout(tick, POLL_MS); return; }
        done(j);
      }).catch(function (e) { logEl.textContent += "\n" + e.message; });
    }
    tick();
  }
  function busy(on) {
    ["record", "demonstrate", "validate"].forEach(function (id) { $(id).disabled = on; });
  }

  function demonstrate() {
    var out = $("demo-result");
    out.innerHTML = "";
    $("demo-state").className = "";
    $("demo-state").textContent = "starting the world…";
    var d;
    try { d = draft(); } catch (e) { $("demo-state").className = "bad"; $("demo-state").textContent = e.message; return; }
    busy(true);
    post("/api/creator/demonstrate", d).then(function (job) {
      follow(job, $("demo-log"), function (j) {
        busy(false);
        if (j.state === "failed") { $("demo-state").className = "bad"; $("demo-state").textContent = j.error; return; }
        var r = j.result;
        $("demo-state").className = "ok";
        $("demo-state").id = "demo-state";
        $("demo-state").textContent = r.suggestions.length + " judge suggestion(s) from the change (" +
          Object.keys(r.before.files).length + " → " + Object.keys(r.after.files).length + " files, " +
          r.after.windows.length + " windows)";
        out.innerHTML = (r.outputs.filter(Boolean).length ? "<div class=\"muted\">what the demonstration printed</div><pre>" +
          esc(r.outputs.join("\n")) + "</pre>" : "") + (r.after.notes.length ? '<div class="muted">' + esc(r.after.notes.join("; ")) + "</div>" : "");
        if (r.screens.length) {
          getJSON("/api/creator/jobs/" + j.id + "/screens").then(function (shots) {
            out.insertAdjacentHTML("beforeend", '<div class="shots" id="demo-shots">' + r.screens.map(function (n) {
              return "<figure><img src=\"" + shots[n] + '" alt="' + esc(n) + '"><figcaption>' + esc(n.replace(/\..*/, "")) +
                " the demonstration</figcaption></figure>";
            }).join("") + "</div>");
          });
        }
        var judges = $("judges");
        Array.prototype.slice.call(judges.querySelectorAll(".suggestion")).forEach(function (c) { c.remove(); });
        r.suggestions.forEach(function (s, i) {
          var c = card(judges, s.judge, s.params, '<input type="checkbox" class="use" id="use-' + i + '" title="use this judge">', s.why);
          c.dataset.source = s.source;
          c.querySelector(".use").addEventListener("change", function (ev) { c.classList.toggle("picked", ev.target.checked); });
        });
        if (!r.suggestions.length) judges.insertAdjacentHTML("afterbegin", '<p class="muted" id="no-suggestions">' +
          "The demonstration changed nothing a judge could check: add one by hand.</p>");
      });
    }).catch(function (e) { busy(false); $("demo-state").className = "bad"; $("demo-state").textContent = e.message; });
  }

  // deskact record's session on the draft: the person acts through noVNC on the recording page,
  // presses Done, and the recorded actions come back as gui-toolkit code: the reference.
  function record() {
    var state = $("record-state");
    state.className = "";
    state.textContent = "starting the world for the recording…";
    var d;
    try { d = draft(); } catch (e) { state.className = "bad"; state.textContent = e.message; return; }
    busy(true);
    post("/api/creator/record", d).then(function (job) {
      follow(job, $("demo-log"), function (j) {
        busy(false);
        if (j.state === "failed") { state.className = "bad"; state.textContent = j.error; return; }
        $("reference").value = j.result.code;
        state.className = "ok";
        state.textContent = "recorded " + j.result.actions + " action(s): the code below is the reference now; " +
          "run it to get judge suggestions";
      }, function (j) {
        if (j.result && j.result.url && !$("record-link")) {
          state.innerHTML = '<a id="record-link" target="_blank" rel="noopener" href="' + esc(j.result.url) +
            '">open the recording page</a>: do the task there, then press Done';
        }
      });
    }).catch(function (e) { busy(false); state.className = "bad"; state.textContent = e.message; });
  }

  function validate() {
    var out = $("verdict");
    out.className = "";
    out.innerHTML = "validating (reference, noop, explore)…";
    var d;
    try { d = draft(); } catch (e) { out.className = "bad"; out.textContent = e.message; return; }
    busy(true);
    post("/api/creator/validate", d).then(function (job) {
      follow(job, $("validate-log"), function (j) {
        busy(false);
        if (j.state === "failed") { out.className = "bad"; out.textContent = j.error; return; }
        var v = j.result;
        if (v.saved) {
          out.className = "ok";
          out.innerHTML = '<span id="saved-path">saved to ' + esc(v.path) + "</span><pre>" + esc(v.yaml) + "</pre>";
          return;
        }
        out.className = "bad";
        out.innerHTML = '<div id="refused">not saved: the task did not validate</div><table id="problems"><thead><tr><th>pass</th>' +
          "<th>status</th><th>reward</th><th>why</th></tr></thead><tbody>" + v.problems.map(function (p) {
            return '<tr data-model="' + esc(p.model) + '"><td>' + esc(p.model) + "</td><td>" + esc(p.status) + "</td><td>" + p.reward +
              "</td><td>" + esc(p.detail) + "</td></tr>";
          }).join("") + "</tbody></table><pre>" + esc(v.yaml) + "</pre>";
      });
    }).catch(function (e) { busy(false); out.className = "bad"; out.textContent = e.message; });
  }

  function adder(selectId, listId, kind) {
    $(selectId).innerHTML = '<option value="">add a ' + (kind === "judge" ? "judge" : "step") + "…</option>" + options(kind);
    $(selectId).addEventListener("change", function () {
      if (!this.value) return;
      var c = card($(listId), this.value, {}, kind === "judge" ? '<input type="checkbox" class="use" checked title="use this judge">' : "");
      if (kind === "judge") c.classList.add("picked");
      this.value = "";
    });
  }

  // An existing suite folder, or a new one (made when the first task is saved into it).
  function suiteName() { return $("suite").value === NEW_SUITE ? $("new-suite").value.trim() : $("suite").value; }
  var NEW_SUITE = "/new";  // no suite folder has a "/" in its name

  function fixtures() {
    $("new-suite-row").hidden = $("suite").value !== NEW_SUITE;
    if ($("suite").value === NEW_SUITE) {
      $("fixtures").textContent = "a new suite folder, made when the task is saved (no fixture files yet)";
      return;
    }
    getJSON("/api/creator/suites/" + encodeURIComponent($("suite").value) + "/files").then(function (f) {
      // Each fixture: copy it into the workspace, or copy it and open it in its app (files.copy, apps.open).
      $("fixtures").innerHTML = f.files.length ? "start from a fixture (in ${FILES}): " + f.files.slice(0, 60).map(function (n) {
        return '<span class="fixture"><code>' + esc(n) + '</code> <a href="#" data-copy="' + esc(n) + '">copy</a> · ' +
          '<a href="#" data-open="' + esc(n) + '">copy and open</a></span>'; }).join(" ") : "this suite has no fixture files";
    });
  }

  function draw() {
    app.innerHTML = '<h2>Create a task</h2><div class="tool"><div>' +
      '<div class="panel"><h3>1 · Start from</h3><label class="field"><span class="name">suite</span><select id="suite">' +
      catalog.suites.map(function (s) { return "<option>" + esc(s) + "</option>"; }).join("") + '<option value="' + NEW_SUITE +
      '">new suite…</option></select></label><label class="field" id="new-suite-row" hidden><span class="name">new suite</span><input type="text" ' +
      'id="new-suite" placeholder="the new suite\'s folder name"></label>' +
      '<label class="field"><span class="name">task id</span><input type="text" id="task-id" placeholder="os-write-report"></label>' +
      '<label class="field"><span class="name">visual</span><input type="checkbox" id="visual"></label>' +
      '<label class="field"><span class="name">toolkits</span><input type="text" id="toolkits" placeholder="gui, web (comma separated)"></label>' +
      '<label class="field"><span class="name">tags</span><input type="text" id="tags"></label>' +
      '<p class="muted" id="fixtures"></p><div id="reset-steps"></div><select id="add-reset"></select></div>' +
      '<div class="panel"><h3>2 · Instruction</h3><textarea id="instruction" rows="3" style="width:100%" ' +
      'placeholder="What the agent is asked to do; ${WORKSPACE}, ${FILES}, ${HOME} are expanded."></textarea></div>' +
      '<div class="panel"><h3>3 · Demonstration</h3><p class="muted">The reference solution: code for the task\'s kernel ' +
      "(the gui toolkit's mouse, keyboard and windows for a visual task). It runs in a fresh world; the state before and " +
      "after is compared to suggest judges. For a visual task, record it in the browser (deskact record) to get " +
      'the code.</p><p><button id="record">Record a demonstration in the browser</button> <span id="record-state"></span></p>' +
      '<textarea id="reference" rows="8"></textarea>' +
      '<p><button id="demonstrate">Start the world and run the demonstration</button> <span id="demo-state"></span></p>' +
      '<pre class="log" id="demo-log"></pre><div id="demo-result"></div></div>' +
      '<div class="panel"><h3>4 · Judges</h3><p class="muted">Suggestions from the change; tick the ones to use and tune ' +
      'their parameters.</p><div id="judges"></div><select id="add-judge"></select></div>' +
      '<div class="panel"><h3>5 · Validate and save</h3><p class="muted">Saved to the suite only when the reference passes ' +
      "and noop and explore fail.</p><p><button id=\"validate\">Validate and save</button></p>" +
      '<pre class="log" id="validate-log"></pre><div id="verdict"></div></div>' +
      "</div><div>" +
      '<div class="panel"><h3>Cleanup and before-judge steps</h3><div id="cleanup-steps"></div><select id="add-cleanup"></select>' +
      '<div id="before-judge-steps"></div><select id="add-before-judge"></select></div>' +
      '<div class="panel"><h3>Where it goes</h3><p class="muted">' + esc(catalog.suites_dir) + "/&lt;suite&gt;/&lt;id&gt;.yaml</p></div>" +
      "</div></div>";
    adder("add-reset", "reset-steps", "reset");
    adder("add-cleanup", "cleanup-steps", "reset");
    adder("add-before-judge", "before-judge-steps", "reset");
    adder("add-judge", "judges", "judge");
    $("add-cleanup").options[0].textContent = "add a cleanup step…";
    $("add-before-judge").options[0].textContent = "add a before-judge step (e.g. apps.save)…";
    $("suite").addEventListener("change", fixtures);
    $("fixtures").addEventListener("click", function (ev) {
      var name = ev.target.dataset.copy || ev.target.dataset.open;
      if (!name) return;
      ev.preventDefault();
      var dst = "${WORKSPACE}/" + name.split("/").pop();
      card($("reset-steps"), "files.copy", { src: name, dst: dst });
      if (ev.target.dataset.open) card($("reset-steps"), "apps.open", { path: dst });
    });
    $("demonstrate").addEventListener("click", demonstrate);
    $("record").addEventListener("click", record);
    $("validate").addEventListener("click", validate);
    fixtures();
  }

  getJSON("/api/creator/catalog").then(function (c) {
    catalog = c;
    c.steps.forEach(function (s) { byName[s.name] = s; });
    draw();
  }).catch(function (e) { app.innerHTML = '<p class="bad" id="error">' + esc(e.message) + "</p>"; });
})();
