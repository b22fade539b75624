import { hash, verify } from '@node-rs/argon2';
import { checkPassword, type PasswordProblem } from '@yyp/contracts';
import { AppError } from './errors.js';

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

// The common-password list of @zxcvbn-ts/language-common (about 49,000 lower-case entries),
// loaded on the first password that is set and kept for the life of the process.
let commonPasswords: Promise<ReadonlySet<string>> | null = null;
function loadCommonPasswords(): Promise<ReadonlySet<string>> {
  commonPasswords ??= import('@zxcvbn-ts/language-common').then(
    ({ dictionary }) => new Set(dictionary['passwords-common']),
  );
  return commonPasswords;
}

// Symbols and digits written for letters ("p@ssw0rd").
const LEET: Record<string, string> = {
  '@': 'a',
  '4': 'a',
  $: 's',
  '5': 's',
  '0': 'o',
  '3': 'e',
  '1': 'i',
  '!': 'i',
  '7': 't',
  '+': 't',
  '|': 'l',
};

/** The spellings of a password that are looked up in the list (all lower case). */
export function commonPasswordVariants(password: string): string[] {
  const lower = password.toLowerCase();
  // Symbols added before or after a common password, or inserted into it ("Password1!", "admin@123").
  const trimmed = lower.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
  const bare = (s: string) => s.replace(/[^\p{L}\p{N}]+/gu, '');
  const respell = (s: string) => s.replace(/[@4$50317!+|]/g, (c) => LEET[c]!);
  const spelled = respell(trimmed);
  // Digits at the end usually stay digits ("P@ssw0rd1" is "password1").
  const [, head = '', digits = ''] = /^(.*?)(\d*)$/u.exec(trimmed) ?? [];
  const spelledHead = respell(head) + digits;
  return [...new Set([lower, trimmed, bare(lower), spelled, bare(spelled), spelledHead])];
}

/**
 * True when the password is one of the most common ones: ignoring case, symbols added before,
 * after or inside it, and the usual symbol-for-letter spellings.
 */
export async function isCommonPassword(password: string): Promise<boolean> {
  const list = await loadCommonPasswords();
  return commonPasswordVariants(password).some((v) => list.has(v));
}

/** The policy problem of a new password (spec 000 §5 policies, then the common-password list), or null. */
export async function newPasswordProblem(password: string, strong: boolean): Promise<PasswordProblem | null> {
  const problem = checkPassword(password, strong);
  if (problem) return problem;
  return (await isCommonPassword(password)) ? 'passwordTooSimple' : null;
}

/** Throws the spec's "password is too simple" error (PasswordTooSimple) unless the new password is acceptable. */
export async function assertNewPassword(password: string, strong: boolean): Promise<void> {
  const problem = checkPassword(password, strong);
  if (problem) throw new AppError('PasswordTooSimple', 'The password is too simple', { problem });
  if (await isCommonPassword(password)) {
    throw new AppError('PasswordTooSimple', 'The password is too simple', {
      problem: 'passwordTooSimple',
      reason: 'commonPassword',
    });
  }
}
