package server

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"

	"salaula/internal/store"
)

// testUser is a signed-in account of a test.
type testUser struct {
	ID, Email, Token string
}

// auth returns the headers of a call the user makes through supabase-js.
func (u testUser) auth(env *testEnv) map[string]string {
	return map[string]string{"Authorization": "Bearer " + u.Token, "apikey": env.anonKey(nil)}
}

// anonKey returns the server's public anon key.
func (e *testEnv) anonKey(t testing.TB) string {
	if e.anon == "" {
		k, err := AnonKey(e.keyring(t))
		if err != nil {
			panic(err)
		}
		e.anon = k
	}
	return e.anon
}

// newUser makes an account with an active session and its access token.
func newUser(t testing.TB, env *testEnv, email string) testUser {
	t.Helper()
	ctx := context.Background()
	u := &store.User{Email: email, PasswordHash: "not-used"}
	if err := env.DB.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	s := &store.Session{UserID: u.ID}
	if err := env.DB.CreateSession(ctx, s); err != nil {
		t.Fatal(err)
	}
	tok := env.sign(t, env.accessClaims(u.ID, s.ID, email))
	env.anonKey(t) // known before a test closes the database
	return testUser{ID: u.ID, Email: email, Token: tok}
}

// forgedToken returns tok with one character of its signature changed, in
// the middle where every bit counts: the same claims with a signature that
// does not match them.
func forgedToken(tok string) string {
	i := strings.LastIndexByte(tok, '.') + 10
	swap := byte('A')
	if tok[i] == 'A' {
		swap = 'B'
	}
	return tok[:i] + string(swap) + tok[i+1:]
}

// testJPEG is a small JPEG image of the given size.
func testJPEG(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for x := 0; x < w; x++ {
		img.Set(x, x%h, color.RGBA{200, 30, 30, 255})
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// testPNG is a small PNG image.
func testPNG(t *testing.T) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, 4, 3))
	img.Set(1, 1, color.NRGBA{0, 128, 0, 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// testWebP is a 1x1 lossless WebP image.
var testWebP = []byte{
	0x52, 0x49, 0x46, 0x46, 0x1a, 0x00, 0x00, 0x00, 0x57, 0x45, 0x42, 0x50, 0x56, 0x50, 0x38, 0x4c,
	0x0d, 0x00, 0x00, 0x00, 0x2f, 0x00, 0x00, 0x00, 0x10, 0x07, 0x10, 0x11, 0x11, 0x88, 0x88, 0xfe,
	0x07, 0x00,
}

// multipartBody is the form supabase-js sends for a Blob: cacheControl, then
// the file under an empty field name.
func multipartBody(t *testing.T, file []byte, filename, declaredType string) (io.Reader, string) {
	t.Helper()
	return multipartForm(t, nil, file, filename, declaredType)
}

// multipartBodyWith is the form supabase-js sends for a PNG Blob with the
// upload's options as text fields (metadata, contentEncoding).
func multipartBodyWith(t *testing.T, fields map[string]string, file []byte) ([]byte, string) {
	t.Helper()
	r, ct := multipartForm(t, fields, file, "blob", "image/png")
	b, _ := io.ReadAll(r)
	return b, ct
}

// multipartForm writes cacheControl, the fields, then the file under an
// empty field name.
func multipartForm(t *testing.T, fields map[string]string, file []byte, filename, declaredType string) (io.Reader, string) {
	t.Helper()
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	mw.WriteField("cacheControl", "3600")
	for k, v := range fields {
		mw.WriteField(k, v)
	}
	h := make(map[string][]string)
	h["Content-Disposition"] = []string{`form-data; name=""; filename="` + filename + `"`}
	h["Content-Type"] = []string{declaredType}
	pw, err := mw.CreatePart(h)
	if err != nil {
		t.Fatal(err)
	}
	pw.Write(file)
	mw.Close()
	return &b, mw.FormDataContentType()
}

// upload sends file as supabase-js does (multipart) to user-media/path.
func (e *testEnv) upload(t *testing.T, u testUser, path string, file []byte, upsert bool) *http.Response {
	t.Helper()
	body, ct := multipartBody(t, file, "photo.jpg", "image/jpeg")
	req, err := http.NewRequest(http.MethodPost, e.URL+"/storage/v1/object/user-media/"+path, body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", ct)
	if u.Token != "" {
		req.Header.Set("Authorization", "Bearer "+u.Token)
	}
	req.Header.Set("apikey", e.anonKey(t))
	req.Header.Set("x-upsert", map[bool]string{true: "true", false: "false"}[upsert])
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Body.Close() })
	return res
}

// mustUpload uploads file and returns its public URL.
func (e *testEnv) mustUpload(t *testing.T, u testUser, path string, file []byte) string {
	t.Helper()
	res := e.upload(t, u, path, file, false)
	wantStatus(t, res, http.StatusOK)
	return e.URL + "/storage/v1/object/public/user-media/" + path
}

// get fetches a path without headers and returns the answer and its body.
func (e *testEnv) get(t *testing.T, path string, headers map[string]string) (*http.Response, []byte) {
	t.Helper()
	res := e.do(t, http.MethodGet, path, nil, headers)
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, b
}

// validProfile is a complete valid onboard-new-user payload of u with photos.
func validProfile(u testUser, photos ...string) map[string]any {
	var pic any
	if len(photos) > 0 {
		pic = photos[0]
	}
	if photos == nil {
		photos = []string{}
	}
	return map[string]any{
		"userId": u.ID, "role": "buyer", "full_name": "Chipo Mwale", "location": "Kabulonga, Lusaka",
		"age": 24, "phone_number": "+260 97 123 4567", "gender": "Female", "height": "165 cm",
		"waist_size": "28", "style_description": "Bright colours and vintage denim",
		"clothing_aesthetics": []string{"STREET WEAR", "DENIM WEAR"}, "inspiration": "Historical eras e.g. 90s",
		"wants_clearance_program": true, "body_photo_urls": photos, "profile_pic_url": pic,
	}
}

// validSeller is a complete valid onboard-seller payload of u with logos.
func validSeller(u testUser, logos ...string) map[string]any {
	if logos == nil {
		logos = []string{}
	}
	return map[string]any{
		"userId": u.ID, "role": "seller", "full_name": "Mwila Banda", "location": "Kamwala Market, Lusaka",
		"age": 31, "phone_number": "0961234567", "gender": "male", "business_name": "Mwila Thrift",
		"registration_number": nil, "business_mode": "Street Vendor", "logo_urls": logos,
	}
}

// profileOf reads get-profile-me as u.
func (e *testEnv) profileOf(t *testing.T, u testUser) map[string]any {
	t.Helper()
	res := e.do(t, http.MethodPost, "/functions/v1/get-profile-me", map[string]any{}, u.auth(e))
	wantStatus(t, res, http.StatusOK)
	return decode(t, res)
}

// jsonEqual compares two values through their JSON forms.
func jsonEqual(a, b any) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return bytes.Equal(ja, jb)
}
