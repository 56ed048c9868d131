import { useId, useRef, useState, type DragEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import AddPhotoAlternateIcon from '@mui/icons-material/AddPhotoAlternate';
import CloseIcon from '@mui/icons-material/Close';
import type { ImagePicker, PickedImage, UploadState } from '../useImagePicker';

/** The label of each upload state, as a person reads it. */
export const UPLOAD_STATE_LABELS: Record<UploadState, string> = {
  waiting: 'Waiting',
  uploading: 'Uploading...',
  done: 'Uploaded',
  failed: 'Failed',
};

const STATE_COLOURS: Record<UploadState, string> = {
  waiting: '#4a524d',
  uploading: '#1b4332',
  done: '#1b4332',
  failed: '#b42318',
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
 * ImageUploadArea lets a person pick (or drop) images: images only, at most
 * picker.max, extras dropped with a notice, the picker disabled when full.
 * Each picture shows a preview, a labelled remove cross and its upload state:
 * while uploading a progress bar with its percentage, when failed the reason
 * and a Retry button (the other pictures stay as they are).
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
    <Box
      onDragOver={(e) => e.preventDefault()}
      onDrop={onDrop}
      sx={{ border: '2px dashed', borderColor: error ? 'error.main' : 'divider', borderRadius: 2, p: 2 }}
    >
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
        variant="outlined"
        startIcon={<AddPhotoAlternateIcon />}
        disabled={!canAdd}
        onClick={() => inputRef.current?.click()}
        aria-describedby={hint ? `${baseId}-hint` : undefined}
      >
        {addLabel} ({picker.items.length}/{picker.max})
      </Button>
      {hint && (
        <Typography id={`${baseId}-hint`} variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {hint}
        </Typography>
      )}
      {notice && (
        <Typography role="status" variant="body2" sx={{ mt: 1 }}>
          {notice}
        </Typography>
      )}
      {error && (
        <Typography role="alert" variant="body2" color="error" sx={{ mt: 1 }}>
          {error}
        </Typography>
      )}
      {picker.items.length > 0 && (
        <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, mt: 2, display: 'flex', flexDirection: 'column', gap: 1.5 }}>
          {picker.items.map((it, i) => (
            <Box component="li" key={it.id} sx={{ display: 'flex', gap: 1.5, alignItems: 'flex-start' }}>
              <Box sx={{ position: 'relative', width: 96, flex: 'none' }}>
                <Box
                  component="img"
                  src={it.previewUrl}
                  alt={`${itemName} ${i + 1} preview`}
                  sx={{ width: 96, height: 96, objectFit: 'cover', borderRadius: 1, display: 'block', bgcolor: 'grey.200' }}
                />
                <IconButton
                  size="small"
                  aria-label={`Remove ${itemName.toLowerCase()} ${i + 1} (${it.file.name})`}
                  disabled={disabled || it.state === 'uploading'}
                  onClick={() => {
                    picker.remove(it.id);
                    setNotice('');
                  }}
                  sx={{ position: 'absolute', top: 2, right: 2, bgcolor: 'rgba(255,255,255,0.9)', '&:hover': { bgcolor: '#fff' } }}
                >
                  <CloseIcon fontSize="small" />
                </IconButton>
              </Box>
              <UploadStatus item={it} label={`${itemName} ${i + 1}`} disabled={disabled} onRetry={() => void picker.retry(it.id)} />
            </Box>
          ))}
        </Box>
      )}
    </Box>
  );
}

/**
 * UploadStatus: one picture's name and upload state; while uploading a
 * labelled progress bar and its percentage, when failed the reason (an
 * alert) and a Retry button.
 */
function UploadStatus({ item, label, disabled, onRetry }: { item: PickedImage; label: string; disabled?: boolean; onRetry: () => void }) {
  const percent = Math.round((item.progress ?? 0) * 100);
  return (
    <Box sx={{ flex: 1, minWidth: 0 }}>
      <Typography variant="body2" noWrap title={item.file.name}>
        {item.file.name}
      </Typography>
      <Typography variant="caption" sx={{ color: STATE_COLOURS[item.state], fontWeight: 700 }} data-testid="upload-state">
        {UPLOAD_STATE_LABELS[item.state]}
        {item.state === 'uploading' && ` ${percent}%`}
      </Typography>
      {item.state === 'uploading' && (
        <LinearProgress
          variant="determinate"
          value={percent}
          aria-label={`${label} upload progress`}
          aria-valuetext={`${percent}%`}
          sx={{ mt: 0.5, height: 6, borderRadius: 3 }}
        />
      )}
      {item.state === 'failed' && (
        <>
          <Typography role="alert" variant="body2" color="error" sx={{ mt: 0.5 }}>
            {item.error ?? 'The upload failed.'}
          </Typography>
          <Button size="small" variant="outlined" color="error" disabled={disabled} onClick={onRetry} sx={{ mt: 0.5 }} aria-label={`Retry ${label.toLowerCase()}`}>
            Retry
          </Button>
        </>
      )}
    </Box>
  );
}
