import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM with the service's sealing key: what keeps API keys (for KeyFormat=Visible) and Wifi
 * passwords recoverable by the service but unreadable in a copy of their table alone.
 * Layout: 12-byte nonce | ciphertext | 16-byte tag.
 */
export interface SecretBox {
  seal(plaintext: string): Uint8Array;
  open(sealed: Uint8Array): string;
}

export function createSecretBox(key: Uint8Array): SecretBox {
  if (key.length !== 32) throw new Error('The sealing key must be 32 bytes.');
  return {
    seal(plaintext) {
      const nonce = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, nonce);
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return new Uint8Array(Buffer.concat([nonce, body, cipher.getAuthTag()]));
    },
    open(sealed) {
      const bytes = Buffer.from(sealed);
      const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12));
      decipher.setAuthTag(bytes.subarray(bytes.length - 16));
      return Buffer.concat([decipher.update(bytes.subarray(12, bytes.length - 16)), decipher.final()]).toString('utf8');
    },
  };
}
