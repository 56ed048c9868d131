package media

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"testing"

	"golang.org/x/image/webp"
)

// sampleJPEG is a small JPEG made by the standard encoder.
func sampleJPEG() []byte {
	img := image.NewRGBA(image.Rect(0, 0, 20, 10))
	img.Set(3, 3, color.White)
	var b bytes.Buffer
	jpeg.Encode(&b, img, nil)
	return b.Bytes()
}

func TestDamagedImagesAreRefusedWithoutPanic(t *testing.T) {
	full := sampleJPEG()
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
	plain := sampleJPEG()
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

// samplePNG is a small PNG made by the standard encoder.
func samplePNG() []byte {
	img := image.NewNRGBA(image.Rect(0, 0, 5, 4))
	img.Set(2, 2, color.NRGBA{0, 128, 0, 255})
	var b bytes.Buffer
	png.Encode(&b, img)
	return b.Bytes()
}

func TestDamagedPNGAndWebPAreRefusedWithoutPanic(t *testing.T) {
	full := samplePNG()
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

// riffChunkOf is one RIFF chunk (header, data, padding).
func riffChunkOf(id string, data []byte) []byte { return appendRIFFChunk(nil, id, data) }

// An animated WebP keeps its frames but loses unknown chunks inside them,
// and every size around them is set to what is left.
func TestAnimatedWebPFramesLoseUnknownChunks(t *testing.T) {
	vp8l := []byte("\x2f\x00\x00\x00\x10\x07\x10\x11\x11\x88\x88\xfe\x07") // 1x1 lossless
	frame := append(make([]byte, 16), riffChunkOf("VP8L", vp8l)...)
	frame = append(frame, riffChunkOf("LOCA", []byte("-15.4167+028.2833"))...)
	body := append([]byte("WEBP"), riffChunkOf("VP8X", []byte{0x02 | 0x08 | 0x20, 0, 0, 0, 0, 0, 0, 0, 0, 0})...)
	body = append(body, riffChunkOf("ANIM", make([]byte, 6))...)
	body = append(body, riffChunkOf("ANMF", frame)...)
	file := append(append([]byte("RIFF"), binary.LittleEndian.AppendUint32(nil, uint32(len(body)))...), body...)

	out, err := StripWebPMetadata(file)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(out, []byte("-15.4167")) || bytes.Contains(out, []byte("LOCA")) {
		t.Fatalf("a frame kept its unknown chunk: %q", out)
	}
	want := append([]byte("WEBP"), riffChunkOf("VP8X", []byte{0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0})...)
	want = append(want, riffChunkOf("ANIM", make([]byte, 6))...)
	want = append(want, riffChunkOf("ANMF", append(make([]byte, 16), riffChunkOf("VP8L", vp8l)...))...)
	want = append(append([]byte("RIFF"), binary.LittleEndian.AppendUint32(nil, uint32(len(want)))...), want...)
	if !bytes.Equal(out, want) {
		t.Fatalf("stripped animation\n%q\nwant\n%q", out, want)
	}
	if cfg, err := webp.DecodeConfig(bytes.NewReader(out)); err != nil || cfg.Width != 1 {
		t.Fatalf("stripped animation: %+v, %v", cfg, err)
	}
}

// Tables that come between the scans of a progressive JPEG stay; a JPEG
// without its end, or with a second frame, is refused as damaged.
func TestJPEGKeepsTablesBetweenScansAndNeedsItsEnd(t *testing.T) {
	plain := sampleJPEG()
	dht := bytes.Index(plain, []byte{0xFF, 0xC4})
	n := int(binary.BigEndian.Uint16(plain[dht+2:]))
	// The Huffman tables again after the scan, as progressive JPEGs have them.
	twice := append(append(append([]byte(nil), plain[:len(plain)-2]...), plain[dht:dht+2+n]...), 0xFF, 0xD9)
	out, err := StripJPEGMetadata(twice)
	if err != nil || !bytes.Equal(out, twice) {
		t.Fatalf("tables after the scan were not kept: %v", err)
	}
	if _, err := jpeg.Decode(bytes.NewReader(out)); err != nil {
		t.Fatal(err)
	}
	if _, err := StripJPEGMetadata(plain[:len(plain)-2]); err != ErrBadImage {
		t.Errorf("a JPEG without its end: %v", err)
	}
	sof := bytes.Index(plain, []byte{0xFF, 0xC0})
	m := int(binary.BigEndian.Uint16(plain[sof+2:]))
	two := append(append(append([]byte(nil), plain[:sof]...), plain[sof:sof+2+m]...), plain[sof:]...)
	if _, err := StripJPEGMetadata(two); err != ErrBadImage {
		t.Errorf("a JPEG with two frames: %v", err)
	}
	// Restart markers and fill bytes in the entropy-coded data stay as they are.
	sos := bytes.Index(plain, []byte{0xFF, 0xDA})
	k := sos + 2 + int(binary.BigEndian.Uint16(plain[sos+2:]))
	if end := scanEnd(append(append([]byte(nil), plain[:k]...), 0x12, 0xFF, 0x00, 0xFF, 0xD3, 0x34, 0xFF, 0xFF, 0xD9), k); end != k+6 {
		t.Errorf("the scan ends at %d, want %d", end, k+6)
	}
}
