// Opaque random tokens (refresh and websocket tokens): 256 random bits, stored only as SHA-256, so a
// database dump does not hold a usable token.
import { createHash, randomBytes } from 'node:crypto';

export function newOpaqueToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashOpaqueToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
