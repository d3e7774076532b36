/** One problem with one input field, as it appears in the `errors` member of an NG body. */
export interface FieldError {
  field: string;
  reason: string;
}

/** Input that passed the schema but breaks a rule the schema cannot express. */
export class InvalidInputError extends Error {
  override name = 'InvalidInputError';
  constructor(readonly errors: readonly FieldError[]) {
    super(errors.map((e) => `${e.field}: ${e.reason}`).join('; '));
  }
}
