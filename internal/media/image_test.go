package media

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
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
