/**
 * Saves content as a download, as the browser (or the desktop app's download) keeps a file. The
 * object URL lives a while after the click: the download reads it after this function returns.
 */
export function saveFile(fileName: string, content: BlobPart, mediaType: string): void {
  const url = URL.createObjectURL(new Blob([content], { type: mediaType }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A file the core sent as base64 (the contract carries bytes so), saved as its bytes. */
export function saveBase64File(fileName: string, contentBase64: string, mediaType: string): void {
  const binary = atob(contentBase64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  saveFile(fileName, bytes, mediaType);
}
