// Task list filters: every row carries data-status/suite/finish/text; no network, no libraries.
(function () {
  "use strict";
  var rows = Array.prototype.slice.call(document.querySelectorAll("#tasks tbody tr"));
  var controls = {
    status: document.getElementById("filter-status"),
    suite: document.getElementById("filter-suite"),
    finish: document.getElementById("filter-finish"),
    text: document.getElementById("filter-text")
  };
  var count = document.getElementById("shown-count");

  function apply() {
    var status = controls.status.value, suite = controls.suite.value, finish = controls.finish.value;
    var text = controls.text.value.trim().toLowerCase();
    var shown = 0;
    rows.forEach(function (row) {
      var ok = (!status || row.dataset.status === status) &&
               (!suite || row.dataset.suite === suite) &&
               (!finish || row.dataset.finish === finish) &&
               (!text || row.dataset.text.indexOf(text) !== -1);
      row.hidden = !ok;
      if (ok) shown += 1;
    });
    count.textContent = shown + " of " + rows.length + " tasks";
    // Keep the filters in the URL hash so a filtered view can be shared or reloaded.
    var state = [];
    ["status", "suite", "finish"].forEach(function (k) {
      if (controls[k].value) state.push(k + "=" + encodeURIComponent(controls[k].value));
    });
    if (text) state.push("text=" + encodeURIComponent(text));
    try {
      history.replaceState(null, "", state.length ? "#" + state.join("&") : location.pathname);
    } catch (e) { /* some browsers refuse history changes on file:// pages: filters still work */ }
  }

  function fromHash() {
    location.hash.replace(/^#/, "").split("&").forEach(function (pair) {
      var kv = pair.split("=");
      var el = controls[kv[0]];
      if (el && kv.length === 2) el.value = decodeURIComponent(kv[1]);
    });
  }

  document.querySelectorAll("[data-set-status]").forEach(function (el) {
    el.addEventListener("click", function (ev) {
      ev.preventDefault();
      controls.status.value = el.dataset.setStatus;
      apply();
    });
  });
  ["status", "suite", "finish"].forEach(function (k) { controls[k].addEventListener("change", apply); });
  controls.text.addEventListener("input", apply);
  fromHash();
  apply();
})();
