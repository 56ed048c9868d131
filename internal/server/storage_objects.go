package server

import (
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"salaula/internal/media"
	"salaula/internal/token"
)

// Reading user-media as storage-js does: list (POST /object/list/{bucket}),
// info and exists (GET /object/info/{bucket}/{path}) and signed URLs
// (POST /object/sign/{bucket}/{path}, then GET with ?token=), each within
// the caller's own folder, answered in storage's own shapes.

// Messages of the storage reads.
const (
	msgStorageReadSignIn = "You must be signed in to list or sign files"
	msgStorageReadOwn    = "You can only list, inspect or sign files in your own folder: {your user id}/..."
	msgObjectNotFound    = "Object not found"
	msgNoBucket          = "Bucket not found"
	signedURLAudience    = "storage"
	maxSignedURLSeconds  = 365 * 24 * 3600
)

// writeStorageError answers as the hosted storage service does:
// {"statusCode", "code", "error", "message"}; storage-js's exists() reads
// code NoSuchKey as "no such file".
func writeStorageError(w http.ResponseWriter, status int, code, name, msg string) {
	writeJSON(w, status, map[string]string{"statusCode": strconv.Itoa(status), "code": code, "error": name, "message": msg})
}

// storageReader authenticates a storage read; it answers 401 (or 503) and
// returns "" when the caller is not signed in, else the caller's user id.
func (s *Server) storageReader(w http.ResponseWriter, r *http.Request) string {
	claims, err := s.authenticate(r.Context(), r)
	if errors.Is(err, errCheckingSession) {
		writeStorageError(w, http.StatusServiceUnavailable, "ServiceUnavailable", "ServiceUnavailable", msgServiceBusy)
		return ""
	}
	if err != nil {
		writeStorageError(w, http.StatusUnauthorized, "InvalidJWT", "Unauthorized", msgStorageReadSignIn+": "+messageOf(err))
		return ""
	}
	return claims.Subject
}

// ownObjectPath reads {bucket} and {path...}, which must be an object of
// the caller's own folder of user-media; it answers and returns ok false
// when it is not.
func (s *Server) ownObjectPath(w http.ResponseWriter, r *http.Request) (owner, path string, ok bool) {
	if r.PathValue("bucket") != media.Bucket {
		writeStorageError(w, http.StatusNotFound, "NoSuchBucket", "Bucket not found", msgNoBucket)
		return "", "", false
	}
	path = r.PathValue("path")
	if err := media.CheckPath(path); err != nil {
		writeStorageError(w, http.StatusBadRequest, "InvalidKey", "InvalidKey", err.Error())
		return "", "", false
	}
	if owner = s.storageReader(w, r); owner == "" {
		return "", "", false
	}
	if media.Owner(path) != owner {
		writeStorageError(w, http.StatusForbidden, "AccessDenied", "Unauthorized", msgStorageReadOwn)
		return "", "", false
	}
	return owner, path, true
}

// statObject reads an object's facts, answering 404 NoSuchKey (or 500)
// and returning ok false when it cannot.
func (s *Server) statObject(w http.ResponseWriter, r *http.Request, path string) (media.Object, bool) {
	obj, err := s.media.Stat(r.Context(), media.Key(media.Bucket, path))
	if errors.Is(err, media.ErrNotFound) {
		writeStorageError(w, http.StatusNotFound, "NoSuchKey", "not_found", msgObjectNotFound)
		return obj, false
	}
	if err != nil {
		s.logger.Error("stat object", "path", path, "err", err)
		writeStorageError(w, http.StatusInternalServerError, "InternalError", "internal", "Could not read the file. Please try again.")
		return obj, false
	}
	return obj, true
}

// handleObjectInfo is GET /storage/v1/object/info/{bucket}/{path...}:
// storage-js's info() and exists().
func (s *Server) handleObjectInfo() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, path, ok := s.ownObjectPath(w, r)
		if !ok {
			return
		}
		obj, ok := s.statObject(w, r, path)
		if !ok {
			return
		}
		mod := obj.ModTime.UTC().Format(time.RFC3339Nano)
		writeJSON(w, http.StatusOK, map[string]any{
			"id": obj.ETag, "name": path, "bucket_id": media.Bucket, "version": nil,
			"size": obj.Size, "content_type": obj.ContentType, "cache_control": "max-age=31536000",
			"etag": obj.ETag, "metadata": map[string]any{}, "last_modified": mod, "created_at": mod,
		})
	})
}

// listEntry is one entry of a list answer: a file, or a folder (id,
// times and metadata null).
type listEntry struct {
	Name           string         `json:"name"`
	ID             *string        `json:"id"`
	UpdatedAt      *string        `json:"updated_at"`
	CreatedAt      *string        `json:"created_at"`
	LastAccessedAt *string        `json:"last_accessed_at"`
	Metadata       map[string]any `json:"metadata"`
	path           string
	at             time.Time
}

// handleListObjects is POST /storage/v1/object/list/{bucket}: storage-js's
// list(prefix, {limit, offset, sortBy, search}) within the caller's own
// folder: the files and folders directly under prefix (at the bucket's
// root, only the caller's folder).
func (s *Server) handleListObjects() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.PathValue("bucket") != media.Bucket {
			writeStorageError(w, http.StatusNotFound, "NoSuchBucket", "Bucket not found", msgNoBucket)
			return
		}
		owner := s.storageReader(w, r)
		if owner == "" {
			return
		}
		in := struct {
			Prefix string `json:"prefix"`
			Limit  *int   `json:"limit"`
			Offset int    `json:"offset"`
			Search string `json:"search"`
			SortBy struct {
				Column string `json:"column"`
				Order  string `json:"order"`
			} `json:"sortBy"`
		}{}
		if err := decodeJSON(w, r, &in); err != nil {
			var re *requestError
			errors.As(err, &re)
			writeStorageError(w, re.Status, "InvalidRequest", http.StatusText(re.Status), re.Message)
			return
		}
		limit := 100
		if in.Limit != nil {
			limit = *in.Limit
		}
		col, order := strings.ToLower(in.SortBy.Column), strings.ToLower(in.SortBy.Order)
		prefix := strings.Trim(in.Prefix, "/")
		switch {
		case limit < 1 || limit > 1000:
			writeStorageError(w, http.StatusBadRequest, "InvalidRequest", "InvalidRequest", "limit must be 1 to 1000")
			return
		case in.Offset < 0:
			writeStorageError(w, http.StatusBadRequest, "InvalidRequest", "InvalidRequest", "offset must not be negative")
			return
		case !slices.Contains([]string{"", "name", "created_at", "updated_at", "last_accessed_at"}, col):
			writeStorageError(w, http.StatusBadRequest, "InvalidRequest", "InvalidRequest", "sortBy.column must be name, created_at, updated_at or last_accessed_at")
			return
		case order != "" && order != "asc" && order != "desc":
			writeStorageError(w, http.StatusBadRequest, "InvalidRequest", "InvalidRequest", "sortBy.order must be asc or desc")
			return
		case prefix != "" && media.CheckPath(prefix) != nil:
			writeStorageError(w, http.StatusBadRequest, "InvalidKey", "InvalidKey", media.CheckPath(prefix).Error())
			return
		case prefix != "" && media.Owner(prefix) != owner:
			writeStorageError(w, http.StatusForbidden, "AccessDenied", "Unauthorized", msgStorageReadOwn)
			return
		}
		recs, err := s.db.MediaObjectsOf(r.Context(), owner)
		if err != nil {
			writeStorageError(w, http.StatusServiceUnavailable, "ServiceUnavailable", "ServiceUnavailable", msgServiceBusy)
			return
		}
		entries := []listEntry{}
		folders := map[string]bool{}
		for _, rec := range recs {
			path, ok := strings.CutPrefix(rec.Key, media.Bucket+"/")
			if !ok {
				continue
			}
			rest := path
			if prefix != "" {
				if rest, ok = strings.CutPrefix(path, prefix+"/"); !ok {
					continue
				}
			}
			name, _, isFolder := strings.Cut(rest, "/")
			if !strings.HasPrefix(strings.ToLower(name), strings.ToLower(in.Search)) {
				continue
			}
			if isFolder {
				if !folders[name] {
					folders[name] = true
					entries = append(entries, listEntry{Name: name})
				}
				continue
			}
			at := rec.UpdatedAt.UTC().Format(time.RFC3339Nano)
			id := rec.ID
			entries = append(entries, listEntry{Name: name, ID: &id, UpdatedAt: &at, CreatedAt: &at, LastAccessedAt: &at,
				Metadata: map[string]any{"size": rec.Size, "mimetype": rec.ContentType, "cacheControl": "max-age=31536000",
					"lastModified": at, "contentLength": rec.Size, "httpStatusCode": 200},
				path: path, at: rec.UpdatedAt})
		}
		slices.SortStableFunc(entries, func(a, b listEntry) int {
			c := strings.Compare(a.Name, b.Name)
			if col != "" && col != "name" {
				c = a.at.Compare(b.at)
				if c == 0 {
					c = strings.Compare(a.Name, b.Name)
				}
			}
			if order == "desc" {
				c = -c
			}
			return c
		})
		entries = entries[min(in.Offset, len(entries)):]
		entries = entries[:min(limit, len(entries))]
		for i, e := range entries {
			if e.path == "" {
				continue
			}
			// The stored file's ETag, as the public URL serves it.
			if obj, err := s.media.Stat(r.Context(), media.Key(media.Bucket, e.path)); err == nil {
				entries[i].Metadata["eTag"] = obj.ETag
			}
		}
		writeJSON(w, http.StatusOK, entries)
	})
}

// handleSignObject is POST /storage/v1/object/sign/{bucket}/{path...}:
// storage-js's createSignedUrl(path, expiresIn) for a file of the
// caller's own folder, answered {"signedURL": "/object/sign/...?token=..."}.
func (s *Server) handleSignObject() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, path, ok := s.ownObjectPath(w, r)
		if !ok {
			return
		}
		var in struct {
			ExpiresIn json.Number `json:"expiresIn"`
		}
		if err := decodeJSON(w, r, &in); err != nil {
			var re *requestError
			errors.As(err, &re)
			writeStorageError(w, re.Status, "InvalidRequest", http.StatusText(re.Status), re.Message)
			return
		}
		secs, err := strconv.Atoi(in.ExpiresIn.String())
		if err != nil || secs < 1 || secs > maxSignedURLSeconds {
			writeStorageError(w, http.StatusBadRequest, "InvalidRequest", "InvalidRequest",
				"expiresIn must be a whole number of seconds from 1 to "+strconv.Itoa(maxSignedURLSeconds))
			return
		}
		if _, ok := s.statObject(w, r, path); !ok {
			return
		}
		now := s.now()
		tok, err := s.keyring(r.Context(), false).Sign(token.Claims{Issuer: s.issuer(), Audience: signedURLAudience,
			Subject: media.Key(media.Bucket, path), Role: "storage", IssuedAt: now.Unix(), ExpiresAt: now.Unix() + int64(secs)})
		if err != nil {
			s.logger.Error("sign object url", "err", err)
			writeStorageError(w, http.StatusInternalServerError, "InternalError", "internal", "Could not sign the URL. Please try again.")
			return
		}
		writeJSON(w, http.StatusOK, map[string]string{"signedURL": "/object/sign/" + media.Key(media.Bucket, path) + "?token=" + tok})
	})
}

// handleSignedObject is GET /storage/v1/object/sign/{bucket}/{path...}
// ?token=...: the file a signed URL names, while the URL is valid.
func (s *Server) handleSignedObject() http.Handler {
	serve := s.handlePublicObject()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.PathValue("bucket") != media.Bucket {
			writeStorageError(w, http.StatusNotFound, "NoSuchBucket", "Bucket not found", msgNoBucket)
			return
		}
		raw := r.URL.Query().Get("token")
		if raw == "" {
			writeStorageError(w, http.StatusBadRequest, "InvalidRequest", "InvalidRequest", "The signed URL has no token: ask for a new one")
			return
		}
		want := &token.Expect{Issuer: s.issuer(), Audience: signedURLAudience, Now: s.now()}
		c, err := s.keyring(r.Context(), false).Parse(raw, want)
		if errors.Is(err, token.ErrUnknownKey) {
			c, err = s.keyring(r.Context(), true).Parse(raw, want)
		}
		switch {
		case errors.Is(err, token.ErrExpired):
			writeStorageError(w, http.StatusBadRequest, "InvalidJWT", "InvalidJWT", "The signed URL has expired: ask for a new one")
			return
		case err != nil || c.Subject != media.Key(media.Bucket, r.PathValue("path")):
			writeStorageError(w, http.StatusBadRequest, "InvalidJWT", "InvalidJWT", "The signed URL is not valid for this file")
			return
		}
		serve.ServeHTTP(w, r)
	})
}
