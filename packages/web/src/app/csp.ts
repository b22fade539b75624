/**
 * The page's style nonce. The server's Content-Security-Policy allows <style> elements only with
 * the nonce of the answer that carried the page, and writes that nonce into
 * <meta property="csp-nonce"> (Vite's html.cspNonce). Ant Design gets it through ConfigProvider;
 * style elements other libraries create in script (the dialogs' scroll lock, scrollbar
 * measurement) get it here. Elements in markup never do: an injected <style> stays refused.
 */

function readNonce(): string | undefined {
  if (typeof document === 'undefined') return undefined;
  const meta = document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]');
  // Browsers hide a nonce attribute from getAttribute once parsed; the property keeps it.
  const nonce = meta?.nonce || meta?.getAttribute('nonce') || '';
  return nonce || undefined;
}

export const cspNonce: string | undefined = readNonce();

/** Gives every <style> element that script creates the page's nonce. */
function nonceScriptStyles(nonce: string): void {
  const createElement = document.createElement.bind(document);
  document.createElement = ((tagName: string, options?: ElementCreationOptions) => {
    const element = createElement(tagName, options);
    if (element instanceof HTMLStyleElement) element.nonce = nonce;
    return element;
  }) as typeof document.createElement;
}

if (cspNonce) nonceScriptStyles(cspNonce);
