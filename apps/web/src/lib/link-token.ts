// The token of an emailed link (its #fragment: the loyalty statement, a guest's privacy link),
// kept in this tab's session storage under the page's key: a reload keeps the page, another tab
// or a later visit does not. The page takes it out of the address bar once read.

/** The token the link carries, else the one this tab kept; kept for a reload. */
export function takeLinkToken(key: string): string | null {
  const fromLink = window.location.hash.replace(/^#/, '').trim();
  try {
    if (fromLink) sessionStorage.setItem(key, fromLink);
    return fromLink || sessionStorage.getItem(key);
  } catch {
    return fromLink || null;
  }
}

/** Forgets the kept token (refused, or spent). */
export function forgetLinkToken(key: string): void {
  try {
    sessionStorage.removeItem(key);
  } catch {
    // Storage refused: nothing kept.
  }
}

/** Takes the token out of the address bar and the history (a shared screen, synced tabs). */
export function hideLinkToken(): void {
  if (window.location.hash) window.history.replaceState(window.history.state, '', window.location.pathname);
}
