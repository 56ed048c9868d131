package media

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"io"
	"strings"
	"testing"
	"time"

	xwebp "golang.org/x/image/webp"

	"salaula/internal/apierr"
	"salaula/internal/media/mediatest"
)

func TestPlanFitsTheBoxWithoutEnlarging(t *testing.T) {
	for _, c := range []struct {
		w, h   int
		t      Transform
		cw, ch int
		dw, dh int
	}{
		{1200, 1600, Transform{Width: 192, Height: 192, Resize: "cover"}, 1200, 1200, 192, 192},
		{1600, 1200, Transform{Width: 200, Height: 100, Resize: "cover"}, 1600, 800, 200, 100},
		{1200, 1600, Transform{Width: 192, Height: 192, Resize: "contain"}, 1200, 1600, 144, 192},
		{1200, 1600, Transform{Width: 192, Height: 192, Resize: "fill"}, 1200, 1600, 192, 192},
		{1200, 1600, Transform{Width: 300, Resize: "cover"}, 1200, 1600, 300, 400},
		{1200, 1600, Transform{Height: 400, Resize: "cover"}, 1200, 1600, 300, 400},
		{1200, 1600, Transform{Resize: "cover"}, 1200, 1600, 1200, 1600},
		// Larger than the image: never enlarged, proportions kept.
		{100, 50, Transform{Width: 400, Height: 400, Resize: "cover"}, 50, 50, 50, 50},
		{100, 50, Transform{Width: 2500, Resize: "cover"}, 100, 50, 100, 50},
		{100, 50, Transform{Width: 400, Height: 400, Resize: "contain"}, 100, 50, 100, 50},
		{100, 50, Transform{Width: 400, Height: 20, Resize: "fill"}, 100, 50, 100, 20},
	} {
		cw, ch, dw, dh := plan(c.w, c.h, c.t)
		if cw != c.cw || ch != c.ch || dw != c.dw || dh != c.dh {
			t.Errorf("plan(%d, %d, %v) = %d×%d to %d×%d, want %d×%d to %d×%d", c.w, c.h, c.t, cw, ch, dw, dh, c.cw, c.ch, c.dw, c.dh)
		}
	}
}

func TestParseTransformNamesTheBadParameter(t *testing.T) {
	q := func(kv ...string) func(string) string {
		m := map[string]string{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) string { return m[k] }
	}
	got, err := ParseTransform(q("width", "192", "height", "192", "resize", "contain", "quality", "60", "format", "origin"))
	if err != nil || got != (Transform{Width: 192, Height: 192, Resize: "contain", Quality: 60, Format: "origin"}) {
		t.Fatalf("ParseTransform = %+v, %v", got, err)
	}
	if back, err := ParseTransformString(got.String()); err != nil || back != got {
		t.Fatalf("%q read back as %+v, %v", got.String(), back, err)
	}
	if got, _ := ParseTransform(q("width", "96", "format", "avif")); got.Resize != "cover" || !got.Negotiated() {
		t.Fatalf("defaults: %+v", got)
	}
	for _, c := range []struct {
		kv    []string
		param string
	}{
		{[]string{"width", "100000"}, "width"},
		{[]string{"width", "-1"}, "width"},
		{[]string{"width", "1.5"}, "width"},
		{[]string{"height", "2501"}, "height"},
		{[]string{"height", "tall"}, "height"},
		{[]string{"resize", "crop"}, "resize"},
		{[]string{"quality", "0"}, "quality"},
		{[]string{"quality", "101"}, "quality"},
		{[]string{"format", "gif"}, "format"},
	} {
		_, err := ParseTransform(q(c.kv...))
		e := apierr.As(err)
		if e == nil || e.Kind != apierr.Invalid || !strings.HasPrefix(e.Message, c.param+" must") {
			t.Errorf("%v: %v, want an Invalid error naming %s", c.kv, err, c.param)
		}
	}
	if _, err := ParseTransformJSON(map[string]any{"width": true}); err == nil {
		t.Error("a width of true was taken")
	}
	if got, err := ParseTransformJSON(map[string]any{"width": 96.0, "resize": "fill"}); err != nil || got.Width != 96 || got.Resize != "fill" {
		t.Errorf("ParseTransformJSON = %+v, %v", got, err)
	}
}

// eachStore runs fn on a Library over a store on disk and one in S3.
func eachStore(t *testing.T, fn func(t *testing.T, l *Library)) {
	t.Run("local", func(t *testing.T) {
		st, err := NewLocal(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		fn(t, &Library{Files: st})
	})
	t.Run("s3", func(t *testing.T) {
		st, _ := newS3Store(t)
		fn(t, &Library{Files: st})
	})
}

// render renders the image at path as t asks, for a client that shows WebP.
func render(t *testing.T, l *Library, path string, tr Transform) ([]byte, Object, error) {
	t.Helper()
	f, obj, err := l.Render(context.Background(), path, tr, true)
	if err != nil {
		return nil, obj, err
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	return b, obj, err
}

func put(t *testing.T, st Store, key string, b []byte, ct string) {
	t.Helper()
	if _, err := st.Put(context.Background(), key, bytes.NewReader(b), ct); err != nil {
		t.Fatal(err)
	}
}

// variantKeys are the keys of the stored variants of the object at key.
func variantKeys(t *testing.T, st Store, key string) []string {
	t.Helper()
	var keys []string
	for _, ct := range []string{TypeWebP, TypeJPEG} {
		for _, tr := range []Transform{{Width: 192, Height: 192, Resize: "cover"}, {Width: 96, Resize: "cover"}} {
			obj, err := st.Stat(context.Background(), key)
			if err != nil {
				continue
			}
			k := variantKey(key, obj, tr, ct)
			if _, err := st.Stat(context.Background(), k); err == nil {
				keys = append(keys, k)
			}
		}
	}
	return keys
}

func TestRenderMakesAThumbnailOnceAndKeepsIt(t *testing.T) {
	eachStore(t, func(t *testing.T, l *Library) {
		photo := mediatest.PhonePhoto(t)
		key := Key(Bucket, "u1/photos/1700000000-me.jpg")
		put(t, l.Files, key, photo, TypeJPEG)
		thumb := Transform{Width: 192, Height: 192, Resize: "cover"}
		b, obj, err := render(t, l, "u1/photos/1700000000-me.jpg", thumb)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := xwebp.DecodeConfig(bytes.NewReader(b))
		if err != nil || cfg.Width != 192 || cfg.Height != 192 || obj.ContentType != TypeWebP || obj.ETag == "" {
			t.Fatalf("thumbnail: %+v %v, %+v", cfg, err, obj)
		}
		if len(b) > 30<<10 || len(photo) < 300<<10 {
			t.Fatalf("a thumbnail of a %d KB photo is %d KB, want at most 30 KB", len(photo)>>10, len(b)>>10)
		}
		vk := variantKey(key, mustStat(t, l.Files, key), thumb, TypeWebP)
		if _, err := l.Files.Stat(context.Background(), vk); err != nil {
			t.Fatalf("the variant is not kept: %v", err)
		}
		// The second time, the kept variant is what answers.
		marker := mustPNG(t, 3, 3, color.NRGBA{0, 0, 255, 255})
		put(t, l.Files, vk, marker, TypeWebP)
		if again, _, err := render(t, l, "u1/photos/1700000000-me.jpg", thumb); err != nil || !bytes.Equal(again, marker) {
			t.Fatalf("second render made the image again (%d bytes, %v) instead of answering the kept one", len(again), err)
		}
		// A replaced image answers with its own variant, not the old one.
		put(t, l.Files, key, mustJPEG(t, 400, 300), TypeJPEG)
		b, _, err = render(t, l, "u1/photos/1700000000-me.jpg", thumb)
		if cfg, _ := xwebp.DecodeConfig(bytes.NewReader(b)); err != nil || bytes.Equal(b, marker) || cfg.Width != 192 {
			t.Fatalf("after replacing: %d bytes %+v, %v", len(b), cfg, err)
		}
		// Deleting the image deletes its variants, of every version.
		current := variantKeys(t, l.Files, key)
		if len(current) == 0 {
			t.Fatal("no variant of the replaced image is kept")
		}
		if err := l.Files.Delete(context.Background(), key); err != nil {
			t.Fatal(err)
		}
		for _, k := range append(current, vk) {
			if _, err := l.Files.Stat(context.Background(), k); !errors.Is(err, ErrNotFound) {
				t.Errorf("variant %s outlived its image: %v", k, err)
			}
		}
		put(t, l.Files, key, mustJPEG(t, 400, 300), TypeJPEG)
		if keys := variantKeys(t, l.Files, key); len(keys) != 0 {
			t.Errorf("variants left after delete: %v", keys)
		}
	})
}

func TestRenderAnswersJPEGToAClientWithoutWebP(t *testing.T) {
	l := &Library{Files: mustLocal(t)}
	// A transparent PNG logo: JPEG has no transparency, so it goes on white.
	put(t, l.Files, Key(Bucket, "u1/logo.png"), mustPNG(t, 40, 40, color.NRGBA{0, 0, 0, 0}), TypePNG)
	f, obj, err := l.Render(context.Background(), "u1/logo.png", Transform{Width: 20, Resize: "cover"}, false)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := jpeg.Decode(f)
	if err != nil || obj.ContentType != TypeJPEG || img.Bounds().Dx() != 20 {
		t.Fatalf("%+v, %v", obj, err)
	}
	if r, g, b, _ := img.At(10, 10).RGBA(); r>>8 < 250 || g>>8 < 250 || b>>8 < 250 {
		t.Errorf("a transparent pixel became %d,%d,%d, want white", r>>8, g>>8, b>>8)
	}
	// format=origin keeps the PNG, transparency and all.
	f2, obj, err := l.Render(context.Background(), "u1/logo.png", Transform{Width: 20, Resize: "cover", Format: "origin"}, true)
	if err != nil {
		t.Fatal(err)
	}
	defer f2.Close()
	if img, err := png.Decode(f2); err != nil || obj.ContentType != TypePNG || img.At(5, 5).(color.NRGBA).A != 0 {
		t.Fatalf("origin: %+v, %v", obj, err)
	}
}

func TestRenderShowsAPhotoUpright(t *testing.T) {
	l := &Library{Files: mustLocal(t)}
	// Stored 40×20, red left and blue right, to be turned a quarter clockwise
	// (EXIF orientation 6): shown 20×40, red on top.
	img := image.NewRGBA(image.Rect(0, 0, 40, 20))
	for y := range 20 {
		for x := range 40 {
			img.Set(x, y, map[bool]color.RGBA{true: {255, 0, 0, 255}, false: {0, 0, 255, 255}}[x < 20])
		}
	}
	var b bytes.Buffer
	jpeg.Encode(&b, img, &jpeg.Options{Quality: 95})
	turned := insertAfterJFIF(b.Bytes(), orientationSegment(6))
	put(t, l.Files, Key(Bucket, "u1/turned.jpg"), turned, TypeJPEG)
	f, _, err := l.Render(context.Background(), "u1/turned.jpg", Transform{Width: 10, Resize: "cover", Format: "png"}, true)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out, err := png.Decode(f)
	if err != nil || out.Bounds().Dx() != 10 || out.Bounds().Dy() != 20 {
		t.Fatalf("%v, %v: want 10×20", out.Bounds(), err)
	}
	if r, _, bl, _ := out.At(5, 2).RGBA(); r>>8 < 200 || bl>>8 > 60 {
		t.Errorf("top is %d,_,%d, want red", r>>8, bl>>8)
	}
	if r, _, bl, _ := out.At(5, 17).RGBA(); bl>>8 < 200 || r>>8 > 60 {
		t.Errorf("bottom is %d,_,%d, want blue", r>>8, bl>>8)
	}
}

func TestRenderRefusesWhatItCannotResize(t *testing.T) {
	l := &Library{Files: mustLocal(t)}
	ctx := context.Background()
	thumb := Transform{Width: 96, Resize: "cover"}
	if _, _, err := l.Render(ctx, "u1/none.jpg", thumb, true); err != ErrNoObject {
		t.Errorf("no file: %v", err)
	}
	put(t, l.Files, Key(Bucket, "u1/notes.txt"), []byte("not a picture"), "text/plain")
	put(t, l.Files, Key(Bucket, "u1/fake.png"), []byte("not a picture either"), TypePNG)
	for _, p := range []string{"u1/notes.txt", "u1/fake.png"} {
		if _, _, err := l.Render(ctx, p, thumb, true); err != ErrNotRenderable {
			t.Errorf("%s: %v, want ErrNotRenderable", p, err)
		}
	}
	// More pixels than an upload may have: refused from the header, before decoding.
	put(t, l.Files, Key(Bucket, "u1/huge.png"), mustPNG(t, 1700, 1700, color.NRGBA{1, 2, 3, 255}), TypePNG)
	if _, _, err := l.Render(ctx, "u1/huge.png", thumb, true); err != ErrTooManyPixels {
		t.Errorf("huge: %v, want ErrTooManyPixels", err)
	}
}

func TestRenderWaitsItsTurnThenAnswersBusy(t *testing.T) {
	l := &Library{Files: mustLocal(t)}
	thumb, large := renderCost(Transform{Width: 192, Height: 192}), renderCost(Transform{Width: 1600})
	if thumb != 1 || large != MaxRenders || renderCost(Transform{Width: 640, Height: 640}) != 1 {
		t.Fatalf("costs: thumbnail %d, large %d", thumb, large)
	}
	busy := func(cost int64) bool {
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		release, err := l.renderTurn(ctx, cost)
		if err == nil {
			release()
			return false
		}
		if e := apierr.As(err); e == nil || e.Kind != apierr.Unavailable {
			t.Fatalf("no turn: %v, want Unavailable", err)
		}
		return true
	}
	first, err := l.renderTurn(context.Background(), thumb)
	if err != nil {
		t.Fatal(err)
	}
	if busy(thumb) || !busy(large) {
		t.Fatal("beside one thumbnail, another should run and a large one wait")
	}
	first()
	if busy(large) {
		t.Fatal("with nothing running, a large one should run")
	}
}

func TestRenderOnAHungS3AnswersUnavailableWithinTheTimeout(t *testing.T) {
	t.Parallel()
	st, err := NewS3(mediatest.Hung(t, 300*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	l := &Library{Files: st}
	start := time.Now()
	_, _, err = l.Render(context.Background(), "u1/a.jpg", Transform{Width: 96, Resize: "cover"}, true)
	if e := apierr.As(err); e == nil || e.Kind != apierr.Unavailable || !strings.Contains(e.Message, "did not answer within") {
		t.Fatalf("render on a hung S3: %v, want Unavailable naming the timeout", err)
	}
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("took %s", took)
	}
}

func mustLocal(t *testing.T) *Local {
	st, err := NewLocal(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func mustStat(t *testing.T, st Store, key string) Object {
	obj, err := st.Stat(context.Background(), key)
	if err != nil {
		t.Fatal(err)
	}
	return obj
}

func mustPNG(t *testing.T, w, h int, c color.NRGBA) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < len(img.Pix); i += 4 {
		copy(img.Pix[i:i+4], []byte{c.R, c.G, c.B, c.A})
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func mustJPEG(t *testing.T, w, h int) []byte {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = uint8(i * 7)
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
