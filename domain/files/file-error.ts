/** A problem with a configuration file or a firmware bundle, with a stable code the UI and devices share. */
export class FileFormatError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'FileFormatError';
  }
}
