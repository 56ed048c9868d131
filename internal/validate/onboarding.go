package validate

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"salaula/internal/media"
)

// The spec's lists (section 3).
var (
	// ClothingAesthetics are the eight aesthetic titles.
	ClothingAesthetics = []string{"SPORTS WEAR", "STREET WEAR", "SUMMER WEAR", "FORMAL WEAR",
		"WINTER & FALL", "RETRO OUTFITS", "DENIM WEAR", "MINIMALIST WEAR"}
	// Inspirations are the eight inspiration options.
	Inspirations = []string{"Urban Culture & Trends", "Pop Culture (Movies, Music)",
		"High Fashion & Runway Trends", "Celebrity and Influencer Trends", "Historical eras e.g. 90s",
		"DIY & Up-cycled fashion", "Gothic and Dark Academia", "Seasonal trends e.g winter"}
	// BusinessModes are the four business modes of a seller.
	BusinessModes = []string{"Thrift Shop or Store", "Social Media Sale", "Street Vendor", "None"}
	// Roles are the profile roles.
	Roles = []string{"buyer", "seller", "buyer_and_seller"}
)

// Limits the server adds where the spec is silent
// (docs/decisions/0058-age-and-parental-consent.md and
// docs/decisions/0063-profile-image-urls.md).
const (
	MinAge = 13
	MaxAge = 120
	// AdultAge is the age from which no parent's consent is needed (the Terms).
	AdultAge     = 18
	MaxPhotos    = 3
	MaxLogos     = 2
	maxShortText = 100
	maxLongText  = 2000
)

// ProfileInput is the onboard-new-user payload (spec section 3, call 9).
type ProfileInput struct {
	UserID                string          `json:"userId"`
	Role                  string          `json:"role"`
	FullName              string          `json:"full_name"`
	Location              string          `json:"location"`
	Age                   json.RawMessage `json:"age"`
	PhoneNumber           string          `json:"phone_number"`
	Gender                string          `json:"gender"`
	Height                string          `json:"height"`
	WaistSize             string          `json:"waist_size"`
	StyleDescription      string          `json:"style_description" text:"multiline"`
	ClothingAesthetics    []string        `json:"clothing_aesthetics"`
	Inspiration           string          `json:"inspiration"`
	WantsClearanceProgram bool            `json:"wants_clearance_program"`
	BodyPhotoURLs         []string        `json:"body_photo_urls"`
	ProfilePicURL         *string         `json:"profile_pic_url"`
	// Terms and ParentalConsent are the form's checkboxes; the server keeps
	// them as consent records (internal/account).
	Terms           bool `json:"terms"`
	ParentalConsent bool `json:"parental_consent"`
}

// SellerInput is the onboard-seller payload (spec section 3, call 10).
type SellerInput struct {
	UserID             string          `json:"userId"`
	Role               string          `json:"role"`
	FullName           string          `json:"full_name"`
	Location           string          `json:"location"`
	Age                json.RawMessage `json:"age"`
	PhoneNumber        string          `json:"phone_number"`
	Gender             string          `json:"gender"`
	BusinessName       string          `json:"business_name"`
	RegistrationNumber *string         `json:"registration_number"`
	BusinessMode       string          `json:"business_mode"`
	LogoURLs           []string        `json:"logo_urls"`
	// Terms and ParentalConsent: see ProfileInput.
	Terms           bool `json:"terms"`
	ParentalConsent bool `json:"parental_consent"`
}

// Person is the part both payloads share, cleaned.
type Person struct {
	FullName    string
	Location    string
	Age         int
	PhoneNumber string // canonical: +260 and nine digits
	Gender      string // Male, Female or (seller only) Other
}

// Profile is a valid onboard-new-user payload, cleaned: text trimmed, phone
// canonical, lists without duplicates.
type Profile struct {
	Person
	Role                  string
	Height                string
	WaistSize             string
	StyleDescription      string
	ClothingAesthetics    []string
	Inspiration           string
	WantsClearanceProgram bool
	BodyPhotoURLs         []string
	ProfilePicURL         *string
	// PhotoPaths are the object paths in user-media of BodyPhotoURLs, in order.
	PhotoPaths []string
}

// Seller is a valid onboard-seller payload, cleaned.
type Seller struct {
	Person
	Role               string
	BusinessName       string
	RegistrationNumber *string
	BusinessMode       string
	LogoURLs           []string
	// LogoPaths are the object paths in user-media of LogoURLs, in order.
	LogoPaths []string
}

// Field order of the forms, used to pick the first message of a failed submit.
var fieldOrder = []string{"userId", "role", "full_name", "business_name", "registration_number", "location", "age",
	"phone_number", "style_description", "height", "waist_size", "gender", "business_mode",
	"clothing_aesthetics", "inspiration", "body_photo_urls", "profile_pic_url", "logo_urls", "parental_consent", "terms"}

// First returns the message of the first field with an error, in form order.
func (e Errors) First() string {
	for _, f := range fieldOrder {
		if m, ok := e[f]; ok {
			return m
		}
	}
	for _, m := range e {
		return m
	}
	return ""
}

// text trims s and checks it: required (with msg) and at most max characters.
func text(errs Errors, field, s, required string, max int) string {
	s = strings.TrimSpace(s)
	switch {
	case s == "" && required != "":
		errs[field] = required
	case utf8.RuneCountInString(s) > max:
		errs[field] = fmt.Sprintf("%s is too long (at most %d characters)", fieldLabel(field), max)
	}
	return s
}

func fieldLabel(field string) string {
	l := strings.ReplaceAll(field, "_", " ")
	return strings.ToUpper(l[:1]) + l[1:]
}

// checkAge reads an age sent as a JSON number or a numeric string.
func checkAge(errs Errors, raw json.RawMessage) int {
	s := strings.TrimSpace(string(raw))
	if unq, err := strconv.Unquote(s); err == nil {
		s = strings.TrimSpace(unq)
	}
	if s == "" || s == "null" {
		errs["age"] = "Age is required"
		return 0
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		errs["age"] = "Please enter your age as a whole number"
		return 0
	}
	if n < MinAge || n > MaxAge {
		errs["age"] = fmt.Sprintf("Age must be between %d and %d", MinAge, MaxAge)
	}
	return n
}

// MsgParentalConsent is the message when someone under AdultAge has not
// ticked the parental-consent box.
const MsgParentalConsent = "If you are under 18, a parent or guardian must agree: please tick the parental consent box"

// checkPerson checks the fields both payloads share.
func checkPerson(errs Errors, userID, role, fullName, location string, age json.RawMessage, phone string, parental bool) Person {
	if Blank(userID) {
		errs["userId"] = "userId is required"
	}
	if !slices.Contains(Roles, role) {
		errs["role"] = "Please choose a role: buyer, seller or buyer_and_seller"
	}
	p := Person{
		FullName: text(errs, "full_name", fullName, "Full name is required", maxShortText),
		Location: text(errs, "location", location, "Location is required", maxShortText),
		Age:      checkAge(errs, age),
	}
	if errs["age"] == "" && p.Age < AdultAge && !parental {
		errs["parental_consent"] = MsgParentalConsent
	}
	if Blank(phone) {
		errs["phone_number"] = "Phone number is required"
	} else if canon, ok := ZambianPhone(phone); ok {
		p.PhoneNumber = canon
	} else {
		errs["phone_number"] = MsgPhoneFormat
	}
	return p
}

// ownURLs checks that every URL is the public URL of an object in the
// caller's own user-media folder and returns their object paths.
func ownURLs(errs Errors, field, userID string, urls []string, max int, what string) ([]string, []string) {
	var clean, paths []string
	for _, u := range urls {
		u = strings.TrimSpace(u)
		p, ok := media.PathFromPublicURL(u, media.Bucket)
		if !ok || media.Owner(p) != userID || !strings.Contains(p, "/") {
			errs[field] = "Each " + what + " must be an image you uploaded to your own folder"
			return nil, nil
		}
		if !slices.Contains(clean, u) {
			clean = append(clean, u)
			paths = append(paths, p)
		}
	}
	if len(clean) > max {
		errs[field] = fmt.Sprintf("You can add at most %d %ss", max, what)
	}
	return clean, paths
}

// OnboardingProfile checks an onboard-new-user payload against the spec's
// rules (section 5, onboarding profile) and the server's own. The terms
// checkbox is a rule of the form, not of the payload.
func OnboardingProfile(in ProfileInput) (Profile, Errors) {
	errs := Errors{}
	p := Profile{
		Person:                checkPerson(errs, in.UserID, in.Role, in.FullName, in.Location, in.Age, in.PhoneNumber, in.ParentalConsent),
		Role:                  in.Role,
		StyleDescription:      text(errs, "style_description", in.StyleDescription, "Description is required", maxLongText),
		Height:                text(errs, "height", in.Height, "Height is required", 30),
		WaistSize:             text(errs, "waist_size", in.WaistSize, "Waist size is required", 30),
		Inspiration:           strings.TrimSpace(in.Inspiration),
		WantsClearanceProgram: in.WantsClearanceProgram,
	}
	switch g := strings.TrimSpace(in.Gender); {
	case g == "":
		errs["gender"] = "Gender is required"
	case strings.EqualFold(g, "male"):
		p.Gender = "Male"
	case strings.EqualFold(g, "female"):
		p.Gender = "Female"
	default:
		errs["gender"] = "Please select Male or Female"
	}
	for _, a := range in.ClothingAesthetics {
		if !slices.Contains(ClothingAesthetics, a) {
			errs["clothing_aesthetics"] = "Please choose clothing aesthetics from the list"
			break
		}
		if !slices.Contains(p.ClothingAesthetics, a) {
			p.ClothingAesthetics = append(p.ClothingAesthetics, a)
		}
	}
	if len(p.ClothingAesthetics) == 0 && errs["clothing_aesthetics"] == "" {
		errs["clothing_aesthetics"] = "Please select at least one clothing aesthetic"
	}
	if p.Inspiration != "" && !slices.Contains(Inspirations, p.Inspiration) {
		errs["inspiration"] = "Please choose an inspiration from the list"
	}
	p.BodyPhotoURLs, p.PhotoPaths = ownURLs(errs, "body_photo_urls", in.UserID, in.BodyPhotoURLs, MaxPhotos, "photo")
	if in.ProfilePicURL != nil && strings.TrimSpace(*in.ProfilePicURL) != "" {
		pic := strings.TrimSpace(*in.ProfilePicURL)
		if !slices.Contains(p.BodyPhotoURLs, pic) {
			errs["profile_pic_url"] = "The profile picture must be one of your uploaded photos"
		}
		p.ProfilePicURL = &pic
	}
	return p, errs
}

// OnboardingSeller checks an onboard-seller payload against the spec's rules
// (section 5, seller signup) and the server's own.
func OnboardingSeller(in SellerInput) (Seller, Errors) {
	errs := Errors{}
	s := Seller{
		Person:       checkPerson(errs, in.UserID, in.Role, in.FullName, in.Location, in.Age, in.PhoneNumber, in.ParentalConsent),
		Role:         in.Role,
		BusinessName: text(errs, "business_name", in.BusinessName, "Business name is required", 120),
	}
	switch g := strings.ToLower(strings.TrimSpace(in.Gender)); g {
	case "male", "female", "other":
		s.Gender = strings.ToUpper(g[:1]) + g[1:]
	default:
		errs["gender"] = "Please select your gender"
	}
	if in.RegistrationNumber != nil {
		if reg := text(errs, "registration_number", *in.RegistrationNumber, "", 50); reg != "" {
			s.RegistrationNumber = &reg
		}
	}
	if mode := strings.TrimSpace(in.BusinessMode); slices.Contains(BusinessModes, mode) {
		s.BusinessMode = mode
	} else {
		errs["business_mode"] = "Please select your business mode"
	}
	s.LogoURLs, s.LogoPaths = ownURLs(errs, "logo_urls", in.UserID, in.LogoURLs, MaxLogos, "logo or brand image")
	if len(s.LogoURLs) == 0 && errs["logo_urls"] == "" {
		errs["logo_urls"] = "Please upload at least one logo or brand image"
	}
	return s, errs
}

// BuyerAndSeller checks the combined form (/buyerandsellersignup): both
// payloads, which it sends one after the other. Where both halves check the
// same field, the profile's message wins.
func BuyerAndSeller(profile ProfileInput, seller SellerInput) Errors {
	_, errs := OnboardingSeller(seller)
	_, perrs := OnboardingProfile(profile)
	for f, m := range perrs {
		errs[f] = m
	}
	return errs
}

// MsgPhoneFormat answers a phone number that is not a Zambian one, in every form.
const MsgPhoneFormat = "Please enter a valid Zambian phone number, e.g. +260 97 123 4567"

// zambianPrefixes are the first digits (after +260) of Zambian mobile
// networks (Zamtel 95, 75; MTN 96, 76; Airtel 97, 77; Zedmobile 57) and of
// fixed lines (21x area codes).
var zambianPrefixes = []string{"95", "96", "97", "75", "76", "77", "57", "211", "212", "213", "214", "215", "216", "217", "218"}

// ZambianPhone returns the canonical form (+260 and nine digits) of a
// Zambian phone number written as '+260 97 123 4567', '260971234567',
// '0971234567' or '971234567' (spaces, dashes, dots and brackets allowed).
func ZambianPhone(s string) (string, bool) {
	digits := strings.Map(func(r rune) rune {
		switch r {
		case ' ', '-', '.', '(', ')', '\u00a0':
			return -1
		}
		return r
	}, strings.TrimSpace(s))
	plus := strings.HasPrefix(digits, "+")
	digits = strings.TrimPrefix(digits, "+")
	for _, r := range digits {
		if r < '0' || r > '9' {
			return "", false
		}
	}
	switch {
	case strings.HasPrefix(digits, "00260") && len(digits) == 14 && !plus:
		digits = digits[5:]
	case strings.HasPrefix(digits, "260") && len(digits) == 12:
		digits = digits[3:]
	case plus:
		return "", false
	case strings.HasPrefix(digits, "0") && len(digits) == 10:
		digits = digits[1:]
	}
	if len(digits) != 9 {
		return "", false
	}
	for _, p := range zambianPrefixes {
		if strings.HasPrefix(digits, p) {
			return "+260" + digits, true
		}
	}
	return "", false
}
