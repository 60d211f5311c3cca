/**
 * `GET /embed.js`: the script a site adds to embed forms (docs/embedding.md). Dependency-free, written
 * for every browser in use today, served as is (no build step; a test keeps it under 15 KB).
 *
 * - `<div data-formloom-form="<formId>">` becomes an inline frame of the form, resized to its content;
 * - `<button data-formloom-popup="<formId>">` opens the form in a modal dialog (focus kept inside it,
 *   Escape and the close button close it, focus goes back to the button);
 * - `window.formloom` does both from code: `embed(container, formId, options)`, `open(formId, options)`,
 *   `close()`, `scan(root)`;
 * - the frame's messages (frame-script.ts) are taken only from formloom's origin and from a frame this
 *   script made, and re-dispatched on the container as DOM events that bubble: `formloom:ready`,
 *   `formloom:step` `{stepKey, index}`, `formloom:completed` / `formloom:invalid` `{formId, responseId}`,
 *   `formloom:resize` `{height}`;
 * - hidden fields: `data-formloom-hidden="plan=pro,utm_source=site"`, and the host page's own query
 *   parameters whose names can be hidden-field names (`^[A-Za-z_][A-Za-z0-9_]{0,63}$`, not the page's own
 *   `embed`, `step`, `new`, `done`, `lang`), become query parameters of the frame; the form takes those it
 *   declares. The attribute wins over the host page's query;
 * - the language: `data-formloom-lang="de"` (option `lang`) asks for one of a multilingual form's
 *   languages (docs/languages.md); a right-to-left one lays the popup out right to left.
 *
 * formloom's origin is the origin this script was loaded from.
 */
import { createHash } from 'node:crypto';
import { pageWords, RIGHT_TO_LEFT_LANGUAGES, SUPPORTED_LANGUAGES } from '../i18n/locales.ts';

/** The close button's name per language, as JSON with non-ASCII letters escaped (the script stays ASCII). */
const CLOSE_WORDS = JSON.stringify(Object.fromEntries(SUPPORTED_LANGUAGES.map((language) => [language, pageWords(language).close]))).replace(
  /[^\x20-\x7e]/g,
  (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
);

export const HOST_SCRIPT = String.raw`/*! formloom embed.js: docs/embedding.md */
(function () {
  'use strict';
  if (window.formloom && window.formloom.version) return;
  var current = document.currentScript;
  var tag = current && current.src ? current : document.querySelector('script[src*="/embed.js"]');
  var BASE = new URL(tag ? tag.src : '/', window.location.href).origin;
  var NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
  var RESERVED = { embed: 1, step: 1, 'new': 1, done: 1, lang: 1 };
  var LANGUAGE = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/;
  var RTL = ${JSON.stringify(RIGHT_TO_LEFT_LANGUAGES)};
  var CLOSE = ${CLOSE_WORDS};
  var embeds = [];
  var popup = null;
  var seen = typeof WeakSet === 'function' ? new WeakSet() : null;

  function css(el, styles) { for (var key in styles) el.style[key] = styles[key]; return el; }
  function usable(name) { return NAME.test(name) && !RESERVED.hasOwnProperty(name); }

  function parseHidden(text) {
    var out = {};
    String(text || '').split(',').forEach(function (pair) {
      var at = pair.indexOf('=');
      if (at < 1) return;
      var name = pair.slice(0, at).trim();
      if (usable(name)) out[name] = pair.slice(at + 1).trim();
    });
    return out;
  }

  function frameUrl(formId, options) {
    var url = new URL('/s/' + encodeURIComponent(formId), BASE);
    var params = url.searchParams;
    var values = {};
    new URLSearchParams(window.location.search).forEach(function (value, name) {
      if (usable(name) && !values.hasOwnProperty(name)) values[name] = value;
    });
    var given = options.hidden || {};
    for (var name in given) if (given.hasOwnProperty(name) && usable(name)) values[name] = String(given[name]);
    for (var key in values) params.set(key, values[key]);
    params.set('embed', '1');
    if (options.lang && LANGUAGE.test(options.lang)) params.set('lang', options.lang);
    if (window.location.origin && window.location.origin !== 'null') params.set('fl-origin', window.location.origin);
    if (options.transparent) params.set('fl-transparent', '1');
    return url.href;
  }

  function optionsOf(el) {
    return {
      hidden: parseHidden(el.getAttribute('data-formloom-hidden')),
      transparent: el.hasAttribute('data-formloom-transparent') && el.getAttribute('data-formloom-transparent') !== 'false',
      title: el.getAttribute('data-formloom-title') || undefined,
      lang: el.getAttribute('data-formloom-lang') || undefined
    };
  }

  function makeFrame(formId, options) {
    var frame = document.createElement('iframe');
    frame.src = frameUrl(formId, options || {});
    frame.title = (options && options.title) || 'Form';
    frame.setAttribute('allowtransparency', 'true');
    // Hidden until the form says it is ready: a site that may not embed the form shows nothing.
    return css(frame, { display: 'block', width: '100%', height: '0', border: '0', visibility: 'hidden', background: 'transparent', colorScheme: 'normal' });
  }

  function fire(entry, type, detail) {
    var event;
    try {
      event = new CustomEvent('formloom:' + type, { bubbles: true, detail: detail });
    } catch (e) {
      event = document.createEvent('CustomEvent');
      event.initCustomEvent('formloom:' + type, true, false, detail);
    }
    entry.target.dispatchEvent(event);
  }

  function track(frame, target, formId, dialog) {
    var entry = { frame: frame, target: target, formId: formId, dialog: dialog, ready: false, ended: {} };
    embeds.push(entry);
    return entry;
  }
  function untrack(entry) { embeds = embeds.filter(function (other) { return other !== entry; }); }

  function tell(entry, message) {
    message.source = 'formloom-host';
    if (entry.frame.contentWindow) entry.frame.contentWindow.postMessage(message, BASE);
  }

  window.addEventListener('message', function (event) {
    if (event.origin !== BASE) return;
    var entry = null;
    for (var i = 0; i < embeds.length; i++) if (embeds[i].frame.contentWindow === event.source) entry = embeds[i];
    var data = event.data;
    if (!entry || !data || typeof data !== 'object' || data.source !== 'formloom' || typeof data.type !== 'string') return;
    var detail = data.detail && typeof data.detail === 'object' ? data.detail : {};
    switch (data.type) {
      case 'ready':
        entry.frame.style.visibility = 'visible';
        if (entry.dialog) tell(entry, { type: 'focus', where: 'first' });
        if (!entry.ready) { entry.ready = true; fire(entry, 'ready', { formId: entry.formId }); }
        break;
      case 'step':
        fire(entry, 'step', { stepKey: String(detail.stepKey || ''), index: Number(detail.index) });
        break;
      case 'completed':
      case 'invalid':
        var responseId = String(detail.responseId || '');
        if (entry.ended[responseId]) break;
        entry.ended[responseId] = true;
        fire(entry, data.type, { formId: entry.formId, responseId: responseId });
        break;
      case 'resize':
        var height = Number(detail.height);
        if (!(height > 0 && height < 100000)) break;
        entry.frame.style.height = Math.ceil(height) + 'px';
        fire(entry, 'resize', { height: height });
        break;
      case 'escape':
        if (entry.dialog && popup && popup.entry === entry) close();
        break;
    }
  });

  function embed(container, formId, options) {
    if (typeof container === 'string') container = document.querySelector(container);
    if (!container) throw new Error('formloom.embed: no such container');
    formId = String(formId || container.getAttribute('data-formloom-form') || '');
    var frame = makeFrame(formId, options || optionsOf(container));
    container.appendChild(frame);
    var entry = track(frame, container, formId, null);
    return { frame: frame, remove: function () { untrack(entry); if (frame.parentNode) frame.parentNode.removeChild(frame); } };
  }

  function close() {
    if (!popup) return;
    var current = popup;
    popup = null;
    untrack(current.entry);
    document.removeEventListener('keydown', current.onKey, true);
    if (typeof current.dialog.close === 'function' && current.dialog.open) current.dialog.close();
    if (current.dialog.parentNode) current.dialog.parentNode.removeChild(current.dialog);
    if (current.returnTo && typeof current.returnTo.focus === 'function') current.returnTo.focus();
  }

  function open(formId, options, opener) {
    close();
    options = options || {};
    var returnTo = opener || document.activeElement;
    var dialog = document.createElement('dialog');
    dialog.setAttribute('aria-label', options.title || 'Form');
    dialog.setAttribute('aria-modal', 'true');
    css(dialog, { position: 'fixed', inset: '0', width: '100%', height: '100%', maxWidth: 'none', maxHeight: 'none', margin: '0', padding: '16px',
      border: '0', boxSizing: 'border-box', background: 'rgba(15, 23, 42, 0.6)', display: 'flex', alignItems: 'center', justifyContent: 'center', zIndex: '2147483647' });
    var panel = css(document.createElement('div'), { position: 'relative', width: '100%', maxWidth: '720px', maxHeight: '100%', overflow: 'auto',
      background: options.transparent ? 'transparent' : '#ffffff', borderRadius: '12px', boxShadow: '0 20px 50px rgba(0, 0, 0, 0.3)' });
    // The popup speaks the language asked for, else the host page's.
    var language = String(options.lang || document.documentElement.lang || 'en').split('-')[0].toLowerCase();
    if (RTL.indexOf(language) >= 0) panel.dir = 'rtl';
    var closeButton = document.createElement('button');
    closeButton.type = 'button';
    closeButton.setAttribute('aria-label', CLOSE.hasOwnProperty(language) ? CLOSE[language] : CLOSE.en);
    closeButton.textContent = '\u00d7';
    css(closeButton, { position: 'absolute', top: '8px', insetInlineEnd: '8px', width: '40px', height: '40px', border: '0', borderRadius: '20px',
      background: 'rgba(15, 23, 42, 0.08)', color: '#0f172a', font: '24px/1 system-ui, sans-serif', cursor: 'pointer', zIndex: '1' });
    closeButton.addEventListener('click', close);
    var frame = makeFrame(formId, options);
    // Focus stays in the dialog: Tab past the form wraps to the close button, Shift+Tab before it to the form's last control.
    function sentinel(onFocus) {
      var el = document.createElement('span');
      el.tabIndex = 0;
      css(el, { position: 'absolute', width: '1px', height: '1px', overflow: 'hidden' });
      el.addEventListener('focus', onFocus);
      return el;
    }
    var entry = track(frame, opener || dialog, String(formId), dialog);
    var first = sentinel(function () { frame.focus(); tell(entry, { type: 'focus', where: 'last' }); });
    var last = sentinel(function () { closeButton.focus(); });
    panel.appendChild(closeButton);
    panel.appendChild(frame);
    dialog.appendChild(first);
    dialog.appendChild(panel);
    dialog.appendChild(last);
    dialog.addEventListener('cancel', function (event) { event.preventDefault(); close(); });
    dialog.addEventListener('click', function (event) { if (event.target === dialog) close(); });
    function onKey(event) { if (event.key === 'Escape' && popup) { event.preventDefault(); close(); } }
    document.addEventListener('keydown', onKey, true);
    document.body.appendChild(dialog);
    if (typeof dialog.showModal === 'function') dialog.showModal();
    else dialog.setAttribute('open', '');
    closeButton.focus();
    popup = { dialog: dialog, entry: entry, returnTo: returnTo, onKey: onKey };
    return { dialog: dialog, frame: frame, close: close };
  }

  function scan(root) {
    root = root || document;
    Array.prototype.forEach.call(root.querySelectorAll('[data-formloom-form]'), function (el) {
      if (seen ? seen.has(el) : el.formloomSeen) return;
      seen ? seen.add(el) : (el.formloomSeen = true);
      embed(el, el.getAttribute('data-formloom-form'), optionsOf(el));
    });
    Array.prototype.forEach.call(root.querySelectorAll('[data-formloom-popup]'), function (el) {
      if (seen ? seen.has(el) : el.formloomSeen) return;
      seen ? seen.add(el) : (el.formloomSeen = true);
      el.setAttribute('aria-haspopup', 'dialog');
      el.addEventListener('click', function (event) {
        event.preventDefault();
        open(el.getAttribute('data-formloom-popup'), optionsOf(el), el);
      });
    });
  }

  window.formloom = { version: 1, origin: BASE, embed: embed, open: function (formId, options) { return open(formId, options); }, close: close, scan: scan };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', function () { scan(); });
  else scan();
})();
`;

/** The script's ETag: a hash of its text, so a new release is fetched and an unchanged one answers 304. */
export const HOST_SCRIPT_ETAG = `"${createHash('sha256').update(HOST_SCRIPT).digest('base64url').slice(0, 27)}"`;
