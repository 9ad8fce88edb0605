// evaltally report: draws the overview, the tests x runs heatmap, trends and the comparison
// from the JSON document in #evaltally-data. No dependencies, no network. Text from the data
// is only ever set with textContent (or as an attribute value), never parsed as HTML.
(function () {
  'use strict';

  var data = JSON.parse(document.getElementById('evaltally-data').textContent);
  var $ = function (id) { return document.getElementById(id); };

  var OUT = evaltallyCommon.OUT, CLASSES = evaltallyCommon.CLASSES;
  var CLASS_ORDER = ['flaky', 'fail', 'pass', 'errored', 'none'];

  var state = {
    model: 0, category: -1, search: '', order: 'status',
    show: { flaky: true, fail: true, pass: true, errored: true, none: true },
    sel: null
  };
  var rows = [];
  var HM = { rowH: 18, headH: 92, gutter: 240, cellW: 16, width: 0, canvasH: 0, dpr: 1, labels: {} };

  // ---- helpers -------------------------------------------------------------------------
  var h = evaltallyCommon.h, pct = evaltallyCommon.pct, num = evaltallyCommon.num;
  function share(part, total) { return total ? pct(part / total) : '\u2013'; }
  function seconds(ms) {
    if (ms === null || ms === undefined) return '\u2013';
    return ms >= 1000 ? (ms / 1000).toFixed(2) + ' s' : (Math.round(ms * 10) / 10) + ' ms';
  }
  function plural(n, word) { return num(n) + ' ' + word + (n === 1 ? '' : 's'); }
  function swatch(ch, extra) {
    var o = OUT[ch] || OUT['-'];
    return h('span', { 'class': 'swatch' + (extra ? ' ' + extra : ''), style: 'background:' + o.color + ';color:' + o.ink,
      title: o.name, text: o.glyph });
  }
  function dot(color) { return h('span', { 'class': 'dot', style: 'background:' + color }); }
  function M() { return data.models[state.model]; }
  function runLabel(run) { return run.timestamp ? run.name + ' \u00b7 ' + run.timestamp : run.name; }

  // ---- header and filters --------------------------------------------------------------
  function header() {
    var runs = 0, tests = 0;
    data.models.forEach(function (m) { runs = Math.max(runs, m.runs.length); tests += m.tests.length; });
    $('subtitle').textContent = (data.inputs.length ? data.inputs.join(', ') + ' \u00b7 ' : '') +
      plural(data.models.length, 'model') + ' \u00b7 ' + plural(tests, 'test') + ' \u00b7 up to ' + plural(runs, 'run');
    var sel = $('f-model');
    data.models.forEach(function (m, i) { sel.append(h('option', { value: i, text: m.model })); });
    sel.addEventListener('change', function () { selectModel(Number(sel.value)); });
    var box = $('f-status');
    CLASS_ORDER.forEach(function (c) {
      var input = h('input', { type: 'checkbox', checked: 'checked', value: c });
      input.addEventListener('change', function () { state.show[c] = input.checked; refreshRows(); });
      box.append(h('label', null, input, dot(CLASSES[c].color), CLASSES[c].name));
    });
    var timer = null;
    $('f-search').addEventListener('input', function (ev) {
      clearTimeout(timer);
      timer = setTimeout(function () { state.search = ev.target.value; refreshRows(); }, 120);
    });
    $('f-category').addEventListener('change', function (ev) { setCategory(Number(ev.target.value)); });
    $('f-order').addEventListener('change', function (ev) { state.order = ev.target.value; refreshRows(); });
    $('filters').addEventListener('submit', function (ev) { ev.preventDefault(); });
    $('footer').textContent = 'Written by ' + data.generator + '. Self-contained: this file loads nothing from anywhere.' +
      (data.message_chars ? ' Error messages are cut to ' + data.message_chars + ' characters.' :
        ' Error messages were left out to keep the file small.');
  }

  function selectModel(i) {
    state.model = i; state.category = -1; state.sel = null;
    $('f-model').value = String(i);
    var sel = $('f-category');
    sel.replaceChildren(h('option', { value: -1, text: 'All categories' }));
    M().categories.forEach(function (c, j) {
      sel.append(h('option', { value: j, text: c.category + ' (' + num(c.total + c.unscored_tests) + ')' }));
    });
    HM.labels = {};
    renderOverview(); renderLeast(); renderTrend(); renderCompare();
    refreshRows();
  }

  function setCategory(c) {
    state.category = c;
    $('f-category').value = String(c);
    renderOverview(); renderTrend(); refreshRows();
  }

  // ---- overview ------------------------------------------------------------------------
  function bar(c) {
    var t = c.total || 1;
    return h('div', { 'class': 'bar', title: c.stable_pass + ' stable pass, ' + c.flaky + ' flaky, ' + c.stable_fail + ' stable fail, ' + c.errored + ' errored in most runs' },
      h('span', { style: 'width:' + (100 * c.stable_pass / t) + '%;background:' + CLASSES.pass.color }),
      h('span', { style: 'width:' + (100 * c.flaky / t) + '%;background:' + CLASSES.flaky.color }),
      h('span', { style: 'width:' + (100 * c.stable_fail / t) + '%;background:' + CLASSES.fail.color }),
      h('span', { style: 'width:' + (100 * c.errored / t) + '%;background:' + CLASSES.errored.color }));
  }
  function last(list) { return list && list.length ? list[list.length - 1] : null; }

  function renderOverview() {
    var m = M(), o = m.overall;
    var card = function (label, value, part, color) {
      return h('div', { 'class': 'card' }, h('div', { 'class': 'l' }, color ? dot(color) : null, label),
        h('div', { 'class': 'v' }, num(value), part === null ? null : h('span', { 'class': 'p', text: share(part, o.total) })));
    };
    $('cards').replaceChildren(
      card('runs', m.runs.length, null),
      card('tests', o.total, null),
      card('stable pass', o.stable_pass, o.stable_pass, CLASSES.pass.color),
      card(o.benchmark_flaky ? 'flaky (' + num(o.benchmark_flaky) + ' the benchmark\u2019s)' : 'flaky', o.flaky, o.flaky, CLASSES.flaky.color),
      card('stable fail', o.stable_fail, o.stable_fail, CLASSES.fail.color),
      card('errored in most runs', o.errored, o.errored, CLASSES.errored.color));
    $('estimate').hidden = !m.estimate;
    $('estimate').textContent = m.estimate || '';
    var cell = function (n, total) { return h('td', null, num(n), h('span', { 'class': 'pct', text: share(n, total) })); };
    var head = h('tr', null, ['category', 'runs', 'tests', '', 'stable pass', 'flaky', 'stable fail', 'errored', 'pass^1', 'pass^k', 'pass@k']
      .map(function (t, i) { return h('th', { 'class': i === 3 ? 'l' : null, text: t }); }));
    var body = h('tbody');
    m.categories.forEach(function (c, j) {
      var tr = h('tr', { 'class': 'pick' + (state.category === j ? ' on' : ''), title: 'Show only ' + c.category + ' (click again for all)' },
        h('td', { text: c.category }), h('td', { text: num(c.runs) }), h('td', { text: num(c.total) }),
        h('td', { 'class': 'l' }, bar(c)),
        cell(c.stable_pass, c.total), cell(c.flaky, c.total), cell(c.stable_fail, c.total),
        cell(c.errored, c.total),
        h('td', { text: pct(c.pass_hat_k[0]) }),
        h('td', { text: pct(last(c.pass_hat_k)), title: 'k = ' + c.pass_hat_k.length }),
        h('td', { text: pct(last(c.pass_at_k)), title: 'k = ' + c.pass_at_k.length }));
      tr.addEventListener('click', function () { setCategory(state.category === j ? -1 : j); });
      body.append(tr);
    });
    body.append(h('tr', { 'class': 'total' }, h('td', { text: 'overall' }), h('td', { text: num(m.runs.length) }),
      h('td', { text: num(o.total) }), h('td', { 'class': 'l' }, bar(o)),
      cell(o.stable_pass, o.total), cell(o.flaky, o.total), cell(o.stable_fail, o.total), cell(o.errored, o.total),
      h('td'), h('td'), h('td')));
    $('categories').replaceChildren(h('thead', null, head), body);
    var unjudged = m.unjudged || [];
    $('unjudged').hidden = !unjudged.length;
    $('unjudged').replaceChildren.apply($('unjudged'), unjudged.map(function (line) { return h('li', { text: line }); }));
  }

  // ---- least stable --------------------------------------------------------------------
  function strip(t, here, onpick) {
    var s = h('div', { 'class': 'strip' });
    for (var i = 0; i < t.o.length; i++) {
      var sw = swatch(t.o[i], i === here ? 'here' : '');
      sw.setAttribute('title', M().runs[i].name + ': ' + (OUT[t.o[i]] || OUT['-']).name);
      if (onpick) sw.addEventListener('click', onpick.bind(null, i));
      s.append(sw);
    }
    return s;
  }
  function wilson(t) { return t.w ? pct(t.w[0]) + ' \u2013 ' + pct(t.w[1]) : '\u2013'; }

  function renderLeast() {
    var m = M();
    var table = $('least');
    if (!m.least_stable.length) {
      table.replaceChildren(h('tbody', null, h('tr', null, h('td', { 'class': 'muted', text: 'No flaky tests.' }))));
      return;
    }
    var head = h('tr', null, ['test', 'category', 'outcomes, oldest run first', 'passed', 'pass rate', 'Wilson 95%', 'flip rate']
      .map(function (t, i) { return h('th', { 'class': i < 3 ? 'l' : null, text: t }); }));
    var body = h('tbody');
    m.least_stable.forEach(function (ti) {
      var t = m.tests[ti];
      var tr = h('tr', { 'class': 'pick', title: 'Show in the heatmap' },
        h('td', { 'class': 'mono', text: t.id + (t.b ? ' (the benchmark\u2019s: flaky under most models)' : '') }),
        h('td', { 'class': 'l', text: m.categories[t.c].category }),
        h('td', { 'class': 'l' }, strip(t, -1)), h('td', { text: t.n[0] + ' of ' + t.n[1] }),
        h('td', { text: share(t.n[0], t.n[1]) }), h('td', { text: wilson(t) }), h('td', { text: pct(t.f) }));
      tr.addEventListener('click', function () { focusTest(ti); });
      body.append(tr);
    });
    table.replaceChildren(h('thead', null, head), body);
  }

  function focusTest(ti) {
    var t = M().tests[ti];
    state.category = -1; $('f-category').value = '-1';
    state.search = t.id; $('f-search').value = t.id;
    state.show[t.s] = true;
    Array.prototype.forEach.call($('f-status').querySelectorAll('input'), function (i) { if (i.value === t.s) i.checked = true; });
    refreshRows();
    var col = t.o.search(/[FEU]/);
    select(ti, col < 0 ? 0 : col);
    $('heatmap-section').scrollIntoView({ block: 'start' });
  }

  // ---- heatmap -------------------------------------------------------------------------
  function buildRows() {
    var m = M(), q = state.search.trim().toLowerCase(), idx = [];
    m.tests.forEach(function (t, i) {
      if (!state.show[t.s]) return;
      if (state.category >= 0 && t.c !== state.category) return;
      if (q && t.id.toLowerCase().indexOf(q) < 0) return;
      idx.push(i);
    });
    // Tests come ordered by status, category, id; by category first is a stable re-sort.
    if (state.order === 'category') idx.sort(function (a, b) { return m.tests[a].c - m.tests[b].c || a - b; });
    rows = [];
    var key = null, group = null;
    idx.forEach(function (i) {
      var t = m.tests[i];
      var k = t.s + '|' + t.c;
      if (k !== key) {
        key = k;
        group = { h: true, s: t.s, c: t.c, n: 0 };
        rows.push(group);
      }
      group.n++;
      rows.push({ t: i });
    });
  }

  function testRowCount() { return rows.filter(function (r) { return !r.h; }).length; }

  function refreshRows() {
    buildRows();
    layout();
    var m = M(), n = testRowCount();
    $('hm-count').textContent = 'Showing ' + num(n) + ' of ' + plural(m.tests.length, 'test') + ' \u00d7 ' +
      plural(m.runs.length, 'run') + ' = ' + plural(n * m.runs.length, 'cell') + '. Columns: runs, oldest on the left' +
      (m.timed ? ' (by timestamp).' : ' (by name: the runs record no time).');
    draw();
    renderDetail();
  }

  function layout() {
    var m = M(), canvas = $('hm'), scroll = $('hm-scroll');
    var avail = Math.max(320, scroll.clientWidth);
    var cols = Math.max(1, m.runs.length);
    HM.gutter = Math.round(Math.min(300, Math.max(170, avail * 0.3)));
    HM.cellW = Math.max(7, Math.min(28, Math.floor((avail - HM.gutter - 16) / cols)));
    HM.width = Math.max(avail, HM.gutter + cols * HM.cellW + 16);
    var total = HM.headH + rows.length * HM.rowH + 6;
    HM.canvasH = Math.min(total, 620);
    HM.dpr = window.devicePixelRatio || 1;
    canvas.style.width = HM.width + 'px';
    canvas.style.height = HM.canvasH + 'px';
    canvas.width = Math.round(HM.width * HM.dpr);
    canvas.height = Math.round(HM.canvasH * HM.dpr);
    $('hm-spacer').style.height = (total - HM.canvasH) + 'px';
    HM.labels = {};
  }

  function fitText(ctx, text, width) {
    if (ctx.measureText(text).width <= width) return text;
    var lo = 0, hi = text.length;
    while (lo < hi) {
      var mid = (lo + hi + 1) >> 1;
      if (ctx.measureText(text.slice(0, mid) + '\u2026').width <= width) lo = mid; else hi = mid - 1;
    }
    return text.slice(0, lo) + '\u2026';
  }

  var FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif';
  var MONO = 'ui-monospace, Menlo, Consolas, "DejaVu Sans Mono", monospace';

  function draw() {
    var m = M(), canvas = $('hm'), ctx = canvas.getContext('2d');
    if (!ctx) return;
    var scrollTop = $('hm-scroll').scrollTop, rowH = HM.rowH, cw = HM.cellW, g = HM.gutter;
    ctx.setTransform(HM.dpr, 0, 0, HM.dpr, 0, 0);
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, HM.width, HM.canvasH);
    var first = Math.floor(scrollTop / rowH), off = scrollTop - first * rowH;
    var count = Math.ceil((HM.canvasH - HM.headH) / rowH) + 1;
    ctx.save();
    ctx.beginPath();
    ctx.rect(0, HM.headH, HM.width, HM.canvasH - HM.headH);
    ctx.clip();
    ctx.textBaseline = 'middle';
    for (var r = first; r < Math.min(rows.length, first + count); r++) {
      var y = HM.headH + (r - first) * rowH - off, row = rows[r];
      if (row.h) {
        ctx.fillStyle = '#f3f5f8';
        ctx.fillRect(0, y, HM.width, rowH);
        ctx.fillStyle = CLASSES[row.s].color;
        ctx.fillRect(10, y + 5, 8, 8);
        ctx.fillStyle = '#1d2330';
        ctx.font = '600 11.5px ' + FONT;
        var cat = m.categories[row.c].category, cls = CLASSES[row.s].name;
        var label = (state.order === 'status' ? cls + ' \u00b7 ' + cat : cat + ' \u00b7 ' + cls) + '  (' + row.n + ')';
        ctx.fillText(fitText(ctx, label, HM.width - 40), 24, y + rowH / 2 + 0.5);
        continue;
      }
      var t = m.tests[row.t];
      var hot = state.sel && state.sel.t === row.t;
      if (hot) { ctx.fillStyle = '#e8f1fa'; ctx.fillRect(0, y, g - 4, rowH); }
      ctx.font = '11.5px ' + MONO;
      ctx.fillStyle = '#1d2330';
      var text = HM.labels[row.t];
      if (text === undefined) { text = fitText(ctx, t.id, g - 28); HM.labels[row.t] = text; }
      ctx.textAlign = 'right';
      ctx.fillText(text, g - 8, y + rowH / 2 + 0.5);
      ctx.textAlign = 'left';
      for (var c = 0; c < t.o.length; c++) {
        var o = OUT[t.o[c]] || OUT['-'], x = g + c * cw;
        ctx.fillStyle = o.color;
        ctx.fillRect(x + 1, y + 1, cw - 2, rowH - 2);
        if (o.glyph && cw >= 11) {
          ctx.fillStyle = o.ink;
          ctx.font = '700 10px ' + FONT;
          ctx.textAlign = 'center';
          ctx.fillText(o.glyph, x + cw / 2, y + rowH / 2 + 0.5);
          ctx.textAlign = 'left';
        }
      }
      if (hot) {
        ctx.strokeStyle = '#1d2330';
        ctx.lineWidth = 2;
        ctx.strokeRect(g + state.sel.col * cw, y, cw, rowH);
      }
    }
    ctx.restore();
    drawHead(m, ctx);
  }

  function drawHead(m, ctx) {
    var cw = HM.cellW, g = HM.gutter;
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, HM.width, HM.headH);
    ctx.fillStyle = '#e2e5ea';
    ctx.fillRect(0, HM.headH - 1, HM.width, 1);
    ctx.fillStyle = '#5d6675';
    ctx.font = '600 11.5px ' + FONT;
    ctx.textAlign = 'right';
    ctx.textBaseline = 'alphabetic';
    ctx.fillText('test', g - 8, HM.headH - 8);
    ctx.textAlign = 'left';
    ctx.font = '11px ' + FONT;
    var every = Math.max(1, Math.ceil(13 / cw));
    for (var c = 0; c < m.runs.length; c += every) {
      var x = g + c * cw + cw / 2 + 3;
      ctx.save();
      ctx.translate(x, HM.headH - 6);
      ctx.rotate(-Math.PI / 3);
      var name = m.runs[c].name;
      ctx.fillStyle = state.sel && state.sel.col === c ? '#1d2330' : '#5d6675';
      ctx.fillText(fitText(ctx, name, HM.headH * 1.05), 0, 0);
      ctx.restore();
    }
  }

  function hit(ev) {
    var rect = $('hm').getBoundingClientRect();
    var x = ev.clientX - rect.left, y = ev.clientY - rect.top;
    var m = M(), col = -1;
    if (x >= HM.gutter && x < HM.gutter + m.runs.length * HM.cellW) col = Math.floor((x - HM.gutter) / HM.cellW);
    if (y < HM.headH) return { head: true, col: col };
    var r = Math.floor((y - HM.headH + $('hm-scroll').scrollTop) / HM.rowH);
    return { row: r >= 0 && r < rows.length ? rows[r] : null, col: col };
  }

  function select(ti, col) {
    state.sel = { t: ti, col: col };
    var r = -1;
    for (var i = 0; i < rows.length; i++) if (!rows[i].h && rows[i].t === ti) { r = i; break; }
    if (r >= 0) {
      var scroll = $('hm-scroll'), top = r * HM.rowH, view = HM.canvasH - HM.headH;
      if (top < scroll.scrollTop) scroll.scrollTop = Math.max(0, top - HM.rowH);
      else if (top + HM.rowH > scroll.scrollTop + view) scroll.scrollTop = top + 2 * HM.rowH - view;
    }
    draw();
    renderDetail();
  }

  function heatmapEvents() {
    var canvas = $('hm'), tip = $('tooltip'), pending = false;
    $('hm-scroll').addEventListener('scroll', function () {
      if (pending) return;
      pending = true;
      requestAnimationFrame(function () { pending = false; draw(); });
    });
    canvas.addEventListener('click', function (ev) {
      var at = hit(ev);
      if (at.row && !at.row.h && at.col >= 0) select(at.row.t, at.col);
    });
    canvas.addEventListener('mousemove', function (ev) {
      var at = hit(ev), m = M(), text = null;
      if (at.head && at.col >= 0) {
        var run = m.runs[at.col];
        text = run.name + (run.timestamp ? '\n' + run.timestamp : '') + (run.branch ? '\nbranch ' + run.branch : '');
      } else if (at.row && !at.row.h) {
        var t = m.tests[at.row.t];
        text = t.id + '\n' + m.categories[t.c].category + ' \u00b7 ' + CLASSES[t.s].name;
        if (at.col >= 0) {
          var d = detailOf(t, at.col);
          text += '\n' + m.runs[at.col].name + ': ' + (OUT[t.o[at.col]] || OUT['-']).name +
            (d && d[1] !== null ? ' (' + m.error_types[d[1]] + ')' : '');
        }
      }
      if (text === null) { tip.hidden = true; return; }
      tip.textContent = text;
      tip.hidden = false;
      var x = ev.clientX + 14, y = ev.clientY + 14;
      if (x + tip.offsetWidth > window.innerWidth - 8) x = ev.clientX - tip.offsetWidth - 10;
      if (y + tip.offsetHeight > window.innerHeight - 8) y = ev.clientY - tip.offsetHeight - 10;
      tip.style.left = x + 'px';
      tip.style.top = y + 'px';
    });
    canvas.addEventListener('mouseleave', function () { tip.hidden = true; });
    canvas.addEventListener('keydown', function (ev) {
      var m = M(), tests = rows.filter(function (r) { return !r.h; });
      if (!tests.length) return;
      var at = state.sel ? tests.findIndex(function (r) { return r.t === state.sel.t; }) : -1;
      var col = state.sel ? state.sel.col : 0;
      var moves = { ArrowDown: [1, 0], ArrowUp: [-1, 0], ArrowRight: [0, 1], ArrowLeft: [0, -1] };
      var mv = moves[ev.key];
      if (!mv) return;
      ev.preventDefault();
      var next = Math.max(0, Math.min(tests.length - 1, at < 0 ? 0 : at + mv[0]));
      col = Math.max(0, Math.min(m.runs.length - 1, col + mv[1]));
      select(tests[next].t, col);
    });
    var resize = null;
    window.addEventListener('resize', function () {
      clearTimeout(resize);
      resize = setTimeout(function () { layout(); draw(); }, 100);
    });
  }

  function detailOf(t, col) {
    if (!t.d) return null;
    for (var i = 0; i < t.d.length; i++) if (t.d[i][0] === col) return t.d[i];
    return null;
  }

  function renderDetail() {
    var box = $('detail');
    if (!state.sel) {
      box.replaceChildren(h('h3', { text: 'Cell details' }),
        h('p', { 'class': 'sub muted', text: 'Click a cell, or focus the heatmap and use the arrow keys, to see that test in that run: ' +
          'its outcome, error type and message, tokens and latency, and how it did across runs.' }));
      return;
    }
    var m = M(), t = m.tests[state.sel.t], col = state.sel.col, run = m.runs[col], ch = t.o[col], d = detailOf(t, col);
    var o = OUT[ch] || OUT['-'];
    var dl = h('dl');
    var item = function (label, value) { if (value !== null && value !== undefined) dl.append(h('dt', { text: label }), h('dd', null, value)); };
    item('run', runLabel(run));
    if (run.branch || run.commit) item('git', [run.branch, run.commit].filter(Boolean).join(' @ '));
    item('outcome', h('span', null, swatch(ch), ' ', o.name));
    if (d) {
      if (d[1] !== null) item('error type', h('code', { text: m.error_types[d[1]] }));
      if (d[2] !== null) item('message', h('pre', { text: m.messages[d[2]] }));
      if (d[3] !== null || d[4] !== null) item('tokens', num(d[3]) + ' in / ' + num(d[4]) + ' out');
      if (d[5] !== null) item('latency', seconds(d[5]));
    } else if (ch === '-') {
      item('note', 'not in this run\u2019s results');
    } else if (ch === 'P') {
      item('note', 'details are kept for the cells that did not pass');
    }
    var judged = t.n[1];
    var stats = h('dl');
    var stat = function (label, value) { stats.append(h('dt', { text: label }), h('dd', null, value)); };
    stat('status', h('span', { 'class': 'badge', style: 'background:' + CLASSES[t.s].color + '22;color:#1d2330', text: CLASSES[t.s].name }));
    stat('passed', judged ? t.n[0] + ' of ' + plural(judged, 'judged run') + ' (' + share(t.n[0], judged) + ')' : 'no run judged it');
    if (t.n[2]) stat('errored', plural(t.n[2], 'run'));
    if (t.w) stat('Wilson 95%', wilson(t));
    if (judged > 1) stat('flip rate', pct(t.f));
    box.replaceChildren(h('h3', { text: t.id }),
      h('p', { 'class': 'sub muted', text: m.model + ' \u00b7 ' + m.categories[t.c].category }),
      dl, h('h4', { text: 'Across runs' }), strip(t, col, function (c) { select(state.sel.t, c); }), stats);
  }

  function legend() {
    var box = $('legend');
    ['P', 'F', 'E', 'U', '-'].forEach(function (ch) {
      box.append(h('span', { 'class': 'key' }, swatch(ch), OUT[ch].name));
    });
  }

  // ---- trend ---------------------------------------------------------------------------
  function renderTrend() {
    var m = M(), sec = $('trend-section'), box = $('trend');
    sec.hidden = !m.timed || !m.trend || !m.trend.length;
    if (sec.hidden) { box.replaceChildren(); return; }
    var first = m.runs[0], lastRun = m.runs[m.runs.length - 1];
    var chart = function (series, wide) {
      var cols = h('div', { 'class': 'cols' });
      series.rates.forEach(function (r, i) {
        var run = m.runs[i];
        cols.append(h('span', { 'class': r === null ? 'gap' : null, style: 'height:' + (r === null ? 0 : Math.max(1, 100 * r)) + '%',
          title: runLabel(run) + '\n' + (r === null ? 'no test judged' : pct(r) + ' of ' + plural(series.judged[i], 'test') + ' judged') }));
      });
      var latest = null;
      for (var i = series.rates.length - 1; i >= 0; i--) if (series.rates[i] !== null) { latest = series.rates[i]; break; }
      return h('div', { 'class': 'chart' + (wide ? ' wide' : '') },
        h('div', { 'class': 'head' }, h('b', { text: series.category === null ? 'all categories' : series.category }),
          h('span', { 'class': 'muted', text: 'latest ' + pct(latest) })),
        cols,
        h('div', { 'class': 'axis' }, h('span', { text: (first.timestamp || first.name).slice(0, 10) }),
          h('span', { text: '0\u2013100%' }), h('span', { text: (lastRun.timestamp || lastRun.name).slice(0, 10) })));
    };
    var kids = [chart(m.trend[0], true)];
    m.trend.slice(1).forEach(function (s, j) {
      if (state.category < 0 || state.category === j) kids.push(chart(s, false));
    });
    box.replaceChildren.apply(box, kids);
  }

  // ---- compare -------------------------------------------------------------------------
  function renderCompare() {
    var cmp = data.compare, sec = $('compare-section'), box = $('compare');
    sec.hidden = !cmp;
    if (!cmp) return;
    var side = function (runs) { return runs.length === 1 ? runs[0] : runs.length + ' runs (' + runs[0] + ' \u2026 ' + runs[runs.length - 1] + ')'; };
    var kids = [h('p', { 'class': 'cmp-head' }, h('b', { text: 'base ' }), side(cmp.base_runs), ' \u2192 ', h('b', { text: 'new ' }), side(cmp.new_runs),
      h('span', { 'class': 'muted', text: ' \u00b7 ' + (cmp.mode === 'runs' ? 'single runs' : 'groups: consistent regressions and improvements') +
        ' \u00b7 p-values: ' + cmp.test + '; bold when below 0.05' }))];
    var models = cmp.models.filter(function (x) { return x.model === M().model; });
    if (!models.length) models = cmp.models;
    models.forEach(function (mc) {
      var head = h('tr', null, ['category', 'base', 'new', 'change', 'common', 'regressions', 'improvements', 'p-value']
        .map(function (t) { return h('th', { text: t }); }));
      var body = h('tbody');
      var row = function (name, s, total) {
        var change = s.difference;
        return h('tr', { 'class': total ? 'total' : null }, h('td', { text: name }), h('td', { text: pct(s.base_rate) }), h('td', { text: pct(s.new_rate) }),
          h('td', { 'class': change > 0 ? 'up' : change < 0 ? 'down' : null, text: (change > 0 ? '+' : '') + (100 * change).toFixed(1) + ' pt',
            title: s.interval ? '95% interval ' + (100 * s.interval[0]).toFixed(1) + ' to ' + (100 * s.interval[1]).toFixed(1) + ' pt' : null }),
          h('td', { text: num(s.common) }),
          h('td', { 'class': s.regressions ? 'down' : null, text: num(s.regressions) + (s.flaky_regressions ? ' (+' + s.flaky_regressions + ' flaky)' : '') }),
          h('td', { 'class': s.improvements ? 'up' : null, text: num(s.improvements) + (s.flaky_improvements ? ' (+' + s.flaky_improvements + ' flaky)' : '') }),
          h('td', { 'class': s.significant ? 'sig' : null, text: s.p_value.toFixed(3) }));
      };
      mc.categories.forEach(function (c) { body.append(row(c.category, c, false)); });
      body.append(row('overall', mc.overall, true));
      kids.push(h('h3', { text: mc.model, style: 'margin:14px 0 6px' }), h('div', { 'class': 'table-wrap' }, h('table', { 'class': 'grid' }, h('thead', null, head), body)));
      mc.categories.forEach(function (c) {
        if (!c.regressions.length && !c.improvements.length) return;
        var byType = function (m) {
          var keys = Object.keys(m).sort(function (a, b) { return m[b] - m[a] || (a < b ? -1 : 1); });
          return keys.length ? h('ul', { 'class': 'errs' }, keys.map(function (k) { return h('li', null, h('code', { text: k }), ': ' + m[k]); })) : null;
        };
        kids.push(h('details', { 'class': 'ids' },
          h('summary', null, h('b', { text: c.category }), ': ' + plural(c.regressions.length, 'regression') + ', ' + plural(c.improvements.length, 'improvement')),
          c.regressions.length ? [h('div', { text: 'Regressions by the error type they fail with now:' }), byType(c.regressions_by_error_type),
            h('div', null, c.regressions.map(function (id) { return h('code', { text: id }); }))] : null,
          c.improvements.length ? [h('div', { text: 'Improvements by the error type they failed with before:' }), byType(c.improvements_by_error_type),
            h('div', null, c.improvements.map(function (id) { return h('code', { text: id }); }))] : null));
      });
    });
    box.replaceChildren.apply(box, kids);
  }

  function renderDiagnostics() {
    var d = data.diagnostics, sec = $('diagnostics-section');
    sec.hidden = !(d.warnings + d.errors);
    if (sec.hidden) return;
    $('diagnostics').replaceChildren(
      h('p', { text: plural(d.warnings, 'warning') + ' and ' + plural(d.errors, 'error') + ' while reading' +
        (d.listed.length < d.warnings + d.errors ? '; the first ' + d.listed.length + ':' : ':') }),
      h('pre', { text: d.listed.join('\n') }));
  }

  // ---- self test: `#selftest=ROW,COL` clicks the heatmap cell of the ROW-th test row (0: the
  // first, a flaky test when there is one) in column COL of the first model, and writes what
  // happened into #selftest, for a headless browser's --dump-dom.
  function selftest() {
    var at = /selftest=(\d+),(\d+)/.exec(location.hash);
    if (!at) return;
    var want = Number(at[1]), col = Number(at[2]), out = { models: [], cells: 0, clicked: null, detail: null };
    data.models.forEach(function (m, i) {
      selectModel(i);
      var n = testRowCount();
      out.models.push({ model: m.model, tests: n, runs: m.runs.length, cells: n * m.runs.length, unjudged: $('unjudged').innerText });
      out.cells += n * m.runs.length;
    });
    if (data.models.length) {
      selectModel(0);
      var r = -1, seen = -1;
      for (var i = 0; i < rows.length; i++) if (!rows[i].h && ++seen === want) { r = i; break; }
      if (r >= 0) {
        var scroll = $('hm-scroll');
        scroll.scrollTop = Math.max(0, r * HM.rowH - HM.rowH);
        draw();
        var rect = $('hm').getBoundingClientRect();
        var x = rect.left + HM.gutter + col * HM.cellW + HM.cellW / 2;
        var y = rect.top + HM.headH + r * HM.rowH - scroll.scrollTop + HM.rowH / 2;
        $('hm').dispatchEvent(new MouseEvent('click', { clientX: x, clientY: y, bubbles: true }));
        if (state.sel) {
          var t = M().tests[state.sel.t];
          out.clicked = { test: t.id, status: t.s, run: M().runs[state.sel.col].name, outcome: (OUT[t.o[state.sel.col]] || OUT['-']).name };
        }
        out.detail = $('detail').innerText;
        // The filters: the clicked test's category, then a search for its id.
        var t0 = M().tests[state.sel ? state.sel.t : 0];
        setCategory(t0.c);
        out.category = { category: M().categories[t0.c].category, rows: testRowCount() };
        setCategory(-1);
        $('f-search').value = t0.id;
        state.search = t0.id;
        refreshRows();
        out.search = { text: t0.id, rows: testRowCount() };
        state.search = '';
        $('f-search').value = '';
        refreshRows();
      }
    }
    $('selftest').textContent = JSON.stringify(out);
  }

  // ---- start ---------------------------------------------------------------------------
  header();
  legend();
  heatmapEvents();
  renderDiagnostics();
  if (data.models.length) {
    selectModel(0);
  } else {
    $('cards').replaceChildren(h('p', { 'class': 'muted', text: 'No runs.' }));
  }
  selftest();
}());
