/**
 * The page's side of an embed (docs/embedding.md), inlined with the CSP nonce in embed mode only. It
 * tells the embedding page what happens, from the attributes of the page's root element:
 *
 * - `ready` on every page, then `step` (`data-state="step"`: `{stepKey, index}`), `completed` or
 *   `invalid` (`{formId, responseId}`), or `closed`;
 * - `resize` (`{height}`) whenever the page's height changes;
 * - `escape` when Escape is pressed inside the frame (a popup closes).
 *
 * Messages go to the host's origin only (`data-host-origin`, from the frame URL's `fl-origin`): the
 * browser drops a message whose target origin is not the parent's. Where the browser tells which origin
 * embeds the page (`location.ancestorOrigins`: Chromium, Safari) nothing is sent to any other.
 * The host may ask the page to move focus to its first or last control (`{type: "focus", where}`):
 * only messages from the parent window with the host's origin are heeded.
 */
export const FRAME_SCRIPT = String.raw`(function () {
  'use strict';
  var root = document.documentElement;
  var host = root.getAttribute('data-host-origin');
  if (!host || window.parent === window) return;
  var ancestors = window.location.ancestorOrigins;
  if (ancestors && ancestors.length > 0 && ancestors[0] !== host) return;
  var formId = root.getAttribute('data-form-id') || '';
  function post(type, detail) {
    window.parent.postMessage({ source: 'formloom', version: 1, type: type, formId: formId, detail: detail }, host);
  }
  post('ready', { formId: formId });
  var state = root.getAttribute('data-state');
  if (state === 'step') post('step', { stepKey: root.getAttribute('data-step-key') || '', index: Number(root.getAttribute('data-step-index')) });
  else if (state === 'completed' || state === 'invalid') post(state, { formId: formId, responseId: root.getAttribute('data-response-id') || '' });
  else if (state === 'closed') post('closed', { formId: formId });

  var last = -1;
  function measure() {
    var height = Math.ceil(document.body.getBoundingClientRect().height);
    if (height !== last) { last = height; post('resize', { height: height }); }
  }
  if (typeof ResizeObserver === 'function') new ResizeObserver(measure).observe(document.body);
  window.addEventListener('load', measure);
  measure();

  document.addEventListener('keydown', function (event) {
    if (event.key === 'Escape' && !event.defaultPrevented) post('escape', {});
  });

  function focusable() {
    return Array.prototype.filter.call(document.querySelectorAll('a[href], button, input:not([type=hidden]), select, textarea, iframe, [tabindex]:not([tabindex="-1"])'), function (el) {
      return !el.disabled && el.getClientRects().length > 0;
    });
  }
  window.addEventListener('message', function (event) {
    if (event.origin !== host || event.source !== window.parent) return;
    var data = event.data;
    if (!data || typeof data !== 'object' || data.source !== 'formloom-host' || data.type !== 'focus') return;
    var list = focusable();
    var invalid = document.querySelector('[aria-invalid="true"]:not(fieldset)');
    var target = data.where === 'last' ? list[list.length - 1] : (invalid || list[0]);
    if (target) target.focus();
  });
})();`;
