/** A function giving 1, 2, 3, … on successive calls: ids for requests sent by message. */
export function idCounter(): () => number {
  let next = 1;
  return () => next++;
}
