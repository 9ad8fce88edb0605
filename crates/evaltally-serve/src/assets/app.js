// evaltally serve: the live page. It asks its server for what is on screen only (a window of
// the heatmap, a page of a list), keeps the whole view state in the URL, and fetches again
// when the server says a load ended. No dependencies, nothing loaded from elsewhere; text
// from the data is only ever set with textContent, never parsed as HTML.
(function () {
  'use strict';

  var $ = function (id) { return document.getElementById(id); };
  var OUT = evaltallyCommon.OUT, CLASSES = evaltallyCommon.CLASSES;
  var STATUS = {
    passed: '#009e73', failed: '#d55e00', errored: '#cc79a7', unscored: '#8a919c', not_run: '#b8bec8'
  };
  var TREND = {
    improving: '#009e73', degrading: '#d55e00', flaky: '#e69f00', 'stable-pass': '#56b4e9', 'stable-fail': '#8a919c'
  };
  var SERIES = ['#1d2330', '#0072b2', '#e69f00', '#009e73', '#cc79a7', '#d55e00', '#56b4e9', '#f0e442', '#8a919c'];
  // The URL's parameters: the whole view state.
  var KEYS = ['tab', 'model', 'category', 'status', 'branch', 'tier', 'since', 'until', 'q', 'test', 'cat', 'run',
    'base', 'new', 'page', 'last', 'trend'];
  var RUN_KEYS = ['branch', 'tier', 'since', 'until'];
  var TEST_KEYS = ['category', 'status', 'q'];
  var S = {};
  var summary = null;
  var rendering = 0;
  window.evaltallyOpenedAt = Date.now();

  // ---- helpers -------------------------------------------------------------------------
  var h = evaltallyCommon.h, pct = evaltallyCommon.pct, num = evaltallyCommon.num;
  function usd(n) { return n === null || n === undefined ? '\u2013' : '$' + Number(n).toFixed(n < 1 ? 4 : 2); }
  function plural(n, word) { return num(n) + ' ' + word + (n === 1 ? '' : 's'); }
  function dot(color) { return h('span', { 'class': 'dot', style: 'background:' + color }); }
  function swatch(ch) {
    var o = OUT[ch] || OUT['-'];
    return h('span', { 'class': 'swatch', style: 'background:' + o.color + ';color:' + o.ink, title: o.name, text: o.glyph });
  }
  function classTag(s) {
    var c = CLASSES[s] || CLASSES.none;
    return h('span', { 'class': 'class' }, dot(c.color), c.name);
  }
  function card(value, label, color) {
    return h('div', { 'class': 'card' }, h('div', { 'class': 'v', text: value }),
      h('div', { 'class': 'l' }, color ? dot(color) : null, label));
  }
  function table(el, head, rows) {
    el.replaceChildren(h('thead', null, h('tr', null, head.map(function (c, i) {
      return h('th', { 'class': i === 0 || /^(test|run|category|class|status|when|from|latest message|runs \(oldest first\))$/.test(c) ? 'l' : null, text: c });
    }))), h('tbody', null, rows));
  }
  function empty(el, text) { el.replaceChildren(h('tr', null, h('td', { 'class': 'empty', text: text }))); }

  // ---- state in the URL ----------------------------------------------------------------
  function readUrl() {
    var p = new URLSearchParams(location.search);
    S = {};
    KEYS.forEach(function (k) { var v = p.get(k); if (v) S[k] = v; });
    if (!S.tab) S.tab = 'overview';
  }
  function writeUrl(push) {
    var p = new URLSearchParams();
    KEYS.forEach(function (k) { if (S[k]) p.set(k, S[k]); });
    var url = '?' + p.toString();
    if (url !== location.search) history[push ? 'pushState' : 'replaceState'](null, '', url);
  }
  // Changes the view state; a change of model or filters starts the lists at their first page.
  function go(changes, push) {
    var filters = false;
    Object.keys(changes).forEach(function (k) {
      if (RUN_KEYS.concat(TEST_KEYS, ['model']).indexOf(k) >= 0 && (S[k] || '') !== (changes[k] || '')) filters = true;
      if (changes[k]) S[k] = String(changes[k]); else delete S[k];
    });
    if (filters && !('page' in changes)) delete S.page;
    writeUrl(push);
    refresh();
  }
  function params(keys, extra) {
    var p = new URLSearchParams();
    if (S.model) p.set('model', S.model);
    keys.forEach(function (k) { if (S[k]) p.set(k, S[k]); });
    Object.keys(extra || {}).forEach(function (k) { if (extra[k] !== null && extra[k] !== undefined) p.set(k, extra[k]); });
    return p;
  }
  function api(path, p) {
    return fetch('/api/' + path + '?' + p.toString(), { credentials: 'same-origin' }).then(function (r) {
      return r.json().then(function (body) {
        if (!r.ok) throw new Error(body && body.error ? body.error : r.status + ' ' + r.statusText);
        return body;
      });
    });
  }
  function testLink(id, category, run) {
    return h('a', { 'class': 'test', href: '?' + new URLSearchParams({ tab: 'test', model: S.model || '', test: id, cat: category || '', run: run || '' }).toString(),
      text: id, onclick: function (ev) { ev.preventDefault(); openTest(id, category, run); } });
  }
  function openTest(id, category, run) { go({ tab: 'test', test: id, cat: category || '', run: run || '' }, true); }

  // ---- header, filters, live status ----------------------------------------------------
  function fillSelect(sel, first, values, current) {
    var opts = [h('option', { value: '', text: first })];
    values.forEach(function (v) { opts.push(h('option', { value: v, text: v })); });
    sel.replaceChildren.apply(sel, opts);
    sel.value = current || '';
  }
  function header() {
    var d = summary;
    var models = d.models || [];
    var runs = models.reduce(function (n, m) { return n + m.runs; }, 0);
    $('subtitle').textContent = (d.inputs && d.inputs.length ? d.inputs.join(', ') + ' \u00b7 ' : '') +
      plural(models.length, 'model') + ' \u00b7 ' + plural(runs, 'run') + (models.length > 1 ? ' in all' : '');
    var ms = $('f-model');
    ms.replaceChildren.apply(ms, models.map(function (m) { return h('option', { value: m.model, text: m.model + ' (' + plural(m.runs, 'run') + ')' }); }));
    ms.value = d.model || '';
    fillSelect($('f-category'), 'All categories', (d.categories || []).map(function (c) { return c.category; }), S.category);
    var ch = d.choices || { branches: [], tiers: [] };
    fillSelect($('f-branch'), 'Any branch', ch.branches, S.branch);
    fillSelect($('f-tier'), 'Any tier', ch.tiers, S.tier);
    $('f-status').value = S.status || '';
    $('f-since').value = S.since || '';
    $('f-until').value = S.until || '';
    if (document.activeElement !== $('f-q')) $('f-q').value = S.q || '';
    var dl = $('cmp-runs');
    dl.replaceChildren.apply(dl, (ch.runs || []).map(function (r) { return h('option', { value: r }); }));
    var st = d.status || {};
    var banner = $('banner');
    var text = null, error = false;
    if (st.error) { text = 'The last load failed: ' + st.error + (d.generation ? ' (showing the one before)' : ''); error = true; }
    else if (!d.generation) text = 'Reading the runs\u2026';
    else if (!models.length) text = 'No runs in ' + (d.inputs || []).join(', ') + ' yet: the page shows them as they land.';
    banner.hidden = !text;
    banner.className = 'note' + (error ? ' error' : '');
    banner.textContent = text || '';
    var when = st.loaded_at ? new Date(st.loaded_at * 1000).toLocaleTimeString() : '\u2013';
    $('live-text').textContent = (st.loading ? 'loading\u2026' : 'live') + ' \u00b7 load ' + d.generation + ' at ' + when +
      ' in ' + d.load_ms + ' ms \u00b7 ' + (st.polling ? 'checking every 2 s' : 'watching ' + plural(st.watching || 0, 'folder'));
    $('pulse').className = 'pulse ' + (st.loading ? 'busy' : 'on');
    $('footer').textContent = (d.generator || 'evaltally') + ' \u00b7 read-only \u00b7 this page loads nothing from anywhere but its server.';
    document.querySelectorAll('#tabs a').forEach(function (a) { a.className = a.dataset.tab === S.tab ? 'on' : ''; });
    $('tab-test').hidden = !S.test;
  }
  function bindFilters() {
    $('filters').addEventListener('submit', function (ev) { ev.preventDefault(); });
    $('f-model').addEventListener('change', function (ev) { go({ model: ev.target.value, category: '', base: '', 'new': '' }, true); });
    [['f-category', 'category'], ['f-status', 'status'], ['f-branch', 'branch'], ['f-tier', 'tier'], ['f-since', 'since'], ['f-until', 'until']]
      .forEach(function (pair) {
        $(pair[0]).addEventListener('change', function (ev) { var c = {}; c[pair[1]] = ev.target.value; go(c, true); });
      });
    var timer = null;
    $('f-q').addEventListener('input', function (ev) {
      clearTimeout(timer);
      timer = setTimeout(function () { go({ q: ev.target.value.trim() }, false); }, 200);
    });
    document.querySelectorAll('#tabs a').forEach(function (a) {
      a.addEventListener('click', function (ev) { ev.preventDefault(); go({ tab: a.dataset.tab, page: '' }, true); });
    });
    window.addEventListener('popstate', function () { readUrl(); refresh(); });
  }

  // ---- loading and the views -----------------------------------------------------------
  function refresh() {
    var ticket = ++rendering;
    document.body.dataset.ready = '';
    return api('summary', params(RUN_KEYS)).then(function (d) {
      if (ticket !== rendering) return;
      summary = d;
      if (!S.model && d.model) S.model = d.model;
      header();
      document.querySelectorAll('main > section').forEach(function (s) { s.hidden = s.dataset.view !== S.tab; });
      var view = VIEWS[S.tab] || VIEWS.overview;
      return Promise.resolve(d.model ? view() : null).then(function () {
        if (ticket !== rendering) return;
        document.body.dataset.generation = String(d.generation);
        document.body.dataset.ready = '1';
      });
    }).catch(function (e) {
      var banner = $('banner');
      banner.hidden = false; banner.className = 'note error'; banner.textContent = String(e.message || e);
      document.body.dataset.ready = 'error';
    });
  }

  function overview() {
    var d = summary, o = d.overall || {};
    var share = function (n) { return o.total ? ' (' + pct(n / o.total) + ')' : ''; };
    $('ov-cards').replaceChildren(
      card(num(o.total), 'tests'),
      card(num(o.stable_pass) + share(o.stable_pass), 'stable pass', CLASSES.pass.color),
      card(num(o.flaky) + share(o.flaky), 'flaky', CLASSES.flaky.color),
      card(num(o.stable_fail) + share(o.stable_fail), 'stable fail', CLASSES.fail.color),
      card(num(o.errored), 'errored in most runs', CLASSES.errored.color),
      card(num(d.runs.picked) + (d.runs.picked !== d.runs.total ? ' of ' + num(d.runs.total) : ''), 'runs'));
    $('ov-estimate').hidden = !d.estimate;
    $('ov-estimate').textContent = d.estimate || '';
    table($('ov-categories'), ['category', 'runs', 'tests', 'stable pass', 'flaky', 'stable fail', 'errored', 'only unscored', 'pass^1', 'pass^k'],
      d.categories.map(function (c) {
        var k = c.pass_hat_k.length;
        return h('tr', { 'class': 'pick', title: 'Show its tests in the heatmap',
          onclick: function () { go({ category: c.category, tab: 'heatmap' }, true); } },
          h('td', { text: c.category }), h('td', { text: num(c.runs) }), h('td', { text: num(c.total) }),
          h('td', { text: num(c.stable_pass) }), h('td', { text: num(c.flaky) }), h('td', { text: num(c.stable_fail) }),
          h('td', { text: num(c.errored) }), h('td', { text: num(c.unscored_tests) }),
          h('td', { text: pct(c.pass_hat_k[0]) }), h('td', { text: k > 1 ? pct(c.pass_hat_k[k - 1]) + ' (k=' + k + ')' : '\u2013' }));
      }));
    var unjudged = d.unjudged || [];
    $('ov-unjudged').hidden = !unjudged.length;
    $('ov-unjudged').replaceChildren.apply($('ov-unjudged'), unjudged.map(function (line) { return h('li', { text: line }); }));
    var least = d.least_stable || [];
    if (!least.length) empty($('ov-least'), 'No flaky tests.');
    else table($('ov-least'), ['test', 'category', 'class', 'passed', 'flip rate', 'latest message'], least.map(function (t) {
      return h('tr', null, h('td', null, testLink(t.id, t.c)), h('td', { 'class': 'l', text: t.c }), h('td', { 'class': 'l' }, classTag(t.s)),
        h('td', { text: t.n[0] + ' of ' + t.n[1] }), h('td', { text: pct(t.f) }), h('td', { 'class': 'msg', text: t.m || '' }));
    }));
    chart($('ov-trend'), d.trend, d.timed);
    var dg = d.diagnostics || {};
    var box = $('ov-diagnostics');
    box.hidden = !(dg.errors || dg.warnings || dg.notes);
    box.querySelector('summary').textContent = 'Reading said: ' + plural(dg.errors || 0, 'error') + ', ' +
      plural(dg.warnings || 0, 'warning') + ', ' + plural(dg.notes || 0, 'note');
    $('ov-diag-list').textContent = (dg.listed || []).join('\n');
  }

  // Pass rate per category over the latest runs, as SVG lines (no library).
  function chart(el, trend, timed) {
    el.replaceChildren();
    if (!timed || !trend || !trend.series.length || trend.runs.length < 2) {
      el.append(h('p', { 'class': 'muted', text: !timed ? 'The runs record no times: no line to draw.' : 'Too few runs to draw.' }));
      return;
    }
    var NS = 'http://www.w3.org/2000/svg';
    var W = 900, H = 220, L = 40, B = 20, n = trend.runs.length;
    var svg = document.createElementNS(NS, 'svg');
    svg.setAttribute('viewBox', '0 0 ' + W + ' ' + H);
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', 'pass rate per category over the last ' + n + ' runs');
    [0, 0.5, 1].forEach(function (y) {
      var t = document.createElementNS(NS, 'text');
      t.setAttribute('x', 2); t.setAttribute('y', (H - B) - y * (H - B - 10) + 4); t.textContent = (y * 100) + '%';
      svg.append(t);
    });
    var legend = h('div', { 'class': 'legend' });
    trend.series.slice(0, SERIES.length).forEach(function (s, i) {
      var pts = [];
      s.rates.forEach(function (r, j) {
        if (r === null) return;
        pts.push((L + j * (W - L - 10) / (n - 1)).toFixed(1) + ',' + ((H - B) - r * (H - B - 10)).toFixed(1));
      });
      var line = document.createElementNS(NS, 'polyline');
      line.setAttribute('points', pts.join(' '));
      line.setAttribute('class', 'series');
      line.setAttribute('stroke', SERIES[i]);
      if (i === 0) line.setAttribute('stroke-width', '2.6');
      svg.append(line);
      legend.append(h('span', { 'class': 'key' }, dot(SERIES[i]), s.category === null ? 'all categories' : s.category));
    });
    el.append(svg, legend);
  }

  // ---- the heatmap: a canvas over a scrolling space; only the window in view is asked for
  var HM = { rowH: 18, cellW: 14, gutter: 260, headH: 110, rows: 0, cols: 0, win: null, want: null, key: null, busy: false };
  function heatmapParams(extra) { return params(RUN_KEYS.concat(TEST_KEYS), extra); }
  function heatmap() {
    var key = heatmapParams().toString() + '#' + summary.generation;
    if (HM.key !== key) { HM.key = key; HM.win = null; }
    $('hm-legend').replaceChildren.apply($('hm-legend'), Object.keys(OUT).map(function (c) {
      return h('span', { 'class': 'key' }, swatch(c), OUT[c].name);
    }));
    return fetchWindow(0, 0).then(function () {
      var sc = $('hm-scroll');
      if (!HM.bound) {
        HM.bound = true;
        sc.addEventListener('scroll', function () { requestAnimationFrame(scrolled); });
        window.addEventListener('resize', function () { if (S.tab === 'heatmap') { size(); scrolled(); } });
        $('hm-canvas').addEventListener('click', clicked);
      }
      size();
      return scrolled().then(function () { if (S.test && S.run) return showCell(S.cat, S.test, S.run); });
    });
  }
  function visible() {
    var sc = $('hm-scroll');
    var r0 = Math.max(0, Math.floor(sc.scrollTop / HM.rowH));
    var c0 = Math.max(0, Math.floor(sc.scrollLeft / HM.cellW));
    var rn = Math.ceil((sc.clientHeight - HM.headH) / HM.rowH) + 1;
    var cn = Math.ceil((sc.clientWidth - HM.gutter) / HM.cellW) + 1;
    return [r0, Math.max(rn, 1), c0, Math.max(cn, 1)];
  }
  function covers(w, v) {
    return w && v[0] >= w.row && v[0] + v[1] <= w.row + w.rows.length + (w.row + w.rows.length >= HM.rows ? v[1] : 0) &&
      v[2] >= w.col && v[2] + v[3] <= w.col + w.columns.length + (w.col + w.columns.length >= HM.cols ? v[3] : 0);
  }
  function fetchWindow(row, col) {
    var v = HM.win ? visible() : [row, 60, col, 120];
    var r0 = Math.max(0, v[0] - 30), c0 = Math.max(0, v[2] - 40);
    var p = heatmapParams({ row: r0, rows: v[1] + 60, col: c0, cols: v[3] + 80 });
    return api('heatmap', p).then(function (w) {
      HM.win = w; HM.rows = w.rows_total; HM.cols = w.cols_total;
      $('hm-caption').textContent = plural(w.rows_total, 'test') + ' \u00d7 ' + plural(w.cols_total, 'run') +
        ' \u00b7 flaky first, then stable fails, stable passes; runs in time order \u00b7 click a cell for its details';
    });
  }
  function size() {
    var sc = $('hm-scroll'), cv = $('hm-canvas');
    $('hm-space').style.width = (HM.gutter + HM.cols * HM.cellW) + 'px';
    $('hm-space').style.height = (HM.headH + HM.rows * HM.rowH) + 'px';
    var dpr = window.devicePixelRatio || 1;
    cv.width = Math.floor(sc.clientWidth * dpr); cv.height = Math.floor(sc.clientHeight * dpr);
    cv.style.width = sc.clientWidth + 'px'; cv.style.height = sc.clientHeight + 'px';
    cv.style.marginBottom = -sc.clientHeight + 'px';
  }
  function scrolled() {
    var v = visible();
    if (covers(HM.win, v)) { draw(); return Promise.resolve(); }
    if (HM.busy) { HM.again = true; return Promise.resolve(); }
    HM.busy = true;
    return fetchWindow(v[0], v[2]).then(function () {
      HM.busy = false; draw();
      if (HM.again) { HM.again = false; return scrolled(); }
    }, function (e) { HM.busy = false; throw e; });
  }
  function draw() {
    var sc = $('hm-scroll'), cv = $('hm-canvas'), w = HM.win;
    var g = cv.getContext('2d'), dpr = window.devicePixelRatio || 1;
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.clearRect(0, 0, cv.width, cv.height);
    if (!w) return;
    var top = sc.scrollTop, left = sc.scrollLeft;
    g.font = '12px ui-monospace, Menlo, Consolas, monospace';
    g.textBaseline = 'middle';
    w.rows.forEach(function (r, k) {
      var y = HM.headH + (w.row + k) * HM.rowH - top;
      if (y < HM.headH - HM.rowH || y > sc.clientHeight) return;
      for (var j = 0; j < r.o.length; j++) {
        var x = HM.gutter + (w.col + j) * HM.cellW - left;
        if (x < HM.gutter - HM.cellW || x > sc.clientWidth) continue;
        var o = OUT[r.o[j]] || OUT['-'];
        g.fillStyle = o.color;
        g.fillRect(x + 1, y + 1, HM.cellW - 2, HM.rowH - 2);
        if (o.glyph) { g.fillStyle = o.ink; g.fillText(o.glyph, x + 3, y + HM.rowH / 2); }
        if (HM.sel && HM.sel.id === r.id && HM.sel.c === r.c && HM.sel.run === w.columns[j].name) {
          g.strokeStyle = '#1d2330'; g.lineWidth = 2; g.strokeRect(x + 1, y + 1, HM.cellW - 2, HM.rowH - 2);
        }
      }
    });
    // The gutter (test ids) and the header (run names) stay in place.
    g.fillStyle = '#ffffff';
    g.fillRect(0, 0, HM.gutter, sc.clientHeight);
    g.fillRect(0, 0, sc.clientWidth, HM.headH);
    w.rows.forEach(function (r, k) {
      var y = HM.headH + (w.row + k) * HM.rowH - top;
      if (y < HM.headH - 2 || y > sc.clientHeight) return;
      g.fillStyle = (CLASSES[r.s] || CLASSES.none).color;
      g.fillRect(4, y + 4, 8, HM.rowH - 8);
      g.fillStyle = '#1d2330';
      g.fillText(clip(g, r.id, HM.gutter - 24), 18, y + HM.rowH / 2);
    });
    g.save();
    w.columns.forEach(function (c, j) {
      var x = HM.gutter + (w.col + j) * HM.cellW - left;
      if (x < HM.gutter - HM.cellW || x > sc.clientWidth) return;
      g.save();
      g.translate(x + HM.cellW / 2 + 3, HM.headH - 6);
      g.rotate(-Math.PI / 3);
      g.fillStyle = '#5d6675';
      g.fillText(clip(g, c.name, HM.headH * 1.1), 0, 0);
      g.restore();
    });
    g.restore();
  }
  function clip(g, text, width) {
    if (g.measureText(text).width <= width) return text;
    var s = text;
    while (s.length > 1 && g.measureText(s + '\u2026').width > width) s = s.slice(0, -1);
    return s + '\u2026';
  }
  function clicked(ev) {
    var sc = $('hm-scroll'), rect = $('hm-canvas').getBoundingClientRect();
    var x = ev.clientX - rect.left, y = ev.clientY - rect.top;
    if (x < HM.gutter || y < HM.headH) return;
    var row = Math.floor((y - HM.headH + sc.scrollTop) / HM.rowH), col = Math.floor((x - HM.gutter + sc.scrollLeft) / HM.cellW);
    var w = HM.win;
    if (!w || row < w.row || row >= w.row + w.rows.length || col < w.col || col >= w.col + w.columns.length) return;
    var r = w.rows[row - w.row], run = w.columns[col - w.col].name;
    S.test = r.id; S.cat = r.c; S.run = run;
    writeUrl(false);
    $('tab-test').hidden = false;
    showCell(r.c, r.id, run);
  }
  function showCell(category, id, run) {
    HM.sel = { id: id, c: category, run: run };
    draw();
    var box = $('hm-detail');
    return api('cell', params(RUN_KEYS, { category: category, id: id, run: run })).then(function (c) {
      var o = { passed: 'P', fail: 'F', failed: 'F', pass: 'P', errored: 'E', unscored: 'U' }[c.outcome] || '-';
      box.replaceChildren(
        h('h3', null, testLink(c.id, c.category, c.run)),
        h('dl', null,
          h('dt', { text: 'run' }), h('dd', { text: c.run + (c.timestamp ? ' \u00b7 ' + c.timestamp : '') }),
          h('dt', { text: 'category' }), h('dd', { text: c.category }),
          h('dt', { text: 'outcome' }), h('dd', null, swatch(o), ' ', OUT[o].name),
          c.error_type ? [h('dt', { text: 'error type' }), h('dd', { text: c.error_type })] : null,
          c.branch ? [h('dt', { text: 'branch' }), h('dd', { text: c.branch })] : null),
        c.message ? h('pre', { text: c.message }) : null,
        h('p', null, h('button', { 'class': 'link', type: 'button', text: 'Open the test in every run \u2192',
          onclick: function () { openTest(c.id, c.category, c.run); } })));
    }).catch(function (e) { box.replaceChildren(h('p', { 'class': 'muted', text: String(e.message || e) })); });
  }

  // ---- lists ---------------------------------------------------------------------------
  function pager(el, doc, onPage) {
    var pages = Math.max(1, Math.ceil(doc.total / doc.per));
    el.replaceChildren(
      h('button', { type: 'button', text: '\u2190 Previous', disabled: doc.page <= 0 ? 'disabled' : null, onclick: function () { onPage(doc.page - 1); } }),
      h('span', { text: 'page ' + (doc.page + 1) + ' of ' + pages + ' \u00b7 ' + num(doc.total) + ' in all' }),
      h('button', { type: 'button', text: 'Next \u2192', disabled: doc.page + 1 >= pages ? 'disabled' : null, onclick: function () { onPage(doc.page + 1); } }));
  }
  function tests() {
    return api('tests', params(RUN_KEYS.concat(TEST_KEYS, ['page']))).then(function (d) {
      $('ts-caption').textContent = plural(d.total, 'test') + (S.q ? ' matching \u201c' + S.q + '\u201d (id or error message)' : '');
      if (!d.rows.length) { empty($('ts-table'), 'No test matches.'); }
      else table($('ts-table'), ['test', 'category', 'class', 'passed', 'errored', '95% interval', 'flip rate', 'latest message'], d.rows.map(function (t) {
        return h('tr', null, h('td', null, testLink(t.id, t.c)), h('td', { 'class': 'l', text: t.c }), h('td', { 'class': 'l' }, classTag(t.s)),
          h('td', { text: t.n[0] + ' of ' + t.n[1] }), h('td', { text: num(t.n[2]) }),
          h('td', { text: t.w ? pct(t.w[0]) + '\u2013' + pct(t.w[1]) : '\u2013' }), h('td', { text: pct(t.f) }),
          h('td', { 'class': 'msg', text: t.m || '' }));
      }));
      pager($('ts-pager'), d, function (p) { go({ page: p ? String(p) : '' }, true); });
    });
  }
  function trend() {
    $('tr-last').value = S.last || '10';
    if (!trend.bound) {
      trend.bound = true;
      $('tr-last').addEventListener('change', function (ev) { go({ last: ev.target.value === '10' ? '' : ev.target.value, page: '' }, true); });
    }
    return api('trend', params(RUN_KEYS.concat(TEST_KEYS, ['page', 'last', 'trend']))).then(function (d) {
      var chips = Object.keys(TREND).map(function (s) {
        return h('button', { type: 'button', 'class': S.trend === s ? 'on' : '', onclick: function () { go({ trend: S.trend === s ? '' : s, page: '' }, true); } },
          dot(TREND[s]), ' ' + s + ' ' + num(d.counts[s] || 0));
      });
      $('tr-counts').replaceChildren.apply($('tr-counts'), [h('span', { 'class': 'muted', text: 'over ' + plural(d.runs.length, 'run') + ' of ' + num(d.runs_found) + ':' })].concat(chips));
      if (!d.rows.length) { empty($('tr-table'), 'No test matches.'); }
      else table($('tr-table'), ['test', 'category', 'status', 'pass rate', 'flips', 'streak', 'runs (oldest first)'], d.rows.map(function (t) {
        var spark = h('span', { 'class': 'mono' });
        for (var i = 0; i < t.o.length; i++) {
          var ch = t.o[i];
          spark.append(h('span', { style: 'color:' + (ch === 'P' ? '#009e73' : ch === 'F' ? '#d55e00' : '#b8bec8'), text: ch === 'P' ? '\u2713' : ch === 'F' ? '\u2717' : '\u00b7' }));
        }
        return h('tr', null, h('td', null, testLink(t.id, t.c)), h('td', { 'class': 'l', text: t.c }),
          h('td', { 'class': 'l' }, dot(TREND[t.status]), ' ' + t.status), h('td', { text: pct(t.rate) }), h('td', { text: num(t.flips) }),
          h('td', { text: (t.streak.passed ? '\u2713' : '\u2717') + ' \u00d7 ' + t.streak.length }), h('td', { 'class': 'l' }, spark));
      }));
      pager($('tr-pager'), d, function (p) { go({ page: p ? String(p) : '' }, true); });
    });
  }
  function cost() {
    return api('cost', params(RUN_KEYS.concat(['page']))).then(function (d) {
      var s = d.sum;
      $('co-cards').replaceChildren(card(num(d.with_cost) + ' of ' + num(d.total), 'runs that record a cost'),
        card(num(s.calls), 'calls'), card(num(s.input_tokens), 'input tokens'), card(num(s.output_tokens), 'output tokens'),
        card(usd(s.cost_usd), 'dollars (priced rows)'), card(usd(s.declared_usd), 'dollars the runs declare'));
      table($('co-table'), ['run', 'when', 'from', 'calls', 'input tokens', 'output tokens', 'dollars', 'declared'], d.rows.map(function (r) {
        return h('tr', null, h('td', { text: r.run }), h('td', { 'class': 'l', text: r.timestamp || '\u2013' }),
          h('td', { 'class': 'l', text: r.source ? (r.source === 'declared' ? 'its accounting' : r.source === 'tests' ? 'its tests' : 'nothing') : 'records none' }),
          h('td', { text: num(r.calls) }), h('td', { text: num(r.input_tokens) }), h('td', { text: num(r.output_tokens) }),
          h('td', { text: usd(r.cost_usd) }), h('td', { text: usd(r.declared_usd) }));
      }));
      pager($('co-pager'), d, function (p) { go({ page: p ? String(p) : '' }, true); });
    });
  }

  // ---- comparison ----------------------------------------------------------------------
  function compare() {
    if (!compare.bound) {
      compare.bound = true;
      $('cmp-form').addEventListener('submit', function (ev) {
        ev.preventDefault();
        go({ base: $('cmp-base').value.trim(), 'new': $('cmp-new').value.trim() }, true);
      });
      $('cmp-latest').addEventListener('click', function () {
        var runs = (summary.choices || {}).runs || [];
        if (runs.length >= 2) go({ base: runs[runs.length - 2], 'new': runs[runs.length - 1] }, true);
      });
    }
    $('cmp-base').value = S.base || '';
    $('cmp-new').value = S['new'] || '';
    var out = $('cmp-out');
    if (!S.base || !S['new']) {
      out.replaceChildren(h('p', { 'class': 'muted', text: 'Pick the base and the new side: run names (comma-separated), or what runs say about themselves (branch:main, tier:e2e, since:2026-03-01, until:\u2026, last:5).' }));
      return null;
    }
    return api('compare', params([], { base: S.base, 'new': S['new'] })).then(function (d) {
      var m = d.data.models[0];
      if (!m) { out.replaceChildren(h('p', { 'class': 'muted', text: 'The two sides share no test.' })); return; }
      var o = m.overall;
      var verdict = o.significant ? (o.difference < 0 ? 'a regression beyond run-to-run noise' : 'an improvement beyond run-to-run noise') : 'within run-to-run noise';
      var kids = [
        h('p', { 'class': 'muted', text: d.data.mode === 'runs' ? 'One run each side: ' + d.base[0] + ' \u2192 ' + d['new'][0] :
          'Groups: ' + plural(d.base.length, 'run') + ' \u2192 ' + plural(d['new'].length, 'run') }),
        h('div', { 'class': 'cards' },
          card(pct(o.base_rate) + ' \u2192 ' + pct(o.new_rate), 'pass rate over ' + plural(o.common, 'common test')),
          card((o.difference >= 0 ? '+' : '') + (100 * o.difference).toFixed(1) + ' pts', o.interval ? '95% ' + (100 * o.interval[0]).toFixed(1) + ' to ' + (100 * o.interval[1]).toFixed(1) : 'difference'),
          card(num(o.regressions), 'regressions', '#d55e00'), card(num(o.improvements), 'improvements', '#009e73'),
          card(o.p_value.toPrecision(3), 'p (' + d.data.test + '): ' + verdict))
      ];
      kids.push(h('h2', { text: 'Per category' }));
      var t = h('table', { 'class': 'grid' });
      table(t, ['category', 'base', 'new', 'difference', 'regressions', 'improvements', 'p'], m.categories.map(function (c) {
        return h('tr', null, h('td', { text: c.category }), h('td', { text: pct(c.base_rate) }), h('td', { text: pct(c.new_rate) }),
          h('td', { text: (c.difference >= 0 ? '+' : '') + (100 * c.difference).toFixed(1) }), h('td', { text: num(c.regressions) }),
          h('td', { text: num(c.improvements) }), h('td', { text: c.p_value.toPrecision(3) + (c.significant ? ' *' : '') }));
      }));
      kids.push(h('div', { 'class': 'table-wrap' }, t));
      var types = Object.keys(o.regressions_by_error_type);
      if (types.length) {
        kids.push(h('h2', { text: 'Regressions by the error they fail with now' }));
        kids.push(h('ul', null, types.map(function (k) { return h('li', { text: k + ': ' + o.regressions_by_error_type[k] }); })));
      }
      ['regressions', 'improvements'].forEach(function (kind) {
        var items = [];
        m.categories.forEach(function (c) { c[kind].forEach(function (id) { items.push(h('li', null, testLink(id, c.category), ' ', h('span', { 'class': 'muted', text: c.category }))); }); });
        if (items.length) {
          kids.push(h('h2', { text: kind === 'regressions' ? 'Regressed tests' : 'Improved tests' }));
          kids.push(h('ul', { id: 'cmp-' + kind }, items));
        }
      });
      if (d.cut) kids.push(h('p', { 'class': 'muted', text: 'Lists show the first ' + d.listed + ' tests of each category.' }));
      out.replaceChildren.apply(out, kids);
    }).catch(function (e) { out.replaceChildren(h('p', { 'class': 'note error', text: String(e.message || e) })); });
  }

  // ---- one test in every run -----------------------------------------------------------
  function pretty(v) { return typeof v === 'string' ? v : JSON.stringify(v, null, 2); }
  function testView() {
    if (!S.test) { $('te-title').textContent = 'Pick a test in a list or the heatmap.'; $('te-runs').replaceChildren(); return null; }
    $('te-title').textContent = S.test;
    $('te-runs').replaceChildren(h('p', { 'class': 'muted', text: 'Reading the test in every run\u2026' }));
    return api('test', params([], { id: S.test })).then(function (d) {
      var runs = (d.show && d.show.runs) || [];
      $('te-note').textContent = plural(d.runs, 'run') + ' of ' + d.model + (d.note ? ' \u00b7 ' + d.note : '');
      var cards = runs.filter(function (r) { return !S.cat || r.category === S.cat; }).map(function (r) {
        var focus = S.run && r.run === S.run;
        var kv = [];
        if (r.input_tokens !== undefined && r.input_tokens !== null) kv.push('input tokens ' + num(r.input_tokens));
        if (r.output_tokens !== undefined && r.output_tokens !== null) kv.push('output tokens ' + num(r.output_tokens));
        if (r.latency_seconds !== undefined && r.latency_seconds !== null) kv.push('latency ' + Number(r.latency_seconds).toFixed(2) + ' s');
        if (r.result_at) kv.push(r.result_at.path + (r.result_at.line ? ':' + r.result_at.line : ''));
        var turns = (r.question || []).map(function (turn, i) {
          return h('div', { 'class': 'turn' }, h('b', { text: 'turn ' + (i + 1) }), turn.map(function (m) {
            return h('pre', { text: (m.role ? m.role + ': ' : '') + pretty(m.content) });
          }));
        });
        return h('div', { 'class': 'run' + (focus ? ' focus' : ''), 'data-run': r.run },
          h('h3', null, r.run, h('span', { 'class': 'badge', style: 'background:' + (STATUS[r.status] || '#8a919c'), text: r.status.replace('_', ' ') }),
            r.error_type ? h('span', { 'class': 'muted', text: r.error_type }) : null),
          h('div', { 'class': 'kv' }, kv.map(function (k) { return h('span', { text: k }); })),
          r.error_message ? [h('b', { text: 'Error' }), h('pre', { text: r.error_message })] : null,
          turns.length ? [h('b', { text: 'Prompt' }), turns] : null,
          r.answer !== undefined ? [h('b', { text: 'Answer' }), h('pre', { text: pretty(r.answer) })] : null,
          r.decoded_answer !== undefined ? [h('b', { text: 'Decoded answer' }), h('pre', { text: pretty(r.decoded_answer) })] : null,
          r.expected !== undefined ? [h('b', { text: 'Expected' }), h('pre', { text: pretty(r.expected) })] : null);
      });
      $('te-runs').replaceChildren.apply($('te-runs'), cards.length ? cards : [h('p', { 'class': 'muted', text: 'No run lists this test.' })]);
      var focused = document.querySelector('.run.focus');
      if (focused) focused.scrollIntoView({ block: 'nearest' });
    }).catch(function (e) { $('te-runs').replaceChildren(h('p', { 'class': 'note error', text: String(e.message || e) })); });
  }

  var VIEWS = { overview: overview, heatmap: heatmap, tests: tests, trend: trend, cost: cost, compare: compare, test: testView };

  // ---- live ----------------------------------------------------------------------------
  function listen() {
    var events = new EventSource('/api/events');
    var timer = null;
    events.addEventListener('changed', function () {
      clearTimeout(timer);
      timer = setTimeout(function () {
        refresh().then(function () {
          $('pulse').classList.add('fresh');
          setTimeout(function () { $('pulse').classList.remove('fresh'); }, 1200);
        });
      }, 50);
    });
    events.addEventListener('error', function () { $('pulse').className = 'pulse'; $('live-text').textContent = 'reconnecting\u2026'; });
  }

  readUrl();
  bindFilters();
  refresh();
  listen();
})();
