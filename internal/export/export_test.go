package export

import "testing"

// A cell a spreadsheet would run as a formula gets a leading quote, also
// when blanks of any kind come before the formula's first character.
func TestSafeCellDisarmsFormulas(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"=SUM(A1:A9)", "'=SUM(A1:A9)"},
		{"+260 977 123456", "'+260 977 123456"},
		{"-1+1", "'-1+1"},
		{"@cmd", "'@cmd"},
		{"\t=1", "'\t=1"},
		{"\r=1", "'\r=1"},
		{"\tplain", "'\tplain"}, // a leading tab or carriage return, whatever follows
		{"\rplain", "'\rplain"},
		// Blanks before the formula.
		{" =1+1", "' =1+1"},
		{"   +1", "'   +1"},
		{"\u00a0=HYPERLINK(\"http://evil.example\")", "'\u00a0=HYPERLINK(\"http://evil.example\")"}, // no-break space
		{"\n=1", "'\n=1"},
		{"\r\n-1", "'\r\n-1"},
		{" \t @SUM(1)", "' \t @SUM(1)"},
		{"\u2003=1", "'\u2003=1"}, // em space
		{"\u3000=1", "'\u3000=1"}, // ideographic space
		{"\u202f+1", "'\u202f+1"}, // narrow no-break space
		{"\u2028=1", "'\u2028=1"}, // line separator
		{"\u0085=1", "'\u0085=1"}, // next line
		{"\u200b=1", "'\u200b=1"}, // zero-width space
		{"\ufeff=1", "'\ufeff=1"}, // byte-order mark
		{"\x00=1", "'\x00=1"},
		{"\v=1", "'\v=1"},
		// Left alone.
		{"", ""},
		{" ", " "},
		{"\u00a0", "\u00a0"},
		{"Chanda", "Chanda"},
		{" Chanda", " Chanda"},
		{"\u00a0Lusaka", "\u00a0Lusaka"},
		{"mwila@example.co", "mwila@example.co"},
		{"a=b", "a=b"},
		{" a=b", " a=b"},
		{"'=1", "'=1"},
	} {
		if got := SafeCell(tc.in); got != tc.want {
			t.Errorf("SafeCell(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
