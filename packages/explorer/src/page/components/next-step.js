// "Next step: n", in the workflow panel and in the step bar: one button, two places. ES module.
import { openStep } from '../runner.js';
import { h } from './react.js';

/**
 * @param {{ sys: any, active: { workflow: any, step: number }, className: string }} props
 *   `className` places it (`svc-step-next` in the panel, `svc-stepbar-next` in the bar)
 */
export function NextStep({ sys, active, className }) {
  return h(
    'button',
    { type: 'button', className: 'btn execute ' + className, onClick: () => openStep(sys, active, active.step + 1) },
    'Next step: ' + (active.step + 2),
  );
}
