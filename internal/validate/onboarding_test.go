package validate

import (
	"encoding/json"
	"maps"
	"os"
	"testing"
)

// validationCase is one case of testdata/validation-cases.json.
type validationCase struct {
	Name   string          `json:"name"`
	Input  json.RawMessage `json:"input"`
	Errors Errors          `json:"errors"`
}

// loadCases reads one form's cases from the table shared with the web tests.
func loadCases(t *testing.T, form string) []validationCase {
	t.Helper()
	raw, err := os.ReadFile("../../testdata/validation-cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(raw, &all); err != nil {
		t.Fatal(err)
	}
	var cases []validationCase
	if err := json.Unmarshal(all[form], &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 5 {
		t.Fatalf("%s has only %d cases", form, len(cases))
	}
	return cases
}

// serverExpects drops the rule the server leaves to the form: the terms
// checkbox is not part of the payloads (spec section 3).
func serverExpects(e Errors) Errors {
	out := maps.Clone(e)
	delete(out, "terms")
	return out
}

func checkCases(t *testing.T, form string, run func(json.RawMessage) Errors) {
	for _, c := range loadCases(t, form) {
		t.Run(c.Name, func(t *testing.T) {
			got := run(c.Input)
			if want := serverExpects(c.Errors); !maps.Equal(got, want) {
				t.Fatalf("errors = %v\nwant     %v", got, want)
			}
		})
	}
}

func TestOnboardingProfileCases(t *testing.T) {
	t.Parallel()
	checkCases(t, "onboarding_profile", func(raw json.RawMessage) Errors {
		var in ProfileInput
		if err := json.Unmarshal(raw, &in); err != nil {
			t.Fatal(err)
		}
		_, errs := OnboardingProfile(in)
		return errs
	})
}

func TestSellerCases(t *testing.T) {
	t.Parallel()
	checkCases(t, "seller", func(raw json.RawMessage) Errors {
		var in SellerInput
		if err := json.Unmarshal(raw, &in); err != nil {
			t.Fatal(err)
		}
		_, errs := OnboardingSeller(in)
		return errs
	})
}

func TestBuyerAndSellerCases(t *testing.T) {
	t.Parallel()
	checkCases(t, "buyer_and_seller", func(raw json.RawMessage) Errors {
		var p ProfileInput
		var s SellerInput
		if err := json.Unmarshal(raw, &p); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(raw, &s); err != nil {
			t.Fatal(err)
		}
		return BuyerAndSeller(p, s)
	})
}

func TestZambianPhoneNumbers(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"+260 97 123 4567": "+260971234567", "0971234567": "+260971234567", "971234567": "+260971234567",
		"260961234567": "+260961234567", "00260 95 123 4567": "+260951234567", "(0211) 123-456": "+260211123456",
		"+260 76 123 4567": "+260761234567", "0771234567": "+260771234567", "0571234567": "+260571234567",
		"+260 22 123 4567": "", "+260 21 1234567": "+260211234567", "0111234567": "", "097123456": "", "09712345678": "", "+27821234567": "",
		"+0971234567": "", "097-abc-4567": "", "": "", "+260": "", "0981234567": "",
	} {
		got, ok := ZambianPhone(in)
		if got != want || ok != (want != "") {
			t.Errorf("ZambianPhone(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}

func TestCleanedValues(t *testing.T) {
	t.Parallel()
	pic := " https://x.example/storage/v1/object/public/user-media/u1/photos/a.jpg "
	p, errs := OnboardingProfile(ProfileInput{
		UserID: "u1", Role: "buyer", FullName: "  Chipo  ", Location: "Lusaka", Age: json.RawMessage(`"24"`),
		PhoneNumber: "0971234567", Gender: "female", Height: "1.6 m", WaistSize: "28", StyleDescription: "denim",
		ClothingAesthetics: []string{"DENIM WEAR", "DENIM WEAR"}, BodyPhotoURLs: []string{pic, pic}, ProfilePicURL: &pic,
	})
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	if p.FullName != "Chipo" || p.Age != 24 || p.Gender != "Female" || p.PhoneNumber != "+260971234567" ||
		len(p.ClothingAesthetics) != 1 || len(p.BodyPhotoURLs) != 1 || p.PhotoPaths[0] != "u1/photos/a.jpg" ||
		*p.ProfilePicURL != p.BodyPhotoURLs[0] {
		t.Fatalf("cleaned = %+v", p)
	}
	// The folder itself, or a URL with a traversal, is not an uploaded image.
	for _, u := range []string{"https://x.example/storage/v1/object/public/user-media/u1",
		"https://x.example/storage/v1/object/public/user-media/u1/../u2/a.jpg",
		"javascript:alert(1)//storage/v1/object/public/user-media/u1/a.jpg"} {
		if _, errs := OnboardingProfile(ProfileInput{UserID: "u1", BodyPhotoURLs: []string{u}}); errs["body_photo_urls"] == "" {
			t.Errorf("%s accepted", u)
		}
	}
}
