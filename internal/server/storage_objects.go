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
// storage-js's info() and exists(). The id is the one the upload answered,
// the metadata the uploader's own.
func (s *Server) handleObjectInfo() http.Handler {
	return s.storageAPI(func(w http.ResponseWriter, r *http.Request) error {
		owner, path, err := s.ownObject(r)
		if err != nil {
			return err
		}
		row, obj, err := s.library.Info(r.Context(), owner, path)
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, map[string]any{
			"id": row.ID, "name": path, "bucket_id": media.Bucket, "version": row.Version,
			"size": obj.Size, "content_type": obj.ContentType, "cache_control": "max-age=31536000",
			"etag": obj.ETag, "metadata": row.UserMetadata, "last_modified": obj.ModTime.UTC().Format(time.RFC3339Nano),
			"created_at": row.CreatedAt, "updated_at": row.UpdatedAt,
		})
		return nil
	})
}

// handleOwnObject is GET (and HEAD) /storage/v1/object/{bucket}/{path...}
// and /object/authenticated/{bucket}/{path...}: storage-js's download(),
// and the HEAD that exists() sent before supabase-js 2.119, for a file of
// the caller's own folder.
func (s *Server) handleOwnObject() http.Handler {
	return s.storageAPI(func(w http.ResponseWriter, r *http.Request) error {
		path, err := s.ownFile(r)
		if err != nil {
			return err
		}
		return s.serveObject(w, r, path)
	})
}

// ownFile reads {bucket} and {path...} of a read of the signed-in
// caller's own folder: ErrReadOwnFolder for another's.
func (s *Server) ownFile(r *http.Request) (string, error) {
	owner, path, err := s.ownObject(r)
	if err == nil && media.Owner(path) != owner {
		err = media.ErrReadOwnFolder
	}
	return path, err
}

// handleListObjects is POST /storage/v1/object/list/{bucket}: storage-js's
// list(prefix, {limit, offset, sortBy, search}) within the caller's own
// folder (media.Library.List).
func (s *Server) handleListObjects() http.Handler {
	return s.storageAPI(func(w http.ResponseWriter, r *http.Request) error {
		owner, err := s.bucketCaller(r, media.ReadSignInError)
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
// caller's own folder, answered {"signedURL": "/object/sign/...?token=..."};
// with a transform (createSignedUrl(path, expiresIn, {transform})) the URL
// is of the sized image, "/render/image/sign/...?token=...", its token
// holding the transformation.
func (s *Server) handleSignObject() http.Handler {
	return s.storageAPI(func(w http.ResponseWriter, r *http.Request) error {
		owner, path, err := s.ownObject(r)
		if err != nil {
			return err
		}
		var in struct {
			ExpiresIn json.Number    `json:"expiresIn"`
			Transform map[string]any `json:"transform"`
		}
		if err := decodeJSON(w, r, &in); err != nil {
			return err
		}
		age, err := media.SignedURLAge(in.ExpiresIn.String())
		if err != nil {
			return err
		}
		var t *media.Transform
		if len(in.Transform) > 0 {
			tr, err := media.ParseTransformJSON(in.Transform)
			if err != nil {
				return err
			}
			t = &tr
		}
		url, err := s.signURL(r, owner, path, age, t)
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, map[string]string{"signedURL": url})
		return nil
	})
}

// handleSignObjects is POST /storage/v1/object/sign/{bucket}:
// storage-js's createSignedUrls(paths, expiresIn), several files of the
// caller's own folder at once. Each path gets its signed URL, or the
// reason it has none; a bad expiresIn or list refuses the whole call.
func (s *Server) handleSignObjects() http.Handler {
	return s.storageAPI(func(w http.ResponseWriter, r *http.Request) error {
		owner, err := s.bucketCaller(r, media.ReadSignInError)
		if err != nil {
			return err
		}
		var in struct {
			ExpiresIn json.Number `json:"expiresIn"`
			Paths     []string    `json:"paths"`
		}
		if err := decodeJSON(w, r, &in); err != nil {
			return err
		}
		age, err := media.SignedURLAge(in.ExpiresIn.String())
		if err != nil {
			return err
		}
		if len(in.Paths) == 0 || len(in.Paths) > media.MaxSign {
			return apierr.Coded(apierr.Invalid, media.CodeInvalidRequest, "paths must list 1 to 1000 object paths")
		}
		type signed struct {
			Error     *string `json:"error"`
			Path      string  `json:"path"`
			SignedURL *string `json:"signedURL"`
		}
		out := make([]signed, len(in.Paths))
		for i, path := range in.Paths {
			out[i].Path = path
			url, err := s.signURL(r, owner, path, age, nil)
			if err != nil {
				msg := media.NoAccessMessage
				if !media.IsNoAccess(err) {
					return err
				}
				out[i].Error = &msg
				continue
			}
			out[i].SignedURL = &url
		}
		writeJSON(w, http.StatusOK, out)
		return nil
	})
}

// signURL returns the signed URL (from /object/sign/ on) of the file at
// path of the caller's own folder, valid for age; with t, the URL (from
// /render/image/sign/ on) of the file sized as t says.
func (s *Server) signURL(r *http.Request, owner, path string, age time.Duration, t *media.Transform) (string, error) {
	if err := media.CheckPath(path); err != nil {
		return "", err
	}
	if _, _, err := s.library.Info(r.Context(), owner, path); err != nil {
		return "", err
	}
	key, now := media.Key(media.Bucket, path), s.now()
	claims := token.Claims{Issuer: s.issuer(), Audience: signedURLAudience,
		Subject: key, Role: "storage", IssuedAt: now.Unix(), ExpiresAt: now.Add(age).Unix()}
	route := "/object/sign/"
	if t != nil {
		claims.Transformations, route = t.String(), "/render/image/sign/"
	}
	tok, err := s.keyring(r.Context(), false).Sign(claims)
	if err != nil {
		return "", apierr.Wrap(err, "Could not sign the URL. Please try again.")
	}
	return route + key + "?token=" + tok, nil
}

// handleNotOffered answers a storage-js call this server does not offer
// (what names it) in storage's shape: 501 NotSupported, saying what to do
// instead.
func (s *Server) handleNotOffered(what, instead string) http.Handler {
	return s.storageAPI(func(w http.ResponseWriter, r *http.Request) error {
		return apierr.Coded(apierr.NotOffered, media.CodeNotSupported, what+" is not offered by this server: "+instead)
	})
}

// checkSignedURL returns the claims of the signed URL r asks for, or why
// it is not valid for its file of user-media.
func (s *Server) checkSignedURL(r *http.Request) (*token.Claims, error) {
	if r.PathValue("bucket") != media.Bucket {
		return nil, media.ErrNoBucket
	}
	raw := r.URL.Query().Get("token")
	if raw == "" {
		return nil, media.ErrNoToken
	}
	want := &token.Expect{Issuer: s.issuer(), Audience: signedURLAudience, Now: s.now()}
	c, err := s.keyring(r.Context(), false).Parse(raw, want)
	if errors.Is(err, token.ErrUnknownKey) {
		c, err = s.keyring(r.Context(), true).Parse(raw, want)
	}
	switch {
	case errors.Is(err, token.ErrExpired):
		return nil, media.ErrExpiredToken
	case err != nil || c.Subject != media.Key(media.Bucket, r.PathValue("path")):
		return nil, media.ErrTokenNotValid
	}
	return c, nil
}

// handleSignedObject is GET /storage/v1/object/sign/{bucket}/{path...}
// ?token=...: the file a signed URL names, while the URL is valid.
func (s *Server) handleSignedObject() http.Handler {
	serve := s.handlePublicObject()
	return s.storageAPI(func(w http.ResponseWriter, r *http.Request) error {
		if _, err := s.checkSignedURL(r); err != nil {
			return err
		}
		serve.ServeHTTP(w, r)
		return nil
	})
}
