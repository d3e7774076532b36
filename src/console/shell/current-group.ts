/**
 * The service group a contract's pages stand beside (docs/console.md, Layout): the users and
 * audit log pages have no group in their address, yet the navigation keeps the group's entries
 * and the picker keeps showing the group the user came from. Kept for the tab's life in
 * sessionStorage, so a reload of such a page keeps it too.
 */
const STORAGE_PREFIX = 'kumo.console.group.';

/** Remembers the group of a page whose address names one. */
export function rememberGroup(contractId: number, groupId: number): void {
  try {
    sessionStorage.setItem(`${STORAGE_PREFIX}${contractId}`, String(groupId));
  } catch {
    // Storage refused (private mode, quota): the page falls back to the first group.
  }
}

/**
 * The group to show beside a contract's page: the one in the address, else the last one visited
 * if it still exists, else the contract's first; null while the groups are unknown or none exist.
 */
export function currentGroupOf(
  contractId: number,
  addressGroupId: number | null,
  groups: readonly { id: number }[] | undefined,
): number | null {
  if (addressGroupId !== null) return addressGroupId;
  if (groups === undefined || groups.length === 0) return null;
  let remembered: number | null = null;
  try {
    remembered = Number(sessionStorage.getItem(`${STORAGE_PREFIX}${contractId}`));
  } catch {
    remembered = null;
  }
  return groups.some((group) => group.id === remembered) ? remembered : groups[0]!.id;
}
