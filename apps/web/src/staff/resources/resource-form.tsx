// The New and Edit modal of a tab: one field per declaration, the save rules, delete with a
// confirmation, a static backdrop that bounces.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import type { ResourceDeclaration } from '@boardwalk/contract/staff-tabs';
import { useStaffErrorHandler } from '../auth/staff-errors.ts';
import { useToast } from '../../ui/toasts.tsx';
import { FieldInput } from './fields/field-inputs.tsx';
import { useDeleteRecord, useSaveRecord, type Row } from './resource-api.ts';
import {
  checkSave,
  initialValues,
  isEditable,
  isRequired,
  isShown,
  toRequestBody,
  type FormMode,
  type FormValues,
} from './resource-values.ts';

export interface ResourceFormProps {
  resource: ResourceDeclaration;
  /** null: a new record. */
  row: Row | null;
  canUpdate: boolean;
  canDelete: boolean;
  onClose: () => void;
}

export function ResourceForm({ resource, row, canUpdate, canDelete, onClose }: ResourceFormProps) {
  const mode: FormMode = row ? 'edit' : 'new';
  const id = row ? String(row[resource.idField] ?? '') : null;
  const [initial] = useState<FormValues>(() => initialValues(resource, row));
  const [values, setValues] = useState<FormValues>(initial);
  const [message, setMessage] = useState<string | null>(null);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const save = useSaveRecord(resource);
  const remove = useDeleteRecord(resource);
  const handleError = useStaffErrorHandler();
  const toast = useToast();
  const busy = save.isPending || remove.isPending;
  const readOnlyForm = mode === 'edit' && !canUpdate;
  const check = checkSave(resource, mode, initial, values);
  const titleId = `${resource.key}-modal-title`;
  const bounce = useBackdropBounce();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!check.canSave || busy || readOnlyForm) return;
    setMessage(null);
    save.mutate(
      { id, body: toRequestBody(resource, mode, values) },
      {
        onSuccess: () => {
          toast(mode === 'new' ? `${resource.title}: record created.` : `${resource.title}: record saved.`, 'success');
          onClose();
        },
        onError: (error) => setMessage(handleError(error)),
      },
    );
  };

  const confirmDelete = () => {
    if (!id || busy) return;
    setMessage(null);
    remove.mutate(id, {
      onSuccess: () => {
        toast(`${resource.title}: record deleted.`, 'success');
        onClose();
      },
      onError: (error) => {
        setConfirmingDelete(false);
        setMessage(handleError(error));
      },
    });
  };

  const hint = !check.changed ? 'Nothing has changed yet.' : check.missing.length ? `Required: ${check.missing.join(', ')}.` : null;

  return (
    // A static backdrop: a click on it (or Escape) never closes the modal, it bounces. Drawn
    // here rather than with react-bootstrap's backdrop="static", whose bounce ends at the first
    // transitionend bubbling from any field and so lasts anywhere from 0 to 300 ms.
    <Modal show onHide={bounce.start} aria-labelledby={titleId} className={bounce.active ? 'staff-modal modal-static' : 'staff-modal'}>
      <Form noValidate onSubmit={submit} className="staff-modal__form">
        <Modal.Header>
          <Modal.Title id={titleId} as="h2" className="h5">
            {mode === 'new' ? `New ${resource.title}` : `Edit ${resource.title}`}
          </Modal.Title>
          <button type="button" className="btn-close" aria-label="Close" onClick={onClose} disabled={busy} />
        </Modal.Header>
        <Modal.Body>
          <div role="alert" aria-atomic="true">
            {message ? <div className="alert alert-danger">{message}</div> : null}
          </div>
          {resource.fields
            .filter((field) => isShown(field, mode))
            .map((field) => (
              <FieldInput
                key={field.name}
                id={`${resource.key}-${field.name}`}
                field={field}
                value={values[field.name] ?? ''}
                required={isRequired(field, mode)}
                disabled={busy || readOnlyForm || !isEditable(field, mode)}
                onChange={(value) => setValues((current) => ({ ...current, [field.name]: value }))}
              />
            ))}
        </Modal.Body>
        <Modal.Footer className="justify-content-between">
          {confirmingDelete ? (
            <div className="d-flex flex-wrap align-items-center gap-2 w-100" role="group" aria-label="Confirm delete">
              <span className="me-auto fw-semibold">Delete this record? This cannot be undone.</span>
              <Button variant="outline-secondary" onClick={() => setConfirmingDelete(false)} disabled={busy}>
                Cancel
              </Button>
              <Button variant="danger" onClick={confirmDelete} disabled={busy}>
                Yes, Delete
              </Button>
            </div>
          ) : (
            <>
              <div>
                {mode === 'edit' && canDelete && resource.operations.delete ? (
                  <Button variant="outline-danger" onClick={() => setConfirmingDelete(true)} disabled={busy}>
                    Delete
                  </Button>
                ) : null}
              </div>
              <div className="d-flex align-items-center gap-2">
                {hint && !readOnlyForm ? <small className="text-body-secondary staff-modal__hint">{hint}</small> : null}
                <Button variant="outline-secondary" onClick={onClose} disabled={busy}>
                  Cancel
                </Button>
                {readOnlyForm ? null : (
                  <Button type="submit" variant="primary" disabled={!check.canSave || busy}>
                    Save
                  </Button>
                )}
              </div>
            </>
          )}
        </Modal.Footer>
      </Form>
    </Modal>
  );
}

/** The modal backdrop bounce lasts 100 ms. */
export const BACKDROP_BOUNCE_MS = 100;

function useBackdropBounce() {
  const [active, setActive] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const start = () => {
    clearTimeout(timer.current);
    setActive(true);
    timer.current = setTimeout(() => setActive(false), BACKDROP_BOUNCE_MS);
  };
  return { active, start };
}
