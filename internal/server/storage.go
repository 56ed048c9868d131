package server

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"salaula/internal/apierr"
	"salaula/internal/media"
)

// The storage API: the Supabase Storage contract for the user-media bucket.
// Its rules are media.Library's; these handlers decode and render.

// bucketCaller checks the {bucket} of a call on the bucket as a whole
// (list, sign several, remove), then returns the signed-in caller as
// storageCaller does.
func (s *Server) bucketCaller(r *http.Request, signIn func(why string) error) (string, error) {
	if r.PathValue("bucket") != media.Bucket {
		return "", media.ErrNoBucket
	}
	return s.storageCaller(r, signIn)
}

// storageCaller returns the signed-in caller's user id, or the storage
// error for a missing, invalid or anon token (signIn's 401) or a session
// that could not be checked (503).
func (s *Server) storageCaller(r *http.Request, signIn func(why string) error) (string, error) {
	claims, err := s.authenticate(r.Context(), r)
	if errors.Is(err, errCheckingSession) {
		return "", apierr.Coded(apierr.Unavailable, media.CodeUnavailable, msgServiceBusy)
	}
	if err != nil {
		return "", signIn(messageOf(err))
	}
	return claims.Subject, nil
}

// handleUploadObject stores an image under the caller's own folder of
// user-media (media.Library.Put): POST creates (409 when it exists, unless
// x-upsert: true), PUT replaces. The file comes as multipart/form-data
// (supabase-js with a Blob or File) or as the raw body. A body whose
// Content-Length is over the limit is refused first, before any of it is
// read, so a client waiting for "100 Continue" gets the 413 instead.
func (s *Server) handleUploadObject() http.Handler {
	return s.storageAPI(func(w http.ResponseWriter, r *http.Request) error {
		if r.ContentLength > s.uploadBodyLimit(r) {
			return s.uploadTooLarge()
		}
		path, err := media.ObjectPath(r.PathValue("bucket"), r.PathValue("path"))
		if err != nil {
			return err
		}
		owner, err := s.storageCaller(r, media.SignInError)
		if err != nil {
			return err
		}
		stored, err := s.library.Put(r.Context(), media.Upload{
			Path: path, Owner: owner,
			Upsert: r.Method == http.MethodPut || strings.EqualFold(r.Header.Get("x-upsert"), "true"),
			Read:   func() ([]byte, []byte, error) { return s.readUpload(w, r) },
		})
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, stored)
		return nil
	})
}

// multipartFields are the text fields supabase-js sends beside the file.
var multipartFields = map[string]bool{"cacheControl": true, "metadata": true, "contentEncoding": true}

// readUpload reads the uploaded file, from a multipart form or the raw body,
// refusing more than MaxUploadBytes (TooLarge), and the user metadata sent
// with it: the form's metadata field, or the x-metadata header (base64 of
// the JSON) beside a raw body.
func (s *Server) readUpload(w http.ResponseWriter, r *http.Request) (body, metadata []byte, err error) {
	limit := s.cfg.MaxUploadBytes
	bad := func(msg string) error {
		return apierr.Coded(apierr.Invalid, http.StatusText(http.StatusBadRequest), msg)
	}
	tooLarge := s.uploadTooLarge()
	r.Body = http.MaxBytesReader(w, r.Body, s.uploadBodyLimit(r))
	var src io.Reader = r.Body
	if isMultipart(r) {
		mr, err := r.MultipartReader()
		if err != nil {
			return nil, nil, bad("The multipart form is malformed")
		}
		for {
			part, err := mr.NextPart()
			if err == io.EOF {
				return nil, nil, bad("The form holds no file")
			}
			if err != nil {
				var mbe *http.MaxBytesError
				if errors.As(err, &mbe) {
					return nil, nil, tooLarge
				}
				return nil, nil, bad("The multipart form is malformed or incomplete")
			}
			if part.FileName() != "" || !multipartFields[part.FormName()] {
				src = part
				break
			}
			if part.FormName() == "metadata" {
				// One byte over the limit is enough for the limit's message.
				if metadata, err = io.ReadAll(io.LimitReader(part, media.MaxMetadataBytes+1)); err != nil {
					return nil, nil, bad("The multipart form is malformed or incomplete")
				}
			}
		}
	} else {
		if r.ContentLength > limit {
			return nil, nil, tooLarge
		}
		if h := r.Header.Get("x-metadata"); h != "" {
			if metadata, err = base64.StdEncoding.DecodeString(h); err != nil {
				return nil, nil, bad("The x-metadata header must be the base64 of a JSON object")
			}
		}
	}
	b, err := io.ReadAll(io.LimitReader(src, limit+1))
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe), int64(len(b)) > limit:
		return nil, nil, tooLarge
	case err != nil:
		return nil, nil, bad("The upload was interrupted before the whole file arrived")
	case len(b) == 0:
		return nil, nil, bad("The file is empty")
	}
	return b, metadata, nil
}

// isMultipart reports whether the upload comes as a multipart form.
func isMultipart(r *http.Request) bool {
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return mt == "multipart/form-data"
}

// uploadBodyLimit is the most bytes an upload's body may hold: the file's
// limit, and for a multipart form a little room for its boundaries and
// text fields.
func (s *Server) uploadBodyLimit(r *http.Request) int64 {
	if isMultipart(r) {
		return s.cfg.MaxUploadBytes + 64<<10
	}
	return s.cfg.MaxUploadBytes
}

// uploadTooLarge is the answer to a file over the limit.
func (s *Server) uploadTooLarge() error {
	return apierr.Coded(apierr.TooLarge, http.StatusText(http.StatusRequestEntityTooLarge),
		"The file is too large: at most "+humanBytes(s.cfg.MaxUploadBytes)+" per image")
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
// nosniff, its ETag, a long cache lifetime and range requests; HEAD answers
// the same without the body.
func (s *Server) handlePublicObject() http.Handler {
	return s.storageAPI(func(w http.ResponseWriter, r *http.Request) error {
		path, err := media.ObjectPath(r.PathValue("bucket"), r.PathValue("path"))
		if err != nil {
			return err
		}
		return s.serveObject(w, r, path)
	})
}

// serveObject writes the stored object at path of the bucket.
func (s *Server) serveObject(w http.ResponseWriter, r *http.Request, path string) error {
	f, obj, err := s.library.Open(r.Context(), path)
	if err != nil {
		return err
	}
	defer f.Close()
	serveStored(w, r, f, obj, "public")
	return nil
}

// serveStored writes a stored file (an object or a variant of one) with
// its stored content type, nosniff, a sandbox, its ETag (a 304 to an
// If-None-Match naming it) and a year's cache lifetime, public or private
// as scope says, answering range requests and HEAD.
func serveStored(w http.ResponseWriter, r *http.Request, f io.ReadSeeker, obj media.Object, scope string) {
	h := w.Header()
	ct := obj.ContentType
	if ct == "" {
		ct = "application/octet-stream"
	}
	h.Set("Content-Type", ct)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "default-src 'none'; sandbox")
	h.Set("Cache-Control", scope+", max-age=31536000, immutable")
	if obj.ETag != "" {
		h.Set("ETag", obj.ETag)
	}
	http.ServeContent(w, r, "", obj.ModTime, f)
}

// handleRemoveObjects deletes objects of the caller's own folder, given as
// {"prefixes": ["{userId}/...", ...]} (each entry a path or {"path": ...}),
// and answers the list of objects that existed and are now gone.
func (s *Server) handleRemoveObjects() http.Handler {
	return s.storageAPI(func(w http.ResponseWriter, r *http.Request) error {
		owner, err := s.bucketCaller(r, media.SignInError)
		if err != nil {
			return err
		}
		var in struct {
			Prefixes []json.RawMessage `json:"prefixes"`
		}
		if err := decodeJSON(w, r, &in); err != nil {
			return err
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
			paths = append(paths, p)
		}
		removed, err := s.library.Remove(r.Context(), owner, paths)
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, removed)
		return nil
	})
}
