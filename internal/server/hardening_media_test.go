package server

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image"
	"image/png"
	"net/http"
	"strings"
	"testing"

	_ "golang.org/x/image/webp" // image.Decode reads WebP

	"salaula/internal/media"
)

// pngChunk is one PNG chunk with its length and CRC.
func pngChunk(typ string, data []byte) []byte {
	out := binary.BigEndian.AppendUint32(nil, uint32(len(data)))
	out = append(append(out, typ...), data...)
	return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(append([]byte(typ), data...)))
}

// withPNGChunks puts chunks right after a PNG's IHDR.
func withPNGChunks(img []byte, chunks ...[]byte) []byte {
	const afterIHDR = 8 + 25
	out := append([]byte(nil), img[:afterIHDR]...)
	for _, c := range chunks {
		out = append(out, c...)
	}
	return append(out, img[afterIHDR:]...)
}

// riffChunk is one WebP (RIFF) chunk, padded to an even length.
func riffChunk(typ string, data []byte) []byte {
	out := append([]byte(typ), binary.LittleEndian.AppendUint32(nil, uint32(len(data)))...)
	out = append(out, data...)
	if len(data)%2 == 1 {
		out = append(out, 0)
	}
	return out
}

// An image declaring more pixels than the app ever sends is refused before
// it is stored, in any format, however small the file: a browser showing
// it would set aside 4 bytes for every declared pixel.
func TestUploadRefusesImagesLargerThanTheAppSends(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		u := newUser(t, env, "huge@example.com")
		pngOf := func(w, h uint32) []byte {
			ihdr := binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint32(nil, w), h)
			out := append([]byte("\x89PNG\r\n\x1a\n"), pngChunk("IHDR", append(ihdr, 8, 2, 0, 0, 0))...)
			out = append(out, pngChunk("IDAT", []byte{0x78, 0x9c, 0x03, 0, 0, 0, 0, 1})...)
			return append(out, pngChunk("IEND", nil)...)
		}
		wideJPEG := testJPEG(t, 16, 8)
		sof := bytes.Index(wideJPEG, []byte{0xFF, 0xC0})
		binary.BigEndian.PutUint16(wideJPEG[sof+7:], media.MaxImageSide+1) // the frame's width
		webpOf := func(chunks ...[]byte) []byte {
			body := []byte("WEBP")
			for _, c := range chunks {
				body = append(body, c...)
			}
			return append(append([]byte("RIFF"), binary.LittleEndian.AppendUint32(nil, uint32(len(body)))...), body...)
		}
		// A lossless header: 14 bits of width - 1, then of height - 1; a
		// canvas: 24 bits of each.
		side := media.MaxImageSide
		wideVP8L := riffChunk("VP8L", []byte{0x2f, byte(side), byte(side >> 8), 0, 0})
		tallCanvas := []byte{0, 0, 0, 0, 0, 0, 0, byte(side), byte(side >> 8), 0}
		for name, file := range map[string][]byte{
			"png of 36 megapixels":    pngOf(6000, 6000),
			"png one pixel too wide":  pngOf(media.MaxImageSide+1, 1),
			"jpeg one pixel too wide": wideJPEG,
			"webp lossless too wide":  webpOf(wideVP8L),
			"webp canvas too tall":    webpOf(riffChunk("VP8X", tallCanvas), testWebP[12:]),
		} {
			path := u.ID + "/photos/huge-" + strings.ReplaceAll(name, " ", "-")
			res := env.upload(t, u, path, file, false)
			m := decode(t, res)
			if res.StatusCode != http.StatusRequestEntityTooLarge || m["error"] != "Payload too large" ||
				m["message"] != "The image is too large: at most 1600 pixels wide or high. Please choose a smaller photo or shrink it first" {
				t.Errorf("%s (%d bytes): %d %v", name, len(file), res.StatusCode, m)
			}
			res, _ = env.get(t, "/storage/v1/object/public/user-media/"+path, nil)
			wantStatus(t, res, http.StatusNotFound)
		}
		if objs, _ := env.DB.MediaObjectsOf(t.Context(), u.ID); len(objs) != 0 {
			t.Fatalf("a refused image was recorded: %+v", objs)
		}
		// What the app sends at most is stored.
		var edge bytes.Buffer
		png.Encode(&edge, image.NewGray(image.Rect(0, 0, media.MaxImageSide, 2)))
		env.mustUpload(t, u, u.ID+"/photos/edge.png", edge.Bytes())
	})
}

// gpsMarker is the secret every file of the metadata corpus hides: a
// position in Lusaka, as EXIF, XMP or a video would give it.
const gpsMarker = "-15.416700+028.283300"

// jpegSegment is one JPEG marker segment with its length.
func jpegSegment(marker byte, payload []byte) []byte {
	return append([]byte{0xFF, marker, byte((len(payload) + 2) >> 8), byte(len(payload) + 2)}, payload...)
}

// jpegWith puts segments right after a JPEG's start of image.
func jpegWith(plain []byte, segments ...[]byte) []byte {
	out := []byte{0xFF, 0xD8}
	for _, s := range segments {
		out = append(out, s...)
	}
	return append(out, plain[2:]...)
}

// exifWithGPS is an APP1 EXIF payload whose TIFF block holds the marker.
func exifWithGPS() []byte {
	return append([]byte("Exif\x00\x00MM\x00*\x00\x00\x00\x08\x00\x00\x00\x00\x00\x00GPS "), gpsMarker...)
}

// zlibStored compresses nothing, so the marker stays readable in the file
// and the test can check that it was there before.
func zlibStored(t *testing.T, p []byte) []byte {
	var b bytes.Buffer
	zw, err := zlib.NewWriterLevel(&b, zlib.NoCompression)
	if err != nil {
		t.Fatal(err)
	}
	zw.Write(p)
	zw.Close()
	return b.Bytes()
}

// webpExtended is testWebP (1x1 lossless) in the extended format with
// flags, with the given chunks before and after its image data.
func webpExtended(flags byte, before, after [][]byte) []byte {
	body := append([]byte("WEBP"), riffChunk("VP8X", []byte{flags, 0, 0, 0, 0, 0, 0, 0, 0, 0})...)
	for _, c := range before {
		body = append(body, c...)
	}
	body = append(body, testWebP[12:]...) // the VP8L chunk
	for _, c := range after {
		body = append(body, c...)
	}
	return append(append([]byte("RIFF"), binary.LittleEndian.AppendUint32(nil, uint32(len(body)))...), body...)
}

// metadataCorpus is one image for every place a photo can carry where it
// was taken: the metadata segments and chunks of JPEG, PNG and WebP, and
// what phones append after a JPEG's end (a second picture, a video).
func metadataCorpus(t *testing.T) map[string][]byte {
	jpg := testJPEG(t, 40, 30)
	pngImg := testPNG(t)
	marker := []byte(gpsMarker)
	text := func(prefix string) []byte { return append([]byte(prefix), marker...) }
	xmp := text(`http://ns.adobe.com/xap/1.0/` + "\x00" + `<x:xmpmeta><exif:GPSLatitude>`)
	jfif := []byte("JFIF\x00\x01\x01\x00\x00\x01\x00\x01")
	beforeEOI := func(extra []byte) []byte {
		return append(append(append([]byte(nil), jpg[:len(jpg)-2]...), extra...), 0xFF, 0xD9)
	}
	return map[string][]byte{
		"jpeg APP1 EXIF":           jpegWith(jpg, jpegSegment(0xE1, exifWithGPS())),
		"jpeg APP1 XMP":            jpegWith(jpg, jpegSegment(0xE1, xmp)),
		"jpeg APP13 IPTC":          jpegWith(jpg, jpegSegment(0xED, text("Photoshop 3.0\x008BIM\x04\x04\x00\x00\x00\x00\x00\x20\x1c\x02\x5a\x00\x06"))),
		"jpeg comment":             jpegWith(jpg, jpegSegment(0xFE, text("taken at "))),
		"jpeg APP2 ICC profile":    jpegWith(jpg, jpegSegment(0xE2, text("ICC_PROFILE\x00\x01\x01\x00\x00\x02\x00appl\x02\x10\x00\x00mntrRGB XYZ desc"))),
		"jpeg APP2 MPF":            jpegWith(jpg, jpegSegment(0xE2, text("MPF\x00MM\x00*\x00\x00\x00\x08"))),
		"jpeg APP4":                jpegWith(jpg, jpegSegment(0xE4, text("QVCI\x00"))),
		"jpeg APP11 C2PA JUMBF":    jpegWith(jpg, jpegSegment(0xEB, text("JP\x00\x01\x00\x00\x00\x01\x00\x00\x00\x40jumb\x00\x00\x00\x20jumdc2pa\x00\x11\x00\x10stds.exif"))),
		"jpeg JFIF thumbnail":      jpegWith(jpg, jpegSegment(0xE0, append(append(jfif[:12:12], 7, 1), text("")...))),
		"jpeg JFXX thumbnail":      jpegWith(jpg, jpegSegment(0xE0, jfif), jpegSegment(0xE0, text("JFXX\x00\x10"))),
		"jpeg Adobe with a tail":   jpegWith(jpg, jpegSegment(0xEE, text("Adobe\x00\x64\x00\x00\x00\x00\x01"))),
		"jpeg EXIF after the scan": beforeEOI(jpegSegment(0xE1, exifWithGPS())),
		"jpeg second picture after the end": append(append([]byte(nil), jpg...),
			jpegWith(jpg, jpegSegment(0xE1, exifWithGPS()))...),
		"jpeg motion photo video after the end": append(append([]byte(nil), jpg...),
			text("\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom\x00\x00\x00\x1c\xa9xyz")...),
		"png tEXt":                   withPNGChunks(pngImg, pngChunk("tEXt", text("GPS\x00"))),
		"png iTXt":                   withPNGChunks(pngImg, pngChunk("iTXt", text("XML:com.adobe.xmp\x00\x00\x00\x00\x00"))),
		"png zTXt":                   withPNGChunks(pngImg, pngChunk("zTXt", append([]byte("GPS\x00\x00"), zlibStored(t, marker)...))),
		"png eXIf":                   withPNGChunks(pngImg, pngChunk("eXIf", exifWithGPS()[6:])),
		"png iCCP":                   withPNGChunks(pngImg, pngChunk("iCCP", append(append(text(""), 0, 0), zlibStored(t, []byte("profile"))...))),
		"png private chunk":          withPNGChunks(pngImg, pngChunk("loCa", marker)),
		"png chunk after the end":    append(append([]byte(nil), pngImg...), pngChunk("tEXt", text("GPS\x00"))...),
		"webp EXIF":                  webpExtended(0x08, nil, [][]byte{riffChunk("EXIF", exifWithGPS()[6:])}),
		"webp XMP":                   webpExtended(0x04, nil, [][]byte{riffChunk("XMP ", xmp[29:])}),
		"webp ICCP":                  webpExtended(0x20, [][]byte{riffChunk("ICCP", text("\x00\x00\x02\x00appl desc"))}, nil),
		"webp unknown chunk":         webpExtended(0, [][]byte{riffChunk("LOCA", marker)}, [][]byte{riffChunk("GPSx", marker)}),
		"webp unknown chunk, simple": append(append([]byte(nil), testWebP...), riffChunk("LOCA", marker)...),
	}
}

// Photos keep only what showing them needs: nothing that can say where they
// were taken survives an upload, wherever the file carries it, and the
// stored file is still the same picture.
func TestUploadedImagesKeepNoMetadata(t *testing.T) {
	corpus := metadataCorpus(t)
	for name, file := range corpus {
		if !bytes.Contains(file, []byte(gpsMarker)) {
			t.Fatalf("%s: the test file does not hold the marker", name)
		}
		if _, _, err := image.Decode(bytes.NewReader(file)); err != nil {
			t.Fatalf("%s: the test file does not decode: %v", name, err)
		}
	}
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		u := newUser(t, env, "meta-photo@example.com")
		n := 0
		for name, file := range corpus {
			n++
			path := fmt.Sprintf("%s/photos/%d-tagged", u.ID, n)
			url := env.mustUpload(t, u, path, file)
			res, got := env.get(t, url[len(env.URL):], nil)
			wantStatus(t, res, http.StatusOK)
			if bytes.Contains(got, []byte(gpsMarker)) {
				t.Errorf("%s: the stored file still holds the position", name)
			}
			want, _, _ := image.Decode(bytes.NewReader(file))
			img, format, err := image.Decode(bytes.NewReader(got))
			if err != nil {
				t.Errorf("%s: the stored file does not decode: %v", name, err)
				continue
			}
			if img.Bounds() != want.Bounds() || !samePixels(img, want) {
				t.Errorf("%s: stored a %v %s, not the same picture as the uploaded %v", name, img.Bounds(), format, want.Bounds())
			}
			if format == "webp" && int(binary.LittleEndian.Uint32(got[4:8])) != len(got)-8 {
				t.Errorf("%s: RIFF size %d for %d bytes", name, binary.LittleEndian.Uint32(got[4:8]), len(got))
			}
			if format == "webp" && string(got[12:16]) == "VP8X" && got[20]&^0x12 != 0 {
				t.Errorf("%s: VP8X flags %#x name chunks that are gone", name, got[20])
			}
		}
	})
}

// samePixels reports whether a and b (of equal bounds) hold the same colours.
func samePixels(a, b image.Image) bool {
	r := a.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if a.At(x, y) != b.At(x, y) {
				return false
			}
		}
	}
	return true
}
