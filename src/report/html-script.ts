/**
 * The HTML report's only script, inlined in the page: filters by status, section and
 * name; opens a check linked by its fragment (#check-…); copies a curl command. It reads
 * nothing but the page's own DOM, and its hash is the only script the page's CSP allows.
 * Without it (a viewer that strips scripts) every check is shown, unfiltered.
 */
export const htmlScript = `
(function () {
  'use strict';
  var all = function (selector, root) { return Array.prototype.slice.call((root || document).querySelectorAll(selector)); };
  var checks = all('details.check');
  var filters = document.getElementById('filters');
  var boxes = all('input[type=checkbox]', filters);
  var text = document.getElementById('filter-text');
  var shown = document.getElementById('shown-count');
  filters.hidden = false;

  function chosen(kind) {
    return boxes.filter(function (b) { return b.getAttribute('data-kind') === kind && b.checked; }).map(function (b) { return b.value; });
  }
  function apply() {
    var statuses = chosen('status');
    var sections = chosen('section');
    var needle = text.value.trim().toLowerCase();
    var count = 0;
    checks.forEach(function (el) {
      var show = statuses.indexOf(el.getAttribute('data-status')) >= 0 &&
        sections.indexOf(el.getAttribute('data-section')) >= 0 &&
        (needle === '' || el.getAttribute('data-name').toLowerCase().indexOf(needle) >= 0);
      el.hidden = !show;
      if (show) count++;
    });
    all('.section-group').forEach(function (group) { group.hidden = group.querySelector('details.check:not([hidden])') === null; });
    shown.textContent = count + ' of ' + checks.length + ' checks shown';
  }
  boxes.forEach(function (b) { b.addEventListener('change', apply); });
  text.addEventListener('input', apply);
  document.getElementById('open-all').addEventListener('click', function () { checks.forEach(function (el) { if (!el.hidden) el.open = true; }); });
  document.getElementById('close-all').addEventListener('click', function () { checks.forEach(function (el) { el.open = false; }); });

  // A link to one check (from a root cause, or shared by hand) shows it even when filtered out.
  function reveal() {
    var target = location.hash.length > 1 ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
    if (!target || !target.classList.contains('check')) return;
    target.hidden = false;
    target.parentNode.hidden = false;
    target.open = true;
    target.scrollIntoView();
  }
  window.addEventListener('hashchange', reveal);

  function copyText(value) {
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(value);
    return new Promise(function (resolve, reject) {
      var area = document.createElement('textarea');
      area.value = value;
      area.setAttribute('readonly', '');
      area.className = 'offscreen';
      document.body.appendChild(area);
      area.select();
      var ok = document.execCommand('copy');
      document.body.removeChild(area);
      if (ok) resolve(); else reject(new Error('copy refused'));
    });
  }
  document.addEventListener('click', function (event) {
    var button = event.target.closest ? event.target.closest('button.copy') : null;
    if (!button) return;
    var source = document.getElementById(button.getAttribute('data-copy'));
    copyText(source.textContent).then(function () { button.textContent = 'Copied'; }, function () {
      // No clipboard (a locked-down viewer): select the command for the reader to copy.
      var range = document.createRange();
      range.selectNodeContents(source);
      window.getSelection().removeAllRanges();
      window.getSelection().addRange(range);
      button.textContent = 'Selected: press Ctrl+C';
    });
    setTimeout(function () { button.textContent = 'Copy'; }, 2000);
  });

  apply();
  reveal();
})();
`;
