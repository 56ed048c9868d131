package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"

	"salaula/internal/media"
	"salaula/internal/store"
)

// writeStorageFailure answers like the hosted storage service, with its own
// short error name ("Duplicate", "not_found", ...).
func writeStorageFailure(w http.ResponseWriter, status int, name, msg string) {
	writeJSON(w, status, map[string]string{"statusCode": strconv.Itoa(status), "error": name, "message": msg})
}

// Messages of the storage API.
const (
	msgStorageSignIn    = "You must be signed in to upload or remove files"
	msgStorageOwnFolder = "You can only upload to or remove from your own folder: {your user id}/..."
	msgNoBucket         = "Bucket not found"
)

// storageCaller authenticates a storage write; it answers 401 and returns ""
// for a missing, invalid or anon token, else the caller's user id.
func (s *Server) storageCaller(w http.ResponseWriter, r *http.Request) string {
	claims, err := s.authenticate(r.Context(), r)
	if errors.Is(err, errCheckingSession) {
		writeStorageFailure(w, http.StatusServiceUnavailable, "ServiceUnavailable", msgServiceBusy)
		return ""
	}
	if err != nil {
		writeStorageFailure(w, http.StatusUnauthorized, "Unauthorized", msgStorageSignIn+": "+err.Error())
		return ""
	}
	return claims.Subject
}

// storagePath reads and checks the {bucket} and {path...} of a request; it
// answers 404 or 400 and returns ok false when they are not acceptable.
func storagePath(w http.ResponseWriter, r *http.Request) (string, bool) {
	if r.PathValue("bucket") != media.Bucket {
		writeStorageFailure(w, http.StatusNotFound, "Bucket not found", msgNoBucket)
		return "", false
	}
	p := r.PathValue("path")
	if err := media.CheckPath(p); err != nil {
		writeStorageFailure(w, http.StatusBadRequest, "InvalidKey", err.Error())
		return "", false
	}
	return p, true
}

// handleUploadObject stores an image under the caller's own folder of
// user-media: POST creates (409 when it exists, unless x-upsert: true), PUT
// replaces. The file comes as multipart/form-data (supabase-js with a Blob or
// File) or as the raw body. It is accepted by its content only (JPEG, PNG,
// WebP), at most MaxUploadBytes and media.MaxImageSide pixels a side, with
// everything but what decoding needs removed (media.StripMetadata).
func (s *Server) handleUploadObject() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		path, ok := storagePath(w, r)
		if !ok {
			return
		}
		owner := s.storageCaller(w, r)
		if owner == "" {
			return
		}
		if media.Owner(path) != owner || !strings.Contains(path, "/") {
			writeStorageFailure(w, http.StatusForbidden, "Unauthorized", msgStorageOwnFolder)
			return
		}
		key := media.Key(media.Bucket, path)
		upsert := r.Method == http.MethodPut || strings.EqualFold(r.Header.Get("x-upsert"), "true")
		if !upsert && s.objectExists(w, r.Context(), key) {
			return
		}
		body, status, err := s.readUpload(w, r)
		if err != nil {
			writeStorageFailure(w, status, http.StatusText(status), err.Error())
			return
		}
		ct, err := media.SniffImage(body)
		if errors.Is(err, media.ErrImageTooBig) {
			writeStorageFailure(w, http.StatusRequestEntityTooLarge, "Payload too large", err.Error())
			return
		}
		if err == nil {
			body, err = media.StripMetadata(ct, body)
		}
		if err != nil {
			writeStorageFailure(w, http.StatusUnsupportedMediaType, "invalid_mime_type", err.Error())
			return
		}
		rec := store.MediaObject{Key: key, ID: store.NewID(), OwnerID: owner, Size: int64(len(body)), ContentType: ct}
		if !upsert && !s.claimObject(w, r.Context(), rec) {
			return
		}
		if _, err := s.media.Put(r.Context(), key, bytes.NewReader(body), ct); err != nil {
			s.logger.Error("store upload", "key", key, "err", err)
			if !upsert {
				if err := s.db.ForgetMediaClaim(context.WithoutCancel(r.Context()), key, rec.ID); err != nil {
					s.logger.Error("forget upload claim", "key", key, "err", err)
				}
			}
			writeStorageFailure(w, http.StatusInternalServerError, "internal", "Could not store the file. Please try again.")
			return
		}
		if upsert {
			if err := s.db.RecordMediaObject(r.Context(), rec); err != nil {
				s.logger.Error("record upload", "key", key, "err", err)
			}
		}
		writeJSON(w, http.StatusOK, map[string]string{"Key": key, "Id": rec.ID})
	})
}

// staleClaimAge is how old the record of an upload whose file never
// arrived (a crash between the two) must be before a new upload may take
// its path; younger, it is an upload still being written.
const staleClaimAge = 2 * time.Minute

// claimObject makes rec the one create of its key, with the database as the
// arbiter (so concurrent creates on any instance, on disk or S3, get
// exactly one winner). It answers 409 Duplicate (or 500) and returns false
// when the key is taken, by a stored file or by an upload under way.
func (s *Server) claimObject(w http.ResponseWriter, ctx context.Context, rec store.MediaObject) bool {
	err := s.db.ClaimMediaObject(ctx, rec)
	if errors.Is(err, store.ErrMediaExists) {
		if _, serr := s.media.Stat(ctx, rec.Key); errors.Is(serr, media.ErrNotFound) {
			var taken bool
			if taken, err = s.db.TakeStaleMediaClaim(ctx, rec, store.Now().Add(-staleClaimAge)); err == nil && !taken {
				err = store.ErrMediaExists
			}
		}
	}
	if err == nil {
		// A file stored without a record (by an earlier version) also holds the key.
		if s.objectExists(w, ctx, rec.Key) {
			s.db.ForgetMediaClaim(context.WithoutCancel(ctx), rec.Key, rec.ID)
			return false
		}
		return true
	}
	if errors.Is(err, store.ErrMediaExists) {
		writeStorageFailure(w, http.StatusConflict, "Duplicate", "The resource already exists")
		return false
	}
	s.logger.Error("claim upload", "key", rec.Key, "err", err)
	writeStorageFailure(w, http.StatusInternalServerError, "internal", "Could not store the file. Please try again.")
	return false
}

// objectExists answers 409 Duplicate and reports true when key is stored.
func (s *Server) objectExists(w http.ResponseWriter, ctx context.Context, key string) bool {
	_, err := s.media.Stat(ctx, key)
	if err == nil {
		writeStorageFailure(w, http.StatusConflict, "Duplicate", "The resource already exists")
		return true
	}
	if !errors.Is(err, media.ErrNotFound) {
		s.logger.Error("stat upload", "key", key, "err", err)
		writeStorageFailure(w, http.StatusInternalServerError, "internal", "Could not check the file. Please try again.")
		return true
	}
	return false
}

// multipartFields are the text fields supabase-js sends beside the file.
var multipartFields = map[string]bool{"cacheControl": true, "metadata": true, "contentEncoding": true}

// readUpload reads the uploaded file, from a multipart form or the raw body,
// refusing more than MaxUploadBytes with 413.
func (s *Server) readUpload(w http.ResponseWriter, r *http.Request) ([]byte, int, error) {
	limit := s.cfg.MaxUploadBytes
	tooLarge := errors.New("The file is too large: at most " + humanBytes(limit) + " per image")
	// The form's boundaries and text fields get a little room of their own.
	r.Body = http.MaxBytesReader(w, r.Body, limit+64<<10)
	var src io.Reader = r.Body
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mt == "multipart/form-data" {
		mr, err := r.MultipartReader()
		if err != nil {
			return nil, http.StatusBadRequest, errors.New("The multipart form is malformed")
		}
		for {
			part, err := mr.NextPart()
			if err == io.EOF {
				return nil, http.StatusBadRequest, errors.New("The form holds no file")
			}
			if err != nil {
				var mbe *http.MaxBytesError
				if errors.As(err, &mbe) {
					return nil, http.StatusRequestEntityTooLarge, tooLarge
				}
				return nil, http.StatusBadRequest, errors.New("The multipart form is malformed or incomplete")
			}
			if part.FileName() != "" || !multipartFields[part.FormName()] {
				src = part
				break
			}
		}
	} else if r.ContentLength > limit {
		return nil, http.StatusRequestEntityTooLarge, tooLarge
	}
	b, err := io.ReadAll(io.LimitReader(src, limit+1))
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe), int64(len(b)) > limit:
		return nil, http.StatusRequestEntityTooLarge, tooLarge
	case err != nil:
		return nil, http.StatusBadRequest, errors.New("The upload was interrupted before the whole file arrived")
	case len(b) == 0:
		return nil, http.StatusBadRequest, errors.New("The file is empty")
	}
	return b, 0, nil
}

// humanBytes writes n bytes as "10 MB" or "512 KB".
func humanBytes(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return strconv.FormatInt(n>>20, 10) + " MB"
	}
	if n >= 1<<10 {
		return strconv.FormatInt(n>>10, 10) + " KB"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// handlePublicObject serves a stored object with its stored content type,
// nosniff, its ETag, a long cache lifetime and range requests.
func (s *Server) handlePublicObject() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		path, ok := storagePath(w, r)
		if !ok {
			return
		}
		f, obj, err := s.media.Open(r.Context(), media.Key(media.Bucket, path))
		if errors.Is(err, media.ErrNotFound) {
			writeStorageFailure(w, http.StatusNotFound, "not_found", "Object not found")
			return
		}
		if err != nil {
			s.logger.Error("open object", "path", path, "err", err)
			writeStorageFailure(w, http.StatusInternalServerError, "internal", "Could not read the file. Please try again.")
			return
		}
		defer f.Close()
		h := w.Header()
		ct := obj.ContentType
		if ct == "" {
			ct = "application/octet-stream"
		}
		h.Set("Content-Type", ct)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Content-Security-Policy", "default-src 'none'; sandbox")
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
		if obj.ETag != "" {
			h.Set("ETag", obj.ETag)
		}
		http.ServeContent(w, r, "", obj.ModTime, f)
	})
}

// removedObject is one entry of the answer of a remove call.
type removedObject struct {
	Name     string `json:"name"`
	BucketID string `json:"bucket_id"`
	Owner    string `json:"owner"`
}

// handleRemoveObjects deletes objects of the caller's own folder, given as
// {"prefixes": ["{userId}/...", ...]} (each entry a path or {"path": ...}),
// and answers the list of objects that existed and are now gone.
func (s *Server) handleRemoveObjects() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.PathValue("bucket") != media.Bucket {
			writeStorageFailure(w, http.StatusNotFound, "Bucket not found", msgNoBucket)
			return
		}
		owner := s.storageCaller(w, r)
		if owner == "" {
			return
		}
		var in struct {
			Prefixes []json.RawMessage `json:"prefixes"`
		}
		if err := decodeJSON(w, r, &in); err != nil {
			var re *requestError
			errors.As(err, &re)
			writeStorageFailure(w, re.Status, http.StatusText(re.Status), re.Message)
			return
		}
		if len(in.Prefixes) == 0 || len(in.Prefixes) > 1000 {
			writeStorageFailure(w, http.StatusBadRequest, "InvalidRequest", "prefixes must list 1 to 1000 object paths")
			return
		}
		paths := make([]string, 0, len(in.Prefixes))
		for _, raw := range in.Prefixes {
			var p string
			if json.Unmarshal(raw, &p) != nil {
				var obj struct {
					Path string `json:"path"`
				}
				json.Unmarshal(raw, &obj)
				p = obj.Path
			}
			p = strings.Trim(p, "/")
			if err := media.CheckPath(p); err != nil {
				writeStorageFailure(w, http.StatusBadRequest, "InvalidKey", err.Error())
				return
			}
			if media.Owner(p) != owner {
				writeStorageFailure(w, http.StatusForbidden, "Unauthorized", msgStorageOwnFolder)
				return
			}
			paths = append(paths, p)
		}
		removed := []removedObject{}
		for _, p := range paths {
			if _, err := s.media.Stat(r.Context(), media.Key(media.Bucket, p)); err != nil {
				continue
			}
			if err := s.deleteObject(r.Context(), p); err != nil {
				s.logger.Error("remove object", "path", p, "err", err)
				writeStorageFailure(w, http.StatusInternalServerError, "internal", "Could not remove the file. Please try again.")
				return
			}
			removed = append(removed, removedObject{Name: p, BucketID: media.Bucket, Owner: owner})
		}
		writeJSON(w, http.StatusOK, removed)
	})
}

// deleteObject removes the object at path of user-media and its record.
func (s *Server) deleteObject(ctx context.Context, path string) error {
	key := media.Key(media.Bucket, path)
	if err := s.media.Delete(ctx, key); err != nil {
		return err
	}
	return s.db.ForgetMediaObject(ctx, key)
}
