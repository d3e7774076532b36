/**
 * The reason for a value outside a fixed set, naming every allowed value so the caller can pick
 * one (docs/api.md, Common rules, Errors): `must be one of "url_list.csv.gz", "link_list.csv.gz"`,
 * or `must be "BASIC"` when there is only one.
 */
export function allowedValuesReason(values: readonly unknown[]): string {
  const shown = [...new Set(values.map((value) => JSON.stringify(value)))];
  return shown.length === 1 ? `must be ${shown[0]}` : `must be one of ${shown.join(', ')}`;
}
