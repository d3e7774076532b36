/**
 * A URL that a narrow column may wrap only after its separators (/, ?, & and #), never inside a
 * word: a line break opportunity (<wbr>) follows each (docs/console.md, Tables).
 */
import { Fragment } from 'preact';

/** Splits after a separator, but not between the two slashes of `https://`. */
const BREAK_AFTER = /(?<=[/?&#])(?!\/)/;

export function UrlText(props: { url: string; class?: string }) {
  const parts = props.url.split(BREAK_AFTER);
  return (
    <span class={props.class === undefined ? 'url-text' : `url-text ${props.class}`}>
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </span>
  );
}
