/** The part of jsdom the DICOMweb client test uses (its window's XMLHttpRequest); jsdom ships no types. */
declare module 'jsdom' {
  export class JSDOM {
    constructor(html?: string, options?: { url?: string });
    readonly window: { XMLHttpRequest: unknown; close(): void };
  }
}
