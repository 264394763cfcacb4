// Toasts at the bottom of the screen: they close after 5 seconds or by their close button;
// primary unless a variant is given.
import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import Toast from 'react-bootstrap/Toast';
import ToastContainer from 'react-bootstrap/ToastContainer';

export const TOAST_DELAY_MS = 5_000;

export type ToastVariant = 'primary' | 'success' | 'danger' | 'warning';

interface ToastItem {
  id: number;
  message: string;
  variant: ToastVariant;
}

type ShowToast = (message: string, variant?: ToastVariant) => void;

const ToastContext = createContext<ShowToast>(() => undefined);

export const useToast = () => useContext(ToastContext);

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<ToastItem[]>([]);
  const nextId = useRef(1);
  const show = useCallback<ShowToast>((message, variant = 'primary') => {
    const id = nextId.current++;
    setToasts((current) => [...current, { id, message, variant }]);
  }, []);
  const value = useMemo(() => show, [show]);
  const remove = (id: number) => setToasts((current) => current.filter((t) => t.id !== id));
  return (
    <ToastContext.Provider value={value}>
      {children}
      {/* Each Toast is its own live region (role="alert"). */}
      <ToastContainer position="bottom-center" className="p-3 position-fixed" containerPosition="fixed">
        {toasts.map((toast) => (
          <Toast key={toast.id} bg={toast.variant} autohide delay={TOAST_DELAY_MS} onClose={() => remove(toast.id)} className="staff-toast">
            <div className="d-flex">
              <Toast.Body className="text-white">{toast.message}</Toast.Body>
              <button type="button" className="btn-close btn-close-white me-2 m-auto" aria-label="Close" onClick={() => remove(toast.id)} />
            </div>
          </Toast>
        ))}
      </ToastContainer>
    </ToastContext.Provider>
  );
}
