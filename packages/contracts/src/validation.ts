/**
 * Validators of spec 000 §5 shared by server and web. Each returns null when the value is
 * acceptable or an error code the UI translates.
 */
export const USERNAME_PATTERN = /^[A-Za-z0-9_-]+$/;
export const USERNAME_MAX = 64;
export const PASSWORD_MIN = 6;
export const STRONG_PASSWORD_MIN = 8;
export const PASSWORD_MAX = 32;

export type UsernameProblem = 'required' | 'invalidUsername' | 'usernameTooLong';
export type PasswordProblem = 'required' | 'passwordTooSimple' | 'passwordTooLong' | 'passwordTooShort';

export function normalizeUsername(raw: string): string {
  return raw.trim();
}

export function checkUsername(raw: string): UsernameProblem | null {
  const username = normalizeUsername(raw);
  if (username.length === 0) return 'required';
  if (username.length > USERNAME_MAX) return 'usernameTooLong';
  if (!USERNAME_PATTERN.test(username)) return 'invalidUsername';
  return null;
}

function hasDigit(s: string): boolean {
  return /[0-9]/.test(s);
}
function hasLetter(s: string): boolean {
  return /[A-Za-z]/.test(s);
}
function hasUpper(s: string): boolean {
  return /[A-Z]/.test(s);
}
function hasLower(s: string): boolean {
  return /[a-z]/.test(s);
}
/** Anything that is neither an ASCII letter, a digit nor white space counts as special. */
function hasSpecial(s: string): boolean {
  return /[^A-Za-z0-9\s]/.test(s);
}

/**
 * Ordinary policy: 6 to 32 characters with at least two kinds among digits, letters and special
 * characters. Strong policy (requireStrongPwd): 8 to 32 characters with upper and lower case,
 * a digit and a special character. White space is not allowed in either.
 */
export function checkPassword(password: string, strong: boolean): PasswordProblem | null {
  if (password.length === 0) return 'required';
  if (password.length > PASSWORD_MAX) return 'passwordTooLong';
  if (/\s/.test(password)) return 'passwordTooSimple';
  if (strong) {
    if (password.length < STRONG_PASSWORD_MIN) return 'passwordTooShort';
    const ok = hasUpper(password) && hasLower(password) && hasDigit(password) && hasSpecial(password);
    return ok ? null : 'passwordTooSimple';
  }
  if (password.length < PASSWORD_MIN) return 'passwordTooShort';
  const kinds = [hasDigit(password), hasLetter(password), hasSpecial(password)].filter(Boolean).length;
  return kinds >= 2 ? null : 'passwordTooSimple';
}
