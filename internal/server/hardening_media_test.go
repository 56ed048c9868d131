package server

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/png"
	"net/http"
	"strings"
	"testing"

	"golang.org/x/image/webp"
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

// webpWithMetadata is testWebP (1x1 lossless) in the extended format with
// EXIF and XMP chunks that name a place.
func webpWithMetadata() []byte {
	vp8x := []byte{0x08 | 0x04, 0, 0, 0, 0, 0, 0, 0, 0, 0} // EXIF and XMP flags, 1x1 canvas
	body := append([]byte("WEBP"), riffChunk("VP8X", vp8x)...)
	body = append(body, testWebP[12:]...) // the VP8L chunk
	body = append(body, riffChunk("EXIF", []byte("Exif\x00\x00GPS Kabulonga -15.41 28.28"))...)
	body = append(body, riffChunk("XMP ", []byte(`<x:xmpmeta>photoshop:City="Kabulonga"</x:xmpmeta>`))...)
	return append(append([]byte("RIFF"), binary.LittleEndian.AppendUint32(nil, uint32(len(body)))...), body...)
}

// Photos lose what can say where and by whom they were taken, whatever
// their format, and still show the same picture.
func TestUploadedPNGAndWebPLoseTheirMetadata(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		u := newUser(t, env, "meta-photo@example.com")
		plain := testPNG(t)
		tagged := withPNGChunks(plain,
			pngChunk("tEXt", []byte("Location\x00Kabulonga -15.41 28.28")),
			pngChunk("iTXt", []byte("Author\x00\x00\x00\x00\x00Mwila Banda")),
			pngChunk("zTXt", []byte("Comment\x00\x00x\x9c\x03\x00\x00\x00\x00\x01")),
			pngChunk("eXIf", []byte("MM\x00*\x00\x00\x00\x08GPS Kabulonga")))
		if _, err := png.Decode(bytes.NewReader(tagged)); err != nil {
			t.Fatalf("test PNG does not decode: %v", err)
		}
		for name, c := range map[string]struct {
			file   []byte
			decode func([]byte) (image.Image, error)
			want   []byte // what must come back
		}{
			"png":  {tagged, func(b []byte) (image.Image, error) { return png.Decode(bytes.NewReader(b)) }, plain},
			"webp": {webpWithMetadata(), func(b []byte) (image.Image, error) { return webp.Decode(bytes.NewReader(b)) }, nil},
		} {
			path := u.ID + "/photos/tagged." + name
			url := env.mustUpload(t, u, path, c.file)
			res, got := env.get(t, url[len(env.URL):], nil)
			wantStatus(t, res, http.StatusOK)
			for _, secret := range []string{"Kabulonga", "Mwila", "tEXt", "iTXt", "zTXt", "eXIf", "EXIF", "XMP "} {
				if bytes.Contains(got, []byte(secret)) {
					t.Errorf("%s: the stored file still holds %q", name, secret)
				}
			}
			if c.want != nil && !bytes.Equal(got, c.want) {
				t.Errorf("%s: stored %d bytes, want the image without its metadata (%d bytes)", name, len(got), len(c.want))
			}
			if _, err := c.decode(got); err != nil {
				t.Errorf("%s: the stored image does not decode: %v", name, err)
			}
			if name == "webp" && (got[20]&0x0c != 0 || int(binary.LittleEndian.Uint32(got[4:8])) != len(got)-8) {
				t.Errorf("webp: flags %#x, RIFF size %d for %d bytes", got[20], binary.LittleEndian.Uint32(got[4:8]), len(got))
			}
		}
	})
}

// An image whose pixels would need hundreds of megabytes in a browser is
// refused before it is stored, with a message that says what fits.
func TestUploadRefusesImagesOver40Megapixels(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		u := newUser(t, env, "huge@example.com")
		// 8000 x 6000 = 48 megapixels, each side within the 12000 limit;
		// only the header matters, so the file itself is small.
		ihdr := binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint32(nil, 8000), 6000)
		ihdr = append(ihdr, 8, 2, 0, 0, 0)
		huge := append([]byte("\x89PNG\r\n\x1a\n"), pngChunk("IHDR", ihdr)...)
		huge = append(huge, pngChunk("IDAT", []byte{0x78, 0x9c, 0x03, 0, 0, 0, 0, 1})...)
		huge = append(huge, pngChunk("IEND", nil)...)
		path := u.ID + "/photos/huge.png"
		res := env.upload(t, u, path, huge, false)
		m := decode(t, res)
		if res.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(m["message"].(string), "at most 40 megapixels") {
			t.Fatalf("48 MP image: %d %v", res.StatusCode, m)
		}
		res, _ = env.get(t, "/storage/v1/object/public/user-media/"+path, nil)
		wantStatus(t, res, http.StatusNotFound)
		if objs, _ := env.DB.MediaObjectsOf(t.Context(), u.ID); len(objs) != 0 {
			t.Fatalf("a refused image was recorded: %+v", objs)
		}
	})
}
