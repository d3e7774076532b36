/**
 * A timestamp of the API as the console shows it (docs/console.md, Time and numbers), kept on one
 * line: a date broken after its hyphens or before its time is hard to read in a narrow column.
 */
import { dateTime } from '../format.js';

export function DateTime(props: { value: string | null | undefined; seconds?: boolean }) {
  const text = dateTime(props.value, { seconds: props.seconds ?? false });
  if (props.value === null || props.value === undefined || props.value === '') return <>{text}</>;
  return (
    <time class="date-time" dateTime={props.value}>
      {text}
    </time>
  );
}
