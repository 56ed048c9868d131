package main

import (
	"bytes"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
)

// apiClient calls a running server as supabase-js does.
type apiClient struct {
	base string // http://127.0.0.1:PORT
}

// session is the part of an auth answer the tests use.
type session struct {
	AccessToken  string `json:"access_token"`
	RefreshToken string `json:"refresh_token"`
	User         struct {
		ID string `json:"id"`
	} `json:"user"`
}

// call sends a request and returns the status and body; it never fails the
// test, so it can run in goroutines.
func (c apiClient) call(method, path, token, contentType string, body []byte) (int, []byte, error) {
	req, err := http.NewRequest(method, c.base+path, bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return res.StatusCode, b, err
}

// auth posts credentials to an auth route and decodes the session of a 200.
func (c apiClient) auth(path string, body any) (int, session, error) {
	b, _ := json.Marshal(body)
	code, out, err := c.call(http.MethodPost, path, "", "application/json", b)
	var s session
	if err == nil && code == http.StatusOK {
		err = json.Unmarshal(out, &s)
	}
	return code, s, err
}

func (c apiClient) signUp(email, password string) (int, session, error) {
	return c.auth("/auth/v1/signup", map[string]string{"email": email, "password": password})
}

func (c apiClient) signIn(email, password string) (int, session, error) {
	return c.auth("/auth/v1/token?grant_type=password", map[string]string{"email": email, "password": password})
}

func (c apiClient) refresh(token string) (int, session, error) {
	return c.auth("/auth/v1/token?grant_type=refresh_token", map[string]string{"refresh_token": token})
}

// upload sends file as supabase-js does (multipart) to user-media/path.
func (c apiClient) upload(token, path string, file []byte) (int, []byte, error) {
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	mw.WriteField("cacheControl", "3600")
	pw, _ := mw.CreateFormFile("", "photo.png")
	pw.Write(file)
	mw.Close()
	return c.call(http.MethodPost, "/storage/v1/object/user-media/"+path, token, mw.FormDataContentType(), b.Bytes())
}

// photo is a small PNG, different for each seed.
func photo(t testing.TB, seed int) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, 3, 2))
	img.Set(seed%3, 1, color.NRGBA{uint8(seed), uint8(seed >> 8), 7, 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// mustOK fails the test unless the call answered want.
func mustOK(t *testing.T, what string, want, code int, body []byte, err error) {
	t.Helper()
	if err != nil || code != want {
		t.Fatalf("%s: %d %s (%v), want %d", what, code, strings.TrimSpace(string(body)), err, want)
	}
}
