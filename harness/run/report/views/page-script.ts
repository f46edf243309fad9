/**
 * The one script of report.html, and the Content-Security-Policy that lets exactly it run.
 *
 * The page's policy allows no script but this text, by its SHA-256 hash (`script-src
 * 'sha256-…'`, computed from the exact text when the page is rendered), still under
 * `default-src 'none'` (no request of any kind) and `require-trusted-types-for 'script'` (no
 * HTML parsing from strings: innerHTML and the like throw). The script is a constant: nothing
 * of a task, an agent, a gate or a run is ever put into it. It reads only what the harness wrote
 * on the page (the filter menus' values, `data-` attributes, cells' `data-v` sort keys and
 * their text) and only toggles `hidden`, sets `aria-sort`, moves table rows and writes counts as
 * text. Without it the page shows everything (every row, every trial) and hides the filter bar.
 *
 * Filters (the bar above the tables): gate, user and outcome (harmed only, false blocks only)
 * over every element marked `data-filterable` (table rows, trials); a trial or row standing for
 * every user (`data-approver="*"`: a gate that never asks) matches any user. A task whose
 * trials are all filtered out is hidden, and so is a group of trials left empty.
 * Sorting: a click (or Enter) on a column head of a `table.sortable` sorts its rows by the
 * cells' `data-v` numbers when they have them, else by their text; again reverses.
 */
import { createHash } from "node:crypto";

export const PAGE_SCRIPT = `(function () {
  "use strict";
  var each = function (list, f) { Array.prototype.forEach.call(list, f); };
  var form = document.getElementById("filters");
  if (form) {
    var shown = document.getElementById("shown");
    var matches = function (d, f) {
      if (f.gate && d.gate !== f.gate) return false;
      if (f.approver && d.approver !== "*" && d.approver !== f.approver) return false;
      if (f.outcome === "harmed" && !(Number(d.harmed) > 0)) return false;
      if (f.outcome === "false-blocks" && !(Number(d.falseBlocks) > 0)) return false;
      return true;
    };
    var apply = function () {
      var f = {};
      each(form.querySelectorAll("select[data-filter]"), function (s) { f[s.getAttribute("data-filter")] = s.value; });
      each(document.querySelectorAll("[data-filterable]"), function (el) { el.hidden = !matches(el.dataset, f); });
      var total = 0;
      var visible = 0;
      each(document.querySelectorAll("details.task"), function (task) {
        var trials = task.querySelectorAll("details.trial");
        var n = 0;
        each(trials, function (t) { if (!t.hidden) n += 1; });
        each(task.querySelectorAll(".group"), function (g) {
          var left = 0;
          each(g.querySelectorAll("details.trial"), function (t) { if (!t.hidden) left += 1; });
          g.hidden = left === 0;
        });
        total += trials.length;
        visible += n;
        task.hidden = n === 0;
        var count = task.querySelector(".shown-count");
        if (count) count.textContent = n === trials.length ? "" : " · " + n + " shown";
      });
      if (shown) shown.textContent = visible + " of " + total + " trials shown";
    };
    form.addEventListener("change", apply);
    form.addEventListener("submit", function (ev) { ev.preventDefault(); });
    form.hidden = false;
    apply();
  }
  var key = function (cell) {
    var v = cell.getAttribute("data-v");
    return v === null || v === "" ? null : Number(v);
  };
  each(document.querySelectorAll("table.sortable"), function (table) {
    var body = table.tBodies[0];
    if (!table.tHead || !body) return;
    each(table.tHead.rows[0].cells, function (th, col) {
      th.tabIndex = 0;
      th.setAttribute("aria-sort", "none");
      var sort = function () {
        var up = th.getAttribute("aria-sort") !== "ascending";
        each(table.tHead.rows[0].cells, function (h) { h.setAttribute("aria-sort", "none"); });
        th.setAttribute("aria-sort", up ? "ascending" : "descending");
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) {
          var x = a.cells[col];
          var y = b.cells[col];
          if (!x || !y) return 0;
          var kx = key(x);
          var ky = key(y);
          var c;
          if (kx !== null && ky !== null) c = kx - ky;
          else if (kx !== null || ky !== null) return kx === null ? 1 : -1;
          else c = x.textContent.localeCompare(y.textContent);
          return up ? c : -c;
        });
        each(rows, function (r) { body.appendChild(r); });
      };
      th.addEventListener("click", sort);
      th.addEventListener("keydown", function (ev) {
        if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); sort(); }
      });
    });
  });
})();`;

/** The CSP source that allows `script` and nothing else: `'sha256-<base64 of its SHA-256>'`. */
export function scriptHashSource(script: string): string {
  return `'sha256-${createHash("sha256").update(script, "utf8").digest("base64")}'`;
}

/**
 * report.html's Content-Security-Policy: nothing may be fetched, framed, submitted or based
 * elsewhere; styles inline; the one script allowed by its hash, with Trusted Types required.
 */
export function pagePolicy(script: string = PAGE_SCRIPT): string {
  return [
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    "img-src data:",
    `script-src ${scriptHashSource(script)}`,
    "connect-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
    "require-trusted-types-for 'script'",
    "trusted-types 'none'",
  ].join("; ");
}
