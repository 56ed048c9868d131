package mediatest

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"math/rand/v2"
	"testing"
)

// PhonePhoto is a JPEG like a phone photo as the web app uploads it: 1200
// by 1600 pixels of smooth light, a figure in patterned cloth, and sensor
// noise, at quality 82 (about 500 KB). The same every time.
func PhonePhoto(t testing.TB) []byte {
	t.Helper()
	const w, h = 1200, 1600
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	rng := rand.New(rand.NewPCG(1, 2))
	// Cloth: a random shade for each 12-pixel cell.
	cells := make([]int, (w/12+1)*(h/12+1))
	for i := range cells {
		cells[i] = rng.IntN(90) - 45
	}
	for y := range h {
		for x := range w {
			// Sky above, warm ground below, and a figure in patterned cloth.
			r, g, b := 90+100*y/h, 140+60*x/w, 230-150*y/h
			if dx, dy := x-600, y-900; dx*dx+dy*dy < 420*420 {
				c := cells[(y/12)*(w/12+1)+x/12]
				r, g, b = 150+c, 60+c/2+(x+y)%24, 70-c/3
			}
			n := int(rng.NormFloat64() * 8)
			img.Set(x, y, color.RGBA{clamp(r + n), clamp(g + n), clamp(b + n), 255})
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 82}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func clamp(v int) uint8 { return uint8(max(0, min(255, v))) }
