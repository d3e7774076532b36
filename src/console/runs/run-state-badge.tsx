/** A run's state as a coloured word: running, finished, failed… */
import { runsTexts } from './runs-texts.js';

const CLASSES: Record<number, string> = {
  2010: 'badge',
  2020: 'badge badge-running',
  2030: 'badge badge-ok',
  2040: 'badge badge-failed',
  2050: 'badge',
  2060: 'badge badge-failed',
};

export function RunStateBadge(props: { state: number }) {
  return <span class={CLASSES[props.state] ?? 'badge'}>{runsTexts().stateName(props.state)}</span>;
}
