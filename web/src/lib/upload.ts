/**
 * Uploads to the storage API with progress. supabase-js uploads with fetch,
 * which reports no progress; this sends the same request with
 * XMLHttpRequest (POST /storage/v1/object/{bucket}/{path}, the user's bearer
 * token, the apikey and x-upsert headers, and a multipart form holding
 * cacheControl and the file, as supabase-js does for a File), so the server
 * answers exactly as it answers supabase-js.
 */

/** How far an upload is: bytes of the request body sent so far, of total. */
export interface UploadProgress {
  loaded: number;
  total: number;
}

/** One object to upload. */
export interface UploadRequest {
  /** The server's base URL (config.json's url). */
  baseUrl: string;
  anonKey: string;
  /** The signed-in user's access token. */
  accessToken: string;
  bucket: string;
  /** The object's path inside the bucket, e.g. '{userId}/{timestamp}-{name}'. */
  path: string;
  file: Blob;
  /** Replace an object already at path (x-upsert: true); default false, as supabase-js. */
  upsert?: boolean;
  /** Cache lifetime in seconds; supabase-js's default is 3600. */
  cacheControl?: string;
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
}

/** What the server answered: the object's key ({bucket}/{path}) and id. */
export interface UploadResult {
  key: string;
  id: string;
}

/** Why an upload failed: the server refused it, the connection failed, or it was stopped. */
export type UploadFailureKind = 'http' | 'network' | 'aborted';

/** StorageUploadError is a failed upload, with a message a person can read. */
export class StorageUploadError extends Error {
  readonly kind: UploadFailureKind;
  /** The HTTP status (0 when no answer arrived). */
  readonly status: number;
  /** The server's own message, when it sent one. */
  readonly serverMessage?: string;
  constructor(kind: UploadFailureKind, status: number, serverMessage?: string) {
    super(uploadFailureMessage(kind, status, serverMessage));
    this.name = 'StorageUploadError';
    this.kind = kind;
    this.status = status;
    this.serverMessage = serverMessage;
  }
}

/**
 * uploadFailureMessage says what went wrong with one photo's upload and what
 * to do about it.
 */
export function uploadFailureMessage(kind: UploadFailureKind, status: number, serverMessage?: string): string {
  if (kind === 'aborted') return 'The upload was stopped.';
  if (kind === 'network') return 'The connection was lost during the upload.';
  const reason = serverMessage ? `: ${serverMessage}` : '.';
  switch (status) {
    case 401:
      return 'Your session has ended. Please sign in again, then retry.';
    case 403:
      return `This photo cannot be stored here${reason}`;
    case 409:
      return 'A photo is already stored under this name. Retry to send it again.';
    case 413:
      return `This photo is too large${reason}`;
    case 415:
      return `This file is not a photo we can take${reason}`;
    case 429:
      return 'Too many uploads at once. Wait a minute, then retry.';
    default:
      if (status >= 500) return `The server could not store this photo (status ${status}). Please retry.`;
      return `The photo was refused (status ${status})${reason}`;
  }
}

/** cleanPath drops leading, trailing and doubled slashes, as supabase-js does. */
function cleanPath(path: string): string {
  return path.replace(/^\/|\/$/g, '').replace(/\/+/g, '/');
}

/** storageBase is {baseUrl}/storage/v1 without a doubled slash. */
function storageBase(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/storage/v1`;
}

/** objectUploadUrl is where an object is uploaded: {baseUrl}/storage/v1/object/{bucket}/{path}. */
export function objectUploadUrl(baseUrl: string, bucket: string, path: string): string {
  return `${storageBase(baseUrl)}/object/${bucket}/${cleanPath(path)}`;
}

/** publicObjectUrl is the object's public URL, built as supabase-js's getPublicUrl builds it. */
export function publicObjectUrl(baseUrl: string, bucket: string, path: string): string {
  return encodeURI(`${storageBase(baseUrl)}/object/public/${bucket}/${cleanPath(path)}`);
}

/** The server's message in a storage error answer ({"statusCode", "error", "message"}). */
function serverMessageOf(body: string): string | undefined {
  try {
    const data: unknown = JSON.parse(body);
    if (data && typeof data === 'object') {
      const { message, error } = data as { message?: unknown; error?: unknown };
      if (typeof message === 'string' && message !== '') return message;
      if (typeof error === 'string' && error !== '') return error;
    }
  } catch {
    // Not JSON (a proxy's page): no message of the server's own.
  }
  return undefined;
}

/**
 * uploadObject uploads one file and resolves with the server's answer;
 * onProgress follows the body as it is sent (always ending at total on
 * success). It rejects with StorageUploadError: 'http' for a refusal (413,
 * 415, 401, ...), 'network' when no answer came, 'aborted' when signal fired.
 */
export function uploadObject(req: UploadRequest): Promise<UploadResult> {
  return new Promise((resolve, reject) => {
    if (req.signal?.aborted) {
      reject(new StorageUploadError('aborted', 0));
      return;
    }
    const xhr = new XMLHttpRequest();
    const total = req.file.size;
    const onAbort = () => xhr.abort();
    const finish = () => req.signal?.removeEventListener('abort', onAbort);

    xhr.open('POST', objectUploadUrl(req.baseUrl, req.bucket, req.path));
    xhr.setRequestHeader('Authorization', `Bearer ${req.accessToken}`);
    xhr.setRequestHeader('apikey', req.anonKey);
    xhr.setRequestHeader('x-upsert', String(req.upsert ?? false));
    xhr.upload.onprogress = (e) => {
      // The body is the multipart form: a few hundred bytes more than the file.
      const loaded = e.lengthComputable && e.total > 0 ? Math.round((e.loaded / e.total) * total) : Math.min(e.loaded, total);
      req.onProgress?.({ loaded, total });
    };
    xhr.onload = () => {
      finish();
      if (xhr.status >= 200 && xhr.status < 300) {
        let key = `${req.bucket}/${cleanPath(req.path)}`;
        let id = '';
        try {
          const data = JSON.parse(xhr.responseText) as { Key?: unknown; Id?: unknown };
          if (typeof data.Key === 'string') key = data.Key;
          if (typeof data.Id === 'string') id = data.Id;
        } catch {
          // A 2xx without JSON: the object is stored; keep the key we asked for.
        }
        req.onProgress?.({ loaded: total, total });
        resolve({ key, id });
        return;
      }
      reject(new StorageUploadError('http', xhr.status, serverMessageOf(xhr.responseText)));
    };
    xhr.onerror = () => {
      finish();
      reject(new StorageUploadError('network', 0));
    };
    xhr.ontimeout = xhr.onerror;
    xhr.onabort = () => {
      finish();
      reject(new StorageUploadError('aborted', 0));
    };
    req.signal?.addEventListener('abort', onAbort, { once: true });

    const form = new FormData();
    form.append('cacheControl', req.cacheControl ?? '3600');
    form.append('', req.file);
    req.onProgress?.({ loaded: 0, total });
    xhr.send(form);
  });
}
