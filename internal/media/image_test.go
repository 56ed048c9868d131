package media

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"testing"
)

func sampleJPEG(t *testing.T) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 20, 10))
	img.Set(3, 3, color.White)
	var b bytes.Buffer
	if err := jpeg.Encode(&b, img, nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestDamagedImagesAreRefusedWithoutPanic(t *testing.T) {
	full := sampleJPEG(t)
	for n := 0; n < len(full); n++ {
		cut := full[:n]
		if _, err := SniffImage(cut); err == nil && n < 200 {
			t.Errorf("a JPEG cut at %d bytes was accepted", n)
		}
		StripJPEGMetadata(cut)
		JPEGOrientation(cut)
	}
	// Segment lengths that point past the end.
	bad := append([]byte{0xFF, 0xD8, 0xFF, 0xE1, 0xFF, 0xFF}, []byte("Exif\x00\x00")...)
	if _, err := StripJPEGMetadata(bad); err == nil {
		t.Error("a segment longer than the file was accepted")
	}
	if _, err := SniffImage([]byte("RIFF\x00\x00\x00\x00WEBPVP8 ")); err != ErrBadImage {
		t.Errorf("a WebP header alone: %v", err)
	}
}

func TestOrientationSurvivesStripping(t *testing.T) {
	plain := sampleJPEG(t)
	withOrientation := insertAfterJFIF(plain[:2:2], orientationSegment(8))
	withOrientation = append(withOrientation, plain[2:]...)
	if JPEGOrientation(withOrientation) != 8 {
		t.Fatal("test image has no orientation")
	}
	out, err := StripJPEGMetadata(withOrientation)
	if err != nil || JPEGOrientation(out) != 8 {
		t.Fatalf("after strip: orientation %d, %v", JPEGOrientation(out), err)
	}
	if _, err := jpeg.Decode(bytes.NewReader(out)); err != nil {
		t.Fatal(err)
	}
	// Without EXIF nothing is added.
	out, _ = StripJPEGMetadata(plain)
	if !bytes.Equal(out, plain) {
		t.Fatal("a JPEG without metadata changed")
	}
}

// BenchmarkCheckPhoto measures what an upload of a phone photo shrunk to
// 1600x1200 costs the server: sniffing its type and removing its metadata.
func BenchmarkCheckPhoto(b *testing.B) {
	img := image.NewRGBA(image.Rect(0, 0, 1600, 1200))
	for x := 0; x < 1600; x++ {
		for y := 0; y < 1200; y += 3 {
			img.Set(x, y, color.RGBA{uint8(x), uint8(y), uint8(x ^ y), 255})
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 80}); err != nil {
		b.Fatal(err)
	}
	photo := insertAfterJFIF(buf.Bytes()[:2:2], orientationSegment(6))
	photo = append(photo, buf.Bytes()[2:]...)
	b.SetBytes(int64(len(photo)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := SniffImage(photo); err != nil {
			b.Fatal(err)
		}
		if _, err := StripJPEGMetadata(photo); err != nil {
			b.Fatal(err)
		}
	}
}

// samplePNG is a small PNG with a text chunk before its end.
func samplePNG(t *testing.T) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, 5, 4))
	img.Set(2, 2, color.NRGBA{0, 128, 0, 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestDamagedPNGAndWebPAreRefusedWithoutPanic(t *testing.T) {
	full := samplePNG(t)
	if out, err := StripPNGMetadata(full); err != nil || !bytes.Equal(out, full) {
		t.Fatalf("a PNG without metadata changed: %v", err)
	}
	for n := 0; n < len(full)-1; n++ {
		if _, err := StripPNGMetadata(full[:n]); err == nil {
			t.Errorf("a PNG cut at %d bytes was accepted", n)
		}
	}
	// A chunk length that points past the end.
	bad := append([]byte(pngSignature), 0x7f, 0xff, 0xff, 0xff, 'I', 'H', 'D', 'R')
	if _, err := StripPNGMetadata(append(bad, make([]byte, 20)...)); err == nil {
		t.Error("a chunk longer than the file was accepted")
	}
	webp := []byte("RIFF\x1a\x00\x00\x00WEBPVP8L\x0d\x00\x00\x00\x2f\x00\x00\x00\x10\x07\x10\x11\x11\x88\x88\xfe\x07\x00")
	if out, err := StripWebPMetadata(webp); err != nil || !bytes.Equal(out, webp) {
		t.Fatalf("a WebP without metadata changed: %v", err)
	}
	for n := 0; n < len(webp); n++ {
		StripWebPMetadata(webp[:n])
	}
	for _, b := range [][]byte{
		[]byte("RIFF\xff\xff\xff\x7fWEBP"),                     // RIFF size past the end
		[]byte("RIFF\x0c\x00\x00\x00WEBPEXIF\xff\xff\xff\x7f"), // chunk size past the end
		[]byte("RIFF\x06\x00\x00\x00WEBPVP"),                   // half a chunk header
	} {
		if _, err := StripWebPMetadata(b); err == nil {
			t.Errorf("damaged WebP %q accepted", b)
		}
	}
	if _, err := StripMetadata("image/gif", full); err == nil {
		t.Error("StripMetadata accepted another type")
	}
}
