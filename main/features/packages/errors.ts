import {
  workPackageRefusalCode,
  workPackageRefusalText,
  type WorkPackageRefusal,
  type WorkPackageRefusalCode,
} from '../../../domain/work-package-refusal';

/**
 * Why a work package or a confirmations file cannot be made or used here: a stable code (WP_…),
 * the reason as a code and its values (`reason`, said in the reader's language by
 * workPackageRefusalText), and its English sentence as the message, which says what to do.
 * Problems of the file itself are FileFormatError (domain/files/work-package*.ts), with codes of
 * the same family.
 */
export class WorkPackageError extends Error {
  override readonly name = 'WorkPackageError';
  readonly code: WorkPackageRefusalCode;
  constructor(readonly reason: WorkPackageRefusal) {
    super(workPackageRefusalText(reason));
    this.code = workPackageRefusalCode(reason);
  }
}
