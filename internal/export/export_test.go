package export

import "testing"

func TestSafeCellDisarmsFormulas(t *testing.T) {
	for in, want := range map[string]string{
		"=SUM(A1:A9)":      "'=SUM(A1:A9)",
		"+260 977 123456":  "'+260 977 123456",
		"-1+1":             "'-1+1",
		"@cmd":             "'@cmd",
		"\t=1":             "'\t=1",
		"\r=1":             "'\r=1",
		"":                 "",
		"Chanda":           "Chanda",
		"mwila@example.co": "mwila@example.co",
		"a=b":              "a=b",
	} {
		if got := SafeCell(in); got != want {
			t.Errorf("SafeCell(%q) = %q, want %q", in, got, want)
		}
	}
}
