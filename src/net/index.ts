/**
 * The address policy every outgoing request is checked against, and its refusal.
 * (docs/design/layers.md, Surfaces)
 */
export { type AddressGuard, AddressPolicy } from './address-policy.js';
export { addressRefusalOf, AddressRefusedError } from './address-refusal.js';
