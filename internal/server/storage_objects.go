package server

import (
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"salaula/internal/apierr"
	"salaula/internal/media"
	"salaula/internal/token"
)

// Reading user-media as storage-js does: list (POST /object/list/{bucket}),
// info and exists (GET /object/info/{bucket}/{path}) and signed URLs
// (POST /object/sign/{bucket}/{path}, then GET with ?token=), each within
// the caller's own folder, answered in storage's own shapes. The rules are
// media.Library's; the handlers decode, sign and render.

// signedURLAudience is the audience of a signed URL's token.
const signedURLAudience = "storage"

// ownObject reads {bucket} and {path...} and the signed-in caller, as a
// storage read checks them (bucket, path, then session).
func (s *Server) ownObject(r *http.Request) (owner, path string, err error) {
	if path, err = media.ObjectPath(r.PathValue("bucket"), r.PathValue("path")); err != nil {
		return "", "", err
	}
	owner, err = s.storageCaller(r, media.ReadSignInError)
	return owner, path, err
}

// handleObjectInfo is GET /storage/v1/object/info/{bucket}/{path...}:
// storage-js's info() and exists().
func (s *Server) handleObjectInfo() http.Handler {
	return s.storageAPI(func(w http.ResponseWriter, r *http.Request) error {
		owner, path, err := s.ownObject(r)
		if err != nil {
			return err
		}
		obj, err := s.library.Info(r.Context(), owner, path)
		if err != nil {
			return err
		}
		mod := obj.ModTime.UTC().Format(time.RFC3339Nano)
		writeJSON(w, http.StatusOK, map[string]any{
			"id": obj.ETag, "name": path, "bucket_id": media.Bucket, "version": nil,
			"size": obj.Size, "content_type": obj.ContentType, "cache_control": "max-age=31536000",
			"etag": obj.ETag, "metadata": map[string]any{}, "last_modified": mod, "created_at": mod,
		})
		return nil
	})
}

// handleListObjects is POST /storage/v1/object/list/{bucket}: storage-js's
// list(prefix, {limit, offset, sortBy, search}) within the caller's own
// folder (media.Library.List).
func (s *Server) handleListObjects() http.Handler {
	return s.storageAPI(func(w http.ResponseWriter, r *http.Request) error {
		if r.PathValue("bucket") != media.Bucket {
			return media.ErrNoBucket
		}
		owner, err := s.storageCaller(r, media.ReadSignInError)
		if err != nil {
			return err
		}
		var q media.ListQuery
		if err := decodeJSON(w, r, &q); err != nil {
			return err
		}
		entries, err := s.library.List(r.Context(), owner, q)
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, entries)
		return nil
	})
}

// handleSignObject is POST /storage/v1/object/sign/{bucket}/{path...}:
// storage-js's createSignedUrl(path, expiresIn) for a file of the
// caller's own folder, answered {"signedURL": "/object/sign/...?token=..."}.
func (s *Server) handleSignObject() http.Handler {
	return s.storageAPI(func(w http.ResponseWriter, r *http.Request) error {
		owner, path, err := s.ownObject(r)
		if err != nil {
			return err
		}
		var in struct {
			ExpiresIn json.Number `json:"expiresIn"`
		}
		if err := decodeJSON(w, r, &in); err != nil {
			return err
		}
		age, err := s.library.Signable(r.Context(), owner, path, in.ExpiresIn.String())
		if err != nil {
			return err
		}
		key, now := media.Key(media.Bucket, path), s.now()
		tok, err := s.keyring(r.Context(), false).Sign(token.Claims{Issuer: s.issuer(), Audience: signedURLAudience,
			Subject: key, Role: "storage", IssuedAt: now.Unix(), ExpiresAt: now.Add(age).Unix()})
		if err != nil {
			return apierr.Wrap(err, "Could not sign the URL. Please try again.")
		}
		writeJSON(w, http.StatusOK, map[string]string{"signedURL": "/object/sign/" + key + "?token=" + tok})
		return nil
	})
}

// checkSignedURL returns why the signed URL r asks for is not valid for
// its file of user-media, or nil when it is.
func (s *Server) checkSignedURL(r *http.Request) error {
	if r.PathValue("bucket") != media.Bucket {
		return media.ErrNoBucket
	}
	raw := r.URL.Query().Get("token")
	if raw == "" {
		return media.ErrNoToken
	}
	want := &token.Expect{Issuer: s.issuer(), Audience: signedURLAudience, Now: s.now()}
	c, err := s.keyring(r.Context(), false).Parse(raw, want)
	if errors.Is(err, token.ErrUnknownKey) {
		c, err = s.keyring(r.Context(), true).Parse(raw, want)
	}
	switch {
	case errors.Is(err, token.ErrExpired):
		return media.ErrExpiredToken
	case err != nil || c.Subject != media.Key(media.Bucket, r.PathValue("path")):
		return media.ErrTokenNotValid
	}
	return nil
}

// handleSignedObject is GET /storage/v1/object/sign/{bucket}/{path...}
// ?token=...: the file a signed URL names, while the URL is valid.
func (s *Server) handleSignedObject() http.Handler {
	serve := s.handlePublicObject()
	return s.storageAPI(func(w http.ResponseWriter, r *http.Request) error {
		if err := s.checkSignedURL(r); err != nil {
			return err
		}
		serve.ServeHTTP(w, r)
		return nil
	})
}
