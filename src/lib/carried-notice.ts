// A toast for the next page, when the page that has something to say is leaving (issue 24): a protected page whose
// session the server refused to renew goes to /login, and /login opened while signed in goes on to where the shopper
// was going. Kept in this tab's sessionStorage and shown once, by the header's script on the next page; the toasts
// themselves (react-toastify) load only then.

const KEY = 'kirana-notice';

export interface CarriedNotice {
  kind: 'success' | 'error';
  text: string;
}

export function carryNotice(notice: CarriedNotice) {
  try {
    sessionStorage.setItem(KEY, JSON.stringify(notice));
  } catch {
    // Storage refused (a privacy setting): the next page simply says nothing.
  }
}

function takeNotice(): CarriedNotice | null {
  try {
    const text = sessionStorage.getItem(KEY);
    if (text === null) return null;
    sessionStorage.removeItem(KEY);
    const notice = JSON.parse(text) as Partial<CarriedNotice>;
    return typeof notice.text === 'string' ? { kind: notice.kind === 'error' ? 'error' : 'success', text: notice.text } : null;
  } catch {
    return null;
  }
}

/** Shows the notice a previous page left for this one, if any. */
export function showCarriedNotice() {
  const notice = takeNotice();
  if (!notice) return;
  void import('./toast.ts').then((toasts) => (notice.kind === 'error' ? toasts.toastError(notice.text) : toasts.toastSuccess(notice.text)));
}
