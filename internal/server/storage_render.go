package server

import (
	"net/http"

	"salaula/internal/media"
)

// Sized images, as Supabase Storage's image transformation serves them to
// supabase-js: getPublicUrl(path, {transform}) reads
// /render/image/public/{bucket}/{path}?width=&height=&resize=&quality=&format=,
// download(path, {transform}) reads /render/image/authenticated/... with
// the session, and createSignedUrl(path, expiresIn, {transform}) answers a
// /render/image/sign/...?token= URL whose token holds the transformation.
// media.Library.Render makes each variant once and keeps it.

// transformOf reads the transformation a render URL's query asks for.
func transformOf(r *http.Request) (media.Transform, error) {
	return media.ParseTransform(r.URL.Query().Get)
}

// handleRenderPublic is GET /storage/v1/render/image/public/{bucket}/{path...}.
func (s *Server) handleRenderPublic() http.Handler {
	return s.storageAPI(func(w http.ResponseWriter, r *http.Request) error {
		path, err := media.ObjectPath(r.PathValue("bucket"), r.PathValue("path"))
		if err != nil {
			return err
		}
		t, err := transformOf(r)
		if err != nil {
			return err
		}
		return s.serveRender(w, r, path, t, "public")
	})
}

// handleRenderAuthenticated is GET
// /storage/v1/render/image/authenticated/{bucket}/{path...}: a sized image
// of the caller's own folder.
func (s *Server) handleRenderAuthenticated() http.Handler {
	return s.storageAPI(func(w http.ResponseWriter, r *http.Request) error {
		path, err := s.ownFile(r)
		if err != nil {
			return err
		}
		t, err := transformOf(r)
		if err != nil {
			return err
		}
		return s.serveRender(w, r, path, t, "private")
	})
}

// handleRenderSigned is GET /storage/v1/render/image/sign/{bucket}/{path...}
// ?token=...: the sized image a signed URL names, as its token's
// transformation says (the query's own width and the like count for
// nothing), while the URL is valid.
func (s *Server) handleRenderSigned() http.Handler {
	return s.storageAPI(func(w http.ResponseWriter, r *http.Request) error {
		c, err := s.checkSignedURL(r)
		if err != nil {
			return err
		}
		t, err := media.ParseTransformString(c.Transformations)
		if err != nil {
			return media.ErrTokenNotValid
		}
		path, err := media.ObjectPath(r.PathValue("bucket"), r.PathValue("path"))
		if err != nil {
			return err
		}
		return s.serveRender(w, r, path, t, "private")
	})
}

// serveRender writes the variant t of the image at path, with what
// serveStored writes; when its format follows the client's Accept header,
// the answer varies by it.
func (s *Server) serveRender(w http.ResponseWriter, r *http.Request, path string, t media.Transform, scope string) error {
	f, obj, err := s.library.Render(r.Context(), path, t, media.AcceptsWebP(r.Header.Get("Accept")))
	if err != nil {
		return err
	}
	defer f.Close()
	if t.Negotiated() {
		w.Header().Add("Vary", "Accept")
	}
	w.Header().Set("X-Transformations", t.String())
	serveStored(w, r, f, obj, scope)
	return nil
}
