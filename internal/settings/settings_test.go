package settings

import (
	"slices"
	"testing"

	"salaula/internal/apierr"
)

func TestContactDetailsNeverSetAreUnsetAndNotShown(t *testing.T) {
	t.Parallel()
	v := map[string]string{}
	for k, d := range Defaults {
		v[k] = d
	}
	if got := Unset(v); !slices.Equal(got, []string{"phone", "whatsapp", "social.whatsapp"}) {
		t.Fatalf("unset by default: %v", got)
	}
	p := MakePublic(v)
	if p.Phone != (Number{}) || p.WhatsApp != (Number{}) {
		t.Fatalf("numbers never set are shown: %+v %+v", p.Phone, p.WhatsApp)
	}
	for _, s := range p.Social {
		if s.Network == "whatsapp" {
			t.Fatalf("hidden WhatsApp channel shown: %+v", s)
		}
	}
	v["phone"], v["social.whatsapp"] = "+260971234567", "https://wa.me/260971234567"
	if got := Unset(v); !slices.Equal(got, []string{"whatsapp"}) {
		t.Fatalf("unset after setting two: %v", got)
	}
	if p := MakePublic(v); p.Phone.Display != "097 123 4567" || p.Phone.Link != "tel:+260971234567" {
		t.Fatalf("phone %+v", p.Phone)
	}
}

func TestPhoneSettingAcceptsNothingAndRefusesOtherNumbers(t *testing.T) {
	t.Parallel()
	if v, err := Clean("phone", "  "); err != nil || v != "" {
		t.Fatalf("empty phone: %q, %v", v, err)
	}
	_, err := Clean("whatsapp", "+1 555 123 4567")
	if e := apierr.As(err); e == nil || e.Kind != apierr.Invalid || e.Message != "Enter a Zambian phone number, e.g. +260 97 123 4567 or 097 123 4567 (or nothing, to show none)." {
		t.Fatalf("foreign number: %v", err)
	}
}
