// Forms generated from a step's params JSON Schema (pydantic's model_json_schema), for the task creator.
//   DeskactForms.build(schema, values, required) -> a <div class="form"> with one row per param
//   DeskactForms.read(div) -> the params object (empty optional fields left out; JSON fields parsed)
// Strings, numbers, booleans and enums get their own inputs; anything else (lists, maps, unions of
// several types) a JSON text box, which is checked when read.
(function () {
  "use strict";
  var LONG = ["content", "code", "text", "equals", "contains", "sql", "query", "cmd", "body", "regex"];

  var esc = DeskactPage.esc;

  // What input a property gets: {type: string|number|integer|boolean|enum|json, options, nullable}.
  function kindOf(ps) {
    var alts = ps.anyOf || ps.oneOf;
    if (alts) {
      var real = alts.filter(function (a) { return a.type !== "null"; });
      if (real.length === 1) {
        var k = kindOf(real[0]);
        k.nullable = real.length !== alts.length;
        return k;
      }
      return { type: "json" };
    }
    if (ps.enum) return { type: "enum", options: ps.enum };
    if (ps.const !== undefined) return { type: "enum", options: [ps.const] };
    if (ps.type === "string" || ps.type === "number" || ps.type === "integer" || ps.type === "boolean") {
      return { type: ps.type };
    }
    return { type: "json" };
  }

  function build(schema, values, idPrefix) {
    values = values || {};
    var props = schema.properties || {};
    var required = schema.required || [];
    var div = document.createElement("div");
    div.className = "form";
    div.innerHTML = Object.keys(props).map(function (name) {
      var ps = props[name], k = kindOf(ps);
      var req = required.indexOf(name) >= 0;
      var has = Object.prototype.hasOwnProperty.call(values, name);
      var v = has ? values[name] : (ps.default === undefined ? null : ps.default);
      var id = (idPrefix || "f") + "-" + name;
      var attrs = ' id="' + esc(id) + '" data-field="' + esc(name) + '" data-type="' + k.type + '" data-required="' + req + '"' +
        (ps.default === undefined ? "" : ' data-default-json="' + esc(JSON.stringify(ps.default)) + '"');
      var input;
      if (k.type === "boolean") {
        input = '<input type="checkbox"' + attrs + (v ? " checked" : "") + ' data-default="' + (ps.default ? "1" : "") + '">';
      } else if (k.type === "enum") {
        input = "<select" + attrs + ">" + (req ? "" : '<option value=""></option>') + k.options.map(function (o) {
          return '<option value="' + esc(JSON.stringify(o)) + '"' + (o === v ? " selected" : "") + ">" + esc(o) + "</option>";
        }).join("") + "</select>";
      } else if (k.type === "json") {
        input = "<textarea rows=\"3\"" + attrs + ' placeholder="JSON">' + esc(v === null ? "" : JSON.stringify(v, null, 1)) + "</textarea>";
      } else if (k.type === "string" && (LONG.indexOf(name) >= 0 || (typeof v === "string" && v.indexOf("\n") >= 0))) {
        input = "<textarea rows=\"3\"" + attrs + ">" + esc(v === null ? "" : v) + "</textarea>";
      } else {
        input = '<input type="' + (k.type === "string" ? "text" : "number") + '"' + (k.type === "number" ? ' step="any"' : "") +
          attrs + ' value="' + esc(v === null ? "" : v) + '">';
      }
      var title = ps.description || "";
      return '<label class="field" title="' + esc(title) + '"><span class="name">' + esc(name) + (req ? " *" : "") +
        "</span>" + input + "</label>";
    }).join("") || '<p class="muted">no parameters</p>';
    return div;
  }

  // A field left at its schema default is left out: the saved step says only what its author chose.
  function read(div) {
    var out = {};
    function put(el, name, value) {
      if (el.dataset.required !== "true" && el.dataset.defaultJson !== undefined &&
          JSON.stringify(value) === el.dataset.defaultJson) return;
      out[name] = value;
    }
    Array.prototype.forEach.call(div.querySelectorAll("[data-field]"), function (el) {
      var name = el.dataset.field, type = el.dataset.type, req = el.dataset.required === "true";
      if (type === "boolean") {
        if (el.checked !== !!el.dataset.default || req) out[name] = el.checked;
        return;
      }
      var raw = el.value;
      if (raw === "" && !req) return;
      if (type === "enum") put(el, name, JSON.parse(raw));
      else if (type === "number" || type === "integer") put(el, name, Number(raw));
      else if (type === "json") {
        try { put(el, name, JSON.parse(raw)); } catch (e) { throw new Error(name + ": not JSON (" + e.message + ")"); }
      } else put(el, name, raw);
    });
    return out;
  }

  window.DeskactForms = { build: build, read: read };
})();
