import { badConfigFile } from './config-file-content';

/**
 * The organization key certificate (config-file-org-key.ts) as the text block the vendor's secure
 * configuration map carries in `fso7-3`. The vendor's own files hold a PEM object there (their
 * signer's certificate, the spec infers); ours holds our CBOR certificate under a label of our own,
 * so that nothing mistakes it for an X.509 certificate.
 */
export const ORG_KEY_PEM_LABEL = 'PROVISIONER ORG KEY CERTIFICATE';

const BEGIN = `-----BEGIN ${ORG_KEY_PEM_LABEL}-----`;
const END = `-----END ${ORG_KEY_PEM_LABEL}-----`;
/** RFC 7468: base64 lines of 64 characters. */
const LINE = 64;

export function orgKeyCertificateToPem(certificate: Uint8Array): string {
  const base64 = Buffer.from(certificate).toString('base64');
  const lines: string[] = [];
  for (let at = 0; at < base64.length; at += LINE) lines.push(base64.slice(at, at + LINE));
  return [BEGIN, ...lines, END, ''].join('\n');
}

/**
 * The certificate's bytes. Strict (RFC 7468 "strict" form, CRLF allowed): one block with our label,
 * nothing but base64 between its lines, padding only at the end.
 */
export function orgKeyCertificateFromPem(pem: string): Uint8Array {
  const lines = pem.replace(/\r\n/g, '\n').replace(/\n$/, '').split('\n');
  if (lines[0] !== BEGIN || lines.at(-1) !== END) {
    badConfigFile(`"fso7-3" is not a PEM block labelled "${ORG_KEY_PEM_LABEL}" (the organization key certificate)`);
  }
  const base64 = lines.slice(1, -1).join('');
  if (base64.length === 0 || base64.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(base64)) {
    badConfigFile('the PEM block in "fso7-3" does not hold base64');
  }
  // A Buffer, as the CBOR decoder gives layout 2's certificate: both layouts decode to the same values.
  return Buffer.from(base64, 'base64');
}
