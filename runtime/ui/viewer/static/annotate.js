// Annotation pages of deskact view (annotate.py saves what they send):
//   /annotate?run=RUN&task=KEY&file=PATH    draw a box on a screenshot, write its instruction -> a grounding sample
//   /annotate?run=RUN&task=KEY&video=PATH   mark actions on an episode video's timeline -> IDM samples and a clip
// PATH is relative to the run folder (served under /files/RUN/). Coordinates are sent in the image's
// (or video's) own pixels, whatever size the page shows it at.
(function () {
  "use strict";
  var esc = DeskactPage.esc;
  var app = document.getElementById("app");
  var crumbs = document.getElementById("crumbs");
  var q = new URLSearchParams(location.search);
  var run = q.get("run") || "", task = q.get("task") || "";
  var KINDS = ["click", "double_click", "right_click", "type", "key", "hotkey", "scroll", "drag", "move", "wait", "done", "fail"];

  function fileURL(rel) { return "/files/" + encodeURIComponent(run) + "/" + rel.split("/").map(encodeURIComponent).join("/"); }
  var post = DeskactPage.post;
  function datasetsList() {
    return fetch("/api/annotate/datasets").then(function (r) { return r.json(); }).then(function (d) {
      var el = document.getElementById("datasets");
      if (el) el.innerHTML = "<div class=\"muted\">datasets in " + esc(d.root) + ":</div>" + (d.datasets.map(function (x) {
        return "<div><code>" + esc(x.name) + "</code> · " + esc(x.kind) + " · " + x.samples + " samples</div>";
      }).join("") || '<div class="muted">none yet</div>');
    });
  }
  // A mouse event's position in the element's own pixels (natural size, not the size shown).
  function natural(ev, el, w, h) {
    var r = el.getBoundingClientRect();
    return [Math.round((ev.clientX - r.left) * w / r.width), Math.round((ev.clientY - r.top) * h / r.height)];
  }
  function common(defaultSet) {
    return '<label class="field"><span class="name">app</span><input type="text" id="app-name" placeholder="e.g. mousepad, libreoffice-calc"></label>' +
      '<label class="field"><span class="name">platform</span><select id="platform"><option>desktop</option><option>web</option>' +
      '<option>mobile</option></select></label><label class="field"><span class="name">dataset</span><input type="text" id="dataset" value="' +
      esc(defaultSet) + '"></label>';
  }
  var back = task ? '<a href="/#/run/' + encodeURIComponent(run) + "/task/" + encodeURIComponent(task) + '">' + esc(task) + "</a>" : "";
  crumbs.innerHTML = '› <a href="/#/run/' + encodeURIComponent(run) + '">' + esc(run) + "</a>" + (back ? " › " + back : "") + " › annotate";

  // ---- a grounding sample: a box and an instruction --------------------------------------------
  function ground(file) {
    app.innerHTML = '<h2>Grounding sample</h2><div class="tool"><div><div class="canvas" id="canvas"><img id="shot" src="' +
      esc(fileURL(file)) + '" alt="screenshot"><svg id="overlay"></svg></div><p class="muted">Drag across the element ' +
      "the instruction names. " + esc(file) + '</p></div><div><div class="panel"><h3>The sample</h3>' +
      '<label class="field"><span class="name">instruction *</span><textarea id="instruction" rows="3" placeholder="click the Bold button"></textarea></label>' +
      '<label class="field"><span class="name">box</span><input type="text" id="box" readonly placeholder="drag on the image"></label>' +
      '<label class="field"><span class="name">element name</span><input type="text" id="el-name"></label>' +
      '<label class="field"><span class="name">role</span><input type="text" id="el-role" placeholder="push button"></label>' +
      common("viewer-ground") + '<p><button id="save">Save sample</button></p><p id="saved"></p></div><div class="panel" id="datasets"></div></div></div>';
    var img = document.getElementById("shot"), svg = document.getElementById("overlay"), canvas = document.getElementById("canvas");
    var box = null, start = null;
    function draw() {
      svg.setAttribute("viewBox", "0 0 " + img.naturalWidth + " " + img.naturalHeight);
      svg.innerHTML = box ? '<rect class="box" x="' + box[0] + '" y="' + box[1] + '" width="' + (box[2] - box[0]) +
        '" height="' + (box[3] - box[1]) + '"></rect>' : "";
      document.getElementById("box").value = box ? box.join(", ") : "";
    }
    img.addEventListener("load", draw);
    img.addEventListener("dragstart", function (ev) { ev.preventDefault(); });
    canvas.addEventListener("mousedown", function (ev) {
      start = natural(ev, img, img.naturalWidth, img.naturalHeight);
      box = [start[0], start[1], start[0], start[1]];
      draw();
    });
    window.addEventListener("mousemove", function (ev) {
      if (!start) return;
      var p = natural(ev, img, img.naturalWidth, img.naturalHeight);
      p = [Math.max(0, Math.min(img.naturalWidth, p[0])), Math.max(0, Math.min(img.naturalHeight, p[1]))];
      box = [Math.min(start[0], p[0]), Math.min(start[1], p[1]), Math.max(start[0], p[0]), Math.max(start[1], p[1])];
      draw();
    });
    window.addEventListener("mouseup", function () { start = null; });
    document.getElementById("save").addEventListener("click", function () {
      var out = document.getElementById("saved");
      out.className = "";
      out.textContent = "saving…";
      post("/api/annotate/ground", {
        run: run, task: task, file: file, box: box || [], instruction: document.getElementById("instruction").value,
        dataset: document.getElementById("dataset").value, app: document.getElementById("app-name").value,
        platform: document.getElementById("platform").value, name: document.getElementById("el-name").value || null,
        role: document.getElementById("el-role").value || null
      }).then(function (s) {
        out.className = "ok";
        out.textContent = "saved " + s.ids[0] + " to " + s.dataset + " (" + s.samples + " samples)";
        datasetsList();
      }).catch(function (e) { out.className = "bad"; out.textContent = e.message; });
    });
    datasetsList();
  }

  // ---- IDM labels: actions marked on a video's timeline -----------------------------------------
  function idm(video) {
    app.innerHTML = '<h2>Label actions on the episode video</h2><div class="tool"><div><div class="canvas" id="canvas">' +
      '<video id="video" preload="auto" src="' + esc(fileURL(video)) + '"></video><svg id="overlay"></svg></div>' +
      '<div class="timeline" id="timeline"><div class="played" id="played"></div></div><div class="controls">' +
      '<button id="play">play / pause</button><button data-step="-1">−1 s</button><button data-step="-0.1">−0.1 s</button>' +
      '<button data-step="0.1">+0.1 s</button><button data-step="1">+1 s</button><span id="time" class="muted">0.00 s</span></div>' +
      '<p class="muted">Stop where an action happens, click its position on the frame (shift-click: where a drag ends), ' +
      "fill its kind and text, and add it.</p></div><div><div class=\"panel\"><h3>Action at the current time</h3>" +
      '<label class="field"><span class="name">kind</span><select id="kind">' + KINDS.map(function (k) {
        return "<option>" + k + "</option>"; }).join("") + "</select></label>" +
      '<label class="field"><span class="name">position</span><input type="text" id="pos" placeholder="click the frame"></label>' +
      '<label class="field"><span class="name">drag end</span><input type="text" id="pos2" placeholder="shift-click the frame"></label>' +
      '<label class="field"><span class="name">text</span><input type="text" id="text" placeholder="typed text"></label>' +
      '<label class="field"><span class="name">keys</span><input type="text" id="keys" placeholder="ctrl+s"></label>' +
      '<label class="field"><span class="name">direction</span><select id="direction"><option></option><option>up</option>' +
      "<option>down</option><option>left</option><option>right</option></select></label>" +
      '<p><button id="add">Add action</button></p><table id="marks"><thead><tr><th>t</th><th>action</th><th></th></tr></thead><tbody></tbody></table></div>' +
      '<div class="panel"><h3>Save</h3><label class="field"><span class="name">instruction</span><input type="text" id="instruction" ' +
      'placeholder="the task the episode did (optional)"></label>' + common("viewer-idm") +
      '<p><button id="save">Save samples</button></p><p id="saved"></p></div><div class="panel" id="datasets"></div></div></div>';
    var v = document.getElementById("video"), svg = document.getElementById("overlay"), canvas = document.getElementById("canvas");
    var tl = document.getElementById("timeline");
    var marks = [], pos = null, pos2 = null;
    function show() {
      var d = v.duration || 0;
      document.getElementById("time").textContent = v.currentTime.toFixed(2) + " s of " + d.toFixed(2) + " s";
      document.getElementById("played").style.width = (d ? 100 * v.currentTime / d : 0) + "%";
      Array.prototype.forEach.call(tl.querySelectorAll(".tick"), function (t) { t.remove(); });
      marks.forEach(function (m) {
        var t = document.createElement("div");
        t.className = "tick";
        t.title = m.t.toFixed(2) + " s: " + m.action.kind;
        t.style.left = (d ? 100 * m.t / d : 0) + "%";
        tl.appendChild(t);
      });
      svg.setAttribute("viewBox", "0 0 " + (v.videoWidth || 1) + " " + (v.videoHeight || 1));
      var r = Math.max(6, (v.videoWidth || 800) / 90);
      svg.innerHTML = (pos ? '<circle class="mark" cx="' + pos[0] + '" cy="' + pos[1] + '" r="' + r + '"></circle>' : "") +
        (pos2 ? '<circle class="mark move" cx="' + pos2[0] + '" cy="' + pos2[1] + '" r="' + r + '"></circle>' : "");
      document.getElementById("pos").value = pos ? pos.join(", ") : "";
      document.getElementById("pos2").value = pos2 ? pos2.join(", ") : "";
      document.querySelector("#marks tbody").innerHTML = marks.map(function (m, i) {
        var a = m.action;
        var what = a.kind + (a.x !== undefined ? " (" + a.x + ", " + a.y + ")" : "") + (a.x2 !== undefined ? " → (" + a.x2 + ", " + a.y2 + ")" : "") +
          (a.text ? " " + JSON.stringify(a.text) : "") + (a.keys ? " " + a.keys.join("+") : "") + (a.direction ? " " + a.direction : "");
        return '<tr class="mark-row"><td>' + m.t.toFixed(2) + "</td><td>" + esc(what) + '</td><td><button data-del="' + i + '">×</button></td></tr>';
      }).join("");
    }
    ["timeupdate", "loadedmetadata", "seeked"].forEach(function (e) { v.addEventListener(e, show); });
    document.getElementById("play").addEventListener("click", function () { if (v.paused) v.play(); else v.pause(); });
    Array.prototype.forEach.call(document.querySelectorAll("[data-step]"), function (b) {
      b.addEventListener("click", function () {
        v.pause();
        v.currentTime = Math.max(0, Math.min(v.duration || 0, v.currentTime + Number(b.dataset.step)));
      });
    });
    tl.addEventListener("click", function (ev) {
      var r = tl.getBoundingClientRect();
      v.pause();
      v.currentTime = (v.duration || 0) * (ev.clientX - r.left) / r.width;
    });
    canvas.addEventListener("click", function (ev) {
      var p = natural(ev, v, v.videoWidth, v.videoHeight);
      if (ev.shiftKey) pos2 = p; else pos = p;
      show();
    });
    document.getElementById("add").addEventListener("click", function () {
      var kind = document.getElementById("kind").value;
      var a = { kind: kind };
      if (pos) { a.x = pos[0]; a.y = pos[1]; }
      if (kind === "drag" && pos2) { a.x2 = pos2[0]; a.y2 = pos2[1]; }
      var text = document.getElementById("text").value, keys = document.getElementById("keys").value;
      var dir = document.getElementById("direction").value;
      if (text) a.text = text;
      if (keys) a.keys = keys.split(/[+,\s]+/).filter(Boolean);
      if (dir) a.direction = dir;
      marks.push({ t: Math.round(v.currentTime * 1000) / 1000, action: a });
      marks.sort(function (x, y) { return x.t - y.t; });
      pos = null; pos2 = null;
      ["text", "keys"].forEach(function (id) { document.getElementById(id).value = ""; });
      show();
    });
    document.querySelector("#marks tbody").addEventListener("click", function (ev) {
      if (ev.target.dataset.del !== undefined) { marks.splice(Number(ev.target.dataset.del), 1); show(); }
    });
    document.getElementById("save").addEventListener("click", function () {
      var out = document.getElementById("saved");
      out.className = "";
      out.textContent = "saving (cutting frames)…";
      post("/api/annotate/idm", {
        run: run, task: task, video: video, actions: marks, dataset: document.getElementById("dataset").value,
        app: document.getElementById("app-name").value, platform: document.getElementById("platform").value,
        instruction: document.getElementById("instruction").value || null
      }).then(function (saved) {
        out.className = "ok";
        out.textContent = saved.map(function (s) { return "saved " + s.ids.length + " to " + s.dataset + " (" + s.samples + " samples)"; }).join("; ");
        datasetsList();
      }).catch(function (e) { out.className = "bad"; out.textContent = e.message; });
    });
    datasetsList();
  }

  if (q.get("file")) ground(q.get("file"));
  else if (q.get("video")) idm(q.get("video"));
  else app.innerHTML = '<p class="muted">Open a screenshot or an episode video from a task page of <a href="/#/">deskact view</a> ' +
    "and follow its <i>annotate</i> link.</p>";
})();
