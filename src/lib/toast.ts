// Toasts (SPEC §8: bottom-right, 3 s, closeable, pausable, draggable) through react-toastify, loaded only when
// the first toast is shown: most visits never show one.
import type { ToastOptions } from 'react-toastify';
// The stylesheet as a file of the build, linked when the first toast loads: the CSP allows stylesheets from the
// shop's origin but no <style> a script injects, which the styled entry of react-toastify would add.
import toastStylesheet from 'react-toastify/ReactToastify.css?url';

export const TOAST_MS = 3000;

let loading: Promise<typeof import('react-toastify/unstyled')> | undefined;

function linkStylesheet(): Promise<void> {
  return new Promise((resolve) => {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = toastStylesheet;
    // A toast without its styles is still a toast: go on either way.
    link.onload = link.onerror = () => resolve();
    document.head.append(link);
  });
}

function toastify() {
  loading ??= (async () => {
    const [lib, { createElement }, { createRoot }] = await Promise.all([
      import('react-toastify/unstyled'),
      import('react'),
      import('react-dom/client'),
      linkStylesheet(),
    ]);
    const host = document.createElement('div');
    host.dataset.toasts = '';
    document.body.append(host);
    createRoot(host).render(
      createElement(lib.ToastContainer, {
        position: 'bottom-right',
        autoClose: TOAST_MS,
        closeOnClick: false,
        pauseOnHover: true,
        pauseOnFocusLoss: true,
        draggable: true,
        newestOnTop: true,
      }),
    );
    return lib;
  })();
  return loading;
}

export async function toastSuccess(text: string, options?: ToastOptions) {
  (await toastify()).toast.success(text, options);
}

export async function toastError(text: string, options?: ToastOptions) {
  (await toastify()).toast.error(text, options);
}
