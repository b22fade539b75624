import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** An RSA private key as a JWK with its key id (RS256: what OpenID Connect clients expect by default). */
export interface OidcSigningKey {
  kid: string;
  /** the private JWK (kty RSA, n, e, d, p, q, dp, dq, qi) */
  privateJwk: crypto.JsonWebKey;
}

/** RFC 7638 thumbprint of the public part: the key id, stable for the key. */
function thumbprint(jwk: crypto.JsonWebKey): string {
  const canonical = JSON.stringify({ e: jwk.e, kty: jwk.kty, n: jwk.n });
  return crypto.createHash('sha256').update(canonical).digest('base64url');
}

export function makeOidcSigningKey(): OidcSigningKey {
  const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const privateJwk = privateKey.export({ format: 'jwk' });
  return { kid: thumbprint(privateJwk), privateJwk };
}

/**
 * The provider's signing key, generated once and kept in DATA_DIR/oidc-provider-key.json (mode
 * 0600), as the JWT secret is (platform/tokens.ts loadJwtSecret): every instance on the same
 * DATA_DIR signs with it, and a restart keeps the viewers' tokens valid.
 */
export function loadOidcSigningKey(dataDir: string): OidcSigningKey {
  const file = path.join(dataDir, 'oidc-provider-key.json');
  fs.mkdirSync(dataDir, { recursive: true });
  const read = (): OidcSigningKey => {
    const privateJwk = JSON.parse(fs.readFileSync(file, 'utf8')) as crypto.JsonWebKey;
    return { kid: thumbprint(privateJwk), privateJwk };
  };
  try {
    return read();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const key = makeOidcSigningKey();
  try {
    fs.writeFileSync(file, JSON.stringify(key.privateJwk), { mode: 0o600, flag: 'wx' });
    return key;
  } catch (err) {
    // Another instance on the same DATA_DIR wrote it first: use theirs.
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    return read();
  }
}
