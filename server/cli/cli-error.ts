/** A failure the operator can fix: printed as is, without a stack, exit status 1. */
export class CliError extends Error {}
