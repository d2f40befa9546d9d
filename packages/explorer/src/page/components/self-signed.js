// "Self-signed certificate" beside the servers: curl -k and its equivalents for real endpoints.
// ES module.
import { selfSigned } from '../requests.js';
import { INSECURE_KEY, notify, writeSession } from '../state.js';
import { h } from './react.js';

export function SelfSignedToggle() {
  return h(
    'label',
    {
      className: 'svc-self-signed',
      title: 'Accept the certificate of an https endpoint that this browser does not trust (curl -k)',
    },
    h('input', {
      type: 'checkbox',
      defaultChecked: selfSigned(),
      onChange: (event) => {
        writeSession(INSECURE_KEY, event.target.checked ? true : null);
        notify(); // the samples' -k follows it
      },
    }),
    ' Self-signed certificate (real endpoints only)',
  );
}
