import { afterEach } from 'vitest';
import { resetLanguages } from './support.js';

// Every spec file: an account whose language a test switched is put back to chs after the test,
// passed or failed (the next specs sign in expecting the default language).
afterEach(resetLanguages);
