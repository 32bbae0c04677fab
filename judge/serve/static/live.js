// tilejudge pages: the language from a chosen file's extension, and live submission states.
// One event stream per page (/live); each event says "this submission changed", and its state is then read
// from the API. When the stream drops, the page polls every 2 s and tries the stream again, backing off.
// A clarifications event (one asked, answered or announced) swaps in the page's list (#clar-wrap) as the server
// renders it now, unless an answer is being typed there (then a note asks for a reload).
(function () {
  'use strict';
  var FINAL = ['done', 'error'];

  var file = document.getElementById('file');
  var lang = document.getElementById('language');
  if (file && lang) {
    file.addEventListener('change', function () {
      var chosen = file.files && file.files[0];
      var dot = chosen ? chosen.name.lastIndexOf('.') : -1;
      if (dot < 0) return;
      var ext = chosen.name.slice(dot).toLowerCase();
      for (var i = 0; i < lang.options.length; i++) {
        if ((lang.options[i].getAttribute('data-ext') || '').split(' ').indexOf(ext) >= 0) {
          lang.selectedIndex = i;
          return;
        }
      }
    });
  }

  var body = document.body;
  var since = body.getAttribute('data-live');
  var board = document.getElementById('board');
  if (board) setInterval(function () { replaceFrom(location.href, 'board'); }, 5000);
  if (since === null) return;
  var detail = body.getAttribute('data-detail');
  var list = document.getElementById('subs-wrap');  // a list of submissions: new ones are added as they come
  var shadow = document.getElementById('shadow-wrap');  // the jury's shadowing table: redrawn on any change
  var shown = document.getElementById('live-state');
  var lastId = since;
  var source = null;
  var poller = null;
  var backoff = 3000;
  var pending = {};

  function mode(text, cls) {
    if (shown) shown.textContent = text;
    body.setAttribute('data-mode', cls);
  }

  function statusText(v) {
    if (v.state === 'queued') return v.queue_position ? 'queued (#' + v.queue_position + ' in line)' : 'queued';
    if (v.state === 'running') return 'running ' + v.cases_done + '/' + v.cases_total;
    if (v.state === 'error') return 'judge error';
    if (v.state === 'done') return v.verdict || 'done';
    return v.state;
  }

  function points(x) { return String(Math.round(x * 1000) / 1000); }

  function replaceFrom(url, id) {
    return fetch(url, { credentials: 'same-origin' }).then(function (r) {
      if (!r.ok) throw new Error('HTTP ' + r.status);
      return r.text();
    }).then(function (text) {
      var fresh = new DOMParser().parseFromString(text, 'text/html').getElementById(id);
      var old = document.getElementById(id);
      if (fresh && old) old.replaceWith(document.importNode(fresh, true));
    }).catch(function () {});
  }

  function update(v) {
    var els = document.querySelectorAll('[data-sid="' + v.id + '"]');
    for (var i = 0; i < els.length; i++) {
      var el = els[i];
      var was = el.getAttribute('data-state');
      var wasAttempt = el.getAttribute('data-attempt');
      el.setAttribute('data-state', v.state);
      if (el.id === 'result' && FINAL.indexOf(v.state) >= 0 &&
          (FINAL.indexOf(was) < 0 || String(v.attempt) !== wasAttempt)) {
        replaceFrom(location.href, 'result');  // the whole result, as the server renders it for this viewer
        continue;
      }
      if (el.id === 'result') {
        el.setAttribute('data-attempt', String(v.attempt));
        var attempt = el.querySelector('.attempt');
        if (attempt && String(v.attempt) !== wasAttempt) attempt.textContent = 'being judged';  // the server words it at the end
      }
      var status = el.querySelector('.status');
      if (status) {
        var badge = document.createElement('span');
        badge.className = 'verdict v-' + (v.state === 'done' ? v.verdict : v.state);
        badge.textContent = statusText(v);
        status.textContent = '';
        status.appendChild(badge);
      }
      var score = el.querySelector('td.score');
      if (score) score.textContent = v.score === null ? '' : points(v.score) + '/' + points(v.max_score);
    }
  }

  function refresh(sid) {
    return fetch('/api/v1/submissions/' + sid, { credentials: 'same-origin', headers: { Accept: 'application/json' } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (v) { if (v) update(v); })
      .catch(function () {});
  }

  function soon(sid) {  // one fetch for a burst of events about the same submission ('list': a new row)
    if (pending[sid]) return;
    pending[sid] = setTimeout(function () {
      delete pending[sid];
      if (sid === 'shadow') replaceFrom(location.href, 'shadow-wrap');
      else if (sid === 'clar') clarsChanged();
      else if (sid === 'list') replaceFrom(location.href, 'subs-wrap').then(function () { list = document.getElementById('subs-wrap'); });
      else refresh(sid);
    }, 100);
  }

  // a new question or answer: the list as the server renders it now, unless an answer is being typed in it
  function clarsChanged() {
    var wrap = document.getElementById('clar-wrap');
    var typed = wrap ? wrap.querySelectorAll('textarea') : [];
    for (var i = 0; i < typed.length; i++) {
      if (typed[i].value.trim() !== '') {
        var note = document.getElementById('clar-note');
        if (note) note.hidden = false;
        return;
      }
    }
    replaceFrom(location.href, 'clar-wrap');
  }

  function watched() {
    var out = [];
    var els = document.querySelectorAll('[data-sid]');
    for (var i = 0; i < els.length; i++) {
      var sid = els[i].getAttribute('data-sid');
      if (sid === detail || FINAL.indexOf(els[i].getAttribute('data-state')) < 0) out.push(sid);
    }
    return out;
  }

  function poll() {
    if (shadow) replaceFrom(location.href, 'shadow-wrap');
    watched().forEach(refresh);
  }

  function startPolling() {
    if (!poller) poller = setInterval(poll, 2000);
    poll();
  }

  function stopPolling() {
    if (poller) clearInterval(poller);
    poller = null;
  }

  function connect() {
    source = new EventSource('/live?since=' + encodeURIComponent(lastId));
    source.onopen = function () {
      backoff = 3000;
      stopPolling();
      mode('live', 'live');
      poll();  // what changed while the stream was down
    };
    var onEvent = function (e) {
      if (e.lastEventId) lastId = e.lastEventId;
      var data;
      try { data = JSON.parse(e.data); } catch (err) { return; }
      if (!data || data.id === undefined) return;
      if (shadow) { soon('shadow'); return; }
      if (document.querySelector('[data-sid="' + data.id + '"]')) soon(data.id);
      else if (e.type === 'submissions' && list && !list.getAttribute('data-older')) soon('list');
    };
    ['submissions', 'judgements', 'runs', 'shadow'].forEach(function (kind) { source.addEventListener(kind, onEvent); });
    source.addEventListener('clarifications', function (e) {
      if (e.lastEventId) lastId = e.lastEventId;
      if (document.getElementById('clar-wrap')) soon('clar');
    });
    source.onerror = function () {
      source.close();
      source = null;
      mode('reconnecting (checking every 2 s)', 'polling');
      startPolling();
      setTimeout(connect, backoff);
      backoff = Math.min(backoff * 2, 15000);
    };
  }

  if (window.EventSource) connect(); else startPolling();
})();
