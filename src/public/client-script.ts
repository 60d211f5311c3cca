/**
 * The page's only script, loaded from /assets/ (page-assets.ts) with the CSP nonce. It enhances and is never needed: without it
 * every field is shown, the dial code is picked from the list, and a scheduler step records
 * `eventScheduled: false`.
 *
 * - `revealAfter`: a field stays hidden (and disabled, so it isn't sent) until the field it follows is filled.
 * - Dial codes: a number typed with its "+code" selects that code in the list and drops it from the number.
 * - Schedulers: booking events posted by the embedded provider page (Calendly, Cal.com, HubSpot) fill
 *   the step's hidden booking fields (`eventScheduled`, `uri`, `meetingTime`, `meetingEndTime`).
 * - DynamicScheduler: the calendar picker swaps the embedded calendar.
 * - A step shown again with errors: focus goes to the first invalid field, and the error summary's
 *   links focus their question's first invalid (or first) control.
 * - Ranking: a list reordered with its buttons or by dragging fills the position selects (hidden).
 * - FileUploader: the drop zone lights up under a dragged file, and a chosen file is uploaded at once (POST /s/:formId/uploads) with a progress bar and a
 *   preview (images) or its name; the step then posts the upload's id in place of the file. What it
 *   writes comes from the page in the form's language (the status box's `data-words`), and the upload
 *   URL asks for the file checks' messages in that language too (`?localized=1`).
 */
export const CLIENT_SCRIPT = String.raw`(function () {
  'use strict';
  function each(selector, fn) { Array.prototype.forEach.call(document.querySelectorAll(selector), fn); }

  function focusIn(target) {
    if (!target) return false;
    var control = target.matches('input, select, textarea, button') ? target : (target.querySelector('input[aria-invalid="true"], select[aria-invalid="true"], textarea[aria-invalid="true"]') || target.querySelector('input:not([type=hidden]), select, textarea'));
    if (!control || control.disabled) return false;
    control.focus();
    return true;
  }
  if (document.getElementById('fl-error-summary')) focusIn(document.querySelector('[aria-invalid="true"]:not(fieldset), .fl-invalid'));
  each('#fl-error-summary a[href^="#"]', function (link) {
    link.addEventListener('click', function (event) {
      if (focusIn(document.getElementById(link.getAttribute('href').slice(1)))) event.preventDefault();
    });
  });

  each('[data-reveal-after]', function (field) {
    var source = document.getElementById(field.getAttribute('data-reveal-after'));
    if (!source) return;
    var inputs = field.querySelectorAll('input, select, textarea');
    function update() {
      var show = source.value.trim() !== '';
      field.classList.toggle('fl-hidden', !show);
      Array.prototype.forEach.call(inputs, function (input) { input.disabled = !show; });
    }
    source.addEventListener('input', update);
    update();
  });

  each('select[data-dial-for]', function (select) {
    var input = document.getElementById(select.getAttribute('data-dial-for'));
    if (!input) return;
    input.addEventListener('change', function () {
      var value = input.value.trim();
      if (value.charAt(0) !== '+') return;
      var digits = value.replace(/[^0-9]/g, '');
      var best = null;
      Array.prototype.forEach.call(select.options, function (option) {
        var dial = option.getAttribute('data-dial');
        if (!dial || digits.indexOf(dial) !== 0) return;
        if (!best || dial.length > best.dial.length || (dial === best.dial && option.selected)) best = { option: option, dial: dial };
      });
      if (!best) return;
      select.value = best.option.value;
      var consumed = 0, i = 1;
      while (i < value.length && consumed < best.dial.length) { if (/[0-9]/.test(value.charAt(i))) consumed++; i++; }
      input.value = value.slice(i).trim();
    });
  });

  each('[data-calendar-select]', function (select) {
    var box = select.closest('[data-scheduler]');
    var frame = box && box.querySelector('iframe');
    select.classList.remove('fl-hidden');
    select.addEventListener('change', function () {
      var option = select.options[select.selectedIndex];
      if (frame && option && option.getAttribute('data-src')) frame.src = option.getAttribute('data-src');
    });
  });

  function iso(value) {
    if (value === undefined || value === null || value === '') return '';
    var date = new Date(value);
    return isNaN(date.getTime()) ? '' : date.toISOString();
  }
  function booking(data) {
    if (typeof data === 'string') { try { data = JSON.parse(data); } catch (e) { return null; } }
    if (!data || typeof data !== 'object') return null;
    if (data.event === 'calendly.event_scheduled') {
      var p = data.payload || {};
      return { uri: (p.event && p.event.uri) || '' };
    }
    if (data.meetingBookSucceeded) {
      var ev = (((data.meetingsPayload || {}).bookingResponse || {}).event) || {};
      var start = typeof ev.dateTime === 'number' ? ev.dateTime : null;
      return { meetingTime: iso(start), meetingEndTime: start !== null && typeof ev.duration === 'number' ? iso(start + ev.duration) : '' };
    }
    if (typeof data.type === 'string' && /^bookingSuccessful/.test(data.type)) {
      var b = data.data || {};
      return { meetingTime: iso(b.startTime), meetingEndTime: iso(b.endTime) };
    }
    return null;
  }
  // A booked meeting's time as the page's language writes it, in the respondent's own time zone (named).
  function bookedTime(value) {
    var at = value ? new Date(value) : null;
    if (!at || isNaN(at.getTime())) return '';
    try {
      return new Intl.DateTimeFormat(document.documentElement.lang || 'en', { year: 'numeric', month: 'long', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' }).format(at);
    } catch (e) { return ''; }
  }
  each('[data-scheduler]', function (box) {
    var frame = box.querySelector('iframe');
    if (!frame) return;
    window.addEventListener('message', function (event) {
      if (event.source !== frame.contentWindow) return;
      var booked = booking(event.data);
      if (!booked) return;
      function set(name, value) {
        var input = box.querySelector('input[data-booking="' + name + '"]');
        if (input && (value || name === 'eventScheduled')) input.value = value;
      }
      set('eventScheduled', 'true');
      set('uri', /^https?:\/\//.test(booked.uri || '') ? booked.uri : '');
      set('meetingTime', booked.meetingTime);
      set('meetingEndTime', booked.meetingEndTime);
      var note = box.querySelector('[data-booked]');
      if (!note) return;
      var when = bookedTime(booked.meetingTime);
      var sentence = note.getAttribute('data-booked-at') || '';
      if (when && sentence.indexOf('{when}') >= 0) note.textContent = sentence.replace('{when}', when);
      note.classList.remove('fl-hidden');
    });
  });
  // Ranking: the selects give way to a list reordered by its buttons (keyboard) or by dragging; the
  // selects stay in the form, hidden, and take the list's order, so the step posts what it posts without
  // JavaScript. An optional ranking is answered once the respondent moves something.
  each('.fl-ranking[data-ranking]', function (fieldset) {
    var words = {};
    try { words = JSON.parse(fieldset.getAttribute('data-ranking')) || {}; } catch (e) { return; }
    var selects = Array.prototype.slice.call(fieldset.querySelectorAll('select'));
    if (selects.length < 2) return;
    var options = Array.prototype.map.call(selects[0].options, function (o) { return o.value; }).filter(Boolean);
    var chosen = selects.map(function (s) { return s.value; });
    var complete = chosen.every(function (v, i) { return v !== '' && chosen.indexOf(v) === i; });
    var order = complete ? chosen : options.slice();
    var answered = complete || selects[0].required;
    var list = document.createElement('ol');
    list.className = 'fl-rank-list';
    var live = document.createElement('p');
    live.className = 'sr-only';
    live.setAttribute('aria-live', 'polite');
    var dragged = null;
    function sync() { if (answered) selects.forEach(function (s, i) { s.value = order[i]; }); }
    function move(from, to, focusDown) {
      if (to < 0 || to >= order.length) return;
      var value = order.splice(from, 1)[0];
      order.splice(to, 0, value);
      answered = true;
      sync();
      draw();
      live.textContent = value + ': ' + (words.positions[to] || to + 1);
      var item = list.children[to];
      var button = item && item.querySelectorAll('button')[focusDown ? 1 : 0];
      if (button && button.disabled) button = item.querySelectorAll('button')[focusDown ? 0 : 1];
      if (button && focusDown !== undefined) button.focus();
    }
    function button(text, label, disabled, onClick) {
      var b = document.createElement('button');
      b.type = 'button';
      b.className = 'fl-rank-move';
      b.textContent = text;
      b.setAttribute('aria-label', label);
      b.disabled = disabled;
      b.addEventListener('click', onClick);
      return b;
    }
    function draw() {
      list.textContent = '';
      order.forEach(function (value, index) {
        var item = document.createElement('li');
        item.className = 'fl-rank-item';
        item.draggable = true;
        var pos = document.createElement('span');
        pos.className = 'fl-rank-pos';
        pos.textContent = String(index + 1);
        var name = document.createElement('span');
        name.className = 'fl-rank-name';
        name.textContent = value;
        item.appendChild(pos);
        item.appendChild(name);
        item.appendChild(button('\u2191', words.up + ': ' + value, index === 0, function () { move(index, index - 1, false); }));
        item.appendChild(button('\u2193', words.down + ': ' + value, index === order.length - 1, function () { move(index, index + 1, true); }));
        item.addEventListener('dragstart', function (event) { dragged = index; item.classList.add('fl-dragging'); if (event.dataTransfer) { event.dataTransfer.effectAllowed = 'move'; event.dataTransfer.setData('text/plain', value); } });
        item.addEventListener('dragend', function () { item.classList.remove('fl-dragging'); dragged = null; });
        item.addEventListener('dragover', function (event) { if (dragged !== null) event.preventDefault(); });
        item.addEventListener('drop', function (event) { event.preventDefault(); if (dragged !== null && dragged !== index) move(dragged, index); });
        list.appendChild(item);
      });
    }
    Array.prototype.forEach.call(fieldset.querySelectorAll('.fl-rank'), function (row) { row.hidden = true; });
    sync();
    draw();
    fieldset.appendChild(list);
    fieldset.appendChild(live);
  });
  // A file's size in the page's language (2.5 MB, 2,5 Mo).
  function fileSize(bytes) {
    var unit = bytes >= 1048576 ? 'megabyte' : bytes >= 1024 ? 'kilobyte' : 'byte';
    var value = unit === 'megabyte' ? bytes / 1048576 : unit === 'kilobyte' ? bytes / 1024 : bytes;
    try {
      return new Intl.NumberFormat(document.documentElement.lang || 'en', { style: 'unit', unit: unit, maximumFractionDigits: unit === 'megabyte' ? 1 : 0 }).format(value);
    } catch (e) { return Math.round(value) + ' ' + unit; }
  }
  // The drop zone lights up while a file is dragged over it (the input takes the drop itself).
  each('[data-dropzone]', function (zone) {
    function on() { zone.classList.add('fl-dragging'); }
    function off() { zone.classList.remove('fl-dragging'); }
    zone.addEventListener('dragenter', on);
    zone.addEventListener('dragover', on);
    zone.addEventListener('dragleave', off);
    zone.addEventListener('drop', off);
  });
  each('input[type=file][data-upload]', function (input) {
    var box = input.closest('.fl-c');
    var status = box && box.querySelector('[data-upload-status]');
    if (!status) return;
    var words = {};
    try { words = JSON.parse(status.getAttribute('data-words') || '{}') || {}; } catch (e) { words = {}; }
    function word(key) { return typeof words[key] === 'string' ? words[key] : ''; }
    function note(text, isError) {
      var p = document.createElement('p');
      p.className = isError ? 'fl-error' : 'fl-note';
      p.textContent = text;
      status.appendChild(p);
      return p;
    }
    input.addEventListener('change', function () {
      var files = Array.prototype.slice.call(input.files || []);
      if (files.length === 0) return;
      status.textContent = '';
      var body = new FormData();
      body.append('componentId', input.getAttribute('data-component'));
      files.forEach(function (file) { body.append('file', file); });
      var list = document.createElement('ul');
      list.className = 'fl-files';
      files.forEach(function (file) {
        var item = document.createElement('li');
        if (/^image\//.test(file.type)) {
          var img = document.createElement('img');
          img.className = 'fl-preview';
          img.alt = '';
          img.src = URL.createObjectURL(file);
          item.appendChild(img);
        }
        item.appendChild(document.createTextNode(file.name + ' (' + fileSize(file.size) + ')'));
        list.appendChild(item);
      });
      status.appendChild(list);
      var bar = document.createElement('progress');
      bar.max = 100;
      bar.value = 0;
      bar.setAttribute('aria-label', word('progress'));
      status.appendChild(bar);
      var xhr = new XMLHttpRequest();
      xhr.open('POST', input.getAttribute('data-upload'));
      xhr.upload.addEventListener('progress', function (event) {
        if (event.lengthComputable) bar.value = Math.round((event.loaded / event.total) * 100);
      });
      xhr.addEventListener('load', function () {
        var answer = null;
        try { answer = JSON.parse(xhr.responseText); } catch (e) { answer = null; }
        if (xhr.status === 201 && answer && answer.files) {
          bar.value = 100;
          var kept = box.querySelector('[data-files]');
          if (kept) kept.parentNode.removeChild(kept);
          answer.files.forEach(function (file) {
            var hidden = document.createElement('input');
            hidden.type = 'hidden';
            hidden.name = input.name;
            hidden.value = file.id;
            status.appendChild(hidden);
          });
          // The files went up already: the step posts their ids, not the files again.
          input.value = '';
          input.required = false;
          note(answer.files.length === 1 ? word('uploaded') : word('uploadedMany').replace('{n}', String(answer.files.length)));
        } else {
          // A refused file: the server's messages (in the form's language); anything else: the page's own words.
          var refused = xhr.status === 400 && answer && answer.errors ? answer.errors.map(function (e) { return e.message; }) : [];
          input.value = '';
          note(refused.length > 0 ? refused.join(' ') : word(xhr.status === 413 ? 'tooLarge' : xhr.status === 429 ? 'busy' : xhr.status === 410 ? 'closed' : 'failed'), true);
        }
      });
      xhr.addEventListener('error', function () { note(word('offline'), true); });
      xhr.send(body);
    });
  });
})();`;
