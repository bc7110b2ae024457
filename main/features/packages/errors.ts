/**
 * Why a work package or a confirmations file cannot be made or used here, with a stable code
 * (WP_…) and a message that says what to do. Problems of the file itself are FileFormatError
 * (domain/files/work-package*.ts), with codes of the same family.
 */
export class WorkPackageError extends Error {
  override readonly name = 'WorkPackageError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
