// What every viewer page's script uses: HTML escaping and the JSON API's GET and POST.
//   DeskactPage.esc(s) -> s safe inside HTML text and attributes
//   DeskactPage.enc(s) -> s as one URL path segment
//   DeskactPage.getJSON(url), DeskactPage.post(url, body) -> a promise of the reply's JSON; an error
//   reply rejects with the server's message
(function () {
  "use strict";

  function esc(s) {
    return String(s === null || s === undefined ? "" : s).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }
  function enc(s) { return encodeURIComponent(s); }
  function reply(r) {
    return r.json().then(function (body) {
      if (!r.ok) throw new Error(body.error || r.statusText);
      return body;
    });
  }
  function getJSON(url) { return fetch(url, { cache: "no-store" }).then(reply); }
  function post(url, body) {
    return fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) })
      .then(reply);
  }

  window.DeskactPage = { esc: esc, enc: enc, getJSON: getJSON, post: post };
})();
