package validate

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestTextRefusesControlCharactersAndBytesThatAreNotUTF8(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		s         string
		multiline bool
		want      string // the start of the message, "" for fine
	}{
		{"Chanda Mwale", false, ""},
		{"Ñoño 🌍 Kabwata", false, ""},
		{" \tChanda\n", false, ""}, // surrounding spaces are the trimming rules'
		{"a\x00b", false, "Only printable text can go here: letters, digits, signs and spaces, not the control character U+0000"},
		{"a\x00b", true, "Only printable text can go here: letters, digits, signs and spaces, not the control character U+0000"},
		{"a\x01", false, "Only printable text can go here: letters, digits, signs and spaces, not the control character U+0001"},
		{"a\x7f", false, "Only printable text can go here: letters, digits, signs and spaces, not the control character U+007F"},
		{"a\u0085b", false, "Only printable text can go here: letters, digits, signs and spaces, not the control character U+0085"},
		{"a\xffb", false, "Only printable text can go here: these bytes are not UTF-8 text"},
		{"a\nb", false, "Only printable text can go here: letters, digits, signs and spaces, not the control character U+000A"},
		{"a\tb", false, "Only printable text can go here: letters, digits, signs and spaces, not the control character U+0009"},
		{"Hello,\n\tthere\r\n", true, ""},
		{"a\x0bb", true, "Only printable text can go here: letters, digits, signs and spaces, not the control character U+000B"},
	} {
		if got := Text(c.s, c.multiline); got != c.want {
			t.Errorf("Text(%q, %v) = %q, want %q", c.s, c.multiline, got, c.want)
		}
	}
}

func TestRequestTextNamesTheField(t *testing.T) {
	t.Parallel()
	type inner struct {
		Note string `json:"note" text:"multiline"`
	}
	type request struct {
		Name     string         `json:"name"`
		Password string         `json:"password" text:"-"`
		Tags     []string       `json:"tags"`
		Inner    *inner         `json:"inner"`
		Data     map[string]any `json:"data"`
		Raw      json.RawMessage
	}
	for body, want := range map[string]string{
		`{"name":"Mwila","password":"a\u0000","inner":{"note":"one\ntwo"},"data":{"bio":"a\nb"},"Raw":"\u0000"}`: "",
		`{"name":"Mwi\u0000la"}`:                  "name",
		`{"tags":["ok","n\u0001"]}`:               "tags",
		`{"inner":{"note":"a\u0000"}}`:            "inner.note",
		`{"data":{"nested":{"deep":["\u0002"]}}}`: "data.nested.deep",
		`{"data":{"a\nb":"x"}}`:                   "data.a\nb",
	} {
		var r request
		if err := json.Unmarshal([]byte(body), &r); err != nil {
			t.Fatal(err)
		}
		e := RequestText(r)
		switch {
		case want == "" && e != nil:
			t.Errorf("%s: refused %v", body, e)
		case want != "" && (e == nil || e.Field != want || !strings.HasPrefix(e.Sentence(), want+" can hold only printable text")):
			t.Errorf("%s: %+v, want field %q", body, e, want)
		}
	}
}
