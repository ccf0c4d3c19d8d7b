// Toasts (SPEC §8: bottom-right, 3 s, closeable, pausable, draggable) through react-toastify, loaded only when
// the first toast is shown: most visits never show one.
import type { ToastOptions } from 'react-toastify';

export const TOAST_MS = 3000;

let loading: Promise<typeof import('react-toastify')> | undefined;

function toastify() {
  loading ??= (async () => {
    const [lib, { createElement }, { createRoot }] = await Promise.all([
      // Brings its own styles (injected on load): the build inlines every stylesheet, which leaves no file for a
      // lazily imported one. A Content-Security-Policy must allow it (style-src).
      import('react-toastify'),
      import('react'),
      import('react-dom/client'),
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
