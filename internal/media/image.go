package media

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"

	"golang.org/x/image/webp"

	"salaula/internal/apierr"
)

// Image content types the store accepts.
const (
	TypeJPEG = "image/jpeg"
	TypePNG  = "image/png"
	TypeWebP = "image/webp"
)

// MaxImageSide is the largest width or height accepted, in pixels: what the
// web app sends (it shrinks every photo to at most 1600 px on its longest
// side before uploading, SHRINK_MAX_SIDE_PX in web/src/lib/images.ts). A
// browser showing an image allocates 4 bytes a pixel for what the header
// declares, however small the file, so this also caps that at 10 MB.
const MaxImageSide = 1600

// Errors of SniffImage.
var (
	ErrNotImage    = apierr.Coded(apierr.UnsupportedType, CodeInvalidMime, "Only JPEG, PNG and WebP images can be uploaded")
	ErrHEIC        = apierr.Coded(apierr.UnsupportedType, CodeInvalidMime, "HEIC/HEIF photos are not supported: please choose a JPEG, PNG or WebP image (most phones can share a photo as JPEG)")
	ErrBadImage    = apierr.Coded(apierr.UnsupportedType, CodeInvalidMime, "The image file is damaged or incomplete")
	ErrImageTooBig = apierr.Coded(apierr.TooLarge, CodeTooLarge, fmt.Sprintf("The image is too large: at most %d pixels wide or high. Please choose a smaller photo or shrink it first", MaxImageSide))
)

// SniffImage returns the content type of an image by its content (never its
// name or declared type) after checking that its header decodes and that
// neither of its declared sides is over MaxImageSide.
func SniffImage(b []byte) (string, error) {
	var ct string
	var decode func(*bytes.Reader) (image.Config, error)
	switch {
	case bytes.HasPrefix(b, []byte{0xFF, 0xD8, 0xFF}):
		ct, decode = TypeJPEG, func(r *bytes.Reader) (image.Config, error) { return jpeg.DecodeConfig(r) }
	case bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")):
		ct, decode = TypePNG, func(r *bytes.Reader) (image.Config, error) { return png.DecodeConfig(r) }
	case len(b) >= 12 && string(b[:4]) == "RIFF" && string(b[8:12]) == "WEBP":
		ct, decode = TypeWebP, func(r *bytes.Reader) (image.Config, error) { return webp.DecodeConfig(r) }
	case isHEIF(b):
		return "", ErrHEIC
	default:
		return "", ErrNotImage
	}
	cfg, err := decode(bytes.NewReader(b))
	if err != nil || cfg.Width <= 0 || cfg.Height <= 0 {
		return "", ErrBadImage
	}
	if cfg.Width > MaxImageSide || cfg.Height > MaxImageSide {
		return "", ErrImageTooBig
	}
	return ct, nil
}

// isHEIF reports whether b is an ISO media file of a HEIC/HEIF/AVIF brand.
func isHEIF(b []byte) bool {
	if len(b) < 12 || string(b[4:8]) != "ftyp" {
		return false
	}
	switch string(b[8:12]) {
	case "heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1", "avif":
		return true
	}
	return false
}

// StripJPEGMetadata returns a JPEG holding only what decoding it needs, so
// nothing that can say where, when or by whom it was taken is stored. It
// keeps, in order, the start of image; the JFIF header (rewritten without
// its thumbnail) and the Adobe header (rewritten to its 12 bytes: it says
// how to convert the colours); quantisation and Huffman tables, the frame
// header (one), restart intervals and every scan with its entropy-coded
// data and restart markers; and the end of image, after which nothing is
// kept (a phone's second picture, a motion photo's video). Every other
// segment goes: EXIF, XMP, ICC profiles, MPF, IPTC, C2PA and every other
// APPn, comments, and segments an unsupported decoder would need (the
// upload's header check only lets baseline and progressive JPEGs through).
// When the EXIF block held an orientation, a minimal EXIF block with only
// that orientation is put back, so the photo still displays upright.
// A JPEG without an end of image is refused as incomplete.
func StripJPEGMetadata(b []byte) ([]byte, error) {
	if len(b) < 4 || b[0] != 0xFF || b[1] != 0xD8 {
		return nil, ErrBadImage
	}
	out := make([]byte, 0, len(b))
	out = append(out, 0xFF, 0xD8)
	orientation := 0
	var seenFrame, seenScan, seenAdobe bool
	for i := 2; ; {
		// Fill bytes (0xFF) may come before a marker.
		for i+1 < len(b) && b[i] == 0xFF && b[i+1] == 0xFF {
			i++
		}
		if i+2 > len(b) || b[i] != 0xFF {
			return nil, ErrBadImage
		}
		marker := b[i+1]
		if marker == 0xD9 { // end of image
			if !seenScan {
				return nil, ErrBadImage
			}
			out = append(out, 0xFF, 0xD9)
			if orientation > 0 {
				out = insertAfterJFIF(out, orientationSegment(orientation))
			}
			return out, nil
		}
		if i+4 > len(b) || marker == 0x00 || marker == 0x01 || marker == 0xD8 || (marker >= 0xD0 && marker <= 0xD7) {
			return nil, ErrBadImage
		}
		n := int(binary.BigEndian.Uint16(b[i+2 : i+4]))
		if n < 2 || i+2+n > len(b) {
			return nil, ErrBadImage
		}
		seg, payload := b[i:i+2+n], b[i+4:i+2+n]
		i += 2 + n
		switch marker {
		case 0xDB, 0xC4, 0xDD: // quantisation tables, Huffman tables, restart interval
			out = append(out, seg...)
		case 0xC0, 0xC1, 0xC2: // frame header: baseline, extended, progressive
			if seenFrame {
				return nil, ErrBadImage
			}
			seenFrame = true
			out = append(out, seg...)
		case 0xDA: // a scan: its header, then entropy-coded data up to the next marker
			end := scanEnd(b, i)
			if !seenFrame || end < 0 {
				return nil, ErrBadImage
			}
			seenScan = true
			out = append(append(out, seg...), b[i:end]...)
			i = end
		case 0xE0: // JFIF, only where it belongs: right after the start of image
			if len(out) == 2 && len(payload) >= 14 && string(payload[:5]) == "JFIF\x00" {
				out = append(out, 0xFF, 0xE0, 0, 16)
				out = append(out, payload[:12]...) // identifier, version, units, densities
				out = append(out, 0, 0)            // no thumbnail
			}
		case 0xEE: // Adobe: the colour transform of RGB and CMYK JPEGs
			if !seenAdobe && len(payload) >= 12 && string(payload[:5]) == "Adobe" {
				seenAdobe = true
				out = append(out, 0xFF, 0xEE, 0, 14)
				out = append(out, payload[:12]...)
			}
		case 0xE1:
			if o := exifOrientation(payload); o > 0 && orientation == 0 && !seenScan {
				orientation = o
			}
		}
	}
}

// scanEnd returns where the entropy-coded data that starts at i ends: the
// first marker other than a stuffed 0xFF00 or a restart marker, or -1 when
// the data runs to the end of b.
func scanEnd(b []byte, i int) int {
	for ; i+1 < len(b); i++ {
		if b[i] != 0xFF {
			continue
		}
		next := b[i+1]
		if next != 0x00 && (next < 0xD0 || next > 0xD7) {
			return i
		}
		i++
	}
	return -1
}

// exifOrientation reads the Orientation tag (0x0112) of IFD0 of an APP1
// EXIF payload ("Exif\0\0" + TIFF), or 0.
func exifOrientation(p []byte) int {
	if len(p) < 14 || string(p[:6]) != "Exif\x00\x00" {
		return 0
	}
	t := p[6:]
	var bo binary.ByteOrder
	switch string(t[:2]) {
	case "II":
		bo = binary.LittleEndian
	case "MM":
		bo = binary.BigEndian
	default:
		return 0
	}
	off := int(bo.Uint32(t[4:8]))
	if off < 8 || off+2 > len(t) {
		return 0
	}
	count := int(bo.Uint16(t[off : off+2]))
	for k := 0; k < count; k++ {
		e := off + 2 + 12*k
		if e+12 > len(t) {
			return 0
		}
		if bo.Uint16(t[e:e+2]) == 0x0112 && bo.Uint16(t[e+2:e+4]) == 3 {
			if v := int(bo.Uint16(t[e+8 : e+10])); v >= 1 && v <= 8 {
				return v
			}
		}
	}
	return 0
}

// orientationSegment is an APP1 EXIF segment holding only an orientation.
func orientationSegment(o int) []byte {
	tiff := []byte{'M', 'M', 0, 42, 0, 0, 0, 8, // big-endian header, IFD0 at 8
		0, 1, // one entry
		0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, byte(o), 0, 0, // Orientation, SHORT, 1 value
		0, 0, 0, 0} // no next IFD
	payload := append([]byte("Exif\x00\x00"), tiff...)
	seg := []byte{0xFF, 0xE1, 0, 0}
	binary.BigEndian.PutUint16(seg[2:], uint16(len(payload)+2))
	return append(seg, payload...)
}

// insertAfterJFIF puts seg after the SOI and JFIF (APP0) segment of the
// start of a JPEG, where readers look for EXIF.
func insertAfterJFIF(head, seg []byte) []byte {
	at := 2
	if len(head) >= 6 && head[2] == 0xFF && head[3] == 0xE0 {
		at += 2 + int(binary.BigEndian.Uint16(head[4:6]))
	}
	out := make([]byte, 0, len(head)+len(seg))
	out = append(append(append(out, head[:at]...), seg...), head[at:]...)
	return out
}

// JPEGOrientation returns the EXIF orientation (1 to 8) of a JPEG, or 0
// when it has none.
func JPEGOrientation(b []byte) int {
	for i := 2; i+4 <= len(b) && b[i] == 0xFF && b[i+1] != 0xDA; {
		n := int(binary.BigEndian.Uint16(b[i+2 : i+4]))
		if n < 2 || i+2+n > len(b) {
			return 0
		}
		if b[i+1] == 0xE1 {
			if o := exifOrientation(b[i+4 : i+2+n]); o > 0 {
				return o
			}
		}
		i += 2 + n
	}
	return 0
}

// StripMetadata returns the image b of content type ct (as SniffImage
// found it) without the metadata that can carry where and by whom it was
// taken: see StripJPEGMetadata, StripPNGMetadata and StripWebPMetadata.
func StripMetadata(ct string, b []byte) ([]byte, error) {
	switch ct {
	case TypeJPEG:
		return StripJPEGMetadata(b)
	case TypePNG:
		return StripPNGMetadata(b)
	case TypeWebP:
		return StripWebPMetadata(b)
	}
	return nil, ErrNotImage
}

// pngSignature starts every PNG file.
const pngSignature = "\x89PNG\r\n\x1a\n"

// pngKeptChunks are the PNG chunks StripPNGMetadata keeps, with their one
// allowed length where the format fixes it (-1: any): the critical chunks,
// transparency, and the colour space chunks made of numbers only (gamma,
// chromaticities, the sRGB rendering intent). Everything else goes: text
// (tEXt, iTXt, zTXt), EXIF (eXIf), the time (tIME), ICC profiles (iCCP,
// whose name is free text), animation (the still image stays) and private
// chunks.
var pngKeptChunks = map[string]int{"IHDR": 13, "PLTE": -1, "IDAT": -1, "IEND": 0, "tRNS": -1, "gAMA": 4, "cHRM": 32, "sRGB": 1}

// StripPNGMetadata returns a PNG holding only the chunks of pngKeptChunks,
// each copied byte for byte (so the pixels are unchanged), and nothing
// after IEND.
func StripPNGMetadata(b []byte) ([]byte, error) {
	if !bytes.HasPrefix(b, []byte(pngSignature)) {
		return nil, ErrBadImage
	}
	out := make([]byte, 0, len(b))
	out = append(out, pngSignature...)
	for i := len(pngSignature); ; {
		if i+12 > len(b) {
			return nil, ErrBadImage // no IEND
		}
		n := binary.BigEndian.Uint32(b[i : i+4])
		if n > uint32(len(b)-i-12) {
			return nil, ErrBadImage
		}
		end := i + 12 + int(n)
		typ := string(b[i+4 : i+8])
		if size, ok := pngKeptChunks[typ]; ok && (size < 0 || uint32(size) == n) {
			out = append(out, b[i:end]...)
		}
		if typ == "IEND" {
			return out, nil
		}
		i = end
	}
}

// WebP VP8X flags StripWebPMetadata keeps: every other one (ICC profile,
// EXIF, XMP, reserved bits) names a chunk it removes or nothing.
const (
	webpFlagAlpha     = 0x10
	webpFlagAnimation = 0x02
)

// StripWebPMetadata returns a WebP holding only what decoding it needs:
// the extended header VP8X (with only its alpha and animation flags and its
// canvas size), the image data (VP8, VP8L, ALPH) and the animation (ANIM,
// and ANMF frames holding only their own image data). It drops EXIF, XMP,
// ICC profiles (ICCP) and every unknown chunk, at the top and inside
// frames, and anything after the RIFF container, and sets the RIFF size to
// what is left. Image data is copied byte for byte.
func StripWebPMetadata(b []byte) ([]byte, error) {
	if len(b) < 12 || string(b[:4]) != "RIFF" || string(b[8:12]) != "WEBP" {
		return nil, ErrBadImage
	}
	size := int(binary.LittleEndian.Uint32(b[4:8]))
	if size < 4 || size > len(b)-8 {
		return nil, ErrBadImage
	}
	chunks, err := riffChunks(b[12 : 8+size])
	if err != nil {
		return nil, err
	}
	out := make([]byte, 12, 8+size)
	copy(out, b[:12])
	for _, c := range chunks {
		switch c.id {
		case "VP8X":
			if len(c.data) != 10 {
				return nil, ErrBadImage
			}
			head := make([]byte, 10)
			head[0] = c.data[0] & (webpFlagAlpha | webpFlagAnimation)
			copy(head[4:], c.data[4:]) // canvas width and height
			out = appendRIFFChunk(out, c.id, head)
		case "VP8 ", "VP8L", "ALPH", "ANIM":
			out = appendRIFFChunk(out, c.id, c.data)
		case "ANMF": // position, size, duration and flags, then the frame's chunks
			if len(c.data) < 16 {
				return nil, ErrBadImage
			}
			inner, err := riffChunks(c.data[16:])
			if err != nil {
				return nil, err
			}
			frame := append(make([]byte, 0, len(c.data)), c.data[:16]...)
			for _, f := range inner {
				if f.id == "VP8 " || f.id == "VP8L" || f.id == "ALPH" {
					frame = appendRIFFChunk(frame, f.id, f.data)
				}
			}
			out = appendRIFFChunk(out, c.id, frame)
		}
	}
	binary.LittleEndian.PutUint32(out[4:8], uint32(len(out)-8))
	return out, nil
}

// riffChunk is one chunk of a RIFF container: its FourCC and its data
// (without the padding byte).
type riffChunk struct {
	id   string
	data []byte
}

// riffChunks splits b into RIFF chunks; the last one may lack its padding
// byte.
func riffChunks(b []byte) ([]riffChunk, error) {
	var chunks []riffChunk
	for i := 0; i < len(b); {
		if i+8 > len(b) {
			return nil, ErrBadImage
		}
		n := binary.LittleEndian.Uint32(b[i+4 : i+8])
		if n > uint32(len(b)-i-8) {
			return nil, ErrBadImage
		}
		chunks = append(chunks, riffChunk{string(b[i : i+4]), b[i+8 : i+8+int(n)]})
		i = min(i+8+int(n)+int(n%2), len(b)) // chunks are padded to an even length
	}
	return chunks, nil
}

// appendRIFFChunk appends a RIFF chunk (header, data, padding) to out.
func appendRIFFChunk(out []byte, id string, data []byte) []byte {
	out = append(out, id...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(data)))
	out = append(out, data...)
	if len(data)%2 == 1 {
		out = append(out, 0)
	}
	return out
}
