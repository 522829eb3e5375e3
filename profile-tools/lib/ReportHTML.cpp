//===- ReportHTML.cpp - kiln report's static HTML page --------------------===//
//
// Part of the Kiln project, under the Apache License v2.0 with LLVM Exceptions.
// See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
///
/// \file
/// One file that opens from disk with no network: inline CSS, the report's
/// JSON in a `<script type="application/json">` element, and an inline
/// script that draws the heatmaps (SVG, one cell per page of code and
/// scenario, before and after Kiln's order) and the per-function tables
/// (filtered and shown a hundred rows at a time, so that a program of
/// thousands of functions stays usable). The summary table and the list of
/// decisions are plain HTML, readable with JavaScript off. The bytes depend
/// on the report only: no time, no random identifiers.
///
//===----------------------------------------------------------------------===//

#include "kiln/Tools/ReportCommand.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <utility>

using namespace llvm;
using namespace kiln;

static void writeEscaped(raw_ostream &OS, StringRef Text) {
  for (char C : Text) {
    switch (C) {
    case '<':
      OS << "&lt;";
      break;
    case '>':
      OS << "&gt;";
      break;
    case '&':
      OS << "&amp;";
      break;
    case '"':
      OS << "&quot;";
      break;
    default:
      OS << C;
    }
  }
}

static StringRef getString(const json::Object &O, StringRef Key) {
  std::optional<StringRef> S = O.getString(Key);
  return S ? *S : StringRef();
}

static int64_t getInt(const json::Object &O, StringRef Key) {
  std::optional<int64_t> I = O.getInteger(Key);
  return I ? *I : 0;
}

/// The pages and lower bound of \p Scenario at \p PageSize.
static const json::Object *findPages(const json::Object &Scenario,
                                     int64_t PageSize) {
  if (const json::Array *Pages = Scenario.getArray("pages"))
    for (const json::Value &P : *Pages)
      if (const json::Object *PO = P.getAsObject())
        if (getInt(*PO, "page_size") == PageSize)
          return PO;
  return nullptr;
}

static const json::Object *findLayout(const json::Object &Program,
                                      StringRef Name) {
  if (const json::Array *Layouts = Program.getArray("layouts"))
    for (const json::Value &L : *Layouts)
      if (const json::Object *LO = L.getAsObject())
        if (getString(*LO, "name") == Name)
          return LO;
  return nullptr;
}

/// One row per scenario: pages that ran before and after Kiln's order,
/// against the lower bound, at the report's page size.
static void writeSummaryTable(const json::Object &Program, int64_t PageSize,
                              raw_ostream &OS) {
  const json::Object *Before = findLayout(Program, "before");
  const json::Object *After = findLayout(Program, "after");
  OS << "<table class=\"summary\"><thead><tr><th>scenario</th>"
        "<th>functions that ran</th><th>pages before</th>"
        "<th>pages after</th><th>lower bound</th><th>after / bound</th>"
        "</tr></thead><tbody>\n";
  const json::Array *Scenarios = After ? After->getArray("scenarios") : nullptr;
  for (size_t I = 0; Scenarios && I < Scenarios->size(); ++I) {
    const json::Object *S = (*Scenarios)[I].getAsObject();
    const json::Object *P = S ? findPages(*S, PageSize) : nullptr;
    if (!P)
      continue;
    OS << "<tr><td>";
    writeEscaped(OS, getString(*S, "name"));
    OS << "</td><td>" << getInt(*S, "executed_functions") << "</td><td>";
    const json::Array *BeforeScenarios =
        Before ? Before->getArray("scenarios") : nullptr;
    const json::Object *BP = nullptr;
    if (BeforeScenarios && I < BeforeScenarios->size())
      if (const json::Object *BS = (*BeforeScenarios)[I].getAsObject())
        BP = findPages(*BS, PageSize);
    if (BP)
      OS << getInt(*BP, "pages");
    else
      OS << "not recorded";
    int64_t Bound = getInt(*P, "lower_bound");
    OS << "</td><td>" << getInt(*P, "pages") << "</td><td>" << Bound
       << "</td><td>"
       << format("%.2f", Bound ? double(getInt(*P, "pages")) / Bound : 1.0)
       << "</td></tr>\n";
  }
  OS << "</tbody></table>\n";
  // Functions a profile says ran but the program has under no one name
  // (inlined into every caller, discarded, sharing a name, or another
  // binary's) count as not run above.
  const json::Array *Profiles = After ? After->getArray("profiles") : nullptr;
  for (size_t I = 0; Profiles && I < Profiles->size(); ++I) {
    const json::Object *P = (*Profiles)[I].getAsObject();
    if (!P)
      continue;
    if (getInt(*P, "not_in_binary") != 0) {
      OS << "<p class=\"note\">";
      writeEscaped(OS, getString(*P, "path"));
      OS << ": " << getInt(*P, "not_in_binary") << " of "
         << getInt(*P, "executed_functions")
         << " functions that ran are not in the program under one name "
            "(inlined into every caller, discarded, sharing a name, or in "
            "another of the build's binaries) and "
            "count as not run.</p>\n";
    }
    // A profile that binds little: another program's, or, where the links
    // took the build's profiles as their own, the build's one profile.
    for (auto [Field, Tail] :
         {std::pair<StringRef, StringRef>{"foreign", "what binds"},
          {"of_build", "this program's"}}) {
      if (getString(*P, Field).empty())
        continue;
      OS << "<p class=\"note\">";
      writeEscaped(OS, getString(*P, "path"));
      OS << ": ";
      writeEscaped(OS, getString(*P, Field));
      OS << "; the figures above count " << Tail << ".</p>\n";
    }
  }
}

/// Each kind of decision with its status, and for the order its groups.
static void writeDecisionList(const json::Object &Program, raw_ostream &OS) {
  const json::Object *D = Program.getObject("decisions");
  if (!D)
    return;
  OS << "<ul class=\"decisions\">\n";
  static const char *const Kinds[][2] = {
      {"order", "function order"},        {"split", "split parts"},
      {"imports", "ThinLTO imports"},     {"inlining", "inlining"},
      {"string_tables", "string tables"}, {"block_layout", "block layout"}};
  for (const auto &[Key, Title] : Kinds) {
    const json::Object *K = D->getObject(Key);
    if (!K)
      continue;
    OS << "<li><b>" << Title << "</b>: ";
    writeEscaped(OS, getString(*K, "status"));
    // The groups count every function; the list only those that ran.
    if (const json::Array *Groups = K->getArray("groups")) {
      OS << ", functions by group: ";
      bool First = true;
      for (const json::Value &G : *Groups)
        if (const json::Object *GO = G.getAsObject()) {
          OS << (First ? "" : ", ");
          writeEscaped(OS, getString(*GO, "group"));
          OS << " " << getInt(*GO, "functions");
          First = false;
        }
    }
    if (const json::Array *Functions = K->getArray("functions"))
      OS << "; " << Functions->size() << " that ran, with their counts";
    if (const json::Array *Parts = K->getArray("parts"))
      OS << ", " << Parts->size() << " parts";
    if (const json::Array *Clusters = K->getArray("clusters")) {
      OS << ", " << getInt(*K, "functions") << " functions in clusters (";
      bool First = true;
      for (const json::Value &C : *Clusters)
        if (const json::Object *CO = C.getAsObject()) {
          OS << (First ? "" : ", ");
          writeEscaped(OS, getString(*CO, "kind"));
          OS << " " << getInt(*CO, "clusters") << " of " << getInt(*CO, "bytes")
             << " bytes";
          First = false;
        }
      OS << "); startup ran " << getInt(*K, "startup_run_bytes")
         << " bytes of blocks, bound " << getInt(*K, "startup_block_bound")
         << " pages";
    }
    StringRef Reason = getString(*K, "reason");
    if (!Reason.empty()) {
      OS << ": ";
      writeEscaped(OS, Reason);
    }
    OS << "</li>\n";
  }
  OS << "</ul>\n";
}

static constexpr StringLiteral Style = R"css(
body { font: 14px/1.4 sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.25em; margin-top: 1.5em; }
h3 { font-size: 1.05em; }
table { border-collapse: collapse; margin: 0.5em 0; }
th, td { border: 1px solid #bbb; padding: 2px 8px; text-align: right; }
th:first-child, td:first-child { text-align: left; }
td.name { text-align: left; font-family: monospace; }
code, .mono { font-family: monospace; }
.layouts { display: flex; flex-wrap: wrap; gap: 2em; }
.heatmap-row { margin: 0.25em 0 0.75em; }
.legend span { display: inline-block; width: 14px; height: 10px; }
.controls { margin: 0.5em 0; }
button { margin-left: 0.5em; }
)css";

// The page's script. It reads the embedded report, draws one SVG per layout
// and scenario (a cell per page, rows of 64 pages), checks that the cells
// that ran are the pages the evaluator counted, and logs a marker line.
static constexpr StringLiteral Script = R"js(
(function () {
  'use strict';
  var report = JSON.parse(document.getElementById('kiln-report-data').textContent);
  var SVG = 'http://www.w3.org/2000/svg';
  var COLUMNS = 64, CELL = 9, GAP = 1, ROWS_SHOWN = 100;
  var cells = 0;

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function colour(count, max) {
    // Light yellow to dark red on a logarithmic scale of execution counts.
    var t = max > 0 ? Math.log(1 + count) / Math.log(1 + max) : 1;
    var r = Math.round(255 - 80 * t), g = Math.round(235 - 215 * t),
        b = Math.round(150 - 130 * t);
    return 'rgb(' + r + ',' + g + ',' + b + ')';
  }
  function hex(n) { return '0x' + n.toString(16); }

  function drawScenario(layout, scenario, max) {
    var n = layout.page_count, rows = Math.ceil(n / COLUMNS) || 1;
    var svg = document.createElementNS(SVG, 'svg');
    svg.setAttribute('class', 'kiln-heatmap');
    svg.setAttribute('width', COLUMNS * (CELL + GAP));
    svg.setAttribute('height', rows * (CELL + GAP));
    var ran = 0;
    for (var i = 0; i < n; ++i) {
      var bytes = scenario.heat_bytes[i], count = scenario.heat_counts[i];
      var rect = document.createElementNS(SVG, 'rect');
      rect.setAttribute('class', 'kiln-page' + (bytes > 0 ? ' ran' : ''));
      rect.setAttribute('x', (i % COLUMNS) * (CELL + GAP));
      rect.setAttribute('y', Math.floor(i / COLUMNS) * (CELL + GAP));
      rect.setAttribute('width', CELL);
      rect.setAttribute('height', CELL);
      rect.setAttribute('fill', bytes > 0 ? colour(count, max) : '#e4e4e4');
      var title = document.createElementNS(SVG, 'title');
      title.textContent = 'page ' + hex(layout.first_page + i * layout.page_size) +
          ': ' + bytes + ' bytes of code that ran, count ' + count;
      rect.appendChild(title);
      svg.appendChild(rect);
      if (bytes > 0) ++ran;
      ++cells;
    }
    var expected = scenario.pages.filter(function (p) {
      return p.page_size === layout.page_size;
    })[0];
    if (expected && expected.pages !== ran)
      console.error('kiln-report: ' + layout.name + ' ' + scenario.name + ': ' +
                    ran + ' cells ran, the evaluator counted ' + expected.pages);
    var label = el('div', {}, scenario.name + ': ' + ran + ' of ' + n +
                   ' pages ran' + (expected ? ', lower bound ' +
                   expected.lower_bound : ''));
    var row = el('div', {'class': 'heatmap-row'});
    row.appendChild(label);
    row.appendChild(svg);
    return row;
  }

  function drawLayouts(program, into) {
    var max = 0;
    program.layouts.forEach(function (l) {
      l.scenarios.forEach(function (s) {
        s.heat_counts.forEach(function (c) { if (c > max) max = c; });
      });
    });
    var box = el('div', {'class': 'layouts'});
    program.layouts.forEach(function (l) {
      var col = el('div', {'class': 'layout', 'data-layout': l.name});
      col.appendChild(el('h3', {}, l.name + ': ' + l.description));
      col.appendChild(el('div', {'class': 'mono'}, l.binary + ', ' +
                         l.functions + ' functions, ' + l.page_count +
                         ' pages of ' + l.page_size + ' bytes from ' +
                         hex(l.first_page)));
      l.scenarios.forEach(function (s) { col.appendChild(drawScenario(l, s, max)); });
      box.appendChild(col);
    });
    into.appendChild(box);
    var legend = el('div', {'class': 'legend'}, 'colour: execution count of the ' +
                    'functions on the page, log scale up to ' + max + ' ');
    [0, 0.25, 0.5, 0.75, 1].forEach(function (t) {
      var s = el('span');
      s.style.background = colour(Math.pow(1 + max, t) - 1, max);
      legend.appendChild(s);
    });
    var none = el('span');
    none.style.background = '#e4e4e4';
    legend.appendChild(document.createTextNode(' did not run '));
    legend.appendChild(none);
    into.appendChild(legend);
  }

  // A table of many rows: a filter on the name, an optional group, and a
  // hundred rows at a time.
  function pagedTable(into, rows, columns, groupKey) {
    var controls = el('div', {'class': 'controls'});
    var filter = el('input', {'type': 'search', 'placeholder': 'filter by name'});
    controls.appendChild(filter);
    var group = null;
    if (groupKey) {
      group = el('select');
      var seen = {};
      group.appendChild(el('option', {'value': ''}, 'all groups'));
      rows.forEach(function (r) {
        var g = r[groupKey] || '';
        if (!seen[g]) { seen[g] = true; group.appendChild(el('option', {'value': g}, g)); }
      });
      controls.appendChild(group);
    }
    var more = el('button', {}, 'show more');
    var status = el('span');
    controls.appendChild(more);
    controls.appendChild(status);
    into.appendChild(controls);
    var table = el('table', {'class': 'functions'});
    var head = el('tr');
    columns.forEach(function (c) { head.appendChild(el('th', {}, c.title)); });
    table.appendChild(el('thead')).appendChild(head);
    var body = el('tbody');
    table.appendChild(body);
    into.appendChild(table);
    var shown = ROWS_SHOWN;
    function render() {
      var text = filter.value, g = group ? group.value : '';
      var matching = rows.filter(function (r) {
        return (!text || r.name.indexOf(text) >= 0) && (!g || r[groupKey] === g);
      });
      body.textContent = '';
      matching.slice(0, shown).forEach(function (r) {
        var tr = el('tr');
        columns.forEach(function (c) {
          tr.appendChild(el('td', c.name ? {'class': 'name'} : {}, c.value(r)));
        });
        body.appendChild(tr);
      });
      status.textContent = ' ' + Math.min(shown, matching.length) + ' of ' +
          matching.length + ' shown';
      more.disabled = shown >= matching.length;
    }
    filter.addEventListener('input', function () { shown = ROWS_SHOWN; render(); });
    if (group) group.addEventListener('change', function () { shown = ROWS_SHOWN; render(); });
    more.addEventListener('click', function () { shown += ROWS_SHOWN; render(); });
    render();
  }

  function drawDecisions(program, into) {
    var order = program.decisions.order;
    if (order.status === 'recorded') {
      into.appendChild(el('h3', {}, 'Order and group of each function (' +
                          order.algorithm + ', ' + order.functions.length +
                          ' entries, first to last)'));
      var columns = [
        {title: '#', value: function (r) { return r.index; }},
        {title: 'function', name: true, value: function (r) { return r.name; }},
        {title: 'group', value: function (r) { return r.group || ''; }},
        {title: 'bytes', value: function (r) { return r.size; }}];
      order.scenarios.forEach(function (s, i) {
        columns.push({title: 'count (' + s.name + ')',
                      value: function (r) { return r.counts[i]; }});
      });
      var rows = order.functions.map(function (f, i) {
        return {index: i + 1, name: f.name, group: f.group, size: f.size,
                counts: f.counts};
      });
      pagedTable(into, rows, columns, 'group');
    }
    var split = program.decisions.split;
    if (split.status === 'recorded') {
      into.appendChild(el('h3', {}, 'Split parts (' + split.parts.length + ')'));
      var splitColumns = [
        {title: 'part', name: true, value: function (r) { return r.name; }},
        {title: 'split from', name: true, value: function (r) { return r.split_from; }},
        {title: 'bytes', value: function (r) { return r.size; }},
        {title: 'parent bytes', value: function (r) { return r.parent_size; }},
        {title: 'parent counts', value: function (r) {
          return (r.parent_counts || []).join(' / '); }}];
      pagedTable(into, split.parts, splitColumns, null);
    }
  }

  report.programs.forEach(function (program, i) {
    var heat = document.getElementById('heatmap-' + i);
    heat.textContent = '';
    drawLayouts(program, heat);
    drawDecisions(program, document.getElementById('decisions-' + i));
  });
  document.body.setAttribute('data-page-cells', cells);
  console.log('kiln-report: rendered ' + cells + ' page cells');
})();
)js";

void kiln::writeReportHTML(const json::Value &Report, raw_ostream &OS) {
  const json::Object &R = *Report.getAsObject();
  int64_t PageSize = getInt(R, "page_size");
  OS << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta "
        "charset=\"utf-8\">\n"
        "<title>Kiln report</title>\n<style>"
     << Style << "</style>\n</head>\n<body>\n<h1>Kiln report</h1>\n";
  if (const json::Object *Build = R.getObject("build")) {
    OS << "<p>Workspace <code>";
    writeEscaped(OS, getString(*Build, "workspace"));
    OS << "</code>; optimize switches: ";
    writeEscaped(OS, getString(*Build, "switches"));
    OS << ".</p>\n";
    StringRef Policy = getString(*Build, "compile_policy");
    if (!Policy.empty()) {
      OS << "<p>Compile policy: ";
      writeEscaped(OS, Policy);
      OS << ".</p>\n";
    }
    // Block layout relinks a program after its function-level link: the
    // "after" layout is the relinked program, measured with the
    // function-level profiles, so every cluster of a function that ran
    // counts as run.
    if (const json::Array *Blocks = Build->getArray("block_layout");
        Blocks && !Blocks->empty()) {
      OS << "<p>Block layout (the <i>after</i> layout below is the relinked "
            "program; with function-level profiles, every cluster of a "
            "function that ran counts as run):</p>\n<ul>\n";
      for (const json::Value &B : *Blocks)
        if (std::optional<StringRef> Line = B.getAsString()) {
          OS << "<li><code>";
          writeEscaped(OS, *Line);
          OS << "</code></li>\n";
        }
      OS << "</ul>\n";
    }
    if (const json::Object *T = Build->getObject("steady_training")) {
      OS << "<p>Steady-state training: ran " << getInt(*T, "executed_functions")
         << " of " << getInt(*T, "functions") << " functions, "
         << getInt(*T, "nonzero_counters") << " of " << getInt(*T, "counters")
         << " counters";
      if (T->getBoolean("thin").value_or(false))
        OS << " &mdash; <b>thin training</b>: the code it did not run is "
              "optimized and laid out as code that never runs; add "
              "steady-state runs that do what the program's users do";
      OS << ".</p>\n";
    }
  }
  OS << "<p>Scenarios:";
  if (const json::Array *Scenarios = R.getArray("scenarios"))
    for (const json::Value &S : *Scenarios)
      if (const json::Object *SO = S.getAsObject()) {
        OS << " <code>";
        writeEscaped(OS, getString(*SO, "name"));
        OS << "</code> (";
        writeEscaped(OS, getString(*SO, "kind"));
        OS << ")";
      }
  OS << ". Pages are " << PageSize
     << "-byte pages of code holding a function that ran; the lower bound is "
        "the bytes that ran divided by the page size, rounded up.</p>\n";
  const json::Array *Programs = R.getArray("programs");
  for (size_t I = 0; Programs && I < Programs->size(); ++I) {
    const json::Object *P = (*Programs)[I].getAsObject();
    if (!P)
      continue;
    OS << "<h2>Program <code>";
    writeEscaped(OS, getString(*P, "program"));
    OS << "</code></h2>\n<h3>Summary</h3>\n";
    writeSummaryTable(*P, PageSize, OS);
    StringRef BeforeMissing = getString(*P, "before_missing");
    if (!BeforeMissing.empty()) {
      OS << "<p>No layout before Kiln's order: ";
      writeEscaped(OS, BeforeMissing);
      OS << ".</p>\n";
    }
    OS << "<h3>Decisions</h3>\n";
    writeDecisionList(*P, OS);
    OS << "<h3>Heatmap of the code pages</h3>\n<div id=\"heatmap-" << I
       << "\" class=\"heatmap\"><noscript>The heatmaps and the per-function "
          "tables are drawn by JavaScript; report.json next to this page "
          "holds the same data.</noscript></div>\n<div id=\"decisions-"
       << I << "\"></div>\n";
  }
  // '<' only occurs inside JSON strings, where \u003c means the same: the
  // data cannot end the script element.
  std::string Data = formatv("{0}", Report).str();
  OS << "<script type=\"application/json\" id=\"kiln-report-data\">";
  for (char C : Data) {
    if (C == '<')
      OS << "\\u003c";
    else
      OS << C;
  }
  OS << "</script>\n<script>" << Script << "</script>\n</body>\n</html>\n";
}
