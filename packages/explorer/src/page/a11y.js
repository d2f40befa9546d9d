// Names and keyboard access that Swagger UI's own markup lacks (found with axe-core, see
// test/browser.test.js): form controls without a label, a link nested in the operation's summary
// button, scrollable code blocks the keyboard cannot reach. Applied to what Swagger UI renders,
// after each change. ES module.

/** The accessible name for a form control Swagger UI leaves unnamed, from where it sits. */
function nameFor(control) {
  const row = control.closest('tr[data-param-name]');
  if (row) return row.getAttribute('data-param-name') + ' (' + row.getAttribute('data-param-in') + ' parameter)';
  const variable = control.getAttribute('data-variable');
  if (variable) return 'Server variable ' + variable;
  if (control.id === 'servers' || control.closest('.servers')) return 'Server';
  if (control.closest('.examples-select')) return 'Example';
  if (control.closest('.content-type-wrapper, .response-control-media-type, .body-param-content-type'))
    return 'Media type';
  if (control.matches('textarea.body-param__text') || control.closest('.body-param')) return 'Request body';
  if (control.type === 'file') return 'File to upload';
  return control.getAttribute('placeholder') || control.getAttribute('title') || 'Value';
}

/** Whether a label gives the control a name: a label with text besides the control's own. */
function labelled(control) {
  if (control.hasAttribute('aria-label') || control.hasAttribute('aria-labelledby')) return true;
  const labels = [
    control.closest('label'),
    control.id && control.ownerDocument.querySelector('label[for="' + CSS.escape(control.id) + '"]'),
  ];
  return labels.some((label) => label && label.textContent.replace(control.textContent, '').trim() !== '');
}

/**
 * Fixes what is rendered under `root` (idempotent, cheap when nothing is new).
 * @param {ParentNode} root
 */
export function fixAccessibility(root) {
  for (const control of root.querySelectorAll('select, textarea, input:not([type=hidden])')) {
    if (!labelled(control)) control.setAttribute('aria-label', nameFor(control));
  }
  // The deep link inside the operation's summary button is a second control inside a control;
  // the button opens the operation (and sets the same link), so the inner one stops being a link.
  for (const link of root.querySelectorAll('.opblock-summary-control a[href]')) {
    link.setAttribute('data-href', link.getAttribute('href'));
    link.removeAttribute('href');
  }
  // "Server variables" is an h4 under the Servers h2: announced (and ordered) as an h3.
  for (const heading of root.querySelectorAll('.servers h4:not([aria-level])')) heading.setAttribute('aria-level', '3');
  // Each responses table is a region: with two operations open, unnamed ones are not told apart.
  for (const table of root.querySelectorAll('table.responses-table[role=region]:not([aria-label])')) {
    const block = table.closest('.opblock');
    const method = block?.querySelector('.opblock-summary-method')?.textContent ?? '';
    const path = block?.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? '';
    table.setAttribute('aria-label', ('Responses of ' + method + ' ' + path).trim());
  }
  // Authorize's dialog: its x button has no text, and its buttons' names must start with what
  // they show (axe button-name, label-content-name-mismatch: voice control says what it sees).
  for (const close of root.querySelectorAll('.modal-ux button.close-modal:not([aria-label])'))
    close.setAttribute('aria-label', 'Close');
  for (const button of root.querySelectorAll('.modal-ux button.modal-btn[aria-label]')) {
    const text = button.textContent.trim();
    const label = button.getAttribute('aria-label') ?? '';
    if (text && !label.toLowerCase().startsWith(text.toLowerCase()))
      button.setAttribute('aria-label', text + ': ' + label.toLowerCase());
  }
  // Its "Authorized" is an h6 under the scheme's h4: announced (and ordered) as an h5.
  for (const heading of root.querySelectorAll('.modal-ux h6:not([aria-level])'))
    heading.setAttribute('aria-level', '5');
  // Code and example blocks scroll sideways: the keyboard must be able to reach them.
  for (const block of root.querySelectorAll('pre.microlight:not([tabindex]), .highlight-code > pre:not([tabindex])'))
    block.setAttribute('tabindex', '0');
}

/**
 * Runs {@link fixAccessibility} now and after every change of the DOM under `root` (once per frame).
 * @param {HTMLElement} root
 * @returns {MutationObserver}
 */
export function keepAccessible(root) {
  let queued = false;
  const run = () => {
    queued = false;
    fixAccessibility(root);
  };
  const observer = new MutationObserver(() => {
    if (!queued) {
      queued = true;
      requestAnimationFrame(run);
    }
  });
  observer.observe(root, { childList: true, subtree: true });
  run();
  return observer;
}
