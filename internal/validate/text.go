package validate

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"
)

// The rule for text a request carries (docs/decisions/0221-text-refused-at-the-door.md):
// valid UTF-8 and no control character (C0, DEL, C1: NUL, which PostgreSQL
// cannot hold, among them). A multi-line field (a message, a note, an
// announcement's body) may hold new lines (\n, \r) and tabs. Surrounding
// spaces of any kind are left to the rules that trim them.

// Text returns what is wrong with s as the text of a field, or "" when it
// is fine: the message shown beside the field.
func Text(s string, multiline bool) string {
	if plain(s) {
		return ""
	}
	if !utf8.ValidString(s) {
		return "Only printable text can go here: these bytes are not UTF-8 text"
	}
	inner := s
	if !multiline {
		inner = strings.TrimSpace(s)
	}
	for _, r := range inner {
		if control(r) && !(multiline && (r == '\n' || r == '\r' || r == '\t')) {
			return fmt.Sprintf("Only printable text can go here: letters, digits, signs and spaces, not the control character %U", r)
		}
	}
	return ""
}

// plain reports whether s is printable ASCII only, which no rule refuses.
func plain(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] >= 0x7f {
			return false
		}
	}
	return true
}

// control reports whether r is a control character: C0, DEL or C1.
func control(r rune) bool { return r < 0x20 || r >= 0x7f && r < 0xa0 }

// TextError is a request text that Text refuses: the field (its JSON name,
// nested names joined with dots) and Text's message.
type TextError struct {
	Field, Message string
}

func (e *TextError) Error() string {
	return e.Field + ": " + strings.TrimPrefix(e.Message, "Only printable text can go here: ")
}

// Sentence is the error as one sentence naming the field, for answers
// that have no place for field messages.
func (e *TextError) Sentence() string {
	return e.Field + " can hold only printable text: " + strings.TrimPrefix(e.Message, "Only printable text can go here: ")
}

// RequestText checks every string a decoded request v holds (structs by
// their JSON names, slices, maps' keys and values, pointers) with Text, and
// returns the first one refused, or nil. A struct field tagged
// `text:"multiline"` may hold new lines and tabs, as may any value of a
// map (free-form JSON such as user metadata); one tagged `text:"-"` (a
// password, which is only hashed) is not checked.
func RequestText(v any) *TextError {
	return walkText(reflect.ValueOf(v), "", false)
}

func walkText(v reflect.Value, field string, multiline bool) *TextError {
	switch v.Kind() {
	case reflect.String:
		if msg := Text(v.String(), multiline); msg != "" {
			return &TextError{Field: field, Message: msg}
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			return walkText(v.Elem(), field, multiline)
		}
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return nil // bytes (json.RawMessage): not text
		}
		for i := range v.Len() {
			if err := walkText(v.Index(i), field, multiline); err != nil {
				return err
			}
		}
	case reflect.Map:
		keys := v.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(a.String(), b.String()) })
		for _, k := range keys {
			name := join(field, k.String())
			if err := walkText(k, name, false); err != nil {
				return err
			}
			if err := walkText(v.MapIndex(k), name, true); err != nil {
				return err
			}
		}
	case reflect.Struct:
		t := v.Type()
		for i := range t.NumField() {
			f := t.Field(i)
			tag := f.Tag.Get("text")
			if !f.IsExported() || tag == "-" {
				continue
			}
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "-" {
				continue
			}
			if name == "" {
				name = f.Name
			}
			if f.Anonymous && f.Tag.Get("json") == "" {
				name = field // an embedded struct's fields are the parent's
			} else {
				name = join(field, name)
			}
			if err := walkText(v.Field(i), name, tag == "multiline"); err != nil {
				return err
			}
		}
	}
	return nil
}

func join(parent, name string) string {
	if parent == "" {
		return name
	}
	return parent + "." + name
}
