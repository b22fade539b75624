import { hash, verify } from '@node-rs/argon2';

// argon2id with the OWASP-recommended minimum cost (19 MiB, 2 passes, 1 lane).
const options = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, options);
}

export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (!passwordHash) {
    // Spend the same time as a real check so timing does not reveal unknown accounts.
    await verify(DUMMY_HASH, password).catch(() => false);
    return false;
  }
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

const DUMMY_HASH = '$argon2id$v=19$m=19456,t=2,p=1$ExYU9NuC/DFJcrFepMPvEA$zs7NcvW5GjqmgjTYp0ZJYLt7yXQVQw6G17SnCFOnwu4';
