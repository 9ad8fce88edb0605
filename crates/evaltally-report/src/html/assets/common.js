// evaltally's pages (the report file and `serve`'s live page) share this: the outcome and
// class colours (Okabe-Ito, each outcome with its own glyph so colour is never the only
// cue) and the DOM helpers. Text from the data is only ever set with textContent (or as an
// attribute value), never parsed as HTML; styles go through the CSSOM, so that a page whose
// policy forbids style attributes still draws.
var evaltallyCommon = (function () {
  'use strict';

  var OUT = {
    'P': { name: 'passed', color: '#56b4e9', glyph: '', ink: '#ffffff' },
    'F': { name: 'failed', color: '#d55e00', glyph: '\u2715', ink: '#ffffff' },
    'E': { name: 'errored', color: '#cc79a7', glyph: '!', ink: '#ffffff' },
    'U': { name: 'unscored', color: '#a8adb5', glyph: '?', ink: '#1d2330' },
    '-': { name: 'not run', color: '#eceef1', glyph: '', ink: '#5d6675' }
  };
  var CLASSES = {
    flaky: { name: 'flaky', color: '#e69f00' },
    fail: { name: 'stable fail', color: '#d55e00' },
    pass: { name: 'stable pass', color: '#56b4e9' },
    errored: { name: 'errored in most runs', color: '#cc79a7' },
    none: { name: 'not judged', color: '#a8adb5' }
  };

  // h('div', { 'class': 'x', text: 'y', onclick: f }, kid, [kids]): an element.
  function h(tag, props) {
    var e = document.createElement(tag);
    if (props) {
      Object.keys(props).forEach(function (k) {
        var v = props[k];
        if (v === null || v === undefined || v === false) return;
        if (k === 'text') e.textContent = String(v);
        else if (k === 'class') e.className = v;
        else if (k === 'style') String(v).split(';').forEach(function (d) {
          var at = d.indexOf(':');
          if (at > 0) e.style.setProperty(d.slice(0, at).trim(), d.slice(at + 1).trim());
        });
        else if (k.slice(0, 2) === 'on') e.addEventListener(k.slice(2), v);
        else e.setAttribute(k, String(v));
      });
    }
    for (var i = 2; i < arguments.length; i++) add(e, arguments[i]);
    return e;
  }
  function add(parent, kid) {
    if (kid === null || kid === undefined || kid === false) return;
    if (Array.isArray(kid)) { kid.forEach(function (k) { add(parent, k); }); return; }
    parent.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
  function pct(x) { return x === null || x === undefined ? '\u2013' : (100 * x).toFixed(1) + '%'; }
  function num(n) { return n === null || n === undefined ? '\u2013' : Number(n).toLocaleString('en-US'); }

  return { OUT: OUT, CLASSES: CLASSES, h: h, add: add, pct: pct, num: num };
})();
