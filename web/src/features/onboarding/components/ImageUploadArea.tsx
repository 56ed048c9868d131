import { useId, useRef, useState, type DragEvent } from 'react';
import { Alert, Button, FormIcon, cx } from '../../../components/ui';
import '../../../styles/onboarding.css';
import type { ImagePicker, PickedImage, UploadState } from '../useImagePicker';

/** The label of each upload state, as a person reads it. */
export const UPLOAD_STATE_LABELS: Record<UploadState, string> = {
  checking: 'Getting ready...',
  waiting: 'Waiting to upload',
  uploading: 'Uploading...',
  retrying: 'Connection lost',
  done: 'Uploaded',
  failed: 'Failed',
};

/** Props of ImageUploadArea. */
export interface ImageUploadAreaProps {
  picker: ImagePicker;
  /** Names one picture, e.g. 'Photo' or 'Logo'. */
  itemName: string;
  /** The add button's text, e.g. 'Add photos'. */
  addLabel: string;
  hint?: string;
  disabled?: boolean;
  error?: string;
}

/**
 * ImageUploadArea lets a person pick (or drop) images, at most picker.max,
 * extras dropped with a notice, the picker disabled when full. A file that
 * is not a photo (or cannot be sent) is refused at once with a message that
 * names it. Each picture shows a preview, a labelled remove cross (which
 * also stops its upload) and its upload state: while uploading a progress
 * bar with its percentage, while the connection is down when it tries
 * again, when failed the reason and a Try again button.
 */
export function ImageUploadArea({ picker, itemName, addLabel, hint, disabled, error }: ImageUploadAreaProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [notice, setNotice] = useState('');
  const baseId = useId();
  const canAdd = !disabled && !picker.full;

  const addFiles = (files: Iterable<File>) => {
    const dropped = picker.add(files);
    setNotice(dropped > 0 ? `Only ${picker.max} images can be added; ${dropped} ${dropped === 1 ? 'file was' : 'files were'} left out.` : '');
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    if (canAdd) addFiles(e.dataTransfer.files);
  };

  return (
    <div onDragOver={(e) => e.preventDefault()} onDrop={onDrop} className={cx('ob-upload', error && 'fk-error')}>
      <input
        ref={inputRef}
        id={`${baseId}-input`}
        type="file"
        accept="image/*"
        multiple
        hidden
        disabled={!canAdd}
        aria-label={addLabel}
        onChange={(e) => {
          if (e.target.files) addFiles(e.target.files);
          e.target.value = '';
        }}
      />
      <Button
        variant="outline"
        startIcon={<FormIcon name="addPhoto" />}
        disabled={!canAdd}
        onClick={() => inputRef.current?.click()}
        aria-describedby={hint ? `${baseId}-hint` : undefined}
      >
        {addLabel} ({picker.items.length}/{picker.max})
      </Button>
      {hint && (
        <p id={`${baseId}-hint`} className="ob-upload-line ob-muted">
          {hint}
        </p>
      )}
      {notice && (
        <p role="status" className="ob-upload-line">
          {notice}
        </p>
      )}
      {picker.refused.length > 0 && (
        <Alert severity="error" className="ob-refused">
          {picker.refused.length === 1 ? (
            picker.refused[0]
          ) : (
            <ul>
              {picker.refused.map((m, i) => (
                <li key={`${i}-${m}`}>{m}</li>
              ))}
            </ul>
          )}
        </Alert>
      )}
      {error && (
        <p role="alert" className="ob-error-line">
          {error}
        </p>
      )}
      {picker.items.length > 0 && (
        <ul className="ob-photos">
          {picker.items.map((it, i) => (
            <li key={it.id} className="ob-photo">
              <div className="ob-thumb">
                <img src={it.previewUrl} alt={`${itemName} ${i + 1} preview`} />
                <button
                  type="button"
                  className="icon-btn"
                  aria-label={`Remove ${itemName.toLowerCase()} ${i + 1} (${it.file.name})`}
                  disabled={disabled}
                  onClick={() => {
                    picker.remove(it.id);
                    setNotice('');
                  }}
                >
                  <FormIcon name="close" />
                </button>
              </div>
              <UploadStatus item={it} label={`${itemName} ${i + 1}`} disabled={disabled} onRetry={() => picker.retry(it.id)} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * UploadStatus: one picture's name and upload state; while uploading a
 * labelled progress bar and its percentage, while retrying which try comes
 * next, when failed the reason (an alert) and a Try again button.
 */
function UploadStatus({ item, label, disabled, onRetry }: { item: PickedImage; label: string; disabled?: boolean; onRetry: () => void }) {
  const percent = Math.round(item.progress * 100);
  return (
    <div className="ob-status">
      <p className="ob-filename" title={item.file.name}>
        {item.file.name}
      </p>
      <span className={cx('ob-state', `ob-state-${item.state}`)} data-testid="upload-state">
        {UPLOAD_STATE_LABELS[item.state]}
        {item.state === 'uploading' && ` ${percent}%`}
        {item.state === 'retrying' && item.retry && `: trying again (${item.retry.next} of ${item.retry.of})...`}
      </span>
      {item.state === 'uploading' && (
        <div
          className="ob-progress"
          role="progressbar"
          aria-label={`${label} upload progress`}
          aria-valuenow={percent}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuetext={`${percent}%`}
        >
          <span style={{ width: `${percent}%` }} />
        </div>
      )}
      {item.state === 'failed' && (
        <>
          <p role="alert" className="ob-error-line">
            {item.error ?? 'The upload failed.'}
          </p>
          <Button size="small" variant="outline" disabled={disabled} onClick={onRetry} className="ob-retry" aria-label={`Try again: ${label.toLowerCase()}`}>
            Try again
          </Button>
        </>
      )}
    </div>
  );
}
